// A GPU measurement without a GPU: the file format, the device it becomes, the crossover batch
// and the comparison with the published spec, all from figures made up here.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "ridge/error.h"
#include "ridge/measure.h"
#include "ridge/measurement.h"
#include "ridge/render.h"
#include "ridge/views.h"

namespace ridge {
namespace {

Summary around(double median) { return {0.9 * median, median, 1.05 * median, median, 0.01}; }

BlasPoint sweep_point(int batch, double flops_per_s) {
  return {"hbm", 16384, batch, Precision::bf16, around(flops_per_s), {1e-4}};
}

Measurement gpu_sample() {
  Measurement m;
  m.created = "2026-11-30T12:00:00Z";
  m.host = "gpu-host";
  m.machine.cpu = "Host CPU";
  GpuInfo g;
  g.name = "NVIDIA H200";
  g.compute_capability_major = 9;
  g.sm_count = 132;
  g.sm_clock_hz = 1.98e9;
  g.memory_clock_hz = 3.2e9;
  g.memory_bus_bits = 6144;
  g.memory_bytes = 150754820096;
  g.l2_bytes = 62914560;
  g.shared_memory_per_sm_bytes = 233472;
  g.pci_bus_id = "0000:00:05.0";
  g.driver_version = "13.0";
  g.runtime_version = "13.0";
  m.gpu = g;
  m.peaks.push_back({Precision::fp32, "fma", around(60e12), {1e-3}, 6e10, 66.9e12, true});
  m.peaks.push_back({Precision::fp64, "fma", around(33e12), {1e-3}, 3e10, 33.5e12, true});
  m.peaks.push_back({Precision::fp64, "dgemm", around(60e12), {1e-2}, 1.1e12, 0, true});
  m.peaks.push_back({Precision::bf16, "cublasLt", around(780e12), {1.4e-3}, 1.1e12, 0, true});
  m.bandwidth.push_back({"shared read", 131072, "shared", around(30e12), 1, true, {1e-3}});
  m.bandwidth.push_back({"read", 8 << 20, "L2", around(10e12), 1, true, {1e-4}});
  m.bandwidth.push_back({"read", 64 << 20, "L2/HBM", around(6e12), 1, true, {1e-4}});
  m.bandwidth.push_back({"copy", 2e9, "HBM", around(4.3e12), 1, true, {1e-3}});
  m.bandwidth.push_back({"h2d", 268435456, "host link", around(50e9), 1, true, {5e-3}});
  m.bandwidth.push_back({"d2h", 268435456, "host link", around(52e9), 1, true, {5e-3}});
  // Flat time (0.125 ms) to batch 128, then compute-bound at 700 TFLOP/s: the knee is at 163.
  const double gemv = 2.0 * 16384 * 16384 / 1.25e-4;
  for (int batch = 1; batch <= 512; batch *= 2)
    m.blas.push_back(sweep_point(batch, std::min(gemv * batch, 700e12)));
  return m;
}

TEST(GpuMeasurement, RoundTripsThroughJson) {
  const Measurement m = gpu_sample();
  const std::string text = measurement_to_json(m);
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j["device_kind"], "gpu");
  EXPECT_EQ(j["gpu"]["compute_capability"], "9.0");
  EXPECT_EQ(j["peak_flops"]["fp64"], 60e12);
  EXPECT_EQ(j["blas"][0]["op"], "bf16 gemv");
  EXPECT_EQ(j["blas"][1]["op"], "bf16 gemm");
  const Measurement back = parse_measurement(text, "h200.json");
  ASSERT_TRUE(back.gpu.has_value());
  EXPECT_EQ(back.gpu->sm_count, 132);
  EXPECT_EQ(back.blas[3].precision, Precision::bf16);
  EXPECT_EQ(measurement_to_json(back), text);
}

TEST(GpuMeasurement, OlderFilesAreOfTheCpu) {
  nlohmann::json j = nlohmann::json::parse(measurement_to_json(gpu_sample()));
  j.erase("gpu");
  j["device_kind"] = "tpu";
  try {
    parse_measurement(j.dump(), "x.json");
    FAIL() << "an unknown device kind was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("device_kind \"tpu\""), std::string::npos) << e.what();
  }
  j.erase("device_kind");
  EXPECT_FALSE(parse_measurement(j.dump(), "x.json").gpu.has_value());
}

