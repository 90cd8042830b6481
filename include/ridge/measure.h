#pragma once
// Measuring the host: the timing harness and the suites behind `ridge measure` and `ridge lab`.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ridge/measurement.h"
#include "ridge/stats.h"

namespace ridge {

struct TimingOptions {
  int warmups = 1;
  int samples = 10;
  double min_sample_s = 0.01;  // each sample repeats the body until it lasts this long
  double max_point_s = 0;  // when positive, fewer samples (at least 3) once they would take longer
};

struct Timing {
  std::vector<double> seconds_per_call;
  Summary summary;
};

// How one sample is timed: `start` before the first call, `stop` after the last returns the
// seconds between. The host's steady clock by default; a GPU backend reads device events, since
// its calls only enqueue work.
struct Stopwatch {
  std::function<void()> start;
  std::function<double()> stop;
};
Stopwatch host_stopwatch();

// Warm-up, then samples, each timing enough calls of `body` to last min_sample_s.
Timing time_calls(const std::function<void()>& body, const TimingOptions& options,
                  const Stopwatch& watch = host_stopwatch());

// The smallest step of the clock ridge times with, in seconds.
double timer_resolution_s();

struct MeasureOptions {
  bool quick = false;
  int threads = 0;                   // 0: one per core
  double max_working_set_bytes = 0;  // 0: four times the last-level cache (STREAM's rule)
};

using Progress = std::function<void(const std::string& step, double fraction)>;

// When and where a measurement ran: ISO 8601 in UTC, and this host's name.
std::string utc_timestamp();
std::string host_name();

// An empty measurement stamped with the time (UTC), the host's name and the host machine.
Measurement stamped_measurement(bool quick, const MachineInfo& machine);

// The whole suite. Bad input when the options cannot be honoured (threads, memory).
Measurement measure_host(const MeasureOptions& options, const Progress& progress = {});

// One BLAS point: n x n fp32 weights times `batch` columns (sgemv when batch is 1).
BlasPoint measure_blas(int n, int batch, const std::string& weights, int threads,
                       const TimingOptions& timing);

// The GEMM shape sweep: fp32 weights of two shapes (4:1 and 1:4, of 256 MiB, 64 MiB when quick,
// or `largest_weights_bytes` when smaller) times 1 to 1024 columns (1 to 128 when quick), sgemv
// for one.
std::vector<GemmSweepPoint> measure_gemm_sweep(double largest_weights_bytes, bool quick,
                                               int threads, const TimingOptions& timing);

// One bandwidth point with the read kernel at a given working set.
BandwidthPoint measure_read_bandwidth(double working_set_bytes, const MachineInfo& machine,
                                      int threads, const TimingOptions& timing);

// The fp32 FMA peak alone.
PeakResult measure_fp32_peak(const MachineInfo& machine, int threads, const TimingOptions& timing);

}  // namespace ridge
