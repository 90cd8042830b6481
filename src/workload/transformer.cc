// The operations of one transformer step (prefill or decode) on one GPU of a tensor- and
// expert-parallel group, each placed on the device's roofline. Ops of the same shape over many
// layers are one op with a count: the projections run on every layer, each attention span on
// its own layers, the dense MLP on dense layers and the experts on MoE layers.
#include <array>
#include <cmath>

#include "attention_span.h"
#include "ops/triton_moe.h"
#include "ridge/analysis.h"
#include "ridge/bounds.h"
#include "ridge/collective.h"
#include "ridge/inference.h"
#include "workload/shard.h"

namespace ridge {

namespace {

// FLOPs per element charged to element-wise work: RMSNorm (square, sum, scale, weight),
// SiLU(gate) * up (sigmoid, multiply, multiply) and softmax (max, subtract, exp, sum, divide);
// Gemma 2's soft-capping adds a division, a tanh and a multiplication per score.
constexpr double kNormFlopsPerElement = 4;
constexpr double kActivationFlopsPerElement = 5;
constexpr double kSoftmaxFlopsPerScore = 5;
constexpr double kSoftcapFlopsPerScore = 3;
// A routed pair: its expert's id and its weight, 4 bytes each; its row's index in expert order.
constexpr double kRoutingEntryBytes = 8;
constexpr double kRowIndexBytes = 4;
// What TensorRT-LLM's grouped GEMMs are given for each expert: pointers, strides and shapes for
// both products (computeStridesTmaWarpSpecializedKernel), about a cache line each.
constexpr double kGemmArgumentBytes = 128;

constexpr std::array<AttentionSpan, 3> kSpans = {AttentionSpan::full, AttentionSpan::sliding,
                                                 AttentionSpan::chunked};

// What runs a product, where the engine says: a kernel's own tile (FixedTile, vLLM's Triton
// experts) or CUTLASS's grouped kernel, which switches its TMA descriptors at each change of
// group (GemmShape::grouped, TensorRT-LLM's experts); else a library picks the tiles.
struct ProductKernel {
  std::optional<FixedTile> tile;
  bool cutlass_grouped = false;
};

// "attention" for full layers, "sliding_attention" and "chunked_attention" for the others.
std::string span_name(AttentionSpan span, const std::string& op) {
  return span == AttentionSpan::full ? op : std::string(to_string(span)) + "_" + op;
}

class StepBuilder {
 public:
  StepBuilder(const ModelConfig& m, const Workload& w, const Device& d, double new_tokens,
              double past)
      : model_(m),
        work_(w),
        device_(d),
        shard_(m, w),
        batch_(shard_.group_batch(w.batch)),
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
      if (op.engine_only) continue;  // no bound, no ideal work: its expected time alone
      phase.flops += op.count * op.flops;
      phase.bytes += communication ? 0 : op.count * op.bytes;
      phase.time_s += op.total_time_s();
      phase.communication_time_s += communication ? op.total_time_s() : 0;
      phase.time_by_kind[op.kind] += op.total_time_s();
    }
    return phase;
  }

 private:
  double tokens() const { return batch_ * new_; }  // in this GPU's attention group
  double layers() const { return model_.num_layers; }
  double moe_layers() const {
    return static_cast<double>(std::ranges::count(model_.layers, true, &LayerKind::moe));
  }
  double dense_layers() const { return layers() - moe_layers(); }
  double span_layers(AttentionSpan span) const {
    return static_cast<double>(std::ranges::count(model_.layers, span, &LayerKind::span));
  }

  // The op added; none where it runs on no layer.
  ModelOp* add(std::string name, std::string kind, double count, double flops, double bytes,
               Precision precision, std::optional<GemmShape> gemm = std::nullopt,
               std::optional<AttentionShape> attention = std::nullopt) {
    if (count <= 0) return nullptr;
    const OpAnalysis a =
        analyse(Op{kind, name, flops, bytes, gemm, attention, std::nullopt}, device_, precision);
    ModelOp& op = new_op(std::move(name), std::move(kind), count, bytes, precision);
    op.flops = flops;
    op.intensity = a.intensity;
    op.bound = to_string(a.bound);
    op.time_s = a.time_lower_bound_s;
    op.gemm_shape = gemm;
    op.attention_shape = attention;
    return &op;
  }

