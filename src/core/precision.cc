#include "ridge/precision.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "ridge/error.h"

namespace ridge {

std::string_view to_string(Precision precision) {
  switch (precision) {
    case Precision::fp64:
      return "fp64";
    case Precision::fp32:
      return "fp32";
    case Precision::tf32:
      return "tf32";
    case Precision::fp16:
      return "fp16";
    case Precision::bf16:
      return "bf16";
    case Precision::fp8:
      return "fp8";
    case Precision::int8:
      return "int8";
  }
  return "?";
}

std::optional<Precision> find_precision(std::string_view name) {
  std::string lower(name);
  std::ranges::transform(lower, lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (Precision p : kAllPrecisions) {
    if (to_string(p) == lower) return p;
  }
  return std::nullopt;
}

Precision parse_precision(std::string_view name) {
  if (auto found = find_precision(name)) return *found;
  input_error("unknown precision '{}' (choose fp64, fp32, tf32, fp16, bf16, fp8 or int8)", name);
}

double bytes_per_element(Precision precision) {
  switch (precision) {
    case Precision::fp64:
      return 8;
    case Precision::fp32:
    case Precision::tf32:
      return 4;
    case Precision::fp16:
    case Precision::bf16:
      return 2;
    case Precision::fp8:
    case Precision::int8:
      return 1;
  }
  return 0;
}

}  // namespace ridge
