#pragma once
// The machine ridge runs on: CPU, instruction sets, cores and caches (from hwloc).

#include <cstdint>
#include <string>
#include <vector>

namespace ridge {

// The widest vector instruction set the CPU offers, chosen at run time.
enum class Isa { scalar, avx2, avx512 };
std::string_view to_string(Isa isa);

// The widest ISA this CPU runs, from CPUID (scalar off x86-64).
Isa detect_isa();

struct CacheLevel {
  std::string name;         // "L1d", "L2", "L3"
  std::uint64_t bytes = 0;  // one instance
  int shared_by_cores = 1;  // cores behind one instance
};

struct MachineInfo {
  std::string cpu;  // model name
  int cores = 1;    // physical cores
  int hardware_threads = 1;
  Isa isa = Isa::scalar;
  bool has_avx512_bf16 = false;
  bool under_hypervisor = false;
  std::vector<CacheLevel> caches;  // data and unified caches, nearest first
  std::uint64_t memory_bytes = 0;
  std::string frequency_governor;  // empty when the OS does not expose one

  // The last-level cache, all instances together (0 when unknown).
  std::uint64_t last_level_cache_bytes() const;
};

MachineInfo describe_machine();

}  // namespace ridge
