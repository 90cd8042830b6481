#include "predict/trtllm_allreduce.h"

#include <array>
#include <cmath>

namespace ridge::predict {

namespace {

// The buffer TensorRT-LLM's custom kernels worked in until the lookup table's releases
// (getMaxRequiredWorkspaceSize: 16 MB over 2 GPUs, 8 MB over more); a larger message went to NCCL.
bool past_early_buffer(double bytes, int ranks) { return bytes > (ranks <= 2 ? 16e6 : 8e6); }

// TensorRT-LLM's C++ runtime (its AllreducePlugin, v0.7 to the last 0.x releases) picks by the
// message's bytes (AllreducePlugin::selectImplementation, cpp/tensorrt_llm/plugins/ncclPlugin/
// allreducePlugin.cpp): within the kernels' buffer, one-shot over 2 GPUs, and over more one-shot
// below 1 MB (up to 4 GPUs) or 500 kB (more), two-shot above; NCCL's past the buffer.
EngineAllreduce plugin_strategy(double bytes, int ranks) {
  if (past_early_buffer(bytes, ranks)) return EngineAllreduce::nccl;
  if (ranks <= 2) return EngineAllreduce::one_shot;
  return bytes < (ranks <= 4 ? 1e6 : 500e3) ? EngineAllreduce::one_shot : EngineAllreduce::two_shot;
}

// TensorRT-LLM 1.0's PyTorch flow (thop/allreduceOp.cpp, AllreduceOp::selectImplementation from
// NVIDIA/TensorRT-LLM pull request 5432, "better heuristic for allreduce", until the lookup table
// below): NCCL's past the buffer; else its MIN_LATENCY kernels
// over 2 GPUs, and over more up to 128 tokens, NCCL's past them; MIN_LATENCY is the one-shot
// kernel up to kOneShotMaxToken = 128 tokens and the two-shot one past them
// (runFusionAllReduce; allReduceFusionKernels.h).
EngineAllreduce token_threshold_strategy(const AllreduceMessage& m, int ranks) {
  constexpr double kMinLatencyMaxTokens = 128, kOneShotMaxTokens = 128;
  if (past_early_buffer(m.bytes(), ranks)) return EngineAllreduce::nccl;
  if (ranks > 2 && m.rows > kMinLatencyMaxTokens) return EngineAllreduce::nccl;
  return m.rows <= kOneShotMaxTokens ? EngineAllreduce::one_shot : EngineAllreduce::two_shot;
}

// TensorRT-LLM's lookup table (cpp/tensorrt_llm/common/customAllReduceUtils.h @ b78a5461,
// AllReduceBestStrategyTableSM90 and SM100, fusion NONE): for 2, 4 and 8 GPUs, a row for each
// hidden size from 128 to 8192 (powers of two) and a column for each token count from 1 to
// 16384: 0 NCCL, 4 one-shot, 5 two-shot. NVIDIA measured them on an H100 and a B200 node.
using StrategyRow = std::array<int, 15>;
using StrategyTable = std::array<std::array<StrategyRow, 7>, 3>;

constexpr StrategyTable kSm90Table{{
    {{{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0},  // 2 GPUs
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0}}},
    {{{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0},  // 4 GPUs
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 0, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 5, 0, 0, 0, 0, 0, 0}}},
    {{{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0},  // 8 GPUs
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 5, 5, 5, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 0, 5, 5, 5, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 0, 5, 5, 0, 0, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 0, 5, 5, 0, 0, 0, 0, 0, 0}}},
}};

constexpr StrategyTable kSm100Table{{
    {{{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0},  // 2 GPUs
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0}}},
    {{{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0},  // 4 GPUs
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 0, 0, 0}}},
    {{{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0},  // 8 GPUs
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 0, 0},
      {4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 0, 0}}},
}};

// As selectStrategyLookUpTable indexes it: GPUs by log2(n) - 1, hidden sizes by log2(h) - 7,
// tokens by log2(t), each rounded down; out of the table, NCCL's. Every part below SM100 takes
// the SM90 table, every part from SM100 on the SM100 one. Over the buffer (64 MiB), NCCL's
// (selectImplementation, ifFallbackToNCCL, thop/allreduceOp.cpp @ 4bb1ef88).
EngineAllreduce lookup_table_strategy(const AllreduceMessage& m, int ranks, int sm_version) {
  constexpr double kWorkspaceBytes = 64.0 * 1024 * 1024;
  if (m.bytes() > kWorkspaceBytes || m.rows < 1 || m.row_elements < 128)
    return EngineAllreduce::nccl;
  const auto gpus = static_cast<size_t>(std::floor(std::log2(ranks) - 1));
  const auto hidden = static_cast<size_t>(std::floor(std::log2(m.row_elements) - 7));
  const auto tokens = static_cast<size_t>(std::floor(std::log2(m.rows)));
  const StrategyTable& table = sm_version >= 100 ? kSm100Table : kSm90Table;
  if (gpus >= table.size() || hidden >= table[gpus].size() || tokens >= table[gpus][hidden].size())
    return EngineAllreduce::nccl;
  switch (table[gpus][hidden][tokens]) {
    case 4:
      return EngineAllreduce::one_shot;
    case 5:
      return EngineAllreduce::two_shot;
    default:
      return EngineAllreduce::nccl;
  }
}

}  // namespace

EngineAllreduce trtllm_allreduce_strategy(AllreduceKernel engine, const AllreduceMessage& message,
                                          int ranks, int sm_version) {
  if (ranks < 2) return EngineAllreduce::nccl;
  switch (engine) {
    case AllreduceKernel::trtllm_plugin:
      return plugin_strategy(message.bytes(), ranks);
    case AllreduceKernel::trtllm_1_0:
      return token_threshold_strategy(message, ranks);
    case AllreduceKernel::trtllm:
      return lookup_table_strategy(message, ranks, sm_version);
    case AllreduceKernel::nccl:
    case AllreduceKernel::vllm:
    case AllreduceKernel::sglang:
      break;
  }
  return EngineAllreduce::nccl;
}

}  // namespace ridge::predict