  ModelOp& new_op(std::string name, std::string kind, double count, double bytes,
                  Precision precision) {
    ModelOp& op = ops_.emplace_back();
    op.name = std::move(name);
    op.kind = std::move(kind);
    op.count = count;
    op.bytes = bytes;
    op.precision = precision;
    return op;
  }

  // y = x W for `rows` inputs of `in` features and `out` outputs: weights read once, inputs and
  // outputs once. `weight_sets` > 1 when several experts' (or heads') weights are read: a
  // grouped product, one group per set, the rows shared out, on `kernel` where the engine says.
  void add_linear(std::string name, std::string kind, double count, double rows, double in,
                  double out, const WeightGroup& weights, double weight_sets = 1,
                  double output_bytes = 0, const ProductKernel& kernel = {}) {
    const double out_element = output_bytes > 0 ? output_bytes : work_.activation_bytes;
    const Precision products = weights.compute.value_or(work_.compute);
    // Products narrower than the activations (fp8, int8, fp4) read their input quantised to
    // their own type on the way in.
    const double in_element = std::min(work_.activation_bytes, bytes_per_element(products));
    GemmShape shape{rows / weight_sets, out, in, weight_sets};
    shape.fixed_tile = kernel.tile;
    // fp4 products are block-scaled: the grouped kernel switches their scales' descriptors too.
    if (kernel.cutlass_grouped) shape.grouped = cutlass_grouped_kernel(products == Precision::fp4);
    ModelOp* op = add(
        std::move(name), std::move(kind), count, 2 * rows * in * out,
        weight_sets * in * out * weights.bytes + rows * in * in_element + rows * out * out_element,
        products, shape);
    // Weights narrower than the products they feed: a weight-only format, widened as read.
    if (op && weights.bytes < bytes_per_element(products)) op->weight_bits = 8 * weights.bytes;
  }

  void add_norm(std::string name, double count, double width) {
    const double elements = tokens() * width;
    add(std::move(name), "norm", count, kNormFlopsPerElement * elements,
        2 * elements * work_.activation_bytes + width * work_.weights.head.bytes, work_.compute);
  }

  void add_residual(std::string name) {
    const double elements = tokens() * model_.hidden_size;
    add(std::move(name), "residual", layers(), elements, 3 * elements * work_.activation_bytes,
        work_.compute);
  }

  // One collective per layer of `count`, priced by the collective model over the in-node link
  // exactly as `ridge collective OP --bytes buffer --gpus-per-node ranks --bandwidth-only` prices
  // it.
  ModelOp* add_collective(std::string name, CollectiveOp collective, double count, double buffer,
                          int ranks) {
    if (ranks < 2 || count <= 0) return nullptr;
    // The expected time prices latency from NCCL's own model; the bound counts none.
    const CollectiveEstimate e = collective_bound(collective, buffer, ranks, device_);
    ModelOp& op = new_op(std::move(name), "communication", count, buffer, work_.compute);
    op.bound = e.bound_link;
    op.time_s = e.time_s;
    op.collective = collective;
    op.ranks = ranks;
    return &op;
  }

  // The tensor-parallel all-reduce of a layer's hidden states: a row of the hidden size a token,
  // which an engine's dispatch reads (TensorRT-LLM's picks its kernel by both).
  void add_allreduce(std::string name) {
    const AllreduceMessage message{tokens(), static_cast<double>(model_.hidden_size),
                                   work_.activation_bytes};
    if (ModelOp* op = add_collective(std::move(name), CollectiveOp::allreduce, layers(),
                                     message.bytes(), work_.tp))
      op->message = message;
  }

  void add_embedding() {
    const double elements = tokens() * model_.hidden_size;
    add("embedding", "embedding", 1, 0,
        elements * (work_.weights.head.bytes + work_.activation_bytes), work_.compute);
  }

