#!/usr/bin/env python3
"""Fits the fitted figures of the shipped calibrations, each to a named fit set:

- `overlap.exponent`, how a kernel's compute and memory parts add up near its ridge point:
  ridge's own measurement of an H200 (docs/measurements/h200-2026-11-30/h200.json), the points
  of its bf16 GEMM batch sweep whose intensity lies from half to four times that device's ridge
  point, each priced by the model from the same measurement's peak and bandwidth with its sweep
  left out (else the sweep would correct the model to its own points).

The others are fitted to validation sets that `ridge validate` reports as fit sets:

- Hopper's `collective.latency` and `collective.step_latency`, what a collective call costs
  beyond its kernel's cost, and each step of its ring: NVIDIA aiconfigurator's H100 table of
  nccl-tests (data/validation/collective_aiconfigurator_h100_fp16.tsv), its rows of
  NCCL_LATENCY_BYTES and less, where the fixed costs are most of the time, every collective: the
  call's over 2 GPUs (one or two steps), the step's over 8 (7 or 14), each fitted through the
  other until neither moves; its 4-GPU rows and the H200's table hold them out.
- Blackwell's `collective.latency` and `collective.step_latency`, the same from NVIDIA
  aiconfigurator's B300 table of nccl-tests (data/validation/collective_aiconfigurator_b300_fp16.tsv);
  its 4-GPU rows and the B200's table hold them out. Ampere, with one table, keeps NCCL's own
  figures, and that table holds them out.
- `collective.local_step`, the step of each chunk of a ring collective that sends nothing over
  the link, as a share of one that does: NVIDIA aiconfigurator's H100 table of nccl-tests
  (data/validation/collective_aiconfigurator_h100_fp16.tsv, NCCL 2.29.2 over 2, 4 and 8 GPUs),
  its rows of NCCL_FIT_BYTES and more, where the link's rate decides the time, all-reduces over
  8 GPUs aside (NCCL runs those on NVLink SHARP); the A100's, H200's, B200's and B300's tables
  hold it out. It is fitted after Hopper's latencies, which those rows hardly feel, and depends
  on no other fitted figure.
- Hopper's `collective.nvls_latency`, a call of NCCL's NVLS all-reduce: the same H100 table, its
  all-reduces over 8 GPUs of NVLS_FIT_BYTES and more, whose bus bandwidth passes the ring's, with
  NVLS's bandwidth share NCCL's own (an estimate); the H200's tables hold it out.
- Blackwell's `collective.p2p_channel_bandwidth`, what one of NCCL's point-to-point channels
  moves: NVIDIA aiconfigurator's B300 table of nccl-tests, its all-to-alls over 2 GPUs of
  NCCL_FIT_BYTES and more, where each peer has 16 of the 32 channels and they, not the link, set
  the rate; its 4- and 8-GPU all-to-alls and the B200's, GB200's and GB300's tables hold it out.
  Fitted to the H100's table the same way it runs off the range's end: Hopper's link, not its
  channels, sets those rows' rate, and Hopper's profile has no such figure.
- `attention.decode_block_overhead`, what each block of a decode kernel costs beyond streaming
  its keys: NVIDIA aiconfigurator's H100 decode attention table
  (data/validation/decode_attention_aiconfigurator_h100_bf16.tsv: TensorRT-LLM 1.0's XQA and
  masked MHA kernels, the blocks as its multi-block heuristic deals them), every row; the
  H200's and A100's tables hold it out.
- `attention.trtllm_efficiency_d128`, the main loop's rate of TensorRT-LLM's context FMHA at a
  head of 128, as a share of the dense 16-bit peak: NVIDIA aiconfigurator's H100 context
  attention table (data/validation/attention_aiconfigurator_h100_bf16.tsv: TensorRT-LLM 1.3's
  attention layer on causal prompts of 128 to 16k tokens), every row; Ampere takes the same
  figure, and the A100's and H200's tables hold it out. Blackwell Ultra's, the same from the
  B300's table (trtllm-gen's kernels, whose exponentials run twice as fast as the B200's), every
  row; the GB300's table holds it out (the B200 keeps its own, lower share, an estimate:
  data/calibration/blackwell.toml).
- `fixed.graph_kernel_floor`, what each kernel of a model step costs under CUDA graphs beyond
  its bytes and FLOPs: gpt-fast's bf16 rows (source S3 of
  data/validation/llm_inference_gptfast_nemo.tsv: torch.compile with CUDA graphs, batch 1, TP 1
  to 8, A100 SXM 80GB at 330 W), which no other figure here touches.
- `weight_only.torch_reduction`, the share of a streaming read's rate Inductor's reduction reaches
  where gpt-fast's compiled step runs a one-row product as one: S3's bf16 rows over at most
  FEW_GPUS GPUs, where the weights' stream is most of a step, the kernel floor fitted to all its
  bf16 rows through it.
- `weight_only.torch_8bit` and `weight_only.torch_4bit`, the share of the bandwidth PyTorch's
  int8 and int4 weight-only kernels reach: S3's int8 and int4 rows, the kernel floor as fitted.
- `fixed.eager_pytorch_op`, what eager PyTorch's host spends on each op: the PyTorch blog's
  eager gpt-fast baseline (source S10 of data/validation/llm_inference_pytorch_eager.tsv), the
  kernel floor as fitted.
- `fixed.launch_overhead`, what the host of an engine that launches its kernels one by one
  spends on each op: NeMo's inference on its TensorRT-LLM backend (source S6 of
  llm_inference_gptfast_nemo.tsv: Llama 2 7B, batch 1 to 8, TP 1 to 8, A100 and H100), all its
  rows; TensorRT-LLM's own tables (llm_inference_trtllm.tsv, S7 and S8) hold it out.
- Ada's `fixed.kernel_floor` and `fixed.graph_kernel_floor` (one value): what an L40S's kernel
  costs however small, launched alone or in a graph, which its GEMM table cannot tell apart:
  NVIDIA aiconfigurator's L40S GEMM table, its products of SMALL_ROWS rows or fewer over
  SMALL_WEIGHTS weights or fewer; the L40S's context-attention, decode-attention and NCCL tables
  hold it out. The blackwell-rtx profile (the RTX PRO 6000 Blackwell Server Edition's GB202)
  copies them; the other profiles keep the graph floor fitted to gpt-fast's rows (below).
- Ada's `power.sustained_clock` and `power.clock_time_constant`: the share of the boost clock
  the full-rate Ada parts (the L40S, L4 and RTX 6000 Ada, rated at 1024 FLOP a clock an SM)
  hold through a long product under their power limit, and how fast their clock falls to it
  once a dense load begins, their tensor shares at the boost clock being Hopper's: NVIDIA
  aiconfigurator's L40S GEMM table (data/validation/gemm_aiconfigurator_l40s_bf16.tsv, each
  timed call 6 to 12 iterations into a burst of them), the sustained clock to its products of
  LONG_SIDE or more in every dimension (timed 30 to 500 ms into their bursts), the time constant
  to its products of BURST_SIDE or more (timed from under a millisecond in), each fitted
  through the other; the L40S's context attention table and TensorRT-LLM's L40S runs
  (llm_inference_trtllm.tsv, S7 and S8) hold them out.
- The blackwell-rtx profile's `compute.bf16` and `compute.fp16` (one value): the share of the 16-bit
  tensor peak the RTX PRO 6000 Blackwell Server Edition's cuBLAS products reach, with no power
  fall (its largest products run at one rate from 0.2 to 22 ms): NVIDIA aiconfigurator's bf16
  GEMM table of the part (data/validation/gemm_aiconfigurator_rtx-pro-6000-server_bf16.tsv), its
  products of LARGE_SIDE or more in every dimension; the part's fp8, SGLang, attention and
  collective tables hold it out.
- The blackwell-rtx profile's `compute.fp8` and `compute.int8` (one value): the share of the 8-bit
  tensor peak the same part's cuBLASLt products reach: NVIDIA aiconfigurator's fp8 GEMM table of
  the part (data/validation/gemm_aiconfigurator_rtx-pro-6000-server_fp8.tsv, TensorRT-LLM's
  per-tensor fp8 Linear), its products of LARGE_SIDE or more in every dimension; SGLang's fp8
  table of the part (sgl-kernel's CUTLASS product) holds it out.
- The xe2 profile's `compute.bf16` and `compute.fp16` (one value) and `memory.bandwidth`: the
  shares of the Arc Pro B60's 16-bit XMX peak and GDDR6 rate that oneDNN's products reach
  through vLLM 0.20's Linear layer on XPU: NVIDIA aiconfigurator's bf16 GEMM table of the part
  (data/validation/gemm_aiconfigurator_arc-pro-b60_vllm.tsv), the compute share to its products
  of LARGE_SIDE or more in every dimension, the bandwidth share to its GEMVs (by the rule of
  Blackwell's `memory.gemm_bandwidth` below), each fitted through the other; the part's context
  and decode attention tables hold them out.
- Blackwell's `memory.bandwidth`, the share of the HBM's rate its streaming kernels reach: the
  rows of NVIDIA aiconfigurator's B300 decode attention table
  (data/validation/decode_attention_aiconfigurator_b300_bf16.tsv: TensorRT-LLM's trtllm-gen
  kernels) whose K and V come to 1 GiB or more; the B200's, GB200's and GB300's tables hold it
  out. A decode call runs no GEMM, and a GEMV streams nothing but through a GEMM: neither this
  share nor the next touches the other's rows.
- Blackwell's `memory.gemm_bandwidth`, the share of the HBM's rate its GEMM kernels reach: the
  GEMVs of NVIDIA aiconfigurator's B300 table (data/validation/gemm_aiconfigurator_b300_bf16.tsv,
  m up to 8 rows, 2^26 weights or more, where the kernel floor is an eighth of the time or less);
  the B200's table holds it out. GB202's (`blackwell-rtx`) since the forty-fourth session: the
  GEMVs of its bf16 table (data/validation/gemm_aiconfigurator_rtx-pro-6000-server_bf16.tsv) by
  the same rule. Ampere's since the fifty-first session: the GEMVs of the A100's bf16 table
  (data/validation/gemm_aiconfigurator_a100_bf16.tsv) by the same rule; the A100's vLLM and SGLang
  tables, Vidur's and LLMCompass's A100 GEMMs and TensorRT-LLM's A100 runs hold it out. Where a
  profile has an L2 rate, the GEMVs whose weights the model holds in the
  L2 between calls are left out: main memory serves none of their bytes (GB202's 128 MB L2 holds
  the 2^26-weight products' 134 MB; Blackwell's profiles have no L2 rate, and every GEMV of the
  B300's table stays in).
- Blackwell's `memory.grouped_gemm_bandwidth`, the share of the HBM's rate CUTLASS's plain
  grouped kernel streams its weights at (TensorRT-LLM's MoE experts in bf16 and per-tensor fp8):
  the rows of NVIDIA aiconfigurator's B300 table of that MoE
  (data/validation/moe_aiconfigurator_b300_trtllm.tsv) with every expert on the one GPU, each
  receiving 1 to GEMV_ROWS rows (streams_weights); the B200's, GB200's and GB300's tables hold it
  out. Its block-scaled kind (NVFP4) keeps `memory.gemm_bandwidth`.
- Blackwell's `memory.latent_decode_bandwidth`, the share of the HBM's rate DeepSeek's latent
  attention streams its cache at in decode (TensorRT-LLM's trtllm-gen MLA kernels): the rows of
  NVIDIA aiconfigurator's B300 table of that attention
  (data/validation/decode_attention_aiconfigurator_b300_mla.tsv) whose latent cache, read once,
  comes to 1 GiB or more; the B200's, GB200's and GB300's tables hold it out.
- Hopper's `fixed.graph_repeat_floor`, what an element-wise kernel replayed from a CUDA graph
  right after the same kernel costs beyond its bytes: ridge's own run of PyTorch's multiply on
  an H200 (data/validation/elementwise_torch_h200_mul.tsv: 20 calls a graph), its rows of
  SMALL_ELEMENTS elements or fewer; aiconfigurator's H100 and H200 tables of TensorRT-LLM's
  quantization kernel hold it out. Blackwell's (both profiles): NVIDIA aiconfigurator's B300 table
  of that kernel (data/validation/elementwise_aiconfigurator_b300_quantize.tsv: five calls a
  graph), its rows of SMALL_ELEMENTS elements or fewer; the B200's, GB200's and GB300's hold it
  out.
- `memory.amax_grid_floor` and `memory.amax_grid_bandwidth`, what TensorRT-LLM's per-tensor amax
  kernel (a fixed grid of 1024 blocks of 1024 threads) and the zeroing of its scale cost beyond
  their bytes, and the rate its narrow loads read the input at: NVIDIA aiconfigurator's table of
  TensorRT-LLM's quantization that finds its own scale (the amax, then the quantization; five
  calls a graph), the floor to its rows of SMALL_ELEMENTS elements or fewer, the rate to its rows
  of LARGE_ELEMENTS or more, each through the other: Hopper's the H100's
  (data/validation/elementwise_aiconfigurator_h100_dynamic_quantize.tsv), Blackwell's (both
  profiles) the B300's; the H200's, B200's, GB200's and GB300's tables and TensorRT-LLM's fp8
  GEMM tables (whose calls quantize their input this way) hold them out.
- `fixed.graph_chain_floor`, what a small element-wise kernel costs beyond its bytes when a CUDA
  graph replays it right after another of a chain (a quantization's passes before a product):
  NVIDIA aiconfigurator's table of vLLM 0.14's per-tensor fp8 Linear (each call's input
  quantized by PyTorch's eager expression, four kernels after the first, then the product), its
  products of SMALL_ROWS rows or fewer over SMALL_WEIGHTS weights or fewer: Hopper's the H100's
  (data/validation/gemm_aiconfigurator_h100_vllm_fp8.tsv), Blackwell's (both profiles) the
  GB300's (there is no B300 vLLM table); the H200's and GB200's vLLM tables, vLLM's block-scaled
  table (a chain of eight) and TensorRT-LLM's fp8 tables (the amax on its grid, then two more)
  hold it out.
- `collective.custom_latency`, what a serving engine's one-shot all-reduce costs a call beyond
  its kernel's fixed cost and its bytes: NVIDIA aiconfigurator's tables of TensorRT-LLM's
  AllReduce (strategy AUTO, five calls a CUDA graph), the H100's for the hopper profile (Ampere's
  takes the same value) and the B300's for the blackwell and blackwell-ultra profiles
  (data/validation/collective_aiconfigurator_{h100,b300}_trtllm_allreduce.tsv), their rows of
  NCCL_LATENCY_BYTES and less over 2, 4 and 8 GPUs; the other parts' TensorRT-LLM tables hold
  it out.
- `collective.two_shot_share`, the rate TensorRT-LLM's two-shot all-reduce moves its peer
  traffic at, as a share of the ring's link rate: the same two tables, their rows TensorRT-LLM's
  lookup table sends to its two-shot kernel (the rows whose expected time names it); Ampere's
  takes Hopper's value; the other parts' tables hold it out.
- `collective.pull_barrier_latency`, `pull_peer_read_latency`, `pull_share` and
  `pull_two_stage_barrier`, vLLM's custom all-reduce (SGLang's its descendant): NVIDIA
  aiconfigurator's tables of vLLM 0.14.0's all-reduce on an H100 node for the hopper profile and
  on an A100 node for the ampere profile, and of SGLang 0.5.10's on a B300 node for the blackwell
  and blackwell-ultra profiles (data/validation/collective_aiconfigurator_<part>_vllm_allreduce.tsv
  for the H100 and A100, collective_aiconfigurator_b300_sglang_allreduce.tsv), each figure to the
  rows it governs: the barrier to the rows of NCCL_LATENCY_BYTES and less, the peer read latency
  to the one-stage rows of PULL_LARGE_BYTES and more over 2 GPUs, the share to the two-stage rows
  of PULL_TWO_STAGE_LARGE_BYTES and more, the two-stage barrier to the two-stage rows below that;
  the other parts' vLLM and SGLang tables hold them out.

- `gemm.triton_moe_step` and `gemm.triton_moe_small_step`, what an SM takes for each K step of
  vLLM's Triton fused-MoE kernel at its two default tiles: vLLM's own H100 timings of them
  (data/validation/moe_vllm_benchmark_h100_fp8.tsv: pull request 24700's benchmark_moe.py run of
  Qwen3-30B-A3B's experts in per-tensor fp8, 1 to 4,096 tokens), the 64 x 64 tile's to its rows
  of more tokens than experts, the 16 x 32 tile's to the others, each fitted through the other;
  the hopper profile's, which the Blackwell profiles copy as an estimate. aiconfigurator's vLLM
  MoE tables hold them out.
- Blackwell's `memory.chained_load`, one step of a chain of loads, and `gemm.descriptor_switch`,
  what a tile of CUTLASS's grouped kernel waits for each TMA descriptor it switches when it
  starts another expert than its SM's last: NVIDIA aiconfigurator's B300 table of TensorRT-LLM's
  CUTLASS MoE in NVFP4 (data/validation/moe_aiconfigurator_b300_trtllm_nvfp4.tsv), the chained
  load to its rows of one token (the kernels around the products wait on their chains), the
  switch to its rows with the intermediate width split over GPUs (a K step or two a tile), each
  fitted through the other; the hopper profile copies the switch as an estimate. The B200's,
  GB200's and GB300's NVFP4 tables and every part's bf16 and fp8 MoE tables hold them out.

Two figures are fitted to a paper's figure, no validation set: Hopper's `attention.efficiency_d128`
and `attention.block_overhead`, the main loop's rate A and each block's fixed part c of
FlashAttention-3's forward pass (Shah et al. 2024, Figure 5: head 128, no mask, H100 SXM5, B x S
= 16k tokens, hidden dimension 2048, so 16 heads), a block visiting n = S / 128 key tiles running
at A n / (n + c): the least-squares fit of relative error to its six bars (c on a 0.01 grid, A in
closed form for each c). Every bar is 2048 blocks of 128 queries (16 heads x 16k tokens / 128) on
132 SMs: 16 rounds of blocks where 15.5 would do, so each bar is 2048 / (16 x 132) of the rate its
blocks run at, as the model schedules them. The profile keeps c as a time, c tiles at the rate A
(a block's fixed part is memory latency and setup, not tensor work).

The other figures are each the one value that makes its rows' median signed error zero, everything else in the
model as shipped, in the order above (the overlap first: every other figure is fitted through
it), the passes repeated until no figure moves; no other set is looked at. The held-out checks are
torchao's tables (llm_inference_torchao.tsv, S9), torchao's eager runs (S11), TensorRT-LLM's
tables (S7, S8), the B200's GEMM table (gemm_aiconfigurator_b200_bf16.tsv), the A100's, H200's
and GB300's context attention tables, the H200's, A100's, B200's, GB200's and GB300's decode
attention tables, the A100's, H200's and B200's NCCL tables, the other parts' all-reduce tables
of TensorRT-LLM, vLLM and SGLang, the other parts' quantization tables and aiconfigurator's vLLM
MoE tables.

    scripts/fit-calibration.py RIDGE            prints the fitted values
    scripts/fit-calibration.py RIDGE --check    exit 1 when a shipped value is not the fit's
"""

