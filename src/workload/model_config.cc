// Reads a Hugging Face config.json. Every problem is bad input naming the file and the field.
// Each family maps its own field names onto ModelConfig, with the defaults of its transformers
// config class where the file leaves a field out.
#include <algorithm>
#include <array>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "core/embedded.h"
#include "core/enum_names.h"
#include "core/json_input.h"
#include "core/text.h"
#include "ridge/error.h"
#include "ridge/input_file.h"
#include "ridge/model.h"

namespace ridge {

namespace {

using Json = nlohmann::json;

constexpr EnumNames<AttentionSpan, 3> kSpanNames = {{{AttentionSpan::full, "full"},
                                                     {AttentionSpan::sliding, "sliding"},
                                                     {AttentionSpan::chunked, "chunked"}}};

class ConfigReader;
using FamilyReader = void (*)(const ConfigReader&, ModelConfig&);

// The most a config's size may be (ConfigReader::checked_integer says why).
constexpr int kMostOfASize = 100'000'000;
// The most layers a config may have: the deepest published decoders have a few hundred, and the
// model is worked out layer by layer, so a count of millions (a typing slip) would take seconds
// and is refused instead.
constexpr int kMostLayers = 100'000;

// The names a family's config class gives the sizes: Hugging Face's usual ones, or GPT-2's
// (GPTJConfig's attribute_map: n_embd, n_layer, n_head).
struct SizeNames {
  const char* hidden = "hidden_size";
  const char* layers = "num_hidden_layers";
  const char* heads = "num_attention_heads";
};
constexpr SizeNames kGpt2SizeNames{"n_embd", "n_layer", "n_head"};

struct Family {
  std::string_view architecture;
  std::string_view model_type;
  FamilyReader read;
  bool nested = false;  // the text model's fields sit under text_config (vision-language files)
  SizeNames sizes = {};
};

// Reads fields of one JSON object; `prefix` ("text_config.") names where it sits in the file.
class ConfigReader {
 public:
  ConfigReader(const Json& object, std::string origin, std::string prefix)
      : object_(object), origin_(std::move(origin)), prefix_(std::move(prefix)) {}

  [[noreturn]] void fail(std::string_view field, const std::string& problem) const {
    input_error("{}: {}{}: {}", origin_, prefix_, field, problem);
  }

  bool has(const char* field) const {
    const auto it = object_.find(field);
    return it != object_.end() && !it->is_null();
  }

  const Json* find(const char* field) const {
    const auto it = object_.find(field);
    return it == object_.end() || it->is_null() ? nullptr : &*it;
  }

  std::string string(const char* field, const std::string& fallback) const {
    const Json* v = find(field);
    if (v == nullptr) return fallback;
    if (!v->is_string()) fail(field, fmt::format("{} is not a string", v->dump()));
    return v->get<std::string>();
  }

  int integer(const char* field, int most = kMostOfASize) const {
    const Json* v = find(field);
    if (v == nullptr) fail(field, "missing");
    return checked_integer(field, *v, most);
  }

  int optional_integer(const char* field, int fallback) const {
    const Json* v = find(field);
    return v == nullptr ? fallback : checked_integer(field, *v);
  }

  // The first of several names a field goes by (gpt-oss writes both experts_per_token and
  // num_experts_per_tok).
  int integer_of(std::initializer_list<const char*> fields) const {
    for (const char* field : fields) {
      if (has(field)) return integer(field);
    }
    fail(*fields.begin(), "missing");
  }

  double number(const char* field, double fallback) const {
    const Json* v = find(field);
    if (v == nullptr) return fallback;
    if (!v->is_number() || !(v->get<double>() >= 0))
      fail(field, fmt::format("{} is not a number of at least 0", v->dump()));
    return v->get<double>();
  }

  bool boolean(const char* field, bool fallback) const {
    const Json* v = find(field);
    if (v == nullptr) return fallback;
    if (!v->is_boolean()) fail(field, fmt::format("{} is not true or false", v->dump()));
    return v->get<bool>();
  }

