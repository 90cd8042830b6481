#include "ridge/op.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "ridge/error.h"
#include "ridge/units.h"

namespace ridge {

using units::count;
using units::plain;

Op elementwise_add(double n, double element_bytes) {
  return {"add",
          fmt::format("add n={}", plain(n)),
          n,
          3 * n * element_bytes,
          std::nullopt,
          std::nullopt,
          std::nullopt};
}

Op gemv(double m, double n, double element_bytes) {
  return {"gemv",
          fmt::format("gemv {}x{}", plain(m), plain(n)),
          2 * m * n,
          (m * n + n + m) * element_bytes,
          GemmShape{1, m, n, 1},
          std::nullopt,
          std::nullopt};
}

Op gemm(double m, double n, double k, double element_bytes, double batch) {
  std::string label = fmt::format("gemm {}x{}x{}", plain(m), plain(n), plain(k));
  if (batch != 1) label += fmt::format(" batch={}", plain(batch));
  return {"gemm",
          std::move(label),
          2 * m * n * k * batch,
          (m * k + k * n + m * n) * element_bytes * batch,
          GemmShape{m, n, k, batch},
          std::nullopt,
          std::nullopt};
}

Op attention(const AttentionShape& s, double element_bytes) {
  const double scores = s.scores();
  const double dv = s.value_width();
  const double flops = 2 * scores * (s.d_head + dv) * s.heads * s.batch;
  // Q read and O written per query head; K and V read once per K and V head.
  const double query_bytes = s.seq * (s.d_head + dv) * element_bytes * s.heads * s.batch;
  const double kv_width = s.values_in_keys ? s.d_head : s.d_head + dv;
  const double kv_bytes = s.keys() * kv_width * element_bytes * s.key_heads() * s.batch;
  // Unfused: QK^T writes the scores, softmax reads and rewrites them, PV reads them.
  const double score_bytes = s.fused ? 0 : 4 * scores * element_bytes * s.heads * s.batch;
  std::string label = fmt::format("attention seq={} d_head={}", plain(s.seq), plain(s.d_head));
  if (dv != s.d_head) label += fmt::format(" d_value={}", plain(dv));
  if (s.values_in_keys) label += " values-in-keys";
  if (s.keys() != s.seq) label += fmt::format(" keys={}", plain(s.keys()));
  if (s.heads != 1) label += fmt::format(" heads={}", plain(s.heads));
  if (s.key_heads() != s.heads) label += fmt::format(" kv_heads={}", plain(s.key_heads()));
  if (s.batch != 1) label += fmt::format(" batch={}", plain(s.batch));
  if (s.causal) label += " causal";
  if (!s.fused) label += " unfused";
  AttentionShape shape = s;
  shape.kv_bytes = kv_bytes;
  return {"attention", std::move(label), flops, query_bytes + kv_bytes + score_bytes, std::nullopt,
          shape,       std::nullopt};
}

std::optional<ConfiguredTile> parse_configured_tile(std::string_view text) {
  int sides[3] = {0, 0, 0};
  const char* at = text.data();
  const char* end = text.data() + text.size();
  for (int i = 0; i < 3; ++i) {
    if (i > 0 && (at == end || *at++ != 'x')) return std::nullopt;
    const auto [next, error] = std::from_chars(at, end, sides[i]);
    if (error != std::errc() || sides[i] < 1 || sides[i] > kMaxTileSide) return std::nullopt;
    at = next;
  }
  if (at != end) return std::nullopt;
  return ConfiguredTile{sides[0], sides[1], sides[2]};
}

std::string configured_tile_form() {
  return fmt::format("a tile MxNxK (three whole numbers from 1 to {}, as 128x128x128)",
                     kMaxTileSide);
}

std::optional<std::string> attention_shape_problem(const AttentionShape& s) {
  if (s.kv_heads > 0 && std::fmod(s.heads, s.kv_heads) != 0)
    return fmt::format("{} K and V heads do not divide the {} query heads", plain(s.kv_heads),
                       plain(s.heads));
  // The causal mask takes the queries to be the last keys; without it fewer keys than queries
  // is cross-attention, and sound.
  if (s.causal && s.keys() < s.seq)
    return fmt::format("{} keys are fewer than the {} queries of a causal attention",
                       plain(s.keys()), plain(s.seq));
  return std::nullopt;
}

namespace {
constexpr double kRotaryFlopsPerElement = 3;  // two multiplies and an add
}  // namespace

Op rotary_cache_write(double tokens, double q_width, double kv_width, double element_bytes,
                      double kv_bytes, RotaryOutput output) {
  const double q = tokens * q_width;
  const double kv = tokens * kv_width;
  const double k_written_back = output == RotaryOutput::packed_qkv ? kv : 0;
  return {"attention",
          fmt::format("rotary and cache write tokens={} q={} kv={}", plain(tokens), plain(q_width),
                      plain(kv_width)),
          kRotaryFlopsPerElement * (q + kv),
          (q + 2 * kv + q + k_written_back) * element_bytes + 2 * kv * kv_bytes,
          std::nullopt,
          std::nullopt,
          std::nullopt};
}

Op latent_rotary_cache_write(double tokens, double heads, double rope_width, double latent_width,
                             double element_bytes, double kv_bytes) {
  const double q_rope = tokens * heads * rope_width;
  const double latent = tokens * latent_width;
  return {"attention",
          fmt::format("latent rotary and cache write tokens={} heads={} rope={} latent={}",
                      plain(tokens), plain(heads), plain(rope_width), plain(latent_width)),
          kRotaryFlopsPerElement * (q_rope + tokens * rope_width),
          2 * q_rope * element_bytes + latent * (element_bytes + kv_bytes),
          std::nullopt,
          std::nullopt,
          std::nullopt};
}

Op cache_write(double tokens, double kv_width, double element_bytes, double kv_bytes) {
  constexpr double kMaxThreads = 512;
  const double kv = tokens * kv_width;
  return {"attention",
          fmt::format("cache write tokens={} kv={}", plain(tokens), plain(kv_width)),
          0,
          2 * kv * (element_bytes + kv_bytes),
          std::nullopt,
          std::nullopt,
          BlockGrid{tokens, std::min(kv_width, kMaxThreads)}};
}

Op decode_step(double params, double batch, double element_bytes) {
  // The weights as one product of `batch` rows by a square matrix of `params` elements: the
  // shape a decode step's projections add up to.
  const double side = std::sqrt(params);
  return {"decode",
          fmt::format("decode {} params batch={}", count(params), plain(batch)),
          2 * params * batch,
          params * element_bytes,
          GemmShape{batch, side, side, 1},
          std::nullopt,
          std::nullopt};
}

namespace {

struct OpSpecReader {
  std::string_view text;
  std::map<std::string, double> values;
  std::vector<std::string> flags;  // the words it took alone ("unfused", "causal")
  bool has(std::string_view flag) const { return std::ranges::find(flags, flag) != flags.end(); }

