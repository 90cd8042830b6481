#include "ridge/occupancy.h"

#include <gtest/gtest.h>

namespace ridge {
namespace {

struct Row {
  std::uint64_t blocks, waves, idle;
  double utilisation;
};

TEST(Occupancy, MatchesTheWaveModelOn132Units) {
  // Hand-computed: waves = ceil(blocks / 132), idle = waves * 132 - blocks.
  const Row rows[] = {{1, 1, 131, 1.0 / 132},  {8, 1, 124, 8.0 / 132},   {32, 1, 100, 32.0 / 132},
                      {64, 1, 68, 64.0 / 132}, {132, 1, 0, 1.0},         {133, 2, 131, 133.0 / 264},
                      {264, 2, 0, 1.0},        {512, 4, 16, 512.0 / 528}};
  for (const Row& r : rows) {
    const Occupancy o = occupancy(r.blocks, 132);
    EXPECT_EQ(o.waves, r.waves) << r.blocks;
    EXPECT_EQ(o.idle_slots, r.idle) << r.blocks;
    EXPECT_DOUBLE_EQ(o.utilisation, r.utilisation) << r.blocks;
  }
}

TEST(Occupancy, NoBlocksNoWaves) {
  const Occupancy o = occupancy(0, 132);
  EXPECT_EQ(o.waves, 0u);
  EXPECT_EQ(o.utilisation, 0.0);
}

}  // namespace
}  // namespace ridge