  // A list of whole numbers (mlp_only_layers, moe_layers, no_rope_layers), each in [0, limit).
  std::vector<int> integers(const char* field, int limit) const {
    const Json* v = find(field);
    if (v == nullptr) return {};
    if (!v->is_array()) fail(field, fmt::format("{} is not a list", v->dump()));
    std::vector<int> values;
    for (const Json& item : *v) {
      try {
        values.push_back(static_cast<int>(whole_number(item, 0, limit - 1)));
      } catch (const std::invalid_argument& e) {
        fail(field, e.what());
      }
    }
    return values;
  }

  const std::string& origin() const { return origin_; }

 private:
  // Sizes are whole and positive; above 10^8 no real model goes, and products of such sizes
  // stay far inside a double's exact range.
  int checked_integer(const char* field, const Json& value, int most = kMostOfASize) const {
    try {
      return static_cast<int>(whole_number(value, 1, most));
    } catch (const std::invalid_argument& e) {
      fail(field, e.what());
    }
  }

  const Json& object_;
  std::string origin_;
  std::string prefix_;
};

// The sizes every family has, under its class's names; without num_key_value_heads every head
// attends to its own keys and values.
void read_common(const ConfigReader& r, ModelConfig& m, const SizeNames& names) {
  m.hidden_size = r.integer(names.hidden);
  m.num_layers = r.integer(names.layers, kMostLayers);
  m.num_heads = r.integer(names.heads);
  m.vocab_size = r.integer("vocab_size");
  m.num_kv_heads = r.optional_integer("num_key_value_heads", m.num_heads);
  m.head_dim = r.optional_integer("head_dim", 0);
  m.layers.assign(m.num_layers, LayerKind{});
}

void read_dense(const ConfigReader& r, ModelConfig& m) {
  m.intermediate_size = r.integer("intermediate_size");
}

// attention_bias: biases on q, k, v and o, as Llama's and Granite's classes apply it.
void read_attention_bias(const ConfigReader& r, ModelConfig& m, bool fallback = false) {
  m.qkv_bias = m.o_bias = r.boolean("attention_bias", fallback);
}

void set_span(ModelConfig& m, std::size_t layer, AttentionSpan span) {
  m.layers[layer].span = span;
}

// The window of sliding layers, which may not be 0.
void read_window(const ConfigReader& r, ModelConfig& m) {
  m.sliding_window = r.integer("sliding_window");
}

// Mistral, Mixtral and Phi-3 apply sliding_window on every layer whenever it is set.
void read_sliding_everywhere(const ConfigReader& r, ModelConfig& m) {
  if (!r.has("sliding_window")) return;
  read_window(r, m);
  for (std::size_t i = 0; i < m.layers.size(); ++i) set_span(m, i, AttentionSpan::sliding);
}

// layer_types, where transformers writes each layer's attention out.
bool read_layer_types(const ConfigReader& r, ModelConfig& m) {
  const Json* types = r.find("layer_types");
  if (types == nullptr) return false;
  if (!types->is_array() || types->size() != m.layers.size()) {
    r.fail("layer_types",
           fmt::format("must list one type for each of the {} layers", m.layers.size()));
  }
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    const Json& type = (*types)[i];
    const std::string name = type.is_string() ? type.get<std::string>() : type.dump();
    // "sliding_attention" -> sliding
    const std::string_view suffix = "_attention";
    const std::optional<AttentionSpan> span =
        name.ends_with(suffix)
            ? value_of(kSpanNames, std::string_view(name).substr(0, name.size() - suffix.size()))
            : std::nullopt;
    if (!span) {
      r.fail("layer_types", fmt::format("'{}' (layer {}) is not full_attention, "
                                        "sliding_attention or chunked_attention",
                                        name, i));
    }
    set_span(m, i, *span);
  }
  if (m.has_span(AttentionSpan::sliding)) read_window(r, m);
  return true;
}

// Qwen2 and Qwen3 apply their window only with use_sliding_window, and then from layer
// max_window_layers on.
void read_qwen_window(const ConfigReader& r, ModelConfig& m) {
  if (read_layer_types(r, m) || !r.boolean("use_sliding_window", false)) return;
  read_window(r, m);
  const int first = r.optional_integer("max_window_layers", 0);
  for (std::size_t i = first; i < m.layers.size(); ++i) set_span(m, i, AttentionSpan::sliding);
}

// Mixture-of-experts fields, with the names `experts` and `per_token` the family uses.
void read_experts(const ConfigReader& r, ModelConfig& m, const char* experts,
                  std::initializer_list<const char*> per_token) {
  m.num_experts = r.integer(experts);
  m.experts_per_token = r.integer_of(per_token);
  if (m.experts_per_token > m.num_experts) {
    r.fail(*per_token.begin(),
           fmt::format("{} is more than {} {}", m.experts_per_token, experts, m.num_experts));
  }
}

void all_layers_moe(ModelConfig& m) {
  for (LayerKind& layer : m.layers) layer.moe = true;
}

void read_llama(const ConfigReader& r, ModelConfig& m) {
  read_dense(r, m);
  read_attention_bias(r, m);
  m.mlp_bias = r.boolean("mlp_bias", false);
}

void read_mistral(const ConfigReader& r, ModelConfig& m) {
  read_dense(r, m);
  read_sliding_everywhere(r, m);
}

void read_mixtral(const ConfigReader& r, ModelConfig& m) {
  read_mistral(r, m);
  read_experts(r, m, "num_local_experts", {"num_experts_per_tok"});
  m.moe_intermediate_size = m.intermediate_size;
  all_layers_moe(m);
}

void read_qwen2(const ConfigReader& r, ModelConfig& m) {
  read_dense(r, m);
  m.qkv_bias = true;
  read_qwen_window(r, m);
}

void read_qwen3(const ConfigReader& r, ModelConfig& m) {
  read_dense(r, m);
  read_attention_bias(r, m);
  read_qwen_window(r, m);
  m.qk_norm_parameters = 2 * r.optional_integer("head_dim", m.hidden_size / m.num_heads);
}

// Qwen MoE: layer i is sparse unless listed in mlp_only_layers, every decoder_sparse_step-th.
void read_qwen_moe_layers(const ConfigReader& r, ModelConfig& m) {
  read_experts(r, m, "num_experts", {"num_experts_per_tok"});
  m.moe_intermediate_size = r.integer("moe_intermediate_size");
  const int step = r.optional_integer("decoder_sparse_step", 1);
  const std::vector<int> dense = r.integers("mlp_only_layers", m.num_layers);
  for (int i = 0; i < m.num_layers; ++i) {
    m.layers[i].moe = (i + 1) % step == 0 && std::ranges::find(dense, i) == dense.end();
  }
}

void read_qwen2_moe(const ConfigReader& r, ModelConfig& m) {
  read_qwen2(r, m);
  read_qwen_moe_layers(r, m);
  m.shared_expert_intermediate_size = r.optional_integer("shared_expert_intermediate_size", 0);
  m.shared_experts = m.shared_expert_intermediate_size > 0 ? 1 : 0;
}

void read_qwen3_moe(const ConfigReader& r, ModelConfig& m) {
  read_qwen3(r, m);
  read_qwen_moe_layers(r, m);
}

// DeepSeek V2 and V3: latent attention, and experts from layer first_k_dense_replace on.
void read_latent_attention(const ConfigReader& r, ModelConfig& m) {
  LatentAttention a;
  a.q_lora_rank = r.optional_integer("q_lora_rank", 0);
  a.kv_lora_rank = r.integer("kv_lora_rank");
  for (const char* field : {"qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"}) {
    if (!r.has(field)) r.fail(field, "missing: latent attention (kv_lora_rank) needs it");
  }
  a.qk_nope_head_dim = r.integer("qk_nope_head_dim");
  a.qk_rope_head_dim = r.integer("qk_rope_head_dim");
  a.v_head_dim = r.integer("v_head_dim");
  m.mla = a;
  m.head_dim = a.qk_head_dim();
}

void read_deepseek(const ConfigReader& r, ModelConfig& m) {
  read_dense(r, m);
  read_attention_bias(r, m);
  read_latent_attention(r, m);
  if (!r.has("n_routed_experts")) return;
  read_experts(r, m, "n_routed_experts", {"num_experts_per_tok"});
  m.moe_intermediate_size = r.integer("moe_intermediate_size");
  m.shared_experts = r.optional_integer("n_shared_experts", 0);
  m.shared_expert_intermediate_size =
      static_cast<double>(m.shared_experts) * m.moe_intermediate_size;
  const int first_sparse = r.optional_integer("first_k_dense_replace", 0);
  const int every = r.optional_integer("moe_layer_freq", 1);
  for (int i = first_sparse; i < m.num_layers; ++i) m.layers[i].moe = i % every == 0;
  m.mtp_layers = r.optional_integer("num_nextn_predict_layers", 0);
}

// Gemma 2: four norms a layer, soft-capped scores, and a sliding window on alternate layers
// (layer i slides when i is even, as Gemma2Config's default layer_types have it).
void read_gemma2(const ConfigReader& r, ModelConfig& m) {
  read_dense(r, m);
  m.head_dim = r.optional_integer("head_dim", 256);
  read_attention_bias(r, m);
  m.tie_word_embeddings = true;
  m.norms_per_layer = 4;
  m.attention_softcap = r.number("attn_logit_softcapping", 0);
  if (read_layer_types(r, m)) return;
  read_window(r, m);
  for (std::size_t i = 0; i < m.layers.size(); i += 2) set_span(m, i, AttentionSpan::sliding);
}

// Gemma 3: q/k norms per head, and every sliding_window_pattern-th layer global.
void read_gemma3(const ConfigReader& r, ModelConfig& m) {
  read_dense(r, m);
  read_attention_bias(r, m);
  m.tie_word_embeddings = true;
  m.norms_per_layer = 4;
  m.attention_softcap = r.number("attn_logit_softcapping", 0);
  m.head_dim = r.optional_integer("head_dim", 256);
  m.qk_norm_parameters = 2 * m.head_dim;
  if (read_layer_types(r, m)) return;
  read_window(r, m);
  const int pattern = r.optional_integer("sliding_window_pattern", 6);
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    if ((i + 1) % pattern != 0) set_span(m, i, AttentionSpan::sliding);
  }
}