  void add_attention_block() {
    const double h = model_.hidden_size;
    add_norm("input_norm", layers(), h);
    if (model_.mla) {
      add_latent_attention();
    } else {
      add_qkv_projections();
      for (const AttentionSpan span : kSpans) {
        if (work_.flash_attention) {
          add_fused_attention(span);
        } else {
          add_unfused_attention(span);
        }
      }
      add_linear("o_proj", "projection", layers(), tokens(), shard_.q_dim, h,
                 work_.weights.attention);
    }
    // One all-reduce a layer serves both outputs where the model sums them first (the MLP's).
    if (!model_.one_allreduce_per_layer) add_allreduce("attention_allreduce");
    add_residual("attention_residual");
  }

  void add_qkv_projections() {
    const double h = model_.hidden_size;
    const WeightGroup& w = work_.weights.attention;
    if (model_.fused_qkv) {
      add_linear("qkv_proj", "projection", layers(), tokens(), h, shard_.q_dim + 2 * shard_.kv_dim,
                 w);
    } else {
      add_linear("q_proj", "projection", layers(), tokens(), h, shard_.q_dim, w);
      add_linear("k_proj", "projection", layers(), tokens(), h, shard_.kv_dim, w);
      add_linear("v_proj", "projection", layers(), tokens(), h, shard_.kv_dim, w);
    }
    if (model_.qk_norm_parameters > 0) add_norm("qk_norm", layers(), shard_.q_dim + shard_.kv_dim);
    add_rotary_cache_write();
  }

  // The pass every engine runs between the projections and the fused kernel (Op
  // rotary_cache_write): TensorRT-LLM's QKV preprocessing kernel, vLLM's rotary_embedding and
  // reshape_and_cache, gpt-fast's compiled rotary and cache update.
  void add_rotary_cache_write() {
    add_layer_pass("rotary_cache_write",
                   rotary_cache_write(tokens(), shard_.q_dim, shard_.kv_dim, work_.activation_bytes,
                                      work_.kv_bytes));
  }

  // A pass the op library counts (its kind, FLOPs and bytes), once a layer.
  void add_layer_pass(std::string name, const Op& pass) {
    add(std::move(name), pass.kind, layers(), pass.flops, pass.bytes, work_.compute);
  }

  AttendedKeys keys(AttentionSpan span) const {
    return attended_keys(span, model_.span_window(span), past_, new_);
  }

  double query_bytes() const { return tokens() * shard_.q_dim * work_.activation_bytes; }

  double flops_per_score(double qk_dim, double v_dim) const {
    return 2 * qk_dim + 2 * v_dim + kSoftmaxFlopsPerScore +
           (model_.attention_softcap > 0 ? kSoftcapFlopsPerScore : 0);
  }

  // Fused (FlashAttention): scores stay on chip and causal masking skips the future. K and V
  // of every key reached are read once per sequence: grouped-query heads share them.
  void add_fused_attention(AttentionSpan span) {
    const AttendedKeys k = keys(span);
    const double d = model_.head_dim;
    const double kv_read = batch_ * shard_.kv_heads * k.keys_read * d * work_.kv_bytes;
    AttentionShape shape{new_, d, shard_.heads, batch_, true, k.keys_read};
    shape.causal = true;
    shape.kv_heads = shard_.kv_heads;
    shape.kv_bytes = 2 * kv_read;
    if (new_ == 1 && work_.kv_read_per_query_head) shape.kv_reads = shard_.heads / shard_.kv_heads;
    // XQA's blocks were priced over a 16-bit cache (an fp8 one takes its GMMA kernel on Hopper).
    shape.trtllm_decode_blocks = work_.trtllm_xqa && work_.kv_bytes >= 2;
    shape.flash2_split_kv = work_.flash2_decode;
    // A decode step runs TensorRT-LLM's decode kernels (above), not its context FMHA.
    shape.trtllm_fmha = work_.trtllm_fmha && new_ > 1;
    add(span_name(span, "attention"), "attention", span_layers(span),
        batch_ * shard_.heads * k.scores * flops_per_score(d, d), 2 * query_bytes() + 2 * kv_read,
        work_.compute, std::nullopt, shape);
  }

