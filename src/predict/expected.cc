#include "ridge/expected.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "predict/gemm_tiles.h"
#include "ridge/bounds.h"
#include "ridge/collective.h"

namespace ridge {

namespace {

// FlashAttention kernels tile the queries by 128 rows per block (FlashAttention-2 and -3).
constexpr double kAttentionQueryTile = 128;

struct Achievable {
  double rate_flops_per_s = 0;
  double bandwidth_bytes_per_s = 0;
  double floor_s = 0;
};

Achievable achievable(const Device& device, Precision precision, const Calibration& c,
                      const ExpectOptions& options) {
  return {c.compute_efficiency.at(precision).value * device.peak(precision).value,
          c.bandwidth_efficiency.value * device.main_bandwidth_bytes_per_s(),
          options.cuda_graphs ? c.graph_kernel_floor_s.value : c.kernel_floor_s.value};
}

double cache_bytes(const Device& device) {
  double bytes = 0;
  for (const MemoryLevel& level : device.memory) {
    if (level.kind == MemoryKind::cache && level.scope == Scope::device && level.capacity_bytes)
      bytes = std::max(bytes, level.capacity_bytes->value);
  }
  return bytes;
}

int units_of(const Device& device) {
  return device.compute_units ? static_cast<int>(device.compute_units->value) : 1;
}

ExpectedTime finish(ExpectedTime e, double floor_s) {
  e.fixed_time_s = floor_s;
  e.time_s = floor_s + std::max(e.compute_time_s, e.memory_time_s);
  if (e.fixed_time_s >= std::max(e.compute_time_s, e.memory_time_s)) {
    e.limiter = "fixed";
  } else {
    e.limiter = e.compute_time_s >= e.memory_time_s ? "compute" : "memory";
  }
  return e;
}

ExpectedTime gemm_time(const Op& op, const Device& device, const Calibration& c,
                       const Achievable& a) {
  predict::GemmMachine machine;
  machine.units = units_of(device);
  machine.rate_flops_per_s = a.rate_flops_per_s;
  machine.bandwidth_bytes_per_s = a.bandwidth_bytes_per_s;
  machine.l2_bytes = cache_bytes(device);
  machine.l2_feed_bytes_per_s = c.l2_bandwidth_bytes_per_s ? c.l2_bandwidth_bytes_per_s->value : 0;
  const predict::GemmTiling t = predict::best_tiling(*op.gemm_shape, op.bytes, machine);
  ExpectedTime e;
  e.compute_time_s = t.compute_time_s;
  e.memory_time_s = t.memory_time_s;
  e.detail = t.describe();
  return finish(e, a.floor_s);
}

// Share of the spec peak a fused attention kernel reaches at this head dimension: the
// calibration's two points, interpolated between 64 and 128 and held outside them.
double attention_efficiency(double d_head, const Calibration& c) {
  const double low = c.attention_efficiency_d64.value;
  const double high = c.attention_efficiency_d128.value;
  const double x = std::clamp((d_head - 64) / 64, 0.0, 1.0);
  return low + x * (high - low);
}

ExpectedTime attention_time(const Op& op, const Device& device, Precision precision,
                            const Calibration& c, const Achievable& a) {
  const AttentionShape& s = *op.attention_shape;
  const double units = units_of(device);
  const double blocks = s.batch * s.heads * std::ceil(s.seq / kAttentionQueryTile);
  const double waves = std::ceil(blocks / units);
  const double fill = blocks / (waves * units);
  const double rate = attention_efficiency(s.d_head, c) * device.peak(precision).value;
  ExpectedTime e;
  e.compute_time_s = op.flops / (rate * fill);
  e.memory_time_s = op.bytes / a.bandwidth_bytes_per_s;
  e.detail = fmt::format(
      "flash attention at {:.0f}% of peak, {} blocks in {} wave{} ({:.0f}% full)",
      100 * rate / device.peak(precision).value, blocks, waves, waves == 1 ? "" : "s", 100 * fill);
  return finish(e, a.floor_s);
}

ExpectedTime streaming_time(const Op& op, const Achievable& a) {
  ExpectedTime e;
  e.compute_time_s = op.flops / a.rate_flops_per_s;
  e.memory_time_s = op.bytes / a.bandwidth_bytes_per_s;
  e.detail = "streaming kernel at the achievable bandwidth";
  return finish(e, a.floor_s);
}

}  // namespace

std::optional<ExpectedTime> expected_time(const Op& op, const Device& device, Precision precision,
                                          const Calibration& calibration,
                                          const ExpectOptions& options) {
  if (!calibration.compute_efficiency.contains(precision) || !device.has_peak(precision))
    return std::nullopt;
  const Achievable a = achievable(device, precision, calibration, options);
  ExpectedTime e;
  if (op.gemm_shape) {
    e = gemm_time(op, device, calibration, a);
  } else if (op.attention_shape && op.attention_shape->fused) {
    e = attention_time(op, device, precision, calibration, a);
  } else {
    e = streaming_time(op, a);
  }
  e.extrapolated = !calibration.measured;
  // Every share is at most 1, so this holds by construction; the bound is the promise.
  e.time_s = std::max(e.time_s, time_lower_bound_s(op.flops, op.bytes, device.ceiling(precision)));
  return e;
}

std::optional<Expectation> expect(const Op& op, const Device& device, Precision precision,
                                  const ExpectOptions& options) {
  std::optional<Calibration> calibration = find_calibration(device);
  if (!calibration) return std::nullopt;
  const auto time = expected_time(op, device, precision, *calibration, options);
  if (!time) return std::nullopt;
  return Expectation{*time, std::move(*calibration)};
}

double expected_transfer_time_s(double bytes, const Link& link, const Calibration& c) {
  return c.collective_latency_s.value +
         bytes / (c.link_efficiency.value * link.bandwidth_bytes_per_s.value);
}

}  // namespace ridge

namespace ridge {

namespace {

std::optional<double> expected_op_time(const ModelOp& op, const Device& device, const Workload& w,
                                       const Calibration& c) {
  if (op.kind == "communication")
    return expected_transfer_time_s(op.bytes, in_node_link(device), c);
  const Op as_op{op.kind, op.name, op.flops, op.bytes, op.gemm_shape, op.attention_shape};
  const auto e = expected_time(as_op, device, w.compute, c, {w.cuda_graphs});
  if (!e) return std::nullopt;
  return e->time_s;
}

bool expect_phase(PhaseResult& phase, const Device& device, const Workload& w,
                  const Calibration& c) {
  double total = 0;
  phase.kernels = 0;
  for (ModelOp& op : phase.ops) {
    op.expected_time_s = expected_op_time(op, device, w, c);
    if (!op.expected_time_s) return false;
    total += op.count * *op.expected_time_s;
    phase.kernels += op.count;
  }
  phase.expected_time_s = total;
  return true;
}

}  // namespace

void add_expected(ModelAnalysis& a, const Device& device, const Calibration& c) {
  const bool priced = expect_phase(a.prefill, device, a.workload, c) &&
                      expect_phase(a.decode, device, a.workload, c);
  if (!priced) return;
  ExpectedRun run;
  run.time_to_first_token_s = *a.prefill.expected_time_s;
  run.time_per_token_s = *a.decode.expected_time_s;
  run.tokens_per_s = a.workload.batch / run.time_per_token_s;
  run.end_to_end_s = run.time_to_first_token_s + (a.workload.gen - 1.0) * run.time_per_token_s;
  run.calibration = c.id;
  run.basis = c.basis;
  run.extrapolated = !c.measured;
  a.expected = run;
}

}  // namespace ridge
