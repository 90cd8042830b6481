#include "ridge/precision.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>

#include "core/enum_names.h"
#include "core/text.h"
#include "ridge/error.h"

namespace ridge {

namespace {

constexpr EnumNames<Precision, 9> kPrecisionNames = {{{Precision::fp64, "fp64"},
                                                      {Precision::fp32, "fp32"},
                                                      {Precision::tf32, "tf32"},
                                                      {Precision::fp16, "fp16"},
                                                      {Precision::bf16, "bf16"},
                                                      {Precision::fp8, "fp8"},
                                                      {Precision::int8, "int8"},
                                                      {Precision::fp6, "fp6"},
                                                      {Precision::fp4, "fp4"}}};

}  // namespace

std::string_view to_string(Precision precision) { return name_of(kPrecisionNames, precision); }

std::optional<Precision> find_precision(std::string_view name) {
  return value_of(kPrecisionNames, std::string_view(lower_case(name)));
}

std::string_view precision_choices() {
  static const std::string choices = fmt::format("{}", fmt::join(names_of(kPrecisionNames), ", "));
  return choices;
}

Precision parse_precision(std::string_view name) {
  if (auto found = find_precision(name)) return *found;
  input_error("unknown precision '{}' (choose {})", name, precision_choices());
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
    case Precision::fp6:
      return 0.75;
    case Precision::fp4:
      return 0.5;
  }
  return 0;
}

}  // namespace ridge
