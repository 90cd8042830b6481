#pragma once
// What one GPU of a tensor-parallel group holds: heads, KV heads, MLP columns and vocabulary
// split tp ways. KV heads are replicated when there are fewer of them than GPUs.

#include "ridge/inference.h"
#include "ridge/model.h"

namespace ridge {

struct Shard {
  Shard(const ModelConfig& m, const Workload& w);

  double heads = 0;
  double kv_heads = 0;
  double q_dim = 0;
  double kv_dim = 0;
  double intermediate = 0;
  double vocab = 0;

  // Weights on one GPU, in parameters.
  double parameters(const ModelConfig& m) const;
  // KV-cache elements one sequence keeps on one GPU per token of context.
  double kv_elements_per_token(const ModelConfig& m) const;
};

}  // namespace ridge
