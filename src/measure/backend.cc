// Loads the backend plugins on first use, and forwards the measurement functions to them: the
// one mechanism for every backend. A plugin is searched in $RIDGE_BACKEND_DIR alone when it is
// set, else beside the executable (<bin>/../lib/ridge, as installed), then in the build tree it
// was built in.
#include "ridge/backend.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

#include "measure/backend_abi.h"
#include "ridge/error.h"

namespace ridge {

namespace {

namespace fs = std::filesystem;

struct BackendSpec {
  const char* name;
  const char* purpose;
  bool built;
  const char* unbuilt;  // why a build has it not, and what to do
  int dlopen_flags;
};

// MPI's own components are plugins that expect libmpi's symbols to be global.
constexpr std::array<BackendSpec, 3> kBackends = {{
    {"cpu", "ridge measure, ridge lab and --device host", true, "", RTLD_NOW | RTLD_LOCAL},
    {"cuda", "ridge measure --backend cuda", RIDGE_BUILT_CUDA_BACKEND != 0,
     "this ridge was built without the CUDA backend (CMake found no CUDA toolkit; see "
     "docs/measure.md)",
     RTLD_NOW | RTLD_LOCAL},
    {"mpi", "mpirun ... ridge measure [collectives]", RIDGE_BUILT_MPI_BACKEND != 0,
     "this ridge was built without the MPI backend (CMake found no MPI; install libopenmpi-dev, "
     "see docs/measure.md)",
     RTLD_NOW | RTLD_GLOBAL},
}};

const BackendSpec& spec_of(std::string_view name) {
  for (const BackendSpec& s : kBackends) {
    if (s.name == name) return s;
  }
  throw std::logic_error("no such backend");
}

fs::path executable_dir() {
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::path() : exe.parent_path();
}

// Where the plugin file is: beside the executable as installed, or in the build tree.
std::string find_plugin(std::string_view name) {
  const std::string file = fmt::format("libridge-{}.so", name);
  std::vector<fs::path> candidates;
  if (const char* dir = std::getenv("RIDGE_BACKEND_DIR"); dir && *dir) {
    candidates.push_back(fs::path(dir) / file);
  } else if (const fs::path bin = executable_dir(); !bin.empty()) {
    candidates.push_back(bin / ".." / RIDGE_INSTALL_BACKEND_SUBDIR / file);
    candidates.push_back(fs::path(RIDGE_BUILD_BACKEND_DIR) / file);
  }
  for (const fs::path& candidate : candidates) {
    std::error_code error;
    if (fs::is_regular_file(candidate, error)) return fs::weakly_canonical(candidate).string();
  }
  return "";
}

struct Loaded {
  const void* table = nullptr;
  std::string problem;
};

Loaded open_plugin(const BackendSpec& spec, const std::string& path) {
  if (!spec.built) return {nullptr, spec.unbuilt};
  if (path.empty())
    return {nullptr, fmt::format("the {} backend's plugin libridge-{}.so is not installed "
                                 "(`ridge doctor` lists the backends)",
                                 spec.name, spec.name)};
  void* handle = dlopen(path.c_str(), spec.dlopen_flags);
  if (!handle) return {nullptr, fmt::format("{} does not load: {}", path, dlerror())};
  using Entry = const void* (*)();
  const auto entry =
      reinterpret_cast<Entry>(dlsym(handle, fmt::format("ridge_backend_{}", spec.name).c_str()));
  if (!entry) return {nullptr, fmt::format("{} has no entry point", path)};
  const void* table = entry();
  if (*static_cast<const int*>(table) != backend::kAbiVersion)
    return {nullptr, fmt::format("{} is from another version of ridge", path)};
  return {table, ""};
}

// Opened once per process; a failure is remembered and reported the same way each time.
const Loaded& loaded(std::string_view name) {
  static std::mutex mutex;
  static std::map<std::string, Loaded, std::less<>> plugins;
  const std::lock_guard lock(mutex);
  if (const auto it = plugins.find(name); it != plugins.end()) return it->second;
  const BackendSpec& spec = spec_of(name);
  return plugins.emplace(std::string(name), open_plugin(spec, find_plugin(name))).first->second;
}

// The backend's table, or bad input naming the command that needed it and why it is not there.
template <typename Table>
const Table& table(std::string_view name, std::string_view command) {
  const Loaded& plugin = loaded(name);
  if (!plugin.table) input_error("{}: {}", command, plugin.problem);
  return *static_cast<const Table*>(plugin.table);
}

const backend::CpuTable& cpu() { return table<backend::CpuTable>("cpu", "measuring this machine"); }

}  // namespace

std::vector<BackendStatus> backend_statuses(bool load) {
  std::vector<BackendStatus> statuses;
  for (const BackendSpec& spec : kBackends) {
    BackendStatus s{spec.name, spec.purpose, spec.built, find_plugin(spec.name), false, ""};
    if (!spec.built || s.path.empty()) s.problem = open_plugin(spec, s.path).problem;
    if (load && spec.built && !s.path.empty()) {
      const Loaded& plugin = loaded(spec.name);
      s.loads = plugin.table != nullptr;
      s.problem = plugin.problem;
    }
    statuses.push_back(std::move(s));
  }
  return statuses;
}

// The measurement functions, forwarded to the plugins.

MachineInfo describe_machine() { return cpu().describe_machine(); }

Measurement measure_host(const MeasureOptions& options, const Progress& progress) {
  return cpu().measure_host(options, progress);
}

BlasPoint measure_blas(int n, int batch, const std::string& weights, int threads,
                       const TimingOptions& timing) {
  return cpu().measure_blas(n, batch, weights, threads, timing);
}

BandwidthPoint measure_read_bandwidth(double working_set_bytes, const MachineInfo& machine,
                                      int threads, const TimingOptions& timing) {
  return cpu().measure_read_bandwidth(working_set_bytes, machine, threads, timing);
}

PeakResult measure_fp32_peak(const MachineInfo& machine, int threads, const TimingOptions& timing) {
  return cpu().measure_fp32_peak(machine, threads, timing);
}

namespace gpu {

bool cuda_backend_built() { return spec_of("cuda").built; }

const backend::CudaTable& cuda() { return table<backend::CudaTable>("cuda", "--backend cuda"); }

int cuda_device_count() { return cuda().device_count(); }

Measurement measure_gpu(const GpuMeasureOptions& options, const Progress& progress) {
  return cuda().measure_gpu(options, progress);
}

}  // namespace gpu

namespace mpi {

bool mpi_backend_built() { return spec_of("mpi").built; }

Measurement measure_host_on_every_rank(MeasureOptions options, bool& root) {
  return table<backend::MpiTable>("mpi",
                                  "measure: started by mpirun, each rank would measure alone")
      .measure_host_on_every_rank(options, root);
}

CollectiveMeasurement measure_collectives(const CollectiveSweepOptions& options) {
  return table<backend::MpiTable>("mpi", "measure collectives").measure_collectives(options);
}

}  // namespace mpi

}  // namespace ridge
