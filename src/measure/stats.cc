#include "ridge/stats.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

namespace ridge {

Summary summarize(std::vector<double> values) {
  assert(!values.empty());
  std::ranges::sort(values);
  const std::size_t n = values.size();
  Summary s;
  s.min = values.front();
  s.max = values.back();
  s.median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(n);
  double squares = 0;
  for (double v : values) squares += (v - s.mean) * (v - s.mean);
  const double stddev = n > 1 ? std::sqrt(squares / static_cast<double>(n - 1)) : 0;
  s.cv = s.mean != 0 ? stddev / s.mean : 0;
  return s;
}

Summary rate_summary(double work_per_sample, const std::vector<double>& seconds) {
  std::vector<double> rates;
  rates.reserve(seconds.size());
  for (double s : seconds) rates.push_back(work_per_sample / s);
  return summarize(std::move(rates));
}

}  // namespace ridge
