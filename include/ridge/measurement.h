#pragma once
// A measurement of the host: peaks per precision, bandwidth per working-set size, and BLAS
// GEMV against GEMM, every figure with its raw samples. Stored as JSON
// ("schema": "ridge.measurement/1") and usable as a device.

#include <map>
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
  std::string kernel;  // e.g. "fma avx512 x16"
  Summary flops_per_s;
  std::vector<double> samples_s;  // seconds per call
  double flops_per_call = 0;
  double theoretical_flops_per_s = 0;  // cores x FLOP/cycle x clock, 0 when the clock is unknown
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
  std::string weights;  // "cache" or "dram"
  int n = 0;            // weights are n x n fp32
  int batch = 1;        // 1: sgemv; more: sgemm with that many columns
  Summary flops_per_s;
  std::vector<double> samples_s;
};

struct Measurement {
  std::string created;  // ISO 8601, UTC
  std::string host;
  MachineInfo machine;
  int threads = 1;
  bool quick = false;
  double clock_hz = 0;         // sustained, measured; 0 when it could not be
  double vector_clock_hz = 0;  // the same with the widest vector units busy
  std::vector<PeakResult> peaks;
  std::vector<BandwidthPoint> bandwidth;
  std::vector<BlasPoint> blas;
  std::vector<std::string> warnings;

  // The best median bandwidth among the points of one level (0 when none).
  double level_bandwidth(std::string_view level) const;
};

std::string measurement_to_json(const Measurement& m);

// Bad input (naming `origin`) for text that is not a ridge measurement.
Measurement parse_measurement(std::string_view json_text, const std::string& origin);

// The measured machine as a device: peaks and bandwidths marked `measured`.
Device device_from_measurement(const Measurement& m, const std::string& id,
                               const std::string& origin);

}  // namespace ridge
