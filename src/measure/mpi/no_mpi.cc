// The MPI backend's interface in a build without MPI.
#include "mpi_measure.h"
#include "ridge/error.h"

namespace ridge::mpi {

bool mpi_backend_built() { return false; }

CollectiveMeasurement measure_collectives(const CollectiveSweepOptions&) {
  input_error(
      "measure collectives: this ridge was built without the MPI backend (CMake found no MPI; "
      "install libopenmpi-dev, see docs/measure.md)");
}

}  // namespace ridge::mpi
