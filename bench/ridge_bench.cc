// How long the library takes to answer: the whole tour (computed and rendered), one op, a device
// file parse, and a 1,000-point model sweep. The side-by-side comparison of the CLI against the
// Python reference is bench/tour_vs_reference.sh.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "ridge/analysis.h"
#include "ridge/catalog.h"
#include "ridge/expected.h"
#include "ridge/inference.h"
#include "ridge/measurement.h"
#include "ridge/model.h"
#include "ridge/op.h"
#include "ridge/render.h"
#include "ridge/tour.h"
#include "ridge/validation.h"

namespace {

void BM_TourText(benchmark::State& state) {
  const ridge::Catalog& catalog = ridge::Catalog::builtin();
  const ridge::Device& h100 = catalog.get("h100-sxm");
  for (auto _ : state) {
    benchmark::DoNotOptimize(ridge::report::render_text(ridge::tour(catalog, h100)));
  }
}
BENCHMARK(BM_TourText)->Unit(benchmark::kMicrosecond);

void BM_TourJson(benchmark::State& state) {
  const ridge::Catalog& catalog = ridge::Catalog::builtin();
  const ridge::Device& h100 = catalog.get("h100-sxm");
  for (auto _ : state) {
    benchmark::DoNotOptimize(ridge::report::render_json(ridge::tour(catalog, h100)));
  }
}
BENCHMARK(BM_TourJson)->Unit(benchmark::kMicrosecond);

void BM_AnalyseGemm(benchmark::State& state) {
  const ridge::Device& h100 = ridge::Catalog::builtin().get("h100-sxm");
  const ridge::Op op = ridge::gemm(4096, 4096, 4096, 2);
  for (auto _ : state) benchmark::DoNotOptimize(ridge::analyse(op, h100, ridge::Precision::fp16));
}
BENCHMARK(BM_AnalyseGemm);

void BM_ParseDeviceToml(benchmark::State& state) {
  std::ifstream in(RIDGE_DATA_DIR "/devices/h100-sxm.toml");
  std::ostringstream text;
  text << in.rdbuf();
  for (auto _ : state)
    benchmark::DoNotOptimize(ridge::parse_device_toml(text.str(), "h100-sxm.toml"));
}
BENCHMARK(BM_ParseDeviceToml)->Unit(benchmark::kMicrosecond);

// The yardstick: 1,000 batch sizes of a 70B model, each a full analysis (prefill,
// decode, memory, the crossover search and the expected times), on eight H100s.
void sweep_70b(benchmark::State& state, const ridge::Device& h100) {
  const ridge::ModelConfig model = ridge::load_model("llama-2-70b");
  ridge::Workload w;
  w.tp = 8;
  for (auto _ : state) {
    for (int batch = 1; batch <= 1000; ++batch) {
      w.batch = batch;
      benchmark::DoNotOptimize(ridge::analyse_model(model, w, h100));
    }
  }
}
void BM_ModelSweep70B(benchmark::State& state) {
  sweep_70b(state, ridge::Catalog::builtin().get("h100-sxm"));
}
BENCHMARK(BM_ModelSweep70B)->Unit(benchmark::kMillisecond);

// The same sweep on the same figures under an id no calibration lists: the bounds alone, so the
// two side by side show what the expected time costs (issue 12: under 20%).
void BM_ModelSweep70BBoundOnly(benchmark::State& state) {
  ridge::Device bound_only = ridge::Catalog::builtin().get("h100-sxm");
  bound_only.id = "h100-sxm-bound-only";
  sweep_70b(state, bound_only);
}
BENCHMARK(BM_ModelSweep70BBoundOnly)->Unit(benchmark::kMillisecond);

void BM_ExpectedGemm(benchmark::State& state) {
  const ridge::Device& h100 = ridge::Catalog::builtin().get("h100-sxm");
  const ridge::Op op = ridge::gemm(4096, 4096, 4096, 2);
  for (auto _ : state) benchmark::DoNotOptimize(ridge::expect(op, h100, ridge::Precision::fp16));
}
BENCHMARK(BM_ExpectedGemm);

// The same on a measured device (the H200 measurement in docs/measurements): its calibration,
// found for each call, prices every point of its sweep once.
void BM_ExpectedGemmMeasured(benchmark::State& state) {
  const ridge::Device h200 = ridge::device_from_measurement(
      ridge::load_measurement_file(RIDGE_SOURCE_DIR "/docs/measurements/h200-2026-11-30/h200.json"),
      "h200-measured", "h200.json");
  const ridge::Op op = ridge::gemm(256, 16384, 16384, 2);
  for (auto _ : state) benchmark::DoNotOptimize(ridge::expect(op, h200, ridge::Precision::bf16));
}
BENCHMARK(BM_ExpectedGemmMeasured);

void BM_ValidateBundled(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(ridge::run_bundled_validation(ridge::Catalog::builtin()));
}
BENCHMARK(BM_ValidateBundled)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
