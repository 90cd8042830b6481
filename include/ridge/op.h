#pragma once
// FLOP and byte counts of operations. Bytes assume the ideal kernel: every input read once from
// main memory, every output written once, all reuse on chip. Real kernels move more, so the
// intensities are upper bounds and the times lower bounds.

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

namespace ridge {

// A grouped product run by a kernel whose tile is fixed, not chosen for the shape: vLLM's Triton
// fused-MoE kernel at its default configuration. Its grid is `row_tiles` tiles of `m` rows (each
// expert's rows padded to whole tiles) times the tiles of `n` columns across the output, each
// stepping through K `k` at a time.
struct FixedTile {
  double m = 0, n = 0, k = 0;
  double row_tiles = 0;
};

// A library's kernel run at one configuration, not at the one its heuristics or tuner would pick
// for the shape: CUTLASS's kernel at a tile of `m` by `n` (whole tiles in waves over the SMs, K
// never split), stepping `k` deep (0: no depth of its own), so that a K not a whole number of
// steps is multiplied as the next whole number (the step's tail zero-filled), as TensorRT-LLM's
// NVFP4 GEMM runs where its tuner has not run, and sgl-kernel's fp8 GEMM on SM120 always.
struct ConfiguredTile {
  int m = 0, n = 0, k = 0;
};

// The largest side a ConfiguredTile may have: past a tile of a few hundred rows no SM holds the
// accumulators, so a larger side is a typing slip, not a kernel.
inline constexpr int kMaxTileSide = 4096;

// A tile written M x N x K as the kernels' names write it ("128x128x128"): three whole numbers
// from 1 to kMaxTileSide; nullopt where the text is not one.
std::optional<ConfiguredTile> parse_configured_tile(std::string_view text);

// What parse_configured_tile takes, in words, for a message on text it refused.
std::string configured_tile_form();

// CUTLASS's grouped (pointer-array) kernels: whole tiles dealt out group after group to
// persistent blocks, no K split, and each time an SM's next tile belongs to another group its
// producer rewrites and fences the group's TMA descriptors. The block-scaled kind (NVFP4's
// products: CUTLASS's sm100_blockscaled_mma_array_warpspecialized) also loads and applies its
// operands' scale factors; the plain kind (16-bit and per-tensor fp8 products:
// sm100_mma_array_warpspecialized; on Hopper sm90_mma_array_tma_gmma_ss_warpspecialized and its
// _fp8 variant) does not.
enum class GroupedKernel { none, plain, block_scaled };

// The grouped kernel for products whose tensor cores apply block scales (NVFP4's) or not.
inline GroupedKernel cutlass_grouped_kernel(bool block_scaled) {
  return block_scaled ? GroupedKernel::block_scaled : GroupedKernel::plain;
}

// The sizes of a matrix product C = A B (A m-by-k, B k-by-n), `batch` independent (or grouped)
// products: what tile and wave quantisation reason about.
struct GemmShape {
  GemmShape(double rows = 0, double columns = 0, double depth = 0, double products = 1)
      : m(rows), n(columns), k(depth), batch(products) {}

  double m, n, k, batch;
  // The kernel's own tile where it has one (FixedTile); else a vendor library picks the tiling.
  std::optional<FixedTile> fixed_tile;
  // The library kernel's configuration where the caller knows it (ConfiguredTile).
  std::optional<ConfiguredTile> configured_tile;
  // A grouped product run by CUTLASS's grouped (pointer-array) kernel, as TensorRT-LLM's MoE
  // runs its experts (GroupedKernel); none: not such a kernel.
  GroupedKernel grouped = GroupedKernel::none;

