#include "ridge/units.h"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace ridge::units {

namespace {

// Drops trailing zeros (and a trailing point) from a fixed-point rendering.
std::string trim_zeros(std::string text) {
  if (text.find('.') == std::string::npos) return text;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

}  // namespace

std::string plain(double value, int decimals) {
  return trim_zeros(fmt::format("{:.{}f}", value, decimals));
}

std::string si(double value, std::string_view unit, int significant) {
  static constexpr std::array<const char*, 7> prefixes = {"", "k", "M", "G", "T", "P", "E"};
  std::size_t index = 0;
  double scaled = value;
  while (std::abs(scaled) >= 1000 && index + 1 < prefixes.size()) {
    scaled /= 1000;
    ++index;
  }
  const int whole_digits =
      std::abs(scaled) < 1 ? 1 : static_cast<int>(std::log10(std::abs(scaled))) + 1;
  const int decimals = std::max(0, significant - whole_digits);
  return fmt::format("{} {}{}", plain(scaled, decimals), prefixes[index], unit);
}

std::string binary_bytes(double bytes) {
  static constexpr std::array<const char*, 6> prefixes = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  std::size_t index = 0;
  while (bytes >= 1024 && index + 1 < prefixes.size()) {
    bytes /= 1024;
    ++index;
  }
  return fmt::format("{} {}", plain(bytes, 2), prefixes[index]);
}

std::string capacity(double bytes) {
  constexpr double kMebibyte = 1024.0 * 1024.0;
  const bool binary = bytes < kMebibyte || std::fmod(bytes, kMebibyte) == 0;
  return binary ? binary_bytes(bytes) : si(bytes, "B");
}

std::string count(double value) {
  static constexpr std::array<const char*, 5> suffixes = {"", "K", "M", "B", "T"};
  std::size_t index = 0;
  while (std::abs(value) >= 1000 && index + 1 < suffixes.size()) {
    value /= 1000;
    ++index;
  }
  return plain(value, 2) + suffixes[index];
}

}  // namespace ridge::units

namespace ridge::units {

std::string seconds(double value, int significant) {
  static constexpr std::array<std::pair<double, const char*>, 4> scales = {
      {{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}}};
  for (const auto& [scale, unit] : scales) {
    if (value >= scale || scale == 1e-9) {
      if (value >= 1000 * scale && scale == 1) return si(value, "s", significant);
      const double scaled = value / scale;
      const int whole = scaled < 1 ? 1 : static_cast<int>(std::log10(scaled)) + 1;
      return fmt::format("{} {}", plain(scaled, std::max(0, significant - whole)), unit);
    }
  }
  return "0 s";
}

}  // namespace ridge::units

#include <charconv>

#include "ridge/error.h"

namespace ridge::units {

namespace {

double suffix_multiplier(std::string_view suffix) {
  if (!suffix.empty() && suffix.back() == 'B') suffix.remove_suffix(1);
  static constexpr std::array<std::pair<std::string_view, double>, 11> table = {{
      {"", 1},
      {"K", 1e3},
      {"M", 1e6},
      {"G", 1e9},
      {"T", 1e12},
      {"P", 1e15},
      {"Ki", 1024.0},
      {"Mi", 1048576.0},
      {"Gi", 1073741824.0},
      {"Ti", 1099511627776.0},
      {"Pi", 1125899906842624.0},
  }};
  for (const auto& [name, multiplier] : table) {
    if (suffix == name) return multiplier;
  }
  return 0;
}

}  // namespace

double parse_bytes(std::string_view text) {
  double number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  const double multiplier =
      error == std::errc() ? suffix_multiplier(text.substr(end - text.data())) : 0;
  if (multiplier == 0) {
    input_error("'{}' is not a byte size (examples: 14e9, 14G, 14GB, 16GiB)", text);
  }
  const double bytes = number * multiplier;
  if (!std::isfinite(bytes) || bytes <= 0)
    input_error("byte size '{}' must be positive and finite", text);
  return bytes;
}

}  // namespace ridge::units
