// Fuzz target: a validation table (tab-separated published timings), run through the bound and
// the expected time on the built-in catalog.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ridge/catalog.h"
#include "ridge/error.h"
#include "ridge/validation.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)ridge::run_validation_file(text, "fuzz.tsv", ridge::Catalog::builtin());
  } catch (const ridge::InputError&) {
  }
  return 0;
}
