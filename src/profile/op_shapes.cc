#include "op_shapes.h"

#include <algorithm>
#include <array>
#include <vector>

namespace ridge::profile_input {

namespace {

using Json = nlohmann::json;
using Shape = std::vector<double>;

// FLOPs per element charged to element-wise and reduction ops, as ridge's transformer model
// charges them (docs/model.md): one for arithmetic, five for softmax, four for a norm.
constexpr double kSoftmaxFlops = 5;
constexpr double kNormFlops = 4;

constexpr std::array<std::string_view, 22> kElementwise = {
    "aten::add",   "aten::add_", "aten::sub",   "aten::mul",  "aten::mul_", "aten::div",
    "aten::div_",  "aten::relu", "aten::relu_", "aten::gelu", "aten::silu", "aten::sigmoid",
    "aten::tanh",  "aten::exp",  "aten::neg",   "aten::cos",  "aten::sin",  "aten::pow",
    "aten::rsqrt", "aten::sqrt", "aten::clamp", "aten::where"};

std::optional<Shape> shape_at(const Json& dims, std::size_t i) {
  if (!dims.is_array() || i >= dims.size() || !dims[i].is_array()) return std::nullopt;
  Shape s;
  for (const Json& d : dims[i]) {
    if (!d.is_number() || d.get<double>() < 0) return std::nullopt;
    s.push_back(d.get<double>());
  }
  return s;
}

double elements(const Shape& s) {
  double n = 1;
  for (double d : s) n *= d;
  return n;
}

// The precision "Input type" gives input i, where it names one.
std::optional<Precision> precision_at(const Json& types, std::size_t i) {
  if (!types.is_array() || i >= types.size() || !types[i].is_string()) return std::nullopt;
  return precision_of_type(types[i].get<std::string>());
}

// Bytes an element of input i takes; float32's where the trace does not say.
double element_bytes(const Json& types, std::size_t i) {
  const auto p = precision_at(types, i);
  return p ? bytes_per_element(*p) : 4;
}

OpFigures from_op(const Op& op, const Json& types, std::size_t typed_input) {
  return {op.flops, op.bytes, op.gemm_shape, precision_at(types, typed_input)};
}

// mm [m, k] x [k, n]; addmm bias, [m, k] x [k, n]; bmm [b, m, k] x [b, k, n]; baddbmm bias, ...
std::optional<OpFigures> matrix_product(const std::string& op, const Json& dims,
                                        const Json& types) {
  const bool with_bias = op == "aten::addmm" || op == "aten::baddbmm";
  const std::size_t a = with_bias ? 1 : 0;
  const auto lhs = shape_at(dims, a);
  const auto rhs = shape_at(dims, a + 1);
  if (!lhs || !rhs) return std::nullopt;
  const bool batched = op == "aten::bmm" || op == "aten::baddbmm";
  const std::size_t rank = batched ? 3 : 2;
  if (lhs->size() != rank || rhs->size() != rank) return std::nullopt;
  const double batch = batched ? (*lhs)[0] : 1;
  const double m = (*lhs)[rank - 2], k = (*lhs)[rank - 1], n = (*rhs)[rank - 1];
  OpFigures f = from_op(gemm(m, n, k, element_bytes(types, a), batch), types, a);
  if (with_bias) {
    // beta * bias + alpha * A B: a multiply-add more per output, and the bias read.
    const auto bias = shape_at(dims, 0);
    f.flops += batch * m * n;
    f.bytes += bias ? elements(*bias) * element_bytes(types, 0) : 0;
  }
  return f;
}

// [batch, heads, seq, d] queries, keys and values (keys and values at their own length, and
// heads where they are grouped); causal or not is not in the shapes, so the full score matrix is
// counted (an upper bound on the causal kernel's work).
std::optional<OpFigures> attention_op(const Json& dims, const Json& types) {
  const auto q = shape_at(dims, 0);
  const auto k = shape_at(dims, 1);
  if (!q || !k || q->size() != 4 || k->size() != 4) return std::nullopt;
  AttentionShape s{(*q)[2], (*q)[3], (*q)[1], (*q)[0], true, (*k)[2]};
  s.kv_heads = (*k)[1];
  return from_op(attention(s, element_bytes(types, 0)), types, 0);
}

}  // namespace

std::optional<Precision> precision_of_type(const std::string& type) {
  if (type == "float") return Precision::fp32;
  if (type == "double") return Precision::fp64;
  if (type == "c10::Half") return Precision::fp16;
  if (type == "c10::BFloat16") return Precision::bf16;
  if (type == "c10::Float8_e4m3fn" || type == "c10::Float8_e5m2") return Precision::fp8;
  if (type == "signed char" || type == "unsigned char") return Precision::int8;
  return std::nullopt;
}

std::optional<OpFigures> figures_from_shapes(const std::string& op, const Json& dims,
                                             const Json& types) {
  if (op == "aten::mm" || op == "aten::addmm" || op == "aten::bmm" || op == "aten::baddbmm")
    return matrix_product(op, dims, types);
  if (op == "aten::_scaled_dot_product_flash_attention" ||
      op == "aten::_scaled_dot_product_efficient_attention" ||
      op == "aten::_scaled_dot_product_cudnn_attention" || op == "aten::_flash_attention_forward")
    return attention_op(dims, types);
  const auto first = shape_at(dims, 0);
  if (!first) return std::nullopt;
  const double n = elements(*first);
  const double size = element_bytes(types, 0);
  if (std::ranges::find(kElementwise, op) != kElementwise.end()) {
    // Every tensor input read once, the output (the largest input's size) written once.
    double read = 0, out = 0;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      if (const auto s = shape_at(dims, i); s && !s->empty()) {
        read += elements(*s) * element_bytes(types, i);
        out = std::max(out, elements(*s));
      }
    }
    return OpFigures{out, read + out * size, std::nullopt, precision_at(types, 0)};
  }
  if (op == "aten::softmax" || op == "aten::_softmax" || op == "aten::log_softmax")
    return OpFigures{kSoftmaxFlops * n, 2 * n * size, std::nullopt, precision_at(types, 0)};
  if (op == "aten::layer_norm" || op == "aten::native_layer_norm" || op == "aten::rms_norm" ||
      op == "aten::_fused_rms_norm")
    return OpFigures{kNormFlops * n, 2 * n * size, std::nullopt, precision_at(types, 0)};
  if (op == "aten::embedding") {
    // indices in, one row of the table per index out (the second input is the indices).
    const auto weight = first;
    const auto indices = shape_at(dims, 1);
    if (!indices || weight->size() != 2) return std::nullopt;
    const double rows = elements(*indices) * (*weight)[1];
    return OpFigures{0, 2 * rows * size, std::nullopt, std::nullopt};
  }
  return std::nullopt;
}

}  // namespace ridge::profile_input
