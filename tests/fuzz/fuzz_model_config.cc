// Fuzz target: a model's config.json, then one inference analysis of it on a catalog device.
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
    (void)ridge::analyse_model(model, ridge::Workload{}, device);
  } catch (const ridge::InputError&) {
  }
  return 0;
}
