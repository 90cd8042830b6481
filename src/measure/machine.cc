// What the host is: CPU model and features from CPUID, cores and caches from hwloc, memory and
// frequency policy from the kernel. Part of the CPU backend (hwloc); the parts that need no
// library are in isa.cc.
#include "ridge/machine.h"

#include <hwloc.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace ridge {

namespace {

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("model name")) return line.substr(line.find(':') + 2);
  }
  return "unknown CPU";
}

void detect_features(MachineInfo& m) {
#if defined(__x86_64__) || defined(__i386__)
  m.isa = detect_isa();
  m.has_avx512_bf16 = m.isa == Isa::avx512 && __builtin_cpu_supports("avx512bf16");
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("flags")) {
      m.under_hypervisor = line.find(" hypervisor") != std::string::npos;
      break;
    }
  }
#else
  (void)m;
#endif
}

// Cores and caches from hwloc's topology; the OS's counts when hwloc finds none.
void read_topology(MachineInfo& m) {
  hwloc_topology_t topology;
  if (hwloc_topology_init(&topology) != 0) return;
  if (hwloc_topology_load(topology) == 0) {
    m.cores = std::max(1, hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE));
    m.hardware_threads = std::max(1, hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PU));
    const struct {
      hwloc_obj_type_t type;
      const char* name;
    } levels[] = {{HWLOC_OBJ_L1CACHE, "L1d"}, {HWLOC_OBJ_L2CACHE, "L2"}, {HWLOC_OBJ_L3CACHE, "L3"}};
    for (const auto& level : levels) {
      const int count = hwloc_get_nbobjs_by_type(topology, level.type);
      if (count <= 0) continue;
      const hwloc_obj_t cache = hwloc_get_obj_by_type(topology, level.type, 0);
      m.caches.push_back({level.name, cache->attr->cache.size, std::max(1, m.cores / count)});
    }
  }
  hwloc_topology_destroy(topology);
}

}  // namespace

MachineInfo describe_machine() {
  MachineInfo m;
  m.cpu = cpu_model();
  m.cores = static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  m.hardware_threads = m.cores;
  detect_features(m);
  read_topology(m);
  m.memory_bytes = static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                   static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  m.frequency_governor = first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  return m;
}

}  // namespace ridge
