#pragma once
// Which of its all-reduce kernels TensorRT-LLM runs for a message, as each generation of its code
// decides (its strategy AUTO): its one-shot kernel (each GPU writes its buffer to every peer and
// reduces what arrives), its two-shot kernel (each GPU reduces its 1/n of the rows from every
// peer's buffer, writes the sums back to every peer, then reads them), or NCCL's ring.

#include "ridge/collective.h"

namespace ridge::predict {

enum class EngineAllreduce { nccl, one_shot, two_shot };

// The kernel `engine` (one of the TensorRT-LLM kernels of AllreduceKernel) runs `message` over
// `ranks` GPUs of one node on a part of SM version `sm_version` (80 for Ampere, 90 for Hopper,
// 100 for Blackwell): NCCL's for any other engine.
EngineAllreduce trtllm_allreduce_strategy(AllreduceKernel engine, const AllreduceMessage& message,
                                          int ranks, int sm_version);

}  // namespace ridge::predict
