// The CSV reporter. One table is written as it is; anything else as long rows
// (section,table,row,key,value) so every figure keeps its place and raw value.
#include <fmt/format.h>

#include <algorithm>

#include "ridge/render.h"

namespace ridge::report {

namespace {

std::string quote(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

std::string raw(const Value& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return "";
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return quote(v);
        } else {
          return fmt::format("{}", v);
        }
      },
      value);
}

struct Content {
  std::vector<const Table*> tables;
  std::vector<const Field*> fields;
};

Content collect(const Document& document) {
  Content content;
  for (const Section& s : document.sections) {
    for (const Block& block : s.blocks) {
      if (const auto* t = std::get_if<Table>(&block)) content.tables.push_back(t);
      if (const auto* f = std::get_if<Fields>(&block)) {
        for (const Field& field : f->fields) content.fields.push_back(&field);
      }
    }
    for (const Field& field : s.facts) content.fields.push_back(&field);
  }
  return content;
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    line += fields[i];
  }
  return line + '\n';
}

std::string single_table(const Table& t) {
  std::vector<std::string> header;
  for (const Column& column : t.columns) header.push_back(quote(column.key));
  std::string out = csv_line(header);
  for (const auto& row : t.rows) {
    std::vector<std::string> values(row.size());
    std::ranges::transform(row, values.begin(), [](const Cell& cell) { return raw(cell.value); });
    out += csv_line(values);
  }
  return out;
}

std::string single_row(const std::vector<const Field*>& fields) {
  std::vector<std::string> header;
  std::vector<std::string> values;
  for (const Field* field : fields) {
    header.push_back(quote(field->key));
    values.push_back(raw(field->cell.value));
  }
  return csv_line(header) + csv_line(values);
}

std::string long_rows(const Document& document) {
  std::string out = "section,table,row,key,value\n";
  auto line = [&out](const std::string& section, const std::string& table, const std::string& row,
                     const std::string& key, const Value& value) {
    out +=
        fmt::format("{},{},{},{},{}\n", quote(section), quote(table), row, quote(key), raw(value));
  };
  for (const Section& s : document.sections) {
    for (const Block& block : s.blocks) {
      if (const auto* f = std::get_if<Fields>(&block)) {
        for (const Field& field : f->fields) line(s.key, "", "", field.key, field.cell.value);
      }
      if (const auto* t = std::get_if<Table>(&block)) {
        for (std::size_t r = 0; r < t->rows.size(); ++r) {
          for (std::size_t c = 0; c < t->columns.size(); ++c) {
            line(s.key, t->key, std::to_string(r), t->columns[c].key, t->rows[r][c].value);
          }
        }
      }
    }
    for (const Field& field : s.facts) line(s.key, "", "", field.key, field.cell.value);
  }
  return out;
}

}  // namespace

std::string render_csv(const Document& document) {
  const Content content = collect(document);
  if (content.tables.size() == 1 && content.fields.empty()) return single_table(*content.tables[0]);
  if (content.tables.empty()) return single_row(content.fields);
  return long_rows(document);
}

}  // namespace ridge::report
