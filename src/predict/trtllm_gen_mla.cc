#include "predict/trtllm_gen_mla.h"

#include <algorithm>
#include <cmath>

namespace ridge::predict {

namespace {

// The low-latency kernel's tiles of query heads (tileSizeQ): 8 up to 8 heads, else 16.
constexpr double kSmallHeadTile = 8;
constexpr double kHeadTile = 16;
// Up to so many query heads a K/V head the low-latency kernel runs whatever the step.
constexpr double kLowLatencyHeads = 32;
// useSwapsMmaAbMlaGenKernel's step of keys a CTA (it assumes stepKv = 256) and the most keys a
// CTA may take for the low-latency kernel to run past 32 heads.
constexpr double kKeysPerCtaStep = 256;
constexpr double kMostKeysPerCta = 1024;

double head_tile(double heads) { return heads <= kSmallHeadTile ? kSmallHeadTile : kHeadTile; }

// useSwapsMmaAbMlaGenKernel: the CTAs of every sequence's tiles of 16 heads fit on the SMs, and
// each, its keys split over as many CTAs as the SMs leave room for (up to one a 256 keys),
// takes no more than 1,024 of them.
bool low_latency_fits(double heads, double sequences, double keys, double sms) {
  const double ctas = sequences * std::ceil(heads / kHeadTile);
  const double ctas_per_sequence =
      std::min(std::ceil(keys / kKeysPerCtaStep), std::max(1.0, std::floor(sms / ctas)));
  return std::ceil(keys / ctas_per_sequence) <= kMostKeysPerCta && ctas <= sms;
}

}  // namespace

double trtllm_gen_mla_key_reads(const AttentionShape& s, double sms) {
  if (!s.values_in_keys || s.seq > 1) return 1;
  const double heads = s.heads / s.key_heads();  // mNumHeadsQPerKv
  if (heads > kLowLatencyHeads && !low_latency_fits(heads, s.batch, s.keys(), sms)) return 1;
  return std::ceil(heads / head_tile(heads));
}

}  // namespace ridge::predict
