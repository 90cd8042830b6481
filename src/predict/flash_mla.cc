#include "predict/flash_mla.h"

#include <algorithm>
#include <cmath>

namespace ridge::predict {

namespace {

constexpr double kQueryRowsPerBlock = 64;   // block_size_m, Flash_fwd_kernel_traits_mla's kBlockM
constexpr double kKeysPerBlock = 64;        // block_size_n, its kBlockN
constexpr double kFixedOverheadBlocks = 5;  // fixed_overhead_num_blocks

}  // namespace

double flash_mla_tile_flops(const AttentionShape& s) {
  return 2 * kQueryRowsPerBlock * kKeysPerBlock * (s.d_head + s.value_width());
}

double flash_mla_tile_key_elements(const AttentionShape& s) { return kKeysPerBlock * s.d_head; }

FlashMlaPlan flash_mla_plan(const AttentionShape& s, double sms) {
  FlashMlaPlan p;
  const double rows_per_kv_head = s.seq * s.heads / s.key_heads();
  p.query_blocks = std::ceil(rows_per_kv_head / kQueryRowsPerBlock);
  p.parts = std::max(1.0, std::floor(sms / s.key_heads() / p.query_blocks));
  const double per_sequence = std::ceil(s.keys() / kKeysPerBlock);
  const double total = s.batch * (per_sequence + kFixedOverheadBlocks);
  const double payload = std::ceil(total / p.parts) + kFixedOverheadBlocks;
  p.busy_parts = std::min(p.parts, std::ceil(total / payload));
  // A part's payload is its key blocks plus 5 for each split it starts. The longest running part
  // starts the fewest: one where sequences are longer than a payload, else as many whole
  // sequences as the payload holds.
  p.splits = std::clamp(std::floor(payload / (per_sequence + kFixedOverheadBlocks)), 1.0, s.batch);
  p.key_blocks = std::clamp(payload - kFixedOverheadBlocks * p.splits, 1.0, s.batch * per_sequence);
  return p;
}

}  // namespace ridge::predict
