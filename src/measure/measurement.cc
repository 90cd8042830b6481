// What a measurement says beyond its raw points: levels, operation names, the crossover batch.
#include "ridge/measurement.h"

#include <algorithm>

namespace ridge {

namespace {

// Stacked memory (HBM) has buses of 1024 bits per stack; GDDR and DDR buses are at most 512.
constexpr int kWidestNonStackedBusBits = 512;

}  // namespace

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

}  // namespace ridge