  // Unfused: the full (masked) score matrix over the keys reached is written, read and
  // rewritten by the softmax, and read again by the product with V.
  void add_unfused_attention(AttentionSpan span) {
    const AttendedKeys k = keys(span);
    const double scores = batch_ * shard_.heads * new_ * k.keys_read;
    const double score_bytes = scores * work_.activation_bytes;
    const double d = model_.head_dim;
    const double kv_read = batch_ * shard_.kv_heads * k.keys_read * d * work_.kv_bytes;
    const double count = span_layers(span);
    add(span_name(span, "qk"), "attention", count, 2 * scores * d,
        query_bytes() + kv_read + score_bytes, work_.compute);
    add(span_name(span, "softmax"), "attention", count, kSoftmaxFlopsPerScore * scores,
        2 * score_bytes, work_.compute);
    add(span_name(span, "sv"), "attention", count, 2 * scores * d,
        score_bytes + kv_read + query_bytes(), work_.compute);
  }

  // DeepSeek's latent attention. Prefill runs it expanded: kv_b_proj turns each key's latent
  // into per-head keys and values, and a FlashAttention kernel with 192-wide keys does the rest.
  // Decode runs it absorbed: the queries are carried into the latent space (q_absorb), attend
  // to the cached latents directly (FlashMLA), and come back through v_absorb. vLLM and SGLang
  // both run it so (docs/model.md).
  void add_latent_attention() {
    const LatentAttention& a = *model_.mla;
    const double h = model_.hidden_size;
    const WeightGroup& w = work_.weights.attention;
    const double q_width = shard_.heads * a.qk_head_dim();
    if (a.q_lora_rank > 0) {
      add_linear("q_a_proj", "projection", layers(), tokens(), h, a.q_lora_rank, w);
      add_linear("q_b_proj", "projection", layers(), tokens(), a.q_lora_rank, q_width, w);
    } else {
      add_linear("q_proj", "projection", layers(), tokens(), h, q_width, w);
    }
    add_linear("kv_a_proj", "projection", layers(), tokens(), h, a.cache_elements(), w);
    add_norm("latent_norm", layers(), a.q_lora_rank + a.kv_lora_rank);
    add_latent_rotary_cache_write(a);
    if (new_ > 1) {
      add_expanded_latent_attention(a);
    } else {
      add_absorbed_latent_attention(a);
    }
    add_linear("o_proj", "projection", layers(), tokens(), shard_.heads * a.v_head_dim, h, w);
  }

  // The pass every engine runs between the latent projections and the attention (Op
  // latent_rotary_cache_write): each head's rotary query dimensions turned, and each new token's
  // latent, its shared rotary key turned, written into the cache (TensorRT-LLM's
  // mla_rope_generation and its context counterpart, vLLM's rotary_embedding and
  // concat_and_cache_mla).
  void add_latent_rotary_cache_write(const LatentAttention& a) {
    add_layer_pass(
        "latent_rotary_cache_write",
        latent_rotary_cache_write(tokens(), shard_.heads, a.qk_rope_head_dim, a.cache_elements(),
                                  work_.activation_bytes, work_.kv_bytes));
  }

  void add_expanded_latent_attention(const LatentAttention& a) {
    const AttendedKeys k = keys(AttentionSpan::full);
    const double heads = shard_.heads;
    const double qk = a.qk_head_dim();
    const double v = a.v_head_dim;
    add_linear("kv_b_proj", "projection", layers(), batch_ * k.keys_read, a.kv_lora_rank,
               heads * (a.qk_nope_head_dim + v), work_.weights.attention);
    const double act = work_.activation_bytes;
    const double bytes =
        tokens() * heads * (qk + v) * act + batch_ * k.keys_read * heads * (qk + v) * act;
    AttentionShape shape{new_, qk, heads, batch_, true, k.keys_read};
    shape.causal = true;
    add("attention", "attention", layers(), batch_ * heads * k.scores * flops_per_score(qk, v),
        bytes, work_.compute, std::nullopt, shape);
  }

