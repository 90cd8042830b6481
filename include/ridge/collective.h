#pragma once
// Collective communication. The reference's model costs a ring all-reduce from link bandwidths
// alone (hierarchical_allreduce); the alpha-beta model (estimate_collective) adds a per-step
// latency for each link class, covers all-reduce, all-gather, reduce-scatter, all-to-all and
// broadcast with ring, tree and hierarchical algorithms, and reports algorithm and bus
// bandwidth with nccl-tests' definitions.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ridge/device.h"

namespace ridge {

// Bytes each rank sends (and receives) in a ring all-reduce: reduce-scatter then all-gather,
// 2 (n-1)/n of the buffer. Zero for a single rank.
double ring_allreduce_bytes(double buffer_bytes, int ranks);

struct CollectiveLeg {
  std::string name;
  std::string link_name;
  int ranks = 0;
  double bytes_per_rank = 0;
  double bandwidth_bytes_per_s = 0;
  double time_s = 0;  // latency_s + transfer_s
  int steps = 0;      // messages in sequence, each paying the link's latency (alpha-beta model)
  double latency_s = 0;
  double transfer_s = 0;
};

struct AllReduceCost {
  double buffer_bytes = 0;
  int gpus_per_node = 0;
  int nodes = 0;
  std::vector<CollectiveLeg> legs;  // in-node first, then across nodes when nodes > 1
  double time_s = 0;
  double inter_node_share = 0;  // fraction of the time spent on the network leg
};

// Hierarchical all-reduce: a ring in each node over the scale-up link (reduce-scatter, and the
// all-gather at the end), and between them a ring across nodes over the network carrying each
// GPU's 1/gpus_per_node shard.
AllReduceCost hierarchical_allreduce(double buffer_bytes, int gpus_per_node, int nodes,
                                     const Link& in_node, const Link& across_nodes);

}  // namespace ridge

namespace ridge {

// The link GPUs of one node talk over: the scale-up fabric, or PCIe where the part has none.
const Link& in_node_link(const Device& device);

}  // namespace ridge

namespace ridge {

enum class CollectiveOp { allreduce, allgather, reducescatter, alltoall, broadcast };
std::string_view to_string(CollectiveOp op);
std::optional<CollectiveOp> find_collective_op(std::string_view name);

// Whose kernel runs a tensor-parallel all-reduce: NCCL's ring (PyTorch's own collectives,
// nccl-tests); TensorRT-LLM's custom kernels as one of its generations dispatches them (its
// lookup table, today's; 1.0's token threshold; the 0.x C++ runtime's plugin, by size:
// trtllm_allreduce.h); or vLLM's custom all-reduce by vLLM's dispatch or by SGLang's (its
// descendant, which keeps a message of exactly the kernel's buffer size).
enum class AllreduceKernel { nccl, trtllm, trtllm_1_0, trtllm_plugin, vllm, sglang };
std::string_view to_string(AllreduceKernel kernel);
std::optional<AllreduceKernel> find_allreduce_kernel(std::string_view name);
// "nccl", "trtllm", "trtllm-1.0", "trtllm-plugin", "vllm", "sglang"
std::vector<std::string> allreduce_kernel_names();

// An all-reduce's message as an engine's dispatch sees it: `rows` tokens of `row_elements`
// values each, `element_bytes` a value.
struct AllreduceMessage {
  double rows = 1;
  double row_elements = 0;
  double element_bytes = 2;
  double bytes() const { return rows * row_elements * element_bytes; }
};

enum class CollectiveAlgorithm { ring, tree, hierarchical };
std::string_view to_string(CollectiveAlgorithm algorithm);
std::optional<CollectiveAlgorithm> find_collective_algorithm(std::string_view name);

// nccl-tests' bus bandwidth: algorithm bandwidth (bytes / time) times this factor, so that a
// collective running at a link's full speed reads as that link's bandwidth whatever the ranks:
// all-reduce 2(n-1)/n; all-gather, reduce-scatter and all-to-all (n-1)/n; broadcast 1.
double bus_bandwidth_factor(CollectiveOp op, int ranks);

// Messages in sequence of a ring over `ranks`: all-reduce 2(n-1) (a reduce-scatter, then an
// all-gather); all-gather, reduce-scatter, all-to-all (pairwise) and broadcast n-1.
int ring_steps(CollectiveOp op, int ranks);

// A link class as the alpha-beta model sees it: time = steps x latency + bytes / bandwidth.
struct LinkModel {
  std::string name;
  double bandwidth_bytes_per_s = 0;
  double latency_s = 0;
  bool latency_known = false;  // false: the catalog has no latency, and the model uses 0
};
LinkModel link_model(const Link& link);
// The same link with no latency: bandwidth alone, as the reference's model and a lower bound
// (whose latency would be an estimate, not a floor) price it.
LinkModel without_latency(LinkModel link);

struct ClusterShape {
  int gpus_per_node = 8;
  int nodes = 1;
  int ranks() const { return gpus_per_node * nodes; }
};

struct CollectiveEstimate {
  CollectiveOp op = CollectiveOp::allreduce;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;
  double bytes = 0;  // nccl-tests' size: the buffer (all-gather: the whole output)
  ClusterShape shape;
  std::vector<CollectiveLeg> legs;
  double time_s = 0;
  double algbw_bytes_per_s = 0;
  double busbw_bytes_per_s = 0;
  std::string bound_link;  // the link of the leg that takes longest
  bool latency_known = true;
};

// Whether `algorithm` can run `op` on this shape: tree for all-reduce and broadcast,
// hierarchical for all-reduce across nodes, ring for everything.
bool applies(CollectiveAlgorithm algorithm, CollectiveOp op, const ClusterShape& shape);

// One collective with one algorithm. `across_nodes` is needed when shape.nodes > 1. Bad input
// when the algorithm does not apply.
CollectiveEstimate estimate_collective(CollectiveOp op, CollectiveAlgorithm algorithm, double bytes,
                                       const ClusterShape& shape, const LinkModel& in_node,
                                       const std::optional<LinkModel>& across_nodes);

// Every algorithm that applies (ring, tree, hierarchical, in that order).
std::vector<CollectiveEstimate> every_algorithm(CollectiveOp op, double bytes,
                                                const ClusterShape& shape, const LinkModel& in_node,
                                                const std::optional<LinkModel>& across_nodes);

// The fastest algorithm that applies, as NCCL's tuner would pick from the same model.
CollectiveEstimate best_collective(CollectiveOp op, double bytes, const ClusterShape& shape,
                                   const LinkModel& in_node,
                                   const std::optional<LinkModel>& across_nodes);

// The lower bound of a collective over `ranks` GPUs of one node: the bytes each rank sends at the
// node link's spec bandwidth alone (a catalog's link latency is an estimate, not a floor).
CollectiveEstimate collective_bound(CollectiveOp op, double bytes, int ranks, const Device& device);

}  // namespace ridge
