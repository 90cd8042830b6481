#include <algorithm>
#include <chrono>
#include <memory>

#include "ridge/measure.h"

namespace ridge {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

double timer_resolution_s() {
  double smallest = 1;
  for (int i = 0; i < 100; ++i) {
    const Clock::time_point start = Clock::now();
    Clock::time_point now = start;
    while (now == start) now = Clock::now();
    smallest = std::min(smallest, std::chrono::duration<double>(now - start).count());
  }
  return smallest;
}

Stopwatch host_stopwatch() {
  auto start = std::make_shared<Clock::time_point>();
  return {[start] { *start = Clock::now(); }, [start] { return seconds_since(*start); }};
}

Timing time_calls(const std::function<void()>& body, const TimingOptions& options,
                  const Stopwatch& watch) {
  const auto time_sample = [&](long calls) {
    watch.start();
    for (long i = 0; i < calls; ++i) body();
    return watch.stop();
  };
  time_sample(std::max(1, options.warmups));
  // Calibrate: double the calls per sample until one sample lasts long enough.
  long calls = 1;
  double sample_s = 0;
  for (;;) {
    sample_s = time_sample(calls);
    if (sample_s >= options.min_sample_s || calls >= (1L << 30)) break;
    calls *= 2;
  }
  int samples = std::max(1, options.samples);
  if (options.max_point_s > 0) {
    samples = std::clamp(static_cast<int>(options.max_point_s / std::max(sample_s, 1e-9)),
                         std::min(3, samples), samples);
  }
  Timing t;
  for (int s = 0; s < samples; ++s)
    t.seconds_per_call.push_back(time_sample(calls) / static_cast<double>(calls));
  t.summary = summarize(t.seconds_per_call);
  return t;
}

}  // namespace ridge
