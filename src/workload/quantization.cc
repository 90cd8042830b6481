// The formats' layouts. A scale's bits are spread over the values of its group: for int4 with
// group size 128, 4 + 20/128 = 4.16 bits a weight.
#include "ridge/quantization.h"

#include <array>

#include "core/text.h"
#include "ridge/error.h"

namespace ridge {

namespace {

constexpr std::string_view kInt4Prefix = "int4-g";

// The largest group ridge accepts: past a whole row of the widest model the scale is per channel.
constexpr double kMaxGroupSize = 1 << 20;

QuantFormat plain(std::string name, double bits, std::string source) {
  QuantFormat f;
  f.name = std::move(name);
  f.value_bits = bits;
  f.source = std::move(source);
  return f;
}

std::array<QuantFormat, 8> named_formats() {
  QuantFormat fp8 = plain("fp8", 8, "FP8 E4M3 with one scale per tensor (negligible)");
  fp8.quantises_activations = true;
  QuantFormat fp8_block = fp8;
  fp8_block.name = "fp8-block";
  fp8_block.group_size = 128 * 128;
  fp8_block.scale_bits = 32;
  fp8_block.source =
      "FP8 E4M3 weights with one FP32 scale per 128x128 block, activations per 1x128 group "
      "(DeepSeek-V3 technical report, arXiv:2412.19437, section 3.3; weight_scale_inv in its "
      "checkpoint)";
  QuantFormat int8 = plain("int8", 8, "INT8 with per-channel scales (SmoothQuant W8A8)");
  int8.integer = true;
  int8.quantises_activations = true;
  QuantFormat nvfp4 = plain(
      "nvfp4", 4,
      "FP4 E2M1 with one FP8 E4M3 scale per 16 values and one FP32 scale per tensor, weights and "
      "activations (NVIDIA, 'Introducing NVFP4', 2025; TensorRT Model Optimizer NVFP4)");
  nvfp4.group_size = 16;
  nvfp4.scale_bits = 8;
  nvfp4.quantises_activations = true;
  nvfp4.hardware_scales = true;
  QuantFormat mxfp4 =
      plain("mxfp4", 4,
            "FP4 E2M1 with one E8M0 scale per 32 values (OCP Microscaling Formats v1.0); weights "
            "only, dequantised into 16-bit products as gpt-oss ships it");
  mxfp4.group_size = 32;
  mxfp4.scale_bits = 8;
  return {plain("fp32", 32, "IEEE single precision"),
          plain("fp16", 16, "IEEE half precision"),
          plain("bf16", 16, "bfloat16"),
          fp8,
          fp8_block,
          int8,
          nvfp4,
          mxfp4};
}

// int4 with a group size: GPTQ and AWQ checkpoints store, per group of N weights of one output
// column, an FP16 scale and a 4-bit zero point packed eight to an int32 (qzeros), 20 bits.
std::optional<QuantFormat> int4_grouped(std::string_view name) {
  if (!name.starts_with(kInt4Prefix)) return std::nullopt;
  const std::optional<double> group = whole_number(name.substr(kInt4Prefix.size()));
  if (!group || *group < 1 || *group > kMaxGroupSize || *group != static_cast<int>(*group))
    return std::nullopt;
  QuantFormat f = plain(std::string(name), 4,
                        "INT4 with an FP16 scale and a 4-bit zero point per group (the GPTQ and "
                        "AWQ checkpoint layout: qweight, scales, qzeros)");
  f.group_size = *group;
  f.scale_bits = 16 + 4;
  f.integer = true;
  return f;
}

}  // namespace

std::string_view quant_format_choices() {
  return "fp32, fp16, bf16, fp8, fp8-block, int8, int4-g128, int4-g32 (any int4-gN), nvfp4, "
         "mxfp4";
}

std::optional<QuantFormat> find_quant_format(std::string_view name) {
  const std::string key = lower_case(name);
  for (QuantFormat& f : named_formats()) {
    if (f.name == key) return f;
  }
  return int4_grouped(key);
}

QuantFormat parse_quant_format(std::string_view name, std::string_view what) {
  if (auto format = find_quant_format(name)) return *format;
  input_error("{}: '{}' is not a quantisation format (formats: {})", what, name,
              quant_format_choices());
}

QuantFormat sixteen_bit_format(const Device& device) {
  const bool bf16 = device.has_peak(Precision::bf16) && !device.has_peak(Precision::fp16);
  return *find_quant_format(bf16 ? "bf16" : "fp16");
}

Precision product_precision(const QuantFormat& format, const Device& device) {
  const auto sixteen = [&] {
    return device.has_peak(Precision::fp16) ? Precision::fp16 : Precision::bf16;
  };
  if (format.value_bits > 16) return Precision::fp32;
  if (format.value_bits == 16) {
    const Precision own = format.name == "bf16" ? Precision::bf16 : Precision::fp16;
    return device.has_peak(own) ? own : sixteen();
  }
  if (!format.quantises_activations) return sixteen();
  const Precision own = own_product_precision(format);
  return device.has_peak(own) ? own : sixteen();
}

Precision own_product_precision(const QuantFormat& format) {
  if (format.integer) return Precision::int8;
  return format.value_bits == 8 ? Precision::fp8 : Precision::fp4;
}

}  // namespace ridge
