#pragma once
// Numeric precisions a peak can be quoted for, and their storage size.

#include <array>
#include <optional>
#include <string_view>

namespace ridge {

enum class Precision { fp64, fp32, tf32, fp16, bf16, fp8, int8 };

inline constexpr std::array<Precision, 7> kAllPrecisions = {
    Precision::fp64, Precision::fp32, Precision::tf32, Precision::fp16,
    Precision::bf16, Precision::fp8,  Precision::int8};

std::string_view to_string(Precision precision);

// Case-insensitive; nullopt when the name is not a precision.
std::optional<Precision> find_precision(std::string_view name);

// Like find_precision, but an unknown name is bad input.
Precision parse_precision(std::string_view name);

// Bytes one element occupies in memory. TF32 is stored as FP32.
double bytes_per_element(Precision precision);

}  // namespace ridge