TEST(GpuMeasurement, BecomesAGpuDevice) {
  const Device d = device_from_measurement(gpu_sample(), "h200-measured", "h200.json");
  EXPECT_EQ(d.unit_name, "SM");
  EXPECT_EQ(d.compute_unit_count(), 132);
  ASSERT_EQ(d.memory.size(), 3u);
  EXPECT_EQ(d.memory[0].kind, MemoryKind::shared);
  EXPECT_EQ(d.memory[0].bandwidth_bytes_per_s->value, 30e12);
  EXPECT_EQ(d.memory[1].bandwidth_bytes_per_s->value, 10e12);  // within half the L2 only
  EXPECT_EQ(d.main_memory().name, "HBM");
  EXPECT_EQ(d.main_bandwidth_bytes_per_s(), 4.3e12);
  ASSERT_EQ(d.links.size(), 1u);
  EXPECT_EQ(d.links[0].kind, LinkKind::host);
  EXPECT_EQ(d.links[0].bandwidth_bytes_per_s.value, 52e9);  // the faster direction
  EXPECT_EQ(d.peak(Precision::bf16).provenance, Provenance::measured);
  EXPECT_EQ(d.peak(Precision::fp64).value, 60e12);  // the faster of FMA and DGEMM
  EXPECT_NE(d.peak(Precision::fp64).note.find("dgemm"), std::string::npos);
}

TEST(GpuMeasurement, CrossoverIsWhereTheFlatTimeBuysTheBestRate) {
  const Measurement m = gpu_sample();
  const double gemv = m.blas.front().flops_per_s.median;
  EXPECT_NEAR(measured_crossover_batch(m.blas), 700e12 / gemv, 1e-9);
  EXPECT_GT(measured_crossover_batch(m.blas), 128);
  EXPECT_LT(measured_crossover_batch(m.blas), 256);
  EXPECT_EQ(measured_crossover_batch({sweep_point(8, 1e12)}), 0);  // no GEMV point
  EXPECT_EQ(measured_crossover_batch({sweep_point(1, 1e12), sweep_point(8, 0.5e12)}), 0);
}

TEST(GpuMeasurement, ReportStandsBesideThePublishedSpec) {
  const report::Document doc = report::measurement_document(gpu_sample());
  const std::string text = report::render(doc, report::Format::text);
  EXPECT_NE(text.find("NVIDIA H200 (GPU 0, 132 SMs)"), std::string::npos) << text;
  EXPECT_NE(text.find("Against the published NVIDIA H200 SXM 141GB (h200-sxm)"), std::string::npos);
  EXPECT_NE(text.find("cuBLAS"), std::string::npos);
  const auto levels_section =
      std::find_if(doc.sections.begin(), doc.sections.end(),
                   [](const report::Section& s) { return s.key == "levels"; });
  ASSERT_NE(levels_section, doc.sections.end());
  const auto& levels = std::get<report::Table>(levels_section->blocks.front());
  std::vector<std::string> names;
  for (const auto& row : levels.rows) names.push_back(row.front().text);
  // A working set between two levels is in the sweep, but it is no ceiling.
  EXPECT_EQ(names, (std::vector<std::string>{"shared", "L2", "HBM", "host link"}));
  const nlohmann::json j = nlohmann::json::parse(report::render(doc, report::Format::json));
  EXPECT_EQ(j["device_kind"], "gpu");
}

TEST(GpuMeasurement, FindsTheSpecUnderTheRuntimesName) {
  Measurement h100 = gpu_sample();
  h100.gpu->name = "NVIDIA H100 80GB HBM3";  // what CUDA calls the H100 SXM5
  const std::string text = report::render(report::measurement_document(h100), report::Format::text);
  EXPECT_NE(text.find("Against the published NVIDIA H100 SXM5 80GB (h100-sxm)"), std::string::npos);
  Measurement unknown = gpu_sample();
  unknown.gpu->name = "NVIDIA Lab Prototype";
  const std::string alone =
      report::render(report::measurement_document(unknown), report::Format::text);
  EXPECT_EQ(alone.find("Against the published"), std::string::npos);
}

TEST(Stopwatch, TimesSamplesWithTheOneGiven) {
  int started = 0;
  const Stopwatch fixed{[&] { ++started; }, [] { return 0.5; }};
  const Timing t = time_calls([] {}, {2, 3, 0.1, 0}, fixed);
  EXPECT_EQ(started, 1 + 1 + 3);  // warm-up, calibration, samples
  ASSERT_EQ(t.seconds_per_call.size(), 3u);
  EXPECT_EQ(t.seconds_per_call[0], 0.5);
}

}  // namespace
}  // namespace ridge
