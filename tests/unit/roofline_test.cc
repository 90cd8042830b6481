#include "ridge/roofline.h"

#include <gtest/gtest.h>

#include "ridge/analysis.h"
#include "ridge/bounds.h"
#include "ridge/catalog.h"
#include "ridge/error.h"

namespace ridge {
namespace {

const Ceiling kH100Fp16{990e12, 3.35e12};

TEST(Roofline, IntensityIsFlopsOverBytes) {
  EXPECT_DOUBLE_EQ(arithmetic_intensity(10, 4), 2.5);
  EXPECT_DOUBLE_EQ(arithmetic_intensity(2 * 7e9, 2 * 7e9), 1.0);
}

TEST(Roofline, RidgeIsPeakOverBandwidth) {
  EXPECT_NEAR(ridge_point(kH100Fp16), 295.5224, 1e-4);
  EXPECT_NEAR(ridge_point({125e12, 900e9}), 138.889, 1e-3);
}

TEST(Roofline, BelowTheRidgeBandwidthTimesIntensityBinds) {
  const RooflinePoint p = roofline(1.0, kH100Fp16);
  EXPECT_DOUBLE_EQ(p.attainable_flops_per_s, 3.35e12);
  EXPECT_EQ(p.bound, Bound::memory);
}

TEST(Roofline, AboveTheRidgePeakBinds) {
  const RooflinePoint p = roofline(1000.0, kH100Fp16);
  EXPECT_DOUBLE_EQ(p.attainable_flops_per_s, 990e12);
  EXPECT_EQ(p.bound, Bound::compute);
}

TEST(Roofline, AtTheRidgeItIsComputeBound) {
  const RooflinePoint p = roofline(ridge_point(kH100Fp16), kH100Fp16);
  EXPECT_EQ(p.bound, Bound::compute);
  EXPECT_DOUBLE_EQ(p.attainable_flops_per_s, 990e12);
}

TEST(Bounds, TimeIsTheSlowerOfComputeAndTraffic) {
  // 2 TFLOP and 1 GB on 1 PFLOP/s and 1 TB/s: compute 2 ms, traffic 1 ms.
  EXPECT_DOUBLE_EQ(time_lower_bound_s(2e12, 1e9, {1e15, 1e12}), 2e-3);
  EXPECT_DOUBLE_EQ(time_lower_bound_s(1e12, 4e9, {1e15, 1e12}), 4e-3);
  EXPECT_DOUBLE_EQ(transfer_time_s(33.554432e9, 64e9), 0.524288);
}

TEST(Analysis, DecodeOfA7BModelOnH100) {
  const Device& h100 = Catalog::builtin().get("h100-sxm");
  const OpAnalysis a = analyse(Op{"decode", "", 14e9, 14e9, {}, {}, {}}, h100, Precision::fp16);
  EXPECT_DOUBLE_EQ(a.intensity, 1.0);
  EXPECT_DOUBLE_EQ(a.attainable_flops_per_s, 3.35e12);
  EXPECT_EQ(a.bound, Bound::memory);
  EXPECT_DOUBLE_EQ(a.time_lower_bound_s, 14e9 / 3.35e12);
  EXPECT_DOUBLE_EQ(a.compute_time_s, 14e9 / 990e12);
}

TEST(Analysis, ThrowsForAPrecisionTheDeviceLacks) {
  const Device& v100 = Catalog::builtin().get("v100-sxm2");
  EXPECT_THROW(analyse(Op{"x", "", 1, 1, {}, {}, {}}, v100, Precision::fp8), InputError);
}

}  // namespace
}  // namespace ridge
