// Today's architectures: parameters by hand against the model cards, the KV cache of each
// attention kind by hand, attention spans, latent attention, quantisation formats and expert
// parallelism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "ridge/catalog.h"
#include "ridge/collective.h"
#include "ridge/error.h"
#include "ridge/inference.h"
#include "ridge/model.h"
#include "ridge/quantization.h"

namespace ridge {
namespace {

const Device& device(const char* id) { return Catalog::builtin().get(id); }

const ModelOp& op(const PhaseResult& phase, const std::string& name) {
  const auto it = std::ranges::find(phase.ops, name, &ModelOp::name);
  EXPECT_NE(it, phase.ops.end()) << name;
  static const ModelOp none;
  return it == phase.ops.end() ? none : *it;
}

bool has_op(const PhaseResult& phase, const std::string& name) {
  return std::ranges::find(phase.ops, name, &ModelOp::name) != phase.ops.end();
}

double relative(double ours, double published) { return std::abs(ours / published - 1); }

// The model cards' totals (../shared/models/README.md): within 2%, as the issue asks. gpt-oss's
// card counts active parameters without the embedding table (its Table 1: 3.61B = 0.64B
// attention + 2.39B of four experts + 0.58B unembedding); the others count it.
TEST(Architectures, EveryPresetHasItsPublishedTotals) {
  struct Card {
    const char* preset;
    double total;
    double active;  // 0: dense
    bool card_counts_embedding = true;
  };
  for (const Card& card : std::initializer_list<Card>{
           {"deepseek-v3", 671e9, 37e9},
           {"qwen3-8b", 8.2e9, 0},
           {"qwen3-30b-a3b", 30.5e9, 3.3e9},
           {"qwen3-32b", 32.8e9, 0},
           {"qwen3-235b-a22b", 235e9, 22e9},
           {"gpt-oss-120b", 116.8e9, 5.1e9, false},
           {"gpt-oss-20b", 20.9e9, 3.6e9, false},
           {"llama-4-scout-17b-16e", 109e9, 17e9},
           {"gemma-2-9b", 9.24e9, 0},
           {"phi-3-mini-4k", 3.8e9, 0},
           {"mixtral-8x22b", 141e9, 39e9},
           {"olmo-2-7b", 7.3e9, 0},
           // The twenty-fifth session's presets, against their model cards.
           {"llama-3.2-1b", 1.23e9, 0},
           {"llama-3.2-3b", 3.21e9, 0},
           {"qwen2.5-3b", 3.09e9, 0},
           {"qwen2.5-14b", 14.7e9, 0},
           {"qwen2.5-32b", 32.5e9, 0},
           {"qwen2.5-72b", 72.7e9, 0},
           {"qwen3-4b", 4.0e9, 0},
           {"qwen3-14b", 14.8e9, 0},
           {"gemma-2-27b", 27.2e9, 0},
           {"codellama-34b", 33.7e9, 0},
           {"llama-4-maverick-17b-128e", 400e9, 17e9},
       }) {
    const ParameterCount p = count_parameters(load_model(card.preset));
    EXPECT_LT(relative(p.total(), card.total), 0.02) << card.preset << " " << p.total();
    const double active = card.card_counts_embedding ? p.active : p.active_without_embedding();
    if (card.active > 0) {
      EXPECT_LT(relative(active, card.active), 0.02) << card.preset << " " << active;
    }
  }
  // With the MTP module, DeepSeek-V3's checkpoint holds 685B.
  const ParameterCount v3 = count_parameters(load_model("deepseek-v3"));
  EXPECT_LT(relative(v3.total() + v3.mtp, 685e9), 0.02);
}

// DeepSeek-V3, one layer's latent attention by hand: q_a (7168 -> 1536) and its norm, q_b
// (1536 -> 128 heads x 192), kv_a (7168 -> 512 + 64) and its norm, kv_b (512 -> 128 x (128 +
// 128)), o (128 x 128 -> 7168).
TEST(Architectures, DeepSeekV3ByHand) {
  const ModelConfig m = load_model("deepseek-v3");
  ASSERT_TRUE(m.mla.has_value());
  const double attention = 7168.0 * 1536 + 1536 + 1536.0 * 128 * 192 + 7168.0 * 576 + 512 +
                           512.0 * 128 * 256 + 128.0 * 128 * 7168;
  const double expert = 3.0 * 7168 * 2048;
  const double dense = 3.0 * 7168 * 18432;
  const ParameterCount p = count_parameters(m);
  EXPECT_DOUBLE_EQ(p.attention, 61 * attention);
  EXPECT_DOUBLE_EQ(p.experts, 58 * 256 * expert);
  EXPECT_DOUBLE_EQ(p.mlp, 3 * dense + 58 * expert);  // dense layers and one shared expert
  EXPECT_DOUBLE_EQ(p.routers, 58 * 7168.0 * 256);
  EXPECT_DOUBLE_EQ(p.embedding, 129280.0 * 7168);
  EXPECT_DOUBLE_EQ(p.active, p.total() - 58 * (256 - 8) * expert);
  EXPECT_EQ(m.layers_of({AttentionSpan::full, true}), 58);
  EXPECT_EQ(m.mtp_layers, 1);
  EXPECT_TRUE(m.quantization && m.quantization->format.name == "fp8-block");
}

TEST(Architectures, Qwen3AndQwen3MoeByHand) {
  const ModelConfig q = load_model("qwen3-8b");
  // q 4096, k and v 8 x 128, o; q and k norms of 128 each.
  EXPECT_DOUBLE_EQ(count_parameters(q).attention,
                   36 * (4096.0 * 4096 * 2 + 2 * 4096.0 * 1024 + 2 * 128));
  const ModelConfig moe = load_model("qwen3-30b-a3b");
  EXPECT_EQ(moe.layers_of({AttentionSpan::full, true}), 48);  // decoder_sparse_step 1, none dense
  const ParameterCount p = count_parameters(moe);
  EXPECT_DOUBLE_EQ(p.experts, 48 * 128 * 3.0 * 2048 * 768);
  EXPECT_DOUBLE_EQ(p.active, p.total() - 48 * 120 * 3.0 * 2048 * 768);
}

TEST(Architectures, QwenMoeDenseLayersFollowTheConfig) {
  const ModelConfig m = parse_model_config(
      R"({"architectures": ["Qwen3MoeForCausalLM"], "hidden_size": 8, "intermediate_size": 32,
          "moe_intermediate_size": 4, "num_hidden_layers": 4, "num_attention_heads": 2,
          "num_key_value_heads": 1, "head_dim": 4, "vocab_size": 10, "num_experts": 4,
          "num_experts_per_tok": 2, "decoder_sparse_step": 2, "mlp_only_layers": [3]})",
      "qwen-moe.json");
  // Sparse where (i + 1) % 2 == 0 and i is not listed: layer 1 only.
  EXPECT_EQ(m.layers_of({AttentionSpan::full, true}), 1);
  const ParameterCount p = count_parameters(m);
  EXPECT_DOUBLE_EQ(p.experts, 4 * 3.0 * 8 * 4);
  EXPECT_DOUBLE_EQ(p.mlp, 3 * 3.0 * 8 * 32);
}

