#pragma once
// Transformer inference on the roofline: the operations of prefill and decode on one GPU of a
// tensor- and expert-parallel group, and what follows from them (time to first token, tokens
// per second, memory, the batch at which decode stops being memory-bound). Each operation's
// time is its roofline lower bound; a phase is the sum of its operations, with the collectives
// (tensor-parallel all-reduces, expert-parallel all-to-alls) added, nothing overlapped.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ridge/collective.h"
#include "ridge/device.h"
#include "ridge/model.h"
#include "ridge/op.h"
#include "ridge/precision.h"
#include "ridge/quantization.h"

namespace ridge {

// --per-step evaluates each decode step; more than this many (a few seconds) is bad input.
inline constexpr int kMaxPerStepDecodeSteps = 1'000'000;

// One group of weights: its bytes per parameter (scales included) and the precision of the
// products that read it, where its format sets one (else the workload's compute precision).
struct WeightGroup {
  double bytes = 2;
  std::optional<Precision> compute;
};

// Quantisation formats leave some weights in 16 bit: gpt-oss quantises its experts only, and
// GPTQ, AWQ and FP8 checkpoints keep the embedding and LM head in 16 bit.
struct WeightFormats {
  WeightGroup attention;  // q, k, v, o (MLA's projections)
  WeightGroup mlp;        // dense MLPs, shared experts, routers
  WeightGroup experts;    // routed experts
  WeightGroup head;       // embedding and LM head
  std::string name;       // as shown: "fp16", "fp8-block; head fp16"
  void set_bytes(double bytes);
  void set_compute(Precision compute);
};

struct Workload {
  int batch = 1;     // sequences, over all GPUs of the expert-parallel group
  int prompt = 512;  // prefill tokens per sequence
  int gen = 128;     // generated tokens per sequence
  WeightFormats weights;
  double activation_bytes = 2;          // per activation element
  double kv_bytes = 2;                  // per KV-cache element
  Precision compute = Precision::fp16;  // attention and element-wise work
  int tp = 1;                           // tensor-parallel degree
  // Expert parallelism: routed experts split over `ep` GPUs; attention data-parallel over
  // ep / tp groups of `tp`, each with batch / (ep / tp) sequences, as vLLM and SGLang run it.
  int ep = 1;
  double expert_imbalance = 1;  // the busiest GPU's tokens over the mean (1: balanced)
  bool flash_attention = true;
  bool per_step = false;  // decode evaluated step by step rather than at the average context
  // The engine replays its kernels from CUDA graphs (or is compiled): the expected time counts
  // the kernel floor without its launch part.
  bool cuda_graphs = false;
  // The engine is eager PyTorch (no torch.compile, no graphs): each op is dispatched from Python
  // and the step waits on the host (the calibration's eager_pytorch_op). Not with cuda_graphs.
  bool eager_pytorch = false;
  // The decode attention kernel runs each query head on its own and reads its K and V for each
  // (TensorRT-LLM's masked MHA before its XQA kernels became the default in v0.8): grouped-query
  // attention then saves cache memory but no reads. The bound keeps the ideal reads.
  bool kv_read_per_query_head = false;
  // The decode attention runs TensorRT-LLM's kernels (v0.8 and later) over a 16-bit cache on
  // Ampere or Hopper: grouped queries XQA, its blocks dealt out as its multi-block heuristic
  // deals them, else the masked MHA kernel, its blocks as its launch code sizes them; each wave
  // of blocks pays the calibration's attention.decode_block_overhead (AttentionShape::
  // trtllm_decode_blocks). Else the decode kernel's keys spread evenly over the SMs.
  bool trtllm_xqa = false;
  // The decode attention runs FlashAttention-2's split-KV kernel (vLLM's FlashAttention backend
  // below SM90): its keys split by FlashAttention-2's own heuristic, its blocks in waves over what
  // the SMs hold, each paying the calibration's attention.decode_block_overhead
  // (AttentionShape::flash2_split_kv). Not with trtllm_xqa.
  bool flash2_decode = false;
  // DeepSeek's latent attention decodes with FlashMLA's split-KV kernel (vLLM's and TensorRT-LLM's
  // on Hopper): its keys dealt out by FlashMLA's own tile scheduler, each split paying the
  // calibration's attention.decode_block_overhead, then its combine kernel
  // (AttentionShape::flash_mla).
  bool flash_mla = false;
  // The prompt's attention runs TensorRT-LLM's context FMHA kernels, at the calibration's rate
  // for them where it has one (AttentionShape::trtllm_fmha); else FlashAttention's.
  bool trtllm_fmha = false;
  // The MoE layers run TensorRT-LLM's CUTLASS MoE call (CutlassMoeFCRunner::runMoe): the expected
  // time adds its kernels around the experts' products, the routing, the pairs sorted by expert,
  // the rows copied into expert order and summed back (ModelOp::engine_only), and the products
  // run CUTLASS's grouped kernel (GemmShape::grouped). Else the products alone, as
  // engines that gather the rows in their products and fuse the rest run them.
  bool trtllm_moe = false;
  // The MoE layers' expert products run vLLM's Triton fused-MoE kernel at the default tiles it
  // falls back to where it ships no tuned configuration for the part and shape (vLLM until
  // February 2026): the expected time takes the calibration's time a K step of those tiles
  // (gemm.triton_moe_step) over the grid's tiles, each expert's rows padded to the tile. Not with
  // trtllm_moe.
  bool vllm_triton_moe = false;
  // Whose kernel runs the tensor-parallel all-reduces: NCCL's, as PyTorch's own collectives
  // (gpt-fast) run them; TensorRT-LLM's custom kernels as one of its generations dispatches
  // them (expected_trtllm_allreduce_time); or vLLM's custom all-reduce as vLLM or SGLang
  // dispatches it (expected_pull_allreduce_time). The bound is the same whichever.
  AllreduceKernel allreduce_kernel = AllreduceKernel::nccl;
  // The products run PyTorch's kernels (gpt-fast, torchao): weight-only formats read their
  // weights at the calibration's share of the bandwidth (calibration.h), else the format's bytes
  // at the full achievable bandwidth (Marlin-class kernels); compiled (cuda_graphs), a product of
  // one row is Inductor's reduction (expected.cc). The bound keeps the bytes alone.
  bool torch_weight_kernels = false;
};

// Quantises the groups of weights that `scope` names (attention, MLP, experts) to `format`, at
// the precision the device multiplies it; the embedding and LM head stay as they are, as
// GPTQ, AWQ, FP8 and MXFP4 checkpoints keep them.
void quantise_weights(WeightFormats& weights, const WeightQuantization& scope,
                      const ModelConfig& model, const Device& device);

// The precision whose peak serves activations of this many bits on this device (16 -> fp16, or
// bf16 where the device has no fp16; 8 -> fp8, or int8; 32 -> fp32). Bad input when none.
Precision compute_precision_for_bits(double activation_bits, const Device& device);

struct ModelOp {
  std::string name;  // "q_proj", "attention", "gate_proj", "allreduce", ...
  std::string kind;  // "embedding", "norm", "projection", "attention", "mlp", "residual",
                     // "lm_head" or "communication": what the time is spent on
  double count = 1;  // instances per step (layers)
  double flops = 0;  // per instance
  double bytes = 0;  // per instance: main-memory traffic, or bytes sent for communication
  double intensity = 0;
  std::string bound;  // "memory", "compute", or the link a communication waits on
  double time_s = 0;  // per instance, lower bound
  double total_time_s() const { return count * time_s; }
  // The shape, for the expected time's tiles and waves (matrix products and fused attention).
  std::optional<GemmShape> gemm_shape;
  std::optional<AttentionShape> attention_shape;
  // Per instance, where a calibration applies; kernels() launched per instance.
  std::optional<double> expected_time_s;
  double kernels() const { return kernels_launched(attention_shape); }
  Precision precision = Precision::fp16;  // the peak its FLOPs run at
  // A linear op whose weights are narrower than its products (a weight-only format, widened as
  // the kernel reads it): their bits each, scales included; 0 otherwise.
  double weight_bits = 0;
  // A communication op: the collective, its ranks, and `bytes` its size as nccl-tests counts it
  // (so `ridge collective` with these bytes and ranks prices it the same).
  std::optional<CollectiveOp> collective;
  int ranks = 0;
  AllreduceMessage message;  // an all-reduce's tokens and hidden size, for an engine's dispatch
  // Work an engine does beyond the ideal count (a MoE call's routing tables and row copies): no
  // bound of its own (time_s 0), and not in the step's FLOPs and bytes, which the bound keeps
  // ideal; its expected time where a calibration applies.
  bool engine_only = false;
};

struct PhaseResult {
  std::string name;       // "prefill" or "decode"
  double new_tokens = 0;  // per sequence in this step
  double context = 0;     // tokens in the KV cache once the step is done
  std::vector<ModelOp> ops;
  double flops = 0;  // totals over the step
  double bytes = 0;  // main-memory bytes (communication excluded)
  double time_s = 0;
  double communication_time_s = 0;
  std::map<std::string, double> time_by_kind;
  std::optional<double> expected_time_s;  // the sum of the ops' expected times
  // Where priced: how much of the step's expected time its kernels cost for being kernels
  // (ExpectedTime::kernel_cost_s), beyond their work.
  double expected_kernel_cost_s = 0;
  double kernels = 0;  // kernels launched in the step
  double intensity() const { return flops / bytes; }
};

// The expected figures of a whole run, beside the bounds, and the calibration they rest on.
struct ExpectedRun {
  double time_to_first_token_s = 0;
  double time_per_token_s = 0;
  double tokens_per_s = 0;  // the whole batch
  double end_to_end_s = 0;
  std::string calibration;  // its id and source
  std::string basis;        // how it applies to this device
  // Some op lies beyond measured data: the calibration is not this device's measurement, or an
  // op's shape is outside its measured sweep.
  bool extrapolated = true;
};

struct ModelAnalysis {
  ModelConfig model;
  Workload workload;
  std::string device_id;
  ParameterCount parameters;
  double weights_bytes = 0;  // whole model
  double weights_bytes_per_gpu = 0;
  double kv_cache_bytes = 0;  // the batch at its full context (prompt + gen), every layer type
  double kv_cache_bytes_per_gpu = 0;
  double device_memory_bytes = 0;
  bool fits = false;
  std::int64_t max_batch = 0;  // largest batch whose weights and KV cache fit (0: none)
  std::optional<std::int64_t>
      crossover_batch;  // smallest batch at which a decode step is compute-bound
  std::int64_t linear_crossover_batch = 0;  // where the weight matrices alone turn compute-bound
  PhaseResult prefill;
  PhaseResult decode;  // one step at the average context of the generated tokens
  double decode_time_per_token_s = 0;
  double tokens_per_s = 0;  // the whole batch
  double end_to_end_s = 0;
  std::optional<ExpectedRun> expected;  // none: no calibration applies (bound only)
};

// The workload field a sweep varies: "batch", "prompt", "gen" or "tp"; nullptr for others.
int* sweep_field(Workload& workload, std::string_view key);
const int* sweep_field(const Workload& workload, std::string_view key);

ModelAnalysis analyse_model(const ModelConfig& model, const Workload& workload,
                            const Device& device);

// The ops' expected times summed by kind, as time_by_kind sums their bounds; empty where the
// step is not priced. Worked out when asked: a sweep of many runs shows none of it.
std::map<std::string, double> expected_time_by_kind(const PhaseResult& phase);

// The operations of one step: `new_tokens` per sequence entering with `past` tokens cached.
PhaseResult model_step(const ModelConfig& model, const Workload& workload, const Device& device,
                       std::string name, double new_tokens, double past);

}  // namespace ridge
