#pragma once
// Collective communication costed from link bandwidths alone (no per-message latency).

#include <string>
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
  double time_s = 0;
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
