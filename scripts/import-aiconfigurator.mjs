#!/usr/bin/env node
// Writes data/validation/{gemm,attention,decode_attention}_aiconfigurator_<part>_bf16.tsv,
// gemm_aiconfigurator_<part>_{fp8,nvfp4,vllm,vllm_fp8,vllm_fp8_block,sglang,sglang_fp8,sglang_fp8_block,
// mla_bmm,mla_bmm_fp8}.tsv,
// {attention,decode_attention}_aiconfigurator_<part>_vllm.tsv,
// collective_aiconfigurator_<part>_{fp16,trtllm_allreduce,vllm_allreduce,sglang_allreduce}.tsv,
// moe_aiconfigurator_<part>_{vllm,trtllm,trtllm_nvfp4}.tsv and
// elementwise_aiconfigurator_<part>_{quantize,dynamic_quantize}.tsv from
// the tables NVIDIA's aiconfigurator collected on real GPUs (github.com/ai-dynamo/aiconfigurator,
// aic-core/src/aiconfigurator_core/systems/data/<part>/{gemm,attention}/trtllm/<version>/*.parquet
// and <part>/comm/nccl/<version>/nccl_perf.parquet), the first three timed by CUDA-graph replay:
// - GEMMs: TensorRT-LLM's Linear layer in bf16, and in per-tensor fp8 (its input quantized in
//   the call), and in NVFP4 on Blackwell (its input quantized with a static scale), vLLM 0.14's
//   in 16 bits and in per-tensor fp8 (a static input scale), SGLang 0.5.10's in bf16 and in fp8
//   (per-token scales), and both engines' block-scaled fp8 on Hopper;
//   kept, by one rule fixed before any was priced: m a power of two from 1 to 16384, n and k each
//   a power of two from 512 to 16384. And TensorRT-LLM's batched products of DeepSeek's latent
//   attention in decode (the rule below).
// - Element-wise: TensorRT-LLM's fp8 quantization of a bf16 input with a scale given, and with a
//   scale it finds itself (the collector's two rows of a shape summed), m a power of two from 1 to
//   16384, k from 512 to 16384.
// - Context (prefill) attention: TensorRT-LLM's attention layer over a causal prompt, bf16 with a
//   bf16 KV cache; kept, by one rule fixed before any was priced: multi-head (as many KV heads as
//   query heads), head dimension 128, no window, batch 1, 4, 16 or 64, prompts of 128 and 512 to
//   16384 tokens in powers of two.
// - Generation (decode) attention: TensorRT-LLM's fused decode kernels over a bf16 KV cache; kept,
//   by one rule fixed before any was priced: head dimension 128, four head layouts of the Llama
//   models, batch 1 to 256 in powers of four, 128 to 16384 keys in powers of two.
// - vLLM's attention: its FlashAttention backend's forward (the new K and V written to the
//   cache, then the fused kernel), by the rules of the two above.
// - Collectives: NCCL's all-reduce, all-gather, reduce-scatter and all-to-all over 2, 4 and 8 GPUs
//   of one node as nccl-tests times them; every half-precision row.
// - All-reduces as TensorRT-LLM, vLLM and SGLang run them (their custom kernels, NCCL past a
//   size), five to a CUDA graph; every bf16 row of the graph variant.
// - MoE experts: vLLM 0.14.0's fused_experts (<part>/moe/vllm/0.14.0/moe_perf.parquet) and
//   TensorRT-LLM's CUTLASS MoE (<part>/moe/trtllm/<version>/moe_perf.parquet), 16-bit and per-tensor
//   fp8 under balanced routing; the rule is the kinds' below.
//
// Usage: node scripts/import-aiconfigurator.mjs AICONFIGURATOR_CHECKOUT [OUT_DIR]
// Needs the npm packages hyparquet and hyparquet-compressors (Debian has no Parquet reader):
//   npm install --prefix /tmp/pq hyparquet hyparquet-compressors; NODE_PATH=/tmp/pq/node_modules
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(path.join(process.env.NODE_PATH ?? '.', 'x.js'))
const { parquetReadObjects } = await import(require.resolve('hyparquet'))
const { compressors } = await import(require.resolve('hyparquet-compressors'))

const [checkout, outDir = 'data/validation'] = process.argv.slice(2)
if (!checkout) {
  console.error('usage: import-aiconfigurator.mjs AICONFIGURATOR_CHECKOUT [OUT_DIR]')
  process.exit(2)
}
// git's stderr is not shown: a part without a table of some kind is skipped, not an error.
const git = (...args) => execFileSync('git', ['-C', checkout, ...args], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] })
const commit = git('rev-parse', 'HEAD').toString().trim()

// The part, its directory in aiconfigurator, and the TensorRT-LLM release whose tables are read.
// Each part's newest NCCL table (nccl-tests on one node of the part: HGX boards, NVLink through
// NVSwitch), and its HBM's spec bandwidth (data/devices/<id>.toml).
// The parts whose vLLM per-tensor fp8 GEMM table a profile's graph chain floor is fitted to, its
// products of 64 rows or fewer over 4 Mi weights or fewer: vLLM quantizes each call's input in a
// chain of four PyTorch kernels before the product, which TensorRT-LLM's tables (a chain of their
// own, the amax on its grid first), the other parts' vLLM tables and vLLM's block-scaled tables
// (a chain of eight) hold out.
const chainFloorFits = new Map([
  ['h100', "hopper profile's"], ['gb300', "blackwell and blackwell-ultra profiles'"]])
const parts = [
  // Ampere's GEMM bandwidth share is fitted to this part's GEMVs (scripts/fit-calibration.py).
  { id: 'a100', dir: 'a100_sxm', version: '1.0.0', nccl: '2.27.3', hbm: 2039e9, vllm16: 'bf16',
    gemmRole: 'fit (the GEMM bandwidth share of data/calibration/ampere.toml is fitted to its GEMVs by scripts/fit-calibration.py)' },
  // `pagedContext`: TensorRT-LLM 1.3 forces its paged context FMHA on SM90 (nvbug 5624818), as
  // the collector's own notes say (collector/trtllm/collect_attn.py, on trtllm.py:1434).
  { id: 'h100', dir: 'h100_sxm', version: '1.3.0rc20', nccl: '2.29.2', hbm: 3.35e12, pagedContext: true, vllm16: 'bf16' },
  { id: 'h200', dir: 'h200_sxm', version: '1.3.0rc20', nccl: '2.29.2', hbm: 4.8e12, pagedContext: true, vllm16: 'fp16' },
  { id: 'b200', dir: 'b200_sxm', version: '1.3.0rc20', nccl: '2.29.2', hbm: 8e12, tllmGen: true },
  // Blackwell's GEMM bandwidth share is fitted to this part's GEMVs and its streaming share to
  // its decode attention (scripts/fit-calibration.py), so both files are fit sets; the B200's
  // stay held out.
  { id: 'b300', dir: 'b300_sxm', version: '1.3.0rc20', nccl: '2.29.2', hbm: 8e12, tllmGen: true,
    gemmRole: 'fit (the GEMM bandwidth share of data/calibration/blackwell.toml is fitted to its GEMVs by scripts/fit-calibration.py)' },
  { id: 'gb200', dir: 'gb200', version: '1.3.0rc20', nccl: '2.29.2', hbm: 8e12, tllmGen: true, vllm16: 'bf16' },
  { id: 'gb300', dir: 'gb300', version: '1.3.0rc20', nccl: '2.29.2', hbm: 8e12, tllmGen: true, vllm16: 'bf16' },
  // The kernel floors and the power limit of data/calibration/ada.toml are fitted to this part's
  // products, so its GEMM file is a fit set; its other tables and TensorRT-LLM's L40S runs hold
  // them out.
  { id: 'l40s', dir: 'l40s', version: '1.3.0rc20', nccl: '2.27.3', hbm: 864e9, vllm16: 'bf16',
    gemmRole: 'fit (the kernel floors and the power limit of data/calibration/ada.toml are fitted to its products by scripts/fit-calibration.py: the floors to those of 64 rows or fewer over 2^22 weights or fewer, the sustained clock to those of 8192 or more in every dimension, the time constant to those of 1024 or more)' },
  // GB202 (compute capability 12.0) on a server of eight on PCIe Gen5. The 16-bit and 8-bit tensor
  // shares of its profile (data/calibration/blackwell-rtx.toml) are fitted to its TensorRT-LLM
  // bf16 and fp8 GEMM tables, so those files are fit sets; its other tables hold the profile out.
  // `hbm` is its GDDR7's spec rate. sgl-kernel runs its fp8 products at one tile (`sglangFp8Tile`).
  { id: 'rtx-pro-6000-server', dir: 'rtx_pro_6000_server', version: '1.3.0rc20', nccl: '2.29.2', hbm: 1.597e12,
    gemmRole: 'fit (the 16-bit tensor share, compute.bf16 and fp16, of data/calibration/blackwell-rtx.toml is fitted to its products of 4096 or more in every dimension by scripts/fit-calibration.py)',
    fp8GemmRole: 'fit (the 8-bit tensor share, compute.fp8 and int8, of data/calibration/blackwell-rtx.toml is fitted to its products of 4096 or more in every dimension by scripts/fit-calibration.py)',
    sglangFp8Tile: '128x128x128 (sgl-kernel\'s fp8_scaled_mm runs CUTLASS\'s SM120 kernel at one 128x128x128 tile, cluster 1x1x1, K never split, whatever the shape: sm120_fp8_dispatch_bias in sgl-kernel/csrc/gemm/fp8_gemm_kernel.cu, and sgl-project/sglang pull request 33216, 2026-08-01, after SGLang 0.5.10: "SM120 ran a single 128x128x128 tile for every M"; a one-token product\'s row padded to a whole tile. An earlier revision\'s 256x128x64 tile above 128 rows cannot be what ran: 256 rows over 4096 columns 16384 deep take 124 us here, which 32 such tiles would do at 8.7 TFLOP/s an SM, of the 5.1 an SM is rated at)' },
  // Intel's Arc Pro B60 (Xe2, BMG-G21; eight to a server on PCIe 5.0 x8), whose tables the
  // collector's XPU variants took under vLLM 0.20 (`xpu`: that release's directory), and its
  // oneCCL table (`oneccl`). Its GEMM table is the fit set of the xe2 profile
  // (data/calibration/xe2.toml); its attention and oneCCL tables hold it out. `hbm` is its
  // GDDR6's spec rate.
  { id: 'arc-pro-b60', dir: 'b60', xpu: '0.20.0', oneccl: '2021.17.2', hbm: 456e9 },
]
const powers = (from, to) => { const out = []; for (let x = from; x <= to; x *= 2) out.push(x); return out }

// How the collector's timed calls sit in a burst of them (collector/helper.py
// benchmark_with_power, repeat_n = 1): num_warmups iterations run eagerly, then the same number
// replayed from the captured graph, then num_runs timed replays, back to back. On a part whose
// power limit holds its clock down, the timed calls see the clock that far into the burst.
const burst = (warmups, runs, file) => [
  `warmup_calls = ${2 * warmups} (collector/helper.py benchmark_with_power runs num_warmups = ${warmups} iterations eagerly and ${warmups} more replayed from the captured graph before it times any, ${file}; each call one iteration of its loop)`,
  `timed_calls = ${runs} (num_runs = ${runs} timed replays, back to back after the warm-up: ${file})`,
]