// gpt-oss: every layer MoE with biased experts, sinks, sliding and full layers alternating.
void read_gpt_oss(const ConfigReader& r, ModelConfig& m) {
  read_dense(r, m);
  read_attention_bias(r, m, true);
  m.attention_sinks = true;
  read_experts(r, m, "num_local_experts", {"num_experts_per_tok", "experts_per_token"});
  m.moe_intermediate_size = m.intermediate_size;
  m.expert_bias = true;
  all_layers_moe(m);
  if (!read_layer_types(r, m)) read_sliding_everywhere(r, m);
}

// Llama 4 (text): MoE every interleave_moe_layer_step-th layer with one shared expert; chunked
// attention on the RoPE layers, full attention on the NoPE ones (every fourth by default).
void read_llama4(const ConfigReader& r, ModelConfig& m) {
  m.intermediate_size = r.optional_integer("intermediate_size_mlp", 0);
  read_attention_bias(r, m);
  read_experts(r, m, "num_local_experts", {"num_experts_per_tok"});
  m.moe_intermediate_size = r.integer("intermediate_size");
  m.shared_experts = 1;
  m.shared_expert_intermediate_size = m.moe_intermediate_size;
  std::vector<int> moe = r.integers("moe_layers", m.num_layers);
  if (moe.empty()) {
    const int step = r.optional_integer("interleave_moe_layer_step", 1);
    for (int i = step - 1; i < m.num_layers; i += step) moe.push_back(i);
  }
  for (int i : moe) m.layers[i].moe = true;
  if (m.intermediate_size == 0 && moe.size() < m.layers.size())
    r.fail("intermediate_size_mlp", "missing: the dense layers need it");
  if (read_layer_types(r, m)) {
    if (m.has_span(AttentionSpan::chunked)) m.attention_chunk = r.integer("attention_chunk_size");
    return;
  }
  if (!r.has("attention_chunk_size")) return;
  m.attention_chunk = r.integer("attention_chunk_size");
  const Json* no_rope = r.find("no_rope_layers");
  for (int i = 0; i < m.num_layers; ++i) {
    // no_rope_layers[i] is 1 where layer i uses RoPE (and so chunked attention).
    const bool rope =
        no_rope != nullptr && no_rope->is_array() && no_rope->size() == m.layers.size()
            ? (*no_rope)[i] == 1
            : (i + 1) % 4 != 0;
    if (rope) set_span(m, i, AttentionSpan::chunked);
  }
}

