#include "ridge/model.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "ridge/catalog.h"
#include "ridge/error.h"
#include "ridge/inference.h"

namespace ridge {
namespace {

// hidden 8, 2 heads of 4 sharing 1 KV head, MLP 16, 2 layers, vocabulary 10.
constexpr const char* kTiny = R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 8,
  "intermediate_size": 16, "num_hidden_layers": 2, "num_attention_heads": 2,
  "num_key_value_heads": 1, "vocab_size": 10, "tie_word_embeddings": false})";

const Device& h100() { return Catalog::builtin().get("h100-sxm"); }

ModelConfig tiny() { return parse_model_config(kTiny, "tiny.json"); }

const ModelOp& op(const PhaseResult& phase, const std::string& name) {
  const auto it = std::ranges::find(phase.ops, name, &ModelOp::name);
  EXPECT_NE(it, phase.ops.end()) << name;
  return *it;
}

Workload work(int batch, double weight_bytes = 2, double kv_bytes = 2) {
  Workload w;
  w.batch = batch;
  w.prompt = 6;
  w.gen = 4;
  w.weights.set_bytes(weight_bytes);
  w.kv_bytes = kv_bytes;
  return w;
}

TEST(ModelConfig, ReadsTheShape) {
  const ModelConfig m = tiny();
  EXPECT_EQ(m.name, "tiny");
  EXPECT_EQ(m.head_dim, 4);
  EXPECT_EQ(m.kv_dim(), 4);
  EXPECT_FALSE(m.is_moe());
}

TEST(ModelConfig, ParametersByHand) {
  const ParameterCount p = count_parameters(tiny());
  EXPECT_EQ(p.embedding, 80);
  EXPECT_EQ(p.attention, 2 * (8 * 8 + 2 * 8 * 4 + 8 * 8));
  EXPECT_EQ(p.mlp, 2 * 3 * 8 * 16);
  EXPECT_EQ(p.norms, 2 * 2 * 8 + 8);
  EXPECT_EQ(p.lm_head, 80);
  EXPECT_EQ(p.total(), 1352);
}

TEST(ModelConfig, PresetsHaveTheirPublishedSizes) {
  EXPECT_NEAR(count_parameters(load_model("llama-2-7b")).total(), 6.738e9, 0.001e9);
  EXPECT_NEAR(count_parameters(load_model("llama-2-70b")).total(), 68.98e9, 0.01e9);
  EXPECT_NEAR(count_parameters(load_model("llama-3.1-8b")).total(), 8.030e9, 0.001e9);
  EXPECT_NEAR(count_parameters(load_model("llama-3.1-70b")).total(), 70.55e9, 0.01e9);
  EXPECT_NEAR(count_parameters(load_model("qwen2.5-7b")).total(), 7.616e9, 0.001e9);
  const ParameterCount mixtral = count_parameters(load_model("mixtral-8x7b"));
  EXPECT_NEAR(mixtral.total(), 46.70e9, 0.01e9);
  EXPECT_NEAR(mixtral.active, 12.88e9, 0.01e9);
  EXPECT_GE(model_preset_names().size(), 7u);
}

TEST(Transformer, PrefillProjectionsByHand) {
  const PhaseResult p = model_step(tiny(), work(3), h100(), "prefill", 6, 0);
  const double t = 3 * 6;  // tokens
  EXPECT_EQ(op(p, "q_proj").flops, 2 * t * 8 * 8);
  EXPECT_EQ(op(p, "q_proj").bytes, 8 * 8 * 2 + t * 8 * 2 + t * 8 * 2);
  // GQA: k and v have one head of 4, not the query's 8 columns.
  EXPECT_EQ(op(p, "k_proj").flops, 2 * t * 8 * 4);
  EXPECT_EQ(op(p, "o_proj").flops, 2 * t * 8 * 8);
  // Gated MLP with the intermediate size, not the hidden size.
  EXPECT_EQ(op(p, "gate_proj").flops, 2 * t * 8 * 16);
  EXPECT_EQ(op(p, "down_proj").bytes, 16 * 8 * 2 + t * 16 * 2 + t * 8 * 2);
  EXPECT_EQ(op(p, "gate_proj").count, 2);
  // LM head with its factor 2, for the last position of each sequence.
  EXPECT_EQ(op(p, "lm_head").flops, 2 * 3 * 8 * 10);
}