  [[noreturn]] void fail(const std::string& problem) const {
    input_error("--op '{}': {}", text, problem);
  }

  // Sizes from 1 to 1e18, whole but for the params and batch of a decode step.
  double size(const std::string& key, std::optional<double> fallback = std::nullopt) const {
    const auto it = values.find(key);
    if (it == values.end()) {
      if (fallback) return *fallback;
      fail(fmt::format("{}= is missing", key));
    }
    return it->second;
  }
};

OpSpecReader read_op_spec(std::string_view text, const std::vector<std::string>& keys,
                          const std::vector<std::string>& flags = {}) {
  OpSpecReader r{text, {}, {}};
  std::istringstream words{std::string(text)};
  std::string word;
  words >> word;  // the kind, already read
  while (words >> word) {
    if (std::ranges::find(flags, word) != flags.end()) {
      r.flags.push_back(word);
      continue;
    }
    const std::size_t eq = word.find('=');
    const std::string key = word.substr(0, eq);
    if (eq == std::string::npos || std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string allowed;
      for (const std::string& k : keys) allowed += (allowed.empty() ? "" : ", ") + k + "=";
      for (const std::string& f : flags) allowed += ", " + f;
      r.fail(fmt::format("'{}' is not one of {}", word, allowed));
    }
    const std::string value = word.substr(eq + 1);
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !std::isfinite(v) || v < 1 || v > 1e18) {
      r.fail(fmt::format("{}='{}' is not a number from 1 to 1e18", key, value));
    }
    if (key != "params" && v != std::floor(v))
      r.fail(fmt::format("{}={} is not whole", key, value));
    r.values[key] = v;
  }
  return r;
}

}  // namespace

Op parse_op_spec(std::string_view text, double element_bytes) {
  std::istringstream words{std::string(text)};
  std::string kind;
  words >> kind;
  if (kind == "add") {
    const auto r = read_op_spec(text, {"n"});
    return elementwise_add(r.size("n"), element_bytes);
  }
  if (kind == "gemv") {
    const auto r = read_op_spec(text, {"m", "n"});
    return gemv(r.size("m"), r.size("n"), element_bytes);
  }
  if (kind == "gemm") {
    const auto r = read_op_spec(text, {"m", "n", "k", "batch"});
    return gemm(r.size("m"), r.size("n"), r.size("k"), element_bytes, r.size("batch", 1));
  }
  if (kind == "attention") {
    const auto r = read_op_spec(text, {"seq", "d", "heads", "batch", "keys", "kv_heads"},
                                {"unfused", "causal"});
    AttentionShape shape{r.size("seq"), r.size("d"), r.size("heads", 1), r.size("batch", 1),
                         !r.has("unfused")};
    shape.causal = r.has("causal");
    shape.kv_seq = r.size("keys", 0);
    shape.kv_heads = r.size("kv_heads", 0);
    if (const auto why = attention_shape_problem(shape)) r.fail(*why);
    return attention(shape, element_bytes);
  }
  if (kind == "decode") {
    const auto r = read_op_spec(text, {"params", "batch"});
    return decode_step(r.size("params"), r.size("batch", 1), element_bytes);
  }
  input_error("--op '{}': '{}' is not an operation (add, gemv, gemm, attention, decode)", text,
              kind);
}

}  // namespace ridge
