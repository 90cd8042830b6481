// How this process was started (from its environment alone, so it lives in the core): by mpirun
// (OpenMPI, or any PMI launcher), or alone.
#include <cstdlib>
#include <string>

#include "ridge/mpi_measure.h"

namespace ridge::mpi {

bool started_by_mpirun() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    if (const char* value = std::getenv(variable)) return std::atoi(value) > 1;
  }
  return false;
}

}  // namespace ridge::mpi
