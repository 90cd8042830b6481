#include "ridge/inference.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "ridge/error.h"
#include "ridge/expected.h"
#include "ridge/roofline.h"
#include "workload/shard.h"

namespace ridge {

namespace {

// --ep: the routed experts split evenly, and whole attention groups of tp.
void check_expert_parallelism(const ModelConfig& m, const Workload& w) {
  if (w.ep < 1) input_error("--ep must be at least 1 (got {})", w.ep);
  if (!(w.expert_imbalance >= 1) || !std::isfinite(w.expert_imbalance))
    input_error("--expert-imbalance must be at least 1 (got {})", w.expert_imbalance);
  if (w.ep == 1) return;
  if (!m.is_moe()) input_error("--ep {}: {} has no routed experts to split", w.ep, m.name);
  if (m.num_experts % w.ep != 0) {
    input_error("--ep {} does not divide the {} routed experts of {}", w.ep, m.num_experts, m.name);
  }
  if (w.ep % w.tp != 0) {
    input_error("--ep {} is not a multiple of --tp {}: attention runs in groups of tp", w.ep, w.tp);
  }
}

void check_workload(const ModelConfig& m, const Workload& w) {
  if (w.batch < 1 || w.prompt < 1 || w.gen < 1) {
    input_error("batch, prompt and gen must be at least 1 (got {}, {}, {})", w.batch, w.prompt,
                w.gen);
  }
  if (w.tp < 1 || m.num_heads % w.tp != 0) {
    input_error("tensor-parallel degree {} does not divide num_attention_heads {} of {}", w.tp,
                m.num_heads, m.name);
  }
  if (m.num_kv_heads % w.tp != 0 && w.tp % m.num_kv_heads != 0) {
    input_error(
        "tensor-parallel degree {} neither divides nor is a multiple of num_key_value_heads {} of "
        "{}",
        w.tp, m.num_kv_heads, m.name);
  }
  check_expert_parallelism(m, w);
  const WeightFormats& f = w.weights;
  for (const double bytes : {f.attention.bytes, f.mlp.bytes, f.experts.bytes, f.head.bytes,
                             w.activation_bytes, w.kv_bytes}) {
    if (!(bytes > 0) || !std::isfinite(bytes))
      input_error("element sizes must be positive (got {})", bytes);
  }
}

// Smallest batch at which `compute_bound(batch)` holds, searched by doubling then bisection; it
// is monotone because a step's FLOPs grow with the batch faster than its bytes.
template <typename Predicate>
std::optional<std::int64_t> smallest_batch(Predicate compute_bound) {
  constexpr std::int64_t kLimit = std::int64_t{1} << 24;
  std::int64_t high = 1;
  while (!compute_bound(high)) {
    if (high >= kLimit) return std::nullopt;
    high *= 2;
  }
  std::int64_t low = high / 2;  // not compute-bound (or zero)
  while (high - low > 1) {
    const std::int64_t mid = low + (high - low) / 2;
    (compute_bound(mid) ? high : low) = mid;
  }
  return high;
}

// Decode steps after prefill: prefill yields the first token, each step one more.
int decode_steps(const Workload& w) { return std::max(w.gen - 1, 1); }

double average_past(const Workload& w) { return w.prompt + (decode_steps(w) - 1) / 2.0; }

}  // namespace

namespace {

// A count from a double, held at int64's maximum: a cast past it is undefined behaviour.
std::int64_t saturated_count(double x) {
  constexpr double kPastInt64 = 9223372036854775808.0;  // 2^63
  return x >= kPastInt64 ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(x);
}

template <typename W>  // Workload or const Workload
auto* field_of(W& w, std::string_view key) {
  if (key == "batch") return &w.batch;
  if (key == "prompt") return &w.prompt;
  if (key == "gen") return &w.gen;
  if (key == "tp") return &w.tp;
  if (key == "ep") return &w.ep;
  return static_cast<decltype(&w.batch)>(nullptr);
}

}  // namespace

int* sweep_field(Workload& w, std::string_view key) { return field_of(w, key); }
const int* sweep_field(const Workload& w, std::string_view key) { return field_of(w, key); }

Precision compute_precision_for_bits(double activation_bits, const Device& device) {
  const auto first_available =
      [&](std::initializer_list<Precision> choices) -> std::optional<Precision> {
    for (Precision p : choices) {
      if (device.has_peak(p)) return p;
    }
    return std::nullopt;
  };
  std::optional<Precision> p;
  if (activation_bits > 16) p = first_available({Precision::fp32});
  if (activation_bits > 8 && activation_bits <= 16)
    p = first_available({Precision::fp16, Precision::bf16});
  if (activation_bits <= 8) p = first_available({Precision::fp8, Precision::int8});
  if (!p) input_error("device '{}' has no peak for {}-bit activations", device.id, activation_bits);
  return *p;
}

std::map<std::string, double> expected_time_by_kind(const PhaseResult& phase) {
  std::map<std::string, double> by_kind;
  if (!phase.expected_time_s) return by_kind;
  for (const ModelOp& op : phase.ops) by_kind[op.kind] += op.count * op.expected_time_s.value_or(0);
  return by_kind;
}

ModelAnalysis analyse_model(const ModelConfig& model, const Workload& w, const Device& device) {
  check_workload(model, w);
  const Ceiling ceiling = device.ceiling(w.compute);
  const Shard shard(model, w);
  ModelAnalysis a;
  a.model = model;
  a.workload = w;
  a.device_id = device.id;
  a.parameters = count_parameters(model);
  a.weights_bytes = weight_bytes_on(model, Shard(model, Workload{}), w.weights);
  a.weights_bytes_per_gpu = weight_bytes_on(model, shard, w.weights);
  // In double: prompt and gen are each up to 2^31 - 1, and their int sum would overflow.
  const double context = static_cast<double>(w.prompt) + w.gen;
  const double kv_per_sequence_gpu = shard.kv_cache_elements(model, context) * w.kv_bytes;
  // Each GPU keeps the sequences of its attention group.
  a.kv_cache_bytes_per_gpu = shard.group_batch(w.batch) * kv_per_sequence_gpu;
  a.kv_cache_bytes =
      Shard(model, Workload{}).kv_cache_elements(model, context) * w.kv_bytes * w.batch;
  a.device_memory_bytes = device.main_memory().capacity_bytes->value;
  a.fits = a.weights_bytes_per_gpu + a.kv_cache_bytes_per_gpu <= a.device_memory_bytes;
  const double room = a.device_memory_bytes - a.weights_bytes_per_gpu;
  a.max_batch = room > 0 ? saturated_count(std::floor(room / kv_per_sequence_gpu * shard.dp)) : 0;

  a.prefill = model_step(model, w, device, "prefill", w.prompt, 0);
  a.decode = model_step(model, w, device, "decode", 1, average_past(w));
  a.decode_time_per_token_s = a.decode.time_s;
  if (w.per_step) {
    if (decode_steps(w) > kMaxPerStepDecodeSteps) {
      input_error(
          "--per-step: {} decode steps, one by one, is more than the {} ridge evaluates (without "
          "--per-step, decode is evaluated at the average context)",
          decode_steps(w), kMaxPerStepDecodeSteps);
    }
    double total = 0;
    for (int step = 0; step < decode_steps(w); ++step) {
      total +=
          model_step(model, w, device, "decode", 1, static_cast<double>(w.prompt) + step).time_s;
    }
    a.decode_time_per_token_s = total / decode_steps(w);
  }
  a.tokens_per_s = w.batch / a.decode_time_per_token_s;
  a.end_to_end_s = a.prefill.time_s + (w.gen - 1.0) * a.decode_time_per_token_s;

  const double ridge = ridge_point(ceiling);
  a.crossover_batch = smallest_batch([&](std::int64_t batch) {
    Workload at = w;
    at.batch = static_cast<int>(batch);
    return model_step(model, at, device, "decode", 1, average_past(w)).intensity() >= ridge;
  });
  const WeightGroup& main = model.is_moe() ? w.weights.experts : w.weights.mlp;
  a.linear_crossover_batch = saturated_count(std::ceil(decode_crossover_batch(ridge, main.bytes)));
  if (const auto calibration = find_calibration(device)) add_expected(a, device, *calibration);
  return a;
}

}  // namespace ridge