const loopInOneGraph = 'graph_captured = yes (collector/helper.py benchmark_with_power captures each timed iteration, that loop over the copies, in one CUDA graph: every call but the first follows a kernel of the graph)'
const gemmDirectives = [
  'replayed_copies = 5 (the collector times a loop over max(1, min(5, ceil(L2 / weight bytes))) distinct copies of the weights on the same activations, collector/trtllm/collect_gemm.py: what the L2 holds of them it holds from the call before)',
  loopInOneGraph,
  ...burst(3, 6, 'collector/trtllm/collect_gemm.py leaves its defaults'),
]
// A collector that times six distinct copies of `what` a timed iteration whatever their size
// (`count`: its loop's count; vLLM's and SGLang's, in `file`), in one CUDA graph.
const sixCopyDirectives = (what, count, file) => [
  `replayed_copies = 6 (the collector times a loop over six distinct copies of ${what}, ${count}: ${file}; what the L2 holds of them it holds from the call before)`,
  'replay_every_copy = yes (the six copies whatever their size, not only as many as exceed the L2 as the TensorRT-LLM collector takes)',
  loopInOneGraph,
  ...burst(3, 6, `${file}: num_warmups = 3, num_runs = 6`),
]
const gemmShapes = (() => {
  const m = new Set(powers(1, 16384)), nk = new Set(powers(512, 16384))
  return r => m.has(Number(r.m)) && nk.has(Number(r.n)) && nk.has(Number(r.k))
})()
const gemm = {
  name: 'gemm',
  table: 'gemm/trtllm/VERSION/gemm_perf.parquet',
  conditions: 'its Linear layer in bf16 without bias, y = x W^T with x m-by-k and W n-by-k; weights smaller than the L2 replayed as up to five distinct copies so that each call reads them from memory (collector/trtllm/collect_gemm.py)',
  timing: 'timed by CUDA-graph replay after warm-up (collector/helper.py benchmark_with_power)',
  rule: 'bf16 rows with m a power of two from 1 to 16384 and n, k each a power of two from 512 to 16384',
  keep: r => r.gemm_dtype === 'bfloat16' && gemmShapes(r),
  order: r => [Number(r.m), Number(r.n), Number(r.k)],
  header: 'm\tn\tk\tdtype\tdevice\ttime_ms',
  cells: r => [r.m, r.n, r.k, 'bf16', r.device, r.latency],
  role: part => part.gemmRole,
  directives: gemmDirectives,
}
// TensorRT-LLM's Linear layer in a quantized format: its rows of `gemmDtype`, their inputs
// `cell`, and how each call quantizes its bf16 input (`inputQuantize`, a directive's value); the
// configuration its kernel runs at on a part where that is fixed (`gemmTile`, a function of the
// part), its role by part, and the parts it is read for (`parts`: all where not given).
const trtllmQuantizedGemm = ({ precision, gemmDtype, cell, conditions, rule, inputQuantize,
  gemmTile = () => undefined, role = () => undefined, parts }) => ({
  ...gemm,
  precision,
  parts,
  conditions,
  rule,
  keep: r => r.gemm_dtype === gemmDtype && gemmShapes(r),
  cells: r => [r.m, r.n, r.k, cell, r.device, r.latency],
  role,
  directives: part => [...gemmDirectives, `input_quantize = ${inputQuantize}`,
    ...(gemmTile(part) ? [`gemm_tile = ${gemmTile(part)}`] : [])],
})
// The parts of compute capability 10.3 (Blackwell Ultra), whose CUTLASS kernels TensorRT-LLM
// builds for cutlass::arch::Sm103.
const sm103 = part => part.id === 'b300' || part.id === 'gb300'
// The same Linear layer in per-tensor fp8 (QuantAlgo.FP8, collector/trtllm/collect_gemm.py @
// dec5f4cd2): its weights carry no input scale, so FP8QDQLinearMethod.apply quantizes each call's
// bf16 input dynamically (tensorrt_llm/_torch/modules/linear.py) before cublas_scaled_mm.
const fp8Gemm = trtllmQuantizedGemm({
  precision: 'fp8',
  gemmDtype: 'fp8',
  cell: 'fp8_e4m3->bf16',
  conditions: "its Linear layer in per-tensor fp8 without bias (QuantAlgo.FP8: fp8 e4m3 weights with one scale, the bf16 input quantized in the call, the product cuBLASLt's fp8 GEMM into bf16, torch.ops.trtllm.cublas_scaled_mm), y = x W^T with x m-by-k and W n-by-k; weights smaller than the L2 replayed as up to five distinct copies so that each call reads them from memory (collector/trtllm/collect_gemm.py)",
  rule: 'fp8 rows (per-tensor scales; the fp8_block rows left out: DeepGEMM on Blackwell, block scales on Hopper) with m a power of two from 1 to 16384 and n, k each a power of two from 512 to 16384',
  role: part => part.fp8GemmRole,
  inputQuantize: "dynamic (the weights carry no input scale, so FP8QDQLinearMethod.apply quantizes each call's bf16 input with quantize_e4m3_per_tensor, tensorrt_llm/_torch/modules/linear.py: invokeComputeScalesAndQuantizeMatrix zeroes the scale, reduces the input's largest magnitude into it, then quantizes the input, cpp/tensorrt_llm/thop/fp8Op.cpp and common/cudaFp8Utils.cu; the scale, made in the input's bf16, is widened for cuBLASLt by cur_input_scale.to(torch.float32), a PyTorch kernel of its own, tensorrt_llm/_torch/modules/linear.py @ ed53795)",
})
// The same Linear layer in NVFP4 (QuantAlgo.NVFP4, collector/trtllm/collect_gemm.py @ 095f58a5,
// on SM100 and later): fp4 e2m1 weights with an fp8 scale a block of 16 and one global scale, and
// a static input scale set from the input before timing, so NVFP4LinearMethod.apply quantizes
// each call's bf16 input in one kernel (torch.ops.trtllm.fp4_quantize: each block of 16's scale
// found and its values written in fp4) before torch.ops.trtllm.nvfp4_gemm into bf16
// (tensorrt_llm/_torch/modules/linear.py). The collector runs no autotuning pass, and
// nvfp4_gemm's tuner answers a shape it has not tuned with its fallback, CUTLASS's default
// configuration (NVFP4GemmUnifiedRunner.forward, tactic -1: tensorrt_llm/_torch/custom_ops/
// torch_custom_ops.py), so these tables time one untuned kernel, not what a served model, tuned
// at warm-up, runs: CUTLASS's persistent kernel at a 128x256 tile (getDefaultGemmConfig,
// cpp/tensorrt_llm/thop/fp4Gemm.cpp @ 05289e8f), the tile a tuner picks for large products too.
// The B300's is the fit set of Blackwell's fp4 share, its products of 4096 or more in every
// dimension (the rule the twenty-third session set for it); the other parts' are held out.
const nvfp4Gemm = trtllmQuantizedGemm({
  precision: 'nvfp4',
  // The SM100 and SM103 parts, whose CUTLASS fallback the tile below is: SM120's NVFP4 kernels
  // are others (no tensor memory), whose configuration was not read.
  parts: part => ['b200', 'b300', 'gb200', 'gb300'].includes(part.id),
  gemmDtype: 'nvfp4',
  cell: 'nvfp4->bf16',
  conditions: "its Linear layer in NVFP4 without bias (QuantAlgo.NVFP4: fp4 e2m1 weights with an fp8 e4m3 scale a block of 16 values and an fp32 scale a tensor, and a static input scale, set from the input before timing; NVFP4LinearMethod.apply quantizes each call's bf16 input to fp4 with its block scales in one kernel, torch.ops.trtllm.fp4_quantize, then runs torch.ops.trtllm.nvfp4_gemm into bf16, tensorrt_llm/_torch/modules/linear.py), y = x W^T with x m-by-k and W n-by-k; weights smaller than the L2 replayed as up to five distinct copies so that each call reads them from memory (collector/trtllm/collect_gemm.py @ 095f58a5). The collector runs no autotuning pass, so nvfp4_gemm takes its tuner's fallback for every shape, CUTLASS's default configuration (NVFP4GemmUnifiedRunner.forward, tactic -1, tensorrt_llm/_torch/custom_ops/torch_custom_ops.py): an untuned kernel, not the one a served model tunes at warm-up",
  rule: 'nvfp4 rows with m a power of two from 1 to 16384 and n, k each a power of two from 512 to 16384',
  inputQuantize: "static (the layer's input scale is given, so NVFP4LinearMethod quantizes each call's bf16 input in one kernel, torch.ops.trtllm.fp4_quantize, which finds each block of 16's fp8 scale and writes the block in fp4: tensorrt_llm/_torch/modules/linear.py)",
  gemmTile: part => `${sm103(part) ? '128x256x768' : '128x256x128'} (the collector runs no tuning pass, so nvfp4_gemm takes its fallback, CUTLASS at its default configuration: getDefaultGemmConfig in cpp/tensorrt_llm/thop/fp4Gemm.cpp @ 05289e8f gives ${sm103(part) ? 'CtaShape128x256x256B on SM103, whose launcher steps K three times 256 deep (genericFp4GemmKernelLauncher\'s MmaTileShape for cutlass::arch::Sm103)' : 'CtaShape128x256x128B on SM100, a step of 128 values'}, cluster 1x1x1, and the kernel schedules whole tiles persistently, cutlass::gemm::PersistentScheduler, no split of K: nvfp4_nvfp4_gemm_template_sm100.h)`,
  role: part => part.id === 'b300'
    ? "fit (the fp4 share of data/calibration/blackwell.toml and blackwell-ultra.toml is fitted to its products of 4096 or more in every dimension by scripts/fit-calibration.py)"
    : undefined,
})
// vLLM 0.14's Linear layer as the same collector times it (collector/vllm/collect_gemm.py @
// 5ef50c9b9, the collector that brought in vLLM 0.14.0 in January 2026): RowParallelLinear without
// bias, its forward on six distinct copies a timed iteration whatever their size
// (outside_loop_count = 6), the time over six. Its 16-bit layer ran in bf16 until 7bba024a9
// (2026-02-17) made it fp16; the table's 'bfloat16' is the later renaming of both (cfc7fb055), so
// each part's type is its collection's: `vllm16` ('bf16' for the tables added before that commit,
// the GB200's the same day, unknown which, labelled bf16: ridge's peaks for the two are the same).
const vllmGemmDirectives = sixCopyDirectives('the layer on the same activations',
  'outside_loop_count = 6', 'collector/vllm/collect_gemm.py')
const vllmGemm = {
  ...gemm,
  suffix: 'vllm',
  table: 'gemm/vllm/VERSION/gemm_perf.parquet',
  version: () => '0.14.0',
  engine: (part, rows) => `vLLM ${rows[0].version}`,
  parts: part => part.vllm16 !== undefined,
  conditions: "its Linear layer (vllm.model_executor.layers.linear.RowParallelLinear, TP off) in 16 bits without bias, UnquantizedLinearMethod's torch.nn.functional.linear (cuBLAS), y = x W^T with x m-by-k and W n-by-k, over six distinct copies of the layer a timed iteration (collector/vllm/collect_gemm.py @ 5ef50c9b9); the 16-bit type is the collector's at the table's collection: bf16 until 2026-02-17 (7bba024a9), fp16 after",
  rule: "16-bit rows (the column's 'bfloat16') with m a power of two from 1 to 16384 and n, k each a power of two from 512 to 16384",
  cells: (r, part) => [r.m, r.n, r.k, part.vllm16, r.device, r.latency],
  role: () => undefined,
  directives: vllmGemmDirectives,
}
// The same layer in per-tensor fp8 with a static activation scale (Fp8Config, activation_scheme
// 'static', collector/vllm/collect_gemm.py @ 5ef50c9b9): Fp8LinearMethod quantizes each call's
// input with the layer's input scale through vLLM's QuantFP8 op before CUTLASS's fp8 product
// (cutlass_scaled_mm) into the 16-bit type. The collector builds the layers in a VllmConfig()
// without a model, whose -O2 default (compiled mode, Inductor) turns vLLM's custom ops off, so
// QuantFP8 runs its PyTorch expression (forward_native), which the eager collector never compiles:
// a kernel an operation (vllm/config/vllm.py __post_init__; custom_op.py; input_quant_fp8.py).
const vllmFp8Gemm = {
  ...vllmGemm,
  suffix: 'vllm_fp8',
  role: part => chainFloorFits.has(part.id)
    ? `fit (the ${chainFloorFits.get(part.id)} fixed.graph_chain_floor is fitted to its products of 64 rows or fewer over 4 Mi weights or fewer by scripts/fit-calibration.py)`
    : undefined,
  conditions: "its Linear layer (RowParallelLinear, TP off) in per-tensor fp8 without bias: Fp8LinearMethod with fp8 e4m3 weights and a static activation scale (Fp8Config(activation_scheme='static'), collector/vllm/collect_gemm.py @ 5ef50c9b9), which quantizes each call's 16-bit input with that scale through QuantFP8's PyTorch expression (forward_native: vLLM's custom ops are off in the collector's VllmConfig()) and runs CUTLASS's fp8 product (cutlass_scaled_mm) into the 16-bit type, y = x W^T with x m-by-k and W n-by-k, over six distinct copies of the layer a timed iteration",
  rule: 'fp8 rows (per-tensor scales; the fp8_block and nvfp4 rows left out: block scales in the product) with m a power of two from 1 to 16384 and n, k each a power of two from 512 to 16384',
  keep: r => r.gemm_dtype === 'fp8' && gemmShapes(r),
  cells: (r, part) => [r.m, r.n, r.k, `fp8_e4m3->${part.vllm16}`, r.device, r.latency],
  directives: [
    ...vllmGemmDirectives,
    "input_quantize = native-static (Fp8LinearMethod quantizes the input with its static scale through QuantFP8, whose custom kernel is off in a VllmConfig() without a model (the -O2 default: compiled mode, custom ops 'none', vllm/config/vllm.py __post_init__), so its PyTorch expression runs eagerly, a kernel an operation: (x.to(float32) * scale.reciprocal()).clamp(min, max).to(fp8), vllm/model_executor/layers/quantization/input_quant_fp8.py forward_native)",
  ],
}
// SGLang 0.5.10's GEMMs as the same collector times them (collector/sglang/collect_gemm.py @
// cb4d907c7, the collector of most parts' tables; @ feebdae3d for the H200's and B200's, the
// same calls): bf16 products by torch's F.linear, and fp8 ones with a scale a weight column and
// dynamic scales a row of the input (sgl_per_token_quant_fp8, then sgl-kernel's fp8_scaled_mm
// into bf16); six distinct copies of the operands a timed iteration at the kept sizes (the
// collector caps the copies by memory, which no kept shape reaches).
const sglangGemmDirectives = sixCopyDirectives('the operands',
  'outside_loop_count = min(6, what 70% of the memory holds), six at every kept size',
  'collector/sglang/collect_gemm.py')
