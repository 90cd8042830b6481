#include "common.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "ridge/calibration.h"
#include "ridge/error.h"
#include "ridge/measure.h"

namespace ridge::cli {

std::unique_ptr<OutputFile> open_output(const std::string& path) {
  return path.empty() ? nullptr : std::make_unique<OutputFile>(path);
}

Session::Session(const GlobalOptions& options) {
  for (const std::string& path : options.device_files) {
    Device device = load_device_file(path);
    default_id_ = device.id;
    if (!own_catalog_) own_catalog_ = Catalog::builtin();
    own_catalog_->add(std::move(device));
  }
  for (const std::string& path : options.calibration_files) {
    use_calibration(load_calibration_file(path));
    calibrations_.given = true;
  }
}

Session::CalibrationScope::~CalibrationScope() {
  if (given) forget_user_calibrations();
}

const Device& Session::device(const std::string& id) const {
  const std::string& wanted = id.empty() ? default_id_ : id;
  if (wanted != "host" || catalog().find("host") != nullptr) return catalog().get(wanted);
  if (!host_) {
    MeasureOptions quick;
    quick.quick = true;
    host_ =
        device_from_measurement(measure_host(quick, progress_bar()), "host", "measured just now");
  }
  return *host_;
}

Progress progress_bar() {
  if (isatty(STDERR_FILENO) == 0) return {};
  return [](const std::string& step, double fraction) {
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(fraction * kWidth);
    std::fprintf(stderr, "\r[%-*s] %3.0f%% %-28s", kWidth,
                 std::string(static_cast<std::size_t>(filled), '#').c_str(), fraction * 100,
                 step.c_str());
    if (fraction >= 1) std::fprintf(stderr, "\r%*s\r", kWidth + 40, "");
    std::fflush(stderr);
  };
}

void add_device_option(CLI::App& app, std::string& id) {
  app.add_option("--device", id,
                 "Device ID from `ridge devices` (default h100-sxm, or the --device-file device)")
      ->check(non_empty());
}

void add_dtype_option(CLI::App& app, std::string& dtype) {
  app.add_option("--dtype", dtype, fmt::format("Precision: {}", precision_choices()))
      ->capture_default_str();
}

namespace {

// Empty when `text` is a positive finite number (a whole one up to `whole_max` when that is
// non-zero) within [lo, hi], else what is wrong with it.
std::string check_number(const std::string& text, double whole_max, double lo = 0,
                         double hi = INFINITY) {
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
  if (whole_max > 0 && value != std::floor(value)) return "'" + text + "' must be a whole number";
  if (whole_max > 0 && value > whole_max)
    return fmt::format("'{}' is larger than {:g}", text, whole_max);
  if (value < lo || value > hi) return fmt::format("'{}' is outside {:g}..{:g}", text, lo, hi);
  return {};
}

}  // namespace

const CLI::Validator& positive_number() {
  static const CLI::Validator v([](std::string& s) { return check_number(s, 0); }, "POSITIVE");
  return v;
}

CLI::Validator number_in(double lo, double hi) {
  return CLI::Validator([lo, hi](std::string& s) { return check_number(s, 0, lo, hi); },
                        fmt::format("{:g}..{:g}", lo, hi));
}

// Sizes of operations: beyond 10^18 elements no question is meaningful, and below it every
// count still converts to a 64-bit integer.
const CLI::Validator& positive_count() {
  static const CLI::Validator v([](std::string& s) { return check_number(s, 1e18); }, "COUNT");
  return v;
}

// Batch, tokens, ranks: stored as int.
const CLI::Validator& positive_int() {
  static const CLI::Validator v([](std::string& s) { return check_number(s, 2147483647); }, "INT");
  return v;
}

// `--device ""` must not quietly run on the default device.
const CLI::Validator& non_empty() {
  static const CLI::Validator v(
      [](std::string& s) {
        return s.empty() ? std::string("is empty: name one (`ridge devices` lists the IDs)")
                         : std::string();
      },
      "NAME");
  return v;
}

}  // namespace ridge::cli
