#include "predict/mmha_decode.h"

#include <algorithm>
#include <cmath>

namespace ridge::predict {

namespace {

constexpr double kBaseThreads = 256;    // THDS_PER_BLOCK of the dispatch
constexpr double kThreadsPerSm = 1024;  // "the max number of warps ... per SM is 32"
constexpr double kBasePerSm = kThreadsPerSm / kBaseThreads;
constexpr double kMaxThreads = 1024;       // "max block size is 1024"
constexpr double kLoadBytes = 16;          // each thread's load of a key or value
constexpr double kKeysUnrolled = 8;        // the loop's unroll over keys
constexpr double kElementBytes = 2;        // a 16-bit cache
constexpr double kPairsPerSmForPlain = 4;  // from four blocks an SM, no tuning and no split

// The head's dimension rounded up to a power of two (mmha::dh_max).
double padded_head(double d_head) { return std::exp2(std::ceil(std::log2(std::max(1.0, d_head)))); }

}  // namespace

MmhaGrid mmha_grid(double pairs, double keys, double sms, double d_head) {
  MmhaGrid g;
  g.threads = kBaseThreads;
  g.per_sm = kBasePerSm;
  if (pairs >= sms * kPairsPerSmForPlain) return g;
  const double factor = std::min(std::ceil(sms * kBasePerSm / pairs), kBasePerSm);
  g.threads = std::min(kBaseThreads * factor, kMaxThreads);
  g.per_sm = std::max(1.0, std::floor(kThreadsPerSm / g.threads));
  const double balanced = std::ceil(sms * g.per_sm / pairs);
  const double threads_per_value = padded_head(d_head) * kElementBytes / kLoadBytes;
  const double keys_per_loop = std::ceil(g.threads / threads_per_value) * kKeysUnrolled;
  const double most = std::min(std::ceil(sms / pairs), std::ceil((keys + 1) / keys_per_loop));
  g.per_pair = std::max(1.0, std::min(balanced, most));
  return g;
}

}  // namespace ridge::predict