const sglangGemm = {
  ...gemm,
  suffix: 'sglang',
  table: 'gemm/sglang/VERSION/gemm_perf.parquet',
  version: () => '0.5.10',
  engine: (part, rows) => `SGLang ${rows[0].version}`,
  conditions: "bf16 products as its collector runs them, torch.nn.functional.linear without bias (cuBLAS), y = x W^T with x m-by-k and W n-by-k, over six distinct copies of the operands a timed iteration (collector/sglang/collect_gemm.py @ cb4d907c7; @ feebdae3d for the H200's and B200's tables, the same calls)",
  rule: 'bf16 rows with m a power of two from 1 to 16384 and n, k each a power of two from 512 to 16384',
  role: () => undefined,
  directives: sglangGemmDirectives,
}
const sglangFp8Gemm = {
  ...sglangGemm,
  suffix: 'sglang_fp8',
  conditions: "fp8 products as its collector runs them, W8A8 with a scale for each column of the fp8 weights and each row of the input: each call's bf16 input quantized with its rows' scales, found in the same kernel (sgl_kernel.sgl_per_token_quant_fp8), then sgl-kernel's CUTLASS product with both scales into bf16 (fp8_scaled_mm), y = x W^T with x m-by-k and W n-by-k, over six distinct copies of the operands a timed iteration (collector/sglang/collect_gemm.py @ cb4d907c7; @ feebdae3d for the H200's and B200's tables)",
  rule: 'fp8 rows (dynamic per-token scales; the fp8_block and nvfp4 rows left out: block scales in the product) with m a power of two from 1 to 16384 and n, k each a power of two from 512 to 16384',
  keep: r => r.gemm_dtype === 'fp8' && gemmShapes(r),
  cells: r => [r.m, r.n, r.k, 'fp8_e4m3->bf16', r.device, r.latency],
  directives: part => [
    ...sglangGemmDirectives,
    'input_quantize = per-token (sgl_per_token_quant_fp8 finds each row\'s largest magnitude and quantizes the row with it in one kernel, a block a row: sgl-kernel csrc/gemm/per_token_quant_fp8.cu)',
    ...(part.sglangFp8Tile ? [`gemm_tile = ${part.sglangFp8Tile}`] : []),
  ],
}
// A kind's directives for a part: a list, or a function of the part.
const directivesOf = (kind, part) =>
  typeof kind.directives === 'function' ? kind.directives(part) : kind.directives
// Both engines' block-scaled fp8 products (DeepSeek's recipe: a scale for each 128 x 128 block of
// the weights, one for each 128 elements of an input row), on Hopper only, where DeepGEMM takes
// the scales in fp32 as given; on Blackwell it wants them as packed powers of two (UE8M0), and
// whether a call converts them the tables do not say. vLLM's collector asks for DeepGEMM
// (VLLM_USE_DEEP_GEMM=1): W8A8BlockFp8LinearOp quantizes the input a group of 128 at a time
// through QuantFP8, whose PyTorch expression runs eagerly there (its custom kernel off, as for
// per-tensor fp8 above: _quantize_group_native, a kernel an operation), and runs DeepGEMM's
// fp8_gemm_nt where vLLM takes it (which kernel ran, its table does not say); SGLang's runs
// sglang_per_token_group_quant_fp8, one kernel, and DeepGEMM's gemm_nt_f8f8bf16. vLLM takes
// DeepGEMM only for a bf16 output (should_use_deepgemm_for_fp8_linear), so only its H100 table,
// collected in bf16, is taken: the H200's, collected in fp16, ran another kernel.
const blockFp8 = (base, { suffix, partIds, conditions, inputQuantize }) => ({
  ...base,
  suffix,
  parts: part => partIds.includes(part.id),
  conditions,
  role: () => undefined,  // held out: no figure is fitted to a block-scaled table
  rule: 'fp8_block rows (a scale a 128 x 128 block of the weights and a 128-element group of an input row), on Hopper, with m a power of two from 1 to 16384 and n, k each a power of two from 512 to 16384',
  keep: r => r.gemm_dtype === 'fp8_block' && gemmShapes(r),
  cells: r => [r.m, r.n, r.k, 'fp8_e4m3->bf16', r.device, r.latency],
  directives: part => [
    ...directivesOf(base, part).filter(d => !d.startsWith('input_quantize')),
    inputQuantize,
  ],
})
const vllmBlockFp8Gemm = blockFp8(vllmFp8Gemm, {
  suffix: 'vllm_fp8_block',
  partIds: ['h100'],
  conditions: "its Linear layer (RowParallelLinear, TP off) with block-scaled fp8 weights (Fp8Config(activation_scheme='dynamic', weight_block_size=[128, 128]), collector/vllm/collect_gemm.py @ 5ef50c9b9, which sets VLLM_USE_DEEP_GEMM=1 to take DeepGEMM where it is installed): W8A8BlockFp8LinearOp quantizes each call's bf16 input a group of 128 at a time through QuantFP8's PyTorch expression (_quantize_group_native: vLLM's custom ops are off in the collector's VllmConfig()) and runs the block-scaled product into bf16, DeepGEMM's fp8_gemm_nt where vLLM takes it (which kernel ran, the table does not say), y = x W^T with x m-by-k and W n-by-k, over six distinct copies of the layer a timed iteration",
  inputQuantize: "input_quantize = native-group (W8A8BlockFp8LinearOp quantizes the input a group of 128 at a time through QuantFP8, whose custom kernel is off in a VllmConfig() without a model (vllm/config/vllm.py __post_init__), so its PyTorch expression runs eagerly, a kernel an operation: the magnitudes, each group's largest, the scales from them, the input divided by its group's scale in float32, clamped and narrowed to fp8, the scales made column-major; vllm/model_executor/layers/quantization/input_quant_fp8.py _quantize_group_native)",
})
const sglangBlockFp8Gemm = blockFp8(sglangFp8Gemm, {
  suffix: 'sglang_fp8_block',
  partIds: ['h100', 'h200'],
  conditions: "block-scaled fp8 products as its collector runs them: each call's bf16 input quantized a group of 128 at a time with the scales in DeepGEMM's TMA-aligned column-major layout (sglang_per_token_group_quant_fp8), then DeepGEMM's gemm_nt_f8f8bf16 with the weights' 128 x 128 block scales into bf16, y = x W^T with x m-by-k and W n-by-k, over six distinct copies of the operands a timed iteration (collector/sglang/collect_gemm.py @ cb4d907c7; @ feebdae3d for the H200's table)",
  inputQuantize: "input_quantize = per-token (a scale for each 128 elements of a row, found and applied in one kernel before the product: sglang_per_token_group_quant_fp8)",
})
// DeepSeek's absorbed latent attention in decode runs two batched products around the kernel,
// a product a head: the queries' 128 no-rope dimensions into the 512-wide latent space
// (mla_gen_pre: q_nope x W_UK, m = tokens, n = 512, k = 128) and the latent output back to the
// 128-wide values (mla_gen_post: m = tokens, n = 128, k = 512). TensorRT-LLM runs both in bf16
// as one strided batched cuBLAS product (torch.ops.trtllm.bmm_out), which the collector times
// alone, one product a CUDA-graph replay on the same buffers, the replays back to back between
// two events (collector/trtllm/collect_mla_bmm.py and collector/helper.py @ dec5f4cd2). The
// L40S's table is left out: its power limit sets the clock by how long the collector's adaptive
// count of runs lasted, which the table does not record.
const mlaBmmShapes = new Set(powers(1, 8192))
const mlaBmmParts = new Set(['h100', 'h200', 'b200', 'b300', 'gb200', 'gb300'])
const mlaBmmOps = { mla_gen_pre: [512, 128], mla_gen_post: [128, 512] }
const mlaBmm = {
  name: 'gemm',
  suffix: 'mla_bmm',
  table: 'mla_bmm/trtllm/VERSION/mla_bmm_perf.parquet',
  parts: part => mlaBmmParts.has(part.id),
  conditions: "DeepSeek's absorbed latent attention's two batched products in decode, a product a head over the tokens: mla_gen_pre, the queries' 128 no-rope dimensions into the 512-wide latent space (n = 512, k = 128), and mla_gen_post, the attention's latent output back to 128-wide values (n = 128, k = 512), in bf16 as one strided batched cuBLAS product each (torch.ops.trtllm.bmm_out; collector/trtllm/collect_mla_bmm.py @ dec5f4cd2), one product a CUDA-graph replay on the same buffers, the replays timed back to back (collector/helper.py)",
  timing: 'timed by CUDA-graph replay after warm-up (collector/helper.py benchmark_with_power)',
  rule: 'bf16 rows (kernel_source trtllm_bmm_out; the fp8 rows left out: block-scaled on Hopper, dequantized to bf16 on Blackwell), both products, every head count (1 to 128: the heads a GPU holds at TP 128 to 1), tokens a power of two from 1 to 8192; the L40S left out (its power limit, above)',
  keep: r => r.kernel_source === 'trtllm_bmm_out' && r.bmm_dtype === 'bfloat16' && r.op_name in mlaBmmOps &&
    mlaBmmShapes.has(Number(r.num_tokens)),
  order: r => [Object.keys(mlaBmmOps).indexOf(r.op_name), Number(r.num_heads), Number(r.num_tokens)],
  header: 'op\tgroups\tm\tn\tk\tdtype\tdevice\ttime_ms',
  cells: r => [r.op_name, r.num_heads, r.num_tokens, ...mlaBmmOps[r.op_name], 'bf16', r.device, r.latency],
  role: part => part.id === replayFloorPartId
    ? 'fit (its least time is the replay floor of every batched-product table of the collector: scripts/import-aiconfigurator.mjs)'
    : undefined,
  directives: [
    "replayed_copies = 1 (the collector replays the product on the same buffers, collector/trtllm/collect_mla_bmm.py: what the L2 holds of them it holds from the call before)",
  ],
}
// The same products with block-scaled fp8 weights (a scale a 128 x 128 block), on Hopper, where
// TensorRT-LLM quantizes the bf16 input a group of 128 at a time and turns it head-major in one
// kernel (fp8_batched_quantize_1x128_permute102) before its block-scaled batched product
// (torch.ops.trtllm.fp8_block_scaling_bmm_out); on Blackwell it runs the bf16 product on weights
// dequantized at load (the rows above).
const mlaBmmFp8 = {
  ...mlaBmm,
  suffix: 'mla_bmm_fp8',
  parts: part => ['h100', 'h200'].includes(part.id),
  conditions: "DeepSeek's absorbed latent attention's two batched products in decode with block-scaled fp8 weights (a scale a 128 x 128 block), a product a head over the tokens (mla_gen_pre: n = 512, k = 128; mla_gen_post: n = 128, k = 512): the bf16 input quantized a group of 128 at a time and turned head-major in one kernel (torch.ops.trtllm.fp8_batched_quantize_1x128_permute102), then the block-scaled batched product into bf16 (torch.ops.trtllm.fp8_block_scaling_bmm_out; collector/trtllm/collect_mla_bmm.py @ dec5f4cd2), one call a CUDA-graph replay on the same buffers, the replays timed back to back (collector/helper.py)",
  rule: 'fp8 rows of kernel_source trtllm_fp8_block_scaling_bmm_out (Hopper), both products, every head count (1 to 128), tokens a power of two from 1 to 8192',
  keep: r => r.kernel_source === 'trtllm_fp8_block_scaling_bmm_out' && r.op_name in mlaBmmOps &&
    mlaBmmShapes.has(Number(r.num_tokens)),
  cells: r => [r.op_name, r.num_heads, r.num_tokens, ...mlaBmmOps[r.op_name], 'fp8_e4m3->bf16', r.device, r.latency],
  role: () => undefined,
  directives: [
    ...mlaBmm.directives,
    'input_quantize = per-token (fp8_batched_quantize_1x128_permute102 finds a scale for each 128 elements of a row and writes the row quantized, head-major, in one kernel before the product: tensorrt_llm/_torch/modules/attention.py fp8_block_scaling_bmm_out)',
  ],
}
// TensorRT-LLM's fp8 quantization with a scale given (torch.ops.tensorrt_llm.
// static_quantize_e4m3_per_tensor: one kernel reading the bf16 input and writing it in fp8,
// invokeQuantizeMatrix), which the collector times alone, five calls on the same input a CUDA
// graph, the time over five (collector/trtllm/collect_computescale.py @ dec5f4cd2, its
// scale_matrix rows; the compute_scale rows, a difference of two timings, are summed with them into
// the dynamic op's own time below). An
// element-wise kernel, as `ridge model` prices every norm, residual and activation. The L40S's
// left out, as the latent attention's products (its power limit and the adaptive count of runs).
// Blackwell's repeat floor is fitted to the B300's small rows; the other parts' tables hold it out.
const quantizeShapes = gemmShapes
const blackwellRepeatFloorPartId = 'b300'
const scaleMatrix = {
  name: 'elementwise',
  suffix: 'quantize',
  table: 'quantize/trtllm/VERSION/scale_matrix_perf.parquet',
  parts: part => mlaBmmParts.has(part.id),
  conditions: "its fp8 quantization of a bf16 m-by-k input with a scale given, torch.ops.tensorrt_llm.static_quantize_e4m3_per_tensor (one kernel, invokeQuantizeMatrix: each element read in bf16 and written in fp8), five calls on the same input a CUDA graph, the time over five (collector/trtllm/collect_computescale.py @ dec5f4cd2, its scale_matrix rows)",
  timing: 'timed by CUDA-graph replay after warm-up (collector/helper.py benchmark_with_power)',
  rule: 'scale_matrix rows (fp8) with m a power of two from 1 to 16384 and k a power of two from 512 to 16384; elements = m x k; the L40S left out',
  keep: r => r.op_name === 'scale_matrix' && r.quant_dtype === 'fp8' && quantizeShapes({ m: r.m, n: 512, k: r.k }),
  order: r => [Number(r.m), Number(r.k)],
  header: 'op\tm\tk\telements\tdtype\tdevice\ttime_ms',
  cells: r => ['quantize', r.m, r.k, Number(r.m) * Number(r.k), 'bf16->fp8_e4m3', r.device, r.latency],
  role: part => part.id === blackwellRepeatFloorPartId
    ? "fit (the blackwell and blackwell-ultra profiles' fixed.graph_repeat_floor is fitted to its rows of 64 Ki elements and fewer: scripts/fit-calibration.py)"
    : undefined,
  directives: [
    'replayed_copies = 1 (the collector quantizes the same input five times a timed iteration, collector/trtllm/collect_computescale.py: what the L2 holds of it and of the output it holds from the call before)',
    'graph_captured = yes (collector/helper.py benchmark_with_power captures the five calls in one CUDA graph)',
    'graph_calls = 5 (outside_loop_count = 5 calls a timed iteration, the time over five: collector/trtllm/collect_computescale.py)',
  ],
}
// TensorRT-LLM's fp8 quantization that finds its own scale (torch.ops.tensorrt_llm.
// quantize_e4m3_per_tensor, FP8QDQLinearMethod's path where the weights carry no input scale):
// invokeComputeScalesAndQuantizeMatrix zeroes the scale, reduces the input's largest magnitude
// into it with computeFP8QuantizeScale on a fixed grid of 1024 blocks of 1024 threads (each
// block's maximum an atomicMax on the one scale), then quantizes the input with it
// (cpp/tensorrt_llm/common/cudaFp8Utils.cu). The collector times it beside the static kernel,
// five calls a CUDA graph each, and logs the difference as compute_scale (clamped at zero) and the
// static time as scale_matrix (collector/trtllm/collect_computescale.py): the dynamic call's own
// time is their sum, taken where the difference was not clamped. The H100's table is the fit set
// of Hopper's fixed-grid amax figures, the B300's of Blackwell's; the others hold them out.
const amaxFitParts = new Set(['h100', 'b300'])
const dynamicQuantize = {
  ...scaleMatrix,
  suffix: 'dynamic_quantize',
  table: 'quantize/trtllm/VERSION/computescale_perf.parquet',
  join: { table: 'quantize/trtllm/VERSION/scale_matrix_perf.parquet', op: 'scale_matrix' },
  conditions: "its fp8 quantization of a bf16 m-by-k input that finds its own scale, torch.ops.tensorrt_llm.quantize_e4m3_per_tensor (invokeComputeScalesAndQuantizeMatrix, cpp/tensorrt_llm/common/cudaFp8Utils.cu: the scale zeroed, the input's largest magnitude reduced into it by computeFP8QuantizeScale on a fixed grid of 1024 blocks of 1024 threads, each block's an atomicMax on the one scale, then the input quantized with it), five calls on the same input a CUDA graph, the time over five (collector/trtllm/collect_computescale.py @ dec5f4cd2, which times the static kernel the same way and logs the difference, compute_scale, and the static time, scale_matrix; the time here is their sum, the dynamic call's own)",
  rule: 'compute_scale rows (fp8) with m a power of two from 1 to 16384 and k a power of two from 512 to 16384, each joined to the scale_matrix row of the same m and k, the time their sum; rows whose compute_scale is 0 (the collector clamps a negative difference, so the dynamic time is not known) left out; elements = m x k; the L40S left out',
  keep: r => r.op_name === 'compute_scale' && r.quant_dtype === 'fp8' && Number(r.latency) > 0 &&
    r.joined !== undefined && quantizeShapes({ m: r.m, n: 512, k: r.k }),
  cells: r => ['dynamic_quantize', r.m, r.k, Number(r.m) * Number(r.k), 'bf16->fp8_e4m3', r.device,
    Number(r.latency) + Number(r.joined.latency)],
  role: part => amaxFitParts.has(part.id)
    ? `fit (the ${part.id === 'h100' ? "hopper profile's" : "blackwell and blackwell-ultra profiles'"} memory.amax_grid_floor and memory.amax_grid_bandwidth are fitted to its rows: scripts/fit-calibration.py)`
    : undefined,
}
const attentionBurst = burst(10, 6, 'collector/trtllm/collect_attn.py: warming_up = 10, test_ite = 6')
// The part whose context attention table TensorRT-LLM's context FMHA rate is fitted to.
const contextFitPartId = 'h100'
// The part whose context table Blackwell Ultra's rate of trtllm-gen's context FMHA is fitted to.
const blackwellUltraContextFitPartId = 'b300'
const contextDirectives = [
  "replayed_copies = 1 (the collector replays the layer on the same buffers, collector/trtllm/collect_attn.py: what the L2 holds of them it holds from the call before)",
  "attention = layer (the collector times TensorRT-LLM's attention layer: its QKV preprocessing kernel, the rotary embedding and K and V written to the cache, before the fused kernel)",
  'extra_kernels = 1 (AttentionOp::enqueueContext launches invokeBuildDecoderInfo, the sequence offsets and rotary frequencies, before them; TensorRT-LLM cpp/tensorrt_llm/common/attentionOp.cpp)',
  "context_kernel = trtllm (the fused kernel is TensorRT-LLM's own context FMHA, fmha_v2 before Blackwell and trtllm-gen's from SM100 (attentionOp.h: mUseTllmGen), priced at the calibration's attention.trtllm_efficiency_d128 where it has one)",
  ...attentionBurst,
]
// Where the preprocessing leaves the turned Q: the collector turns chunked prefill and cache
// reuse off (AttentionRuntimeFeatures), so TensorRT-LLM's PyTorch backend runs the context FMHA
// on the packed QKV buffer (use_paged_context_fmha false) but where it forces the paged one.
const contextQkv = part => part.pagedContext
  ? 'context_qkv = separate (TensorRT-LLM 1.3 forces its paged context FMHA on SM90, nvbug 5624818, as the collector notes: collector/trtllm/collect_attn.py; the preprocessing writes the turned Q to a buffer of its own and K and V to the cache, separate_q_kv_output)'
  : "context_qkv = packed (the collector's runtime features turn chunked prefill and cache reuse off, collector/trtllm/collect_attn.py, so TensorRT-LLM's attention runs its context FMHA on the packed QKV buffer, use_paged_context_fmha false, and its preprocessing, without separate_q_kv_output, writes the turned Q and K back into that buffer beside K and V into the cache: applyBiasRopeUpdateKVCache, cpp/tensorrt_llm/kernels/unfusedAttentionKernels/unfusedAttentionKernels_2_template.h)"