// Phi-3 and Phi-4: fused qkv and gate_up, a window on every layer where the file sets one.
void read_phi3(const ConfigReader& r, ModelConfig& m) {
  read_mistral(r, m);
  read_attention_bias(r, m);
  m.fused_qkv = m.fused_gate_up = true;
}

void read_olmo2(const ConfigReader& r, ModelConfig& m) {
  read_dense(r, m);
  read_attention_bias(r, m);
  // Olmo2's q_norm and k_norm span all heads at once.
  m.qk_norm_parameters =
      m.num_heads * (m.hidden_size / m.num_heads) + m.num_kv_heads * (m.hidden_size / m.num_heads);
}

// Falcon: multi-query (or, in the new decoder, grouped) attention in parallel with a GELU MLP,
// under LayerNorms with biases; the LM head is tied to the embedding.
void read_falcon(const ConfigReader& r, ModelConfig& m) {
  const bool new_decoder = r.boolean("new_decoder_architecture", false);
  const bool parallel = r.boolean("parallel_attn", true);
  m.intermediate_size = r.optional_integer("ffn_hidden_size", 4 * m.hidden_size);
  if (new_decoder) {
    m.num_kv_heads = r.optional_integer("num_kv_heads", m.num_heads);
  } else {
    m.num_kv_heads = r.boolean("multi_query", true) ? 1 : m.num_heads;
  }
  m.qkv_bias = m.o_bias = m.mlp_bias = r.boolean("bias", false);
  m.gated_mlp = false;
  m.norm_bias = true;
  m.fused_qkv = true;
  m.parallel_attention = new_decoder || parallel;
  // TensorRT-LLM's FalconDecoderLayer ("Not to apply allreduce inside the Attention/MLP layers",
  // tensorrt_llm/models/falcon/model.py from v0.7) and vLLM's FalconAttention
  // (reduce_row_parallel_results = not parallel) reduce a parallel block's two outputs at once.
  m.one_allreduce_per_layer = m.parallel_attention;
  m.norms_per_layer =
      new_decoder ? r.optional_integer("num_ln_in_parallel_attn", 2) : (parallel ? 1 : 2);
  m.tie_word_embeddings = true;
}

