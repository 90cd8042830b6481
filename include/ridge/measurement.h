#pragma once
// A measurement of the host CPU or of a GPU: peaks per precision, bandwidth per working-set size,
// BLAS GEMV against GEMM and a GEMM shape sweep, every figure with its raw samples. Stored as JSON
// ("schema": "ridge.measurement/1") and usable as a device.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ridge/device.h"
#include "ridge/machine.h"
#include "ridge/precision.h"
#include "ridge/stats.h"

namespace ridge {

struct PeakResult {
  Precision precision = Precision::fp64;
  std::string kernel;  // e.g. "fma avx512 x16", "cublasLt bf16 8192x8192x8192"
  Summary flops_per_s;
  std::vector<double> samples_s;  // seconds per call
  double flops_per_call = 0;
  // Units x FLOP/cycle x clock; 0 when the clock or the FLOP/cycle is unknown.
  double theoretical_flops_per_s = 0;
  bool validated = true;  // results checked against a reference, where the kernel has results
};

struct BandwidthPoint {
  std::string kernel;  // "read", "copy", "triad", "copy_nt", "triad_nt"
  double working_set_bytes = 0;
  std::string level;                 // "L1", "L2", "L3", "DRAM"
  Summary bytes_per_s;               // STREAM-convention bytes
  double write_allocate_factor = 1;  // bytes with write-allocate traffic / STREAM bytes
  bool validated = true;             // results checked as STREAM does
  std::vector<double> samples_s;
};

struct BlasPoint {
  std::string weights;  // where the weights live: "cache", "dram" (CPU) or "hbm" (GPU)
  int n = 0;            // weights are n x n
  int batch = 1;        // 1: GEMV; more: GEMM with that many columns
  Precision precision = Precision::fp32;
  Summary flops_per_s;
  std::vector<double> samples_s;
};

// "sgemv"/"sgemm" for fp32 (BLAS's names), "bf16 gemv"/"bf16 gemm" otherwise.
std::string blas_op_name(const BlasPoint& p);

// The point as the GEMM it timed: `batch` rows of activations against n x n weights, at its
// median time.
MeasuredGemm measured_gemm(const BlasPoint& p);

// One GEMM of a shape sweep, the calibration a measured device's expected times interpolate in:
// `groups` independent products of m x k activations by k x n weights in one library call (a
// batched GEMM when groups > 1, as a mixture of experts runs its experts), timed on the kernel the
// library picks for that shape, as a framework's matmul gets it.
struct GemmSweepPoint {
  int m = 1, n = 0, k = 0, groups = 1;
  Precision precision = Precision::fp32;  // of the inputs; fp8 GEMMs write bf16
  std::string library;                    // "openblas sgemm", "cublasLt", ...
  Summary flops_per_s;
  std::vector<double> samples_s;
};

// The point as the GEMM it timed, at its median time.
MeasuredGemm measured_gemm(const GemmSweepPoint& p);

// Bad input (std::invalid_argument naming the point) for a sweep a device cannot interpolate
// in: a rate that is not positive and finite, or a point twice or out of order within one set
// of weights. The GEMV/GEMM sweep's batches rise within each (where, n, precision); the shape
// sweep's m within each (n, k, groups, precision), and no side is below 1.
void check_blas_sweep(const std::vector<BlasPoint>& sweep);
void check_gemm_sweep(const std::vector<GemmSweepPoint>& sweep);

// The GPU a measurement ran on, as its runtime reports it.
struct GpuInfo {
  std::string name;
  int index = 0;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int sm_count = 0;
  double sm_clock_hz = 0;      // the highest the runtime reports
  double memory_clock_hz = 0;  // likewise
  int memory_bus_bits = 0;
  std::uint64_t memory_bytes = 0;
  std::uint64_t l2_bytes = 0;
  std::uint64_t shared_memory_per_sm_bytes = 0;
  std::string pci_bus_id;
  std::string driver_version;   // the CUDA version the driver supports, e.g. "13.0"
  std::string runtime_version;  // the CUDA runtime ridge was linked with

  // The level name of device memory: "HBM" on wide (stacked) buses, "DRAM" otherwise.
  std::string main_memory_name() const;
};

struct Measurement {
  std::string created;  // ISO 8601, UTC
  std::string host;
  MachineInfo machine;         // the host
  std::optional<GpuInfo> gpu;  // set when the measurement is of a GPU, not the host CPU
  int threads = 1;
  bool quick = false;
  double clock_hz = 0;         // sustained, measured; 0 when it could not be
  double vector_clock_hz = 0;  // the same with the widest vector units busy
  std::vector<PeakResult> peaks;
  std::vector<BandwidthPoint> bandwidth;
  std::vector<BlasPoint> blas;
  std::vector<GemmSweepPoint> gemm_sweep;  // empty in measurements made before the sweep
  std::vector<std::string> warnings;

  // The best median bandwidth among the points of one level (0 when none).
  double level_bandwidth(std::string_view level) const;
  // The levels the bandwidth points reach, in the order they first appear.
  std::vector<std::string> levels() const;
};

// Warnings every backend adds from its results: a kernel whose result failed its check, and a
// peak whose samples spread by more than 5%.
void add_result_warnings(Measurement& m);

// The batch at which the measured GEMV/GEMM sweep turns from memory- to compute-bound: where
// the time of one column (the memory-bound plateau) equals the work of that batch at the best
// rate the sweep reached. 0 when the sweep has no GEMV point or nothing faster than it.
double measured_crossover_batch(const std::vector<BlasPoint>& sweep);

std::string measurement_to_json(const Measurement& m);

// The measurements of several processes that ran at once (the ranks of `mpirun -np N ridge
// measure`), as one: rates and thread counts added point by point, as ERT aggregates its ranks.
// Points that not every rank measured are left out, with a warning; raw samples are the first
// rank's.
Measurement aggregate_measurements(const std::vector<Measurement>& ranks);

// Bad input (naming `origin`) for text that is not a ridge measurement.
Measurement parse_measurement(std::string_view json_text, const std::string& origin);
// The same from a file; bad input naming it when it cannot be read.
Measurement load_measurement_file(const std::string& path);

// The measured machine as a device: peaks and bandwidths marked `measured`.
Device device_from_measurement(const Measurement& m, const std::string& id,
                               const std::string& origin);

}  // namespace ridge
