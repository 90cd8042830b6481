#include "ops/triton_moe.h"

#include <algorithm>
#include <cmath>

namespace ridge {

FixedTile triton_moe_default_tile(double tokens, double local_experts) {
  return tokens <= local_experts ? kTritonMoeSmallTile : kTritonMoeTile;
}

bool same_tile(const FixedTile& a, const FixedTile& b) {
  return a.m == b.m && a.n == b.n && a.k == b.k;
}

double balanced_row_tiles(double experts, double rows, double tile_m) {
  return experts * std::ceil(rows / tile_m);
}

namespace {

// The probability of x successes in n trials at p, from its logarithm (n reaches the tens of
// thousands).
double binomial_pmf(double x, double n, double p) {
  if (p >= 1) return x == n ? 1 : 0;
  const double log_pmf = std::lgamma(n + 1) - std::lgamma(x + 1) - std::lgamma(n - x + 1) +
                         x * std::log(p) + (n - x) * std::log1p(-p);
  return std::exp(log_pmf);
}

// Standard deviations past the mean beyond which the binomial's tail adds nothing a tile count
// can feel.
constexpr double kTailDeviations = 12;

}  // namespace

double random_row_tiles(double experts, double tokens, double topk, double all_experts,
                        double tile_m) {
  const double p = std::min(1.0, topk / all_experts);
  const double mean = tokens * p;
  const double spread = kTailDeviations * std::sqrt(mean * (1 - p)) + 1;
  const double low = std::max(1.0, std::floor(mean - spread));
  const double high = std::min(tokens, std::ceil(mean + spread));
  double tiles = 0;
  for (double x = low; x <= high; ++x) tiles += binomial_pmf(x, tokens, p) * std::ceil(x / tile_m);
  return experts * tiles;
}

double random_active_experts(double experts, double tokens, double topk, double all_experts) {
  const double p = std::min(1.0, topk / all_experts);
  return experts * (1 - std::pow(1 - p, tokens));
}

}  // namespace ridge
