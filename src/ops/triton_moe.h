#pragma once
// vLLM's Triton fused-MoE kernel (fused_moe_kernel, vllm/model_executor/layers/fused_moe/
// fused_moe.py) at the configuration it falls back to where it ships no tuned one for the part
// and shape (get_default_config as it stood until vLLM's pull request 34846 of February 2026,
// vLLM 0.14 among the releases that have it): which tile a call runs, and how many tiles of rows
// its grid does work for.

#include "ridge/op.h"

namespace ridge {

// 64 by 64 output tiles stepping 32 deep through K (GROUP_SIZE_M 8); where the call has no more
// tokens than the GPU has experts, 16 by 32 stepping 64 deep (GROUP_SIZE_M 1). num_warps and
// num_stages are left to Triton's defaults.
inline constexpr FixedTile kTritonMoeTile{64, 64, 32};
inline constexpr FixedTile kTritonMoeSmallTile{16, 32, 64};

// The default tile of a call over `tokens` tokens on a GPU holding `local_experts` experts (its
// M and E: get_default_config compares the tokens with w1's experts, this GPU's).
FixedTile triton_moe_default_tile(double tokens, double local_experts);

// Whether two tiles are the same shape (their row tiles aside).
bool same_tile(const FixedTile& a, const FixedTile& b);

// The row tiles of `tile_m` rows that `experts` experts' pairs fill when each expert receives
// `rows` of them (balanced routing): each expert's rows padded to whole tiles.
double balanced_row_tiles(double experts, double rows, double tile_m);

// The same, on average, when each of `tokens` tokens picks `topk` of `all_experts` experts at
// random (vLLM's benchmark_moe.py: top-k of the softmax of normal logits), for `experts` of
// them: each receives a binomial number of rows, tokens trials at topk / all_experts.
double random_row_tiles(double experts, double tokens, double topk, double all_experts,
                        double tile_m);

// How many of `experts` of the `all_experts` experts receive a row on average under that random
// routing.
double random_active_experts(double experts, double tokens, double topk, double all_experts);

}  // namespace ridge