// Gemma 2: tied embeddings, four norms a layer, even layers sliding over 4096 keys.
TEST(Architectures, Gemma2ByHand) {
  const ModelConfig m = load_model("gemma-2-9b");
  EXPECT_TRUE(m.tie_word_embeddings);
  EXPECT_EQ(m.layers[0].span, AttentionSpan::sliding);
  EXPECT_EQ(m.layers[1].span, AttentionSpan::full);
  EXPECT_EQ(m.layers_of({AttentionSpan::sliding, false}), 21);
  const ParameterCount p = count_parameters(m);
  EXPECT_DOUBLE_EQ(p.norms, 42 * 4 * 3584.0 + 3584);
  EXPECT_DOUBLE_EQ(p.lm_head, 0);
  EXPECT_DOUBLE_EQ(p.attention, 42 * (3584.0 * 4096 * 2 + 2 * 3584.0 * 2048));
}

TEST(Architectures, Gemma3ReadsTheTextConfigAndItsPattern) {
  const ModelConfig m = parse_model_config(
      R"({"architectures": ["Gemma3ForConditionalGeneration"], "text_config": {
          "hidden_size": 16, "intermediate_size": 32, "num_hidden_layers": 12,
          "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 8,
          "vocab_size": 10, "sliding_window": 1024}, "vision_config": {"hidden_size": 1152}})",
      "gemma3.json");
  EXPECT_EQ(m.layers_of({AttentionSpan::full, false}), 2);  // layers 5 and 11
  EXPECT_EQ(m.layers[5].span, AttentionSpan::full);
  EXPECT_EQ(m.sliding_window, 1024);
  EXPECT_EQ(m.qk_norm_parameters, 16);  // q and k norms over the head dimension
}

