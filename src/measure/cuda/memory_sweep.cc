// Bandwidth on the GPU: shared memory, the read sweep through L2 into device memory, a copy the L2
// holds, STREAM's four kernels in device memory, and pinned copies over the host link.
#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "device_memory.h"
#include "gpu_parts.h"
#include "gpu_timing.h"
#include "kernels.h"

namespace ridge::gpu {

namespace {

constexpr int kStreamThreads = 256;
// Each read-sweep launch moves about this much, repeating small working sets, so that launch
// overhead stays small against the transfer.
constexpr double kBytesPerLaunch = 256.0 * 1024 * 1024;
constexpr int kSharedTileBytes = 16 * 1024;

std::string level_of(double working_set, const GpuInfo& gpu) {
  const double l2 = static_cast<double>(gpu.l2_bytes);
  // Hopper's L2 is two partitions, and a line may live in the far one: within half of it the
  // data stays resident; from four times it, almost every read goes to device memory.
  if (working_set <= l2 / 2) return "L2";
  if (working_set >= 4 * l2) return gpu.main_memory_name();
  return "L2/" + gpu.main_memory_name();
}

BandwidthPoint point(const char* kernel, double working_set, std::string level,
                     double bytes_per_call, const Timing& t, bool validated) {
  BandwidthPoint p;
  p.kernel = kernel;
  p.working_set_bytes = working_set;
  p.level = std::move(level);
  p.bytes_per_s = rate_summary(bytes_per_call, t.seconds_per_call);
  p.samples_s = t.seconds_per_call;
  p.validated = validated;
  return p;
}

// STREAM's check of the read kernel: the sum of what it read.
bool read_sum_is(double* sum, double expected, const std::function<void()>& launch) {
  RIDGE_CUDA_CHECK(cudaMemset(sum, 0, sizeof *sum));
  launch();
  double host = 0;
  RIDGE_CUDA_CHECK(cudaMemcpy(&host, sum, sizeof host, cudaMemcpyDeviceToHost));
  return std::abs(host - expected) <= 1e-9 * expected;
}

}  // namespace

std::vector<BandwidthPoint> measure_read_sweep(const GpuInfo& gpu, double smallest, double largest,
                                               const TimingOptions& timing) {
  const auto n_max = static_cast<std::size_t>(largest / 8);
  DeviceArray<double> a(n_max), b(n_max), c(n_max), sum(1);
  const int blocks = resident_blocks(kStreamThreads);
  prepare_stream_arrays(a.get(), b.get(), c.get(), n_max, blocks);
  std::vector<BandwidthPoint> points;
  // Powers of two, so that a launch's passes wrap around the working set with a mask.
  for (double ws = std::exp2(std::floor(std::log2(smallest))); ws <= largest; ws *= 2) {
    const auto n = static_cast<std::size_t>(ws / 8);
    const double bytes = 8.0 * static_cast<double>(n);
    const int passes = std::max(1, static_cast<int>(std::lround(kBytesPerLaunch / bytes)));
    const auto launch = [&] {
      launch_stream(StreamKernel::read, a.get(), nullptr, nullptr, n, passes, blocks, sum.get());
    };
    const Timing t = time_device_calls(launch, timing);
    const bool ok = read_sum_is(sum.get(), kStreamA * static_cast<double>(n) * passes, launch);
    points.push_back(point("read", bytes, level_of(bytes, gpu), bytes * passes, t, ok));
  }
  return points;
}

BandwidthPoint measure_l2_copy(const GpuInfo& gpu, const TimingOptions& timing) {
  // Two arrays of a quarter of the L2 each: half of it, which stays resident (level_of). A power
  // of two, so that each launch's passes wrap around with a mask.
  const double array_bytes =
      std::exp2(std::floor(std::log2(static_cast<double>(gpu.l2_bytes) / 4)));
  const auto n = static_cast<std::size_t>(array_bytes / 8);
  DeviceArray<double> a(n), b(n), c(n);
  const int blocks = resident_blocks(kStreamThreads);
  prepare_stream_arrays(a.get(), b.get(), c.get(), n, blocks);
  const double bytes = stream_bytes_per_element(StreamKernel::copy) * static_cast<double>(n);
  const int passes = std::max(2, static_cast<int>(std::lround(kBytesPerLaunch / bytes)));
  const Timing t = time_device_calls(
      [&] {
        launch_stream(StreamKernel::copy, a.get(), nullptr, c.get(), n, passes, blocks, nullptr);
      },
      timing);
  const bool ok = count_mismatches(c.get(), n, kStreamA, blocks) == 0;
  return point("copy", bytes, level_of(bytes, gpu), bytes * passes, t, ok);
}

std::vector<BandwidthPoint> measure_stream(const GpuInfo& gpu, double array_bytes,
                                           const TimingOptions& timing) {
  const auto n = static_cast<std::size_t>(array_bytes / 16) * 2;
  DeviceArray<double> a(n), b(n), c(n), sum(1);
  const int blocks = resident_blocks(kStreamThreads);
  prepare_stream_arrays(a.get(), b.get(), c.get(), n, blocks);
  // In this order each kernel leaves a known value: write a = 1, copy c = a = 1,
  // triad a = b + 3c = 5, read sums a.
  const double after_triad = kStreamB + kStreamScalar * kStreamA;
  struct Step {
    StreamKernel kernel;
    const double* checked;
    double expected;
  };
  const Step steps[] = {{StreamKernel::write, a.get(), kStreamA},
                        {StreamKernel::copy, c.get(), kStreamA},
                        {StreamKernel::triad, a.get(), after_triad},
                        {StreamKernel::read, nullptr, after_triad}};
  const std::string level = gpu.main_memory_name();
  std::vector<BandwidthPoint> points;
  // The driver's own device-to-device copy, the one frameworks use (PyTorch's tensor.copy_):
  // STREAM's copy bytes, c = a, before triad changes a.
  const auto memcpy_point = [&] {
    const double bytes = 16.0 * static_cast<double>(n);
    const Timing t = time_device_calls(
        [&] {
          RIDGE_CUDA_CHECK(cudaMemcpyAsync(c.get(), a.get(), 8 * n, cudaMemcpyDeviceToDevice));
        },
        timing);
    const bool ok = count_mismatches(c.get(), n, kStreamA, blocks) == 0;
    return point("memcpy", bytes, level, bytes, t, ok);
  };
  for (const Step& s : steps) {
    if (s.kernel == StreamKernel::triad) points.push_back(memcpy_point());
    const auto launch = [&] {
      launch_stream(s.kernel, a.get(), b.get(), c.get(), n, 1, blocks, sum.get());
    };
    const Timing t = time_device_calls(launch, timing);
    const bool ok = s.checked ? count_mismatches(s.checked, n, s.expected, blocks) == 0
                              : read_sum_is(sum.get(), s.expected * static_cast<double>(n), launch);
    const double bytes = stream_bytes_per_element(s.kernel) * static_cast<double>(n);
    // STREAM's bytes are also the working set: each array the kernel touches, once.
    points.push_back(point(to_string(s.kernel), bytes, level, bytes, t, ok));
  }
  return points;
}

BandwidthPoint measure_shared_memory(const GpuInfo& gpu, const TimingOptions& timing) {
  const int per_sm = shared_blocks_per_sm(kSharedTileBytes);
  const int blocks = gpu.sm_count * per_sm;
  DeviceArray<float> sink(kSharedThreads);
  // About a millisecond per launch at tens of TB/s.
  const int iterations = 2048;
  double bytes = 0;
  const Timing t = time_device_calls(
      [&] { bytes = launch_shared_read(blocks, kSharedTileBytes, iterations, sink.get()); },
      timing);
  // Nothing to check: the kernel's sum never leaves the SM.
  return point("shared read", static_cast<double>(kSharedTileBytes) * per_sm, "shared", bytes, t,
               true);
}

std::vector<BandwidthPoint> measure_host_link(double bytes, const TimingOptions& timing) {
  const auto size = static_cast<std::size_t>(bytes);
  PinnedArray<unsigned char> sent(size), received(size);
  DeviceArray<unsigned char> device(size);
  for (std::size_t i = 0; i < size; ++i) sent.get()[i] = static_cast<unsigned char>(i * 131);
  std::memset(received.get(), 0, size);
  const Timing h2d = time_device_calls(
      [&] {
        RIDGE_CUDA_CHECK(cudaMemcpyAsync(device.get(), sent.get(), size, cudaMemcpyHostToDevice));
      },
      timing);
  const Timing d2h = time_device_calls(
      [&] {
        RIDGE_CUDA_CHECK(
            cudaMemcpyAsync(received.get(), device.get(), size, cudaMemcpyDeviceToHost));
      },
      timing);
  RIDGE_CUDA_CHECK(cudaDeviceSynchronize());
  const bool round_trip = std::memcmp(sent.get(), received.get(), size) == 0;
  return {point("h2d", bytes, "host link", bytes, h2d, round_trip),
          point("d2h", bytes, "host link", bytes, d2h, round_trip)};
}

}  // namespace ridge::gpu
