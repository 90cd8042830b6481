#include "ridge/collective.h"

#include <cassert>

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

}  // namespace ridge
