#include <charconv>

#include "common.h"
#include "ridge/error.h"
#include "ridge/inference.h"
#include "ridge/views.h"

namespace ridge::cli {

namespace {

struct ModelArgs {
  std::string model;
  std::string device;
  double batch = 1, prompt = 512, gen = 128, tp = 1, ep = 1;
  double expert_imbalance = 1;
  std::string dtype;
  std::string quant, kv_quant;
  double wbits = 0, abits = 0, kvbits = 0;  // 0: from --dtype (default fp16)
  bool no_flash = false;
  bool per_step = false;
  bool cuda_graphs = false;
  bool eager_pytorch = false;
  bool kv_reads_per_head = false;
  bool trtllm_xqa = false;
  bool flash2_decode = false;
  bool flash_mla = false;
  bool trtllm_fmha = false;
  bool trtllm_moe = false;
  bool vllm_triton_moe = false;
  std::string allreduce = "nccl";
  bool torch_weight_kernels = false;
  std::string sweep;
};

// Weights: --dtype everywhere, then the decoder's linear layers in --quant's format or the
// config's quantization_config; --wbits sets every weight's size, --abits every product's
// precision.
WeightFormats weight_formats(const ModelArgs& args, const ModelConfig& model, const Device& device,
                             double dtype_bytes, Precision compute) {
  WeightFormats f;
  f.set_bytes(dtype_bytes);
  f.name = args.dtype.empty() ? std::string(to_string(compute)) : args.dtype;
  if (!args.quant.empty()) {
    quantise_weights(f, {"--quant", parse_quant_format(args.quant, "--quant")}, model, device);
  } else if (model.quantization) {
    quantise_weights(f, *model.quantization, model, device);
  }
  if (args.wbits > 0) {
    f.set_bytes(args.wbits / 8);
    f.name = fmt::format("{}-bit (--wbits)", args.wbits);
  }
  if (args.abits > 0) f.set_compute(compute);
  return f;
}

Workload workload_from(const ModelArgs& args, const ModelConfig& model, const Device& device) {
  Workload w;
  w.batch = static_cast<int>(args.batch);
  w.prompt = static_cast<int>(args.prompt);
  w.gen = static_cast<int>(args.gen);
  w.tp = static_cast<int>(args.tp);
  w.ep = static_cast<int>(args.ep);
  w.expert_imbalance = args.expert_imbalance;
  w.flash_attention = !args.no_flash;
  w.per_step = args.per_step;
  w.cuda_graphs = args.cuda_graphs;
  w.eager_pytorch = args.eager_pytorch;
  w.kv_read_per_query_head = args.kv_reads_per_head;
  w.trtllm_xqa = args.trtllm_xqa;
  w.flash2_decode = args.flash2_decode;
  w.flash_mla = args.flash_mla;
  w.trtllm_fmha = args.trtllm_fmha;
  w.trtllm_moe = args.trtllm_moe;
  w.vllm_triton_moe = args.vllm_triton_moe;
  w.allreduce_kernel = *find_allreduce_kernel(args.allreduce);  // CLI11 checked the name
  w.torch_weight_kernels = args.torch_weight_kernels;
  const Precision dtype = args.dtype.empty() ? Precision::fp16 : parse_precision(args.dtype);
  const double dtype_bytes = bytes_per_element(dtype);
  w.activation_bytes = args.abits > 0 ? args.abits / 8 : dtype_bytes;
  w.compute = args.abits > 0 || args.dtype.empty()
                  ? compute_precision_for_bits(w.activation_bytes * 8, device)
                  : dtype;
  w.weights = weight_formats(args, model, device, dtype_bytes, w.compute);
  w.kv_bytes = args.kvbits > 0 ? args.kvbits / 8
               : !args.kv_quant.empty()
                   ? parse_quant_format(args.kv_quant, "--kv-quant").bytes_per_value()
                   : dtype_bytes;
  return w;
}

// A sweep is a table for a person to read; past this many rows it is a mistake, and each row is
// a whole model analysis.
constexpr std::size_t kMaxSweepValues = 1000;

struct Sweep {
  std::string key;
  std::vector<int> values;
};

Sweep parse_sweep(const std::string& text) {
  const std::size_t equals = text.find('=');
  Sweep sweep{text.substr(0, equals), {}};
  Workload probe;
  if (equals == std::string::npos || sweep_field(probe, sweep.key) == nullptr) {
    input_error("--sweep: '{}' is not KEY=V1,V2,... with KEY batch, prompt, gen, tp or ep", text);
  }
  std::string_view rest = std::string_view(text).substr(equals + 1);
  while (!rest.empty()) {
    const std::string_view item = rest.substr(0, rest.find(','));
    int value = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (error != std::errc() || end != item.data() + item.size() || value < 1) {
      input_error("--sweep: '{}' is not a whole number of at least 1", item);
    }
    if (sweep.values.size() == kMaxSweepValues) {
      input_error("--sweep: more than {} values", kMaxSweepValues);
    }
    sweep.values.push_back(value);
    rest.remove_prefix(std::min(rest.size(), item.size() + 1));
  }
  if (sweep.values.empty()) input_error("--sweep: '{}' lists no values", text);
  return sweep;
}

report::Document run_model(const ModelArgs& args, const Session& session) {
  const Device& device = session.device(args.device);
  const ModelConfig model = load_model(args.model);
  const Workload base = workload_from(args, model, device);
  if (args.sweep.empty()) return report::model_document(analyse_model(model, base, device), device);
  const Sweep sweep = parse_sweep(args.sweep);
  std::vector<ModelAnalysis> rows;
  for (int value : sweep.values) {
    Workload w = base;
    *sweep_field(w, sweep.key) = value;
    rows.push_back(analyse_model(model, w, device));
  }
  return report::model_sweep_document(sweep.key, rows, device);
}

}  // namespace

void add_model(CLI::App& app, std::vector<Command>& commands) {
  auto args = std::make_shared<ModelArgs>();
  CLI::App* sub = app.add_subcommand(
      "model", "Transformer inference: prefill, decode, memory, crossover batch");
  sub->add_option("--model", args->model, "Preset (see `ridge models`) or path to a config.json")
      ->required();
  add_device_option(*sub, args->device);
  sub->add_option("--batch", args->batch, "Sequences decoded together")
      ->check(positive_int())
      ->capture_default_str();
  sub->add_option("--prompt", args->prompt, "Prefill tokens per sequence")
      ->check(positive_int())
      ->capture_default_str();
  sub->add_option("--gen", args->gen, "Generated tokens per sequence")
      ->check(positive_int())
      ->capture_default_str();
  sub->add_option("--tp", args->tp, "Tensor-parallel degree")
      ->check(positive_int())
      ->capture_default_str();
  sub->add_option("--ep", args->ep,
                  "Expert-parallel degree: routed experts split over N GPUs, attention "
                  "data-parallel over N / tp groups, all-to-all around each MoE layer")
      ->check(positive_int())
      ->capture_default_str();
  sub->add_option("--expert-imbalance", args->expert_imbalance,
                  "With --ep: the busiest GPU's expert tokens over the mean (1: balanced)")
      ->check(number_in(1, 1024))
      ->capture_default_str();
  sub->add_option("--dtype", args->dtype,
                  "Precision of weights, activations and KV cache (default fp16); engines run "
                  "fp8 as --quant fp8 --kv-quant fp8 (16-bit hidden states)");
  sub->add_option("--quant", args->quant,
                  fmt::format("Format of the decoder's weights, over the config's "
                              "quantization_config: {}",
                              quant_format_choices()));
  sub->add_option("--kv-quant", args->kv_quant, "Format of the KV cache (e.g. fp8)");
  sub->add_option("--wbits", args->wbits, "Bits per weight (e.g. 4)")->check(number_in(1, 64));
  sub->add_option("--abits", args->abits, "Bits per activation; sets the compute precision")
      ->check(number_in(1, 64));
  sub->add_option("--kvbits", args->kvbits, "Bits per KV-cache element")->check(number_in(1, 64));
  sub->add_flag("--no-flash", args->no_flash, "Unfused attention: scores go through memory");
  sub->add_flag("--per-step", args->per_step,
                "Decode evaluated step by step, not at the average context");
  CLI::Option* graphs =
      sub->add_flag("--cuda-graphs", args->cuda_graphs,
                    "The engine replays kernels from CUDA graphs (torch.compile, TensorRT-LLM, "
                    "vLLM): the expected time counts each kernel's ramp, not its launch");
  sub->add_flag("--eager-pytorch", args->eager_pytorch,
                "The engine is eager PyTorch (no torch.compile): each op waits for its dispatch "
                "from Python, at the calibration's host time per op")
      ->excludes(graphs);
  sub->add_flag("--kv-reads-per-head", args->kv_reads_per_head,
                "The decode attention kernel reads K and V once per query head, not once per "
                "grouped-query group (TensorRT-LLM before v0.8, without XQA): the expected time "
                "counts those reads, all but a group's first from the L2");
  auto* xqa = sub->add_flag(
      "--trtllm-xqa", args->trtllm_xqa,
      "The decode attention runs TensorRT-LLM's kernels over a 16-bit cache (v0.8 and "
      "later, Ampere and Hopper): XQA for grouped queries, the masked MHA kernel otherwise; "
      "the expected time deals their blocks out as TensorRT-LLM does, each wave at the "
      "calibration's cost a block");
  sub->add_flag("--flash2-decode", args->flash2_decode,
                "The attention runs FlashAttention-2's split-KV kernel (vLLM's FlashAttention "
                "backend below SM90, over its paged cache): the expected time splits each "
                "decode sequence's keys by FlashAttention-2's heuristic and runs its blocks in "
                "waves over what the SMs hold, each at the calibration's cost a block, and runs "
                "a prompt in its blocks of 64 query rows, as many to an SM as its shared memory "
                "holds")
      ->excludes(xqa);
  sub->add_flag("--flash-mla", args->flash_mla,
                "DeepSeek's latent attention decodes with FlashMLA (vLLM's and TensorRT-LLM's "
                "kernel on Hopper): the expected time deals each sequence's keys out to parts of "
                "the SMs as FlashMLA's tile scheduler does, each split at the calibration's cost "
                "a block, and its combine kernel reads the shared sequences' pieces back");
  sub->add_flag("--trtllm-fmha", args->trtllm_fmha,
                "The prompt's attention runs TensorRT-LLM's context FMHA kernels: the expected "
                "time takes the calibration's rate for them (fitted on an H100), not the "
                "FlashAttention papers'");
  auto* trtllm_moe =
      sub->add_flag("--trtllm-moe", args->trtllm_moe,
                    "The MoE layers run TensorRT-LLM's CUTLASS MoE: the expected time adds its "
                    "kernels around the experts' products (routing, sort, rows copied into expert "
                    "order and summed back), which the bound leaves out, and its grouped products "
                    "wait at each change of expert while their TMA descriptors switch");
  sub->add_flag("--vllm-triton-moe", args->vllm_triton_moe,
                "The experts' products (16-bit or fp8) run vLLM's Triton fused-MoE kernel at the "
                "default tiles it takes where it ships no tuned configuration for the part and "
                "shape (vLLM until February 2026): the expected time takes the calibration's "
                "time a K step of those tiles (fitted on an H100; Hopper's figure on Blackwell, "
                "an estimate)")
      ->excludes(trtllm_moe);
  sub->add_option("--allreduce", args->allreduce,
                  "Whose kernel runs the tensor-parallel all-reduces: nccl (NCCL's ring, as "
                  "PyTorch's collectives run them), trtllm (TensorRT-LLM's one-shot or two-shot "
                  "kernel or NCCL's, as its lookup table picks by GPUs, tokens and hidden size), "
                  "trtllm-1.0 (TensorRT-LLM 1.0's: one-shot up to 128 tokens), trtllm-plugin "
                  "(TensorRT-LLM's 0.x C++ runtime's: one-shot or two-shot by size), vllm or "
                  "sglang (vLLM's custom all-reduce, by that engine's dispatch)")
      ->check(CLI::IsMember(allreduce_kernel_names()))
      ->default_str("nccl");
  sub->add_flag("--torch-weight-kernels", args->torch_weight_kernels,
                "Products run PyTorch's kernels (gpt-fast, torchao): weight-only formats read "
                "their weights at the calibration's share of the bandwidth, not at the full rate "
                "of Marlin-class kernels; with --cuda-graphs (torch.compile) a product of one row "
                "is Inductor's reduction, priced as a streaming kernel");
  sub->add_option("--sweep", args->sweep,
                  "One row per value: batch=1,8,64 (or prompt=, gen=, tp=)");
  commands.push_back({sub, [args](const Session& s) { return run_model(*args, s); }});

  CLI::App* list = app.add_subcommand("models", "The model presets");
  commands.push_back({list, [](const Session&) {
                        std::vector<ModelConfig> models;
                        for (const std::string& name : model_preset_names())
                          models.push_back(load_model(name));
                        return report::models_document(models);
                      }});
}

}  // namespace ridge::cli