// W8A8 as engines run it: 16-bit hidden states, each product's input quantised to fp8 on its
// way in and its output written in 16 bits; the norms read and write 16 bits.
TEST(Transformer, Fp8ProductsReadTheirInputInFp8AndWrite16Bits) {
  Workload w = work(3, 1);
  w.weights.set_compute(Precision::fp8);
  const PhaseResult p = model_step(tiny(), w, h100(), "prefill", 6, 0);
  const double t = 3 * 6;
  EXPECT_EQ(op(p, "q_proj").bytes, 8 * 8 * 1 + t * 8 * 1 + t * 8 * 2);
  EXPECT_EQ(op(p, "q_proj").precision, Precision::fp8);
  EXPECT_EQ(op(p, "down_proj").bytes, 16 * 8 * 1 + t * 16 * 1 + t * 8 * 2);
  EXPECT_EQ(op(p, "input_norm").bytes, 2 * t * 8 * 2 + 8 * 1);  // its weights at the head's width
}

TEST(Transformer, CausalPrefillAttentionByHand) {
  const PhaseResult p = model_step(tiny(), work(1), h100(), "prefill", 6, 0);
  const double scores = 2 * (6 * 7 / 2);  // heads x causal pairs
  EXPECT_EQ(op(p, "attention").flops, scores * (4 * 4 + 5));
  // Q in, O out (6 x 8 each), K and V of one head (6 x 4 each), 2 bytes.
  EXPECT_EQ(op(p, "attention").bytes, 2 * 6 * 8 * 2 + 2 * 6 * 4 * 2);
}

TEST(Transformer, DecodeReadsTheKvCacheOnce) {
  const PhaseResult d = model_step(tiny(), work(2, 2, 1), h100(), "decode", 1, 9);
  // Each of 2 sequences reads K and V of its 10 positions, one 4-wide head, 1 byte each.
  EXPECT_EQ(op(d, "attention").bytes, 2 * 2 * 8 * 2 + 2 * (2 * 10 * 4 * 1));
  EXPECT_EQ(op(d, "attention").flops, 2 * 2 * 10 * (4 * 4 + 5));
  EXPECT_EQ(op(d, "k_proj").bytes, 8 * 4 * 2 + 2 * 8 * 2 + 2 * 4 * 2);
  // The rotary pass reads Q, K and V (8 + 4 + 4 wide) and writes Q back and K and V to the
  // cache at its width, 1 byte.
  EXPECT_EQ(op(d, "rotary_cache_write").bytes, 2 * ((8 + 4 + 4) * 2 + 8 * 2 + 2 * 4 * 1));
}

TEST(Transformer, UnfusedAttentionMovesTheScores) {
  Workload w = work(1);
  w.flash_attention = false;
  const PhaseResult p = model_step(tiny(), w, h100(), "prefill", 6, 0);
  const double scores = 2 * 6 * 6;  // the full masked matrix
  EXPECT_EQ(op(p, "softmax").bytes, 2 * scores * 2);
  EXPECT_EQ(op(p, "qk").flops, 2 * scores * 4);
}

TEST(Inference, PrefillMatchesTheClosedForm) {
  const ModelConfig m = load_model("llama-2-7b");
  Workload w;
  w.prompt = 512;
  const ModelAnalysis a = analyse_model(m, w, h100());
  const ParameterCount p = a.parameters;
  const double tokens = 512;
  const double layers = m.num_layers;
  const double causal_scores = m.num_heads * tokens * (tokens + 1) / 2;
  const double attention = layers * causal_scores * 4 * m.head_dim;
  const double closed =
      2 * (p.total() - p.embedding - p.lm_head) * tokens + 2 * p.lm_head + attention;
  EXPECT_NEAR(a.prefill.flops / closed, 1.0, 0.01);
}

