#pragma once
// Summary statistics of repeated timings.

#include <vector>

namespace ridge {

struct Summary {
  double min = 0;
  double median = 0;
  double max = 0;
  double mean = 0;
  double cv = 0;  // coefficient of variation: standard deviation / mean
};

// Needs at least one value.
Summary summarize(std::vector<double> values);

// The rates `work / seconds` of timed samples (FLOP/s, B/s), summarised.
Summary rate_summary(double work_per_sample, const std::vector<double>& seconds);

}  // namespace ridge
