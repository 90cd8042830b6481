// Fuzz target: a device description (TOML), then the device it makes, as a roofline.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ridge/catalog.h"
#include "ridge/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const ridge::Device device = ridge::parse_device_toml(text, "fuzz.toml");
    for (const auto& [precision, figure] : device.peak_flops_per_s) {
      (void)ridge::ridge_point(device.ceiling(precision));
    }
  } catch (const ridge::InputError&) {
    // Bad input is the expected answer to most inputs; anything else escapes and is a finding.
  }
  return 0;
}
