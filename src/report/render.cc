#include "ridge/render.h"

#include "ridge/error.h"

namespace ridge::report {

Format parse_format(std::string_view name) {
  if (name == "text") return Format::text;
  if (name == "json") return Format::json;
  if (name == "csv") return Format::csv;
  if (name == "html") return Format::html;
  input_error("unknown format '{}' (choose text, json, csv or html)", name);
}

std::string render(const Document& document, Format format) {
  if (!document.verbatim.empty()) return document.verbatim;
  switch (format) {
    case Format::text:
      return render_text(document);
    case Format::json:
      return render_json(document);
    case Format::csv:
      return render_csv(document);
    case Format::html:
      return render_html(document);
  }
  return {};
}

}  // namespace ridge::report