// An attention table's row in bf16 over a bf16 cache at head dimension `headDim`, one beam.
const bf16Attention = (r, headDim) => r.attn_dtype === 'bfloat16' &&
  r.kv_cache_dtype === 'bfloat16' && Number(r.head_dim) === headDim && Number(r.beam_width) === 1
// The context tables' rows kept, by the rule below (the window aside, which only TensorRT-LLM's
// tables record).
const contextShapes = (() => {
  const batch = new Set([1, 4, 16, 64]), isl = new Set([128, ...powers(512, 16384)])
  return r => bf16Attention(r, 128) && Number(r.num_heads) === Number(r.num_key_value_heads) &&
    batch.has(Number(r.batch_size)) && isl.has(Number(r.isl))
})()
const contextAttention = {
  name: 'attention',
  table: 'attention/trtllm/VERSION/context_attention_perf.parquet',
  conditions: 'its attention layer in the context (prefill) phase: a causal prompt of isl tokens a sequence, bf16 products and a bf16 KV cache, the fused kernels of its attention backend (the prompt\'s K and V written to the cache, then fused attention; collector/trtllm/collect_attn.py)',
  timing: 'timed by CUDA-graph replay after warm-up (collector/helper.py benchmark_with_power)',
  rule: 'bf16 rows with a bf16 KV cache, no window, as many KV heads as query heads, head dimension 128, batch 1, 4, 16 or 64, and prompts of 128 tokens and of 512 to 16384 in powers of two',
  keep: r => Number(r.window_size) === 0 && contextShapes(r),
  order: r => [Number(r.num_heads), Number(r.batch_size), Number(r.isl)],
  header: 'batch\tnheads\tseqlen\theaddim\tcausal\tdtype\tdevice\ttime_ms',
  cells: r => [r.batch_size, r.num_heads, r.isl, r.head_dim, 'true', 'bf16', r.device, r.latency],
  role: part => ({
    [contextFitPartId]: 'fit (its least time is the replay floor of every context attention table of the collector: scripts/import-aiconfigurator.mjs; the attention.trtllm_efficiency_d128 of the ampere and hopper profiles is fitted to its rows: scripts/fit-calibration.py)',
    [blackwellUltraContextFitPartId]: "fit (the blackwell-ultra profile's attention.trtllm_efficiency_d128 is fitted to its rows: scripts/fit-calibration.py)",
  })[part.id],
  // What the collector's timing holds beyond the fused kernel, read from TensorRT-LLM's code.
  directives: part => [...contextDirectives, contextQkv(part)],
  phase: 'context',
}

// Generation (decode) attention: one new token a sequence attending to `step` cached tokens and
// itself, through TensorRT-LLM's attention layer. Which kernels a row ran, TensorRT-LLM's code
// says from the part and the row's heads. Its masked multi-head attention kernel applies the
// rotary embedding and appends the new K and V itself (FusedQKVMaskedAttentionDispatchParams,
// cpp/tensorrt_llm/common/attentionOp.cpp); on Ampere and Hopper it runs as many K and V heads as
// query heads, since XQA declines vanilla MHA (supportConfigCommon, decoderXQAImplJIT/
// kernelUtils.cpp). Grouped queries there take XQA; its GMMA kernel, which applies the rotary
// embedding itself, wants an fp8 cache (supportConfigQGMMA), so over these bf16 caches the HMMA
// kernel runs after invokeQKVPreprocessing (decoderXQAImplJIT.cpp). On Blackwell every row of
// these tables takes TensorRT-LLM's trtllm-gen kernels (XqaDispatcher::shouldUse declines only
// beams, windows and groups over 16), after invokeBuildDecoderInfo and invokeQKVPreprocessing
// (XqaDispatcher::runImpl, cpp/tensorrt_llm/kernels/xqaDispatcher.cpp).
// `tllmGen`: a Blackwell part, whose generation attention TensorRT-LLM runs on trtllm-gen.
const sameBuffers = contextDirectives[0]
const generationDirectives = part => part.tllmGen
  ? [sameBuffers, "attention = layer (on Blackwell every row takes TensorRT-LLM's trtllm-gen kernels, XqaDispatcher::shouldUse declining only beams, windows and groups over 16, and XqaDispatcher::runImpl runs invokeQKVPreprocessing, the rotary embedding and the cache append, before the kernel: cpp/tensorrt_llm/kernels/xqaDispatcher.cpp)",
    'extra_kernels = 1 (XqaDispatcher::runImpl launches invokeBuildDecoderInfo, the sequence offsets and rotary frequencies, before them)', ...attentionBurst]
  : [sameBuffers, "attention = grouped-layer (on Ampere and Hopper as many K and V heads as query heads run the masked MHA kernel, which applies the rotary embedding and appends to the cache itself, XQA declining vanilla MHA: supportConfigCommon, decoderXQAImplJIT/kernelUtils.cpp; grouped queries take XQA, whose GMMA kernel that does it inside wants an fp8 cache, supportConfigQGMMA, so over a bf16 cache the HMMA kernel runs after invokeQKVPreprocessing: decoderXQAImplJIT.cpp)",
    "decode_kernel = trtllm-blocks (XQA, for grouped queries, splits each sequence's keys over blocks in multi-block mode, on by default, as computeMultiBlockCount deals them: decoderXQAImplCommon.h, each block paying the calibration's attention.decode_block_overhead; the masked MHA kernel sizes its grid to the SMs' occupancy, multi_block_grid_setup, and keeps the even spread)", ...attentionBurst]
