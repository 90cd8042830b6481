// The CUDA backend on a real GPU: each piece checked for correctness first (results against the
// host), then for sanity (positive, finite, below the hardware's theoretical rate), never for a
// speed. Without a CUDA device every test skips, saying why; one checks that the backend says so.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpu_parts.h"
#include "ridge/cuda_measure.h"
#include "ridge/error.h"
#include "ridge/measurement.h"

namespace ridge::gpu {
namespace {

constexpr double kMiB = 1024.0 * 1024;
const TimingOptions kQuick{1, 5, 0.002, 0.2};

std::string no_device_reason() {
  try {
    cuda_device_count();
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

class Gpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string reason = no_device_reason(); !reason.empty()) GTEST_SKIP() << reason;
    gpu_ = select_gpu(0);
  }
  GpuInfo gpu_;
};

TEST(NoGpu, MeasuringSaysThereIsNoDevice) {
  const std::string reason = no_device_reason();
  if (reason.empty()) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_NE(reason.find("no CUDA device is present"), std::string::npos) << reason;
  EXPECT_THROW(measure_gpu({true, 0}), InputError);
}

TEST_F(Gpu, DescribesTheDevice) {
  EXPECT_FALSE(gpu_.name.empty());
  EXPECT_GT(gpu_.sm_count, 0);
  EXPECT_GT(gpu_.sm_clock_hz, 1e8);
  EXPECT_GT(gpu_.memory_bytes, 1u << 30);
  EXPECT_GT(gpu_.l2_bytes, 0u);
  EXPECT_GT(gpu_.shared_memory_per_sm_bytes, 0u);
  EXPECT_FALSE(gpu_.driver_version.empty());
  EXPECT_FALSE(gpu_.runtime_version.empty());
  EXPECT_THROW(select_gpu(1023), InputError);
}

TEST_F(Gpu, TensorGemmsMatchTheHost) {
  for (const Precision p : {Precision::tf32, Precision::fp16, Precision::bf16, Precision::fp8}) {
    if (!has_tensor_gemm(gpu_, p)) continue;
    const double error = tensor_gemm_relative_error(p, 192, 96, 256);
    EXPECT_LT(error, 2e-2) << to_string(p);
    // Narrow outputs round: a result exact to the last bit was not computed in that type.
    EXPECT_GT(error, 0) << to_string(p);
  }
  EXPECT_LT(tensor_gemm_relative_error(Precision::fp64, 192, 96, 256), 1e-12);
}

TEST_F(Gpu, GemvAndGemmMatchTheHost) {
  for (const int batch : {1, 8}) EXPECT_LT(gemv_sweep_relative_error(512, batch), 2e-2) << batch;
}

TEST_F(Gpu, StreamKernelsCheckTheirResults) {
  const auto points = measure_stream(gpu_, 64 * kMiB, kQuick);
  ASSERT_EQ(points.size(), 5u);  // write, copy, memcpy, triad, read
  const double theoretical = 2 * gpu_.memory_clock_hz * gpu_.memory_bus_bits / 8;
  for (const BandwidthPoint& b : points) {
    EXPECT_TRUE(b.validated) << b.kernel;
    EXPECT_GT(b.bytes_per_s.median, 0) << b.kernel;
    // Counted bytes cannot move faster than the bus, unless the arrays sat in the L2.
    if (64 * kMiB > 2.0 * static_cast<double>(gpu_.l2_bytes) && theoretical > 0) {
      EXPECT_LT(b.bytes_per_s.median, 1.1 * theoretical) << b.kernel;
    }
  }
}

TEST_F(Gpu, L2IsFasterThanDeviceMemory) {
  const double l2 = static_cast<double>(gpu_.l2_bytes);
  const auto sweep = measure_read_sweep(gpu_, l2 / 8, 8 * l2, kQuick);
  ASSERT_GE(sweep.size(), 6u);
  for (const BandwidthPoint& b : sweep) EXPECT_TRUE(b.validated) << b.working_set_bytes;
  EXPECT_EQ(sweep.front().level, "L2");
  EXPECT_EQ(sweep.back().level, gpu_.main_memory_name());
  EXPECT_GT(sweep.front().bytes_per_s.max, sweep.back().bytes_per_s.max);
  const BandwidthPoint shared = measure_shared_memory(gpu_, kQuick);
  EXPECT_GT(shared.bytes_per_s.max, sweep.front().bytes_per_s.max);
}

// The copy over arrays the L2 holds, repeated within a launch, checks what it wrote and moves
// more than STREAM's copy through device memory.
TEST_F(Gpu, ACopyInTheL2OutrunsOneThroughDeviceMemory) {
  const BandwidthPoint l2 = measure_l2_copy(gpu_, kQuick);
  EXPECT_TRUE(l2.validated);
  EXPECT_EQ(l2.kernel, "copy");
  EXPECT_EQ(l2.level, "L2");
  const auto stream = measure_stream(gpu_, 4.0 * static_cast<double>(gpu_.l2_bytes), kQuick);
  const auto copy = std::find_if(stream.begin(), stream.end(),
                                 [](const BandwidthPoint& b) { return b.kernel == "copy"; });
  ASSERT_NE(copy, stream.end());
  EXPECT_GT(l2.bytes_per_s.median, copy->bytes_per_s.median);
}

TEST_F(Gpu, FmaPeaksStayBelowTheHardwareRate) {
  for (const Precision p : {Precision::fp32, Precision::fp64}) {
    const PeakResult r = measure_fma_peak(gpu_, p, kQuick);
    EXPECT_GT(r.flops_per_s.median, 0) << to_string(p);
    // The reported clock is the highest; a measured rate above the rate at that clock would
    // mean the kernel does fewer FLOPs than it claims.
    if (r.theoretical_flops_per_s > 0) {
      EXPECT_LT(r.flops_per_s.max, 1.02 * r.theoretical_flops_per_s) << to_string(p);
    }
  }
}

TEST_F(Gpu, HostLinkRoundTrips) {
  const auto points = measure_host_link(16 * kMiB, kQuick);
  ASSERT_EQ(points.size(), 2u);
  for (const BandwidthPoint& b : points) {
    EXPECT_TRUE(b.validated) << b.kernel;
    EXPECT_GT(b.bytes_per_s.median, 1e8) << b.kernel;
  }
}

// The shape sweep's plan: every m rising within its set, fp8 in sixteens, and a quick plan that
// is a part of the full one.
TEST(GemmSweepPlan, CoversTheIssuesShapes) {
  const GemmSweepPlan full = default_gemm_sweep_plan(false), quick = default_gemm_sweep_plan(true);
  int most_m = 0;
  bool grouped = false;
  for (const GemmSweepPlan::Set& s : full.sets) {
    EXPECT_TRUE(std::is_sorted(s.m.begin(), s.m.end()));
    for (const int m : s.m) {
      if (s.precision == Precision::fp8) {
        EXPECT_EQ(m % 16, 0);
      }
      most_m = std::max(most_m, m);
    }
    grouped = grouped || s.groups > 1;
  }
  EXPECT_EQ(most_m, 16384);
  EXPECT_TRUE(grouped);
  EXPECT_LT(quick.sets.size(), full.sets.size());
}

// Each sweep point through cuBLASLt matches the host on its sampled elements.
TEST_F(Gpu, AShapeSweepChecksEveryPoint) {
  GemmSweepPlan plan;
  plan.sets.push_back({Precision::bf16, 256, 512, 1, {1, 16, 200}});
  plan.sets.push_back({Precision::bf16, 256, 512, 4, {8}});
  std::vector<std::string> warnings;
  const std::vector<GemmSweepPoint> sweep = measure_gemm_shape_sweep(gpu_, plan, kQuick, warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  ASSERT_EQ(sweep.size(), 4u);
  EXPECT_EQ(sweep.back().groups, 4);
  EXPECT_NO_THROW(check_gemm_sweep(sweep));
}

TEST_F(Gpu, QuickSuiteBecomesADevice) {
  const Measurement m = measure_gpu({true, 0});
  // Spread warnings are the GPU's clock at work; a failed check or a missing GEMM is a fault.
  for (const std::string& w : m.warnings) {
    EXPECT_EQ(w.find("failed"), std::string::npos) << w;
    EXPECT_FALSE(w.starts_with("no ")) << w;
  }
  const Measurement back = parse_measurement(measurement_to_json(m), "gpu.json");
  const Device d = device_from_measurement(back, "gpu", "gpu.json");
  EXPECT_EQ(d.compute_unit_count(), gpu_.sm_count);
  EXPECT_TRUE(d.has_peak(Precision::fp32));
  EXPECT_GT(d.main_bandwidth_bytes_per_s(), 0);
  ASSERT_FALSE(m.blas.empty());
  EXPECT_EQ(m.blas.front().batch, 1);
  EXPECT_FALSE(m.gemm_sweep.empty());
  EXPECT_EQ(d.measured_gemms.size(), m.blas.size() + m.gemm_sweep.size());
}

}  // namespace
}  // namespace ridge::gpu
