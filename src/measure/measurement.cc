// What a measurement says beyond its raw points: levels, operation names, the crossover batch.
#include "ridge/measurement.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "ridge/units.h"

namespace ridge {

namespace {

// Stacked memory (HBM) has buses of 1024 bits per stack; GDDR and DDR buses are at most 512.
constexpr int kWidestNonStackedBusBits = 512;

}  // namespace

MeasuredGemm measured_gemm(const BlasPoint& p) {
  const double n = p.n;
  const double batch = p.batch;
  return {GemmShape{batch, n, n, 1}, p.precision, 2 * n * n * batch / p.flops_per_s.median};
}

MeasuredGemm measured_gemm(const GemmSweepPoint& p) {
  const GemmShape shape{static_cast<double>(p.m), static_cast<double>(p.n),
                        static_cast<double>(p.k), static_cast<double>(p.groups)};
  return {shape, p.precision, 2 * shape.m * shape.n * shape.k * shape.batch / p.flops_per_s.median};
}

namespace {

// A sweep's point is a rate a device interpolates in: positive and finite.
void check_rate(const char* sweep, std::size_t i, const Summary& rate) {
  if (!(rate.median > 0) || !std::isfinite(rate.median))
    throw std::invalid_argument(
        fmt::format("{}[{}]: the median rate {} is not positive", sweep, i, rate.median));
}

}  // namespace

void check_blas_sweep(const std::vector<BlasPoint>& sweep) {
  std::map<std::tuple<std::string, int, Precision>, int> last_batch;
  for (std::size_t i = 0; i < sweep.size(); ++i) {
    const BlasPoint& b = sweep[i];
    check_rate("blas", i, b.flops_per_s);
    auto [it, first] = last_batch.try_emplace({b.weights, b.n, b.precision}, b.batch);
    if (first) continue;
    if (b.batch == it->second)
      throw std::invalid_argument(
          fmt::format("blas[{}]: batch {} of {} weights n={} twice", i, b.batch, b.weights, b.n));
    if (b.batch < it->second)
      throw std::invalid_argument(fmt::format(
          "blas[{}]: batch {} after {}: the sweep's batches must rise", i, b.batch, it->second));
    it->second = b.batch;
  }
}

void check_gemm_sweep(const std::vector<GemmSweepPoint>& sweep) {
  std::map<std::tuple<int, int, int, Precision>, int> last_m;
  for (std::size_t i = 0; i < sweep.size(); ++i) {
    const GemmSweepPoint& g = sweep[i];
    if (g.m < 1 || g.n < 1 || g.k < 1 || g.groups < 1)
      throw std::invalid_argument(
          fmt::format("gemm_sweep[{}]: m={} n={} k={} groups={}: every "
                      "side must be at least 1",
                      i, g.m, g.n, g.k, g.groups));
    check_rate("gemm_sweep", i, g.flops_per_s);
    auto [it, first] = last_m.try_emplace({g.n, g.k, g.groups, g.precision}, g.m);
    if (first) continue;
    if (g.m == it->second)
      throw std::invalid_argument(fmt::format("gemm_sweep[{}]: m={} n={} k={} groups={} {} twice",
                                              i, g.m, g.n, g.k, g.groups, to_string(g.precision)));
    if (g.m < it->second)
      throw std::invalid_argument(
          fmt::format("gemm_sweep[{}]: m={} after m={} for n={} k={}: the sweep's m must rise", i,
                      g.m, it->second, g.n, g.k));
    it->second = g.m;
  }
}

std::string blas_op_name(const BlasPoint& p) {
  const char* shape = p.batch == 1 ? "gemv" : "gemm";
  if (p.precision == Precision::fp32) return std::string("s") + shape;
  return std::string(to_string(p.precision)) + " " + shape;
}

std::string GpuInfo::main_memory_name() const {
  return memory_bus_bits > kWidestNonStackedBusBits ? "HBM" : "DRAM";
}

double Measurement::level_bandwidth(std::string_view level) const {
  double best = 0;
  for (const BandwidthPoint& p : bandwidth) {
    if (p.level == level) best = std::max(best, p.bytes_per_s.median);
  }
  return best;
}

std::vector<std::string> Measurement::levels() const {
  std::vector<std::string> names;
  for (const BandwidthPoint& p : bandwidth) {
    if (std::find(names.begin(), names.end(), p.level) == names.end()) names.push_back(p.level);
  }
  return names;
}

void add_result_warnings(Measurement& m) {
  constexpr double kNoisyCv = 0.05;
  for (const PeakResult& p : m.peaks) {
    if (!p.validated)
      m.warnings.push_back(
          fmt::format("{} ({}) failed its result check", p.kernel, to_string(p.precision)));
    if (p.flops_per_s.cv > kNoisyCv) {
      m.warnings.push_back(
          fmt::format("{} peak varies by {:.0f}% between samples: the machine may be busy",
                      to_string(p.precision), p.flops_per_s.cv * 100));
    }
  }
  for (const BandwidthPoint& b : m.bandwidth) {
    if (!b.validated)
      m.warnings.push_back(fmt::format("{} at {} failed its result check", b.kernel,
                                       units::binary_bytes(b.working_set_bytes)));
  }
}

double measured_crossover_batch(const std::vector<BlasPoint>& sweep) {
  const auto gemv =
      std::find_if(sweep.begin(), sweep.end(), [](const BlasPoint& p) { return p.batch == 1; });
  if (gemv == sweep.end()) return 0;
  double best_rate = 0;
  for (const BlasPoint& p : sweep) {
    if (p.n == gemv->n) best_rate = std::max(best_rate, p.flops_per_s.median);
  }
  if (best_rate <= gemv->flops_per_s.median) return 0;
  // plateau time x best rate / FLOPs per column, which reduces to the ratio of the two rates.
  return best_rate / gemv->flops_per_s.median;
}

namespace {

// Independent ranks: means and spreads add as sums of independent variables.
Summary sum_of(const std::vector<const Summary*>& parts) {
  Summary total;
  double variance = 0;
  for (const Summary* p : parts) {
    total.min += p->min, total.median += p->median, total.max += p->max, total.mean += p->mean;
    variance += (p->cv * p->mean) * (p->cv * p->mean);
  }
  total.cv = total.mean > 0 ? std::sqrt(variance) / total.mean : 0;
  return total;
}

// For each point of the first rank, the same point of every rank (matched by `same`), summed by
// `add`; a point some rank lacks is left out and named in a warning.
template <typename Point, typename Same, typename Add>
std::vector<Point> sum_points(const std::vector<Measurement>& ranks,
                              std::vector<Point> Measurement::*points, Same same, Add add,
                              std::vector<std::string>& warnings) {
  std::vector<Point> total;
  for (const Point& first : ranks.front().*points) {
    std::vector<const Point*> matches;
    for (const Measurement& r : ranks) {
      const auto it = std::find_if((r.*points).begin(), (r.*points).end(),
                                   [&](const Point& p) { return same(p, first); });
      if (it != (r.*points).end()) matches.push_back(&*it);
    }
    if (matches.size() == ranks.size()) {
      total.push_back(add(first, matches));
    } else {
      warnings.push_back("a point not every rank measured was left out");
    }
  }
  return total;
}

}  // namespace

Measurement aggregate_measurements(const std::vector<Measurement>& ranks) {
  Measurement m = ranks.front();
  if (ranks.size() == 1) return m;
  m.threads = 0;
  m.warnings.clear();
  std::string hosts;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    m.threads += ranks[i].threads;
    if (hosts.find(ranks[i].host) == std::string::npos)
      hosts += (hosts.empty() ? "" : ", ") + ranks[i].host;
    for (const std::string& w : ranks[i].warnings)
      m.warnings.push_back("rank " + std::to_string(i) + ": " + w);
  }
  m.host = std::to_string(ranks.size()) + " ranks on " + hosts;
  m.peaks = sum_points(
      ranks, &Measurement::peaks,
      [](const PeakResult& a, const PeakResult& b) {
        return a.precision == b.precision && a.kernel == b.kernel;
      },
      [](const PeakResult& first, const std::vector<const PeakResult*>& all) {
        PeakResult p = first;
        std::vector<const Summary*> rates;
        p.flops_per_call = p.theoretical_flops_per_s = 0;
        for (const PeakResult* r : all) {
          rates.push_back(&r->flops_per_s);
          p.flops_per_call += r->flops_per_call;
          p.theoretical_flops_per_s += r->theoretical_flops_per_s;
          p.validated = p.validated && r->validated;
        }
        p.flops_per_s = sum_of(rates);
        return p;
      },
      m.warnings);
  m.bandwidth = sum_points(
      ranks, &Measurement::bandwidth,
      [](const BandwidthPoint& a, const BandwidthPoint& b) {
        return a.kernel == b.kernel && a.working_set_bytes == b.working_set_bytes &&
               a.level == b.level;
      },
      [](const BandwidthPoint& first, const std::vector<const BandwidthPoint*>& all) {
        BandwidthPoint p = first;
        std::vector<const Summary*> rates;
        for (const BandwidthPoint* r : all) {
          rates.push_back(&r->bytes_per_s);
          p.validated = p.validated && r->validated;
        }
        p.bytes_per_s = sum_of(rates);
        p.working_set_bytes *= static_cast<double>(all.size());
        return p;
      },
      m.warnings);
  // A GEMM's rate is the ranks' rates added; the rest is the first rank's.
  const auto add_rates = [](const auto& first, const auto& all) {
    auto p = first;
    std::vector<const Summary*> rates;
    for (const auto* r : all) rates.push_back(&r->flops_per_s);
    p.flops_per_s = sum_of(rates);
    return p;
  };
  m.blas = sum_points(
      ranks, &Measurement::blas,
      [](const BlasPoint& a, const BlasPoint& b) {
        return a.weights == b.weights && a.n == b.n && a.batch == b.batch;
      },
      add_rates, m.warnings);
  m.gemm_sweep = sum_points(
      ranks, &Measurement::gemm_sweep,
      [](const GemmSweepPoint& a, const GemmSweepPoint& b) {
        return a.m == b.m && a.n == b.n && a.k == b.k && a.groups == b.groups &&
               a.precision == b.precision;
      },
      add_rates, m.warnings);
  return m;
}

}  // namespace ridge
