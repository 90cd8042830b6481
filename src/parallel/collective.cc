#include "ridge/collective.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cmath>

#include "core/enum_names.h"
#include "ridge/bounds.h"
#include "ridge/error.h"

namespace ridge {

double ring_allreduce_bytes(double buffer_bytes, int ranks) {
  assert(ranks >= 1);
  if (ranks < 2) return 0.0;
  return 2.0 * (ranks - 1) / ranks * buffer_bytes;
}

namespace {

CollectiveLeg ring_leg(std::string name, const Link& link, int ranks, double buffer_bytes) {
  CollectiveLeg leg;
  leg.name = std::move(name);
  leg.link_name = link.name;
  leg.ranks = ranks;
  leg.bytes_per_rank = ring_allreduce_bytes(buffer_bytes, ranks);
  leg.bandwidth_bytes_per_s = link.bandwidth_bytes_per_s.value;
  leg.time_s = transfer_time_s(leg.bytes_per_rank, leg.bandwidth_bytes_per_s);
  return leg;
}

}  // namespace

AllReduceCost hierarchical_allreduce(double buffer_bytes, int gpus_per_node, int nodes,
                                     const Link& in_node, const Link& across_nodes) {
  assert(gpus_per_node >= 1 && nodes >= 1);
  AllReduceCost cost;
  cost.buffer_bytes = buffer_bytes;
  cost.gpus_per_node = gpus_per_node;
  cost.nodes = nodes;
  cost.legs.push_back(ring_leg("in node", in_node, gpus_per_node, buffer_bytes));
  if (nodes > 1) {
    cost.legs.push_back(
        ring_leg("across nodes", across_nodes, nodes, buffer_bytes / gpus_per_node));
  }
  for (const CollectiveLeg& leg : cost.legs) cost.time_s += leg.time_s;
  if (nodes > 1 && cost.time_s > 0) cost.inter_node_share = cost.legs.back().time_s / cost.time_s;
  return cost;
}

const Link& in_node_link(const Device& device) {
  if (const Link* fabric = device.find_link(LinkKind::scale_up)) return *fabric;
  if (const Link* pcie = device.find_link(LinkKind::host)) return *pcie;
  input_error("device '{}' has neither a scale-up nor a PCIe link in the catalog", device.id);
}

namespace {

constexpr EnumNames<CollectiveOp, 5> kOpNames{{{CollectiveOp::allreduce, "allreduce"},
                                               {CollectiveOp::allgather, "allgather"},
                                               {CollectiveOp::reducescatter, "reducescatter"},
                                               {CollectiveOp::alltoall, "alltoall"},
                                               {CollectiveOp::broadcast, "broadcast"}}};
constexpr EnumNames<CollectiveAlgorithm, 3> kAlgorithmNames{
    {{CollectiveAlgorithm::ring, "ring"},
     {CollectiveAlgorithm::tree, "tree"},
     {CollectiveAlgorithm::hierarchical, "hierarchical"}}};
constexpr EnumNames<AllreduceKernel, 6> kAllreduceKernelNames{
    {{AllreduceKernel::nccl, "nccl"},
     {AllreduceKernel::trtllm, "trtllm"},
     {AllreduceKernel::trtllm_1_0, "trtllm-1.0"},
     {AllreduceKernel::trtllm_plugin, "trtllm-plugin"},
     {AllreduceKernel::vllm, "vllm"},
     {AllreduceKernel::sglang, "sglang"}}};

CollectiveLeg alpha_beta_leg(std::string name, const LinkModel& link, int ranks, int steps,
                             double bytes_per_rank) {
  CollectiveLeg leg;
  leg.name = std::move(name);
  leg.link_name = link.name;
  leg.ranks = ranks;
  leg.steps = steps;
  leg.bytes_per_rank = bytes_per_rank;
  leg.bandwidth_bytes_per_s = link.bandwidth_bytes_per_s;
  leg.latency_s = steps * link.latency_s;
  leg.transfer_s = transfer_time_s(bytes_per_rank, link.bandwidth_bytes_per_s);
  leg.time_s = leg.latency_s + leg.transfer_s;
  return leg;
}

// A ring over p ranks: all-reduce is a reduce-scatter then an all-gather, 2(p-1) steps of S/p;
// all-gather, reduce-scatter and all-to-all (pairwise) p-1 steps of S/p; broadcast pipelines
// the whole buffer through p-1 hops.
CollectiveLeg ring(CollectiveOp op, std::string name, const LinkModel& link, int p, double bytes) {
  return alpha_beta_leg(std::move(name), link, p, ring_steps(op, p),
                        bus_bandwidth_factor(op, p) * bytes);
}

// A binary tree (NCCL's double binary tree, to first order): depth ceil(log2 p); all-reduce
// reduces up and broadcasts down, each rank moving the buffer once each way.
CollectiveLeg tree(CollectiveOp op, const LinkModel& link, int p, double bytes) {
  const int depth = static_cast<int>(std::ceil(std::log2(p)));
  const bool allreduce = op == CollectiveOp::allreduce;
  return alpha_beta_leg(fmt::format("tree over {} GPUs", p), link, p, allreduce ? 2 * depth : depth,
                        allreduce ? 2 * bytes : bytes);
}

std::vector<CollectiveLeg> legs_of(CollectiveOp op, CollectiveAlgorithm algorithm, double bytes,
                                   const ClusterShape& shape, const LinkModel& in_node,
                                   const LinkModel& widest_span) {
  const int g = shape.gpus_per_node, n = shape.nodes;
  switch (algorithm) {
    case CollectiveAlgorithm::ring:
      return {ring(op, fmt::format("ring over {} GPUs", shape.ranks()), widest_span, shape.ranks(),
                   bytes)};
    case CollectiveAlgorithm::tree:
      return {tree(op, widest_span, shape.ranks(), bytes)};
    case CollectiveAlgorithm::hierarchical: {
      // Reduce-scatter in each node, all-reduce each GPU's 1/g shard across nodes, all-gather.
      std::vector<CollectiveLeg> legs;
      if (g > 1)
        legs.push_back(
            ring(CollectiveOp::reducescatter, "in node: reduce-scatter", in_node, g, bytes));
      legs.push_back(
          ring(CollectiveOp::allreduce, "across nodes: all-reduce", widest_span, n, bytes / g));
      if (g > 1)
        legs.push_back(ring(CollectiveOp::allgather, "in node: all-gather", in_node, g, bytes));
      return legs;
    }
  }
  return {};
}

}  // namespace

std::string_view to_string(CollectiveOp op) { return name_of(kOpNames, op); }
std::optional<CollectiveOp> find_collective_op(std::string_view name) {
  return value_of(kOpNames, name);
}
std::string_view to_string(AllreduceKernel kernel) {
  return name_of(kAllreduceKernelNames, kernel);
}
std::optional<AllreduceKernel> find_allreduce_kernel(std::string_view name) {
  return value_of(kAllreduceKernelNames, name);
}
std::vector<std::string> allreduce_kernel_names() { return names_of(kAllreduceKernelNames); }
std::string_view to_string(CollectiveAlgorithm a) { return name_of(kAlgorithmNames, a); }
std::optional<CollectiveAlgorithm> find_collective_algorithm(std::string_view name) {
  return value_of(kAlgorithmNames, name);
}

double bus_bandwidth_factor(CollectiveOp op, int ranks) {
  const double share = static_cast<double>(ranks - 1) / ranks;
  switch (op) {
    case CollectiveOp::allreduce:
      return 2 * share;
    case CollectiveOp::broadcast:
      return 1;
    default:
      return share;
  }
}

int ring_steps(CollectiveOp op, int ranks) {
  return op == CollectiveOp::allreduce ? 2 * (ranks - 1) : ranks - 1;
}

LinkModel link_model(const Link& link) {
  return {link.name, link.bandwidth_bytes_per_s.value, link.latency_s ? link.latency_s->value : 0.0,
          link.latency_s.has_value()};
}

LinkModel without_latency(LinkModel link) {
  link.latency_s = 0;
  link.latency_known = false;
  return link;
}

bool applies(CollectiveAlgorithm algorithm, CollectiveOp op, const ClusterShape& shape) {
  switch (algorithm) {
    case CollectiveAlgorithm::ring:
      return true;
    case CollectiveAlgorithm::tree:
      return op == CollectiveOp::allreduce || op == CollectiveOp::broadcast;
    case CollectiveAlgorithm::hierarchical:
      return op == CollectiveOp::allreduce && shape.nodes > 1;
  }
  return false;
}

CollectiveEstimate estimate_collective(CollectiveOp op, CollectiveAlgorithm algorithm, double bytes,
                                       const ClusterShape& shape, const LinkModel& in_node,
                                       const std::optional<LinkModel>& across_nodes) {
  if (shape.gpus_per_node < 1 || shape.nodes < 1 || shape.ranks() < 2) {
    input_error("a collective needs at least 2 GPUs (got {} per node on {} node{})",
                shape.gpus_per_node, shape.nodes, shape.nodes == 1 ? "" : "s");
  }
  if (!applies(algorithm, op, shape)) {
    input_error(
        "--algorithm {}: not for {} on {} node{} (tree: allreduce and broadcast; "
        "hierarchical: allreduce across nodes)",
        to_string(algorithm), to_string(op), shape.nodes, shape.nodes == 1 ? "" : "s");
  }
  if (shape.nodes > 1 && !across_nodes) {
    input_error("{} node{} need a link between nodes", shape.nodes, shape.nodes == 1 ? "" : "s");
  }
  // A ring or tree spanning nodes runs at the pace of its slowest hop, the network.
  const LinkModel& widest_span = shape.nodes > 1 ? *across_nodes : in_node;
  CollectiveEstimate e;
  e.op = op;
  e.algorithm = algorithm;
  e.bytes = bytes;
  e.shape = shape;
  e.legs = legs_of(op, algorithm, bytes, shape, in_node, widest_span);
  const CollectiveLeg* slowest = &e.legs.front();
  for (const CollectiveLeg& leg : e.legs) {
    e.time_s += leg.time_s;
    if (leg.time_s > slowest->time_s) slowest = &leg;
  }
  e.bound_link = slowest->link_name;
  e.algbw_bytes_per_s = e.time_s > 0 ? bytes / e.time_s : 0;
  e.busbw_bytes_per_s = e.algbw_bytes_per_s * bus_bandwidth_factor(op, shape.ranks());
  e.latency_known = in_node.latency_known && (shape.nodes == 1 || across_nodes->latency_known);
  return e;
}

std::vector<CollectiveEstimate> every_algorithm(CollectiveOp op, double bytes,
                                                const ClusterShape& shape, const LinkModel& in_node,
                                                const std::optional<LinkModel>& across_nodes) {
  std::vector<CollectiveEstimate> estimates;
  for (const CollectiveAlgorithm a :
       {CollectiveAlgorithm::ring, CollectiveAlgorithm::tree, CollectiveAlgorithm::hierarchical}) {
    if (applies(a, op, shape))
      estimates.push_back(estimate_collective(op, a, bytes, shape, in_node, across_nodes));
  }
  return estimates;
}

CollectiveEstimate best_collective(CollectiveOp op, double bytes, const ClusterShape& shape,
                                   const LinkModel& in_node,
                                   const std::optional<LinkModel>& across_nodes) {
  std::vector<CollectiveEstimate> all = every_algorithm(op, bytes, shape, in_node, across_nodes);
  // Ring applies to everything, so there is always one; the first of equal times wins.
  return *std::min_element(all.begin(), all.end(),
                           [](const auto& a, const auto& b) { return a.time_s < b.time_s; });
}

CollectiveEstimate collective_bound(CollectiveOp op, double bytes, int ranks,
                                    const Device& device) {
  return best_collective(op, bytes, ClusterShape{ranks, 1},
                         without_latency(link_model(in_node_link(device))), std::nullopt);
}

}  // namespace ridge
