#pragma once
// The measurement backends (the CPU suite with OpenBLAS, hwloc and OpenMP; CUDA; MPI) are
// plugins, loaded the first time a command needs one: an analytical command loads none of their
// libraries. This says which this build has and whether each loads.

#include <string>
#include <vector>

namespace ridge {

struct BackendStatus {
  std::string name;     // "cpu", "cuda", "mpi"
  std::string purpose;  // what needs it
  bool built = false;   // this build made its plugin
  std::string path;     // where the plugin was found; empty when it was not
  bool loads = false;   // checked only when asked to load
  std::string problem;  // why it is not there or does not load
};

// Every backend; `load` opens each built one (and its libraries) to check that it loads.
std::vector<BackendStatus> backend_statuses(bool load);

}  // namespace ridge