// gpt-oss: biases on q, k, v, o; a sink per head; experts with biases; a biased router.
TEST(Architectures, GptOssByHand) {
  const ModelConfig m = load_model("gpt-oss-20b");
  const ParameterCount p = count_parameters(m);
  const double attention =
      2880.0 * 4096 * 2 + 2 * 2880.0 * 512 + (4096 + 2 * 512) + 2880 + 64;  // and 64 sinks
  EXPECT_DOUBLE_EQ(p.attention, 24 * attention);
  const double expert = 3.0 * 2880 * 2880 + 2 * 2880 + 2880;
  EXPECT_DOUBLE_EQ(p.experts, 24 * 32 * expert);
  EXPECT_DOUBLE_EQ(p.routers, 24 * (2880.0 * 32 + 32));
  EXPECT_EQ(m.layers_of({AttentionSpan::sliding, true}), 12);
  // mxfp4 reaches the experts only (modules_to_not_convert: attention, router, embedding, head).
  ASSERT_TRUE(m.quantization.has_value());
  EXPECT_EQ(m.quantization->format.name, "mxfp4");
  EXPECT_FALSE(m.quantization->attention);
  EXPECT_TRUE(m.quantization->experts);
}

// Llama 4 Scout: every layer MoE with one shared expert; chunked attention on three layers of
// four, full attention on the NoPE layers.
TEST(Architectures, Llama4ByHand) {
  const ModelConfig m = load_model("llama-4-scout-17b-16e");
  EXPECT_EQ(m.layers_of({AttentionSpan::chunked, true}), 36);
  EXPECT_EQ(m.layers[3].span, AttentionSpan::full);
  EXPECT_EQ(m.attention_chunk, 8192);
  const ParameterCount p = count_parameters(m);
  const double expert = 3.0 * 5120 * 8192;
  EXPECT_DOUBLE_EQ(p.experts, 48 * 16 * expert);
  EXPECT_DOUBLE_EQ(p.mlp, 48 * expert);  // the shared expert
  EXPECT_DOUBLE_EQ(p.active, p.total() - 48 * 15 * expert);
}

TEST(Architectures, Phi3FusesItsProjections) {
  const ModelConfig m = load_model("phi-3-mini-4k");
  EXPECT_TRUE(m.fused_qkv && m.fused_gate_up);
  Workload w;
  const PhaseResult d = model_step(m, w, device("h100-sxm"), "decode", 1, 100);
  EXPECT_TRUE(has_op(d, "qkv_proj"));
  EXPECT_TRUE(has_op(d, "gate_up_proj"));
  EXPECT_FALSE(has_op(d, "q_proj"));
  EXPECT_EQ(op(d, "qkv_proj").flops, 2 * 3072.0 * 3 * 3072);
  // Phi-3-mini-4k slides over 2047 keys on every layer.
  EXPECT_EQ(m.layers_of({AttentionSpan::sliding, false}), 32);
}

// Falcon-7B: multi-query (one KV head of 64), a GELU MLP of two matrices, LayerNorms with
// biases, one norm a layer (parallel attention), embedding tied to the head.
TEST(Architectures, FalconByHand) {
  const ModelConfig m = load_model("falcon-7b-instruct");
  EXPECT_EQ(m.num_kv_heads, 1);
  const ParameterCount p = count_parameters(m);
  const double layer = 4544.0 * (4544 + 2 * 64) + 4544.0 * 4544 + 2 * 4544.0 * 18176 + 2 * 4544;
  EXPECT_DOUBLE_EQ(p.total() - p.embedding - 2 * 4544, 32 * layer);
  EXPECT_NEAR(p.total(), 6.92e9, 0.01e9);
}

