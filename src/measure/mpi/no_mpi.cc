// The MPI backend's interface in a build without MPI.
#include "mpi_measure.h"
#include "ridge/error.h"

namespace ridge::mpi {

bool mpi_backend_built() { return false; }

Measurement measure_host_on_every_rank(MeasureOptions, bool&) {
  input_error(
      "measure: started by mpirun, but this ridge was built without the MPI backend: each rank "
      "would measure alone (install libopenmpi-dev and rebuild, or run without mpirun)");
}

CollectiveMeasurement measure_collectives(const CollectiveSweepOptions&) {
  input_error(
      "measure collectives: this ridge was built without the MPI backend (CMake found no MPI; "
      "install libopenmpi-dev, see docs/measure.md)");
}

}  // namespace ridge::mpi
