// The MPI backend plugin's entry point.
#include "measure/backend_abi.h"

extern "C" __attribute__((visibility("default"))) const void* ridge_backend_mpi() {
  static const ridge::backend::MpiTable table{ridge::backend::kAbiVersion,
                                              ridge::mpi::measure_host_on_every_rank,
                                              ridge::mpi::measure_collectives};
  return &table;
}
