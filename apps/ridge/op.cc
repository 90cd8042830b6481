#include "ridge/op.h"

#include "common.h"
#include "ridge/analysis.h"
#include "ridge/error.h"
#include "ridge/expected.h"
#include "ridge/views.h"

namespace ridge::cli {

namespace {

// What every op kind shares: the device, the precision and the sizes.
struct OpArgs {
  std::string device;
  std::string dtype = "fp16";
  double n = 0, m = 0, k = 0, batch = 1;
  double seq = 0, d_head = 0, heads = 1;
  double keys = 0, kv_heads = 0;  // 0: as many as of queries
  double params = 0;
  std::string tile;  // a GEMM's one kernel configuration, MxNxK; empty: the library's pick
  bool unfused = false;
  bool causal = false;
};

using OpBuilder = Op (*)(const OpArgs&, double element_bytes);

CLI::App* add_kind(CLI::App& op, std::vector<Command>& commands, const char* name,
                   const char* description, const std::shared_ptr<OpArgs>& args, OpBuilder build) {
  CLI::App* sub = op.add_subcommand(name, description);
  add_device_option(*sub, args->device);
  add_dtype_option(*sub, args->dtype);
  commands.push_back(
      {sub, [args, build](const Session& s) {
         const Device& device = s.device(args->device);
         const Precision precision = parse_precision(args->dtype);
         device.peak(precision);  // an absent precision is reported before any work
         const Op operation = build(*args, bytes_per_element(precision));
         if (operation.gemm_shape && operation.gemm_shape->configured_tile && device.is_cpu())
           input_error("--tile: {} is a CPU, whose BLAS picks its own register tile", device.id);
         return report::op_document(analyse(operation, device, precision), device,
                                    expect(operation, device, precision));
       }});
  return sub;
}

// The --tile option's value, or one line on what is wrong with it.
ConfiguredTile configured_tile(const std::string& text) {
  if (const auto tile = parse_configured_tile(text)) return *tile;
  input_error("--tile: '{}' is not {}", text, configured_tile_form());
}

void size(CLI::App& app, const char* flag, double& value, const char* description,
          bool required = true) {
  CLI::Option* option = app.add_option(flag, value, description)->check(positive_count());
  if (required) option->required();
}

}  // namespace

void add_op(CLI::App& app, std::vector<Command>& commands) {
  CLI::App* op =
      app.add_subcommand("op", "One operation on the roofline: add, gemv, gemm, attention, decode");
  op->require_subcommand(1);
  auto args = std::make_shared<OpArgs>();

  CLI::App* add = add_kind(*op, commands, "add", "c = a + b over n elements", args,
                           [](const OpArgs& a, double e) { return elementwise_add(a.n, e); });
  size(*add, "--n", args->n, "Elements");

  CLI::App* gemv_app = add_kind(*op, commands, "gemv", "y = A x, A of m rows and n columns", args,
                                [](const OpArgs& a, double e) { return gemv(a.m, a.n, e); });
  size(*gemv_app, "--m", args->m, "Rows of A");
  size(*gemv_app, "--n", args->n, "Columns of A");

  CLI::App* gemm_app = add_kind(*op, commands, "gemm", "C = A B, A m-by-k, B k-by-n", args,
                                [](const OpArgs& a, double e) {
                                  Op product = gemm(a.m, a.n, a.k, e, a.batch);
                                  if (!a.tile.empty())
                                    product.gemm_shape->configured_tile = configured_tile(a.tile);
                                  return product;
                                });
  size(*gemm_app, "--m", args->m, "Rows of A and C");
  size(*gemm_app, "--n", args->n, "Columns of B and C");
  size(*gemm_app, "--k", args->k, "Columns of A, rows of B");
  size(*gemm_app, "--batch", args->batch, "Independent products (default 1)", false);
  gemm_app->add_option("--tile", args->tile,
                       "Price the expected time as one kernel configuration, a tile MxNxK (as "
                       "128x128x128): whole tiles in waves over the SMs, K never split (default: "
                       "the best of the tiles the vendor libraries pick among)");

  CLI::App* attn =
      add_kind(*op, commands, "attention", "Self-attention, fused (FlashAttention) by default",
               args, [](const OpArgs& a, double e) {
                 AttentionShape shape{a.seq, a.d_head, a.heads, a.batch, !a.unfused};
                 shape.causal = a.causal;
                 shape.kv_seq = a.keys;
                 shape.kv_heads = a.kv_heads;
                 if (const auto why = attention_shape_problem(shape))
                   input_error("--keys, --kv-heads: {}", *why);
                 return attention(shape, e);
               });
  size(*attn, "--seq", args->seq, "Sequence length");
  size(*attn, "--d-head", args->d_head, "Head dimension");
  size(*attn, "--heads", args->heads, "Heads (default 1)", false);
  size(*attn, "--batch", args->batch, "Sequences (default 1)", false);
  size(*attn, "--keys", args->keys,
       "Keys each query may attend to, a cache's and the sequence's (default --seq; a decode "
       "step: --seq 1 --keys CONTEXT)",
       false);
  size(*attn, "--kv-heads", args->kv_heads,
       "Heads of K and V, grouped-query attention (default --heads)", false);
  attn->add_flag("--unfused", args->unfused, "Write the score matrix to memory and read it back");
  attn->add_flag("--causal", args->causal,
                 "Each query attends to the keys up to its own position (a decoder's prefill)");

  CLI::App* decode =
      add_kind(*op, commands, "decode", "One decode step of a dense model (weights only)", args,
               [](const OpArgs& a, double e) { return decode_step(a.params, a.batch, e); });
  decode->add_option("--params", args->params, "Parameters, e.g. 7e9")
      ->required()
      ->check(number_in(1, 1e18));
  size(*decode, "--batch", args->batch, "Sequences decoded together (default 1)", false);
}

}  // namespace ridge::cli
