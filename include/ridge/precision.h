#pragma once
// Numeric precisions a peak can be quoted for, and their storage size.

#include <array>
#include <optional>
#include <string_view>

namespace ridge {

// fp6 and fp4 are the block-scaled formats of Blackwell and CDNA 4 tensor cores (MXFP6, MXFP4,
// NVFP4): a peak quoted for them is the rate of their matrix instructions; their scales are
// counted by the quantisation format, not here.
enum class Precision { fp64, fp32, tf32, fp16, bf16, fp8, int8, fp6, fp4 };

inline constexpr std::array<Precision, 9> kAllPrecisions = {
    Precision::fp64, Precision::fp32, Precision::tf32, Precision::fp16, Precision::bf16,
    Precision::fp8,  Precision::int8, Precision::fp6,  Precision::fp4};

std::string_view to_string(Precision precision);

// Case-insensitive; nullopt when the name is not a precision.
std::optional<Precision> find_precision(std::string_view name);

// "fp64, fp32, tf32, fp16, bf16, fp8, int8, fp6, fp4": the choices, for messages and help.
std::string_view precision_choices();

// Like find_precision, but an unknown name is bad input.
Precision parse_precision(std::string_view name);

// Bytes one element occupies in memory. TF32 is stored as FP32.
double bytes_per_element(Precision precision);

}  // namespace ridge