// The part whose context and generation tables the collector's replay floors are fitted to, and
// the one Blackwell's streaming share is fitted to.
const replayFloorPartId = 'h100'
const blackwellStreamingPartId = 'b300'
const decodeHeads = new Set(['32/32', '32/8', '64/8', '8/1'])
// The generation tables' rows kept, by the rule below (the window aside, as for the context
// tables).
const decodeShapes = (() => {
  const batch = new Set([1, 4, 16, 64, 256]), keys = new Set(powers(128, 16384))
  return r => bf16Attention(r, 128) && batch.has(Number(r.batch_size)) &&
    keys.has(Number(r.step) + 1) && decodeHeads.has(`${r.num_heads}/${r.num_key_value_heads}`)
})()
const generationAttention = {
  name: 'decode_attention',
  table: 'attention/trtllm/VERSION/generation_attention_perf.parquet',
  timing: contextAttention.timing,
  conditions: "its attention layer in the generation (decode) phase: one new token a sequence over a bf16 KV cache of `step` tokens (collector/trtllm/collect_attn.py: num_cached_tokens_per_seq = step); the masked multi-head attention kernel for as many KV heads as query heads, XQA for grouped queries (the rotary embedding and the cache append inside the kernel on some paths, a preprocessing kernel before it on others: cpp/tensorrt_llm/kernels/decoderMaskedMultiheadAttention/decoderXQAImplJIT/decoderXQAImplJIT.cpp)",
  rule: 'bf16 rows with a bf16 KV cache, no window, head dimension 128, beam 1, (query heads, KV heads) of 32/32 (Llama 2 7B), 32/8 (Llama 3 8B), 64/8 (Llama 70B) and 8/1 (Llama 70B at TP 8), batch 1, 4, 16, 64 or 256, and 128 to 16384 keys (step + 1) in powers of two',
  keep: r => Number(r.window_size) === 0 && decodeShapes(r),
  order: r => [Number(r.num_heads), Number(r.num_key_value_heads), Number(r.batch_size), Number(r.step)],
  header: 'batch\tnheads\tkvheads\tseqlen\tkvlen\theaddim\tcausal\tdtype\tdevice\ttime_ms',
  cells: r => [r.batch_size, r.num_heads, r.num_key_value_heads, 1, Number(r.step) + 1, r.head_dim, 'true', 'bf16', r.device, r.latency],
  role: part => ({
    [replayFloorPartId]: "fit (its least time is the replay floor of every generation attention table of the collector: scripts/import-aiconfigurator.mjs; the hopper profile's attention.decode_block_overhead is fitted to its rows: scripts/fit-calibration.py)",
    [blackwellStreamingPartId]: "fit (the memory.bandwidth of the blackwell and blackwell-ultra profiles is fitted to its rows of 1 GiB of cache or more: scripts/fit-calibration.py)",
  })[part.id],
  directives: generationDirectives,
  phase: 'generation',
  // A row whose Q, O and KV cache could not be read at the part's spec bandwidth in the time
  // measured is not the configuration its columns state: excluded, with that reason.
  notAsStated: (r, part) => {
    const bytes = 2 * 2 * Number(r.batch_size) * Number(r.head_dim) *
      (Number(r.num_heads) + Number(r.num_key_value_heads) * (Number(r.step) + 1))
    return bytes / part.hbm > r.latency * 1e-3
  },
  notAsStatedWhy: part => `its Q, O and bf16 KV cache, 4 bytes x batch x head dim x (heads + KV heads x keys), cannot be read at the part's spec ${part.hbm / 1e12} TB/s in the time it gives; not the configuration its columns state`,
}

// DeepSeek's latent attention in decode as TensorRT-LLM runs it (collector/trtllm/collect_mla.py
// @ dec5f4cd2): each timed call the torch op mla_rope_generation (the queries' rotary part turned
// into the fused queries, each new token's latent written to the cache) and the attention
// backend's forward over the latent cache, one KV head of 576 (512 latent and 64 rotary)
// for the query heads a GPU holds. On Hopper the collector's metadata enables FlashMLA, whose
// tile schedule it computes when prepared, outside the timed call; its forward runs FlashMLA's
// split kernel and then its combine kernel (AttentionOp::mlaGeneration, mUseGenFlashMLA). On
// Blackwell the forward runs trtllm-gen's kernel (its first branch there); the A100, L40S and
// RTX PRO 6000 (SM80, SM89, SM120) run neither, but XQA's or fmha_v2's latent kernels, and are
// left out. Kept by the decode tables' rule, every head count the table has (128 to 1:
// DeepSeek's 128 at TP 1 to 128).
const latentDecodeParts = new Set(['h100', 'h200', 'b200', 'b300', 'gb200', 'gb300'])
const latentDecodeShapes = (() => {
  const batch = new Set([1, 4, 16, 64, 256]), keys = new Set(powers(128, 16384))
  return r => r.mla_dtype === 'bfloat16' && r.kv_cache_dtype === 'bfloat16' &&
    batch.has(Number(r.batch_size)) && keys.has(Number(r.step) + 1)
})()
const latentHeadDim = 576, latentValueDim = 512
const latentGenerationAttention = {
  name: 'decode_attention',
  suffix: 'mla',
  parts: part => latentDecodeParts.has(part.id),
  table: 'mla/trtllm/VERSION/generation_mla_perf.parquet',
  timing: contextAttention.timing,
  phase: 'generation',
  conditions: part => `DeepSeek's latent attention (MLA) in the generation (decode) phase, absorbed: one new token a sequence, its query heads (num_heads, those a GPU holds at the table's TP) over one KV head of ${latentHeadDim} (the ${latentValueDim}-wide latent and 64 rotary), bf16 with a bf16 KV cache of \`step\` tokens in pages of ${part.tllmGen ? 32 : 64}; each call mla_rope_generation then the attention backend's forward (collector/trtllm/collect_mla.py), ${part.tllmGen ? "trtllm-gen's decode kernel on Blackwell" : 'FlashMLA on Hopper (its split kernel and its combine kernel; the tile schedule computed when the metadata is prepared, outside the timed call)'}`,
  rule: 'bf16 rows with a bf16 KV cache, batch 1, 4, 16, 64 or 256, 128 to 16384 keys (step + 1) in powers of two, every head count (1 to 128)',
  keep: latentDecodeShapes,
  order: r => [Number(r.num_heads), Number(r.batch_size), Number(r.step)],
  header: 'batch\tnheads\tkvheads\tseqlen\tkvlen\theaddim\tvheaddim\tcausal\tdtype\tdevice\ttime_ms',
  cells: r => [r.batch_size, r.num_heads, 1, 1, Number(r.step) + 1, latentHeadDim, latentValueDim, 'true', 'bf16', r.device, r.latency],
  // The B300's is the fit set of Blackwell's latent decode streaming share, its rows of a 1 GiB
  // cache or more (the forty-sixth session's rule); the other parts' are held out.
  role: part => part.id === 'b300'
    ? "fit (the memory.latent_decode_bandwidth of data/calibration/blackwell.toml and blackwell-ultra.toml is fitted to its rows whose latent cache, read once, comes to 1 GiB or more, by scripts/fit-calibration.py)"
    : undefined,
  directives: part => [
    "replayed_copies = 1 (the collector replays the call on the same buffers and cache, collector/trtllm/collect_mla.py: what the L2 holds of them it holds from the call before)",
    "attention = latent-layer (mla_rope_generation turns the queries' rotary part into the fused queries and writes each new token's latent, its rotary part turned, into the cache before the backend's forward: collector/trtllm/collect_mla.py; the kernel reads each cached latent once, its first 512 elements the values)",
    ...(part.tllmGen ? [] : ["decode_kernel = flash-mla (FlashMLA's tile scheduler deals each sequence's 64-key blocks to parts of the SMs, get_mla_metadata_kernel with fixed_overhead_num_blocks = 5, its parts TensorRT-LLM's getFlashMlaNumSmParts: the SMs over the K/V heads and the blocks of 64 query rows; its combine kernel runs after the split kernel, run_mha_fwd_splitkv_mla)"]),
    ...burst(10, 6, 'collector/trtllm/collect_mla.py: warming_up = 10, test_ite = 6')],
  notAsStated: (r, part) => {
    const bytes = 2 * Number(r.batch_size) * (Number(r.num_heads) * (latentHeadDim + latentValueDim) +
      latentHeadDim * (Number(r.step) + 1))
    return bytes / part.hbm > r.latency * 1e-3
  },
  notAsStatedWhy: part => `its queries, outputs and bf16 latent cache cannot be read at the part's spec ${part.hbm / 1e12} TB/s in the time it gives; not the configuration its columns state`,
}

// vLLM 0.14.0's attention backends as the same collector times them (collector/vllm/collect_attn.py
// @ 22d40fdc7, the collector of the tables' April 2026 collection): the backend's forward, the
// new tokens' K and V written into the paged cache (reshape_and_cache_flash), then its fused
// kernel over the cache; the rotary embedding runs outside the backend. Kept where vLLM chose its
// FlashAttention backend (kernel_source vllm_flash_attn: FlashAttention-3 on Hopper, 2 on Ampere
// and Ada), by the TensorRT-LLM tables' rules; the call is a replay of two kernels, as a decode
// step's of TensorRT-LLM's, so both take the generation table's replay floor (chosen before any
// row was priced).
const vllmAttentionDirectives = [
  "replayed_copies = 1 (the collector replays the backend's forward on the same buffers and cache, collector/vllm/collect_attn.py: what the L2 holds of them it holds from the call before)",
  "attention = cache-layer (FlashAttentionImpl.forward writes the new tokens' K and V into the paged cache, reshape_and_cache_flash, then runs flash_attn_varlen_func over the cache: vllm/v1/attention/backends/flash_attn.py; the rotary embedding runs before the backend, outside the timed call)",
  ...burst(3, 6, 'collector/vllm/collect_attn.py: warm_up = 3, test_ite = 6'),
]
// Which FlashAttention vLLM runs on the part (FlashAttention-3 needs SM90: vLLM's
// get_flash_attn_version), whose host code launches kernels of its own around the fused one.
const flashAttentionOf = part =>
  ['h100', 'h200'].includes(part.id)
    ? "flash_attention = 3 (vLLM's FlashAttention-3 on SM90, hopper/flash_api.cpp mha_fwd of vllm-project/flash-attention @ 2adfc8c2, the build vLLM 0.14 pins: after the fused kernel it combines the key splits, or where it does not split zeroes its scheduler's semaphore, the schedule computed ahead by the metadata builder's get_scheduler_metadata)"
    : "flash_attention = 2 (vLLM's FlashAttention-2 below SM90, csrc/flash_attn/flash_api.cpp mha_varlen_fwd of vllm-project/flash-attention @ 2adfc8c2, the build vLLM 0.14 pins: a decode step of grouped queries runs each group's query heads as one sequence, with the copies into and out of that layout and the splits' combine that ridge validate counts by shape)"
// The part whose vLLM context table the life of the cache write's blocks is fitted to.
const vllmCacheWriteFitPartId = 'h100'
const vllmAttention = base => ({
  ...base,
  suffix: 'vllm',
  table: base.table.replace('/trtllm/', '/vllm/'),
  version: () => '0.14.0',
  engine: () => 'vLLM 0.14.0',
  conditions: `its attention backend's forward in the ${base.phase} phase (collector/vllm/collect_attn.py @ 22d40fdc7: impl.forward of the backend vLLM selects, here FlashAttention's, kernel_source vllm_flash_attn), bf16 with a bf16 KV cache in 64-token pages, the new tokens' K and V written into the cache before the fused kernel`,
  rule: `${base.rule}, of kernel_source vllm_flash_attn (the table's other backends left out)`,
  keep: r => r.kernel_source === 'vllm_flash_attn' && (base.phase === 'context' ? contextShapes(r) : decodeShapes(r)),
  role: part => base.phase === 'context' && part.id === vllmCacheWriteFitPartId
    ? "fit (the hopper profile's blocks.small_block_life, the life of each block of vLLM's cache write, is fitted to its rows: scripts/fit-calibration.py)"
    : undefined,
  directives: part => [...vllmAttentionDirectives, flashAttentionOf(part)],
})
const vllmContextAttention = vllmAttention(contextAttention)
const vllmGenerationAttention = vllmAttention(generationAttention)

// Intel's Arc Pro B60 as the collector's XPU variants measured it under vLLM 0.20
// (collector/vllm/collect_gemm_xpu.py and collect_attn_xpu.py @ 095f58a, the CUDA collectors'
// counterparts): the same layers and backends, on a part where collector/helper.py
// benchmark_with_power captures no graph (it captures only where torch.cuda is available). It
// runs num_warmups iterations eagerly and then times num_runs more between two XPU events, each
// call issued from Python while the one before runs; so no call is timed shorter than the host
// takes to issue one (`replay_floor_s`, the least time of rows that no priced row is among, or
// of the fit set itself). The MoE tables (power-law routing only, no balanced rows) and vLLM's
// all-reduce on XPU (its own path, which ridge does not model) are not taken; oneCCL's table is,
// below.
const xpuTiming = 'timed eagerly (collector/helper.py benchmark_with_power captures a graph only where torch.cuda is available: on XPU it runs the warm-up iterations, then times the others between two XPU events, each call issued from Python while the one before runs)'
const xpuBurst = (warmups, runs, file) => [
  `warmup_calls = ${warmups} (collector/helper.py benchmark_with_power runs num_warmups = ${warmups} iterations eagerly before it times any, and no graph replays on XPU: ${file}; each call one iteration of its loop)`,
  `timed_calls = ${runs} (num_runs = ${runs} timed iterations, back to back after the warm-up: ${file})`,
]
const xpuIssueFloor = (rows, fitted) =>
  `replay_floor_s = ${leastSeconds(rows).toExponential(3)} (the collector issues every call eagerly from its Python loop on XPU, so no call is timed shorter than the host takes to issue one; fitted: ${fitted}, scripts/import-aiconfigurator.mjs)`