void read_gpt_neox(const ConfigReader& r, ModelConfig& m) {
  read_dense(r, m);
  read_attention_bias(r, m, true);
  m.mlp_bias = true;
  m.gated_mlp = false;
  m.norm_bias = true;
  m.fused_qkv = true;
  m.parallel_attention = r.boolean("use_parallel_residual", true);
}

// GPT-J: attention without biases in parallel with a biased GELU MLP (n_inner, 4 x n_embd when
// null), under one LayerNorm a layer; the LM head is its own matrix.
void read_gptj(const ConfigReader& r, ModelConfig& m) {
  m.intermediate_size = r.optional_integer("n_inner", 4 * m.hidden_size);
  m.qkv_bias = m.o_bias = false;
  m.mlp_bias = true;
  m.gated_mlp = false;
  m.norm_bias = true;
  m.parallel_attention = true;
  m.norms_per_layer = 1;
  m.tie_word_embeddings = false;
}

constexpr std::array<Family, 21> kFamilies = {{
    {"LlamaForCausalLM", "llama", read_llama},
    {"MistralForCausalLM", "mistral", read_mistral},
    {"MixtralForCausalLM", "mixtral", read_mixtral},
    {"Qwen2ForCausalLM", "qwen2", read_qwen2},
    {"Qwen2MoeForCausalLM", "qwen2_moe", read_qwen2_moe},
    {"Qwen3ForCausalLM", "qwen3", read_qwen3},
    {"Qwen3MoeForCausalLM", "qwen3_moe", read_qwen3_moe},
    {"DeepseekV2ForCausalLM", "deepseek_v2", read_deepseek},
    {"DeepseekV3ForCausalLM", "deepseek_v3", read_deepseek},
    {"Gemma2ForCausalLM", "gemma2", read_gemma2},
    {"Gemma3ForCausalLM", "gemma3_text", read_gemma3},
    {"Gemma3ForConditionalGeneration", "gemma3", read_gemma3, true},
    {"GptOssForCausalLM", "gpt_oss", read_gpt_oss},
    {"Llama4ForCausalLM", "llama4_text", read_llama4},
    {"Llama4ForConditionalGeneration", "llama4", read_llama4, true},
    {"Phi3ForCausalLM", "phi3", read_phi3},
    {"GraniteForCausalLM", "granite", read_llama},
    {"Olmo2ForCausalLM", "olmo2", read_olmo2},
    {"FalconForCausalLM", "falcon", read_falcon},
    {"GPTNeoXForCausalLM", "gpt_neox", read_gpt_neox},
    {"GPTJForCausalLM", "gptj", read_gptj, false, kGpt2SizeNames},
}};

