// Fuzz target: a calibration profile (TOML), then an expected time on a device it lists.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ridge/calibration.h"
#include "ridge/catalog.h"
#include "ridge/error.h"
#include "ridge/expected.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const ridge::Calibration c = ridge::parse_calibration_toml(text, "fuzz.toml");
    const ridge::Device& h100 = ridge::Catalog::builtin().get("h100-sxm");
    (void)ridge::expected_time(ridge::gemm(300, 5000, 7000, 2), h100, ridge::Precision::fp16, c);
  } catch (const ridge::InputError&) {
  }
  return 0;
}
