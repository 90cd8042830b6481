// The text reporter: what a person reads in a terminal.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "ridge/render.h"

namespace ridge::report {

namespace {

constexpr std::size_t kWidth = 76;
constexpr std::size_t kBannerWidth = 74;

// Width of a list marker ("- ", "* ", "1. ", "(1) ") at the start of `text`, else 0: wrapped
// lines of a list item hang under its text.
std::size_t marker_width(std::string_view text) {
  const std::size_t space = text.find(' ');
  if (space == std::string_view::npos) return 0;
  const std::string_view word = text.substr(0, space);
  const bool bullet = word == "-" || word == "*" || (word.front() == '[' && word.back() == ']');
  const bool numbered = word.size() >= 2 &&
                        (word.back() == '.' || (word.front() == '(' && word.back() == ')')) &&
                        std::isdigit(static_cast<unsigned char>(word[word.front() == '(' ? 1 : 0]));
  return bullet || numbered ? space + 1 : 0;
}

// Greedy word wrap of one line of prose. A line that fits is kept as written (its spacing may
// align columns); a longer one breaks at spaces, continuation lines keeping its indentation.
void wrap_line(const std::string& line, std::string& out) {
  if (line.size() <= kWidth) {
    out += line + '\n';
    return;
  }
  const std::size_t indent = line.find_first_not_of(' ');
  const std::size_t hang = indent + marker_width(std::string_view(line).substr(indent));
  std::istringstream words(line.substr(indent));
  std::string word;
  std::string current(indent, ' ');
  bool empty = true;
  while (words >> word) {
    if (!empty && current.size() + 1 + word.size() > kWidth) {
      out += current + '\n';
      current.assign(hang, ' ');
      empty = true;
    }
    current += (empty ? "" : " ") + word;
    empty = false;
  }
  out += current + '\n';
}

void render_paragraph(const Paragraph& p, std::string& out) {
  std::istringstream lines(p.text);
  std::string line;
  while (std::getline(lines, line)) wrap_line(line, out);
}

void render_fields(const Fields& block, std::string& out) {
  std::size_t width = 0;
  for (const Field& f : block.fields) width = std::max(width, f.label.size());
  for (const Field& f : block.fields) {
    out += fmt::format("  {:<{}}  {}\n", f.label, width, f.cell.text);
  }
}

std::string pad(const std::string& text, std::size_t width, Align align) {
  return align == Align::left ? fmt::format("{:<{}}", text, width)
                              : fmt::format("{:>{}}", text, width);
}

std::string table_line(const std::vector<std::string>& cells, const Table& t,
                       const std::vector<std::size_t>& widths) {
  std::string line;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    line += (c == 0 ? "" : "  ") + pad(cells[c], widths[c], t.columns[c].align);
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line + '\n';
}

void render_table(const Table& t, std::string& out) {
  std::vector<std::size_t> widths;
  std::vector<std::string> headers;
  for (const Column& column : t.columns) {
    widths.push_back(column.header.size());
    headers.push_back(column.header);
  }
  for (const auto& row : t.rows) {
    for (std::size_t c = 0; c < row.size(); ++c)
      widths[c] = std::max(widths[c], row[c].text.size());
  }
  out += table_line(headers, t, widths);
  std::size_t total = 0;
  for (std::size_t w : widths) total += w;
  out += std::string(total + 2 * (widths.size() - 1), '-') + '\n';
  for (const auto& row : t.rows) {
    std::vector<std::string> texts(row.size());
    std::ranges::transform(row, texts.begin(), &Cell::text);
    out += table_line(texts, t, widths);
  }
}

void render_block(const Block& block, std::string& out) {
  std::visit(
      [&out](const auto& b) {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, Paragraph>) render_paragraph(b, out);
        if constexpr (std::is_same_v<T, Fields>) render_fields(b, out);
        if constexpr (std::is_same_v<T, Table>) render_table(b, out);
      },
      block);
}

void render_section(const Section& s, std::string& out) {
  if (!s.title.empty()) {
    const std::string rule(kBannerWidth, '=');
    out += fmt::format("\n{}\n{}\n{}\n", rule, s.title, rule);
  }
  for (const Block& block : s.blocks) {
    out += '\n';
    render_block(block, out);
  }
}

}  // namespace

std::string render_text(const Document& document) {
  std::string out;
  if (!document.title.empty()) out += document.title + '\n';
  for (const Section& section : document.sections) render_section(section, out);
  if (!document.notes.empty()) out += '\n';
  for (const std::string& note : document.notes) wrap_line("note: " + note, out);
  // Sections open with a blank line; the output itself should not.
  return out.starts_with('\n') ? out.substr(1) : out;
}

}  // namespace ridge::report
