// Which weights a quantisation format reaches, and at what precision they are multiplied.
#include <fmt/format.h>

#include <algorithm>

#include "ridge/inference.h"

namespace ridge {

void WeightFormats::set_bytes(double bytes) {
  for (WeightGroup* g : {&attention, &mlp, &experts, &head}) g->bytes = bytes;
}

void WeightFormats::set_compute(Precision compute) {
  for (WeightGroup* g : {&attention, &mlp, &experts, &head}) g->compute = compute;
}

void quantise_weights(WeightFormats& weights, const WeightQuantization& scope,
                      const ModelConfig& model, const Device& device) {
  const bool dense_mlp =
      model.shared_experts > 0 ||
      std::ranges::any_of(model.layers, [](const LayerKind& l) { return !l.moe; });
  const WeightGroup group{scope.format.bytes_per_value(), product_precision(scope.format, device)};
  std::string reached;
  // Only the groups the model has are named.
  const auto quantise = [&](bool chosen, bool present, WeightGroup& target, const char* name) {
    if (!chosen) return;
    target = group;
    if (present) reached += (reached.empty() ? "" : ", ") + std::string(name);
  };
  const std::string rest = weights.name;
  quantise(scope.attention, true, weights.attention, "attention");
  quantise(scope.mlp, dense_mlp, weights.mlp, "MLP");
  quantise(scope.experts, model.is_moe(), weights.experts, "experts");
  weights.name =
      fmt::format("{} in {} ({:.3g} bits a weight, multiplied at {}); the rest {}",
                  scope.format.name, reached, 8 * group.bytes, to_string(*group.compute), rest);
}

}  // namespace ridge
