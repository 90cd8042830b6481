// The HTML reporter: one self-contained page (no scripts, fonts or anything fetched), the
// document's fields and tables as HTML, charts inline as SVG.
#include <fmt/format.h>

#include "report/svg.h"
#include "ridge/render.h"

namespace ridge::report {

namespace {

constexpr const char* kStyle = R"(
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; color: #222; margin: 2em auto;
       max-width: 1100px; padding: 0 1em; line-height: 1.45; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { padding: 0.25em 0.7em; border-bottom: 1px solid #e4e4e4; }
th { text-align: left; background: #f4f4f4; } td.number { text-align: right; }
dl.fields { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1.5em; }
dt { color: #555; } dd { margin: 0; }
.notes { color: #555; font-size: 0.9em; } figure { margin: 1em 0; } svg { max-width: 100%; height: auto; }
)";

void render_block(const Block& block, std::string& out) {
  if (const auto* p = std::get_if<Paragraph>(&block)) {
    out += "<p>" + xml_escape(p->text) + "</p>\n";
  } else if (const auto* f = std::get_if<Fields>(&block)) {
    out += "<dl class=\"fields\">\n";
    for (const Field& field : f->fields) {
      out += fmt::format("<dt>{}</dt><dd>{}</dd>\n", xml_escape(field.label),
                         xml_escape(field.cell.text));
    }
    out += "</dl>\n";
  } else if (const auto* t = std::get_if<Table>(&block)) {
    out += "<table>\n<tr>";
    for (const Column& c : t->columns) out += "<th>" + xml_escape(c.header) + "</th>";
    out += "</tr>\n";
    for (const auto& row : t->rows) {
      out += "<tr>";
      for (std::size_t i = 0; i < row.size() && i < t->columns.size(); ++i) {
        const bool number = t->columns[i].align == Align::right;
        out += fmt::format("<td{}>{}</td>", number ? " class=\"number\"" : "",
                           xml_escape(row[i].text));
      }
      out += "</tr>\n";
    }
    out += "</table>\n";
  }
}

}  // namespace

std::string render_html_body(const Document& document) {
  std::string out;
  if (!document.title.empty()) out += "<h2>" + xml_escape(document.title) + "</h2>\n";
  for (const Section& section : document.sections) {
    if (!section.title.empty()) out += "<h3>" + xml_escape(section.title) + "</h3>\n";
    for (const Block& block : section.blocks) render_block(block, out);
  }
  if (!document.notes.empty()) {
    out += "<ul class=\"notes\">\n";
    for (const std::string& note : document.notes) out += "<li>" + xml_escape(note) + "</li>\n";
    out += "</ul>\n";
  }
  return out;
}

std::string html_page(const std::string& title, const std::vector<std::string>& charts,
                      const std::string& body) {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n"
      "<style>{}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
      xml_escape(title), kStyle, xml_escape(title));
  for (const std::string& svg : charts) out += "<figure>\n" + svg + "</figure>\n";
  return out + body + "<p class=\"notes\">Made by ridge " RIDGE_VERSION ".</p>\n</body>\n</html>\n";
}

std::string render_html(const Document& document) {
  return html_page(document.title.empty() ? document.schema : document.title, {},
                   render_html_body(document));
}

}  // namespace ridge::report
