#include "ridge/bounds.h"

#include <algorithm>
#include <cassert>

namespace ridge {

double transfer_time_s(double bytes, double bandwidth_bytes_per_s) {
  assert(bandwidth_bytes_per_s > 0);
  return bytes / bandwidth_bytes_per_s;
}

double compute_time_s(double flops, double peak_flops_per_s) {
  assert(peak_flops_per_s > 0);
  return flops / peak_flops_per_s;
}

double time_lower_bound_s(double flops, double bytes, const Ceiling& ceiling) {
  return std::max(compute_time_s(flops, ceiling.peak_flops_per_s),
                  transfer_time_s(bytes, ceiling.bandwidth_bytes_per_s));
}

}  // namespace ridge
