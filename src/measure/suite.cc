// The measurement suite: peaks per precision, the bandwidth sweep, GEMV against GEMM, and the
// GEMM shape sweep.
#include <cblas.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <utility>
#include <vector>

#include "measure/kernels.h"
#include "ridge/error.h"
#include "ridge/measure.h"
#include "ridge/units.h"

namespace ridge {

namespace {

constexpr double kDefaultLastLevelCache = 32.0 * 1024 * 1024;
constexpr double kBytesPerParallelRegion = 32.0 * 1024 * 1024;

// The last-level cache, or a typical size when hwloc cannot tell.
double llc_or_default(const MachineInfo& m) {
  const std::uint64_t llc = m.last_level_cache_bytes();
  return llc > 0 ? static_cast<double>(llc) : kDefaultLastLevelCache;
}

TimingOptions timing_for(bool quick) {
  return quick ? TimingOptions{1, 5, 0.005, 0.5} : TimingOptions{1, 10, 0.02, 2.0};
}

int resolve_threads(int requested, const MachineInfo& m) {
  if (requested == 0) return m.cores;
  if (requested < 1 || requested > m.hardware_threads) {
    input_error("--threads {}: this machine has {} hardware threads ({} cores)", requested,
                m.hardware_threads, m.cores);
  }
  return requested;
}

// One thread per core, pinned, unless the user's OpenMP environment says otherwise. Read by the
// OpenMP runtime when it starts, so set before the first parallel region.
void pin_threads() {
  setenv("OMP_PROC_BIND", "close", 0);
  setenv("OMP_PLACES", "cores", 0);
}

// ---------------------------------------------------------------- peaks

PeakResult measure_peak(const kernels::FmaKernel& kernel, int threads, const TimingOptions& timing,
                        std::int64_t iterations) {
  std::vector<double> sinks(static_cast<std::size_t>(threads) * 8);
  const auto body = [&] {
#pragma omp parallel num_threads(threads)
    sinks[static_cast<std::size_t>(omp_get_thread_num()) * 8] += kernel.run(iterations);
  };
  const Timing t = time_calls(body, timing);
  PeakResult r;
  r.precision = kernel.precision;
  r.kernel = kernel.name;
  r.flops_per_call = kernel.flops_per_iteration * static_cast<double>(iterations) * threads;
  r.flops_per_s = rate_summary(r.flops_per_call, t.seconds_per_call);
  r.samples_s = t.seconds_per_call;
  return r;
}

// The fastest of several short chains on each thread (interference only ever slows a chain
// down), then the median over threads.
template <typename Probe>
double measure_clock(int threads, Probe probe) {
  constexpr int kRuns = 9;
  std::vector<double> clocks(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
  {
    double best = 0;
    for (int run = 0; run < kRuns; ++run) best = std::max(best, probe());
    clocks[static_cast<std::size_t>(omp_get_thread_num())] = best;
  }
  return summarize(clocks).median;
}

double measure_scalar_clock(int threads) {
  return measure_clock(threads, [] { return kernels::measure_clock_hz(20'000'000); });
}

double measure_vector_clock(int threads, Isa isa) {
  return measure_clock(threads,
                       [isa] { return kernels::measure_vector_clock_hz(isa, 20'000'000); });
}

// ---------------------------------------------------------------- bandwidth

struct FreeDeleter {
  void operator()(double* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<double[], FreeDeleter>;

void fill(double* p, std::size_t n, double value, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::size_t i = 0; i < n; ++i) p[i] = value;
}

Buffer allocate(std::size_t doubles, int threads) {
  const std::size_t bytes = ((doubles * sizeof(double) + 4095) / 4096) * 4096;
  auto* p = static_cast<double*>(std::aligned_alloc(4096, bytes));
  if (p == nullptr) {
    input_error("cannot allocate a {} working set", units::si(static_cast<double>(bytes), "B"));
  }
  fill(p, doubles, 0, threads);  // first touch by the threads that will use each part
  return Buffer(p);
}

enum class Kernel { read, copy, triad, copy_nt, triad_nt };

struct KernelSpec {
  Kernel kernel;
  const char* name;
  int arrays;
  double write_allocate_factor;  // bytes with write-allocate / STREAM bytes
};

constexpr KernelSpec kKernels[] = {{Kernel::read, "read", 1, 1.0},
                                   {Kernel::copy, "copy", 2, 1.5},
                                   {Kernel::triad, "triad", 3, 32.0 / 24},
                                   {Kernel::copy_nt, "copy_nt", 2, 1.0},
                                   {Kernel::triad_nt, "triad_nt", 3, 1.0}};

// Each thread's share of [0, n), on 64-byte boundaries.
std::pair<std::size_t, std::size_t> chunk(std::size_t n, int threads, int thread) {
  const std::size_t per = (n / static_cast<std::size_t>(threads)) & ~std::size_t{7};
  const std::size_t begin = per * static_cast<std::size_t>(thread);
  return {begin, thread == threads - 1 ? n : begin + per};
}

std::string level_of(double working_set, int threads, const MachineInfo& m) {
  const double per_thread = working_set / threads;
  for (const CacheLevel& c : m.caches) {
    const bool private_cache = c.shared_by_cores == 1;
    if (private_cache ? per_thread < static_cast<double>(c.bytes)
                      : working_set < static_cast<double>(m.last_level_cache_bytes())) {
      return c.name == "L1d" ? "L1" : c.name;
    }
  }
  return "DRAM";
}

// Spot checks, as STREAM does, that the kernel computed what it should.
bool check(const double* p, std::size_t n, double expected) {
  const std::size_t step = std::max<std::size_t>(1, n / 1024);
  for (std::size_t i = 0; i < n; i += step) {
    if (std::abs(p[i] - expected) > 1e-12 * std::abs(expected)) return false;
  }
  return true;
}

BandwidthPoint run_kernel(const KernelSpec& spec, double* buffer, double working_set, int threads,
                          const MachineInfo& m, const TimingOptions& timing) {
  const std::size_t n =
      (static_cast<std::size_t>(working_set / 8 / spec.arrays)) & ~std::size_t{63};
  double* a = buffer;
  double* b = buffer + n;
  double* c = buffer + 2 * n;
  constexpr double kA = 1.0, kB = 2.0, kC = 0.5, kScalar = 3.0;
  for (int k = 0; k < spec.arrays; ++k)
    fill(buffer + k * n, n, k == 0 ? kA : k == 1 ? kB : kC, threads);
  // Small working sets repeat inside one parallel region, so fork and join cost nothing.
  const int repeats = static_cast<int>(std::max(1.0, kBytesPerParallelRegion / working_set));
  std::vector<double> sums(static_cast<std::size_t>(threads) * 8);
  const auto body = [&] {
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      const auto [begin, end] = chunk(n, threads, t);
      for (int r = 0; r < repeats; ++r) {
        switch (spec.kernel) {
          case Kernel::read:
            sums[static_cast<std::size_t>(t) * 8] = kernels::read(a, begin, end);
            break;
          case Kernel::copy:
            kernels::copy(b, a, begin, end);
            break;
          case Kernel::copy_nt:
            kernels::copy_nt(b, a, begin, end);
            break;
          case Kernel::triad:
            kernels::triad(a, b, c, kScalar, begin, end);
            break;
          case Kernel::triad_nt:
            kernels::triad_nt(a, b, c, kScalar, begin, end);
            break;
        }
      }
    }
  };
  const Timing t = time_calls(body, timing);
  BandwidthPoint p;
  p.kernel = spec.name;
  p.working_set_bytes = static_cast<double>(n) * 8 * spec.arrays;
  p.level = level_of(p.working_set_bytes, threads, m);
  p.write_allocate_factor = spec.write_allocate_factor;
  p.bytes_per_s = rate_summary(p.working_set_bytes * repeats, t.seconds_per_call);
  for (double s : t.seconds_per_call) p.samples_s.push_back(s / repeats);
  if (spec.kernel == Kernel::read) {
    double total = 0;
    for (int i = 0; i < threads; ++i) total += sums[static_cast<std::size_t>(i) * 8];
    p.validated =
        std::abs(total - kA * static_cast<double>(n)) <= 1e-9 * kA * static_cast<double>(n);
  } else if (spec.kernel == Kernel::copy || spec.kernel == Kernel::copy_nt) {
    p.validated = check(b, n, kA);
  } else {
    p.validated = check(a, n, kB + kScalar * kC);
  }
  return p;
}

std::vector<double> sweep_sizes(double largest, bool quick) {
  std::vector<double> sizes;
  const double factor = quick ? 4 : 2;
  constexpr double kSmallest = 16 * 1024;  // inside any L1
  for (int step = 0; kSmallest * std::pow(factor, step) < largest; ++step) {
    sizes.push_back(kSmallest * std::pow(factor, step));
  }
  sizes.push_back(largest);
  return sizes;
}

// ---------------------------------------------------------------- BLAS

int blas_cache_n(const MachineInfo& m) {
  const double l2 = m.caches.size() > 1 ? static_cast<double>(m.caches[1].bytes) : 256.0 * 1024;
  return std::min(512, static_cast<int>(std::sqrt(l2 / 2 / 4)) & ~15);
}

int blas_dram_n(const MachineInfo& m, double largest, bool quick) {
  const double llc = llc_or_default(m);
  const double weights = std::min(largest, quick ? 1.25 * llc : 4 * llc);
  return std::max(64, static_cast<int>(std::sqrt(weights / 4)) & ~15);
}

// n x k fp32 weights times m columns, as a framework's linear layer calls BLAS: sgemv for one
// column, sgemm for more.
Timing time_weights_product(int n, int k, int m, int threads, const TimingOptions& timing) {
  openblas_set_num_threads(threads);
  const auto rows = static_cast<std::size_t>(n), depth = static_cast<std::size_t>(k);
  const auto cols = static_cast<std::size_t>(m);
  std::vector<float> w(rows * depth, 0.001f);
  std::vector<float> x(depth * cols, 1.0f);
  std::vector<float> y(rows * cols, 0.0f);
  const auto body = [&] {
    if (m == 1) {
      cblas_sgemv(CblasRowMajor, CblasNoTrans, n, k, 1.0f, w.data(), k, x.data(), 1, 0.0f, y.data(),
                  1);
    } else {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, m, k, 1.0f, w.data(), k, x.data(),
                  m, 0.0f, y.data(), m);
    }
  };
  return time_calls(body, timing);
}

// The shape sweep's weights: a transformer MLP's two shapes, 4 times as wide as deep and 4 times
// as deep as wide, of at most 256 MiB each (an LLM layer's order of size, and a sweep that ends
// in seconds; 64 MiB when quick), or of `largest` when that is smaller.
std::vector<std::pair<int, int>> gemm_sweep_weights(double largest, bool quick) {
  const double most_bytes = (quick ? 64.0 : 256.0) * 1024 * 1024;
  const double elements = std::min(largest, most_bytes) / sizeof(float);
  const int side = std::max(16, static_cast<int>(std::sqrt(elements / 4)) & ~15);
  return {{4 * side, side}, {side, 4 * side}};
}

void add_warnings(Measurement& r, const MeasureOptions& options) {
#ifndef NDEBUG
  r.warnings.push_back(
      "ridge was built with assertions on (a debug build): kernels may run slower than they can");
#endif
  const MachineInfo& m = r.machine;
  if (m.frequency_governor.empty()) {
    r.warnings.push_back(
        "the CPU frequency policy cannot be read here (no cpufreq): clocks may vary between runs");
  } else if (m.frequency_governor != "performance") {
    r.warnings.push_back(
        fmt::format("CPU frequency governor is '{}', not 'performance': clocks may ramp during "
                    "the run",
                    m.frequency_governor));
  }
  if (m.under_hypervisor)
    r.warnings.push_back("running under a hypervisor: other guests may share the cores and memory");
  if (options.quick) {
    r.warnings.push_back(
        "--quick: fewer samples, a coarser sweep, and DRAM working sets below STREAM's rule of "
        "four "
        "times the last-level cache per array");
  }
  add_result_warnings(r);
  if (timer_resolution_s() > 1e-6)
    r.warnings.push_back("the clock ridge times with is coarser than a microsecond");
}

}  // namespace

PeakResult measure_fp32_peak(const MachineInfo& machine, int threads, const TimingOptions& timing) {
  pin_threads();
  for (const kernels::FmaKernel& k : kernels::fma_kernels(machine)) {
    if (k.precision == Precision::fp32) return measure_peak(k, threads, timing, 1 << 18);
  }
  return {};
}

BandwidthPoint measure_read_bandwidth(double working_set_bytes, const MachineInfo& machine,
                                      int threads, const TimingOptions& timing) {
  pin_threads();
  const Buffer buffer = allocate(static_cast<std::size_t>(working_set_bytes / 8) + 64, threads);
  return run_kernel(kKernels[0], buffer.get(), working_set_bytes, threads, machine, timing);
}

BlasPoint measure_blas(int n, int batch, const std::string& weights, int threads,
                       const TimingOptions& timing) {
  const Timing t = time_weights_product(n, n, batch, threads, timing);
  BlasPoint p;
  p.weights = weights;
  p.n = n;
  p.batch = batch;
  p.flops_per_s = rate_summary(2.0 * n * n * batch, t.seconds_per_call);
  p.samples_s = t.seconds_per_call;
  return p;
}

std::vector<GemmSweepPoint> measure_gemm_sweep(double largest_weights_bytes, bool quick,
                                               int threads, const TimingOptions& timing) {
  std::vector<GemmSweepPoint> sweep;
  const std::vector<int> columns =
      quick ? std::vector<int>{1, 16, 128} : std::vector<int>{1, 4, 16, 64, 256, 1024};
  for (const auto& [n, k] : gemm_sweep_weights(largest_weights_bytes, quick)) {
    for (const int m : columns) {
      const Timing t = time_weights_product(n, k, m, threads, timing);
      GemmSweepPoint g;
      g.m = m, g.n = n, g.k = k;
      g.library = m == 1 ? "openblas sgemv" : "openblas sgemm";
      g.flops_per_s = rate_summary(2.0 * m * n * k, t.seconds_per_call);
      g.samples_s = t.seconds_per_call;
      sweep.push_back(std::move(g));
    }
  }
  return sweep;
}

Measurement measure_host(const MeasureOptions& options, const Progress& progress) {
  pin_threads();
  Measurement r = stamped_measurement(options.quick, describe_machine());
  r.threads = resolve_threads(options.threads, r.machine);
  const MachineInfo& m = r.machine;
  const double llc = llc_or_default(m);
  const double largest = options.max_working_set_bytes > 0 ? options.max_working_set_bytes
                                                           : (options.quick ? 4 : 12) * llc;
  if (largest > 0.5 * static_cast<double>(m.memory_bytes)) {
    input_error(
        "a {} working set is more than half of this machine's {} of memory (--max-working-set)",
        units::si(largest, "B"), units::si(static_cast<double>(m.memory_bytes), "B"));
  }
  const TimingOptions timing = timing_for(options.quick);
  const auto report = [&](const std::string& step, double fraction) {
    if (progress) progress(step, fraction);
  };

  // Idle cores can take tens of milliseconds to reach their clock: measure it before and after
  // the peaks and keep the faster.
  report("clock", 0.0);
  const double clock_before = measure_scalar_clock(r.threads);
  for (const kernels::FmaKernel& k : kernels::fma_kernels(m)) {
    report(fmt::format("{} peak", to_string(k.precision)), 0.05);
    r.peaks.push_back(measure_peak(k, r.threads, timing, options.quick ? 1 << 18 : 1 << 20));
  }
  r.clock_hz = std::max(clock_before, measure_scalar_clock(r.threads));
  // Cores may lower their clock while wide vector units are busy; the peaks run at that clock.
  r.vector_clock_hz = measure_vector_clock(r.threads, m.isa);
  const double peak_clock = r.vector_clock_hz > 0 ? r.vector_clock_hz : r.clock_hz;
  for (PeakResult& p : r.peaks) {
    p.theoretical_flops_per_s =
        r.threads * kernels::assumed_flops_per_cycle(p.precision, m.isa) * peak_clock;
  }

  const std::vector<double> sizes = sweep_sizes(largest, options.quick);
  const Buffer buffer = allocate(static_cast<std::size_t>(largest / 8) + 64, r.threads);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    report(fmt::format("bandwidth {}", units::binary_bytes(sizes[i])),
           0.1 + 0.6 * static_cast<double>(i) / static_cast<double>(sizes.size()));
    for (const KernelSpec& spec : kKernels) {
      const bool nontemporal = spec.kernel == Kernel::copy_nt || spec.kernel == Kernel::triad_nt;
      if (options.quick && nontemporal && sizes[i] != largest) continue;
      r.bandwidth.push_back(run_kernel(spec, buffer.get(), sizes[i], r.threads, m, timing));
    }
  }

  const int cache_n = blas_cache_n(m);
  const int dram_n = blas_dram_n(m, largest, options.quick);
  // The sweep a measured device's expected time follows: every power of two on weights in
  // cache (cheap), four batches on weights in DRAM.
  for (int batch = 1; batch <= 512; batch *= 2) {
    report(fmt::format("gemv/gemm batch {}", batch), 0.7 + 0.25 * std::log2(batch) / 9);
    r.blas.push_back(measure_blas(cache_n, batch, "cache", r.threads, timing));
    const bool dram_batch = batch == 1 || batch == 8 || batch == 64 || batch == 512;
    if (dram_batch && !(options.quick && batch == 512))
      r.blas.push_back(measure_blas(dram_n, batch, "dram", r.threads, timing));
  }
  report("gemm shape sweep", 0.95);
  r.gemm_sweep = measure_gemm_sweep(largest, options.quick, r.threads, timing);
  report("done", 1.0);
  add_warnings(r, options);
  return r;
}

}  // namespace ridge
