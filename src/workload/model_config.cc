// Reads a Hugging Face config.json. Every problem is bad input naming the file and the field.
#include <algorithm>
#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/embedded.h"
#include "core/json_input.h"
#include "ridge/error.h"
#include "ridge/input_file.h"
#include "ridge/model.h"

namespace ridge {

namespace {

using Json = nlohmann::json;

constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kFamilies = {{
    {"LlamaForCausalLM", "llama"},
    {"MistralForCausalLM", "mistral"},
    {"Qwen2ForCausalLM", "qwen2"},
    {"MixtralForCausalLM", "mixtral"},
}};

class ConfigReader {
 public:
  ConfigReader(const Json& root, std::string origin) : root_(root), origin_(std::move(origin)) {}

  ModelConfig read() {
    ModelConfig m;
    m.architecture = architecture();
    m.hidden_size = integer("hidden_size");
    m.intermediate_size = integer("intermediate_size");
    m.num_layers = integer("num_hidden_layers");
    m.num_heads = integer("num_attention_heads");
    m.vocab_size = integer("vocab_size");
    m.num_kv_heads = optional_integer("num_key_value_heads", m.num_heads);
    m.head_dim = optional_integer("head_dim", 0);
    m.tie_word_embeddings = boolean("tie_word_embeddings", false);
    m.qkv_bias = m.architecture == "Qwen2ForCausalLM";
    const bool mixtral = m.architecture == "MixtralForCausalLM";
    m.num_experts = mixtral ? integer("num_local_experts") : 1;
    m.experts_per_token = mixtral ? integer("num_experts_per_tok") : 1;
    m.source = string("_ridge_source", origin_);
    check_shape(m);
    return m;
  }

 private:
  [[noreturn]] void fail(std::string_view field, const std::string& problem) const {
    input_error("{}: {}: {}", origin_, field, problem);
  }

  std::string architecture() const {
    if (const auto it = root_.find("architectures"); it != root_.end()) {
      if (!it->is_array() || it->empty() || !(*it)[0].is_string()) {
        fail("architectures", "must be a list holding the architecture's name");
      }
      const std::string name = (*it)[0].get<std::string>();
      if (std::ranges::find(kFamilies, name,
                            &std::pair<std::string_view, std::string_view>::first) ==
          kFamilies.end()) {
        fail("architectures",
             fmt::format("'{}' is not supported (supported: {})", name, supported()));
      }
      return name;
    }
    const std::string type = string("model_type", "");
    const auto* family =
        std::ranges::find(kFamilies, type, &std::pair<std::string_view, std::string_view>::second);
    if (family == kFamilies.end()) {
      fail("model_type", fmt::format("'{}' is not supported (supported: {})", type, supported()));
    }
    return std::string(family->first);
  }

  static std::string supported() {
    std::string names;
    for (const auto& [architecture, type] : kFamilies) {
      names += (names.empty() ? "" : ", ") + std::string(architecture);
    }
    return names;
  }

  std::string string(const char* field, const std::string& fallback) const {
    const auto it = root_.find(field);
    if (it == root_.end() || it->is_null()) return fallback;
    if (!it->is_string()) fail(field, fmt::format("{} is not a string", it->dump()));
    return it->get<std::string>();
  }

  int integer(const char* field) const {
    const auto it = root_.find(field);
    if (it == root_.end() || it->is_null()) fail(field, "missing");
    return checked_integer(field, *it);
  }

  int optional_integer(const char* field, int fallback) const {
    const auto it = root_.find(field);
    return it == root_.end() || it->is_null() ? fallback : checked_integer(field, *it);
  }

  // Sizes are whole and positive; above 10^8 no real model goes, and products of such sizes
  // stay far inside a double's exact range.
  int checked_integer(const char* field, const Json& value) const {
    try {
      return static_cast<int>(whole_number(value, 1, 100'000'000));
    } catch (const std::invalid_argument& e) {
      fail(field, e.what());
    }
  }

  bool boolean(const char* field, bool fallback) const {
    const auto it = root_.find(field);
    if (it == root_.end() || it->is_null()) return fallback;
    if (!it->is_boolean()) fail(field, fmt::format("{} is not true or false", it->dump()));
    return it->get<bool>();
  }

  void check_shape(ModelConfig& m) const {
    if (m.head_dim == 0) {
      if (m.hidden_size % m.num_heads != 0) {
        fail("num_attention_heads",
             fmt::format("{} does not divide hidden_size {}", m.num_heads, m.hidden_size));
      }
      m.head_dim = m.hidden_size / m.num_heads;
    }
    if (m.num_heads % m.num_kv_heads != 0) {
      fail("num_key_value_heads",
           fmt::format("{} does not divide num_attention_heads {}", m.num_kv_heads, m.num_heads));
    }
    if (m.experts_per_token > m.num_experts) {
      fail("num_experts_per_tok",
           fmt::format("{} is more than num_local_experts {}", m.experts_per_token, m.num_experts));
    }
  }

  const Json& root_;
  std::string origin_;
};

// "llama-2-7b.json" -> "llama-2-7b"; "models/Llama-3-8B/config.json" -> "Llama-3-8B".
std::string stem(const std::string& path) {
  const std::filesystem::path p(path);
  if (p.stem() == "config" && p.has_parent_path()) return p.parent_path().filename().string();
  return p.stem().string();
}

}  // namespace

ModelConfig parse_model_config(std::string_view json_text, const std::string& origin) {
  const Json root = parse_json_input<Json>(json_text, origin);
  if (!root.is_object()) input_error("{}: the top level must be a JSON object", origin);
  ModelConfig model = ConfigReader(root, origin).read();
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

ParameterCount count_parameters(const ModelConfig& m) {
  const double h = m.hidden_size;
  const double layers = m.num_layers;
  const double q = m.q_dim();
  const double kv = m.kv_dim();
  const double expert = 3 * h * m.intermediate_size;  // gate, up, down
  const double router = m.is_moe() ? h * m.num_experts : 0;
  ParameterCount p;
  p.embedding = m.vocab_size * h;
  p.attention = layers * (h * q + 2 * h * kv + q * h + (m.qkv_bias ? q + 2 * kv : 0));
  p.mlp = layers * (m.num_experts * expert + router);
  p.norms = layers * 2 * h + h;
  p.lm_head = m.tie_word_embeddings ? 0 : m.vocab_size * h;
  p.active = p.total() - layers * (m.num_experts - m.experts_per_token) * expert;
  return p;
}

}  // namespace ridge
