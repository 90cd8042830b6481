#pragma once
// Parallelism what-ifs for training a transformer: what data, tensor and pipeline parallelism
// each send per training step, what that costs on the cluster's links (the alpha-beta
// collective model), and whether it hides behind the step's compute.
//
// GPUs are laid out Megatron's way: tensor-parallel ranks innermost (one node), then pipeline
// stages, then data-parallel replicas.

#include <optional>
#include <string>
#include <vector>

#include "ridge/collective.h"
#include "ridge/model.h"
#include "ridge/precision.h"

namespace ridge {

struct TrainingLayout {
  int dp = 1, tp = 1, pp = 1;
  int global_batch = 256;                 // sequences per step
  int micro_batch = 1;                    // sequences per micro-batch
  int seq = 4096;                         // tokens per sequence
  Precision precision = Precision::bf16;  // weights, activations and gradients
  int gpus() const { return dp * tp * pp; }
};

struct TrainingTraffic {
  std::string kind;          // "data", "tensor", "pipeline"
  std::string what;          // what is sent
  double bytes_per_gpu = 0;  // per step
  int messages = 0;          // collectives or sends per step
  double time_s = 0;
  bool overlaps_compute = false;  // data parallelism's all-reduce runs during the backward pass
  std::string link;
};

struct TrainingAnalysis {
  TrainingLayout layout;
  ClusterShape cluster;
  double flops_per_step = 0;             // 6 x parameters x tokens
  double compute_time_s = 0;             // per GPU, at the peak
  double pipeline_bubble = 0;            // (pp - 1) / (micro-batches + pp - 1) of the step idles
  std::vector<TrainingTraffic> traffic;  // one per parallelism in use
  double exposed_communication_s = 0;    // what does not overlap compute
  double step_time_s = 0;                // compute / (1 - bubble) + exposed communication
  double communication_to_compute = 0;   // all communication over compute
};

// Bad input when the layout does not fit the model or the cluster (heads or layers not
// divisible, a batch not divisible into micro-batches per replica, more GPUs than the cluster).
TrainingAnalysis analyse_training(const ModelConfig& model, const TrainingLayout& layout,
                                  const ClusterShape& cluster, double peak_flops_per_s,
                                  const LinkModel& in_node,
                                  const std::optional<LinkModel>& across_nodes);

}  // namespace ridge
