#pragma once
// What every command answers with: a document of fields, tables and prose that the text, JSON
// and CSV reporters render. Each cell keeps its raw SI value (for JSON and CSV) beside the text a
// person reads.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace ridge::report {

using Value = std::variant<std::monostate, bool, std::int64_t, double, std::string>;

struct Cell {
  Value value;
  std::string text;
};

Cell text_cell(std::string text);                  // a string, shown as is
Cell number_cell(double value, std::string text);  // a raw number and how it reads
Cell integer_cell(std::int64_t value);
Cell bool_cell(bool value, std::string text);
Cell empty_cell(std::string text = "-");  // JSON null

struct Field {
  std::string key;    // JSON/CSV name, snake_case with its unit when it has one
  std::string label;  // text label
  Cell cell;
};

enum class Align { left, right };

struct Column {
  std::string key;
  std::string header;
  Align align = Align::right;
};

struct Table {
  std::string key;
  std::vector<Column> columns;
  std::vector<std::vector<Cell>> rows;
};

struct Paragraph {
  std::string text;  // wrapped by the text reporter; blank lines separate paragraphs
};

struct Fields {
  std::vector<Field> fields;
};

using Block = std::variant<Paragraph, Fields, Table>;

struct Section {
  std::string key;    // empty: its content belongs to the top level
  std::string title;  // banner in text
  std::vector<Block> blocks;
  std::vector<Field> facts;  // figures the prose states, for JSON and CSV only
};

struct Document {
  std::string schema;  // "ridge.<kind>/<version>"
  std::string title;
  std::vector<Section> sections;
  std::vector<std::string> notes;  // caveats printed after the content
  // When set, the JSON form of the answer, in place of the rendered document (a measurement is
  // printed as the same ridge.measurement/1 file --out writes).
  std::string json;
  // When set, the whole answer in every format (an SVG chart, an HTML report).
  std::string verbatim;
  // A check the user asked for failed: the answer is printed, then ridge exits with code 1.
  bool check_failed = false;
  // Nothing to print: this process is an MPI rank other than 0, which prints for all of them.
  bool silent = false;
};

// The document of an MPI rank other than 0: nothing to print.
inline Document silent_document() {
  Document d;
  d.silent = true;
  return d;
}

}  // namespace ridge::report
