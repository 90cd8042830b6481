#pragma once
// The roofline model (Williams, Waterman & Patterson, CACM 2009): an operation's attainable
// FLOP/s is the lower of the compute peak and bandwidth times arithmetic intensity.

#include <string_view>

namespace ridge {

// The two ceilings of one roofline: a compute peak and the bandwidth that feeds it.
struct Ceiling {
  double peak_flops_per_s = 0;
  double bandwidth_bytes_per_s = 0;
};

enum class Bound { memory, compute };

std::string_view to_string(Bound bound);

// FLOP per byte moved: a property of the operation, not of the chip.
double arithmetic_intensity(double flops, double bytes);

// FLOP per byte at which the two ceilings meet: a property of the chip.
double ridge_point(const Ceiling& ceiling);

// The batch at which one decode step turns compute-bound: each weight of `bytes_per_weight`
// bytes does 2 FLOPs per sequence, so the step's intensity is 2 x batch / bytes_per_weight, and
// it meets the ridge at ridge x bytes_per_weight / 2.
double decode_crossover_batch(double ridge_flops_per_byte, double bytes_per_weight);

struct RooflinePoint {
  double attainable_flops_per_s = 0;
  Bound bound = Bound::memory;
};

// Compute-bound when the bandwidth ceiling at this intensity reaches the peak (ties go to compute).
RooflinePoint roofline(double intensity_flops_per_byte, const Ceiling& ceiling);

}  // namespace ridge