  void add_absorbed_latent_attention(const LatentAttention& a) {
    const AttendedKeys k = keys(AttentionSpan::full);
    const double heads = shard_.heads;
    const double latent = a.kv_lora_rank;
    const double cached = a.cache_elements();
    const WeightGroup& w = work_.weights.attention;
    add_linear("q_absorb", "projection", layers(), tokens() * heads, a.qk_nope_head_dim, latent, w,
               heads);
    const double act = work_.activation_bytes;
    const double kv_read = batch_ * k.keys_read * cached * work_.kv_bytes;
    const double bytes = tokens() * heads * (cached + latent) * act + kv_read;
    // One latent a key, read once for every head: its first `latent` elements the values.
    AttentionShape shape{new_, cached, heads, batch_, true, k.keys_read};
    shape.kv_heads = 1;
    shape.d_value = latent;
    shape.values_in_keys = true;
    shape.kv_bytes = kv_read;
    shape.flash_mla = work_.flash_mla;
    add("attention", "attention", layers(),
        batch_ * heads * k.scores * flops_per_score(cached, latent), bytes, work_.compute,
        std::nullopt, shape);
    add_linear("v_absorb", "projection", layers(), tokens() * heads, latent, a.v_head_dim, w,
               heads);
  }

  void add_mlp_block() {
    add_norm("post_attention_norm", layers() * (model_.norms_per_layer - 1), model_.hidden_size);
    add_mlp("", dense_layers(), tokens(), shard_.intermediate, work_.weights.mlp, 1);
    if (moe_layers() > 0) add_experts();
    add_allreduce("mlp_allreduce");
    add_residual("mlp_residual");
  }

  // A dense MLP of `width` columns over `rows` tokens, on `count` layers: gate and up (fused
  // where the checkpoint fuses them, or `fuse_gate_up`) or up alone, the activation, and down.
  void add_mlp(const std::string& prefix, double count, double rows, double width,
               const WeightGroup& w, double weight_sets, bool fuse_gate_up = false,
               const ProductKernel& kernel = {}) {
    if (count <= 0 || width <= 0) return;
    const double h = model_.hidden_size;
    if (!model_.gated_mlp) {
      add_linear(prefix + "up_proj", "mlp", count, rows, h, width, w, weight_sets, 0, kernel);
    } else if (model_.fused_gate_up || fuse_gate_up) {
      add_linear(prefix + "gate_up_proj", "mlp", count, rows, h, 2 * width, w, weight_sets, 0,
                 kernel);
    } else {
      add_linear(prefix + "gate_proj", "mlp", count, rows, h, width, w, weight_sets);
      add_linear(prefix + "up_proj", "mlp", count, rows, h, width, w, weight_sets);
    }
    const double gated = model_.gated_mlp ? 3 : 2;
    add(prefix + "act_mul", "mlp", count, kActivationFlopsPerElement * rows * width,
        gated * rows * width * work_.activation_bytes, work_.compute);
    add_linear(prefix + "down_proj", "mlp", count, rows, width, h, w, weight_sets, 0, kernel);
  }

  // Mixture of experts: a router picks k of E experts per token. With uniform routing the
  // number of experts that receive at least one of T tokens, and whose weights are therefore
  // read, is E (1 - (1 - k/E)^T). Under expert parallelism each GPU holds E / ep of them and
  // receives T k / ep rows (times the imbalance on the busiest GPU), sent and returned by an
  // all-to-all on each side.
  void add_experts() {
    const double experts = model_.num_experts;
    const double k = model_.experts_per_token;
    const double h = model_.hidden_size;
    const double count = moe_layers();
    add_linear("router", "mlp", count, tokens(), h, experts, work_.weights.head);
    add_expert_routing(count);
    const double all_tokens = static_cast<double>(work_.batch) * new_;
    const double imbalance = work_.ep > 1 ? work_.expert_imbalance : 1;
    const double rows = all_tokens * k / shard_.ep * imbalance;
    const double active = random_active_experts(shard_.local_experts, all_tokens, k, experts);
    const double buffer = rows * h * work_.activation_bytes;
    add_collective("moe_dispatch", CollectiveOp::alltoall, count, buffer, work_.ep);
    add_expert_order(count, rows);
    // TensorRT-LLM's MoE keeps each expert's gate and up weights as one matrix (w3_w1), as
    // vLLM's does (w13).
    add_mlp("expert_", count, rows, shard_.expert_intermediate, work_.weights.experts, active,
            engine_moe_call(), expert_kernel(all_tokens, imbalance));
    add_engine_only("expert_combine", count, rows * h,
                    (rows + tokens()) * h * work_.activation_bytes, engine_moe_call());
    add_collective("moe_combine", CollectiveOp::alltoall, count, buffer, work_.ep);
    add_mlp("shared_", count, tokens(), shard_.shared_intermediate, work_.weights.mlp, 1);
  }

