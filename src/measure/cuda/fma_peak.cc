// Plain FMA peaks (fp32, fp64): chains of dependent FMAs, many per thread, on every SM at once.
#include <fmt/format.h>

#include "device_memory.h"
#include "gpu_parts.h"
#include "gpu_timing.h"
#include "kernels.h"

namespace ridge::gpu {

namespace {

constexpr int kThreads = 256;

struct FmaLanes {
  int major, minor;
  int fp32, fp64;  // FMA lanes per SM
};

// The CUDA C++ Programming Guide's arithmetic-throughput table, results per clock per SM.
constexpr FmaLanes kLanes[] = {
    {7, 0, 64, 32}, {7, 5, 64, 2},   {8, 0, 64, 32},   {8, 6, 128, 2},  {8, 7, 128, 2},
    {8, 9, 128, 2}, {9, 0, 128, 64}, {10, 0, 128, 64}, {12, 0, 128, 2},
};

}  // namespace

double fma_flops_per_cycle_per_sm(const GpuInfo& gpu, Precision precision) {
  for (const FmaLanes& l : kLanes) {
    if (l.major == gpu.compute_capability_major && l.minor == gpu.compute_capability_minor) {
      return 2.0 * (precision == Precision::fp64 ? l.fp64 : l.fp32);
    }
  }
  return 0;
}

PeakResult measure_fma_peak(const GpuInfo& gpu, Precision precision, const TimingOptions& timing) {
  const int blocks = resident_blocks(kThreads);
  // Enough iterations that one launch lasts about half a millisecond on a large GPU.
  const int iterations = precision == Precision::fp64 ? 4096 : 8192;
  DeviceArray<double> sink(kThreads);
  double flops = 0;
  const Timing t = time_device_calls(
      [&] { flops = launch_fma(precision, blocks, kThreads, iterations, sink.get()); }, timing);
  PeakResult r;
  r.precision = precision;
  r.kernel = fmt::format("fma x16 chains, {} blocks x {}", blocks, kThreads);
  r.flops_per_call = flops;
  r.flops_per_s = rate_summary(flops, t.seconds_per_call);
  r.samples_s = t.seconds_per_call;
  r.theoretical_flops_per_s =
      gpu.sm_count * fma_flops_per_cycle_per_sm(gpu, precision) * gpu.sm_clock_hz;
  return r;
}

}  // namespace ridge::gpu
