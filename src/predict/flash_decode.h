#pragma once
// FlashAttention-2's split-KV kernel (csrc/flash_attn/flash_api.cpp and
// flash_fwd_launch_template.h, vllm-project/flash-attention @ 2adfc8c2, the build vLLM 0.14
// pins), which runs vLLM's decode steps and, over its paged cache, its prompts too: its blocks,
// how it splits a decode step's keys over them and how many of them an SM holds.

#include "ridge/device.h"
#include "ridge/op.h"

namespace ridge::predict {

// The query rows of one block of the kernel (kBlockM of run_mha_fwd_splitkv_dispatch): 64 at
// every head dimension.
double flash2_query_rows();

// The keys one block of the kernel takes at a step (kBlockN of run_mha_fwd_splitkv_dispatch):
// 256 for heads of 64 dimensions or fewer, 128 to 128, 64 past that.
double flash2_key_block(double d_head);

// Whether FlashAttention-2 runs this step with each K/V head's group of query heads as one
// sequence of that many queries (seqlenq_ngroups_swapped in mha_varlen_fwd): a decode step of
// grouped queries. Only such a step is split, and only such a step is copied into and out of
// that layout.
bool flash2_swaps_groups(const AttentionShape& s);

// How many splits num_splits_heuristic gives a decode step of grouped queries, each group of
// query heads one sequence of that many queries (seqlenq_ngroups_swapped): none where the
// groups' blocks nearly fill twice the SMs (it assumes two blocks an SM); else, of the split
// counts that change the key blocks a split takes, the fewest whose waves fill at least 0.85
// of the best filling, at most 128. Without grouped queries it never runs: one block a sequence
// and head takes all its keys.
double flash2_decode_splits(const AttentionShape& s, double sms);

// The groups' blocks of 64 query rows (kBlockM) for each sequence and K/V head.
double flash2_query_blocks(const AttentionShape& s);

// How many of the kernel's blocks one SM of `device` holds at once: as many as its shared
// memory fits (a block keeps its 64 query rows and one key block of K and of V, 16-bit), at
// most the two its heuristic assumes; 1 where the catalog gives no shared memory.
double flash2_blocks_per_sm(const Device& device, double d_head);

}  // namespace ridge::predict
