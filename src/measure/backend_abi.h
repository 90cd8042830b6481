#pragma once
// What a backend plugin (lib/ridge/libridge-NAME.so) hands the library: one table of functions,
// returned by its one extern "C" entry point, ridge_backend_NAME. The plugin and the library are
// built together from the same headers; the version guards against a stale plugin beside a new
// binary.

#include "ridge/collective_measurement.h"
#include "ridge/cuda_measure.h"
#include "ridge/machine.h"
#include "ridge/measure.h"
#include "ridge/mpi_measure.h"

namespace ridge::backend {

inline constexpr int kAbiVersion = 2;  // 2: measurements carry a GEMM shape sweep

// The CPU measurement suite: OpenBLAS, hwloc and OpenMP.
struct CpuTable {
  int abi_version;
  MachineInfo (*describe_machine)();
  Measurement (*measure_host)(const MeasureOptions&, const Progress&);
  BlasPoint (*measure_blas)(int, int, const std::string&, int, const TimingOptions&);
  BandwidthPoint (*measure_read_bandwidth)(double, const MachineInfo&, int, const TimingOptions&);
  PeakResult (*measure_fp32_peak)(const MachineInfo&, int, const TimingOptions&);
};

// The CUDA backend: the CUDA runtime, cuBLAS and cuBLASLt.
struct CudaTable {
  int abi_version;
  int (*device_count)();
  Measurement (*measure_gpu)(const gpu::GpuMeasureOptions&, const Progress&);
};

// The MPI backend: OpenMPI.
struct MpiTable {
  int abi_version;
  Measurement (*measure_host_on_every_rank)(MeasureOptions, bool&);
  CollectiveMeasurement (*measure_collectives)(const mpi::CollectiveSweepOptions&);
};

}  // namespace ridge::backend
