// Fuzz target: a model's config.json, then inference analyses of it on a catalog device
// (in its quantisation format, and with expert parallelism where it has experts).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ridge/catalog.h"
#include "ridge/error.h"
#include "ridge/inference.h"
#include "ridge/model.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const ridge::ModelConfig model = ridge::parse_model_config(text, "fuzz/config.json");
    (void)ridge::count_parameters(model);
    const ridge::Device& device = ridge::Catalog::builtin().get("h100-sxm");
    ridge::Workload w;
    if (model.quantization) ridge::quantise_weights(w.weights, *model.quantization, model, device);
    (void)ridge::analyse_model(model, w, device);
    // Expert parallelism over two GPUs, where the experts split two ways.
    if (model.is_moe() && model.num_experts % 2 == 0) {
      w.ep = 2;
      (void)ridge::analyse_model(model, w, device);
    }
  } catch (const ridge::InputError&) {
  }
  return 0;
}
