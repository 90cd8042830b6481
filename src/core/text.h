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

// Whether a word is a whole number written in digits alone ("32", not "g32", "3.5" or "").
inline bool all_digits(std::string_view word) {
  return !word.empty() && std::ranges::all_of(word, [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
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

// A number as English tables print it, thousands grouped by commas ("10,907", "5,323,503,232.00")
// or not; nullopt when the commas do not group threes of the whole part ("1,2" could be a
// decimal comma, and is not guessed at).
inline std::optional<double> grouped_number(std::string_view text) {
  const std::size_t comma = text.find(',');
  if (comma == std::string_view::npos) return whole_number(text);
  const std::size_t whole_end = std::min(text.find('.'), text.size());
  const std::size_t digits_start = text.find_first_of("0123456789");
  if (digits_start == std::string_view::npos || comma <= digits_start || comma - digits_start > 3)
    return std::nullopt;
  std::string digits(text.substr(0, comma));
  for (std::size_t at = comma; at < whole_end; at += 4) {
    const std::string_view group = text.substr(at + 1, 3);
    if (text[at] != ',' || group.size() != 3 || at + 4 > whole_end ||
        group.find_first_not_of("0123456789") != std::string_view::npos)
      return std::nullopt;
    digits += group;
  }
  digits += text.substr(whole_end);
  return whole_number(digits);
}

}  // namespace ridge
