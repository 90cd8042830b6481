#include "ridge/roofline.h"

#include <algorithm>
#include <cassert>

namespace ridge {

std::string_view to_string(Bound bound) { return bound == Bound::compute ? "compute" : "memory"; }

double arithmetic_intensity(double flops, double bytes) {
  assert(bytes > 0);
  return flops / bytes;
}

double decode_crossover_batch(double ridge_flops_per_byte, double bytes_per_weight) {
  return ridge_flops_per_byte * bytes_per_weight / 2;
}

double ridge_point(const Ceiling& ceiling) {
  assert(ceiling.bandwidth_bytes_per_s > 0);
  return ceiling.peak_flops_per_s / ceiling.bandwidth_bytes_per_s;
}

RooflinePoint roofline(double intensity_flops_per_byte, const Ceiling& ceiling) {
  const double memory_ceiling = ceiling.bandwidth_bytes_per_s * intensity_flops_per_byte;
  const Bound bound = memory_ceiling >= ceiling.peak_flops_per_s ? Bound::compute : Bound::memory;
  return {std::min(ceiling.peak_flops_per_s, memory_ceiling), bound};
}

}  // namespace ridge