const auto& families() { return kFamilies; }

const Family& family_of(const ConfigReader& top) {
  if (const Json* list = top.find("architectures")) {
    if (!list->is_array() || list->empty() || !(*list)[0].is_string()) {
      top.fail("architectures", "must be a list holding the architecture's name");
    }
    const std::string name = (*list)[0].get<std::string>();
    const auto it = std::ranges::find(families(), name, &Family::architecture);
    if (it == families().end()) {
      top.fail("architectures",
               fmt::format("'{}' is not supported (supported: {})", name, model_families()));
    }
    return *it;
  }
  const std::string type = top.string("model_type", "");
  const auto it = std::ranges::find(families(), type, &Family::model_type);
  if (it == families().end() || type.empty()) {
    top.fail("model_type",
             fmt::format("'{}' is not supported (supported: {})", type, model_families()));
  }
  return *it;
}

// quantization_config: the method and its format; the modules it leaves alone.
std::optional<WeightQuantization> read_quantization(const Json& root, const std::string& origin) {
  const auto it = root.find("quantization_config");
  if (it == root.end() || it->is_null()) return std::nullopt;
  if (!it->is_object()) input_error("{}: quantization_config: must be an object", origin);
  const ConfigReader q(*it, origin, "quantization_config.");
  WeightQuantization w;
  w.method = lower_case(q.string("quant_method", ""));
  const auto group = [&] { return fmt::format("int4-g{}", q.optional_integer("group_size", 128)); };
  if (w.method == "fp8") {
    w.format = *find_quant_format(q.has("weight_block_size") ? "fp8-block" : "fp8");
  } else if (w.method == "mxfp4") {
    w.format = *find_quant_format("mxfp4");
  } else if (w.method == "gptq" || w.method == "awq") {
    const int bits = q.optional_integer("bits", 4);
    if (bits != 4 && bits != 8) q.fail("bits", fmt::format("{} is not 4 or 8", bits));
    w.format = *find_quant_format(bits == 8 ? "int8" : group());
    w.format.quantises_activations = false;  // weight-only: dequantised into 16-bit products
  } else if (w.method == "modelopt") {
    const std::string algo = lower_case(q.string("quant_algo", ""));
    if (algo != "fp8" && algo != "nvfp4") {
      q.fail("quant_algo", fmt::format("'{}' is not FP8 or NVFP4", algo));
    }
    w.format = *find_quant_format(algo);
  } else {
    q.fail("quant_method", fmt::format("'{}' is not a method ridge reads (fp8, mxfp4, gptq, awq, "
                                       "modelopt); give --quant FORMAT instead",
                                       w.method));
  }
  if (const Json* skip = q.find("modules_to_not_convert")) {
    for (const Json& module : *skip) {
      const std::string name = module.is_string() ? module.get<std::string>() : "";
      if (name.find("self_attn") != std::string::npos) w.attention = false;
      // Routers stay 16 bit whatever the file says; a whole MLP left alone is dense and experts.
      if (name.find("mlp") != std::string::npos && name.find("router") == std::string::npos &&
          name.find("gate") == std::string::npos) {
        w.mlp = w.experts = false;
      }
    }
  }
  return w;
}

