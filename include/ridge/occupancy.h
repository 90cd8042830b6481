#pragma once
// Occupancy in waves: equal-cost blocks dealt to compute units round-robin. The kernel lasts as
// long as its busiest unit, so a partial last wave costs a whole one.

#include <cstdint>

namespace ridge {

struct Occupancy {
  std::uint64_t blocks = 0;
  std::uint64_t units = 0;
  std::uint64_t waves = 0;
  std::uint64_t idle_slots = 0;  // unit-slots paid for but unused (all in the last wave)
  double utilisation = 0;        // blocks / (waves * units)
};

// `units` must be positive.
Occupancy occupancy(std::uint64_t blocks, std::uint64_t units);

}  // namespace ridge