TEST(Inference, DecodeBytesAreWeightsPlusTheKvCache) {
  const ModelConfig m = load_model("llama-3.1-8b");
  Workload w;
  w.prompt = 1000;
  w.gen = 200;  // 199 decode steps after prefill; on average 1100 tokens in the cache
  w.batch = 4;
  const ModelAnalysis a = analyse_model(m, w, h100());
  EXPECT_EQ(a.decode.context, 1100);
  const double kv_read = 4 * 2.0 * m.num_layers * m.kv_dim() * 1100 * 2;
  const double weights = (a.parameters.total() - a.parameters.embedding) * 2;
  EXPECT_NEAR(a.decode.bytes / (weights + kv_read), 1.0, 0.01);
  EXPECT_NEAR(a.kv_cache_bytes, 4 * 2.0 * 32 * 1024 * 1200 * 2, 1);
}

TEST(Inference, LinearCrossoverGeneralisesTheReference) {
  const ModelAnalysis a = analyse_model(load_model("llama-2-7b"), Workload{}, h100());
  EXPECT_EQ(a.linear_crossover_batch, 296);  // ceil(295.5 x 2 bytes / 2)
  Workload fp8;
  fp8.weights.set_bytes(1);
  fp8.activation_bytes = fp8.kv_bytes = 1;
  fp8.compute = Precision::fp8;
  EXPECT_EQ(analyse_model(load_model("llama-2-7b"), fp8, h100()).linear_crossover_batch, 296);
}

TEST(Inference, CrossoverExistsOnlyWhenAttentionCanKeepUp) {
  // Short contexts with grouped-query attention: the step turns compute-bound at some batch.
  Workload w;
  w.prompt = 64;
  w.gen = 2;
  const ModelAnalysis gqa = analyse_model(load_model("llama-3.1-8b"), w, h100());
  ASSERT_TRUE(gqa.crossover_batch.has_value());
  Workload below = w;
  below.batch = static_cast<int>(*gqa.crossover_batch - 1);
  Workload at = w;
  at.batch = static_cast<int>(*gqa.crossover_batch);
  const double ridge = 990e12 / 3.35e12;
  EXPECT_LT(model_step(gqa.model, below, h100(), "decode", 1, 64).intensity(), ridge);
  EXPECT_GE(model_step(gqa.model, at, h100(), "decode", 1, 64).intensity(), ridge);
  // Full multi-head attention at long context reads as many KV bytes as it does FLOPs: never.
  Workload long_context;
  long_context.prompt = 4000;
  EXPECT_FALSE(
      analyse_model(load_model("llama-2-7b"), long_context, h100()).crossover_batch.has_value());
}

TEST(Inference, FitAndLargestBatch) {
  Workload w;
  w.prompt = 1024;
  w.gen = 1024;
  const ModelAnalysis a = analyse_model(load_model("llama-2-7b"), w, h100());
  const double per_sequence = 2.0 * 32 * 4096 * 2048 * 2;
  EXPECT_TRUE(a.fits);
  EXPECT_EQ(a.max_batch,
            static_cast<std::int64_t>((80.0 * (1 << 30) - a.weights_bytes_per_gpu) / per_sequence));
  EXPECT_FALSE(analyse_model(load_model("llama-2-70b"), w, h100()).fits);
  EXPECT_EQ(analyse_model(load_model("llama-2-70b"), w, h100()).max_batch, 0);
}

