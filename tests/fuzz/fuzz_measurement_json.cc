// Fuzz target: a measurement file (JSON), then the device it makes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ridge/error.h"
#include "ridge/measurement.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const ridge::Measurement m = ridge::parse_measurement(text, "fuzz.json");
    (void)ridge::device_from_measurement(m, "fuzz", "fuzz.json");
    (void)ridge::measured_crossover_batch(m.blas);
    (void)ridge::measurement_to_json(m);
  } catch (const ridge::InputError&) {
  }
  return 0;
}
