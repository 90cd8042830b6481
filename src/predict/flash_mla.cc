#include "predict/flash_mla.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ridge::predict {

namespace {

constexpr double kQueryRowsPerBlock = 64;   // block_size_m, Flash_fwd_kernel_traits_mla's kBlockM
constexpr double kKeysPerBlock = 64;        // block_size_n, its kBlockN
constexpr double kFixedOverheadBlocks = 5;  // fixed_overhead_num_blocks
constexpr double kAccumulatorBytes = 4;     // ElementAccum: float

// What one part takes: its key blocks and splits, and how many of its pieces belong to sequences
// another part shares.
struct PartWork {
  double key_blocks = 0;
  double splits = 0;
  double shared_pieces = 0;
  double cost() const { return key_blocks + kFixedOverheadBlocks * splits; }
};

}  // namespace

double flash_mla_tile_flops(const AttentionShape& s) {
  return 2 * kQueryRowsPerBlock * kKeysPerBlock * (s.d_head + s.value_width());
}

double flash_mla_tile_key_elements(const AttentionShape& s) { return kKeysPerBlock * s.d_head; }

double flash_mla_partial_bytes(const AttentionShape& s) {
  return s.seq * s.heads / s.key_heads() * (s.value_width() + 1) * kAccumulatorBytes;
}

FlashMlaPlan flash_mla_plan(const AttentionShape& s, double sms) {
  FlashMlaPlan p;
  const double rows_per_kv_head = s.seq * s.heads / s.key_heads();
  p.query_blocks = std::ceil(rows_per_kv_head / kQueryRowsPerBlock);
  p.parts = std::max(1.0, std::floor(sms / s.key_heads() / p.query_blocks));
  const double per_sequence = std::ceil(s.keys() / kKeysPerBlock);
  const double batch = std::max(1.0, std::round(s.batch));
  const double total = batch * (per_sequence + kFixedOverheadBlocks);
  const double payload = std::ceil(total / p.parts) + kFixedOverheadBlocks;
  // The scheduler's loop, one part after another over the sequences in order; the whole
  // sequences a part takes in a row are taken at once, so the loop is as long as the parts.
  std::vector<PartWork> work;
  double sequence = 0;     // the first sequence not yet finished
  double done_blocks = 0;  // of it, by the parts before
  double pieces = 0;       // it is in so far
  const auto finish_sequence = [&] {
    if (pieces > 1) {
      ++p.split_sequences;
      p.partial_outputs += pieces;
    }
    ++sequence;
    done_blocks = 0;
    pieces = 0;
  };
  for (double part = 0; part < p.parts && sequence < batch; ++part) {
    PartWork w;
    double remaining = payload;
    if (done_blocks > 0) {  // the rest of a sequence the part before began
      const double left = per_sequence - done_blocks;
      const bool whole = remaining >= left + kFixedOverheadBlocks;
      const double taken = whole ? left : remaining - kFixedOverheadBlocks;
      w.key_blocks += taken;
      ++w.splits;
      ++w.shared_pieces;
      ++pieces;
      if (!whole) {
        done_blocks += taken;
        work.push_back(w);
        continue;
      }
      remaining -= left + kFixedOverheadBlocks;
      finish_sequence();
    }
    const double whole_sequences =
        std::min(batch - sequence, std::floor(remaining / (per_sequence + kFixedOverheadBlocks)));
    w.key_blocks += whole_sequences * per_sequence;
    w.splits += whole_sequences;
    remaining -= whole_sequences * (per_sequence + kFixedOverheadBlocks);
    sequence += whole_sequences;
    if (sequence < batch && remaining - kFixedOverheadBlocks > 0) {  // a piece of the next
      w.key_blocks += remaining - kFixedOverheadBlocks;
      ++w.splits;
      ++w.shared_pieces;
      done_blocks = remaining - kFixedOverheadBlocks;
      pieces = 1;
    }
    if (w.splits > 0) work.push_back(w);
  }
  if (pieces > 0) finish_sequence();  // the last part's piece, which the payload always ends
  p.busy_parts = static_cast<double>(work.size());
  if (work.empty()) return p;
  // The longest running part by the scheduler's own measure, its key blocks and 5 a split.
  const PartWork& longest =
      *std::max_element(work.begin(), work.end(), [](const PartWork& a, const PartWork& b) {
        return a.cost() < b.cost() || (a.cost() == b.cost() && a.key_blocks < b.key_blocks);
      });
  p.key_blocks = std::max(1.0, longest.key_blocks);
  p.splits = std::max(1.0, longest.splits);
  p.partial_splits = longest.shared_pieces;
  return p;
}

}  // namespace ridge::predict
