#include <fmt/format.h>

#include <algorithm>

#include "report/cells.h"
#include "ridge/units.h"
#include "ridge/views.h"

namespace ridge::report {

namespace {

std::string bits(double bytes) { return units::plain(bytes * 8, 2) + "-bit"; }

std::string workload_text(const ModelAnalysis& a) {
  const Workload& w = a.workload;
  return fmt::format(
      "batch {}, prompt {}, gen {}; weights {}, activations {}, KV {}; tp {}{}; {}{}", w.batch,
      w.prompt, w.gen, w.weights.name, bits(w.activation_bytes), bits(w.kv_bytes), w.tp,
      w.ep > 1 ? fmt::format(", ep {}", w.ep) : "",
      w.flash_attention ? "FlashAttention" : "unfused attention",
      w.kv_read_per_query_head ? ", decode reads K and V per query head" : "");
}

// "61 layers (3 dense, 58 MoE); attention: 61 full" or "24 layers; attention: 12 sliding
// (window 128), 12 full".
std::string layers_text(const ModelConfig& m) {
  const auto moe = std::ranges::count(m.layers, true, &LayerKind::moe);
  std::string text = fmt::format("{} layers", m.num_layers);
  if (moe > 0 && moe < m.num_layers)
    text += fmt::format(" ({} dense, {} MoE)", m.num_layers - moe, moe);
  if (moe == m.num_layers) text += " (all MoE)";
  std::string spans;
  for (const AttentionSpan span :
       {AttentionSpan::full, AttentionSpan::sliding, AttentionSpan::chunked}) {
    const auto n = std::ranges::count(m.layers, span, &LayerKind::span);
    if (n == 0) continue;
    spans += (spans.empty() ? "" : ", ") + fmt::format("{} {}", n, to_string(span));
    if (span != AttentionSpan::full) spans += fmt::format(" (window {})", m.span_window(span));
  }
  const std::string kind = m.mla                          ? "latent (MLA)"
                           : m.num_kv_heads == 1          ? "multi-query"
                           : m.num_kv_heads < m.num_heads ? "grouped-query"
                                                          : "multi-head";
  return fmt::format("{}; {} attention: {}", text, kind, spans);
}

Cell optional_batch(const std::optional<std::int64_t>& batch) {
  return batch ? integer_cell(*batch) : empty_cell("never (KV reads grow as fast as the FLOPs)");
}

Table ops_table(const PhaseResult& phase) {
  Table t{"ops",
          {{"name", "op", Align::left},
           {"kind", "kind", Align::left},
           {"count", "count"},
           {"flops", "FLOPs"},
           {"bytes", "bytes"},
           {"intensity", "FLOP/B"},
           {"bound", "bound", Align::left},
           {"time_s", "time >="},
           {"share", "share"},
           {"expected_time_s", "expected ~"}},
          {}};
  for (const ModelOp& op : phase.ops) {
    t.rows.push_back(
        {text_cell(op.name), text_cell(op.kind), number_cell(op.count, units::plain(op.count)),
         flops_cell(op.count * op.flops), bytes_cell(op.count * op.bytes),
         number_cell(op.intensity, units::plain(op.intensity, 1)), text_cell(op.bound),
         time_cell(op.total_time_s()), percent_cell(op.total_time_s() / phase.time_s),
         op.expected_time_s ? time_cell(op.count * *op.expected_time_s) : empty_cell()});
  }
  return t;
}

// The bound by kind of op and, where a calibration applies, the expected time beside it: a
// kind whose expected share far exceeds its bound's (norms, residuals) is paid in kernel costs.
Table kinds_table(const PhaseResult& phase) {
  Table t{"time_by_kind",
          {{"kind", "where the time goes", Align::left},
           {"time_s", "time >="},
           {"share", "share"},
           {"expected_time_s", "expected ~"},
           {"expected_share", "share ~"}},
          {}};
  const std::map<std::string, double> expected_by_kind = expected_time_by_kind(phase);
  for (const auto& [kind, seconds] : phase.time_by_kind) {
    const auto expected = expected_by_kind.find(kind);
    const bool priced = expected != expected_by_kind.end();
    t.rows.push_back(
        {text_cell(kind), time_cell(seconds), percent_cell(seconds / phase.time_s),
         priced ? time_cell(expected->second) : empty_cell(),
         priced ? percent_cell(expected->second / *phase.expected_time_s) : empty_cell()});
  }
  return t;
}

// Each collective per call, with the `ridge collective` command that prices it the same.
std::optional<Table> collectives_table(const PhaseResult& phase, const std::string& device_id) {
  Table t{"collectives",
          {{"name", "collective", Align::left},
           {"op", "op", Align::left},
           {"ranks", "GPUs"},
           {"bytes", "bytes per call"},
           {"time_s", "time per call >="},
           {"calls", "calls"},
           {"command", "the same as", Align::left}},
          {}};
  for (const ModelOp& op : phase.ops) {
    if (!op.collective) continue;
    const std::string name(to_string(*op.collective));
    t.rows.push_back({text_cell(op.name), text_cell(name), integer_cell(op.ranks),
                      bytes_cell(op.bytes), time_cell(op.time_s),
                      number_cell(op.count, units::plain(op.count)),
                      text_cell(fmt::format("ridge collective {} --device {} --gpus-per-node {} "
                                            "--bytes {:.0f} --bandwidth-only",
                                            name, device_id, op.ranks, op.bytes))});
  }
  if (t.rows.empty()) return std::nullopt;
  return t;
}

Section phase_section(const PhaseResult& phase, std::string title, std::vector<Field> headline,
                      const std::string& device_id) {
  headline.push_back({"flops", "FLOPs", flops_cell(phase.flops)});
  headline.push_back({"bytes", "bytes", bytes_cell(phase.bytes)});
  headline.push_back({"intensity", "intensity", intensity_cell(phase.intensity())});
  headline.push_back(
      {"communication_time_s", "communication", time_cell(phase.communication_time_s)});
  Section section{phase.name,
                  std::move(title),
                  {Fields{std::move(headline)}, ops_table(phase), kinds_table(phase)},
                  {}};
  if (auto collectives = collectives_table(phase, device_id))
    section.blocks.push_back(std::move(*collectives));
  return section;
}

Fields summary_fields(const ModelAnalysis& a, const Device& device) {
  const ParameterCount& p = a.parameters;
  return Fields{{
      {"model", "model", text_cell(a.model.name)},
      {"architecture", "architecture", text_cell(a.model.architecture)},
      {"layers", "layers", text_cell(layers_text(a.model))},
      {"weight_format", "weights", text_cell(a.workload.weights.name)},
      {"device", "device", text_cell(device.id)},
      {"precision", "compute at", text_cell(std::string(to_string(a.workload.compute)))},
      {"parameters", "parameters", number_cell(p.total(), units::count(p.total()))},
      {"active_parameters", "active per token", number_cell(p.active, units::count(p.active))},
      {"active_parameters_without_embedding", "active, embedding table aside",
       number_cell(p.active_without_embedding(), units::count(p.active_without_embedding()))},
      {"mtp_parameters", "MTP module (apart)", number_cell(p.mtp, units::count(p.mtp))},
      {"weights_bytes", "weights", bytes_cell(a.weights_bytes)},
      {"weights_bytes_per_gpu", "weights per GPU", bytes_cell(a.weights_bytes_per_gpu)},
      {"kv_cache_bytes", "KV cache (full context)", bytes_cell(a.kv_cache_bytes)},
      {"kv_cache_bytes_per_gpu", "KV cache per GPU", bytes_cell(a.kv_cache_bytes_per_gpu)},
      {"device_memory_bytes", "device memory", capacity_cell(a.device_memory_bytes)},
      {"fits", "fits", bool_cell(a.fits, a.fits ? "yes" : "no")},
      {"max_batch", "largest batch that fits", integer_cell(a.max_batch)},
      {"crossover_batch", "decode compute-bound from batch", optional_batch(a.crossover_batch)},
      {"linear_crossover_batch", "weight GEMMs compute-bound from",
       integer_cell(a.linear_crossover_batch)},
      {"time_to_first_token_s", "time to first token", time_cell(a.prefill.time_s)},
      {"time_per_token_s", "decode per token", time_cell(a.decode_time_per_token_s)},
      {"tokens_per_s", "tokens/s (batch)",
       number_cell(a.tokens_per_s, units::plain(a.tokens_per_s, 1))},
      {"end_to_end_s", "end to end", time_cell(a.end_to_end_s)},
  }};
}

// What a step's kernels cost for being kernels (floors, waits for their launch) and its share
// of the step: what CUDA graphs and fusion can take away.
Cell kernel_costs_cell(double cost_s, double step_s) {
  return number_cell(cost_s, fmt::format("{} ({:.0f}% of the step: kernel floors and launches)",
                                         units::seconds(cost_s), 100 * cost_s / step_s));
}

// How a model's all-reduces are priced, as `--allreduce` chose.
std::string allreduce_kernel_text(AllreduceKernel kernel) {
  switch (kernel) {
    case AllreduceKernel::trtllm:
      return "TensorRT-LLM's one-shot or two-shot kernel or NCCL's ring, as its lookup table picks "
             "by GPUs, tokens and hidden size (--allreduce trtllm)";
    case AllreduceKernel::trtllm_1_0:
      return "TensorRT-LLM 1.0's one-shot kernel up to 128 tokens, NCCL's ring past them (two-shot "
             "past them on 2 GPUs) (--allreduce trtllm-1.0)";
    case AllreduceKernel::trtllm_plugin:
      return "TensorRT-LLM's C++ runtime's one-shot or two-shot kernel by size, NCCL's ring past "
             "its buffer (--allreduce trtllm-plugin)";
    case AllreduceKernel::vllm:
      return "vLLM's custom all-reduce, NCCL's ring from its size limit up (--allreduce vllm)";
    case AllreduceKernel::sglang:
      return "vLLM's custom all-reduce as SGLang dispatches it, NCCL's ring past its size limit "
             "(--allreduce sglang)";
    case AllreduceKernel::nccl:
      break;
  }
  return "NCCL's ring";
}

// The expected figures beside the bounds, or "bound only" where no calibration applies.
Section expected_section(const ModelAnalysis& a) {
  if (!a.expected) {
    return {"expected",
            "Expected time",
            {Paragraph{"bound only: no calibration applies to this device and precision"}},
            {}};
  }
  const ExpectedRun& e = *a.expected;
  const auto ratio = [](double expected, double bound) { return ratio_cell(expected / bound); };
  Table t{"times",
          {{"figure", "figure", Align::left},
           {"bound_s", "time >="},
           {"expected_s", "expected ~"},
           {"ratio", "expected / bound"}},
          {{text_cell("time to first token"), time_cell(a.prefill.time_s),
            time_cell(e.time_to_first_token_s), ratio(e.time_to_first_token_s, a.prefill.time_s)},
           {text_cell("time per output token"), time_cell(a.decode_time_per_token_s),
            time_cell(e.time_per_token_s), ratio(e.time_per_token_s, a.decode_time_per_token_s)},
           {text_cell("end to end"), time_cell(a.end_to_end_s), time_cell(e.end_to_end_s),
            ratio(e.end_to_end_s, a.end_to_end_s)}}};
  Fields fields{{
      {"time_to_first_token_s", "time to first token", time_cell(e.time_to_first_token_s)},
      {"time_per_token_s", "time per output token", time_cell(e.time_per_token_s)},
      {"tokens_per_s", "tokens/s (batch)",
       number_cell(e.tokens_per_s, units::plain(e.tokens_per_s, 1))},
      {"end_to_end_s", "end to end", time_cell(e.end_to_end_s)},
      {"kernels_per_decode_step", "kernels per decode step",
       number_cell(a.decode.kernels, units::plain(a.decode.kernels))},
      {"kernel_costs_first_token_s", "kernel costs, first token",
       kernel_costs_cell(a.prefill.expected_kernel_cost_s, e.time_to_first_token_s)},
      {"kernel_costs_per_token_s", "kernel costs, per token",
       kernel_costs_cell(a.decode.expected_kernel_cost_s, e.time_per_token_s)},
      {"calibration", "calibration", text_cell(e.calibration)},
      {"calibration_basis", "applies as", text_cell(e.basis)},
      {"extrapolated", "extrapolated",
       bool_cell(e.extrapolated, e.extrapolated
                                     ? "yes: not measured on this device, or an op outside its "
                                       "measured sweep"
                                     : "no")},
      {"cuda_graphs", "kernels",
       bool_cell(a.workload.cuda_graphs,
                 a.workload.cuda_graphs     ? "replayed from CUDA graphs (no host launch cost)"
                 : a.workload.eager_pytorch ? "dispatched op by op from eager PyTorch "
                                              "(--eager-pytorch)"
                                            : "launched one by one from the host")},
      {"eager_pytorch", "eager PyTorch",
       bool_cell(a.workload.eager_pytorch, a.workload.eager_pytorch ? "yes" : "no")},
      {"kv_read_per_query_head", "decode attention",
       bool_cell(a.workload.kv_read_per_query_head,
                 a.workload.kv_read_per_query_head
                     ? "reads K and V once per query head (--kv-reads-per-head)"
                     : "reads K and V once per KV head")},
      {"trtllm_xqa", "decode blocks",
       bool_cell(a.workload.trtllm_xqa,
                 a.workload.trtllm_xqa
                     ? "TensorRT-LLM's XQA or masked MHA kernel over a 16-bit cache "
                       "(--trtllm-xqa): its blocks in waves, each at the calibration's cost "
                       "where it has one (Ampere, Hopper)"
                 : a.workload.flash2_decode
                     ? "FlashAttention-2's split-KV kernel (--flash2-decode): its own splits, in "
                       "waves over what the SMs hold, each block at the calibration's cost where "
                       "it has one (Ampere, Ada, Hopper)"
                     : "keys spread evenly over the SMs")},
      {"flash2_decode", "FlashAttention-2 decode",
       bool_cell(a.workload.flash2_decode, a.workload.flash2_decode ? "yes" : "no")},
      {"flash_mla", "latent attention decode",
       bool_cell(a.workload.flash_mla,
                 a.workload.flash_mla
                     ? "FlashMLA (--flash-mla): its tile scheduler's splits, each at the "
                       "calibration's cost a block where it has one (Hopper)"
                     : "keys spread evenly over the SMs")},
      {"trtllm_fmha", "prompt attention",
       bool_cell(a.workload.trtllm_fmha,
                 a.workload.trtllm_fmha
                     ? "TensorRT-LLM's context FMHA (--trtllm-fmha): at the calibration's rate "
                       "for it where it has one"
                     : "at FlashAttention's rate")},
      {"trtllm_moe", "MoE call",
       bool_cell(a.workload.trtllm_moe,
                 a.workload.trtllm_moe
                     ? "TensorRT-LLM's CUTLASS MoE (--trtllm-moe): its routing, sort, row copies "
                       "and sums beside the products"
                 : a.workload.vllm_triton_moe
                     ? "vLLM's fused experts (--vllm-triton-moe): its routing, sort and sums "
                       "beside the products"
                     : "the experts' products alone")},
      {"vllm_triton_moe", "experts' products",
       bool_cell(a.workload.vllm_triton_moe,
                 a.workload.vllm_triton_moe
                     ? "vLLM's Triton kernel at its default tiles (--vllm-triton-moe): each K step "
                       "at the calibration's time where it has one (Hopper, Blackwell)"
                     : "at the libraries' tiles")},
      {"allreduce_kernel", "all-reduce",
       Cell{std::string(to_string(a.workload.allreduce_kernel)),
            allreduce_kernel_text(a.workload.allreduce_kernel)}},
      {"torch_weight_kernels", "weight-only kernels",
       bool_cell(a.workload.torch_weight_kernels,
                 a.workload.torch_weight_kernels
                     ? "PyTorch's, at the calibration's share of the bandwidth; compiled, a "
                       "product of one row as Inductor's reduction (--torch-weight-kernels)"
                     : "the format's bytes at the full achievable bandwidth")},
  }};
  return {"expected", "Expected time (calibrated)", {std::move(fields), std::move(t)}, {}};
}

}  // namespace

Document model_document(const ModelAnalysis& a, const Device& device) {
  Document doc;
  doc.schema = "ridge.model/1";
  doc.title = fmt::format("{} on {}: {}", a.model.name, device.name, workload_text(a));
  doc.sections.push_back({"", "", {summary_fields(a, device)}, {}});
  doc.sections.push_back(expected_section(a));
  doc.sections.push_back(
      phase_section(a.prefill, fmt::format("Prefill: {} tokens per sequence", a.workload.prompt),
                    {{"time_s", "time", time_cell(a.prefill.time_s)}}, device.id));
  doc.sections.push_back(phase_section(
      a.decode, fmt::format("Decode: one step at context {}", units::plain(a.decode.context, 1)),
      {{"time_per_token_s", "time per token", time_cell(a.decode_time_per_token_s)},
       {"tokens_per_s", "tokens/s", number_cell(a.tokens_per_s, units::plain(a.tokens_per_s, 1))},
       {"context", "context", number_cell(a.decode.context, units::plain(a.decode.context, 1))}},
      device.id));
  doc.notes = {
      "times >= are roofline lower bounds summed op by op (nothing overlapped); expected ~ is "
      "what library kernels take, one kernel per op and layer, from the calibration named "
      "(docs/predict.md)",
      "prefill yields the first token; each of the gen - 1 decode steps one more",
      "weights and KV cache only: activations, workspace and fragmentation are not counted in the "
      "fit",
      fmt::format("model config: {}", a.model.source),
  };
  return doc;
}

Document model_sweep_document(const std::string& key, const std::vector<ModelAnalysis>& rows,
                              const Device& device) {
  Table t{"sweep",
          {{key, key},
           {"time_to_first_token_s", "TTFT"},
           {"time_per_token_s", "per token"},
           {"tokens_per_s", "tokens/s"},
           {"decode_intensity", "decode FLOP/B"},
           {"weights_bytes_per_gpu", "weights/GPU"},
           {"kv_cache_bytes_per_gpu", "KV/GPU"},
           {"fits", "fits"},
           {"expected_time_to_first_token_s", "TTFT ~"},
           {"expected_time_per_token_s", "per token ~"}},
          {}};
  for (const ModelAnalysis& a : rows) {
    const Workload& w = a.workload;
    t.rows.push_back({integer_cell(*sweep_field(w, key)), time_cell(a.prefill.time_s),
                      time_cell(a.decode_time_per_token_s),
                      number_cell(a.tokens_per_s, units::plain(a.tokens_per_s, 1)),
                      number_cell(a.decode.intensity(), units::plain(a.decode.intensity(), 1)),
                      bytes_cell(a.weights_bytes_per_gpu), bytes_cell(a.kv_cache_bytes_per_gpu),
                      bool_cell(a.fits, a.fits ? "yes" : "no"),
                      a.expected ? time_cell(a.expected->time_to_first_token_s) : empty_cell(),
                      a.expected ? time_cell(a.expected->time_per_token_s) : empty_cell()});
  }
  Document doc;
  doc.schema = "ridge.model_sweep/1";
  doc.title = fmt::format("{} on {}, sweeping {}", rows.front().model.name, device.name, key);
  doc.sections.push_back({"", "", {std::move(t)}, {}});
  doc.notes.push_back(
      "times are roofline lower bounds summed op by op; decode at the average context; ~ columns "
      "are the calibrated expected times (- where no calibration applies)");
  return doc;
}

}  // namespace ridge::report

