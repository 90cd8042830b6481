#pragma once
// What one GPU holds. Tensor parallelism splits heads, KV heads, MLP columns and vocabulary tp
// ways (KV heads are replicated when there are fewer of them than GPUs; MLA's latent cache is
// replicated whole). Expert parallelism gives each GPU ep-th of the routed experts, whole, and
// its attention group batch / (ep / tp) of the sequences.

#include <cmath>

#include "ridge/inference.h"
#include "ridge/model.h"

namespace ridge {

struct Shard {
  Shard(const ModelConfig& m, const Workload& w);

  double tp = 1;
  double ep = 1;
  double dp = 1;  // attention groups under expert parallelism: ep / tp
  // Sequences of the busiest attention group: the batch shared out, rounded up, since a step
  // lasts as long as its slowest group.
  double group_batch(int batch) const { return std::ceil(batch / dp); }
  double heads = 0;
  double kv_heads = 0;
  double q_dim = 0;
  double kv_dim = 0;
  double intermediate = 0;         // the dense MLP's columns
  double shared_intermediate = 0;  // the shared experts' columns
  double expert_intermediate = 0;  // one routed expert's columns: split tp ways without EP
  double local_experts = 0;        // routed experts whose weights this GPU holds
  double vocab = 0;

  // KV-cache elements one sequence keeps on one GPU at this context, over every layer: sliding
  // and chunked layers keep no more than their window.
  double kv_cache_elements(const ModelConfig& m, double context) const;
};

// The parameters one GPU holds, by group; with Shard(m, Workload{}) the whole model.
ParameterCount parameters_on(const ModelConfig& m, const Shard& s);

// Bytes of those parameters in the workload's formats.
double weight_bytes_on(const ModelConfig& m, const Shard& s, const WeightFormats& formats);

}  // namespace ridge