void check_shape(const ConfigReader& r, ModelConfig& m) {
  if (m.head_dim == 0) {
    if (m.hidden_size % m.num_heads != 0) {
      r.fail("num_attention_heads",
             fmt::format("{} does not divide hidden_size {}", m.num_heads, m.hidden_size));
    }
    m.head_dim = m.hidden_size / m.num_heads;
  }
  if (m.num_heads % m.num_kv_heads != 0) {
    r.fail("num_key_value_heads",
           fmt::format("{} does not divide num_attention_heads {}", m.num_kv_heads, m.num_heads));
  }
  if (m.is_moe() && std::ranges::none_of(m.layers, &LayerKind::moe)) {
    r.fail("num_hidden_layers", "no layer is a mixture-of-experts layer");
  }
}

ModelConfig read_config(const Json& root, const std::string& origin) {
  const ConfigReader top(root, origin, "");
  const Family& family = family_of(top);
  const Json* text = &root;
  if (family.nested) {
    text = top.find("text_config");
    if (text == nullptr || !text->is_object()) top.fail("text_config", "missing");
  }
  const ConfigReader r(*text, origin, family.nested ? "text_config." : "");
  ModelConfig m;
  m.architecture = family.architecture;
  m.family = family.model_type;
  read_common(r, m, family.sizes);
  family.read(r, m);
  // Where the family has its own default (Gemma and Falcon tie), the file's word wins.
  m.tie_word_embeddings =
      r.boolean("tie_word_embeddings", top.boolean("tie_word_embeddings", m.tie_word_embeddings));
  m.quantization = read_quantization(root, origin);
  m.source = top.string("_ridge_source", origin);
  check_shape(r, m);
  return m;
}

// "llama-2-7b.json" -> "llama-2-7b"; "models/Llama-3-8B/config.json" -> "Llama-3-8B".
std::string stem(const std::string& path) {
  const std::filesystem::path p(path);
  if (p.stem() == "config" && p.has_parent_path()) return p.parent_path().filename().string();
  return p.stem().string();
}

}  // namespace

std::string model_families() {
  std::string names;
  for (const Family& f : families())
    names += (names.empty() ? "" : ", ") + std::string(f.architecture);
  return names;
}

ModelConfig parse_model_config(std::string_view json_text, const std::string& origin) {
  const Json root = parse_json_input<Json>(json_text, origin);
  if (!root.is_object()) input_error("{}: the top level must be a JSON object", origin);
  ModelConfig model = read_config(root, origin);
  model.name = stem(origin);
  return model;
}

std::vector<std::string> model_preset_names() {
  std::vector<std::string> names;
  for (const embedded::File& file : embedded::model_files())
    names.push_back(stem(std::string(file.name)));
  return names;
}

ModelConfig load_model(const std::string& name_or_path) {
  for (const embedded::File& file : embedded::model_files()) {
    if (stem(std::string(file.name)) == name_or_path) {
      return parse_model_config(file.text, "data/models/" + std::string(file.name));
    }
  }
  const std::optional<std::string> text = read_text_file(name_or_path);
  if (!text) {
    std::string presets;
    for (const std::string& name : model_preset_names())
      presets += (presets.empty() ? "" : ", ") + name;
    input_error("'{}' is neither a model preset ({}) nor a readable config.json", name_or_path,
                presets);
  }
  return parse_model_config(*text, name_or_path);
}

std::string_view to_string(AttentionSpan span) { return name_of(kSpanNames, span); }

int ModelConfig::layers_of(const LayerKind& kind) const {
  return static_cast<int>(std::ranges::count(layers, kind));
}

bool ModelConfig::has_span(AttentionSpan span) const {
  return std::ranges::any_of(layers, [&](const LayerKind& l) { return l.span == span; });
}

int ModelConfig::span_window(AttentionSpan span) const {
  if (span == AttentionSpan::sliding) return sliding_window;
  if (span == AttentionSpan::chunked) return attention_chunk;
  return 0;
}

}  // namespace ridge