TEST(Inference, MixtureOfExpertsReadsOnlyTheChosenExperts) {
  const ModelConfig m = load_model("mixtral-8x7b");
  const PhaseResult one = model_step(m, Workload{}, h100(), "decode", 1, 100);
  const double expert_weights = 4096.0 * 14336 * 2;  // one expert's gate matrix, fp16
  EXPECT_NEAR(op(one, "expert_gate_proj").bytes, 2 * expert_weights + 2 * 4096 * 2 + 2 * 14336 * 2,
              1);
  Workload big;
  big.batch = 256;
  const PhaseResult many = model_step(m, big, h100(), "decode", 1, 100);
  const double pairs = 256 * 2;  // token-expert pairs
  EXPECT_NEAR(op(many, "expert_gate_proj").bytes, 8 * expert_weights + pairs * (4096 + 14336) * 2,
              1e3);
}

TEST(Inference, TensorParallelismSplitsWeightsAndAddsAllReduces) {
  const ModelConfig m = load_model("llama-2-70b");
  Workload w;
  w.tp = 8;
  const ModelAnalysis a = analyse_model(m, w, h100());
  EXPECT_NEAR(a.weights_bytes_per_gpu / (a.weights_bytes / 8), 1.0, 0.001);
  const ModelOp& allreduce = op(a.decode, "mlp_allreduce");
  EXPECT_EQ(allreduce.count, 80);
  EXPECT_EQ(allreduce.bytes, 8192 * 2);  // one token's hidden state, as nccl-tests counts it
  EXPECT_EQ(allreduce.ranks, 8);
  // Its shape, for an engine's dispatch: a token's row of the hidden size, 16-bit.
  EXPECT_EQ(allreduce.message.rows, 1);
  EXPECT_EQ(allreduce.message.row_elements, 8192);
  EXPECT_EQ(allreduce.message.bytes(), allreduce.bytes);
  EXPECT_EQ(op(a.prefill, "mlp_allreduce").message.rows, w.batch * a.prefill.new_tokens);
  // The bound: the bytes at NVLink's spec bandwidth, without the catalog's estimated latency.
  const LinkModel nvlink = link_model(in_node_link(h100()));
  ASSERT_GT(nvlink.latency_s, 0);
  const CollectiveEstimate same = best_collective(
      CollectiveOp::allreduce, 8192 * 2, ClusterShape{8, 1}, without_latency(nvlink), std::nullopt);
  EXPECT_EQ(allreduce.time_s, same.time_s);
  EXPECT_DOUBLE_EQ(allreduce.time_s, ring_allreduce_bytes(8192 * 2, 8) / 900e9);
  EXPECT_EQ(allreduce.bound, "NVLink 4");
  EXPECT_GT(a.decode.communication_time_s, 0);
  w.tp = 16;  // more GPUs than KV heads: KV heads are replicated
  EXPECT_NO_THROW(analyse_model(m, w, h100()));
  w.tp = 3;
  EXPECT_THROW(analyse_model(m, w, h100()), InputError);
}

// Falcon's parallel blocks sum the attention's and the MLP's partial outputs before one
// all-reduce a layer (TensorRT-LLM's and vLLM's Falcon); a sequential block reduces each.
TEST(Inference, FalconsParallelBlockAllReducesOnceALayer) {
  Workload w;
  w.tp = 8;
  const auto has = [](const PhaseResult& phase, const std::string& name) {
    return std::ranges::find(phase.ops, name, &ModelOp::name) != phase.ops.end();
  };
  ModelConfig falcon = load_model("falcon-180b");
  ASSERT_TRUE(falcon.one_allreduce_per_layer);
  const ModelAnalysis once = analyse_model(falcon, w, h100());
  EXPECT_FALSE(has(once.decode, "attention_allreduce"));
  EXPECT_EQ(op(once.decode, "mlp_allreduce").count, 80);
  falcon.one_allreduce_per_layer = false;
  const ModelAnalysis twice = analyse_model(falcon, w, h100());
  EXPECT_EQ(op(twice.decode, "attention_allreduce").count, 80);
  EXPECT_GT(twice.decode.communication_time_s, 1.9 * once.decode.communication_time_s);
  EXPECT_FALSE(load_model("llama-2-70b").one_allreduce_per_layer);
}

