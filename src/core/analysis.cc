#include "ridge/analysis.h"

#include "ridge/bounds.h"

namespace ridge {

OpAnalysis analyse(const Op& op, const Device& device, Precision precision) {
  OpAnalysis a;
  a.op = op;
  a.device_id = device.id;
  a.device_name = device.name;
  a.precision = precision;
  a.ceiling = device.ceiling(precision);
  a.intensity = arithmetic_intensity(op.flops, op.bytes);
  a.ridge = ridge_point(a.ceiling);
  const RooflinePoint point = roofline(a.intensity, a.ceiling);
  a.attainable_flops_per_s = point.attainable_flops_per_s;
  a.bound = point.bound;
  a.compute_time_s = compute_time_s(op.flops, a.ceiling.peak_flops_per_s);
  a.memory_time_s = transfer_time_s(op.bytes, a.ceiling.bandwidth_bytes_per_s);
  a.time_lower_bound_s = time_lower_bound_s(op.flops, op.bytes, a.ceiling);
  return a;
}

}  // namespace ridge
