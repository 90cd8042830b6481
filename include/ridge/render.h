#pragma once
// The reporters: one document, three formats.

#include <string>
#include <string_view>

#include "ridge/document.h"

namespace ridge::report {

enum class Format { text, json, csv };

Format parse_format(std::string_view name);

// For people: banners, aligned tables, wrapped prose.
std::string render_text(const Document& document);
// For programs: raw SI numbers, the schema, no pre-formatted strings beside them.
std::string render_json(const Document& document);
// For spreadsheets: one table as is; several as long rows (section,table,row,key,value).
std::string render_csv(const Document& document);

std::string render(const Document& document, Format format);

}  // namespace ridge::report
