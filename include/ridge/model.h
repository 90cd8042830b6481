#pragma once
// A decoder-only transformer as described by a Hugging Face config.json, and the presets shipped
// in data/models/. The families read are listed by model_families(); docs/model.md says which
// fields of each change the work and how.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ridge/quantization.h"

namespace ridge {

// Which keys a layer's queries attend to: every earlier one (full), the last `window`
// (sliding, as Mistral, Gemma and gpt-oss do on some layers), or those of its own `window`-long
// chunk (chunked, Llama 4's local layers).
enum class AttentionSpan { full, sliding, chunked };
std::string_view to_string(AttentionSpan span);

struct LayerKind {
  AttentionSpan span = AttentionSpan::full;
  bool moe = false;  // a mixture-of-experts MLP rather than a dense one
  bool operator==(const LayerKind&) const = default;
};

// DeepSeek's multi-head latent attention: keys and values come from one cached latent of
// kv_lora_rank values plus a shared rotary key of qk_rope_head_dim per token.
struct LatentAttention {
  int q_lora_rank = 0;  // 0: queries projected straight from the hidden state (V2-Lite)
  int kv_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;
  int qk_head_dim() const { return qk_nope_head_dim + qk_rope_head_dim; }
  // KV-cache elements per token per layer: the latent and the rotary key, shared by all heads.
  int cache_elements() const { return kv_lora_rank + qk_rope_head_dim; }
};

// A checkpoint's quantization_config: the format of its decoder's linear layers, and the groups
// it leaves in 16 bit (modules_to_not_convert). Embedding, LM head and routers stay 16 bit.
struct WeightQuantization {
  std::string method;  // quant_method as the file names it
  QuantFormat format;
  bool attention = true;  // q, k, v, o quantised
  bool mlp = true;        // dense MLPs and shared experts
  bool experts = true;    // routed experts
};

struct ModelConfig {
  std::string name;          // preset name or file stem
  std::string architecture;  // e.g. "LlamaForCausalLM"
  std::string family;        // e.g. "llama", "deepseek_v3"
  std::string source;        // where the config was published, when known
  int hidden_size = 0;
  int intermediate_size = 0;  // of the dense MLP (per expert for Mixtral, whose layers are all MoE)
  int num_layers = 0;
  int num_heads = 0;
  int num_kv_heads = 0;
  int head_dim = 0;
  int vocab_size = 0;
  bool tie_word_embeddings = false;

  // Attention.
  bool qkv_bias = false;         // Qwen2, gpt-oss, GPT-NeoX add biases to q, k and v
  bool o_bias = false;           // and to the output projection (gpt-oss, GPT-NeoX)
  int qk_norm_parameters = 0;    // per layer: Qwen3, Gemma 3 (per head) and OLMo 2 (whole) norms
  bool attention_sinks = false;  // gpt-oss: one learned logit per head
  double attention_softcap = 0;  // Gemma 2: tanh soft-capping of every score (0: none)
  int sliding_window = 0;        // keys a sliding layer attends to
  int attention_chunk = 0;       // Llama 4: the chunk of a chunked layer
  std::optional<LatentAttention> mla;
  bool fused_qkv = false;      // one qkv_proj (Phi-3, Falcon, GPT-NeoX): one GEMM, one launch
  bool fused_gate_up = false;  // one gate_up_proj (Phi-3)

  // MLP.
  bool gated_mlp = true;  // gate, up and down (SwiGLU, GeGLU); false: up and down (GELU)
  bool mlp_bias = false;
  int num_experts = 1;  // routed experts; 1 for a dense model
  int experts_per_token = 1;
  int moe_intermediate_size = 0;               // per routed expert
  int shared_experts = 0;                      // experts every token passes through
  double shared_expert_intermediate_size = 0;  // their width, all together
  bool expert_bias = false;                    // gpt-oss: biases in the experts and the router

  // The block.
  int norms_per_layer = 2;          // RMSNorm or LayerNorm weights per layer (Gemma 2 and 3: 4)
  bool norm_bias = false;           // LayerNorm with a bias (Falcon, GPT-NeoX)
  bool parallel_attention = false;  // attention and MLP read the same input (Falcon, GPT-NeoX)
  // Under tensor parallelism the attention's and the MLP's partial outputs are summed before one
  // all-reduce a layer, not reduced each (Falcon's parallel blocks, as engines run them).
  bool one_allreduce_per_layer = false;
  std::vector<LayerKind> layers;  // one per layer
  int mtp_layers = 0;             // DeepSeek's multi-token-prediction modules, counted apart
  std::optional<WeightQuantization> quantization;

  bool is_moe() const { return num_experts > 1; }
  // In double: sizes reach 10^8 each, and their products pass int's range.
  double q_dim() const { return static_cast<double>(num_heads) * head_dim; }
  double kv_dim() const { return static_cast<double>(num_kv_heads) * head_dim; }
  int layers_of(const LayerKind& kind) const;
  bool has_span(AttentionSpan span) const;
  int span_window(AttentionSpan span) const;  // keys a layer of this span can reach; 0: all
};

// Parameter counts, by where they live.
struct ParameterCount {
  double embedding = 0;
  double attention = 0;  // q, k, v, o (MLA's projections), biases, q/k norms, sinks
  double mlp = 0;        // dense MLPs and shared experts
  double routers = 0;    // the MoE routers, kept in 16 bit by every quantised checkpoint
  double experts = 0;    // routed experts
  double norms = 0;
  double lm_head = 0;  // zero when tied to the embedding
  double mtp = 0;      // DeepSeek's MTP modules, not in total(): the main model is what runs
  double total() const { return embedding + attention + mlp + routers + experts + norms + lm_head; }
  // Parameters one token uses: a mixture-of-experts model runs k of its E routed experts. The
  // embedding table counts whole, as DeepSeek, Qwen, Meta and Mistral count it.
  double active = 0;
  // The same without the embedding table, of which a token reads one row: how OpenAI's
  // gpt-oss model card counts active parameters.
  double active_without_embedding() const { return active - embedding; }
};

ParameterCount count_parameters(const ModelConfig& model);

// Parses a config.json. Bad input names `origin`, the field and the value.
ModelConfig parse_model_config(std::string_view json_text, const std::string& origin);

// A preset name from data/models/ (e.g. "llama-2-7b"), else a path to a config.json.
ModelConfig load_model(const std::string& name_or_path);

std::vector<std::string> model_preset_names();

// "LlamaForCausalLM, ...": the architectures parse_model_config reads.
std::string model_families();

}  // namespace ridge
