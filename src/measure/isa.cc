// The instruction set and cache arithmetic of a machine description: no library needed, so they
// live in the core, beside the measurement files that name them.
#include <algorithm>

#include "ridge/machine.h"

namespace ridge {

Isa detect_isa() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return Isa::avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Isa::avx2;
#endif
  return Isa::scalar;
}

std::string_view to_string(Isa isa) {
  switch (isa) {
    case Isa::avx512:
      return "avx512";
    case Isa::avx2:
      return "avx2";
    case Isa::scalar:
      return "scalar";
  }
  return "?";
}

std::uint64_t MachineInfo::last_level_cache_bytes() const {
  if (caches.empty()) return 0;
  const CacheLevel& last = caches.back();
  const int instances = std::max(1, cores / last.shared_by_cores);
  return last.bytes * static_cast<std::uint64_t>(instances);
}

}  // namespace ridge
