#pragma once
// Reading TOML that users hand to ridge (device and cluster files): every problem is bad input
// naming the file, line, column and field, so a user can fix the file from the message alone.

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <string_view>

#include "ridge/device.h"
#include "ridge/error.h"

namespace ridge {

// The parsed document, or bad input at the syntax error.
inline toml::table parse_toml_input(std::string_view text, const std::string& origin) {
  try {
    return toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    input_error("{}:{}:{}: {}", origin, e.source().begin.line, e.source().begin.column,
                e.description());
  }
}

// The checks every reader of a TOML input shares.
class TomlReader {
 protected:
  explicit TomlReader(std::string origin) : origin_(std::move(origin)) {}

  [[noreturn]] void fail(const toml::source_region& where, std::string_view field,
                         std::string_view problem) const {
    input_error("{}:{}:{}: {}: {}", origin_, where.begin.line, where.begin.column,
                field.empty() ? "(top level)" : field, problem);
  }

  static std::string join(std::string_view path, std::string_view key) {
    return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
  }

  void expect_keys(const toml::table& table, std::string_view path,
                   std::initializer_list<std::string_view> allowed) const {
    for (const auto& [key, node] : table) {
      if (std::ranges::find(allowed, key.str()) == allowed.end()) {
        fail(node.source(), join(path, key.str()), "unknown field");
      }
    }
  }

  const toml::node& required(const toml::table& table, std::string_view path,
                             std::string_view key) const {
    if (const toml::node* node = table.get(key)) return *node;
    fail(table.source(), join(path, key), "missing");
  }

  std::string required_string(const toml::table& table, std::string_view path,
                              std::string_view key) const {
    const toml::node& node = required(table, path, key);
    auto value = node.value<std::string>();
    if (!value || value->empty())
      fail(node.source(), join(path, key), "must be a non-empty string");
    return *value;
  }

  const toml::table& as_table(const toml::node& node, std::string_view path) const {
    if (const toml::table* table = node.as_table()) return *table;
    fail(node.source(), path, "must be a table");
  }

  // The number at table.key: finite, positive and plausible for its kind, else bad input
  // naming the field and the value.
  double plausible_number(const toml::table& table, std::string_view path, std::string_view key,
                          FigureKind kind) const {
    const toml::node& node = required(table, path, key);
    const auto number = node.value<double>();
    const std::string field = join(path, key);
    if (!number) fail(node.source(), field, "must be a number");
    if (!std::isfinite(*number))
      fail(node.source(), field, fmt::format("{} is not finite", *number));
    if (*number <= 0) fail(node.source(), field, fmt::format("{} must be positive", *number));
    if (!is_plausible(*number, kind)) {
      fail(
          node.source(), field,
          fmt::format("{} is outside the plausible range {}", *number, plausible_range(kind).text));
    }
    return *number;
  }

  std::string origin_;
};

}  // namespace ridge
