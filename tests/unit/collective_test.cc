#include "ridge/collective.h"

#include <gtest/gtest.h>

#include "ridge/catalog.h"
#include "ridge/error.h"

namespace ridge {
namespace {

Link link(double bandwidth) {
  return {LinkKind::scale_up, "test", {bandwidth, Provenance::spec, "", ""}, {}, {}};
}

TEST(Collective, RingAllReduceMovesTwiceTheBufferLessOneShare) {
  EXPECT_DOUBLE_EQ(ring_allreduce_bytes(14e9, 8), 24.5e9);
  EXPECT_DOUBLE_EQ(ring_allreduce_bytes(1.75e9, 2), 1.75e9);
  EXPECT_DOUBLE_EQ(ring_allreduce_bytes(100, 1), 0);
}

TEST(Collective, InNodeRingOverNvlinkMatchesTheReference) {
  const AllReduceCost cost = hierarchical_allreduce(14e9, 8, 1, link(900e9), link(50e9));
  ASSERT_EQ(cost.legs.size(), 1u);
  EXPECT_NEAR(cost.time_s, 24.5e9 / 900e9, 1e-15);  // 27.2 ms
  EXPECT_NEAR(cost.time_s * 1e3, 27.2, 0.05);
  EXPECT_EQ(cost.inter_node_share, 0);
}

TEST(Collective, HierarchicalAcrossNodesMatchesTheReference) {
  // in node 24.5 GB / 900 GB/s = 27.22 ms; across n nodes the 1.75 GB shard rings at 50 GB/s.
  const struct {
    int nodes;
    double network_bytes, total_ms, share_percent;
  } expected[] = {{2, 1.75e9, 62.2, 56}, {4, 2.625e9, 79.7, 66}, {16, 3.28125e9, 92.8, 71}};
  for (const auto& e : expected) {
    const AllReduceCost cost = hierarchical_allreduce(14e9, 8, e.nodes, link(900e9), link(50e9));
    ASSERT_EQ(cost.legs.size(), 2u);
    EXPECT_DOUBLE_EQ(cost.legs[1].bytes_per_rank, e.network_bytes);
    EXPECT_NEAR(cost.time_s * 1e3, e.total_ms, 0.05) << e.nodes;
    EXPECT_NEAR(cost.inter_node_share * 100, e.share_percent, 0.5) << e.nodes;
  }
}

TEST(Collective, InNodeLinkFallsBackToPcie) {
  EXPECT_EQ(in_node_link(Catalog::builtin().get("l40s")).kind, LinkKind::host);
  EXPECT_EQ(in_node_link(Catalog::builtin().get("h100-sxm")).kind, LinkKind::scale_up);
}

// The alpha-beta model, by hand: NVLink 4 at 900 GB/s and 2 us a step, InfiniBand NDR at 50 GB/s
// and 5 us (the H100 entry's figures).
const LinkModel kNvlink{"NVLink 4", 900e9, 2e-6, true};
const LinkModel kInfiniband{"IB NDR", 50e9, 5e-6, true};
const LinkModel kNvlinkNoLatency{"NVLink 4", 900e9, 0, false};
const LinkModel kInfinibandNoLatency{"IB NDR", 50e9, 0, false};

TEST(CollectiveModel, BusBandwidthFactorsAreNcclTests) {
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveOp::allreduce, 8), 1.75);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveOp::allgather, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveOp::reducescatter, 4), 0.75);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveOp::alltoall, 2), 0.5);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveOp::broadcast, 16), 1);
}

TEST(CollectiveModel, RingAllReduceInANode) {
  const CollectiveEstimate e = estimate_collective(
      CollectiveOp::allreduce, CollectiveAlgorithm::ring, 14e9, {8, 1}, kNvlink, std::nullopt);
  ASSERT_EQ(e.legs.size(), 1u);
  EXPECT_EQ(e.legs[0].steps, 14);                            // 2 (p - 1)
  EXPECT_NEAR(e.legs[0].latency_s, 28e-6, 1e-18);            // 14 x 2 us
  EXPECT_NEAR(e.legs[0].transfer_s, 24.5e9 / 900e9, 1e-15);  // 2 (p-1)/p x 14 GB
  const double by_hand = 28e-6 + 24.5e9 / 900e9;             // 27.250 ms
  EXPECT_NEAR(e.time_s, by_hand, 1e-15);
  EXPECT_NEAR(e.algbw_bytes_per_s, 14e9 / by_hand, 1e-3);
  // Bus bandwidth reads as the link's speed, less what the latency costs.
  EXPECT_NEAR(e.busbw_bytes_per_s, 1.75 * 14e9 / by_hand, 1e-3);
  EXPECT_LT(e.busbw_bytes_per_s, 900e9);
  EXPECT_GT(e.busbw_bytes_per_s, 0.99 * 900e9);
  EXPECT_EQ(e.bound_link, "NVLink 4");
}

