#include "ridge/lab.h"

#include <algorithm>

#include "ridge/bounds.h"
#include "ridge/calibration.h"
#include "ridge/expected.h"
#include "ridge/measure.h"

namespace ridge {

namespace {

constexpr int kWeightsN = 2048;  // the reference lab's 2048 x 2048 fp32 weights
constexpr int kGemmBatch = 64;
constexpr int kCeilingBatch = 512;  // compute-bound on any CPU: the achievable sgemm rate
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

// This CPU as the lab measured it: its FMA peak, the read bandwidth at the weights' working set,
// the threads, and the batch-512 sgemm as its only GEMM, so that GEMV and the batch-64 GEMM lie
// outside what it measured and are predicted by the model, not interpolated.
Device lab_device(const LabResult& r) {
  Device cpu;
  cpu.id = "lab-host";
  cpu.name = r.machine.cpu;
  cpu.kind = DeviceKind::cpu;
  cpu.unit_name = "core";
  const std::string source = "measured by ridge lab";
  cpu.compute_units = Figure{static_cast<double>(r.threads), Provenance::measured, source, ""};
  cpu.peak_flops_per_s[Precision::fp32] = {r.measured_fp32_peak, Provenance::measured, source, ""};
  MemoryLevel memory;
  memory.name = r.bandwidth_level;
  memory.capacity_bytes = Figure{1e12, Provenance::estimate, source, "not used"};
  memory.bandwidth_bytes_per_s = Figure{r.measured_bandwidth, Provenance::measured, source, ""};
  cpu.memory.push_back(memory);
  cpu.measured_gemms.push_back(measured_gemm(r.ceiling_gemm));
  return cpu;
}

void add_expected(LabKernel& k, const Device& cpu, const Calibration& c, int n) {
  const auto e = expected_time(gemm(k.point.batch, n, n, 4), cpu, Precision::fp32, c);
  k.expected_s = e->time_s;
  k.expected_error = (k.measured_s - k.expected_s) / k.expected_s;
  k.expected_detail = e->detail;
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
  r.ceiling_gemm = measure_blas(kWeightsN, kCeilingBatch, bw.level, r.threads, timing);
  const Device cpu = lab_device(r);
  const Calibration calibration = *find_calibration(cpu);
  r.gemm_share_of_peak = calibration.compute_efficiency.at(Precision::fp32).value;
  add_expected(r.gemv, cpu, calibration, r.n);
  add_expected(r.gemm, cpu, calibration, r.n);
  r.ratio = r.gemm.point.flops_per_s.median / r.gemv.point.flops_per_s.median;
  r.passed = r.ratio > kRequiredRatio;
  return r;
}

}  // namespace ridge
