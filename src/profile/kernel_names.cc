// Kernel names as people read them: demangled, without their parameter lists and long template
// arguments, and sorted into families by the names libraries give their kernels.
#include <cxxabi.h>

#include <array>
#include <cstdlib>
#include <memory>

#include "core/text.h"
#include "ridge/profile.h"

namespace ridge {

namespace {

// Past this many characters a name's template arguments are elided.
constexpr std::size_t kShortNameLength = 60;

bool contains_any(const std::string& text, std::initializer_list<std::string_view> words) {
  return std::ranges::any_of(words,
                             [&](std::string_view w) { return text.find(w) != std::string::npos; });
}

// The end of the bracketed group opening at `open` ('<' or '('), or npos.
std::size_t closing(const std::string& s, std::size_t open) {
  const char left = s[open];
  const char right = left == '<' ? '>' : ')';
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    if (s[i] == left) ++depth;
    if (s[i] == right && --depth == 0) return i;
  }
  return std::string::npos;
}

}  // namespace

std::string demangled(const std::string& name) {
  if (!name.starts_with("_Z")) return name;
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> text(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && text ? std::string(text.get()) : name;
}

// "void gemm_v1<float>(float*, float*, int)" -> "gemm_v1<float>": no return type, no
// parameter list (whose types would otherwise decide a family: cudnn::reduced_divisor).
std::string kernel_stem(const std::string& name) {
  std::string s = demangled(name);
  if (s.starts_with("void ")) s = s.substr(5);
  // The parameter list: the last top-level '(' group.
  std::size_t depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    if (s[i] == '>' && depth > 0) --depth;
    if (s[i] == '(' && depth == 0 && i > 0) {
      // "(anonymous namespace)" is part of a name, not a parameter list.
      if (s.compare(i, 21, "(anonymous namespace)") == 0) {
        i += 20;
        continue;
      }
      s = s.substr(0, i);
      break;
    }
  }
  return trimmed(s);
}

// The stem, with a long template argument list as "<...>"; namespaces stay
// ("at::native::vectorized_elementwise_kernel<...>").
std::string short_kernel_name(const std::string& name) {
  std::string s = kernel_stem(name);
  if (s.size() > kShortNameLength) {
    const std::size_t open = s.find('<');
    if (open != std::string::npos) {
      const std::size_t close = closing(s, open);
      s = s.substr(0, open) + "<...>" + (close == std::string::npos ? "" : s.substr(close + 1));
    }
  }
  return trimmed(s);
}

std::string kernel_family(const std::string& name, bool memory_operation) {
  const std::string n = lower_case(kernel_stem(name));
  if (memory_operation || contains_any(n, {"memcpy", "memset"})) return "memcpy";
  if (n.starts_with("nccl") || contains_any(n, {"::nccl", "ncclkernel", "nccldevkernel"}))
    return "communication";
  if (contains_any(n, {"flash", "fmha", "attention", "attn", "sdpa", "mha_"})) return "attention";
  if (contains_any(n, {"gemm", "gemv", "cutlass", "cublas", "xmma", "matmul", "_mm_", "triton_mm",
                       "aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "conv"}))
    return "gemm";
  if (contains_any(n, {"reduce", "softmax", "norm", "_sum", "::sum", "mean", "argmax", "topk",
                       "triton_red", "triton_per"}))
    return "reduction";
  if (contains_any(n, {"elementwise", "vectorized",  "unrolled",      "triton_poi", "aten::add",
                       "aten::mul",   "aten::div",   "aten::sub",     "aten::relu", "aten::gelu",
                       "aten::silu",  "aten::copy",  "aten::fill",    "aten::cos",  "aten::sin",
                       "aten::exp",   "aten::tanh",  "aten::sigmoid", "aten::neg",  "fill_kernel",
                       "copy_kernel", "distribution"}))
    return "element-wise";
  return "other";
}

}  // namespace ridge