TEST(Architectures, GptNeoXAndOlmo2ByHand) {
  const ParameterCount pythia = count_parameters(load_model("pythia-6.9b"));
  // Pythia's paper lists 6,857,302,016 parameters for the 6.9B model.
  EXPECT_DOUBLE_EQ(pythia.total(), 6857302016);
  const ModelConfig olmo = load_model("olmo-2-7b");
  EXPECT_EQ(olmo.qk_norm_parameters, 4096 + 4096);  // q and k norms over all heads
}

// GPT-J's sizes go by GPT-2's names (n_embd, n_layer, n_head); attention and a biased GELU MLP
// in parallel under one LayerNorm, an untied head. By hand: 28 x (4 x 4096^2 + 2 x 4096 x 16384
// + 16384 + 4096 + 2 x 4096) + 2 x 50400 x 4096 + 2 x 4096 = 6,050,832,384. The model card says
// 6,053,381,344; the 0.04% between is what it counts beyond the matrices (the head's bias, the
// attention's buffers), which moves no time.
TEST(Architectures, GptJReadsGpt2NamesAndRunsInParallel) {
  const ModelConfig m = load_model("gpt-j-6b");
  EXPECT_EQ(m.architecture, "GPTJForCausalLM");
  EXPECT_EQ(m.hidden_size, 4096);
  EXPECT_EQ(m.num_layers, 28);
  EXPECT_EQ(m.head_dim, 256);
  EXPECT_EQ(m.intermediate_size, 16384);
  EXPECT_TRUE(m.parallel_attention);
  EXPECT_FALSE(m.gated_mlp);
  const double total = count_parameters(m).total();
  EXPECT_DOUBLE_EQ(total, 6050832384);
  EXPECT_NEAR(total / 6053381344.0, 1, 0.001);
}

// Published totals for the presets the TensorRT-LLM and gpt-fast tables use: Llama 3.1 405B
// (Meta: 405B), Falcon 180B (TII: 180B), each as its card rounds it.
TEST(Architectures, LargePresetsMatchTheirPublishedSizes) {
  EXPECT_NEAR(count_parameters(load_model("llama-3.1-405b")).total() / 405e9, 1, 0.005);
  EXPECT_NEAR(count_parameters(load_model("falcon-180b")).total() / 180e9, 1, 0.01);
}

TEST(Architectures, GraniteReadsAsLlamaWithBiases) {
  const ModelConfig m = parse_model_config(
      R"({"architectures": ["GraniteForCausalLM"], "hidden_size": 8, "intermediate_size": 16,
          "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 1,
          "vocab_size": 10, "attention_bias": true, "mlp_bias": false,
          "embedding_multiplier": 12.0, "tie_word_embeddings": true})",
      "granite.json");
  EXPECT_DOUBLE_EQ(count_parameters(m).attention, 2 * (8 * 8 + 2 * 8 * 4 + 8 * 8 + 8 + 8 + 8.0));
}

// The KV cache of each attention kind, by hand.
TEST(KvCache, LatentAttentionCachesOneLatentPerToken) {
  const ModelConfig m = load_model("deepseek-v3");
  Workload w;
  w.prompt = 1000;
  w.gen = 24;
  const ModelAnalysis a = analyse_model(m, w, device("h200-sxm"));
  // 512 latent + 64 rotary values per token per layer, 61 layers, 1024 tokens, 2 bytes.
  EXPECT_DOUBLE_EQ(a.kv_cache_bytes, 61 * 576.0 * 1024 * 2);
  w.tp = 8;  // the latent is replicated, not split, over tensor parallelism
  EXPECT_DOUBLE_EQ(analyse_model(m, w, device("h200-sxm")).kv_cache_bytes_per_gpu,
                   61 * 576.0 * 1024 * 2);
}

