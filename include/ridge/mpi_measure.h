#pragma once
// The MPI backend of `ridge measure collectives`: collectives timed across the ranks of an
// `mpirun`, as nccl-tests times them, beside the alpha-beta model's prediction. A plugin
// (lib/ridge/libridge-mpi.so, built when CMake finds MPI) loaded on first use (backend.h); where it
// is missing or does not load, these say so as bad input.

#include <string>
#include <vector>

#include "ridge/collective_measurement.h"
#include "ridge/measure.h"

namespace ridge::mpi {

struct CollectiveSweepOptions {
  double min_bytes = 1024;
  double max_bytes = 64.0 * 1024 * 1024;
  int warmups = 5;
  int iterations = 20;
};

bool mpi_backend_built();

// Whether mpirun started this process as one of several ranks (from its environment, so this
// answers in a build without the backend too).
bool started_by_mpirun();

// `mpirun -np N ridge measure`: every rank measures the host at once, the ranks of one machine
// sharing its cores; rank 0 gets the aggregate (aggregate_measurements) and `root` true, the
// others an empty measurement and `root` false. Bad input without the backend.
Measurement measure_host_on_every_rank(MeasureOptions options, bool& root);

// Every rank calls it; MPI is initialised and finalised inside. Bad input when the backend is
// missing or the options are impossible.
CollectiveMeasurement measure_collectives(const CollectiveSweepOptions& options);

}  // namespace ridge::mpi
