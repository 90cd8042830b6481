#pragma once
// An operation placed on a device's roofline.

#include <string>

#include "ridge/device.h"
#include "ridge/op.h"
#include "ridge/precision.h"
#include "ridge/roofline.h"

namespace ridge {

struct OpAnalysis {
  Op op;
  std::string device_id;
  std::string device_name;
  Precision precision = Precision::fp16;
  Ceiling ceiling;
  double intensity = 0;  // FLOP/B
  double ridge = 0;      // FLOP/B
  double attainable_flops_per_s = 0;
  Bound bound = Bound::memory;
  double compute_time_s = 0;
  double memory_time_s = 0;
  double time_lower_bound_s = 0;
};

OpAnalysis analyse(const Op& op, const Device& device, Precision precision);

}  // namespace ridge
