#include "ridge/lab.h"

#include <algorithm>

#include "ridge/bounds.h"
#include "ridge/measure.h"

namespace ridge {

namespace {

constexpr int kWeightsN = 2048;  // the reference lab's 2048 x 2048 fp32 weights
constexpr int kGemmBatch = 64;
constexpr double kRequiredRatio = 2;

Precision half_precision(const Device& d) {
  return d.has_peak(Precision::fp16)   ? Precision::fp16
         : d.has_peak(Precision::bf16) ? Precision::bf16
                                       : d.peak_flops_per_s.begin()->first;
}

LabKernel predict(const BlasPoint& point, const Ceiling& measured) {
  LabKernel k;
  k.point = point;
  const double n = point.n;
  const double flops = 2 * n * n * point.batch;
  k.bytes = 4 * (n * n + 2 * n * point.batch);
  k.predicted_s = time_lower_bound_s(flops, k.bytes, measured);
  k.measured_s = flops / point.flops_per_s.median;
  k.error = (k.measured_s - k.predicted_s) / k.predicted_s;
  return k;
}

}  // namespace

LabResult run_lab(const Device& device, int threads) {
  LabResult r;
  r.device_id = device.id;
  r.precision = half_precision(device);
  const Ceiling spec = device.ceiling(r.precision);
  r.ridge = ridge_point(spec);
  const double bytes_per_param = bytes_per_element(r.precision);
  r.crossover_batch = decode_crossover_batch(r.ridge, bytes_per_param);
  for (int batch : {1, 8, 64, 512}) {
    const double intensity = 2.0 * batch / bytes_per_param;
    r.batches.push_back({batch, intensity, roofline(intensity, spec).bound});
  }

  r.machine = describe_machine();
  r.threads = threads > 0 ? std::min(threads, r.machine.hardware_threads) : r.machine.cores;
  r.n = kWeightsN;
  const TimingOptions timing{1, 7, 0.02, 1.0};
  r.measured_fp32_peak = measure_fp32_peak(r.machine, r.threads, timing).flops_per_s.median;
  const double weights_bytes = 4.0 * kWeightsN * kWeightsN;
  const BandwidthPoint bw = measure_read_bandwidth(weights_bytes, r.machine, r.threads, timing);
  r.measured_bandwidth = bw.bytes_per_s.median;
  r.bandwidth_level = bw.level;
  const Ceiling measured{r.measured_fp32_peak, r.measured_bandwidth};
  r.gemv = predict(measure_blas(kWeightsN, 1, bw.level, r.threads, timing), measured);
  r.gemm = predict(measure_blas(kWeightsN, kGemmBatch, bw.level, r.threads, timing), measured);
  r.ratio = r.gemm.point.flops_per_s.median / r.gemv.point.flops_per_s.median;
  r.passed = r.ratio > kRequiredRatio;
  return r;
}

}  // namespace ridge