TEST(KvCache, SlidingLayersKeepTheirWindowOnly) {
  Workload w;
  w.prompt = 4000;
  w.gen = 96;  // 4096 tokens
  // gpt-oss: 12 full layers keep 4096 tokens, 12 sliding ones 128; 8 KV heads of 64, K and V.
  const ModelAnalysis oss = analyse_model(load_model("gpt-oss-20b"), w, device("h100-sxm"));
  EXPECT_DOUBLE_EQ(oss.kv_cache_bytes, (12 * 4096.0 + 12 * 128.0) * 2 * 8 * 64 * 2);
  // Gemma 2 at 8192 tokens: 21 sliding layers keep 4096, 21 full ones 8192; 8 heads of 256.
  w.prompt = 8000;
  w.gen = 192;
  const ModelAnalysis gemma = analyse_model(load_model("gemma-2-9b"), w, device("h100-sxm"));
  EXPECT_DOUBLE_EQ(gemma.kv_cache_bytes, (21 * 4096.0 + 21 * 8192.0) * 2 * 8 * 256 * 2);
}

TEST(KvCache, MultiQueryKeepsOneHead) {
  Workload w;
  w.prompt = 2000;
  w.gen = 48;
  const ModelAnalysis a = analyse_model(load_model("falcon-7b-instruct"), w, device("h100-sxm"));
  EXPECT_DOUBLE_EQ(a.kv_cache_bytes, 32 * 2 * 64.0 * 2048 * 2);
}

// Attention spans: a sliding layer's decode reads its window, a chunked one its chunk so far;
// the causal sums in closed form agree with adding them up query by query.
TEST(AttentionSpans, DecodeReadsTheWindowOnly) {
  const ModelConfig m = load_model("gpt-oss-20b");
  Workload w;
  w.batch = 2;
  const PhaseResult d = model_step(m, w, device("h100-sxm"), "decode", 1, 9999);
  const ModelOp& sliding = op(d, "sliding_attention");
  const ModelOp& full = op(d, "attention");
  const double query = 2 * 64 * 64 * 2.0;  // 2 sequences, 64 heads of 64, 2 bytes
  EXPECT_DOUBLE_EQ(sliding.bytes, 2 * query + 2 * (2 * 8 * 128 * 64 * 2.0));
  EXPECT_DOUBLE_EQ(full.bytes, 2 * query + 2 * (2 * 8 * 10000 * 64 * 2.0));
  EXPECT_DOUBLE_EQ(sliding.flops, 2 * 64 * 128 * (4 * 64 + 5.0));
}

TEST(AttentionSpans, PrefillScoresMatchAQueryByQuerySum) {
  // Sliding window 4 and chunk 4 on a tiny model, 10 new tokens after 3 cached ones.
  const auto tiny = [](const char* extra) {
    return parse_model_config(
        fmt::format(R"({{"architectures": ["GptOssForCausalLM"], "hidden_size": 8,
          "intermediate_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2,
          "num_key_value_heads": 1, "vocab_size": 10, "num_local_experts": 2,
          "num_experts_per_tok": 1, {}}})",
                    extra),
        "tiny.json");
  };
  const ModelConfig sliding =
      tiny(R"("sliding_window": 4, "layer_types": ["sliding_attention", "full_attention"])");
  double sliding_scores = 0, full_scores = 0;
  for (int p = 3; p < 13; ++p) {
    sliding_scores += std::min(p + 1, 4);
    full_scores += p + 1;
  }
  Workload w;
  const PhaseResult s = model_step(sliding, w, device("h100-sxm"), "prefill", 10, 3);
  const double per_score = 4 * 4 + 5.0;  // head dim 4
  EXPECT_DOUBLE_EQ(op(s, "sliding_attention").flops, 2 * sliding_scores * per_score);
  EXPECT_DOUBLE_EQ(op(s, "attention").flops, 2 * full_scores * per_score);
  EXPECT_EQ(op(s, "sliding_attention").count, 1);

  const ModelConfig llama4 = parse_model_config(
      R"({"architectures": ["Llama4ForCausalLM"], "hidden_size": 8, "intermediate_size": 8,
          "intermediate_size_mlp": 16, "num_hidden_layers": 4, "num_attention_heads": 2,
          "num_key_value_heads": 1, "vocab_size": 10, "num_local_experts": 2,
          "num_experts_per_tok": 1, "attention_chunk_size": 4})",
      "llama4.json");
  double chunked_scores = 0;
  for (int p = 3; p < 13; ++p) chunked_scores += p % 4 + 1;
  const PhaseResult c = model_step(llama4, w, device("h100-sxm"), "prefill", 10, 3);
  EXPECT_DOUBLE_EQ(op(c, "chunked_attention").flops, 2 * chunked_scores * per_score);
  EXPECT_EQ(op(c, "chunked_attention").count, 3);
  EXPECT_EQ(op(c, "attention").count, 1);  // the NoPE layer, every fourth
}

