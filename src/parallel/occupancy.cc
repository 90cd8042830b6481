#include "ridge/occupancy.h"

#include <cassert>

namespace ridge {

Occupancy occupancy(std::uint64_t blocks, std::uint64_t units) {
  assert(units > 0);
  Occupancy o;
  o.blocks = blocks;
  o.units = units;
  o.waves = (blocks + units - 1) / units;
  const std::uint64_t slots = o.waves * units;
  o.idle_slots = slots - blocks;
  o.utilisation = slots == 0 ? 0.0 : static_cast<double>(blocks) / static_cast<double>(slots);
  return o;
}

}  // namespace ridge
