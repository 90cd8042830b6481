#include "ridge/document.h"

namespace ridge::report {

Cell text_cell(std::string text) {
  Value value = text;
  return {std::move(value), std::move(text)};
}

Cell number_cell(double value, std::string text) { return {value, std::move(text)}; }

Cell integer_cell(std::int64_t value) { return {value, std::to_string(value)}; }

Cell bool_cell(bool value, std::string text) { return {value, std::move(text)}; }

Cell empty_cell(std::string text) { return {std::monostate{}, std::move(text)}; }

}  // namespace ridge::report
