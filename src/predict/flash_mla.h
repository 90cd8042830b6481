#pragma once
// FlashMLA's split-KV decode kernel (DeepSeek's latent attention on Hopper, as TensorRT-LLM's
// AttentionOp::mlaGeneration runs it and vLLM's FlashMLA backend): how its tile scheduler deals a
// step's keys out to its SM parts (get_mla_metadata_kernel in flash_mla's metadata code, and
// TensorRT-LLM's getFlashMlaNumSmParts), and what its combine kernel reads back.

#include "ridge/op.h"

namespace ridge::predict {

// The kernel's plan for one step: its CTAs (one an SM: __launch_bounds__(256, 1)), each part of
// the SMs taking a contiguous run of the sequences' key blocks.
struct FlashMlaPlan {
  double query_blocks = 0;  // blocks of 64 query rows (kBlockM) each K/V head's queries take
  double parts = 0;         // num_sm_parts: the SMs over the K/V heads and query blocks
  double busy_parts = 0;    // the parts the schedule gives work
  double key_blocks = 0;    // the 64-key blocks (kBlockN) of the longest running part
  double splits = 0;        // the sequences (or pieces of one) it starts, each a split
  // Of those, the pieces of sequences that more than one part shares: each writes its rows'
  // partial output in fp32 (oaccum) for the combine kernel.
  double partial_splits = 0;
  double split_sequences = 0;  // sequences more than one part shares
  double partial_outputs = 0;  // their pieces, over all parts
};

// The FLOPs of one tile, 64 query rows by 64 keys, and the elements of K (with V inside it)
// it reads.
double flash_mla_tile_flops(const AttentionShape& s);
double flash_mla_tile_key_elements(const AttentionShape& s);

// The bytes a piece of a shared sequence writes for each K/V head, and the combine kernel reads
// back: each query row's partial output (the value width in fp32) and its log-sum-exp.
double flash_mla_partial_bytes(const AttentionShape& s);

// The schedule get_mla_metadata_kernel computes, part by part as it does: each sequence costs its
// key blocks plus 5 (the fixed_overhead_num_blocks it charges a split), the payload is the total
// over the parts rounded up plus those 5 again, and each part takes whole sequences while its
// payload holds them, then as many blocks of the next as the payload leaves beyond its 5.
FlashMlaPlan flash_mla_plan(const AttentionShape& s, double sms);

}  // namespace ridge::predict