  // The TMA descriptors the grouped kernel switches at each change of group, one after
  // another, before that tile's loads can issue (Calibration::gemm_descriptor_switch_s): A's and
  // B's, and their scale factors' too where the tensor cores apply block scales; 0 for any other
  // kernel.
  double group_descriptors() const {
    if (grouped == GroupedKernel::none) return 0;
    return grouped == GroupedKernel::block_scaled ? 4 : 2;
  }
};

// A kernel that gives each block one small item (vLLM's cache write: a block a token): `blocks`
// blocks of `threads` threads each. An SM holds only so many blocks at once, so they go in
// rounds, and each round's life, from its blocks' launch through their dependent loads to their
// stores, adds to what the kernel's few bytes take.
struct BlockGrid {
  double blocks = 0;
  double threads = 0;
};

struct AttentionShape {
  double seq = 0;  // query positions per sequence
  double d_head = 0;
  double heads = 1;
  double batch = 1;
  bool fused = true;    // FlashAttention: the seq-by-seq scores never reach main memory
  double kv_seq = 0;    // keys per query; 0: the same as seq (self-attention over the sequence)
  bool causal = false;  // each query attends to the keys up to its own position (Op attention)
  double kv_heads = 0;  // heads of K and V (grouped-query attention); 0: as many as of queries
  // The values' width where it is not the keys' (d_head): DeepSeek's latent attention in decode
  // scores 576-wide keys and sums 512-wide values. 0: d_head.
  double d_value = 0;
  // The values are each key's first d_value elements, read with it, not a tensor of their own:
  // the latent cache of DeepSeek's attention, absorbed (FlashMLA and its kin read it once).
  bool values_in_keys = false;
  // What the kernel itself reads beyond the op's ideal bytes: a decode kernel that runs each
  // query head on its own reads its group's K and V once per query head, not once per group.
  double kv_bytes = 0;  // of the op's bytes, the K and V read once
  double kv_reads = 1;  // how often the kernel reads them (1: the query heads of a group share)
  // A decode kernel of TensorRT-LLM's on Ampere and Hopper over a 16-bit cache: for grouped
  // queries XQA, which deals each sequence's keys out in blocks, each paying the calibration's
  // cost (Calibration::attention_decode_block_overhead_s); for as many K and V heads as query
  // heads (or K and V read per query head) the masked MHA kernel, which splits each sequence's
  // keys over a few blocks for each query head as its launch code sizes them.
  bool trtllm_decode_blocks = false;
  // A prompt's fused attention runs TensorRT-LLM's context FMHA kernels: the calibration's rate
  // for them (Calibration::attention_trtllm_efficiency_d128) where it has one, else
  // FlashAttention's.
  bool trtllm_fmha = false;
  // A decode step run by FlashAttention-2's split-KV kernel (vLLM's build of it below SM90): for
  // grouped queries its keys split by FlashAttention-2's own heuristic, else a block for each
  // sequence and head; its blocks in waves over as many as the SMs hold, each paying the
  // calibration's decode block cost as XQA's do.
  bool flash2_split_kv = false;
  // A decode step run by FlashAttention-3's persistent kernel (vLLM's build on SM90, whose varlen
  // calls take its persistent tile scheduler): one wave of CTAs, as many as the SMs, stream the
  // keys evenly, each paying the calibration's decode block cost once, as a wave of XQA's does.
  bool flash3_persistent = false;
  // A decode step run by FlashMLA's split-KV kernel (DeepSeek's latent attention on Hopper): its
  // keys dealt out to parts of the SMs by its own tile scheduler (predict::flash_mla_plan), each
  // 64-key block a tile of 64 query rows, each split paying the calibration's decode block cost,
  // and its combine kernel after it reading back the pieces of sequences parts share.
  bool flash_mla = false;

