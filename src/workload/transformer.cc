// The operations of one transformer step (prefill or decode) on one GPU of a tensor-parallel
// group, each placed on the device's roofline.
#include <cmath>

#include "ridge/analysis.h"
#include "ridge/bounds.h"
#include "ridge/collective.h"
#include "ridge/inference.h"
#include "workload/shard.h"

namespace ridge {

namespace {

// FLOPs per element charged to element-wise work: RMSNorm (square, sum, scale, weight),
// SiLU(gate) * up (sigmoid, multiply, multiply) and softmax (max, subtract, exp, sum, divide).
constexpr double kNormFlopsPerElement = 4;
constexpr double kActivationFlopsPerElement = 5;
constexpr double kSoftmaxFlopsPerScore = 5;

class StepBuilder {
 public:
  StepBuilder(const ModelConfig& m, const Workload& w, const Device& d, double new_tokens,
              double past)
      : model_(m),
        work_(w),
        device_(d),
        shard_(m, w),
        batch_(w.batch),
        new_(new_tokens),
        past_(past) {}

  PhaseResult build(std::string name) {
    PhaseResult phase;
    phase.name = std::move(name);
    phase.new_tokens = new_;
    phase.context = past_ + new_;
    add_embedding();
    add_attention_block();
    add_mlp_block();
    add_head();
    phase.ops = std::move(ops_);
    for (const ModelOp& op : phase.ops) {
      const bool communication = op.kind == "communication";
      phase.flops += op.count * op.flops;
      phase.bytes += communication ? 0 : op.count * op.bytes;
      phase.time_s += op.total_time_s();
      phase.communication_time_s += communication ? op.total_time_s() : 0;
      phase.time_by_kind[op.kind] += op.total_time_s();
    }
    return phase;
  }

 private:
  double tokens() const { return batch_ * new_; }
  double layers() const { return model_.num_layers; }

  void add(std::string name, std::string kind, double count, double flops, double bytes,
           std::optional<GemmShape> gemm = std::nullopt,
           std::optional<AttentionShape> attention = std::nullopt) {
    const OpAnalysis a =
        analyse(Op{kind, name, flops, bytes, gemm, attention}, device_, work_.compute);
    ops_.push_back({std::move(name), std::move(kind), count, flops, bytes, a.intensity,
                    std::string(to_string(a.bound)), a.time_lower_bound_s, gemm, attention,
                    std::nullopt});
  }

  // y = x W for `rows` inputs of `in` features and `out` outputs: weights read once, inputs and
  // outputs once. `weight_sets` > 1 when several experts' weights are read.
  void add_linear(std::string name, std::string kind, double count, double rows, double in,
                  double out, double weight_sets = 1, double output_bytes = 0) {
    const double out_element = output_bytes > 0 ? output_bytes : work_.activation_bytes;
    // Several experts' weights: a grouped product, one group per expert, the rows shared out.
    const GemmShape shape{rows / weight_sets, out, in, weight_sets};
    add(std::move(name), std::move(kind), count, 2 * rows * in * out,
        weight_sets * in * out * work_.weight_bytes + rows * in * work_.activation_bytes +
            rows * out * out_element,
        shape);
  }

  void add_norm(std::string name, double count) {
    const double elements = tokens() * model_.hidden_size;
    add(std::move(name), "norm", count, kNormFlopsPerElement * elements,
        2 * elements * work_.activation_bytes + model_.hidden_size * work_.weight_bytes);
  }

  void add_residual(std::string name) {
    const double elements = tokens() * model_.hidden_size;
    add(std::move(name), "residual", layers(), elements, 3 * elements * work_.activation_bytes);
  }

  // One all-reduce of the block's output across the tensor-parallel group, over the in-node link.
  void add_allreduce(std::string name) {
    if (work_.tp < 2) return;
    const Link& link = in_node_link(device_);
    const double sent =
        ring_allreduce_bytes(tokens() * model_.hidden_size * work_.activation_bytes, work_.tp);
    ops_.push_back({std::move(name),
                    "communication",
                    layers(),
                    0,
                    sent,
                    0,
                    link.name,
                    transfer_time_s(sent, link.bandwidth_bytes_per_s.value),
                    {},
                    {},
                    {}});
  }

  void add_embedding() {
    const double elements = tokens() * model_.hidden_size;
    add("embedding", "embedding", 1, 0, elements * (work_.weight_bytes + work_.activation_bytes));
  }

