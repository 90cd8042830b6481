// The GPU suite behind `ridge measure --backend cuda`.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "gpu_parts.h"
#include "gpu_timing.h"
#include "ridge/cuda_measure.h"
#include "ridge/units.h"

namespace ridge::gpu {

namespace {

constexpr double kMiB = 1024.0 * 1024;

struct Sizes {
  double stream_array_bytes;  // per array; STREAM's rule wants several times the L2
  double sweep_smallest, sweep_largest;
  int gemm;       // tensor GEMMs are gemm x gemm x gemm
  int weights_n;  // GEMV/GEMM weights are n x n bf16
  double host_copy_bytes;
};

Sizes sizes_for(const GpuInfo& gpu, bool quick) {
  const double l2 = static_cast<double>(gpu.l2_bytes);
  Sizes s{};
  s.stream_array_bytes = std::max(quick ? 4 * l2 : 8 * l2, (quick ? 256 : 1024) * kMiB);
  // Three arrays must fit, with room to spare, on small GPUs too.
  s.stream_array_bytes = std::min(s.stream_array_bytes, static_cast<double>(gpu.memory_bytes) / 8);
  s.sweep_smallest = quick ? 2 * kMiB : 1 * kMiB;
  s.sweep_largest = s.stream_array_bytes;
  s.gemm = 8192;
  s.weights_n = quick ? 8192 : 16384;  // 128 MiB or 512 MiB of weights: beyond any L2
  s.host_copy_bytes = (quick ? 64 : 256) * kMiB;
  return s;
}

}  // namespace

Measurement measure_gpu(const GpuMeasureOptions& options, const Progress& progress) {
  Measurement m = stamped_measurement(options.quick, describe_machine());
  m.gpu = select_gpu(options.gpu);
  const GpuInfo& gpu = *m.gpu;
  const Sizes sizes = sizes_for(gpu, options.quick);
  const TimingOptions timing = gpu_timing_for(options.quick);
  const auto report = [&](const std::string& step, double fraction) {
    if (progress) progress(step, fraction);
  };

  for (const Precision p : {Precision::fp64, Precision::fp32}) {
    report(fmt::format("{} FMA peak", to_string(p)), 0.0);
    m.peaks.push_back(measure_fma_peak(gpu, p, timing));
  }
  for (const Precision p :
       {Precision::fp64, Precision::tf32, Precision::fp16, Precision::bf16, Precision::fp8}) {
    if (!has_tensor_gemm(gpu, p)) continue;
    report(fmt::format("{} GEMM", to_string(p)), 0.1);
    // A precision cuBLASLt will not run here costs its row, not the whole measurement.
    try {
      m.peaks.push_back(measure_tensor_peak(p, sizes.gemm, timing));
    } catch (const std::runtime_error& e) {
      m.warnings.push_back(fmt::format("no {} GEMM: {}", to_string(p), e.what()));
    }
  }
  report("shared memory", 0.3);
  m.bandwidth.push_back(measure_shared_memory(gpu, timing));
  report("read sweep", 0.35);
  for (BandwidthPoint& b :
       measure_read_sweep(gpu, sizes.sweep_smallest, sizes.sweep_largest, timing))
    m.bandwidth.push_back(std::move(b));
  report("stream", 0.55);
  for (BandwidthPoint& b : measure_stream(gpu, sizes.stream_array_bytes, timing))
    m.bandwidth.push_back(std::move(b));
  report("host link", 0.65);
  for (BandwidthPoint& b : measure_host_link(sizes.host_copy_bytes, timing))
    m.bandwidth.push_back(std::move(b));
  report("gemv/gemm sweep", 0.75);
  m.blas = measure_gemv_sweep(sizes.weights_n, {1, 2, 4, 8, 16, 32, 64, 128, 256, 512}, timing,
                              m.warnings);
  report("done", 1.0);
  add_result_warnings(m);
  return m;
}

}  // namespace ridge::gpu
