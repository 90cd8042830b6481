// Parameter counts from the shapes, group by group, for the whole model or one GPU's shard.
#include "attention_span.h"
#include "ridge/model.h"
#include "workload/shard.h"

namespace ridge {

Shard::Shard(const ModelConfig& m, const Workload& w)
    : tp(w.tp), ep(w.ep), dp(static_cast<double>(w.ep) / w.tp) {
  if (dp < 1) dp = 1;
  heads = m.num_heads / tp;
  kv_heads = m.num_kv_heads >= w.tp ? m.num_kv_heads / tp : 1;
  q_dim = heads * m.head_dim;
  kv_dim = kv_heads * m.head_dim;
  intermediate = m.intermediate_size / tp;
  shared_intermediate = m.shared_expert_intermediate_size / tp;
  expert_intermediate = w.ep > 1 ? m.moe_intermediate_size : m.moe_intermediate_size / tp;
  local_experts = m.is_moe() ? m.num_experts / ep : 0;
  vocab = m.vocab_size / tp;
}

double Shard::kv_cache_elements(const ModelConfig& m, double context) const {
  const double per_token = m.mla ? m.mla->cache_elements() : 2 * kv_dim;
  double tokens = 0;
  for (const LayerKind& layer : m.layers)
    tokens += cached_tokens(layer.span, m.span_window(layer.span), context);
  return per_token * tokens;
}

namespace {

double attention_parameters(const ModelConfig& m, const Shard& s) {
  const double h = m.hidden_size;
  if (m.mla) {
    // q_a, kv_a and their norms are replicated over the tensor-parallel group; q_b, kv_b and o
    // are split by heads.
    const LatentAttention& a = *m.mla;
    const double q_width = s.heads * a.qk_head_dim();
    const double q = a.q_lora_rank > 0 ? h * a.q_lora_rank + a.q_lora_rank + a.q_lora_rank * q_width
                                       : h * q_width;
    const double kv = h * a.cache_elements() + a.kv_lora_rank +
                      a.kv_lora_rank * s.heads * (a.qk_nope_head_dim + a.v_head_dim);
    return q + kv + s.heads * a.v_head_dim * h;
  }
  return h * s.q_dim + 2 * h * s.kv_dim + s.q_dim * h + (m.qkv_bias ? s.q_dim + 2 * s.kv_dim : 0) +
         (m.o_bias ? h : 0) + m.qk_norm_parameters + (m.attention_sinks ? s.heads : 0);
}

// An MLP of `width` columns: gate, up and down (or up and down), with their biases.
double mlp_parameters(const ModelConfig& m, double width, bool bias) {
  const double matrices = m.gated_mlp ? 3 : 2;
  const double h = m.hidden_size;
  return matrices * h * width + (bias ? (matrices - 1) * width + h : 0);
}

double norm_parameters(const ModelConfig& m) { return m.hidden_size * (m.norm_bias ? 2.0 : 1.0); }

double router_parameters(const ModelConfig& m) {
  const double h = m.hidden_size;
  return h * m.num_experts + (m.expert_bias ? m.num_experts : 0);
}

// One MoE layer's shared experts (the routed experts are apart).
double shared_expert_parameters(const ModelConfig& m, const Shard& s) {
  return m.shared_experts > 0 ? mlp_parameters(m, s.shared_intermediate, m.mlp_bias) : 0;
}

double expert_parameters(const ModelConfig& m, const Shard& s) {
  return mlp_parameters(m, s.expert_intermediate, m.expert_bias);
}

// DeepSeek's MTP module: one more MoE layer, whose input joins the embedding of the next token
// to the last hidden state (two norms and a 2h-by-h projection); it shares embedding and head.
double mtp_parameters(const ModelConfig& m, const Shard& s) {
  const double h = m.hidden_size;
  const double layer = attention_parameters(m, s) + router_parameters(m) +
                       shared_expert_parameters(m, s) + s.local_experts * expert_parameters(m, s) +
                       (m.norms_per_layer + 3) * norm_parameters(m);
  return m.mtp_layers * (layer + 2 * h * h);
}

}  // namespace

ParameterCount parameters_on(const ModelConfig& m, const Shard& s) {
  ParameterCount p;
  const double h = m.hidden_size;
  double idle_experts = 0;  // routed experts a token does not run, over all MoE layers
  for (const LayerKind& layer : m.layers) {
    p.attention += attention_parameters(m, s);
    p.norms += m.norms_per_layer * norm_parameters(m);
    if (layer.moe) {
      p.mlp += shared_expert_parameters(m, s);
      p.routers += router_parameters(m);
      p.experts += s.local_experts * expert_parameters(m, s);
      idle_experts += (s.local_experts - m.experts_per_token / s.ep) * expert_parameters(m, s);
    } else {
      p.mlp += mlp_parameters(m, s.intermediate, m.mlp_bias);
    }
  }
  p.norms += norm_parameters(m);
  p.embedding = s.vocab * h;
  p.lm_head = m.tie_word_embeddings ? 0 : s.vocab * h;
  p.mtp = mtp_parameters(m, s);
  p.active = p.total() - idle_experts;
  return p;
}

double weight_bytes_on(const ModelConfig& m, const Shard& s, const WeightFormats& f) {
  const ParameterCount p = parameters_on(m, s);
  return p.attention * f.attention.bytes + p.mlp * f.mlp.bytes + p.experts * f.experts.bytes +
         (p.embedding + p.lm_head + p.norms + p.routers) * f.head.bytes;
}

ParameterCount count_parameters(const ModelConfig& m) {
  return parameters_on(m, Shard(m, Workload{}));
}

}  // namespace ridge