  void add_attention_block() {
    const double h = model_.hidden_size;
    add_norm("input_norm", layers());
    add_linear("q_proj", "projection", layers(), tokens(), h, shard_.q_dim);
    add_linear("k_proj", "projection", layers(), tokens(), h, shard_.kv_dim, 1, work_.kv_bytes);
    add_linear("v_proj", "projection", layers(), tokens(), h, shard_.kv_dim, 1, work_.kv_bytes);
    if (work_.flash_attention) {
      add_fused_attention();
    } else {
      add_unfused_attention();
    }
    add_linear("o_proj", "projection", layers(), tokens(), shard_.q_dim, h);
    add_allreduce("attention_allreduce");
    add_residual("attention_residual");
  }

  // K and V of every cached token, read once per sequence: grouped-query heads share them.
  double kv_read_bytes() const {
    return batch_ * shard_.kv_heads * (past_ + new_) * model_.head_dim * work_.kv_bytes;
  }

  double query_bytes() const { return tokens() * shard_.q_dim * work_.activation_bytes; }

  // Fused (FlashAttention): scores stay on chip and causal masking skips the future, so each new
  // token scores against the cache plus the new tokens before it.
  void add_fused_attention() {
    const double scores = batch_ * shard_.heads * (new_ * past_ + new_ * (new_ + 1) / 2);
    const AttentionShape shape{
        new_, static_cast<double>(model_.head_dim), shard_.heads, batch_, true, past_ + new_};
    add("attention", "attention", layers(), scores * (4 * model_.head_dim + kSoftmaxFlopsPerScore),
        2 * query_bytes() + 2 * kv_read_bytes(), std::nullopt, shape);
  }

  // Unfused: the full (masked) score matrix is written, read and rewritten by the softmax, and
  // read again by the product with V.
  void add_unfused_attention() {
    const double scores = batch_ * shard_.heads * new_ * (past_ + new_);
    const double score_bytes = scores * work_.activation_bytes;
    const double d = model_.head_dim;
    add("qk", "attention", layers(), 2 * scores * d, query_bytes() + kv_read_bytes() + score_bytes);
    add("softmax", "attention", layers(), kSoftmaxFlopsPerScore * scores, 2 * score_bytes);
    add("sv", "attention", layers(), 2 * scores * d, score_bytes + kv_read_bytes() + query_bytes());
  }

  void add_mlp_block() {
    add_norm("post_attention_norm", layers());
    if (model_.is_moe()) {
      add_experts();
    } else {
      add_dense_mlp();
    }
    add_allreduce("mlp_allreduce");
    add_residual("mlp_residual");
  }

  void add_gated_mlp(const std::string& prefix, double rows, double weight_sets) {
    const double h = model_.hidden_size;
    const double inter = shard_.intermediate;
    add_linear(prefix + "gate_proj", "mlp", layers(), rows, h, inter, weight_sets);
    add_linear(prefix + "up_proj", "mlp", layers(), rows, h, inter, weight_sets);
    add(prefix + "act_mul", "mlp", layers(), kActivationFlopsPerElement * rows * inter,
        3 * rows * inter * work_.activation_bytes);
    add_linear(prefix + "down_proj", "mlp", layers(), rows, inter, h, weight_sets);
  }

  void add_dense_mlp() { add_gated_mlp("", tokens(), 1); }

  // Mixture of experts: a router picks k of E experts per token. With uniform routing the number
  // of experts that receive at least one of T tokens, and whose weights are therefore read, is
  // E (1 - (1 - k/E)^T).
  void add_experts() {
    const double experts = model_.num_experts;
    const double k = model_.experts_per_token;
    add_linear("router", "mlp", layers(), tokens(), model_.hidden_size, experts);
    const double active = experts * (1 - std::pow(1 - k / experts, tokens()));
    add_gated_mlp("expert_", tokens() * k, active);
  }

  // Logits for the last position of each sequence only: that is all generation needs.
  void add_head() {
    const double elements = tokens() * model_.hidden_size;
    add("final_norm", "norm", 1, kNormFlopsPerElement * elements,
        2 * elements * work_.activation_bytes + model_.hidden_size * work_.weight_bytes);
    add_linear("lm_head", "lm_head", 1, batch_, model_.hidden_size, shard_.vocab);
  }

  const ModelConfig& model_;
  const Workload& work_;
  const Device& device_;
  Shard shard_;
  double batch_;
  double new_;
  double past_;
  std::vector<ModelOp> ops_;
};

}  // namespace

PhaseResult model_step(const ModelConfig& model, const Workload& workload, const Device& device,
                       std::string name, double new_tokens, double past) {
  return StepBuilder(model, workload, device, new_tokens, past).build(std::move(name));
}

}  // namespace ridge