  double keys() const { return kv_seq > 0 ? kv_seq : seq; }
  // TensorRT-LLM's XQA kernel, its keys in blocks (trtllm_decode_blocks above).
  bool trtllm_xqa_blocks() const {
    return trtllm_decode_blocks && kv_reads == 1 && key_heads() < heads;
  }
  // TensorRT-LLM's masked MHA kernel, its keys in blocks: a decode step that XQA does not take.
  bool trtllm_mmha_blocks() const {
    return trtllm_decode_blocks && seq <= 1 && !trtllm_xqa_blocks();
  }
  double key_heads() const { return kv_heads > 0 ? kv_heads : heads; }
  double value_width() const { return d_value > 0 ? d_value : d_head; }
  // The (sequence, K/V head) pairs a decode step reads K and V for.
  double kv_pairs() const { return batch * key_heads(); }
  // FlashAttention-2's split-KV blocks (flash2_split_kv above): a decode step.
  bool flash2_split_blocks() const { return flash2_split_kv && seq <= 1 && kv_reads == 1; }
  // FlashAttention-3's persistent CTAs (flash3_persistent above): a decode step.
  bool flash3_persistent_blocks() const { return flash3_persistent && seq <= 1 && kv_reads == 1; }
  // FlashMLA's split-KV schedule (flash_mla above): its queries in blocks of 64 rows.
  bool flash_mla_blocks() const { return flash_mla && kv_reads == 1; }
  // The kernels one call launches: FlashMLA's split kernel and its combine kernel after it
  // (run_mha_fwd_splitkv_mla launches both every call), one otherwise.
  double kernels() const { return flash_mla_blocks() ? 2 : 1; }
  // Query-key scores of one head of one sequence: every key for every query, or causal, a
  // cache's keys and, within the sequence, the keys up to each query's own position.
  double scores() const {
    if (!causal) return seq * keys();
    return seq * (seq + 1) / 2 + seq * std::max(0.0, keys() - seq);
  }
};

// The kernels an op of this attention shape launches a call: the shape's, one for any other op
// (Op::kernels, ModelOp::kernels).
inline double kernels_launched(const std::optional<AttentionShape>& attention) {
  return attention ? attention->kernels() : 1;
}

struct Op {
  std::string kind;   // "add", "gemv", "gemm", "attention", "decode"
  std::string label;  // the operation with its sizes, for people
  double flops = 0;
  double bytes = 0;
  // The shape, where the operation is a matrix product or attention; prediction reasons about
  // tiles and waves from it. Element-wise work needs none.
  std::optional<GemmShape> gemm_shape;
  std::optional<AttentionShape> attention_shape;
  // Its launch where that, not its work, can set its time (BlockGrid); none for most kernels.
  std::optional<BlockGrid> block_grid;
  // An element-wise kernel's loads that each of its blocks waits on one after another, beside
  // its bytes: a binary search through a small table for every row a block handles, a loop whose
  // every step reads before it goes on. The kernel takes at least this many round trips to the
  // L2 (Calibration::chained_load_s); 0 for most kernels, and products and attention ignore it.
  double chained_loads = 0;
  // TensorRT-LLM's per-tensor amax (computeFP8QuantizeScale, PER_TENSOR): a fixed grid of 1024
  // blocks of 1024 threads, each reading the input two bytes at a time and sending its block's
  // maximum to the one scale by atomicMax, after a memset zeroes it. Neither its fixed part nor
  // its rate is an element-wise pass's (Calibration::amax_grid_floor_s).
  bool fixed_grid_amax = false;
  // The kernels it launches, each paying a kernel's floor and its launch.
  double kernels() const { return kernels_launched(attention_shape); }
};

// c = a + b over n elements: one FLOP per element, two reads and one write.
Op elementwise_add(double n, double element_bytes);

// y = A x with A of m rows and n columns: 2mn FLOP; A, x and y each cross memory once.
Op gemv(double m, double n, double element_bytes);

// C = A B with A m-by-k and B k-by-n, `batch` independent products: 2mnk FLOP each;
// A, B and C each cross memory once.
Op gemm(double m, double n, double k, double element_bytes, double batch = 1);

// Self-attention, per head 2 seq keys (d + dv) FLOP (QK^T over the keys' width d, PV over the
// values' dv; softmax is not counted), causal for each score a query reaches up to its own
// position (a cache's keys and seq (seq + 1) / 2 within the sequence). Fused: Q in and O out per
// query head, K and V in once per K and V head (V not at all where it is part of K). Unfused:
// the scores are also written, read and written again by the softmax, and read by PV.
Op attention(const AttentionShape& shape, double element_bytes);

// Why a shape is no attention: K and V heads that do not divide the query heads, or a causal one
// with fewer keys than queries; none when it is one.
std::optional<std::string> attention_shape_problem(const AttentionShape& shape);

// Where the pass below leaves the turned Q for the fused kernel. In a buffer of its own, where
// the kernel reads K and V from the cache (vLLM, gpt-fast, TensorRT-LLM's paged context FMHA);
// or back in the packed QKV buffer the kernel reads, where TensorRT-LLM's preprocessing writes
// the turned K back beside it (`QKVPreprocessingParams::qkv_input`, a destination too unless
// `separate_q_kv_output`, which its attention op sets only for the paged context FMHA).
enum class RotaryOutput { separate_q, packed_qkv };

// The pass an engine runs between the Q, K and V projections and the fused attention kernel,
// over `tokens` tokens with `q_width` query and `kv_width` key (and value) elements each: the
// rotary embedding turns Q and K (3 FLOP an element), and K and V are written to the cache.
// Q, K and V are read once and written once, K and V at the cache's `kv_bytes` an element; the
// packed buffer's K once more.
Op rotary_cache_write(double tokens, double q_width, double kv_width, double element_bytes,
                      double kv_bytes, RotaryOutput output = RotaryOutput::separate_q);

// The same pass for DeepSeek's latent attention in decode (TensorRT-LLM's mla_rope_generation,
// invokeMLARopeGeneration): each of the `heads` queries' `rope_width` rotary elements turned
// and written back into the fused queries, and each token's `latent_width`-wide latent, its own
// `rope_width` rotary elements turned, read and written into the cache at `kv_bytes` an element.
Op latent_rotary_cache_write(double tokens, double heads, double rope_width, double latent_width,
                             double element_bytes, double kv_bytes);

// The new tokens' K and V written into the cache alone, `kv_width` elements each a token (vLLM's
// reshape_and_cache_flash, its attention backends' first kernel; the rotary embedding runs before
// the backend): read at `element_bytes`, written at the cache's `kv_bytes`. Its grid is vLLM's:
// a block a token, of a thread an element of the token's K, at most 512 (csrc/cache_kernels.cu,
// reshape_and_cache_flash: grid(num_tokens), block(min(num_heads * head_size, 512))).
Op cache_write(double tokens, double kv_width, double element_bytes, double kv_bytes);

// One decode step of a dense model: each weight read once and used for 2 FLOP per sequence.
// KV-cache traffic is not counted here.
Op decode_step(double params, double batch, double element_bytes);

// An operation written as its kind and sizes, as `ridge chart --op` takes it:
//   "add n=67108864", "gemv m=4096 n=4096", "gemm m=4096 n=4096 k=4096 [batch=8]",
//   "attention seq=8192 d=128 [heads=32] [batch=4] [unfused]", "decode params=7e9 [batch=8]".
// Bad input naming the text and what is wrong with it.
Op parse_op_spec(std::string_view text, double element_bytes);

}  // namespace ridge
