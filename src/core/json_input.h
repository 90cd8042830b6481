#pragma once
// JSON that users hand to ridge (measurements, model configs), parsed into a document or bad
// input naming the file, the line and column, and what is wrong: a syntax error, a number too
// large for a double, or a duplicate key.

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ridge/error.h"

namespace ridge {

namespace json_input_detail {

// Bytes that are not printable ASCII as \xHH, so that a message about a broken file is itself
// readable on any terminal.
inline std::string printable(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    out += byte >= 0x20 && byte < 0x7f ? std::string(1, c) : fmt::format("\\x{:02x}", byte);
  }
  return out;
}

// nlohmann's message without its "[json.exception.KIND.N] " and "syntax error while parsing
// value - " preambles.
inline std::string reason(const std::exception& e) {
  std::string what = e.what();
  if (const std::size_t bracket = what.find("] "); bracket != std::string::npos)
    what = what.substr(bracket + 2);
  constexpr std::string_view kSyntax = "syntax error while parsing value - ";
  if (const std::size_t syntax = what.find(kSyntax); syntax != std::string::npos)
    what = what.substr(syntax + kSyntax.size());
  return printable(what);
}

}  // namespace json_input_detail

// A whole number in [lo, hi], or std::invalid_argument saying "VALUE is not a whole number" or
// "VALUE is outside LO..HI". The type is checked before any conversion: nlohmann turns a float
// such as 1e300 into an integer with undefined behaviour, and a negative number into a huge
// unsigned one.
template <typename Json>
std::int64_t whole_number(const Json& v, std::int64_t lo, std::int64_t hi) {
  if (!v.is_number_integer()) {
    throw std::invalid_argument(fmt::format("{} is not a whole number", v.dump()));
  }
  const bool past_int64 =
      v.is_number_unsigned() &&
      v.template get<std::uint64_t>() > std::uint64_t{std::numeric_limits<std::int64_t>::max()};
  const std::int64_t n = past_int64 ? 0 : v.template get<std::int64_t>();
  if (past_int64 || n < lo || n > hi) {
    throw std::invalid_argument(fmt::format("{} is outside {}..{}", v.dump(), lo, hi));
  }
  return n;
}

// Also bad input: a key twice in one object, which JSON parsers resolve silently and differently.
template <typename Json>
Json parse_json_input(std::string_view text, const std::string& origin) {
  std::vector<std::set<std::string>> keys_per_object;
  const auto check_keys = [&](int, typename Json::parse_event_t event, Json& parsed) {
    using Event = typename Json::parse_event_t;
    if (event == Event::object_start) keys_per_object.emplace_back();
    if (event == Event::object_end) keys_per_object.pop_back();
    if (event == Event::key &&
        !keys_per_object.back().insert(parsed.template get<std::string>()).second) {
      input_error("{}: key {} appears twice in one object", origin, parsed.dump());
    }
    return true;
  };
  try {
    return Json::parse(text, check_keys);
  } catch (const typename Json::parse_error& e) {
    const std::size_t offset = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    const std::string_view before = text.substr(0, offset);
    const auto line = 1 + std::count(before.begin(), before.end(), '\n');
    const std::size_t newline = before.rfind('\n');
    const std::size_t column = (newline == std::string_view::npos ? offset : offset - newline - 1);
    input_error("{}:{}:{}: not valid JSON ({})", origin, line, column + 1,
                json_input_detail::reason(e));
  } catch (const typename Json::exception& e) {
    input_error("{}: not valid JSON ({})", origin, json_input_detail::reason(e));
  }
}

}  // namespace ridge
