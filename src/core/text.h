#pragma once
// Small text helpers shared by the readers.

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace ridge {

// ASCII lower case: names, ids and keys are compared without regard to case.
inline std::string lower_case(std::string_view text) {
  std::string lower(text);
  std::ranges::transform(lower, lower.begin(),
                         [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

}  // namespace ridge
