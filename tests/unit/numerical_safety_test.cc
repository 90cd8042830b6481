// Numerical safety: sizes from 1 to 1e18 elements on devices from 1 GB/s to 1 EB/s (1e-3 to 1e6
// TB/s) and 1 GFLOP/s to 1 ZFLOP/s. Every result must be finite and positive, and consistent:
// the time is the larger of FLOPs / peak and bytes / bandwidth, never less than either, and the
// attainable rate is under both roofs. Overflow, underflow or a division by zero would show as
// an inf, a NaN, a zero or a broken inequality here.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ridge/analysis.h"
#include "ridge/catalog.h"
#include "ridge/collective.h"
#include "ridge/inference.h"
#include "ridge/model.h"
#include "ridge/op.h"

namespace ridge {
namespace {

constexpr double kRelative = 1e-12;

std::vector<double> decades(double from, double to) {
  std::vector<double> values;
  for (double v = from; v <= to * 1.0001; v *= 10) values.push_back(v);
  return values;
}

Device device_with(double peak, double bandwidth) {
  Device d;
  d.id = "sweep";
  d.name = "sweep";
  d.peak_flops_per_s[Precision::fp16] = {peak, Provenance::spec, "test", ""};
  MemoryLevel main{"HBM", MemoryKind::main, Scope::device, {}, {}, {}};
  main.capacity_bytes = Figure{1e12, Provenance::spec, "test", ""};
  main.bandwidth_bytes_per_s = Figure{bandwidth, Provenance::spec, "test", ""};
  d.memory.push_back(main);
  d.links.push_back({LinkKind::scale_up,
                     "link",
                     {bandwidth / 10, Provenance::spec, "test", ""},
                     std::nullopt,
                     std::nullopt});
  d.links.push_back({LinkKind::network,
                     "net",
                     {bandwidth / 100, Provenance::spec, "test", ""},
                     std::nullopt,
                     std::nullopt});
  return d;
}

bool finite_positive(double x) { return std::isfinite(x) && x > 0; }

void check(const OpAnalysis& a, const Ceiling& c) {
  SCOPED_TRACE(a.op.label + " at " + std::to_string(c.peak_flops_per_s) + " FLOP/s, " +
               std::to_string(c.bandwidth_bytes_per_s) + " B/s");
  for (const double x : {a.op.flops, a.op.bytes, a.intensity, a.ridge, a.attainable_flops_per_s,
                         a.compute_time_s, a.memory_time_s, a.time_lower_bound_s}) {
    ASSERT_TRUE(finite_positive(x)) << x;
  }
  EXPECT_GE(a.time_lower_bound_s, a.op.flops / c.peak_flops_per_s * (1 - kRelative));
  EXPECT_GE(a.time_lower_bound_s, a.op.bytes / c.bandwidth_bytes_per_s * (1 - kRelative));
  EXPECT_EQ(a.time_lower_bound_s, std::max(a.compute_time_s, a.memory_time_s));
  EXPECT_LE(a.attainable_flops_per_s, c.peak_flops_per_s * (1 + kRelative));
  EXPECT_LE(a.attainable_flops_per_s, a.intensity * c.bandwidth_bytes_per_s * (1 + kRelative));
  EXPECT_EQ(a.bound == Bound::compute, a.intensity >= a.ridge);
}

TEST(NumericalSafety, OperationsOverEighteenDecadesOfSizeAndNineOfBandwidth) {
  int checked = 0;
  for (const double peak : decades(1e9, 1e21)) {
    for (const double bandwidth : decades(1e9, 1e18)) {
      const Device d = device_with(peak, bandwidth);
      const Ceiling c{peak, bandwidth};
      for (const double n : decades(1, 1e18)) {
        for (const Op& op :
             {elementwise_add(n, 2), gemv(n, n, 2), gemm(n, n, n, 2, 1), gemm(1, n, 1, 2, n),
              attention({n, 128, 1, 1, true}, 2), attention({n, 64, 8, 2, false}, 2),
              decode_step(n, 1, 2), decode_step(n, n, 0.5)}) {
          check(analyse(op, d, Precision::fp16), c);
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 13 * 10 * 19 * 8);
}

TEST(NumericalSafety, AllReduceOverEighteenDecadesOfBytes) {
  for (const double bandwidth : decades(1e9, 1e18)) {
    const Device d = device_with(1e15, bandwidth);
    for (const double bytes : decades(1, 1e18)) {
      for (const int nodes : {1, 2, 1024}) {
        const AllReduceCost cost = hierarchical_allreduce(bytes, 8, nodes, d.links[0], d.links[1]);
        ASSERT_TRUE(finite_positive(cost.time_s)) << bytes << " B over " << nodes << " nodes";
        double legs = 0;
        for (const CollectiveLeg& leg : cost.legs) {
          ASSERT_TRUE(finite_positive(leg.time_s));
          legs += leg.time_s;
        }
        EXPECT_NEAR(cost.time_s, legs, cost.time_s * kRelative);
        EXPECT_GE(cost.inter_node_share, 0);
        EXPECT_LE(cost.inter_node_share, 1);
      }
    }
  }
}

// Every preset model at the extremes of the workload options: one sequence of one token to
// 2^31 - 1 sequences of 2^31 - 1 tokens each (prompt + gen overflowed an int once).
TEST(NumericalSafety, ModelsAtTheExtremesOfTheWorkload) {
  const Device& device = Catalog::builtin().get("h100-sxm");
  constexpr int kMax = 2'147'483'647;
  for (const std::string& name : model_preset_names()) {
    const ModelConfig model = load_model(name);
    for (const int batch : {1, 1000, kMax}) {
      for (const int prompt : {1, 10000, kMax}) {
        for (const int gen : {1, 10000, kMax}) {
          Workload w;
          w.batch = batch, w.prompt = prompt, w.gen = gen;
          SCOPED_TRACE(name + " batch " + std::to_string(batch) + " prompt " +
                       std::to_string(prompt) + " gen " + std::to_string(gen));
          const ModelAnalysis a = analyse_model(model, w, device);
          for (const double x :
               {a.weights_bytes, a.weights_bytes_per_gpu, a.kv_cache_bytes,
                a.kv_cache_bytes_per_gpu, a.decode_time_per_token_s, a.tokens_per_s, a.end_to_end_s,
                a.prefill.flops, a.prefill.bytes, a.prefill.time_s, a.decode.flops, a.decode.bytes,
                a.decode.time_s}) {
            ASSERT_TRUE(finite_positive(x)) << x;
          }
          EXPECT_GE(a.max_batch, 0);
          EXPECT_GE(a.end_to_end_s, a.prefill.time_s);
        }
      }
    }
  }
}

}  // namespace
}  // namespace ridge
