// The GPU suite behind `ridge measure --backend cuda`.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <utility>
#include <vector>

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

std::vector<int> powers_of_two(int most) {
  std::vector<int> m;
  for (int x = 1; x <= most; x *= 2) m.push_back(x);
  return m;
}

}  // namespace

GemmSweepPlan default_gemm_sweep_plan(bool quick) {
  GemmSweepPlan plan;
  const std::vector<int> m = quick ? std::vector<int>{1, 16, 256, 4096} : powers_of_two(16384);
  const std::vector<std::pair<int, int>> weights =
      quick ? std::vector<std::pair<int, int>>{{4096, 4096}}
            : std::vector<std::pair<int, int>>{{4096, 4096}, {14336, 4096}, {4096, 14336}};
  // cuBLASLt's fp8 kernels want every leading dimension 16-byte aligned, so fp8 rows come in
  // sixteens (PyTorch's _scaled_mm requires as much): its sweep starts at m = 16.
  std::vector<int> fp8_m;
  std::copy_if(m.begin(), m.end(), std::back_inserter(fp8_m), [](int x) { return x % 16 == 0; });
  for (const Precision p : {Precision::fp16, Precision::bf16, Precision::fp8}) {
    for (const auto& [n, k] : weights)
      plan.sets.push_back({p, n, k, 1, p == Precision::fp8 ? fp8_m : m});
  }
  if (!quick) plan.sets.push_back({Precision::bf16, 2048, 7168, 8, {1, 8, 64, 512, 4096}});
  return plan;
}

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
  report("copy in the L2", 0.5);
  m.bandwidth.push_back(measure_l2_copy(gpu, timing));
  report("stream", 0.55);
  for (BandwidthPoint& b : measure_stream(gpu, sizes.stream_array_bytes, timing))
    m.bandwidth.push_back(std::move(b));
  report("host link", 0.65);
  for (BandwidthPoint& b : measure_host_link(sizes.host_copy_bytes, timing))
    m.bandwidth.push_back(std::move(b));
  report("gemv/gemm sweep", 0.75);
  m.blas = measure_gemv_sweep(sizes.weights_n, {1, 2, 4, 8, 16, 32, 64, 128, 256, 512}, timing,
                              m.warnings);
  report("gemm shape sweep", 0.85);
  m.gemm_sweep =
      measure_gemm_shape_sweep(gpu, default_gemm_sweep_plan(options.quick), timing, m.warnings);
  report("done", 1.0);
  add_result_warnings(m);
  return m;
}

}  // namespace ridge::gpu