// Latent attention: prefill expands the latents (kv_b_proj) and attends with 192-wide keys;
// decode absorbs the up-projections and reads only the cached latents.
TEST(LatentAttention, PrefillExpandsDecodeAbsorbs) {
  const ModelConfig m = load_model("deepseek-v3");
  Workload w;
  w.batch = 4;
  const Device& h200 = device("h200-sxm");
  const PhaseResult prefill = model_step(m, w, h200, "prefill", 512, 0);
  EXPECT_TRUE(has_op(prefill, "kv_b_proj"));
  EXPECT_FALSE(has_op(prefill, "q_absorb"));
  const double causal = 512.0 * 513 / 2;
  EXPECT_DOUBLE_EQ(op(prefill, "attention").flops, 4 * 128 * causal * (2 * 192 + 2 * 128 + 5.0));
  const PhaseResult decode = model_step(m, w, h200, "decode", 1, 999);
  EXPECT_TRUE(has_op(decode, "q_absorb") && has_op(decode, "v_absorb"));
  EXPECT_FALSE(has_op(decode, "kv_b_proj"));
  // 4 sequences read 1000 cached latents of 576 values each, once for all 128 heads.
  const double queries = 4 * 128 * (576 + 512) * 2.0;
  EXPECT_DOUBLE_EQ(op(decode, "attention").bytes, queries + 4 * 1000 * 576 * 2.0);
  EXPECT_DOUBLE_EQ(op(decode, "attention").flops, 4 * 128 * 1000 * (2 * 576 + 2 * 512 + 5.0));
  EXPECT_DOUBLE_EQ(op(decode, "q_absorb").flops, 2 * 4 * 128 * 128 * 512.0);
}

// Between the latent projections and the attention, both phases run the pass that turns each
// head's 64 rotary query dimensions and writes each new token's 576-wide latent, its rotary key
// turned, into the cache (TensorRT-LLM's mla_rope_generation, vLLM's rotary_embedding and
// concat_and_cache_mla); kv_a_proj writes its latent as an activation, not into the cache.
TEST(LatentAttention, BothPhasesTurnTheRotaryPartsAndWriteTheCache) {
  const ModelConfig m = load_model("deepseek-v3");
  Workload w;
  w.batch = 4;
  w.kv_bytes = 1;  // an fp8 cache: the pass reads 16-bit latents and writes 8-bit ones
  const Device& h200 = device("h200-sxm");
  for (const auto& [phase, tokens] : {std::pair{"prefill", 512.0}, std::pair{"decode", 1.0}}) {
    const PhaseResult step = model_step(m, w, h200, phase, tokens, phase[0] == 'd' ? 999 : 0);
    const double rows = 4 * tokens;
    const ModelOp& pass = op(step, "latent_rotary_cache_write");
    EXPECT_EQ(pass.count, 61) << phase;
    EXPECT_DOUBLE_EQ(pass.bytes, 2 * rows * 128 * 64 * 2.0 + rows * 576 * (2.0 + 1)) << phase;
    EXPECT_DOUBLE_EQ(pass.flops, 3 * (rows * 128 * 64 + rows * 64)) << phase;
    EXPECT_DOUBLE_EQ(op(step, "kv_a_proj").bytes, 7168 * 576 * 2.0 + rows * (7168 + 576) * 2.0)
        << phase;
  }
}

