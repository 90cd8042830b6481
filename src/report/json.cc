// The JSON reporter: raw SI numbers under stable keys, with the document's schema.
#include <nlohmann/json.hpp>

#include "ridge/render.h"

namespace ridge::report {

namespace {

using Json = nlohmann::ordered_json;

Json to_json(const Value& value) {
  return std::visit(
      [](const auto& v) -> Json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return nullptr;
        } else {
          return v;
        }
      },
      value);
}

void add_fields(const std::vector<Field>& fields, Json& object) {
  for (const Field& f : fields) object[f.key] = to_json(f.cell.value);
}

Json table_rows(const Table& t) {
  Json rows = Json::array();
  for (const auto& row : t.rows) {
    Json object = Json::object();
    for (std::size_t c = 0; c < row.size(); ++c) object[t.columns[c].key] = to_json(row[c].value);
    rows.push_back(std::move(object));
  }
  return rows;
}

void add_section(const Section& s, Json& object) {
  for (const Block& block : s.blocks) {
    if (const auto* fields = std::get_if<Fields>(&block)) add_fields(fields->fields, object);
    if (const auto* table = std::get_if<Table>(&block)) object[table->key] = table_rows(*table);
  }
  add_fields(s.facts, object);
}

}  // namespace

std::string render_json(const Document& document) {
  if (!document.json.empty()) return document.json;
  Json root = Json::object();
  root["schema"] = document.schema;
  for (const Section& s : document.sections) {
    if (s.key.empty()) {
      add_section(s, root);
    } else {
      Json object = Json::object();
      if (!s.title.empty()) object["title"] = s.title;
      add_section(s, object);
      root[s.key] = std::move(object);
    }
  }
  if (!document.notes.empty()) root["notes"] = document.notes;
  return root.dump(2) + '\n';
}

}  // namespace ridge::report
