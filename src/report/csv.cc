// The CSV reporter. One table is written as it is; anything else as long rows
// (section,table,row,key,value) so every figure keeps its place and raw value.
#include <fmt/format.h>

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

std::string single_table(const Table& t) {
  std::string out;
  for (std::size_t c = 0; c < t.columns.size(); ++c)
    out += (c ? "," : "") + quote(t.columns[c].key);
  out += '\n';
  for (const auto& row : t.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) out += (c ? "," : "") + raw(row[c].value);
    out += '\n';
  }
  return out;
}

std::string single_row(const std::vector<const Field*>& fields) {
  std::string header;
  std::string values;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    header += (i ? "," : "") + quote(fields[i]->key);
    values += (i ? "," : "") + raw(fields[i]->cell.value);
  }
  return header + '\n' + values + '\n';
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
