#pragma once
// Small text helpers shared by the readers.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridge {

// ASCII lower case: names, ids and keys are compared without regard to case.
inline std::string lower_case(std::string_view text) {
  std::string lower(text);
  std::ranges::transform(lower, lower.begin(),
                         [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

// Without the spaces, tabs and carriage returns at either end.
inline std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

// The runs of letters and digits, lower-cased: "NVIDIA H100-SXM5 (80GB)" -> nvidia, h100,
// sxm5, 80gb. Names are matched, and JSON keys made, word by word.
std::vector<std::string> lower_words(std::string_view text);

// The whole text as a finite number; nullopt when any of it is not one ("12ms", "", "inf").
inline std::optional<double> whole_number(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

}  // namespace ridge