const xpuGemm = {
  ...vllmGemm,
  table: 'gemm/vllm/VERSION/gemm_perf.parquet',
  version: part => part.xpu,
  parts: part => part.xpu !== undefined,
  timing: xpuTiming,
  conditions: "its Linear layer (vllm.model_executor.layers.linear.RowParallelLinear, TP off) in bf16 without bias, UnquantizedLinearMethod's torch.nn.functional.linear (oneDNN on XPU), y = x W^T with x m-by-k and W n-by-k, over max(1, min(6, what 45% of the memory holds)) distinct copies of the layer a timed iteration, six at every kept size (collector/vllm/collect_gemm_xpu.py @ 095f58a)",
  rule: "bf16 rows (the column's 'bfloat16') with m a power of two from 1 to 16384 and n, k each a power of two from 512 to 16384",
  cells: r => [r.m, r.n, r.k, 'bf16', r.device, r.latency],
  role: () => 'fit (the xe2 profile\'s compute.bf16 and fp16 are fitted to its products of 4096 or more in every dimension, and its memory.bandwidth to its GEMVs, by scripts/fit-calibration.py; its least time is its replay floor)',
  directives: [
    'replayed_copies = 6 (the collector times a loop over max(1, min(6, what 45% of the memory holds)) distinct copies of the layer on the same activations, six at every kept size: collector/vllm/collect_gemm_xpu.py; what the L2 holds of them it holds from the call before)',
    'replay_every_copy = yes (the six copies whatever their size)',
    ...xpuBurst(3, 6, 'collector/vllm/collect_gemm_xpu.py: num_warmups = 3, num_runs = 6'),
  ],
  issueFloor: rows => xpuIssueFloor(rows.filter(xpuGemm.keep),
    'the least time of this table, its fit set'),
}
// The attention tables hold the profile out; their issue floor is the least time of each table's
// rows at head dimension 64 (bf16 with a bf16 cache, no window), which the selection does not keep.
const xpuAttention = base => ({
  ...base,
  suffix: 'vllm',
  table: base.table.replace('/trtllm/', '/vllm/'),
  version: part => part.xpu,
  parts: part => part.xpu !== undefined,
  engine: (part, rows) => `vLLM ${rows[0].version}`,
  timing: xpuTiming,
  conditions: `its attention backend's forward in the ${base.phase} phase (collector/vllm/collect_attn_xpu.py @ 095f58a: impl.forward of the backend vLLM selects on XPU, its FlashAttention backend, kernel_source vllm_flash_attn), bf16 with a bf16 KV cache in 64-token pages, the new tokens' K and V written into the cache before the fused kernel`,
  rule: base.phase === 'context'
    ? 'bf16 rows with a bf16 KV cache, no window, head dimension 128, beam 1, (query heads, KV heads) of 32/8 (Llama 3 8B), 64/8 (Llama 70B) and 8/1 (Llama 70B at TP 8), batch 1, 4 or 16, and prompts of 128 tokens and of 512 to 16384 in powers of two, of kernel_source vllm_flash_attn (the table has no multi-head layout past 8 heads, so the grouped ones of the decode rule are taken)'
    : `${base.rule}, of kernel_source vllm_flash_attn`,
  keep: base.phase === 'context'
    ? r => r.kernel_source === 'vllm_flash_attn' && xpuContextShapes(r)
    : r => r.kernel_source === 'vllm_flash_attn' && Number(r.window_size) === 0 && decodeShapes(r),
  header: base.phase === 'context' ? 'batch\tnheads\tkvheads\tseqlen\theaddim\tcausal\tdtype\tdevice\ttime_ms' : base.header,
  cells: base.phase === 'context'
    ? r => [r.batch_size, r.num_heads, r.num_key_value_heads, r.isl, r.head_dim, 'true', 'bf16', r.device, r.latency]
    : base.cells,
  role: () => undefined,
  directives: () => [
    "replayed_copies = 1 (the collector runs the backend's forward on the same buffers and cache, collector/vllm/collect_attn_xpu.py: what the L2 holds of them it holds from the call before)",
    "attention = cache-layer (the backend's forward writes the new tokens' K and V into the paged cache, reshape_and_cache_flash, then runs its fused kernel over the cache: vllm/v1/attention/backends/flash_attn.py; the rotary embedding runs before the backend, outside the timed call)",
    "flash_attention = none (on XPU the fused kernel is vllm-xpu-kernels' SYCL FlashAttention, whose host code was not read: no kernels priced around it)",
    ...xpuBurst(3, 6, 'collector/vllm/collect_attn_xpu.py: warm_up = 3, test_ite = 6'),
  ],
  issueFloor: rows => xpuIssueFloor(rows.filter(r => r.kernel_source === 'vllm_flash_attn' &&
    bf16Attention(r, 64) && Number(r.window_size) === 0),
  `the least time of this table's rows at head dimension 64 (bf16, a bf16 cache, no window), which the selection does not keep`),
})
const xpuContextShapes = (() => {
  const batch = new Set([1, 4, 16]), isl = new Set([128, ...powers(512, 16384)])
  return r => bf16Attention(r, 128) && Number(r.window_size) === 0 &&
    decodeHeads.has(`${r.num_heads}/${r.num_key_value_heads}`) && batch.has(Number(r.batch_size)) &&
    isl.has(Number(r.isl))
})()
const xpuContextAttention = xpuAttention(contextAttention)
const xpuGenerationAttention = xpuAttention(generationAttention)

// The part whose NCCL table the collectives' local step is fitted to (with Hopper's latencies),
// and the one Blackwell's latencies are fitted to.
const localStepPartId = 'h100'
const blackwellLatencyPartId = 'b300'
// NCCL's collectives as nccl-tests times them (collector/network/collect_nccl.py): one size a
// run (-b = -e, in bytes), one thread a GPU (-t N), the out-of-place time of the result row; the
// table stores the size over the element width.
const ops = { all_reduce: 'allreduce', all_gather: 'allgather', reduce_scatter: 'reducescatter', alltoall: 'alltoall' }
const collective = {
  name: 'collective',
  table: 'comm/nccl/VERSION/nccl_perf.parquet',
  version: part => part.nccl,
  engine: part => `NCCL ${part.nccl}`,
  timing: 'timed by nccl-tests itself (its iterations launched back to back, timed from the host, the mean)',
  precision: 'fp16',
  conditions: "nccl-tests' all_reduce_perf, all_gather_perf, reduce_scatter_perf and alltoall_perf on one node, one thread a GPU (-t N), one size a run in bytes (-b = -e; the table stores it over the element width, 2 bytes for half), 40 warm-up and 60 to 100 timed iterations, the out-of-place time (collector/network/collect_nccl.py, collect_comm.sh)",
  rule: "half rows (int8 ones left out: the same bytes), every collective, GPU count and size the table has; bytes = the table's message_size x 2, nccl-tests' size (all-gather: the whole output)",
  keep: r => r.nccl_dtype === 'half' && r.op_name in ops,
  order: r => [Object.keys(ops).indexOf(r.op_name), Number(r.num_gpus), Number(r.message_size)],
  header: 'collective\tgpus\tbytes\tdtype\tdevice\ttime_ms',
  cells: r => [ops[r.op_name], r.num_gpus, Number(r.message_size) * 2, 'fp16', r.device, r.latency],
  // Every profile's collective.local_step is fitted to the H100's large messages; each
  // architecture's collective.latency and step_latency to one part's small ones.
  role: part => ({
    [localStepPartId]: 'fit (the collective.local_step of every profile is fitted to its rows of 32 MiB and more, all-reduces over 8 GPUs aside, and the hopper profile\'s collective.latency and step_latency to its rows of 64 KiB and less: scripts/fit-calibration.py)',
    [blackwellLatencyPartId]: 'fit (the blackwell and blackwell-ultra profiles\' collective.latency and step_latency are fitted to its rows of 64 KiB and less, and their collective.p2p_channel_bandwidth to its all-to-alls over 2 GPUs of 32 MiB and more: scripts/fit-calibration.py)',
  })[part.id],
  directives: [],
}

// oneCCL's collectives over the B60s of one server as oneCCL's own benchmark times them
// (collector/network/collect_oneccl_xpu.py @ 095f58a: oneccl_benchmark under mpirun, one rank a
// GPU, 20 warm-up and 100 timed iterations; its 'half' is oneCCL's bfloat16). Its sizes are
// element counts of each rank's send buffer but for the all-gather's, a rank's share of the
// output: nccl-tests' size, ridge's `bytes`, is that times the GPUs there. Priced by ridge's NCCL
// model at the xe2 profile's PCIe estimates (oneCCL's own algorithms were not read); held out.
const onecclCollective = {
  ...collective,
  suffix: 'oneccl',
  table: 'comm/oneccl/VERSION/oneccl_perf.parquet',
  version: part => part.oneccl,
  parts: part => part.oneccl !== undefined,
  engine: part => `oneCCL ${part.oneccl}`,
  timing: "timed by oneCCL's benchmark (oneccl_benchmark: its iterations back to back, the mean)",
  conditions: "oneCCL's benchmark (oneccl_benchmark, built from oneCCL's examples) under Intel MPI, one rank a GPU of one server, allgather, allreduce and reduce_scatter in bfloat16 (the table's 'half') over 2 and 4 GPUs, 512 B to 512 MiB in powers of two, 20 warm-up and 100 timed iterations (collector/network/collect_oneccl_xpu.py)",
  rule: "half rows (int8 ones left out), every collective, GPU count and size the table has; bytes = the table's message_size x 2, times the GPU count for an all-gather (its count is a rank's share of the output), nccl-tests' size",
  cells: r => [ops[r.op_name], r.num_gpus,
    Number(r.message_size) * 2 * (r.op_name === 'all_gather' ? Number(r.num_gpus) : 1), 'bf16', r.device, r.latency],
  role: () => undefined,
}

// Each engine's all-reduce as a served model runs it, five calls captured in one CUDA graph
// (repeat_n = 5), the graph replayed back to back, the time over the calls
// (collector/network/collect_all_reduce.py @ 095f58a5; the vLLM and SGLang tables may predate
// that copy). TensorRT-LLM's AllReduce with strategy AUTO and its autotuner off picks its
// one-shot or two-shot kernels or NCCL by size from its own table; vLLM's and SGLang's
// tensor_model_parallel_all_reduce their custom kernel below a size, NCCL above. The H100's and
// B300's TensorRT-LLM tables are the fit sets of the custom latency; the others hold it out.
const customAllreduceFitParts = new Set(['h100', 'b300'])
// vLLM's custom all-reduce figures (collective.pull_*) are fitted to the H100's vLLM table for
// Hopper, the A100's for Ampere and the B300's SGLang table for Blackwell (no B300 vLLM table).
const pullAllreduceFitSets = new Set([
  'vllm_allreduce/h100',
  'vllm_allreduce/a100',
  'sglang_allreduce/b300',
])
// How each engine's table is priced ('# ridge: collective_kernel'), by the engine's own dispatch:
// TensorRT-LLM's by the generation of its code the table's release runs (1.0's token threshold,
// later releases' lookup table).
const trtllmCollectiveKernel = part => part.version.startsWith('1.0')
  ? "collective_kernel = trtllm-1.0 (TensorRT-LLM 1.0's AUTO dispatch, thop/allreduceOp.cpp after pull request 5432: its one-shot kernel up to 128 tokens, NCCL past them over more than 2 GPUs, its two-shot kernel past them over 2; NCCL past its buffer)"
  : "collective_kernel = trtllm (TensorRT-LLM's AUTO dispatch by its lookup table, customAllReduceUtils.h selectStrategyLookUpTable: one-shot, two-shot or NCCL by GPUs, tokens and hidden size, its SM90 rows below SM100; NCCL past its 64 MiB buffer)"