import argparse
import json
import math
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The profiles that carry fitted figures, or copies of them (Ada's and CDNA 3's copy Ampere's
# and Hopper's and must stay equal to them, but for Ada's kernel floors, fitted to the L40S's
# own table, which GB202's copies).
PROFILES = ["ampere", "hopper", "blackwell", "blackwell-ultra", "ada", "ada-geforce", "cdna3",
            "cdna3-mi325x", "blackwell-rtx", "xe2"]
# The profiles whose kernel floors are the L40S's (fitted to its own table, and GB202's copy of
# them); every other profile keeps the graph floor fitted to gpt-fast's rows.
L40S_FLOORS = ("ada", "blackwell-rtx")
# The profiles that run TensorRT-LLM's pre-Blackwell attention kernels (fmha_v2, XQA, masked MHA)
# and so carry the figures fitted to them on an H100.
PRE_BLACKWELL_ATTENTION = ("ampere", "hopper", "ada", "ada-geforce", "blackwell-rtx")
H200 = ROOT / "docs/measurements/h200-2026-11-30/h200.json"
GPTFAST = ROOT / "data/validation/llm_inference_gptfast_nemo.tsv"
EAGER = ROOT / "data/validation/llm_inference_pytorch_eager.tsv"
B300 = ROOT / "data/validation/gemm_aiconfigurator_b300_bf16.tsv"
A100 = ROOT / "data/validation/gemm_aiconfigurator_a100_bf16.tsv"
L40S = ROOT / "data/validation/gemm_aiconfigurator_l40s_bf16.tsv"
RTX_PRO = ROOT / "data/validation/gemm_aiconfigurator_rtx-pro-6000-server_bf16.tsv"
RTX_PRO_FP8 = ROOT / "data/validation/gemm_aiconfigurator_rtx-pro-6000-server_fp8.tsv"
B60 = ROOT / "data/validation/gemm_aiconfigurator_arc-pro-b60_vllm.tsv"
B300_DECODE = ROOT / "data/validation/decode_attention_aiconfigurator_b300_bf16.tsv"
H100_DECODE = ROOT / "data/validation/decode_attention_aiconfigurator_h100_bf16.tsv"
H100_CONTEXT = ROOT / "data/validation/attention_aiconfigurator_h100_bf16.tsv"
B300_CONTEXT = ROOT / "data/validation/attention_aiconfigurator_b300_bf16.tsv"
H100_NCCL = ROOT / "data/validation/collective_aiconfigurator_h100_fp16.tsv"
B300_NCCL = ROOT / "data/validation/collective_aiconfigurator_b300_fp16.tsv"
H100_ALLREDUCE = ROOT / "data/validation/collective_aiconfigurator_h100_trtllm_allreduce.tsv"
B300_ALLREDUCE = ROOT / "data/validation/collective_aiconfigurator_b300_trtllm_allreduce.tsv"
H100_VLLM_ALLREDUCE = ROOT / "data/validation/collective_aiconfigurator_h100_vllm_allreduce.tsv"
B300_SGLANG_ALLREDUCE = ROOT / "data/validation/collective_aiconfigurator_b300_sglang_allreduce.tsv"
A100_VLLM_ALLREDUCE = ROOT / "data/validation/collective_aiconfigurator_a100_vllm_allreduce.tsv"
H200_ELEMENTWISE = ROOT / "data/validation/elementwise_torch_h200_mul.tsv"
B300_QUANTIZE = ROOT / "data/validation/elementwise_aiconfigurator_b300_quantize.tsv"
H100_VLLM_FP8 = ROOT / "data/validation/gemm_aiconfigurator_h100_vllm_fp8.tsv"
GB300_VLLM_FP8 = ROOT / "data/validation/gemm_aiconfigurator_gb300_vllm_fp8.tsv"
H100_DYNAMIC_QUANTIZE = ROOT / "data/validation/elementwise_aiconfigurator_h100_dynamic_quantize.tsv"
B300_DYNAMIC_QUANTIZE = ROOT / "data/validation/elementwise_aiconfigurator_b300_dynamic_quantize.tsv"
B300_NVFP4 = ROOT / "data/validation/gemm_aiconfigurator_b300_nvfp4.tsv"
VLLM_MOE = ROOT / "data/validation/moe_vllm_benchmark_h100_fp8.tsv"
B300_NVFP4_MOE = ROOT / "data/validation/moe_aiconfigurator_b300_trtllm_nvfp4.tsv"
B300_MOE = ROOT / "data/validation/moe_aiconfigurator_b300_trtllm.tsv"
B300_MLA = ROOT / "data/validation/decode_attention_aiconfigurator_b300_mla.tsv"
H100_VLLM_CONTEXT = ROOT / "data/validation/attention_aiconfigurator_h100_vllm.tsv"
NCCL_FIT_BYTES = 32 * 2**20  # from here up the link's rate is most of a collective's time
NVLS_FIT_BYTES = 64 * 2**20  # from here up an 8-GPU H100 all-reduce passes the ring's rate: NVLS
NCCL_LATENCY_BYTES = 64 * 2**10  # up to here a collective's fixed costs are most of its time
PULL_LARGE_BYTES = 2**20  # from here vLLM's one-stage kernel's reads are most of its time
PULL_TWO_STAGE_LARGE_BYTES = 2 * 2**20  # and its two-stage kernel's
MAX_PASSES = 5
FEW_GPUS = 2  # gpt-fast's steps over at most this many GPUs are mostly their weights' stream
TP_FIELD = re.compile(r"\btp=(\d+)\b")
NCCL_LABEL = re.compile(r"^(\w+) (\d+) B over (\d+) GPUs$")
GEMV_ROWS = 8  # a GEMM of at most this many rows reads its weights and does little else
GEMV_WEIGHTS = 2**26  # elements (134 MB in bf16): the 3 us floor an eighth of the time or less
SMALL_ROWS = 64  # an L40S's GEMM of at most this many rows and SMALL_WEIGHTS weights is mostly
SMALL_WEIGHTS = 2**22  # its fixed costs (4 to 8 us all told)
LONG_SIDE = 8192  # an L40S's GEMM this large in every dimension runs long enough to throttle
BURST_SIDE = 1024  # from this large in every dimension an L40S's GEMM is its tensor cores' work
LARGE_SIDE = 4096  # from this large in every dimension a GEMM is mostly its products (B300 NVFP4,
#                   RTX PRO 6000 bf16)
LARGE_CACHE_BYTES = 2**30  # K and V this large: streaming them is nearly all of a decode call
SMALL_ELEMENTS = 2**16  # an element-wise kernel this small is mostly its fixed cost
LARGE_ELEMENTS = 2**26  # and one this large (128 MiB of 16-bit input) mostly its bytes
DECODE_FIELD = re.compile(r"\b(d_head|keys|heads|kv_heads|batch)=(\d+)")
MOE_LABEL = re.compile(r"^(\d+) tokens, top (\d+) of (\d+) experts")


@dataclass(frozen=True)
class Figure:
    key: str              # as the profiles write it
    file: pathlib.Path    # the fit set: this file's rows of `source` (or a measured device)
    source: str           # "sweep": the GEMM sweep of the measured device `file`
    rows: str             # whose labels end with this precision (NCCL latencies: the GPU count)
    low: float            # the bisection's range
    high: float
    step: float           # the profiles carry the figure to this
    rising: bool          # the median error rises with the figure (a cost), else falls (a share)
    profiles: tuple = tuple(PROFILES)  # the profiles that carry it, all at one value

    def pattern(self) -> re.Pattern:
        """Its lines in a profile: `key` may name several figures that keep one value, "a|b"."""
        return re.compile(rf"^((?:{self.key}) = \{{ value = )([0-9.eE+-]+)", re.M)

    def label(self) -> str:
        """The key, with the profiles that carry it where not every profile does."""
        keys = self.key.replace("|", " and ")
        if self.profiles == tuple(PROFILES):
            return keys
        return f"{keys} ({', '.join(self.profiles)})"


# vLLM's custom all-reduce figures, each architecture's fitted to one of its tables: key, the rows
# it governs (pull_allreduce_fits), the GPU count of the peer read latency's rows, the range, the
# step and whether the median error rises with it.
PULL_FIGURES = (
    ("pull_barrier_latency", "pull-barrier", "", 0.0, 20e-6, 1e-8, True),
    ("pull_peer_read_latency", "pull-peer", "2", 1e-8, 10e-6, 1e-8, True),
    ("pull_share", "pull-share", "", 0.05, 1.0, 0.001, False),
    ("pull_two_stage_barrier", "pull-two-stage", "", 0.0, 20e-6, 1e-8, True),
)
# Each architecture's table of them and the profiles its fit sets (Blackwell's a B300's SGLang
# table: there is no B300 vLLM table).
PULL_FIT_SETS = (
    (H100_VLLM_ALLREDUCE, ("hopper",)),
    (A100_VLLM_ALLREDUCE, ("ampere",)),
    (B300_SGLANG_ALLREDUCE, ("blackwell", "blackwell-ultra")),
)

FIGURES = [
    Figure("exponent", H200, "sweep", "bf16", 1.0, 20.0, 0.1, False),
    Figure("latency", H100_NCCL, "nccl-latency", "2", 0.0, 20e-6, 1e-7, True, ("hopper",)),
    Figure("step_latency", H100_NCCL, "nccl-latency", "8", 0.0, 5e-6, 1e-8, True, ("hopper",)),
    Figure("latency", B300_NCCL, "nccl-latency", "2", 0.0, 20e-6, 1e-7, True,
           ("blackwell", "blackwell-ultra")),
    Figure("step_latency", B300_NCCL, "nccl-latency", "8", 0.0, 5e-6, 1e-8, True,
           ("blackwell", "blackwell-ultra")),
    Figure("local_step", H100_NCCL, "nccl", "", 0.0, 1.0, 0.01, True),
    Figure("nvls_latency", H100_NCCL, "nccl-nvls", "8", 0.0, 200e-6, 1e-7, True, ("hopper",)),
    Figure("p2p_channel_bandwidth", B300_NCCL, "nccl-p2p", "2", 1e9, 100e9, 1e8, False,
           ("blackwell", "blackwell-ultra")),
    Figure("decode_block_overhead", H100_DECODE, "table", "bf16", 0.0, 20e-6, 1e-7, True,
           PRE_BLACKWELL_ATTENTION),
    Figure("trtllm_efficiency_d128", H100_CONTEXT, "table", "bf16", 0.2, 1.0, 0.001, False,
           PRE_BLACKWELL_ATTENTION),
    Figure("trtllm_efficiency_d128", B300_CONTEXT, "table", "bf16", 0.2, 1.0, 0.001, False,
           ("blackwell-ultra",)),
    Figure("graph_kernel_floor", GPTFAST, "S3", "bf16", 0.0, 50e-6, 1e-7, True,
           tuple(p for p in PROFILES if p not in L40S_FLOORS)),
    Figure("torch_reduction", GPTFAST, "S3-few-gpus", "bf16", 0.2, 1.0, 0.01, False),
    Figure("torch_8bit", GPTFAST, "S3", "int8 weight-only", 0.2, 1.0, 0.01, False),
    Figure("torch_4bit", GPTFAST, "S3", "int4 weight-only g32", 0.2, 1.0, 0.01, False),
    Figure("eager_pytorch_op", EAGER, "S10", "bf16", 0.0, 1e-3, 1e-6, True),
    Figure("launch_overhead", GPTFAST, "S6", "", 0.0, 100e-6, 1e-7, True),  # every S6 row
    Figure("gemm_bandwidth", B300, "gemv", "bf16", 0.3, 1.0, 0.001, False,
           ("blackwell", "blackwell-ultra")),
    Figure("gemm_bandwidth", RTX_PRO, "gemv", "bf16", 0.3, 1.0, 0.001, False, ("blackwell-rtx",)),
    Figure("gemm_bandwidth", A100, "gemv", "bf16", 0.3, 1.0, 0.001, False, ("ampere",)),
    Figure("fp4", B300_NVFP4, "gemm-large", "nvfp4->bf16", 0.05, 1.0, 0.001, False,
           ("blackwell", "blackwell-ultra")),
    Figure("bandwidth", B300_DECODE, "decode-large", "bf16", 0.3, 1.0, 0.001, False,
           ("blackwell", "blackwell-ultra")),
    Figure("kernel_floor|graph_kernel_floor", L40S, "gemm-small", "bf16", 0.0, 10e-6, 1e-7, True,
           L40S_FLOORS),
    Figure("sustained_clock", L40S, "gemm-long", "bf16", 0.2, 1.0, 0.001, False, ("ada",)),
    Figure("clock_time_constant", L40S, "gemm-burst", "bf16", 1e-4, 1.0, 1e-3, False, ("ada",)),
    Figure("bf16|fp16", RTX_PRO, "gemm-large", "bf16", 0.3, 1.0, 0.001, False, ("blackwell-rtx",)),
    Figure("fp8|int8", RTX_PRO_FP8, "gemm-large", "fp8_e4m3->bf16", 0.3, 1.0, 0.001, False,
           ("blackwell-rtx",)),
    Figure("bf16|fp16", B60, "gemm-large", "bf16", 0.3, 1.0, 0.001, False, ("xe2",)),
    Figure("bandwidth", B60, "gemv", "bf16", 0.3, 1.0, 0.001, False, ("xe2",)),
    Figure("custom_latency", H100_ALLREDUCE, "custom-latency", "", 0.0, 20e-6, 1e-7, True,
           ("ampere", "hopper")),
    Figure("custom_latency", B300_ALLREDUCE, "custom-latency", "", 0.0, 20e-6, 1e-7, True,
           ("blackwell", "blackwell-ultra")),
    Figure("two_shot_share", H100_ALLREDUCE, "two-shot", "", 0.05, 1.0, 0.001, False,
           ("ampere", "hopper")),
    Figure("two_shot_share", B300_ALLREDUCE, "two-shot", "", 0.05, 1.0, 0.001, False,
           ("blackwell", "blackwell-ultra")),
    *(
        Figure(key, table, source, rows, low, high, step, rising, profiles)
        for table, profiles in PULL_FIT_SETS
        for key, source, rows, low, high, step, rising in PULL_FIGURES
    ),
    Figure("graph_repeat_floor", H200_ELEMENTWISE, "elementwise-small", "bf16", 0.0, 10e-6, 1e-8,
           True, ("hopper",)),
    Figure("graph_repeat_floor", B300_QUANTIZE, "elementwise-small", "fp8_e4m3", 0.0, 10e-6, 1e-8,
           True, ("blackwell", "blackwell-ultra")),
    *(
        Figure(key, table, source, "fp8_e4m3", low, high, step, rising, profiles)
        for table, profiles in ((H100_DYNAMIC_QUANTIZE, ("hopper",)),
                                (B300_DYNAMIC_QUANTIZE, ("blackwell", "blackwell-ultra")))
        for key, source, low, high, step, rising in (
            ("amax_grid_floor", "elementwise-small", 0.0, 20e-6, 1e-8, True),
            ("amax_grid_bandwidth", "elementwise-large", 1e11, 1e13, 1e10, False))
    ),
    Figure("graph_chain_floor", H100_VLLM_FP8, "gemm-small", "fp8_e4m3->bf16", 0.0, 10e-6, 1e-8,
           True, ("hopper",)),
    Figure("graph_chain_floor", GB300_VLLM_FP8, "gemm-small", "fp8_e4m3->bf16", 0.0, 10e-6, 1e-8,
           True, ("blackwell", "blackwell-ultra")),
    Figure("triton_moe_step", VLLM_MOE, "moe-large", "fp8_e4m3->bf16", 0.0, 2e-6, 1e-9, True,
           ("hopper", "blackwell", "blackwell-ultra", "blackwell-rtx")),
    Figure("triton_moe_small_step", VLLM_MOE, "moe-small", "fp8_e4m3->bf16", 0.0, 2e-6, 1e-9,
           True, ("hopper", "blackwell", "blackwell-ultra", "blackwell-rtx")),
    Figure("small_block_life", H100_VLLM_CONTEXT, "table", "bf16", 0.0, 20e-6, 1e-8, True,
           ("hopper", "ampere")),
    Figure("chained_load", B300_NVFP4_MOE, "moe-one-token", "nvfp4->bf16", 0.0, 5e-6, 1e-9, True,
           ("blackwell", "blackwell-ultra")),
    Figure("descriptor_switch", B300_NVFP4_MOE, "moe-split-width", "nvfp4->bf16", 0.0, 20e-6, 1e-8,
           True, ("hopper", "blackwell", "blackwell-ultra")),
    Figure("grouped_gemm_bandwidth", B300_MOE, "moe-streaming", "bf16", 0.3, 1.0, 0.001, False,
           ("blackwell", "blackwell-ultra")),
    Figure("latent_decode_bandwidth", B300_MLA, "decode-large", "bf16", 0.3, 1.0, 0.001, False,
           ("blackwell", "blackwell-ultra")),
]


def shipped_value(figure: Figure) -> float:
    """The figure's value in the profiles that carry it, which must agree."""
    values = {float(m.group(2)) for p in figure.profiles
              for m in figure.pattern().finditer((ROOT / f"data/calibration/{p}.toml").read_text())}
    if len(values) != 1:
        sys.exit(f"the profiles {figure.profiles} disagree on {figure.key}: {sorted(values)}")
    return values.pop()


def profiles_at(values: dict, scratch: pathlib.Path) -> list:
    """The shipped profiles with the figures at `values`, written to `scratch`."""
    files = []
    for p in PROFILES:
        text = (ROOT / f"data/calibration/{p}.toml").read_text()
        for f, value in values.items():
            if p in f.profiles:
                text = f.pattern().sub(lambda m, v=value: f"{m.group(1)}{v:.6g}", text)
        path = scratch / f"{p}.toml"
        path.write_text(text)
        files.append(str(path))
    return files


def run_ridge(ridge: str, args: list) -> dict:
    out = subprocess.run([ridge, "--format", "json", *args], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"ridge {' '.join(args)} failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def sweep_errors(ridge: str, profiles: list, figure: Figure, scratch: pathlib.Path) -> list:
    """The errors of the measured device's sweep points near its ridge point, the model given the
    measurement without its sweep."""
    measurement = json.loads(figure.file.read_text())
    points = [g for g in measurement["blas"] if g["precision"] == figure.rows and g["batch"] > 1]
    measurement["blas"] = []
    device_file = scratch / "device-without-sweep.json"
    if not device_file.exists():  # the same for every step of the bisection
        device_file.write_text(json.dumps(measurement))
    peak = next(p["flops_per_s"]["median"] for p in measurement["peaks"]
                if p["precision"] == figure.rows and "cublas" in p["kernel"].lower())
    bandwidth = max(b["bytes_per_s"] for b in measurement["bandwidth"] if b["level"] == "HBM")
    ridge_point = peak / bandwidth
    errors = []
    for g in points:
        m, n = g["batch"], g["n"]
        flops = 2.0 * m * n * n
        intensity = flops / (2.0 * (m * n + n * n + m * n))
        if not ridge_point / 2 <= intensity <= 4 * ridge_point:
            continue
        op = run_ridge(ridge, ["--device-file", str(device_file), "--calibration", *profiles,
                               "op", "gemm", "--m", str(m), "--n", str(n), "--k", str(n),
                               "--dtype", figure.rows])
        measured = flops / g["flops_per_s"]
        errors.append((op["expected_time_s"] - measured) / measured)
    if not errors:
        sys.exit(f"no {figure.rows} sweep points near the ridge point in {figure.file}")
    return errors


def validation_report(ridge: str, profiles: list, figure: Figure) -> dict:
    """`ridge validate` of the figure's fit set under `profiles`."""
    return run_ridge(ridge, ["--calibration", *profiles, "validate", str(figure.file)])


def table_points(ridge: str, profiles: list, figure: Figure) -> list:
    """The points of the fit set's one table that its statistics count, whose JSON key is its
    name's words joined by '_' (a row the file excludes, or one with no expected time, has no
    error)."""
    key = "_".join(re.findall(r"[a-z0-9]+", figure.file.stem.lower()))
    points = validation_report(ridge, profiles, figure)[key]["points"]
    return [point for point in points if point.get("error") is not None]


def gemm_errors(ridge: str, profiles: list, figure: Figure, keeps, which: str,
                priced=lambda point: True) -> list:
    """The errors of the GEMM table's products of the figure's precision whose (m, n, k) `keeps`
    holds and whose point `priced` takes; `which` names them, for the error when none does."""
    errors = []
    for point in table_points(ridge, profiles, figure):
        shape, precision = point["label"].split()
        m, n, k = (int(side) for side in shape.split("x"))
        if precision == figure.rows and keeps(m, n, k) and priced(point):
            errors.append(point["error"])
    if not errors:
        sys.exit(f"no {figure.rows} {which} in {figure.file}")
    return errors


def from_main_memory(point: dict) -> bool:
    """Whether the model reads all of the point's data at main memory's rate: none of it served
    at the L2's own rate from the call before (a profile without an L2 rate reads what the L2
    holds at main memory's)."""
    note = point.get("note", "")
    return "stays in the L2" not in note or "the profile has no L2 rate" in note


def gemv_errors(ridge: str, profiles: list, figure: Figure) -> list:
    """The GEMVs: at most GEMV_ROWS rows, GEMV_WEIGHTS weights or more, read from main memory
    (a share of main memory's rate is fitted where main memory serves every byte)."""
    return gemm_errors(ridge, profiles, figure,
                       lambda m, n, k: m <= GEMV_ROWS and n * k >= GEMV_WEIGHTS, "GEMVs",
                       from_main_memory)


def small_gemm_errors(ridge: str, profiles: list, figure: Figure) -> list:
    """The products of SMALL_ROWS rows or fewer over SMALL_WEIGHTS weights or fewer."""
    return gemm_errors(ridge, profiles, figure,
                       lambda m, n, k: m <= SMALL_ROWS and n * k <= SMALL_WEIGHTS,
                       "small products")


def large_gemm_errors(ridge: str, profiles: list, figure: Figure, least_side: int) -> list:
    """The products of `least_side` or more in every dimension."""
    return gemm_errors(ridge, profiles, figure,
                       lambda m, n, k: min(m, n, k) >= least_side,
                       f"products of {least_side} or more")


def large_cache_errors(ridge: str, profiles: list, figure: Figure) -> list:
    """The errors of the decode table's rows whose K and V (bf16) come to LARGE_CACHE_BYTES or
    more; a latent cache's (values-in-keys) is read once, its values the keys' first elements."""
    errors = []
    for point in table_points(ridge, profiles, figure):
        field = {k: int(v) for k, v in DECODE_FIELD.findall(point["label"])}
        kv_heads = field.get("kv_heads", field.get("heads", 1))
        tensors = 1 if " values-in-keys " in point["label"] else 2
        cache = 2 * tensors * field.get("batch", 1) * kv_heads * field["keys"] * field["d_head"]
        if cache >= LARGE_CACHE_BYTES:
            errors.append(point["error"])
    if not errors:
        sys.exit(f"no decode rows with {LARGE_CACHE_BYTES} bytes of cache in {figure.file}")
    return errors


def elementwise_errors(ridge: str, profiles: list, figure: Figure, small: bool) -> list:
    """The errors of the element-wise table's rows of SMALL_ELEMENTS elements or fewer, or
    (`small` false) of LARGE_ELEMENTS or more (labels 'OP ELEMENTS elements DTYPE')."""
    def kept(elements: float) -> bool:
        return elements <= SMALL_ELEMENTS if small else elements >= LARGE_ELEMENTS
    errors = [p["error"] for p in table_points(ridge, profiles, figure)
              if kept(float(p["label"].split()[1])) and p["label"].endswith(figure.rows)]
    if not errors:
        sys.exit(f"no element-wise rows of the {'small' if small else 'large'} kind in "
                 f"{figure.file}")
    return errors


def streams_weights(label: str, pairs: int, experts: int) -> bool:
    """Whether a MoE row is its weights' stream: every expert on the one GPU (no tp or ep), each
    receiving a row or more and at most GEMV_ROWS, as the GEMV share's rows have at most that
    many (the balanced routing gives each min(E, T k) experts T k / min(E, T k) rows)."""
    single_gpu = " tp=" not in label and " ep=" not in label
    return single_gpu and experts <= pairs <= GEMV_ROWS * experts


def moe_errors(ridge: str, profiles: list, figure: Figure) -> list:
    """The errors of the MoE table's rows that run vLLM's 64 x 64 tile (more tokens than experts)
    or, for the small tile's figure, the others; for the chained load, its rows of one token; for
    the descriptor switch, its rows with the intermediate width split over GPUs; for the grouped
    kernel's streaming share, its rows that stream their weights (streams_weights)."""
    errors = []
    for point in table_points(ridge, profiles, figure):
        tokens, topk, experts = (int(side) for side in MOE_LABEL.match(point["label"]).groups())
        if figure.source == "moe-one-token":
            fits = tokens == 1
        elif figure.source == "moe-split-width":
            fits = " tp=" in point["label"]
        elif figure.source == "moe-streaming":
            fits = streams_weights(point["label"], tokens * topk, experts)
        else:
            fits = (tokens > experts) == (figure.source == "moe-large")
        if fits and point["label"].endswith(figure.rows):
            errors.append(point["error"])
    if not errors:
        sys.exit(f"no MoE rows for {figure.key} in {figure.file}")
    return errors


def pull_allreduce_fits(figure: Figure, size: int, gpus: str, note: str) -> bool:
    """Whether a row of vLLM's all-reduce table sets `figure`: the barrier its rows of
    NCCL_LATENCY_BYTES and less, the peer read latency its one-stage rows of PULL_LARGE_BYTES and
    more over `rows` GPUs (one peer: the reads in flight to it set the rate), the share its
    two-stage rows of PULL_TWO_STAGE_LARGE_BYTES and more, the two-stage barrier those below."""
    two_stage = "two-stage" in note
    if figure.source == "pull-barrier":
        return size <= NCCL_LATENCY_BYTES
    if figure.source == "pull-peer":
        return "one-stage" in note and size >= PULL_LARGE_BYTES and gpus == figure.rows
    if figure.source == "pull-share":
        return two_stage and size >= PULL_TWO_STAGE_LARGE_BYTES
    return two_stage and size < PULL_TWO_STAGE_LARGE_BYTES


def collective_errors(ridge: str, profiles: list, figure: Figure) -> list:
    """The errors of the NCCL table's bandwidth-bound rows, 8-GPU all-reduces aside; or, for the
    latency, its rows of NCCL_LATENCY_BYTES or less (over `rows` GPUs; an engine's all-reduce
    table's over every GPU count); or, for the p2p channels' rate, its all-to-alls of
    NCCL_FIT_BYTES and more over `rows` GPUs; or, for NVLS's latency, its all-reduces of
    NVLS_FIT_BYTES and more over `rows` GPUs."""
    errors = []
    for point in table_points(ridge, profiles, figure):
        op, size, gpus = NCCL_LABEL.match(point["label"]).groups()
        if figure.source == "nccl-latency":
            fits = int(size) <= NCCL_LATENCY_BYTES and gpus == figure.rows
        elif figure.source == "custom-latency":  # every GPU count
            fits = int(size) <= NCCL_LATENCY_BYTES
        elif figure.source == "two-shot":  # the rows TensorRT-LLM's dispatch sends to it
            fits = "two-shot" in point["note"]
        elif figure.source.startswith("pull-"):
            fits = pull_allreduce_fits(figure, int(size), gpus, point["note"])
        elif figure.source == "nccl-p2p":
            fits = op == "alltoall" and int(size) >= NCCL_FIT_BYTES and gpus == figure.rows
        elif figure.source == "nccl-nvls":
            fits = op == "allreduce" and int(size) >= NVLS_FIT_BYTES and gpus == figure.rows
        else:
            fits = int(size) >= NCCL_FIT_BYTES and not (op == "allreduce" and int(gpus) == 8)
        if fits:
            errors.append(point["error"])
    if not errors:
        sys.exit(f"no collectives for {figure.key} in {figure.file}")
    return errors


def fit_errors(ridge: str, values: dict, figure: Figure, scratch: pathlib.Path) -> list:
    """The errors of `figure`'s fit rows with the figures at `values`."""
    profiles = profiles_at(values, scratch)
    if figure.source == "sweep":
        return sweep_errors(ridge, profiles, figure, scratch)
    if figure.source == "gemv":
        return gemv_errors(ridge, profiles, figure)
    if figure.source == "gemm-small":
        return small_gemm_errors(ridge, profiles, figure)
    if figure.source == "gemm-long":
        return large_gemm_errors(ridge, profiles, figure, LONG_SIDE)
    if figure.source == "gemm-burst":
        return large_gemm_errors(ridge, profiles, figure, BURST_SIDE)
    if figure.source == "gemm-large":
        return large_gemm_errors(ridge, profiles, figure, LARGE_SIDE)
    if figure.source == "decode-large":
        return large_cache_errors(ridge, profiles, figure)
    if figure.source in ("nccl", "nccl-latency", "nccl-p2p", "nccl-nvls", "custom-latency",
                         "two-shot") or \
            figure.source.startswith("pull-"):
        return collective_errors(ridge, profiles, figure)
    if figure.source in ("elementwise-small", "elementwise-large"):
        return elementwise_errors(ridge, profiles, figure, figure.source == "elementwise-small")
    if figure.source in ("moe-large", "moe-small", "moe-one-token", "moe-split-width",
                         "moe-streaming"):
        return moe_errors(ridge, profiles, figure)
    if figure.source == "table":  # every priced row of the file
        return [p["error"] for p in table_points(ridge, profiles, figure)
                if p["label"].endswith(figure.rows)]
    report = validation_report(ridge, profiles, figure)
    source, few_gpus = figure.source.removesuffix("-few-gpus"), figure.source.endswith("-few-gpus")
    errors = []
    for section in report.values():
        if not isinstance(section, dict) or f" {source}: " not in section.get("title", ""):
            continue
        errors += [p["error"] for p in section["points"]
                   if p.get("error") is not None and p["label"].endswith(figure.rows)
                   and (not few_gpus or int(TP_FIELD.search(p["label"]).group(1)) <= FEW_GPUS)]
    if not errors:
        sys.exit(f"no '{figure.rows}' rows of source {figure.source} in {figure.file}")
    return errors


# FlashAttention-3's Figure 5, head dimension 128 without a causal mask: TFLOP/s by sequence
# length, and the H100 SXM5's dense fp16 peak it is a share of.
FA3_FIGURE = {512: 467, 1024: 565, 2048: 625, 4096: 638, 8192: 646, 16384: 648}
H100_FP16_PEAK_TFLOPS = 989
FA3_STEPS = {"efficiency_d128": 0.001, "block_overhead": 1e-8}  # what the profile keeps each to
FA3_TILE_FLOPS = 4 * 128**3  # a block's key tile at head 128: QK^T and PV over 128 x 128
FA3_BLOCKS = 16 * 16384 // 128  # 16 heads x 16k tokens in blocks of 128 queries, at every length
H100_SMS = 132
FA3_BUSY = FA3_BLOCKS / (math.ceil(FA3_BLOCKS / H100_SMS) * H100_SMS)  # the SMs' busy share


def fit_flash_attention() -> dict:
    """A and c of A n / (n + c) fitted to FA3_FIGURE, as the profile keeps them."""
    best = None
    for hundredths in range(0, 801):
        c = hundredths / 100
        shares = [FA3_BUSY * (seq / 128) / (seq / 128 + c) for seq in FA3_FIGURE]
        measured = list(FA3_FIGURE.values())
        # The A that minimises the squared relative errors sum((A f - y) / y)^2.
        rate = (sum(f / y for f, y in zip(shares, measured)) /
                sum((f / y) ** 2 for f, y in zip(shares, measured)))
        error = sum(((rate * f - y) / y) ** 2 for f, y in zip(shares, measured))
        if best is None or error < best[0]:
            best = (error, rate, c)
    _, rate, c = best
    return {"efficiency_d128": round(rate / H100_FP16_PEAK_TFLOPS, 3),
            # c tile times at the rate A the blocks run at, in seconds: the fixed part is
            # memory latency and setup, so it is kept as a time, not as tiles of another part.
            "block_overhead": round(round(c, 1) * FA3_TILE_FLOPS
                                    / (round(rate / H100_FP16_PEAK_TFLOPS, 3)
                                       * H100_FP16_PEAK_TFLOPS * 1e12 / H100_SMS), 8)}


def shipped_hopper_figure(key: str) -> float:
    text = (ROOT / "data/calibration/hopper.toml").read_text()
    match = re.search(rf"^{key} = \{{ value = ([0-9.eE+-]+)", text, re.M)
    if not match:
        sys.exit(f"data/calibration/hopper.toml has no {key}")
    return float(match.group(1))


def fit(ridge: str) -> dict:
    """Each figure in turn, by bisection on its rows' median error, the others as they stand;
    the passes repeat until none moves (an architecture's call and step latencies are fitted to
    different rows of one table, each through the other)."""
    values = {f: shipped_value(f) for f in FIGURES}
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(MAX_PASSES):
            before = dict(values)
            for figure in FIGURES:
                values[figure] = fit_one(ridge, values, figure, pathlib.Path(scratch))
            if values == before:
                return values
    sys.exit(f"the fitted figures did not settle in {MAX_PASSES} passes")


def fit_one(ridge: str, values: dict, figure: Figure, scratch: pathlib.Path) -> float:
    """The figure's value that makes its rows' median error zero, the others at `values`."""
    trial = dict(values)
    low, high = figure.low, figure.high
    for _ in range(30):
        trial[figure] = (low + high) / 2
        median = statistics.median(fit_errors(ridge, trial, figure, scratch))
        if (median < 0) == figure.rising:
            low = trial[figure]
        else:
            high = trial[figure]
    return round((low + high) / 2 / figure.step) * figure.step


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ridge", help="the ridge executable")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a shipped value is not the fit's (to its last digit)")
    args = parser.parse_args()
    fitted = fit(args.ridge)
    failed = False
    for key, value in fit_flash_attention().items():
        if not args.check:
            print(f"{key} = {value:.3g}")
        elif abs(shipped_hopper_figure(key) - value) > FA3_STEPS[key] / 2:
            print(f"{key}: shipped {shipped_hopper_figure(key):.3g}, the fit gives {value:.3g}",
                  file=sys.stderr)
            failed = True
        else:
            print(f"{key} {value:.3g} is the fit's")
    for figure, value in fitted.items():
        if not args.check:
            print(f"{figure.label()} = {value:.3g}")
            continue
        shipped = shipped_value(figure)
        if abs(shipped - value) > figure.step / 2:
            print(f"{figure.label()}: shipped {shipped:.3g}, the fit gives {value:.3g}",
                  file=sys.stderr)
            failed = True
        else:
            print(f"{figure.label()} {shipped:.3g} is the fit's")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
