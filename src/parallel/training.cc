// Communication per training step for data, tensor and pipeline parallelism.
#include "ridge/training.h"

#include <fmt/format.h>

#include <algorithm>

#include "ridge/bounds.h"
#include "ridge/error.h"

namespace ridge {

namespace {

void check_layout(const ModelConfig& model, const TrainingLayout& l, const ClusterShape& cluster) {
  if (l.tp > cluster.gpus_per_node) {
    input_error("--tp {}: tensor parallelism stays in one node of {} GPUs", l.tp,
                cluster.gpus_per_node);
  }
  if (model.num_heads % l.tp != 0 || model.num_kv_heads % l.tp != 0) {
    input_error("--tp {} does not divide the {} attention heads ({} key-value heads)", l.tp,
                model.num_heads, model.num_kv_heads);
  }
  if (model.num_layers % l.pp != 0) {
    input_error("--pp {} does not divide the {} layers", l.pp, model.num_layers);
  }
  if (l.gpus() > cluster.ranks()) {
    input_error("dp x tp x pp = {} GPUs, more than the cluster's {}", l.gpus(), cluster.ranks());
  }
  if (l.global_batch % (l.dp * l.micro_batch) != 0) {
    input_error("--global-batch {} does not split into micro-batches of {} over {} replicas",
                l.global_batch, l.micro_batch, l.dp);
  }
}

// The GPUs of one data-parallel group: replicas sit tp x pp GPUs apart, so a node holds
// gpus_per_node / (tp x pp) of them (at least one).
ClusterShape data_parallel_group(const TrainingLayout& l, const ClusterShape& cluster) {
  const int per_node = std::max(1, std::min(l.dp, cluster.gpus_per_node / (l.tp * l.pp)));
  return {per_node, (l.dp + per_node - 1) / per_node};
}

}  // namespace

TrainingAnalysis analyse_training(const ModelConfig& model, const TrainingLayout& l,
                                  const ClusterShape& cluster, double peak_flops_per_s,
                                  const LinkModel& in_node,
                                  const std::optional<LinkModel>& across_nodes) {
  check_layout(model, l, cluster);
  TrainingAnalysis a;
  a.layout = l;
  a.cluster = cluster;
  const double params = count_parameters(model).total();
  const double element = bytes_per_element(l.precision);
  const double tokens = static_cast<double>(l.global_batch) * l.seq;
  a.flops_per_step = 6 * count_parameters(model).active * tokens;
  a.compute_time_s = compute_time_s(a.flops_per_step / l.gpus(), peak_flops_per_s);
  const int micro_batches = l.global_batch / (l.dp * l.micro_batch);
  a.pipeline_bubble = static_cast<double>(l.pp - 1) / (micro_batches + l.pp - 1);
  const double activation_bytes =
      static_cast<double>(l.micro_batch) * l.seq * model.hidden_size * element;

  if (l.dp > 1) {
    // Each replica's gradients (its 1 / (tp x pp) of the model), all-reduced once per step.
    const double bytes = params / (l.tp * l.pp) * element;
    const ClusterShape group = data_parallel_group(l, cluster);
    const CollectiveEstimate e = best_collective(CollectiveOp::allreduce, bytes, group, in_node,
                                                 group.nodes > 1 ? across_nodes : std::nullopt);
    a.traffic.push_back({"data", "gradients, all-reduced", ring_allreduce_bytes(bytes, l.dp), 1,
                         e.time_s, true, e.bound_link});
  }
  if (l.tp > 1) {
    // Megatron: two all-reduces of the activations per layer forward, two backward.
    const int collectives = 4 * (model.num_layers / l.pp) * micro_batches;
    const CollectiveEstimate e = best_collective(CollectiveOp::allreduce, activation_bytes,
                                                 {l.tp, 1}, in_node, std::nullopt);
    a.traffic.push_back({"tensor", "activations, all-reduced in each layer",
                         collectives * ring_allreduce_bytes(activation_bytes, l.tp), collectives,
                         collectives * e.time_s, false, e.bound_link});
  }
  if (l.pp > 1) {
    // Activations forward and their gradients backward across each stage boundary.
    const bool one_node = l.tp * l.pp <= cluster.gpus_per_node;
    const LinkModel& link = one_node || !across_nodes ? in_node : *across_nodes;
    const int sends = 2 * micro_batches;
    const double time =
        sends * (link.latency_s + transfer_time_s(activation_bytes, link.bandwidth_bytes_per_s));
    a.traffic.push_back({"pipeline", "activations and their gradients between stages",
                         sends * activation_bytes, sends, time, false, link.name});
  }
  double all = 0;
  for (const TrainingTraffic& t : a.traffic) {
    all += t.time_s;
    a.exposed_communication_s +=
        t.overlaps_compute ? std::max(0.0, t.time_s - a.compute_time_s) : t.time_s;
  }
  a.step_time_s = a.compute_time_s / (1 - a.pipeline_bubble) + a.exposed_communication_s;
  a.communication_to_compute = all / a.compute_time_s;
  return a;
}

}  // namespace ridge
