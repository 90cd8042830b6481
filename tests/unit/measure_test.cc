// Measurement: statistics by hand, the file format, and one small real run checked for sanity
// only (finite, positive, ordered), never against a time.
#include "ridge/measure.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "ridge/error.h"
#include "ridge/measurement.h"

namespace ridge {
namespace {

TEST(Stats, SummaryByHand) {
  const Summary s = summarize({4, 1, 3, 2});
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 4);
  EXPECT_EQ(s.median, 2.5);
  EXPECT_EQ(s.mean, 2.5);
  EXPECT_NEAR(s.cv, std::sqrt(5.0 / 3) / 2.5, 1e-12);  // sample standard deviation / mean
  EXPECT_EQ(summarize({7}).cv, 0);
}

TEST(Timing, RepeatsUntilASampleIsLongEnough) {
  long calls = 0;
  const Timing t = time_calls([&] { ++calls; }, {1, 4, 0.001, 0});
  EXPECT_EQ(t.seconds_per_call.size(), 4u);
  EXPECT_GT(calls, 4);
  for (double s : t.seconds_per_call) EXPECT_GT(s, 0);
  EXPECT_GT(timer_resolution_s(), 0);
  EXPECT_LT(timer_resolution_s(), 1e-3);
}

TEST(Timing, ALongPointTakesFewerSamples) {
  const Timing t = time_calls(
      [] {
        volatile double x = 0;
        for (int i = 0; i < 200000; ++i) x = x + 1;
      },
      {1, 50, 0.0001, 0.0001});
  EXPECT_EQ(t.seconds_per_call.size(), 3u);
}

Measurement sample() {
  Measurement m;
  m.created = "2026-11-30T12:00:00Z";
  m.host = "lab";
  m.machine.cpu = "Test CPU";
  m.machine.cores = 4;
  m.machine.hardware_threads = 8;
  m.machine.isa = Isa::avx2;
  m.machine.caches = {{"L1d", 32768, 1}, {"L2", 1048576, 1}, {"L3", 33554432, 4}};
  m.machine.memory_bytes = 17179869184ULL;
  m.threads = 4;
  m.clock_hz = 3e9;
  m.peaks.push_back({Precision::fp64,
                     "fma avx2 x12",
                     {9e10, 1e11, 1.1e11, 1e11, 0.02},
                     {1e-3, 1.1e-3},
                     1e8,
                     1.2e11});
  m.peaks.push_back(
      {Precision::fp32, "fma avx2 x12", {1.8e11, 2e11, 2.2e11, 2e11, 0.02}, {1e-3}, 2e8, 2.4e11});
  m.bandwidth.push_back(
      {"triad", 16384, "L1", {4e11, 5e11, 6e11, 5e11, 0.1}, 32.0 / 24, true, {1e-7}});
  m.bandwidth.push_back({"read", 1e9, "DRAM", {3e10, 4e10, 4.5e10, 4e10, 0.03}, 1, true, {1e-2}});
  m.bandwidth.push_back({"copy", 1e9, "DRAM", {2e10, 3e10, 3.1e10, 3e10, 0.01}, 1.5, true, {1e-2}});
  m.blas.push_back({"cache", 512, 1, Precision::fp32, {1e10, 2e10, 2.1e10, 2e10, 0.01}, {1e-5}});
  m.gemm_sweep.push_back({16,
                          2048,
                          512,
                          1,
                          Precision::fp32,
                          "openblas sgemm",
                          {5e10, 6e10, 6.5e10, 6e10, 0.02},
                          {1e-3}});
  m.warnings = {"a warning"};
  return m;
}

TEST(MeasurementFile, RoundTrips) {
  const Measurement m = sample();
  const Measurement back = parse_measurement(measurement_to_json(m), "m.json");
  EXPECT_EQ(back.host, "lab");
  EXPECT_EQ(back.machine.caches.size(), 3u);
  EXPECT_EQ(back.peaks[1].flops_per_s.median, 2e11);
  EXPECT_EQ(back.bandwidth[0].write_allocate_factor, 32.0 / 24);
  EXPECT_EQ(back.blas[0].n, 512);
  ASSERT_EQ(back.gemm_sweep.size(), 1u);
  EXPECT_EQ(back.gemm_sweep[0].k, 512);
  EXPECT_EQ(back.gemm_sweep[0].library, "openblas sgemm");
  EXPECT_EQ(back.warnings, m.warnings);
  EXPECT_EQ(measurement_to_json(back), measurement_to_json(m));
}

TEST(MeasurementFile, BecomesADeviceWithMeasuredFigures) {
  const Device d = device_from_measurement(sample(), "lab", "m.json");
  EXPECT_EQ(d.peak(Precision::fp32).value, 2e11);
  EXPECT_EQ(d.peak(Precision::fp32).provenance, Provenance::measured);
  EXPECT_NE(d.peak(Precision::fp32).source.find("m.json"), std::string::npos);
  EXPECT_EQ(d.main_bandwidth_bytes_per_s(), 4e10);  // the best DRAM kernel's median
  EXPECT_EQ(d.memory.front().bandwidth_bytes_per_s->value, 5e11);
  EXPECT_EQ(d.compute_unit_count(), 4);
  EXPECT_FALSE(d.has_peak(Precision::fp16));
}

TEST(MeasurementFile, RanksAggregateBySummingRates) {
  Measurement a = sample(), b = sample();
  b.host = "lab2";
  b.bandwidth.pop_back();  // a point only the first rank measured
  const Measurement total = aggregate_measurements({a, b});
  EXPECT_EQ(total.threads, 8);
  EXPECT_EQ(total.host, "2 ranks on lab, lab2");
  EXPECT_EQ(total.peaks[1].flops_per_s.median, 4e11);
  EXPECT_EQ(total.peaks[1].flops_per_s.min, 3.6e11);
  EXPECT_NEAR(total.peaks[1].flops_per_s.cv, std::sqrt(2) * 0.02 * 2e11 / 4e11, 1e-12);
  ASSERT_EQ(total.bandwidth.size(), 2u);
  EXPECT_EQ(total.bandwidth[1].bytes_per_s.median, 8e10);
  EXPECT_EQ(total.bandwidth[1].working_set_bytes, 2e9);
  EXPECT_EQ(total.blas[0].flops_per_s.median, 4e10);
  EXPECT_EQ(total.gemm_sweep[0].flops_per_s.median, 1.2e11);
  EXPECT_NE(std::find(total.warnings.begin(), total.warnings.end(),
                      "a point not every rank measured was left out"),
            total.warnings.end());
  EXPECT_EQ(measurement_to_json(aggregate_measurements({a})), measurement_to_json(a));
}

TEST(MeasurementFile, ForeignOrCorruptFilesAreBadInput) {
  const auto error_of = [](const std::string& text) {
    try {
      parse_measurement(text, "m.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error_of("{\"a\": 1}"), "m.json: not a ridge measurement (no \"schema\" field)");
  EXPECT_EQ(error_of("{\"schema\": \"other/1\"}"),
            "m.json: schema \"other/1\" is not ridge.measurement/1");
  EXPECT_EQ(error_of("{\"schema\": \"ridge.measurement/1\"").substr(0, 29),
            "m.json:1:33: not valid JSON (");
  EXPECT_EQ(error_of("{\"schema\": 1e999}"),
            "m.json: not valid JSON (number overflow parsing '1e999')");
  EXPECT_EQ(error_of("{\"schema\": 1, \"schema\": 2}"),
            "m.json: key \"schema\" appears twice in one object");
  EXPECT_EQ(error_of("{\"schema\": \"ridge.measurement/1\", \"created\": 3}").substr(0, 30),
            "m.json: malformed measurement ");
}

// The best rates of a quick run in the order the hardware puts them: the read kernel streams
// faster from L1 than from the largest working set, and GEMM beats GEMV on the same weights (the
// cache-resident pair and each shape of the sweep). Best samples are compared: other load on a
// shared machine only ever slows a sample down.
struct SpeedOrder {
  double l1_read = 0, largest_read = 0, gemv = 0, gemm = 0;
  std::map<std::pair<int, int>, double> sweep_gemv, sweep_gemm;

  explicit SpeedOrder(const Measurement& m) {
    std::vector<double> reads;
    for (const BandwidthPoint& b : m.bandwidth) {
      if (b.kernel == "read") reads.push_back(b.bytes_per_s.max);
    }
    if (reads.size() >= 2) {
      l1_read = reads.front();
      largest_read = reads.back();
    }
    for (const BlasPoint& b : m.blas) {
      if (b.weights == "cache" && b.batch == 1) gemv = b.flops_per_s.max;
      if (b.weights == "cache" && b.batch == 64) gemm = b.flops_per_s.max;
    }
    for (const GemmSweepPoint& g : m.gemm_sweep) {
      double& best = (g.m == 1 ? sweep_gemv : sweep_gemm)[{g.n, g.k}];
      best = std::max(best, g.flops_per_s.max);
    }
  }

  bool holds() const {
    bool sweep = true;
    for (const auto& [weights, rate] : sweep_gemv) {
      const auto it = sweep_gemm.find(weights);
      sweep = sweep && it != sweep_gemm.end() && it->second > rate;
    }
    return l1_read > largest_read && gemm > gemv && sweep;
  }
};

TEST(Measure, ASmallRunIsSane) {
  MeasureOptions options;
  options.quick = true;
  // The largest working set as the suite sizes it, four times the last-level cache (STREAM's
  // rule), so that it lies past every cache: on a part whose read kernel takes the same rate
  // from each cache level (a two-core EPYC: 39-44 GB/s from 16 KiB to 4 MiB), a 16 MiB set that
  // its 16 MiB L3 holds in part came out as fast as L1 in three runs of three.
  const Measurement m = measure_host(options);
  ASSERT_GE(m.peaks.size(), 2u);
  for (const PeakResult& p : m.peaks) {
    EXPECT_TRUE(std::isfinite(p.flops_per_s.median) && p.flops_per_s.median > 0);
    EXPECT_LE(p.flops_per_s.min, p.flops_per_s.median);
    EXPECT_LE(p.flops_per_s.median, p.flops_per_s.max);
  }
  ASSERT_FALSE(m.bandwidth.empty());
  for (const BandwidthPoint& b : m.bandwidth) {
    EXPECT_TRUE(std::isfinite(b.bytes_per_s.median) && b.bytes_per_s.median > 0) << b.kernel;
    EXPECT_TRUE(b.validated) << b.kernel << " " << b.working_set_bytes;
  }
  EXPECT_EQ(m.bandwidth.front().level, "L1");
  // The shape sweep: weights wider than deep and deeper than wide, each from one column up.
  ASSERT_FALSE(m.gemm_sweep.empty());
  for (const GemmSweepPoint& g : m.gemm_sweep)
    EXPECT_TRUE(std::isfinite(g.flops_per_s.median) && g.flops_per_s.median > 0) << g.m;
  const SpeedOrder first(m);
  EXPECT_EQ(first.sweep_gemv.size(), 2u);
  EXPECT_EQ(first.sweep_gemm.size(), 2u);
  EXPECT_GT(first.gemv, 0);
  EXPECT_NO_THROW(check_gemm_sweep(m.gemm_sweep));
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "sanitizers instrument the kernels: their speeds say nothing about the hardware";
#endif
  // A shared machine can starve a whole quick run (its samples are short); the hardware's order
  // shows in one of three.
  bool in_order = first.holds();
  for (int run = 1; run < 3 && !in_order; ++run)
    in_order = SpeedOrder(measure_host(options)).holds();
  EXPECT_TRUE(in_order) << "L1 read " << first.l1_read << " B/s, largest " << first.largest_read
                        << "; GEMV " << first.gemv << " FLOP/s, GEMM " << first.gemm;
}

TEST(Measure, ImpossibleOptionsAreBadInput) {
  MeasureOptions too_many;
  too_many.threads = 100000;
  EXPECT_THROW(measure_host(too_many), InputError);
  MeasureOptions too_big;
  too_big.max_working_set_bytes = 1e18;
  EXPECT_THROW(measure_host(too_big), InputError);
}

}  // namespace
}  // namespace ridge