const collectiveKernel = {
  trtllm_allreduce: trtllmCollectiveKernel,
  vllm_allreduce: "collective_kernel = vllm (vLLM's custom all-reduce, SGLang's its descendant: one stage or two by size and GPU count, NCCL from its 8 MiB limit up, as vLLM dispatches)",
  sglang_allreduce: "collective_kernel = sglang (vLLM's custom all-reduce as SGLang, its descendant, dispatches it: one stage or two by size and GPU count as vLLM's, NCCL past its 8 MiB buffer, a message of exactly 8 MiB kept)",
}
const fitRole = (suffix, part) => {
  if (suffix === 'trtllm_allreduce' && customAllreduceFitParts.has(part))
    return "fit (the collective.custom_latency of the hopper and ampere profiles is fitted to the H100's rows of 64 KiB and less, and the blackwell and blackwell-ultra profiles' to the B300's: scripts/fit-calibration.py)"
  if (pullAllreduceFitSets.has(`${suffix}/${part}`))
    return "fit (the collective.pull_* figures of vLLM's custom all-reduce are fitted to the H100's vLLM table for the hopper profile, to the A100's for the ampere profile, and to the B300's SGLang table for the blackwell and blackwell-ultra profiles: scripts/fit-calibration.py)"
  return undefined
}
const customAllreduce = ({ suffix, table, version, parts, source, engine, conditions }) => ({
  name: 'collective',
  suffix,
  table: `comm/${table}/VERSION/custom_allreduce_perf.parquet`,
  version,
  parts,
  engine,
  timing: 'timed by CUDA-graph replay, five all-reduces a graph, the replays back to back between two events, the time over the calls (collector/network/collect_all_reduce.py)',
  conditions,
  rule: `bf16 rows${source ? ` of kernel_source ${source} (the eager rows left out: outside a graph the engine copies its input into a registered buffer first)` : ''}, every GPU count and size the table has; bytes = the table's message_size x 2`,
  keep: r => r.allreduce_dtype === 'bfloat16' && (!source || r.kernel_source === source),
  order: r => [Number(r.num_gpus), Number(r.message_size)],
  header: 'collective\tgpus\tbytes\tdtype\tdevice\ttime_ms',
  cells: r => ['allreduce', r.num_gpus, Number(r.message_size) * 2, 'bf16', r.device, r.latency],
  role: part => fitRole(suffix, part.id),
  directives: part => [
    typeof collectiveKernel[suffix] === 'function' ? collectiveKernel[suffix](part) : collectiveKernel[suffix],
    'message_row_elements = 4096 (collector/network/collect_all_reduce.py get_input_shape_and_comm_size: a message of more than token_dim = 4096 values is [size / 4096, 4096], a smaller one [1, size]; the engine dispatches by those rows)',
    'graph_captured = yes (collector/network/collect_all_reduce.py captures the five calls in one CUDA graph)',
    'graph_calls = 5 (repeat_n = 5 calls a graph, the time over the calls: collector/network/collect_all_reduce.py)',
  ],
})
const trtllmAllreduce = customAllreduce({
  suffix: 'trtllm_allreduce',
  table: 'trtllm',
  version: part => part.version,
  parts: () => true,
  engine: part => `TensorRT-LLM ${part.version}`,
  conditions: part => `its AllReduce op (tensorrt_llm._torch.distributed.AllReduce) with AllReduceStrategy.AUTO and no fusion, TLLM_DISABLE_ALLREDUCE_AUTOTUNE=1 so that its own ${part.version.startsWith('1.0') ? 'heuristic' : 'lookup table'} picks the kernel (its one-shot and two-shot custom kernels for small messages, NCCL for large), one process a GPU of one node (collector/network/collect_all_reduce.py)`,
})
const vllmAllreduce = customAllreduce({
  suffix: 'vllm_allreduce',
  table: 'vllm',
  version: () => '0.14.0',
  parts: part => part.vllm16 !== undefined,
  source: 'vLLM_custom_graph',
  engine: () => 'vLLM 0.14.0',
  conditions: "tensor_model_parallel_all_reduce under vLLM's graph_capture, its custom all-reduce (csrc/custom_all_reduce.cuh: one stage for small messages, two stages for larger) below its size limit and on a fully connected NVLink node, NCCL (pynccl) otherwise, one process a GPU of one node (collector/network/collect_all_reduce.py)",
})
const sglangAllreduce = customAllreduce({
  suffix: 'sglang_allreduce',
  table: 'sglang',
  version: () => '0.5.10',
  parts: () => true,
  source: 'SGLang_CustomAllReduce_graph',
  engine: () => 'SGLang 0.5.10',
  conditions: "tensor_model_parallel_all_reduce under SGLang's graph_capture with its custom all-reduce enabled (set_custom_all_reduce(True): sgl-kernel's, vLLM's kernel's descendant) below its size limit, NCCL otherwise, one process a GPU of one node (collector/network/collect_all_reduce.py)",
})

// One layer's routed experts as an engine runs them, each token routed by the collector's
// balanced routing (collector/helper.py balanced_logits: token t takes experts (t + j ceil(E / k))
// mod E for j < k, spread over the E experts when fewer tokens than E / k, so that min(E, T k)
// experts receive T k / min(E, T k) rows each), the experts' intermediate width split over `tp`
// GPUs and the experts over `ep`, one GPU's share timed, replayed on the same weights and buffers.
// Kept, by one rule fixed before any was priced: fp16 or bf16 and per-tensor fp8 rows of the
// engine's kernel, the balanced distribution, tokens 1 to 16384 in powers of four, (tp, ep) of
// (1, 1), (1, 8) or (8, 1), every expert shape the table has.
const moeTokens = new Set([1, 4, 16, 64, 256, 1024, 4096, 16384])
const moeParallel = new Set(['1/1', '1/8', '8/1'])
const moeRule = (source, { types, why }) => `rows of kernel_source ${source}, moe_dtype ${Object.keys(types).join(' or ')} (${why}), the balanced distribution, tokens 1, 4, 16, 64, 256, 1024, 4096 or 16384, and (tp, ep) of (1, 1), (1, 8) or (8, 1); every expert shape the table has`
// A kind of MoE rows: `suffix` names its files, `engineDir` the engine's directory of tables
// (the suffix where not given), `role` its role by part.
const moeKind = ({ suffix, engineDir = suffix, engine, version, parts, source, types, why, conditions, directives,
  role = () => undefined, notAsStated, notAsStatedWhy }) => ({
  name: 'moe',
  suffix,
  table: `moe/${engineDir}/VERSION/moe_perf.parquet`,
  version,
  engine,
  parts,
  conditions: `one layer's routed experts over \`tokens\` tokens, each token routed to \`topk\` of \`experts\` experts by the collector's balanced routing (collector/helper.py balanced_logits: token t takes experts (t + j ceil(E / k)) mod E for j < k, spread over the E experts when fewer tokens than E / k, so that min(E, T k) experts receive T k / min(E, T k) rows each), the experts' intermediate width split over \`tp\` GPUs and the experts over \`ep\`, one GPU's share timed; ${conditions}`,
  timing: 'timed by CUDA-graph replay after warm-up (collector/helper.py benchmark_with_power)',
  rule: moeRule(source, { types, why }),
  keep: r => r.kernel_source === source && r.moe_dtype in types && r.distribution === 'balanced' &&
    moeTokens.has(Number(r.num_tokens)) && moeParallel.has(`${r.moe_tp_size}/${r.moe_ep_size}`),
  order: r => [Number(r.hidden_size), Number(r.inter_size), Number(r.num_experts), Number(r.topk),
    Object.keys(types).indexOf(r.moe_dtype), Number(r.moe_tp_size), Number(r.moe_ep_size), Number(r.num_tokens)],
  header: 'tokens\thidden\tinter\ttopk\texperts\ttp\tep\tdtype\tdevice\ttime_ms',
  cells: r => [r.num_tokens, r.hidden_size, r.inter_size, r.topk, r.num_experts, r.moe_tp_size, r.moe_ep_size,
    types[r.moe_dtype], r.device, r.latency],
  role,
  directives,
  notAsStated,
  notAsStatedWhy,
})
const sameMoeBuffers = collector => `replayed_copies = 1 (the collector replays the call on the same weights and buffers, ${collector}: what the L2 holds of them it holds from the call before)`
// vLLM's fused MoE (collector/vllm/collect_moe_v1.py, the collector of vLLM 0.14.0's tables as of
// their collection in April 2026: github.com/ai-dynamo/aiconfigurator @ 22d40fdc7): fused_experts
// alone, the routing given (no gate, no top-k).
const vllmMoe = moeKind({
  suffix: 'vllm',
  engine: () => 'vLLM 0.14.0',
  version: () => '0.14.0',
  parts: () => true,
  source: 'vllm_fused_moe',
  types: { bfloat16: 'fp16', fp8: 'fp8_e4m3->fp16' },
  why: "the fp8_block rows left out: which kernel vLLM 0.14 runs for them, its Triton one or DeepGEMM's, the table does not say",
  conditions: "`fused_experts` of its fused MoE (vllm/model_executor/layers/fused_moe), the routing given (collector/vllm/collect_moe_v1.py @ 22d40fdc7: moe_tp_size, moe_ep_size, determine_expert_map). The moe_dtype 'bfloat16' rows run in fp16 (the collector's torch.float16 weights and tokens); 'fp8' rows are W8A8 with per-tensor scales, the tokens quantized in the call. vLLM's fused_experts runs its Triton fused_moe_kernel twice, the gated activation between (and quantization before each product in fp8), and sums each token's k outputs (moe_sum)",
  directives: [
    sameMoeBuffers('collector/vllm/collect_moe_v1.py'),
    "moe_kernels = vllm (vLLM's fused_experts_impl, vllm/model_executor/layers/fused_moe/fused_moe.py: the Triton products gather each pair's token themselves, and the other GPUs' pairs keep their blocks, which write zeros)",
    'extra_kernels = 1 (moe_align_block_size, which sorts the token-expert pairs by expert and pads each expert\'s rows to the Triton tile before the first product: vllm/model_executor/layers/fused_moe/moe_align_block_size.py, one ops.moe_align_block_size launch in vLLM\'s copies of late 2025; under expert parallelism some versions map the expert ids in one more kernel, not counted)',
    ...burst(3, 6, 'collector/vllm/collect_moe_v1.py: num_warmups = 3, num_runs = 6 for the balanced distribution'),
  ],
})
// TensorRT-LLM's CUTLASS MoE (collector/trtllm/collect_moe.py @ dec5f4cd2, the collector of its
// 1.3.0rc20 tables): CutlassFusedMoE's forward, the routing included, its grouped GEMMs' tactics
// autotuned. Hopper and datacenter Blackwell only, where it runs its TMA warp-specialized grouped
// GEMMs, whose kernel sequence was read; the L40S runs the Ampere-style ones, whose gated
// activation a tactic may fuse.
const tmaWarpSpecialized = new Set(['h100', 'h200', 'b200', 'b300', 'gb200', 'gb300'])
// The collector keeps the tactics it autotunes in a file named by the quantization and the
// expert weights' shapes on the GPU alone (collector/trtllm/collect_moe.py @ dec5f4cd2:
// moe_tune_path/sm<SM>_<moe_type>_<hidden>_<inter / tp>_<experts / ep>; every quantization but
// w4a16_mxfp4, which the rule never meets in these kinds), and a case that finds the file loads it
// and tunes nothing. Where the table holds another routing under the same name (a
// top-k, an expert count or a split over GPUs of its own, or another kernel: the min-latency and
// non-gated ones), the cases share whichever tactics the first of them tuned, for its routing or
// for its kernel (a kernel that finds none of its own runs its fallback tactic); the cases run
// shuffled (random.seed(42), over the whole sweep), so which tuned them is not recorded. Such a
// row times TensorRT-LLM's kernel at tactics that need not be its own: not the tuned call its
// columns state.
const tuningCacheName = r =>
  [r.moe_dtype, r.hidden_size, Number(r.inter_size) / Number(r.moe_tp_size),
    Number(r.num_experts) / Number(r.moe_ep_size)].join('/')
