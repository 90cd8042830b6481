#pragma once
// One table of (value, name) pairs per enumeration, read both ways: to_string and find_*.

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridge {

template <typename Enum, std::size_t N>
using EnumNames = std::array<std::pair<Enum, std::string_view>, N>;

template <typename Enum, std::size_t N>
std::string_view name_of(const EnumNames<Enum, N>& names, Enum value) {
  const auto* it = std::ranges::find(names, value, &std::pair<Enum, std::string_view>::first);
  return it == names.end() ? "?" : it->second;
}

template <typename Enum, std::size_t N>
std::optional<Enum> value_of(const EnumNames<Enum, N>& names, std::string_view name) {
  const auto* it = std::ranges::find(names, name, &std::pair<Enum, std::string_view>::second);
  if (it == names.end()) return std::nullopt;
  return it->first;
}

// Every name, in the table's order: the choices a message or a command-line check lists.
template <typename Enum, std::size_t N>
std::vector<std::string> names_of(const EnumNames<Enum, N>& names) {
  std::vector<std::string> out;
  for (const auto& [value, name] : names) out.emplace_back(name);
  return out;
}

}  // namespace ridge
