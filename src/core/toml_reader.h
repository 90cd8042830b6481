#pragma once
// Reading TOML that users hand to ridge (device and cluster files): every problem is bad input
// naming the file, line, column and field, so a user can fix the file from the message alone.

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "ridge/device.h"
#include "ridge/error.h"
#include "ridge/precision.h"

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

  // A table keyed by precision ([peak], [compute]): the precision of `key`, else bad input
  // naming the field and the choices.
  Precision precision_key(const toml::node& node, std::string_view path,
                          std::string_view key) const {
    if (const auto precision = find_precision(key)) return *precision;
    fail(node.source(), join(path, key),
         fmt::format("unknown precision ({})", precision_choices()));
  }

  const toml::table& as_table(const toml::node& node, std::string_view path) const {
    if (const toml::table* table = node.as_table()) return *table;
    fail(node.source(), path, "must be a table");
  }

  // The number at table.key: finite, positive, plausible for its kind and, for a count, whole,
  // else bad input naming the field and the value.
  double plausible_number(const toml::table& table, std::string_view path, std::string_view key,
                          FigureKind kind) const {
    const toml::node& node = required(table, path, key);
    const auto number = node.value<double>();
    const std::string field = join(path, key);
    if (!number) fail(node.source(), field, "must be a number");
    if (!std::isfinite(*number))
      fail(node.source(), field, fmt::format("{} is not finite", *number));
    if (*number <= 0) fail(node.source(), field, fmt::format("{} must be positive", *number));
    if (kind == FigureKind::count && *number != std::floor(*number))
      fail(node.source(), field, fmt::format("{} must be a whole number", *number));
    if (!is_plausible(*number, kind)) {
      fail(
          node.source(), field,
          fmt::format("{} is outside the plausible range {}", *number, plausible_range(kind).text));
    }
    return *number;
  }

  // A figure: { value, provenance, source (a key of [sources]), note }.
  // [sources]: the documents figures name by key.
  void read_sources(const toml::table& root) {
    const toml::node* node = root.get("sources");
    if (!node) return;
    for (const auto& [key, value] : as_table(*node, "sources")) {
      auto text = value.value<std::string>();
      if (!text || text->empty())
        fail(value.source(), join("sources", key.str()), "must be a non-empty string");
      sources_[std::string(key.str())] = *text;
    }
  }

  Figure figure(const toml::node& node, const std::string& path, FigureKind kind) const {
    return sourced_entry<Figure>(node, path, [&](const toml::table& t, Figure& f) {
      f.value = plausible_number(t, path, "value", kind);
    });
  }

  // An entry { value, provenance, source, note } (a figure, or any other sourced value):
  // `read_value` reads its value into the entry, the rest is read as attribute() reads it.
  template <class Sourced, class ReadValue>
  Sourced sourced_entry(const toml::node& node, const std::string& path,
                        ReadValue read_value) const {
    const toml::table& t = as_table(node, path);
    expect_keys(t, path, {"value", "provenance", "source", "note"});
    Sourced out;
    read_value(t, out);
    attribute(t, path, out);
    return out;
  }

  // What a sourced entry carries beside its value: its provenance, the source it names (none for
  // a derived one) and an optional note.
  template <class Sourced>
  void attribute(const toml::table& t, const std::string& path, Sourced& out) const {
    const toml::node& provenance = required(t, path, "provenance");
    const auto origin = find_provenance(provenance.value<std::string>().value_or(""));
    if (!origin)
      fail(provenance.source(), join(path, "provenance"),
           "must be spec, estimate, measured, derived or fitted");
    out.provenance = *origin;
    if (out.provenance != Provenance::derived) out.source = source_title(t, path);
    out.note = t["note"].value<std::string>().value_or("");
  }

  std::string source_title(const toml::table& t, const std::string& path) const {
    const std::string key = required_string(t, path, "source");
    if (auto it = sources_.find(key); it != sources_.end()) return it->second;
    fail(t.get("source")->source(), join(path, "source"),
         fmt::format("'{}' is not a key of [sources]", key));
  }

  std::optional<Figure> optional_figure(const toml::table& t, const std::string& path,
                                        std::string_view key, FigureKind kind) const {
    if (const toml::node* node = t.get(key)) return figure(*node, join(path, key), kind);
    return std::nullopt;
  }

  std::string origin_;
  std::map<std::string, std::string> sources_;
};

}  // namespace ridge