TEST(Quantisation, FormatsHaveTheirRealBytes) {
  EXPECT_DOUBLE_EQ(find_quant_format("fp8-block")->bits_per_value(), 8 + 32.0 / (128 * 128));
  EXPECT_DOUBLE_EQ(find_quant_format("int4-g128")->bits_per_value(), 4 + 20.0 / 128);
  EXPECT_DOUBLE_EQ(find_quant_format("INT4-G32")->bits_per_value(), 4 + 20.0 / 32);
  EXPECT_DOUBLE_EQ(find_quant_format("nvfp4")->bits_per_value(), 4.5);
  EXPECT_DOUBLE_EQ(find_quant_format("mxfp4")->bits_per_value(), 4.25);
  EXPECT_DOUBLE_EQ(find_quant_format("bf16")->bits_per_value(), 16);
  EXPECT_FALSE(find_quant_format("int4-g0"));
  EXPECT_FALSE(find_quant_format("q4_k_m"));
  EXPECT_THROW(parse_quant_format("int3", "--quant"), InputError);
}

// W4A16 multiplies in 16 bit; NVFP4 at the fp4 peak where the device has one; FP8 at fp8 where
// the device has it, else dequantised into 16-bit products.
TEST(Quantisation, TheProductPrecisionFollowsFormatAndDevice) {
  EXPECT_EQ(product_precision(*find_quant_format("int4-g128"), device("h100-sxm")),
            Precision::fp16);
  EXPECT_EQ(product_precision(*find_quant_format("nvfp4"), device("b200")), Precision::fp4);
  EXPECT_EQ(product_precision(*find_quant_format("nvfp4"), device("h100-sxm")), Precision::fp16);
  EXPECT_EQ(product_precision(*find_quant_format("fp8-block"), device("h100-sxm")), Precision::fp8);
  EXPECT_EQ(product_precision(*find_quant_format("fp8"), device("a100-sxm-80gb")), Precision::fp16);
  EXPECT_EQ(product_precision(*find_quant_format("mxfp4"), device("b200")), Precision::fp16);
}

ModelConfig with_quantization(const char* quantization) {
  return parse_model_config(
      fmt::format(R"({{"architectures": ["LlamaForCausalLM"], "hidden_size": 8,
        "intermediate_size": 16, "num_hidden_layers": 2, "num_attention_heads": 2,
        "vocab_size": 10, "quantization_config": {}}})",
                  quantization),
      "quantized.json");
}

TEST(Quantisation, ReadsTheQuantizationConfig) {
  EXPECT_EQ(with_quantization(R"({"quant_method": "gptq", "bits": 4, "group_size": 128})")
                .quantization->format.name,
            "int4-g128");
  EXPECT_EQ(with_quantization(R"({"quant_method": "awq", "bits": 4, "group_size": 32})")
                .quantization->format.name,
            "int4-g32");
  EXPECT_EQ(with_quantization(R"({"quant_method": "modelopt", "quant_algo": "NVFP4"})")
                .quantization->format.name,
            "nvfp4");
  EXPECT_EQ(with_quantization(R"({"quant_method": "fp8"})").quantization->format.name, "fp8");
  EXPECT_THROW(with_quantization(R"({"quant_method": "hqq"})"), InputError);
  EXPECT_THROW(with_quantization(R"({"quant_method": "gptq", "bits": 3})"), InputError);
}

// Weights per GPU follow the groups: gpt-oss's experts at 4.25 bits, the rest at 16.
TEST(Quantisation, WeightsAreCountedGroupByGroup) {
  const ModelConfig m = load_model("gpt-oss-20b");
  const Device& h100 = device("h100-sxm");
  Workload w;
  quantise_weights(w.weights, *m.quantization, m, h100);
  const ParameterCount p = count_parameters(m);
  const ModelAnalysis a = analyse_model(m, w, h100);
  EXPECT_DOUBLE_EQ(a.weights_bytes, p.experts * 4.25 / 8 + (p.total() - p.experts) * 2);
  const PhaseResult d = model_step(m, w, h100, "decode", 1, 100);
  EXPECT_EQ(op(d, "expert_gate_proj").precision, Precision::fp16);  // W4A16
}

