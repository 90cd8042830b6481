#include "report/cells.h"

#include <fmt/format.h>

#include "ridge/units.h"

namespace ridge::report {

Cell flops_cell(double flops) { return number_cell(flops, units::si(flops, "FLOP")); }
Cell flops_rate_cell(double v) { return number_cell(v, units::si(v, "FLOP/s")); }
Cell bytes_cell(double bytes) { return number_cell(bytes, units::si(bytes, "B")); }
Cell capacity_cell(double bytes) { return number_cell(bytes, units::capacity(bytes)); }
Cell bandwidth_cell(double v) { return number_cell(v, units::si(v, "B/s")); }
Cell intensity_cell(double v) { return number_cell(v, units::plain(v, 3) + " FLOP/B"); }
Cell time_cell(double seconds) { return number_cell(seconds, units::seconds(seconds)); }
Cell ratio_cell(double ratio) { return number_cell(ratio, fmt::format("{:.1f}x", ratio)); }

Cell percent_cell(double fraction, int decimals) {
  return number_cell(fraction, fmt::format("{:.{}f}%", fraction * 100, decimals));
}

Cell figure_cell(const Figure& figure, std::string_view unit_kind) {
  if (unit_kind == "capacity") return capacity_cell(figure.value);
  if (unit_kind == "bandwidth") return bandwidth_cell(figure.value);
  if (unit_kind == "latency") return time_cell(figure.value);
  if (unit_kind == "flops") return flops_rate_cell(figure.value);
  return number_cell(figure.value, units::plain(figure.value));
}

}  // namespace ridge::report
