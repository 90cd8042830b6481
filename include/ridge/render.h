#pragma once
// The reporters: one document, three formats.

#include <string>
#include <string_view>
#include <vector>

#include "ridge/document.h"

namespace ridge::report {

enum class Format { text, json, csv, html };

Format parse_format(std::string_view name);

// For people: banners, aligned tables, wrapped prose.
std::string render_text(const Document& document);
// For programs: raw SI numbers, the schema, no pre-formatted strings beside them.
std::string render_json(const Document& document);
// For spreadsheets: one table as is; several as long rows (section,table,row,key,value).
std::string render_csv(const Document& document);

// For browsers: one self-contained page, nothing fetched.
std::string render_html(const Document& document);
// The parts of a page, for reports that put several documents and charts on one.
std::string render_html_body(const Document& document);
std::string html_page(const std::string& title, const std::vector<std::string>& charts,
                      const std::string& body);

std::string render(const Document& document, Format format);

}  // namespace ridge::report
