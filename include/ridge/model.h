#pragma once
// A decoder-only transformer as described by a Hugging Face config.json (Llama, Mistral, Qwen2
// and Mixtral families), and the presets shipped in data/models/.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ridge {

struct ModelConfig {
  std::string name;          // preset name or file stem
  std::string architecture;  // e.g. "LlamaForCausalLM"
  std::string source;        // where the config was published, when known
  int hidden_size = 0;
  int intermediate_size = 0;  // per expert for mixture-of-experts models
  int num_layers = 0;
  int num_heads = 0;
  int num_kv_heads = 0;
  int head_dim = 0;
  int vocab_size = 0;
  bool tie_word_embeddings = false;
  bool qkv_bias = false;  // Qwen2 adds biases to the q, k and v projections
  int num_experts = 1;    // 1 for a dense MLP
  int experts_per_token = 1;

  bool is_moe() const { return num_experts > 1; }
  int q_dim() const { return num_heads * head_dim; }
  int kv_dim() const { return num_kv_heads * head_dim; }
};

// Parameter counts, by where they live.
struct ParameterCount {
  double embedding = 0;
  double attention = 0;  // q, k, v, o (and their biases) over all layers
  double mlp = 0;        // gate, up, down (all experts) and the router, over all layers
  double norms = 0;
  double lm_head = 0;  // zero when tied to the embedding
  double total() const { return embedding + attention + mlp + norms + lm_head; }
  // Parameters one token touches: a mixture-of-experts model uses k of its E experts.
  double active = 0;
};

ParameterCount count_parameters(const ModelConfig& model);

// Parses a config.json. Bad input names `origin`, the field and the value.
ModelConfig parse_model_config(std::string_view json_text, const std::string& origin);

// A preset name from data/models/ (e.g. "llama-2-7b"), else a path to a config.json.
ModelConfig load_model(const std::string& name_or_path);

std::vector<std::string> model_preset_names();

}  // namespace ridge
