// Fuzz target: a profile file (trace, gzip, ncu CSV) through read_profile, then grouped on a
// catalog device's roofline. read_profile reads a path, so each input is written to one
// temporary file first.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ridge/catalog.h"
#include "ridge/error.h"
#include "ridge/profile.h"

namespace {

// One file for the whole run, removed at exit; a plain array outlives any destructor.
char scratch[] = "/tmp/ridge-fuzz-profile-XXXXXX";

const char* scratch_path() {
  static const bool made = [] {
    const int fd = mkstemp(scratch);
    if (fd >= 0) close(fd);
    std::atexit([] { std::remove(scratch); });
    return true;
  }();
  (void)made;
  return scratch;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (std::FILE* f = std::fopen(scratch_path(), "wb")) {
    if (size > 0) std::fwrite(data, 1, size, f);  // an empty input may come as a null pointer
    std::fclose(f);
  }
  try {
    const ridge::Profile p = ridge::read_profile(scratch_path());
    const ridge::Device& device = ridge::Catalog::builtin().get("h100-sxm");
    for (const auto grouping : {ridge::ProfileGrouping::kernel, ridge::ProfileGrouping::op})
      (void)ridge::analyse_profiles({p}, device, "fuzz", grouping, 5);
  } catch (const ridge::InputError&) {
  }
  return 0;
}