  // The kernel of the step's expert products over `all_tokens` tokens, where the engine's MoE
  // call says: vLLM's Triton kernel at its default tile (Workload::vllm_triton_moe), its grid's
  // row tiles those of this GPU's experts under uniform routing, each expert's rows padded to
  // the tile, times the busiest GPU's imbalance; TensorRT-LLM's CUTLASS grouped kernel
  // (Workload::trtllm_moe), which switches its TMA descriptors at each change of expert. Else a
  // library's tiles.
  ProductKernel expert_kernel(double all_tokens, double imbalance) const {
    ProductKernel kernel;
    kernel.cutlass_grouped = work_.trtllm_moe;
    if (!work_.vllm_triton_moe) return kernel;
    FixedTile tile = triton_moe_default_tile(all_tokens, shard_.local_experts);
    tile.row_tiles =
        imbalance * random_row_tiles(shard_.local_experts, all_tokens, model_.experts_per_token,
                                     model_.num_experts, tile.m);
    kernel.tile = tile;
    return kernel;
  }

  // Whether an engine's MoE call runs the experts, with its kernels around their products:
  // TensorRT-LLM's CUTLASS MoE (Workload::trtllm_moe) or vLLM's fused experts on its Triton
  // kernel (Workload::vllm_triton_moe); else the products alone.
  bool engine_moe_call() const { return work_.trtllm_moe || work_.vllm_triton_moe; }

  // One of the MoE call's own kernels around the experts' products, where `runs`: both engines
  // take the top k of each token's router logits and their softmax (TensorRT-LLM's routing op,
  // vLLM's topk_softmax), sort the token-expert pairs by expert (its expert maps,
  // moe_align_block_size) and, after the products, sum each token's k rows back (its
  // finalizeMoeRouting, vLLM's moe_sum); TensorRT-LLM also copies each pair's token into its
  // expert's rows and writes the grouped GEMMs' arguments (CutlassMoeFCRunner::runMoe), where
  // vLLM's Triton products gather the rows themselves (fused_experts_impl: the calls `ridge
  // validate` prices the same way in aiconfigurator's tables). None is ideal work: a kernel could
  // gather the rows and sum them in its epilogue.
  void add_engine_only(std::string name, double count, double flops, double bytes, bool runs) {
    if (!runs) return;
    ModelOp* op = add(std::move(name), "mlp", count, flops, bytes, work_.compute);
    if (!op) return;
    op->engine_only = true;
    op->time_s = 0;
    op->bound = "none (the engine's own work)";
  }

  void add_expert_routing(double count) {
    const double logits = tokens() * model_.num_experts;
    const double chosen = tokens() * model_.experts_per_token;
    add_engine_only("expert_routing", count, kSoftmaxFlopsPerScore * logits,
                    logits * work_.activation_bytes + chosen * kRoutingEntryBytes,
                    engine_moe_call());
  }

  // The sort is one kernel (TensorRT-LLM's fusedBuildExpertMapsSortFirstToken, past 256 tokens
  // three, their floors not counted; vLLM's moe_align_block_size); TensorRT-LLM's permute and
  // its grouped GEMMs' per-expert arguments, one more each.
  void add_expert_order(double count, double rows) {
    add_engine_only("expert_sort", count, rows, rows * (kRoutingEntryBytes + kRowIndexBytes),
                    engine_moe_call());
    add_engine_only("expert_permute", count, 0,
                    2 * rows * model_.hidden_size * work_.activation_bytes, work_.trtllm_moe);
    add_engine_only("expert_gemm_arguments", count, 0, shard_.local_experts * kGemmArgumentBytes,
                    work_.trtllm_moe);
  }

  // Logits for the last position of each sequence only: that is all generation needs.
  void add_head() {
    add_norm("final_norm", 1, model_.hidden_size);
    add_linear("lm_head", "lm_head", 1, batch_, model_.hidden_size, shard_.vocab,
               work_.weights.head);
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
