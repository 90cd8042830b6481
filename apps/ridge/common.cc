#include "common.h"

#include <cmath>

namespace ridge::cli {

Session::Session(const GlobalOptions& options) : catalog_(Catalog::builtin()) {
  for (const std::string& path : options.device_files) {
    Device device = load_device_file(path);
    default_id_ = device.id;
    catalog_.add(std::move(device));
  }
}

const Device& Session::device(const std::string& id) const {
  return catalog_.get(id.empty() ? default_id_ : id);
}

void add_device_option(CLI::App& app, std::string& id) {
  app.add_option("--device", id,
                 "Device ID from `ridge devices` (default h100-sxm, or the --device-file device)");
}

void add_dtype_option(CLI::App& app, std::string& dtype) {
  app.add_option("--dtype", dtype, "Precision: fp64, fp32, tf32, fp16, bf16, fp8, int8")
      ->capture_default_str();
}

namespace {

std::string check_number(const std::string& text, bool whole) {
  double value = 0;
  try {
    std::size_t used = 0;
    value = std::stod(text, &used);
    if (used != text.size()) return "'" + text + "' is not a number";
  } catch (const std::exception&) {
    return "'" + text + "' is not a number";
  }
  if (!std::isfinite(value)) return "'" + text + "' is not finite";
  if (value <= 0) return "'" + text + "' must be positive";
  if (whole && value != std::floor(value)) return "'" + text + "' must be a whole number";
  if (whole && value > 9007199254740992.0) return "'" + text + "' is too large (at most 2^53)";
  return {};
}

}  // namespace

const CLI::Validator& positive_number() {
  static const CLI::Validator v([](std::string& s) { return check_number(s, false); }, "POSITIVE");
  return v;
}

const CLI::Validator& positive_count() {
  static const CLI::Validator v([](std::string& s) { return check_number(s, true); }, "COUNT");
  return v;
}

}  // namespace ridge::cli
