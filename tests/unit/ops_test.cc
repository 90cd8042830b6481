#include <gtest/gtest.h>

#include "ridge/op.h"

namespace ridge {
namespace {

TEST(Ops, ElementwiseAddReadsTwoWritesOne) {
  const Op op = elementwise_add(10, 2);
  EXPECT_DOUBLE_EQ(op.flops, 10);
  EXPECT_DOUBLE_EQ(op.bytes, 60);
  EXPECT_EQ(op.label, "add n=10");
}

TEST(Ops, GemvCountsMatrixAndBothVectors) {
  const Op op = gemv(2, 3, 2);  // A 2x3, x of 3, y of 2
  EXPECT_DOUBLE_EQ(op.flops, 12);
  EXPECT_DOUBLE_EQ(op.bytes, (6 + 3 + 2) * 2);
  EXPECT_DOUBLE_EQ(gemv(4096, 4096, 2).bytes, (4096.0 * 4096 + 2 * 4096) * 2);
}

TEST(Ops, GemmWithGeneralShapeAndBatch) {
  const Op op = gemm(2, 3, 4, 4, 2);  // A 2x4, B 4x3, C 2x3, twice, fp32
  EXPECT_DOUBLE_EQ(op.flops, 2 * 2 * 3 * 4 * 2);
  EXPECT_DOUBLE_EQ(op.bytes, (8 + 12 + 6) * 4 * 2);
  EXPECT_EQ(op.label, "gemm 2x3x4 batch=2");
}

TEST(Ops, SquareGemmMatchesTheTextbookCount) {
  const Op op = gemm(4096, 4096, 4096, 2);
  EXPECT_DOUBLE_EQ(op.flops, 2 * 4096.0 * 4096 * 4096);
  EXPECT_DOUBLE_EQ(op.bytes, 3 * 4096.0 * 4096 * 2);
  EXPECT_NEAR(op.flops / op.bytes, 1365.333, 1e-3);
}

// The cache pass reads Q, K and V (8, 4 and 4 wide) and writes Q (2-byte elements) and K and V
// to the cache (1-byte); where the kernel reads the packed QKV buffer, K goes back into it too.
TEST(Ops, APackedCachePassWritesKBackBesideTheCache) {
  const Op separate = rotary_cache_write(3, 8, 4, 2, 1);
  EXPECT_DOUBLE_EQ(separate.bytes, 3 * ((8 + 4 + 4) * 2 + 8 * 2 + 2 * 4 * 1));
  const Op packed = rotary_cache_write(3, 8, 4, 2, 1, RotaryOutput::packed_qkv);
  EXPECT_DOUBLE_EQ(packed.bytes, separate.bytes + 3 * 4 * 2);
  EXPECT_DOUBLE_EQ(packed.flops, separate.flops);
}

// vLLM's cache write reads K and V and writes them into the cache, and launches a block a token
// of a thread an element of the token's K, at most 512.
TEST(Ops, VllmsCacheWriteLaunchesABlockAToken) {
  const Op narrow = cache_write(3, 128, 2, 1);
  EXPECT_DOUBLE_EQ(narrow.bytes, 2 * 3 * 128 * (2 + 1));
  ASSERT_TRUE(narrow.block_grid.has_value());
  EXPECT_DOUBLE_EQ(narrow.block_grid->blocks, 3);
  EXPECT_DOUBLE_EQ(narrow.block_grid->threads, 128);
  EXPECT_DOUBLE_EQ(cache_write(3, 8 * 128, 2, 2).block_grid->threads, 512);
}

TEST(Ops, FusedAttentionKeepsScoresOnChip) {
  const Op op = attention({.seq = 4, .d_head = 2, .heads = 2, .batch = 1}, 2);
  EXPECT_DOUBLE_EQ(op.flops, 4 * 4 * 4 * 2 * 2);  // 4 s^2 d per head
  EXPECT_DOUBLE_EQ(op.bytes, 4 * 4 * 2 * 2 * 2);  // Q, K, V, O per head
}

TEST(Ops, UnfusedAttentionMovesTheScoreMatrixFourTimes) {
  const Op fused = attention({.seq = 4, .d_head = 2, .heads = 2, .batch = 3}, 2);
  const Op unfused = attention({.seq = 4, .d_head = 2, .heads = 2, .batch = 3, .fused = false}, 2);
  EXPECT_DOUBLE_EQ(unfused.flops, fused.flops);
  EXPECT_DOUBLE_EQ(unfused.bytes - fused.bytes, 4 * 16 * 2 * 2 * 3);
  EXPECT_EQ(unfused.label, "attention seq=4 d_head=2 heads=2 batch=3 unfused");
}

// Causal: query i scores keys 0..i, seq (seq + 1) / 2 scores a head; Q, K, V and O still move
// once.
TEST(Ops, CausalAttentionScoresTheKeysUpToEachQuery) {
  AttentionShape shape{.seq = 4, .d_head = 2, .heads = 2, .batch = 1};
  shape.causal = true;
  const Op op = attention(shape, 2);
  EXPECT_DOUBLE_EQ(op.flops, 4 * 10 * 2 * 2);  // 1 + 2 + 3 + 4 scores a head
  EXPECT_DOUBLE_EQ(op.bytes, 4 * 4 * 2 * 2 * 2);
  EXPECT_EQ(op.label, "attention seq=4 d_head=2 heads=2 causal");
}

// A decode step over a cache: one query a sequence scores every cached key and itself; Q and O
// move per query head, K and V once per K and V head (grouped queries share them).
TEST(Ops, CachedAttentionReadsKeysOncePerKvHead) {
  AttentionShape shape{.seq = 1, .d_head = 128, .heads = 32, .batch = 4};
  shape.kv_seq = 1024;
  shape.kv_heads = 8;
  shape.causal = true;
  const Op op = attention(shape, 2);
  EXPECT_DOUBLE_EQ(op.flops, 4 * 1024 * 128 * 32 * 4);
  const double kv = 2 * 1024 * 128 * 2 * 8 * 4;
  EXPECT_DOUBLE_EQ(op.bytes, 2 * 128 * 2 * 32 * 4 + kv);
  EXPECT_DOUBLE_EQ(op.attention_shape->kv_bytes, kv);
  EXPECT_EQ(op.label, "attention seq=1 d_head=128 keys=1024 heads=32 kv_heads=8 batch=4 causal");
}

// DeepSeek's latent attention absorbed: 576-wide keys scored, 512-wide values summed, each cached
// latent read once for every query head, its first 512 elements the values.
TEST(Ops, LatentAttentionReadsEachLatentOnce) {
  AttentionShape shape{.seq = 1, .d_head = 576, .heads = 16, .batch = 2};
  shape.kv_seq = 4096;
  shape.kv_heads = 1;
  shape.d_value = 512;
  shape.values_in_keys = true;
  const Op op = attention(shape, 2);
  EXPECT_DOUBLE_EQ(op.flops, 2.0 * 4096 * (576 + 512) * 16 * 2);
  const double kv = 4096.0 * 576 * 2 * 2;
  EXPECT_DOUBLE_EQ(op.attention_shape->kv_bytes, kv);
  EXPECT_DOUBLE_EQ(op.bytes, (576.0 + 512) * 2 * 16 * 2 + kv);
  EXPECT_EQ(op.label,
            "attention seq=1 d_head=576 d_value=512 values-in-keys keys=4096 heads=16 kv_heads=1 "
            "batch=2");
}

// The pass before it in TensorRT-LLM (mla_rope_generation): each head's 64 rotary elements of
// the query turned and written back, each token's 576-wide latent read and written into the
// cache, its own 64 rotary elements turned.
TEST(Ops, LatentRotaryCacheWriteMovesTheRotaryQueriesAndTheLatent) {
  const Op op = latent_rotary_cache_write(8, 16, 64, 576, 2, 1);
  EXPECT_DOUBLE_EQ(op.flops, 3.0 * 8 * (16 * 64 + 64));
  EXPECT_DOUBLE_EQ(op.bytes, 2.0 * 8 * 16 * 64 * 2 + 8.0 * 576 * (2 + 1));
}

// K and V heads must divide the query heads; fewer keys than queries is cross-attention without
// a causal mask, and no attention with one (the mask takes the queries to be the last keys).
TEST(Ops, AttentionShapesSayWhyTheyAreNone) {
  AttentionShape cross{.seq = 8, .d_head = 64, .heads = 32};
  cross.kv_seq = 4;
  EXPECT_FALSE(attention_shape_problem(cross));
  EXPECT_DOUBLE_EQ(attention(cross, 2).flops, 4 * 8 * 4 * 64 * 32);
  AttentionShape causal = cross;
  causal.causal = true;
  EXPECT_EQ(attention_shape_problem(causal),
            "4 keys are fewer than the 8 queries of a causal attention");
  AttentionShape grouped = cross;
  grouped.kv_heads = 5;
  EXPECT_EQ(attention_shape_problem(grouped), "5 K and V heads do not divide the 32 query heads");
}

// A kernel's tile as its name writes it: M x N x K, whole numbers from 1 to kMaxTileSide, and
// nothing before, between or after them.
TEST(Ops, ConfiguredTilesParseAsTheirNamesWriteThem) {
  const auto tile = parse_configured_tile("128x256x64");
  ASSERT_TRUE(tile);
  EXPECT_EQ(tile->m, 128);
  EXPECT_EQ(tile->n, 256);
  EXPECT_EQ(tile->k, 64);
  EXPECT_TRUE(parse_configured_tile("1x1x4096"));
  for (const char* bad :
       {"", "128x128", "128x128x128x1", "128X128X128", " 128x128x128", "128x128x128 ", "0x128x128",
        "128x-1x128", "128x128x4097", "128x128x99999999999", "128x1.5x128", "axbxc", "128xx128"})
    EXPECT_FALSE(parse_configured_tile(bad)) << bad;
}

TEST(Ops, AttentionIntensityMatchesTheFlashAttentionAccounting) {
  const Op op = attention({.seq = 512, .d_head = 64}, 2);
  EXPECT_DOUBLE_EQ(op.flops / op.bytes, 256);
}

TEST(Ops, DecodeStepReadsEveryWeightOnce) {
  const Op op = decode_step(7e9, 8, 2);
  EXPECT_DOUBLE_EQ(op.flops, 2 * 7e9 * 8);
  EXPECT_DOUBLE_EQ(op.bytes, 14e9);
  EXPECT_EQ(op.label, "decode 7B params batch=8");
}

TEST(Ops, HugeModelsStayExact) {
  const Op op = decode_step(1e15, 1, 2);
  EXPECT_DOUBLE_EQ(op.flops, 2e15);
  EXPECT_DOUBLE_EQ(op.bytes, 2e15);
}

}  // namespace
}  // namespace ridge
