#pragma once
// The MPI backend of `ridge measure collectives`: collectives timed across the ranks of an
// `mpirun`, as nccl-tests times them, beside the alpha-beta model's prediction. Built when CMake
// finds MPI; a build without it keeps this interface and says, as bad input, that the backend is
// missing.

#include <string>
#include <vector>

#include "ridge/collective_measurement.h"

namespace ridge::mpi {

struct CollectiveSweepOptions {
  double min_bytes = 1024;
  double max_bytes = 64.0 * 1024 * 1024;
  int warmups = 5;
  int iterations = 20;
};

bool mpi_backend_built();

// Every rank calls it; MPI is initialised and finalised inside. Bad input when the backend is
// missing or the options are impossible.
CollectiveMeasurement measure_collectives(const CollectiveSweepOptions& options);

}  // namespace ridge::mpi