const routingOf = r => [r.kernel_source, r.topk, r.num_experts, r.moe_tp_size, r.moe_ep_size].join('/')
// The cache names a table's rows share across routings, worked out once a table.
const sharedCacheNames = new WeakMap()
const sharesTuningCache = (r, rows) => {
  if (!sharedCacheNames.has(rows)) {
    const routings = new Map()
    for (const x of rows) {
      const name = tuningCacheName(x)
      if (!routings.has(name)) routings.set(name, new Set())
      routings.get(name).add(routingOf(x))
    }
    sharedCacheNames.set(rows, new Set([...routings].filter(([, s]) => s.size > 1).map(([name]) => name)))
  }
  return sharedCacheNames.get(rows).has(tuningCacheName(r))
}
const sharedCacheWhy = "its tactics need not be its own: the collector names the file of autotuned tactics by the quantization, the hidden size, the intermediate size over tp and the experts over ep alone (collector/trtllm/collect_moe.py @ dec5f4cd2: moe_tune_path/sm<SM>_<moe_type>_<hidden>_<inter / tp>_<experts / ep>) and a case that finds the file tunes nothing, and this table holds another routing under the same name (another top-k, expert count, split over GPUs or kernel: min-latency, non-gated), so this row ran the tactics of whichever case came first, in an order the shuffled sweep does not record; not the tuned call its columns state (rule: scripts/import-aiconfigurator.mjs, sharesTuningCache)"
const trtllmMoeSpec = {
  suffix: 'trtllm',
  engine: part => `TensorRT-LLM ${part.version}`,
  version: part => part.version,
  parts: part => tmaWarpSpecialized.has(part.id),
  source: 'moe_torch_flow_cutlass',
  types: { bfloat16: 'bf16', fp8: 'fp8_e4m3->bf16' },
  why: "the fp8_block rows left out: DeepGEMM's kernels on Blackwell, block scales in the product on Hopper",
  // The B300's is the fit set of Blackwell's grouped streaming share, its rows that stream their
  // weights (the forty-fifth session's rule); the other parts' are held out.
  role: part => part.id === 'b300'
    ? "fit (the memory.grouped_gemm_bandwidth of data/calibration/blackwell.toml and blackwell-ultra.toml is fitted to its rows with every expert on the one GPU, each receiving 1 to 8 rows, by scripts/fit-calibration.py)"
    : undefined,
  conditions: "CutlassFusedMoE.forward (tensorrt_llm/_torch/modules/fused_moe/fused_moe_cutlass.py) from the router's logits, its moe_backend CUTLASS, its tactics autotuned before timing (collector/trtllm/collect_moe.py @ dec5f4cd2). The 'bfloat16' rows run bf16; 'fp8' rows are W8A8 with per-tensor scales (QuantAlgo.FP8), the tokens quantized before the op. TensorRT-LLM's CutlassMoeFCRunner::runMoe (cpp/tensorrt_llm/kernels/cutlass_kernels/moe_gemm/moe_kernels.cu) builds the expert maps, copies each pair's token into expert order, runs its grouped GEMMs with the gated activation in a kernel between, and sums each token's rows back (finalizeMoeRouting, or fused into the second GEMM's epilogue)",
  directives: [
    sameMoeBuffers('collector/trtllm/collect_moe.py'),
    "moe_kernels = trtllm (CutlassMoeFCRunner::runMoe, cpp/tensorrt_llm/kernels/cutlass_kernels/moe_gemm/moe_kernels.cu: expandInputRowsKernel copies this GPU's pairs into expert order, doActivation runs the gated activation after the TMA warp-specialized gate-and-up GEMM, finalizeMoeRouting sums the rows back; ridge counts the expert-map kernels, one where fusedBuildExpertMapsSortFirstToken applies, else three)",
    "extra_kernels = 2 (RenormalizeMoeRoutingMethod's routing op, one kernel for up to 512 experts and top 16: tensorrt_llm/_torch/modules/fused_moe/routing.py; computeStridesTmaWarpSpecializedKernel, the grouped GEMMs' per-expert arguments: moe_kernels.cu)",
    ...burst(3, 6, 'collector/trtllm/collect_moe.py: num_warmups = 3, num_runs = 6 for the balanced distribution'),
  ],
  notAsStated: (r, part, rows) => sharesTuningCache(r, rows),
  notAsStatedWhy: () => sharedCacheWhy,
}
const trtllmMoe = moeKind(trtllmMoeSpec)

// The same CUTLASS MoE in NVFP4 on Blackwell (QuantAlgo.NVFP4: fp4 weights with an fp8 scale a
// block of 16, the tokens quantized to fp4 with a static scale in one kernel before the op,
// fused_moe_cutlass.py; the gated activation writes the down product's input in fp4 with its
// scales, moe_kernels.cu doActivation), its tactics autotuned as above: a tuned fp4 kernel, the
// check of Blackwell's fp4 share (an estimate) that the NVFP4 GEMM tables, untuned, cannot be.
// Files of their own, so that the bf16 and fp8 sets keep their rows. The B300's is the fit set of
// Blackwell's chained load, its rows of one token (the thirty-fifth session's rule); the other
// parts' are held out.
const trtllmNvfp4Moe = moeKind({
  ...trtllmMoeSpec,
  suffix: 'trtllm_nvfp4',
  engineDir: 'trtllm',
  types: { nvfp4: 'nvfp4->bf16' },
  why: "the bf16 and fp8 rows in moe_aiconfigurator_<part>_trtllm.tsv; the min-latency rows, trtllm-gen's kernels, are another kernel_source",
  role: part => part.id === 'b300'
    ? "fit (the chained load of data/calibration/blackwell.toml and blackwell-ultra.toml is fitted to its rows of one token by scripts/fit-calibration.py)"
    : undefined,
  conditions: "CutlassFusedMoE.forward (tensorrt_llm/_torch/modules/fused_moe/fused_moe_cutlass.py) from the router's logits, its moe_backend CUTLASS, its tactics autotuned before timing (collector/trtllm/collect_moe.py @ dec5f4cd2). The rows are NVFP4 (QuantAlgo.NVFP4): fp4 e2m1 weights with an fp8 scale a block of 16 values, the bf16 tokens quantized to fp4 with a static scale in one kernel before the op (torch.ops.trtllm.fp4_quantize in its forward, in the copy of fused_moe_cutlass.py read). TensorRT-LLM's CutlassMoeFCRunner::runMoe (cpp/tensorrt_llm/kernels/cutlass_kernels/moe_gemm/moe_kernels.cu) builds the expert maps, copies each pair's fp4 row and its scales into expert order, runs its block-scaled fp4 grouped GEMMs with the gated activation in a kernel between (which writes the down product's input in fp4 with its scales), and sums each token's rows back",
})

const byOrder = kind => (a, b) => {
  const x = kind.order(a), y = kind.order(b)
  for (let i = 0; i < x.length; ++i) if (x[i] !== y[i]) return x[i] - y[i]
  return 0
}

// A part's table of one kind: its path in aiconfigurator and its rows; none where the part has
// no such table.
const readTable = async (kind, part) => {
  const version = (kind.version ?? (p => p.version))(part)
  const file = partFile(part, kind.table, version)
  const rows = await parquetRows(file)
  if (!rows) return undefined
  if (kind.join) joinRows(rows, kind.join, await parquetRows(partFile(part, kind.join.table, version)))
  return { version, file, rows }
}

// A part's table in aiconfigurator.
const partFile = (part, table, version) =>
  `aic-core/src/aiconfigurator_core/systems/data/${part.dir}/${table.replace('VERSION', version)}`

// The rows of a Parquet file of the checkout's HEAD; none where it has no such file.
const parquetRows = async file => {
  let buf
  try { buf = git('show', `HEAD:${file}`) } catch { return undefined }
  return parquetReadObjects({
    file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength), compressors })
}

// Gives each row of `rows` the row of `others` of the same m and k whose op is `join.op`
// (r.joined; undefined where there is none).
const joinRows = (rows, join, others = []) => {
  const byShape = new Map(others.filter(o => o.op_name === join.op).map(o => [`${o.m}x${o.k}`, o]))
  for (const r of rows) r.joined = byShape.get(`${r.m}x${r.k}`)
}

// The least latency of `rows`, in seconds (the tables give milliseconds).
const leastSeconds = rows => Math.min(...rows.map(r => Number(r.latency))) * 1e-3

// The rows of a table that its selection keeps and that can be the configuration they state.
const possible = (kind, part, rows) =>
  rows.filter(r => kind.keep(r) && !(kind.notAsStated && kind.notAsStated(r, part, rows)))

// The collector times each attention call as one CUDA-graph replay issued from a Python loop
// (repeat_n = 1, collector/helper.py benchmark_with_power), so no call is timed shorter than
// the host takes to issue a replay, whatever the GPU does. A context call's graph holds more
// than a decode step's and takes longer to issue (the least time of each part's context table is
// 1.36 to 1.55 times its generation table's), so each kind's host time is
// fitted to its own H100 table (the least time it gives: its rows of least GPU work wait for
// the host), whose file is then a fit set, and taken for that kind's table on every part.
const replayFloorPart = parts.find(p => p.id === replayFloorPartId)
const leastTimeOf = async kind =>
  leastSeconds(possible(kind, replayFloorPart, (await readTable(kind, replayFloorPart)).rows))
const replayFloorDirective = (seconds, fitted) =>
  `replay_floor_s = ${seconds.toExponential(3)} (the collector times each call as one CUDA-graph replay issued from a Python loop, so no call is timed shorter than the host takes to issue one; fitted: ${fitted}, scripts/import-aiconfigurator.mjs)`
const replayFloorOf = async kind => replayFloorDirective(await leastTimeOf(kind),
  `the least time of the H100 ${kind.phase} attention table, taken for every ${kind.phase} attention table of the collector`)
const replayFloors = new Map()
for (const kind of [contextAttention, generationAttention])
  replayFloors.set(kind, await replayFloorOf(kind))
// The latent attention's batched products are timed the same way, one product a replay: a graph
// of one kernel, which the host issues faster than an attention layer's. Their floor is the least
// time of the H100's bf16 table, taken for every batched-product table, the fp8 ones too (their
// graph holds one kernel more, which can only take the host longer to issue).
const batchedProductFloor = replayFloorDirective(await leastTimeOf(mlaBmm),
  "the least time of the H100 table of the latent attention's bf16 batched products, taken for every batched-product table of the collector, its fp8 ones too")
for (const kind of [mlaBmm, mlaBmmFp8]) replayFloors.set(kind, batchedProductFloor)
// The MoE call is one replay from the same Python loop: the generation table's floor, a graph
// of a few kernels like it, taken before any MoE row was priced.
for (const kind of [vllmMoe, trtllmMoe, trtllmNvfp4Moe, vllmContextAttention, vllmGenerationAttention])
  replayFloors.set(kind, replayFloors.get(generationAttention).replace(
    'taken for every generation attention table of the collector',
    "taken for every generation attention table of the collector and for its vLLM attention and MoE tables, whose one replay a call the same loop issues"))
// The latent attention's decode call is one replay from the same loop, of two or three kernels
// as a decode step's: the generation table's floor, taken before any of its rows was priced.
replayFloors.set(latentGenerationAttention, replayFloors.get(generationAttention).replace(
  'taken for every generation attention table of the collector',
  "taken for every generation attention table of the collector and for its latent attention's, whose one replay a call the same loop issues"))

for (const kind of [gemm, fp8Gemm, nvfp4Gemm, vllmGemm, vllmFp8Gemm, vllmBlockFp8Gemm, sglangGemm, sglangFp8Gemm,
  sglangBlockFp8Gemm, mlaBmm, mlaBmmFp8, scaleMatrix, dynamicQuantize, contextAttention, generationAttention,
  vllmContextAttention, vllmGenerationAttention, latentGenerationAttention, collective, trtllmAllreduce, vllmAllreduce,
  sglangAllreduce, vllmMoe, trtllmMoe, trtllmNvfp4Moe, xpuGemm, xpuContextAttention, xpuGenerationAttention,
  onecclCollective]) {
  for (const part of parts.filter(kind.parts ?? (() => true))) {
    const table = await readTable(kind, part)
    if (!table) continue
    const { version, file, rows } = table
    const engine = (kind.engine ?? (() => `TensorRT-LLM ${version}`))(part, rows)
    const kept = rows.filter(kind.keep).sort(byOrder(kind))
    if (kept.length === 0) continue
    const role = kind.role(part)
    // Data rows start after the header lines below: the # lines, then the column names.
    const notAsStated = kind.notAsStated ? kept.flatMap((r, i) => kind.notAsStated(r, part, rows) ? [i] : []) : []
    const directives = [
      ...directivesOf(kind, part),
      ...(replayFloors.has(kind) ? [replayFloors.get(kind)] : []),
      ...(kind.issueFloor ? [kind.issueFloor(rows)] : [])]
    const headerLines = 3 + (role ? 1 : 0) + directives.length + (notAsStated.length ? 1 : 0) + 1
    const exclusion = notAsStated.length
      ? [`# ridge: exclude = ${notAsStated.map(i => headerLines + 1 + i).join(',')} (${kind.notAsStatedWhy(part)})`] : []
    const lines = [
      `# Source: github.com/ai-dynamo/aiconfigurator @ ${commit}, ${file} (NVIDIA's aiconfigurator: latencies its collector measured on the part).`,
      `# Conditions: ${engine}, ${typeof kind.conditions === 'function' ? kind.conditions(part) : kind.conditions}; ${kind.timing}. The device column is the table's own, ${part.xpu ? "PyTorch's XPU" : "CUDA's"} name for the part.`,
      `# Selection (ridge, fixed before any point was priced): ${kind.rule}; ${kept.length} of the table's ${rows.length} rows. Values verbatim (latency in ms). Added by scripts/import-aiconfigurator.mjs.`,
      ...(role ? [`# ridge: role = ${role}`] : []),
      ...directives.map(d => `# ridge: ${d}`),
      ...exclusion,
      kind.header,
      ...kept.map(r => kind.cells(r, part).map(String).join('\t')),
    ]
    const out = path.join(outDir, `${kind.name}_aiconfigurator_${part.id}_${kind.suffix ?? kind.precision ?? 'bf16'}.tsv`)
    fs.writeFileSync(out, lines.join('\n') + '\n')
    console.log(`${out}: ${kept.length} points (${[...new Set(kept.map(r => r.device))].join(', ')})`)
  }
}
