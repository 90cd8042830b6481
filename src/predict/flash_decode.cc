#include "predict/flash_decode.h"

#include <algorithm>
#include <cmath>

namespace ridge::predict {

namespace {

constexpr double kQueryRowsPerBlock = 64;  // kBlockM of the split-KV kernels
constexpr double kHeuristicBlocksPerSm = 2;
constexpr double kElementBytes = 2;

}  // namespace

double flash2_query_rows() { return kQueryRowsPerBlock; }

double flash2_key_block(double d_head) { return d_head <= 64 ? 256 : d_head <= 128 ? 128 : 64; }

double flash2_query_blocks(const AttentionShape& s) {
  return std::ceil(s.heads / s.key_heads() / kQueryRowsPerBlock);
}

bool flash2_swaps_groups(const AttentionShape& s) { return s.seq <= 1 && s.key_heads() < s.heads; }

double flash2_decode_splits(const AttentionShape& s, double sms) {
  if (!flash2_swaps_groups(s)) return 1;
  const double key_blocks = std::ceil(s.keys() / flash2_key_block(s.d_head));
  const double blocks = s.kv_pairs() * flash2_query_blocks(s);
  const double slots = kHeuristicBlocksPerSm * sms;
  if (blocks >= 0.8 * slots) return 1;
  const double most = std::min({128.0, slots, key_blocks});
  const auto eligible = [key_blocks](double splits) {
    return splits == 1 || std::ceil(key_blocks / splits) != std::ceil(key_blocks / (splits - 1));
  };
  const auto filling = [blocks, slots](double splits) {
    const double waves = blocks * splits / slots;
    return waves / std::ceil(waves);
  };
  double best = 0;
  for (double splits = 1; splits <= most; ++splits)
    if (eligible(splits)) best = std::max(best, filling(splits));
  for (double splits = 1; splits <= most; ++splits)
    if (eligible(splits) && filling(splits) >= 0.85 * best) return splits;
  return 1;
}

double flash2_blocks_per_sm(const Device& device, double d_head) {
  const auto shared = std::ranges::find(device.memory, MemoryKind::shared, &MemoryLevel::kind);
  if (shared == device.memory.end() || !shared->capacity_bytes) return 1;
  const double block_bytes =
      (kQueryRowsPerBlock + 2 * flash2_key_block(d_head)) * d_head * kElementBytes;
  return std::clamp(std::floor(shared->capacity_bytes->value / block_bytes), 1.0,
                    kHeuristicBlocksPerSm);
}

}  // namespace ridge::predict
