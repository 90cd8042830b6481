#pragma once
// Times no implementation can beat, given ceilings. They are lower bounds, never predictions.

#include "ridge/roofline.h"

namespace ridge {

double transfer_time_s(double bytes, double bandwidth_bytes_per_s);

double compute_time_s(double flops, double peak_flops_per_s);

// max(flops / peak, bytes / bandwidth): the roofline's time for an operation.
double time_lower_bound_s(double flops, double bytes, const Ceiling& ceiling);

}  // namespace ridge
