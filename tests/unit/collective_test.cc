#include "ridge/collective.h"

#include <gtest/gtest.h>

#include "ridge/catalog.h"

namespace ridge {
namespace {

Link link(double bandwidth) {
  return {LinkKind::scale_up, "test", {bandwidth, Provenance::spec, "", ""}, {}};
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

}  // namespace
}  // namespace ridge
