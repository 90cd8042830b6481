#pragma once
// Weight and KV-cache formats as users name them ("fp8-block", "int4-g128", "nvfp4"), with the
// real bytes they occupy (values plus their scales and zero points), and the precision at which
// a device multiplies them.

#include <optional>
#include <string>
#include <string_view>

#include "ridge/device.h"
#include "ridge/precision.h"

namespace ridge {

struct QuantFormat {
  std::string name;        // "fp16", "fp8-block", "int4-g128", "nvfp4", ...
  double value_bits = 16;  // bits of one stored value
  double group_size = 0;   // values sharing one scale; 0: per tensor or per channel (negligible)
  double scale_bits = 0;   // bits of that group's scale and zero point
  bool integer = false;    // int8, int4: integer values
  // The activations are quantised too by the kernels that run this format (W8A8, W4A4 with
  // NVFP4), rather than the weights dequantised into a 16-bit product (W4A16).
  bool quantises_activations = false;
  // The tensor cores apply its block scales themselves (Blackwell's block-scaled products:
  // NVFP4), so the kernels around a product lay the activations' scales out as the hardware
  // reads them, each expert's rows padded to whole atoms of them.
  bool hardware_scales = false;
  std::string source;  // the document that defines the layout

  double bits_per_value() const {
    return value_bits + (group_size > 0 ? scale_bits / group_size : 0);
  }
  double bytes_per_value() const { return bits_per_value() / 8; }
};

// "fp32, fp16, bf16, fp8, fp8-block, int8, int4-g128, int4-g32, nvfp4, mxfp4" and int4-gN for
// any group size N: for messages and help.
std::string_view quant_format_choices();

// Case-insensitive; nullopt when the name is no format.
std::optional<QuantFormat> find_quant_format(std::string_view name);
// Like find_quant_format, but an unknown name is bad input naming `what` (an option or field).
QuantFormat parse_quant_format(std::string_view name, std::string_view what);

// A 16-bit format of the device's choice: bf16 where the device has a bf16 peak and no fp16,
// else fp16.
QuantFormat sixteen_bit_format(const Device& device);

// The precision at which the device multiplies weights of this format: the format's own (fp8,
// int8, fp4) where it quantises activations and the device has that peak, else 16 bit (the
// weights are dequantised on the fly, as W4A16 kernels do).
Precision product_precision(const QuantFormat& format, const Device& device);

// The width of the products of a format that quantises its activations, whatever the device:
// int8, fp8 or fp4.
Precision own_product_precision(const QuantFormat& format);

}  // namespace ridge