namespace ridge::report {

Document models_document(const std::vector<ModelConfig>& models) {
  Table t{"models",
          {{"name", "name", Align::left},
           {"architecture", "architecture", Align::left},
           {"family", "family", Align::left},
           {"parameters", "params"},
           {"active_parameters", "active"},
           {"layers", "layers"},
           {"hidden_size", "hidden"},
           {"heads", "heads"},
           {"kv_heads", "KV heads"},
           {"vocab_size", "vocab"}},
          {}};
  for (const ModelConfig& m : models) {
    const ParameterCount p = count_parameters(m);
    t.rows.push_back({text_cell(m.name), text_cell(m.architecture), text_cell(m.family),
                      number_cell(p.total(), units::count(p.total())),
                      number_cell(p.active, units::count(p.active)), integer_cell(m.num_layers),
                      integer_cell(m.hidden_size), integer_cell(m.num_heads),
                      integer_cell(m.num_kv_heads), integer_cell(m.vocab_size)});
  }
  Document doc;
  doc.schema = "ridge.models/1";
  doc.sections.push_back({"", "", {std::move(t)}, {}});
  doc.notes.push_back(
      "presets are the published Hugging Face config.json files; `ridge model --model PATH` reads "
      "your own");
  return doc;
}

}  // namespace ridge::report