TEST(CollectiveModel, HierarchicalWithoutLatencyIsTheReferencesModel) {
  const struct {
    int nodes;
    double total_ms;
  } expected[] = {{2, 62.2}, {4, 79.7}, {16, 92.8}};
  for (const auto& x : expected) {
    const CollectiveEstimate e =
        estimate_collective(CollectiveOp::allreduce, CollectiveAlgorithm::hierarchical, 14e9,
                            {8, x.nodes}, kNvlinkNoLatency, kInfinibandNoLatency);
    const AllReduceCost reference =
        hierarchical_allreduce(14e9, 8, x.nodes, link(900e9), link(50e9));
    ASSERT_EQ(e.legs.size(), 3u);
    EXPECT_NEAR(e.time_s, reference.time_s, 1e-12) << x.nodes;
    EXPECT_NEAR(e.time_s * 1e3, x.total_ms, 0.05) << x.nodes;
    EXPECT_EQ(e.bound_link, "IB NDR");
    EXPECT_FALSE(e.latency_known);
  }
}

TEST(CollectiveModel, HierarchicalWithLatencyByHand) {
  const CollectiveEstimate e =
      estimate_collective(CollectiveOp::allreduce, CollectiveAlgorithm::hierarchical, 14e9, {8, 2},
                          kNvlink, kInfiniband);
  // Reduce-scatter and all-gather in node: 7 steps of 2 us each; across: 2 steps of 5 us.
  EXPECT_EQ(e.legs[0].steps, 7);
  EXPECT_EQ(e.legs[1].steps, 2);
  EXPECT_NEAR(e.time_s, 62.2222222e-3 + 38e-6, 1e-9);
}

TEST(CollectiveModel, TreeWinsSmallMessagesAndRingLargeOnes) {
  const auto best = [](double bytes) {
    return best_collective(CollectiveOp::allreduce, bytes, {8, 1}, kNvlink, std::nullopt);
  };
  // 1 KiB: ring pays 14 steps (28 us), the tree 2 x ceil(log2 8) = 6 (12 us).
  EXPECT_EQ(best(1024).algorithm, CollectiveAlgorithm::tree);
  EXPECT_NEAR(best(1024).time_s, 12e-6 + 2 * 1024 / 900e9, 1e-15);
  // 14 GB: the ring moves 2 (p-1)/p of the buffer, the tree twice the buffer.
  EXPECT_EQ(best(14e9).algorithm, CollectiveAlgorithm::ring);
  // Across nodes at 14 GB: the hierarchical one keeps most bytes on NVLink.
  const CollectiveEstimate across =
      best_collective(CollectiveOp::allreduce, 14e9, {8, 4}, kNvlink, kInfiniband);
  EXPECT_EQ(across.algorithm, CollectiveAlgorithm::hierarchical);
}

TEST(CollectiveModel, OtherOperationsByHand) {
  const auto ring8 = [](CollectiveOp op) {
    return estimate_collective(op, CollectiveAlgorithm::ring, 1e9, {8, 1}, kNvlink, std::nullopt);
  };
  EXPECT_NEAR(ring8(CollectiveOp::allgather).time_s, 7 * 2e-6 + 0.875e9 / 900e9, 1e-15);
  EXPECT_NEAR(ring8(CollectiveOp::reducescatter).time_s, 7 * 2e-6 + 0.875e9 / 900e9, 1e-15);
  EXPECT_NEAR(ring8(CollectiveOp::alltoall).time_s, 7 * 2e-6 + 0.875e9 / 900e9, 1e-15);
  EXPECT_NEAR(ring8(CollectiveOp::broadcast).time_s, 7 * 2e-6 + 1e9 / 900e9, 1e-15);
  // Across two nodes a flat ring runs at the network's pace.
  const CollectiveEstimate flat = estimate_collective(
      CollectiveOp::allgather, CollectiveAlgorithm::ring, 1e9, {8, 2}, kNvlink, kInfiniband);
  EXPECT_NEAR(flat.time_s, 15 * 5e-6 + 15.0 / 16 * 1e9 / 50e9, 1e-15);
  EXPECT_EQ(flat.bound_link, "IB NDR");
}

TEST(CollectiveModel, WhatCannotRunIsBadInput) {
  EXPECT_THROW(estimate_collective(CollectiveOp::allgather, CollectiveAlgorithm::tree, 1e9, {8, 1},
                                   kNvlink, std::nullopt),
               InputError);
  EXPECT_THROW(estimate_collective(CollectiveOp::allreduce, CollectiveAlgorithm::hierarchical, 1e9,
                                   {8, 1}, kNvlink, std::nullopt),
               InputError);
  EXPECT_THROW(estimate_collective(CollectiveOp::allreduce, CollectiveAlgorithm::ring, 1e9, {1, 1},
                                   kNvlink, std::nullopt),
               InputError);
  EXPECT_THROW(estimate_collective(CollectiveOp::allreduce, CollectiveAlgorithm::ring, 1e9, {8, 2},
                                   kNvlink, std::nullopt),
               InputError);
}

}  // namespace
}  // namespace ridge