// Expert parallelism: each GPU holds E / ep experts; the dispatch and combine are all-to-alls
// priced exactly as `ridge collective alltoall` prices them.
TEST(ExpertParallelism, AllToAllMatchesTheCollectiveModel) {
  const ModelConfig m = load_model("deepseek-v3");
  const Device& h200 = device("h200-sxm");
  Workload w;
  w.batch = 64;
  w.ep = 8;
  const PhaseResult d = model_step(m, w, h200, "decode", 1, 1000);
  const ModelOp& dispatch = op(d, "moe_dispatch");
  EXPECT_EQ(dispatch.count, 58);
  EXPECT_EQ(dispatch.ranks, 8);
  // 64 tokens, 8 experts each, shared over 8 GPUs: 64 hidden states of 7168 in and out.
  EXPECT_DOUBLE_EQ(dispatch.bytes, 64 * 8 / 8.0 * 7168 * 2);
  const CollectiveEstimate same =
      best_collective(CollectiveOp::alltoall, dispatch.bytes, ClusterShape{8, 1},
                      link_model(in_node_link(h200)), std::nullopt);
  EXPECT_DOUBLE_EQ(dispatch.time_s, same.time_s);
  EXPECT_TRUE(has_op(d, "moe_combine"));
  // 32 of 256 experts on each GPU; attention over 64 / 8 sequences.
  const ModelOp& gate = op(d, "expert_gate_proj");
  ASSERT_TRUE(gate.gemm_shape.has_value());
  EXPECT_NEAR(gate.gemm_shape->batch, 32 * (1 - std::pow(1 - 8.0 / 256, 64)), 1e-9);
  EXPECT_DOUBLE_EQ(op(d, "q_a_proj").flops, 2 * 8 * 7168.0 * 1536);
  // An uneven load: the busiest GPU takes twice the mean.
  w.expert_imbalance = 2;
  EXPECT_DOUBLE_EQ(op(model_step(m, w, h200, "decode", 1, 1000), "moe_dispatch").bytes,
                   2 * dispatch.bytes);
}

TEST(ExpertParallelism, WeightsPerGpuHoldAShareOfTheExperts) {
  const ModelConfig m = load_model("mixtral-8x22b");
  Workload w;
  w.ep = 8;
  const ModelAnalysis a = analyse_model(m, w, device("h200-sxm"));
  const ParameterCount p = count_parameters(m);
  EXPECT_DOUBLE_EQ(a.weights_bytes_per_gpu, (p.total() - p.experts * 7 / 8) * 2);
}

TEST(ExpertParallelism, BadDegreesAreBadInput) {
  Workload w;
  w.ep = 7;  // 256 experts do not split 7 ways
  EXPECT_THROW(analyse_model(load_model("deepseek-v3"), w, device("h200-sxm")), InputError);
  w.ep = 2;  // a dense model has no experts
  EXPECT_THROW(analyse_model(load_model("llama-3.1-8b"), w, device("h200-sxm")), InputError);
  w.ep = 8;
  w.tp = 3;
  EXPECT_THROW(analyse_model(load_model("deepseek-v3"), w, device("h200-sxm")), InputError);
}

TEST(ModelConfigErrors, ContradictionsNameTheField) {
  const auto message = [](const char* json) {
    try {
      parse_model_config(json, "bad.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(R"({"architectures": ["MixtralForCausalLM"], "hidden_size": 8,
      "intermediate_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2,
      "vocab_size": 10, "num_local_experts": 2, "num_experts_per_tok": 3})")
                .find("num_experts_per_tok: 3 is more than num_local_experts 2"),
            std::string::npos);
  EXPECT_NE(message(R"({"architectures": ["DeepseekV3ForCausalLM"], "hidden_size": 8,
      "intermediate_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2,
      "vocab_size": 10, "kv_lora_rank": 4})")
                .find("qk_nope_head_dim: missing"),
            std::string::npos);
  EXPECT_NE(message(R"({"architectures": ["MistralForCausalLM"], "hidden_size": 8,
      "intermediate_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2,
      "vocab_size": 10, "sliding_window": 0})")
                .find("sliding_window"),
            std::string::npos);
  EXPECT_NE(message(R"({"architectures": ["GptOssForCausalLM"], "hidden_size": 8,
      "intermediate_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2,
      "vocab_size": 10, "num_local_experts": 2, "num_experts_per_tok": 1,
      "layer_types": ["sliding_attention"]})")
                .find("layer_types: must list one type for each of the 2 layers"),
            std::string::npos);
  EXPECT_NE(message(R"({"architectures": ["MambaForCausalLM"]})").find("DeepseekV3ForCausalLM"),
            std::string::npos);  // the error lists what is supported
}

}  // namespace
}  // namespace ridge