TEST(Inference, PerStepAgreesWithTheAverageContext) {
  Workload w;
  w.gen = 64;
  const ModelAnalysis average = analyse_model(load_model("llama-3.1-8b"), w, h100());
  w.per_step = true;
  const ModelAnalysis stepped = analyse_model(load_model("llama-3.1-8b"), w, h100());
  EXPECT_NEAR(stepped.decode_time_per_token_s / average.decode_time_per_token_s, 1.0, 1e-9);
}

TEST(Inference, ComputePrecisionFollowsTheActivations) {
  EXPECT_EQ(compute_precision_for_bits(16, h100()), Precision::fp16);
  EXPECT_EQ(compute_precision_for_bits(8, h100()), Precision::fp8);
  EXPECT_EQ(compute_precision_for_bits(8, Catalog::builtin().get("a100-sxm-80gb")),
            Precision::int8);
  EXPECT_THROW(compute_precision_for_bits(8, Catalog::builtin().get("v100-sxm2")), InputError);
}

std::string error_of(const std::string& json) {
  try {
    parse_model_config(json, "config.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string with(const std::string& from, const std::string& to) {
  std::string text = kTiny;
  text.replace(text.find(from), from.size(), to);
  return text;
}

TEST(ModelConfig, BadInputNamesTheField) {
  EXPECT_EQ(error_of(with("\"hidden_size\": 8", "\"hidden_size\": 9")),
            "config.json: num_attention_heads: 2 does not divide hidden_size 9");
  EXPECT_EQ(error_of(with("\"num_key_value_heads\": 1", "\"num_key_value_heads\": 3")),
            "config.json: num_key_value_heads: 3 does not divide num_attention_heads 2");
  EXPECT_EQ(error_of(with("LlamaForCausalLM", "GPT2LMHeadModel")).substr(0, 62),
            "config.json: architectures: 'GPT2LMHeadModel' is not supported");
  EXPECT_EQ(error_of(with("\"vocab_size\": 10,", "")), "config.json: vocab_size: missing");
  EXPECT_EQ(error_of(with("\"num_hidden_layers\": 2", "\"num_hidden_layers\": \"2\"")),
            "config.json: num_hidden_layers: \"2\" is not a whole number");
  EXPECT_EQ(error_of(with("\"num_hidden_layers\": 2", "\"num_hidden_layers\": -2")),
            "config.json: num_hidden_layers: -2 is outside 1..100000");
  // Millions of layers are a slip, refused: the model is worked out layer by layer.
  EXPECT_EQ(error_of(with("\"num_hidden_layers\": 2", "\"num_hidden_layers\": 48151643")),
            "config.json: num_hidden_layers: 48151643 is outside 1..100000");
  EXPECT_EQ(error_of(with("\"hidden_size\": 8", "\"hidden_size\": 200000000")),
            "config.json: hidden_size: 200000000 is outside 1..100000000");
  EXPECT_EQ(error_of(with("\"num_hidden_layers\": 2", "\"num_hidden_layers\": 2.5")),
            "config.json: num_hidden_layers: 2.5 is not a whole number");
  EXPECT_EQ(error_of("{\"hidden_size\": 8,\n  \"x\": }").substr(0, 20), "config.json:2:8: not");
  EXPECT_EQ(error_of("[1, 2]"), "config.json: the top level must be a JSON object");
  EXPECT_EQ(error_of(""),
            "config.json:1:1: not valid JSON (unexpected end of input; expected '[', '{', or a "
            "literal)");
  EXPECT_EQ(error_of("{\"model_type\": \"ll\xc3(\"}"),
            "config.json:1:20: not valid JSON (invalid string: ill-formed UTF-8 byte; last read: "
            "'\"ll\\xc3(')");
  EXPECT_EQ(error_of("{\"model_type\": [\"llama\"]}"),
            "config.json: model_type: [\"llama\"] is not a string");
  EXPECT_EQ(error_of("{\"a\": 1, \"a\": 1}"), "config.json: key \"a\" appears twice in one object");
}

}  // namespace
}  // namespace ridge
