// Log-log line charts for sweeps (bus bandwidth by message size): decades on both axes, one
// coloured curve per series with its points marked, a legend.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/svg.h"
#include "ridge/chart.h"
#include "ridge/error.h"
#include "ridge/units.h"

namespace ridge::chart {

namespace {

constexpr double kLeft = 112, kRight = 24, kTop = 48, kBottom = 60;
constexpr const char* kLightPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"};
constexpr const char* kDarkPalette[] = {"#5fa8ff", "#ff6b6b", "#5dd39e", "#c39bff", "#ffb347"};

struct Range {
  double lo = INFINITY, hi = -INFINITY;  // decades
};

}  // namespace

std::string render_curve_svg(const CurveChart& c) {
  Range x, y;
  for (const Curve& curve : c.curves) {
    for (const auto& [px, py] : curve.points) {
      if (!(px > 0 && py > 0 && std::isfinite(px) && std::isfinite(py))) {
        input_error("chart: curve '{}' has a point that is not positive", curve.name);
      }
      x.lo = std::min(x.lo, std::floor(std::log10(px))),
      x.hi = std::max(x.hi, std::ceil(std::log10(px)));
      y.lo = std::min(y.lo, std::floor(std::log10(py))),
      y.hi = std::max(y.hi, std::ceil(std::log10(py)));
    }
  }
  if (x.lo > x.hi) input_error("chart: nothing to draw");
  x.hi = std::max(x.hi, x.lo + 1), y.hi = std::max(y.hi, y.lo + 1);
  const double width = c.options.width, height = c.options.height;
  const Box plot{kLeft, kTop, width - kLeft - kRight, height - kTop - kBottom};
  const auto px = [&](double v) {
    return plot.x + (std::log10(v) - x.lo) / (x.hi - x.lo) * plot.width;
  };
  const auto py = [&](double v) {
    return plot.y + plot.height - (std::log10(v) - y.lo) / (y.hi - y.lo) * plot.height;
  };
  const bool dark = c.options.theme == Theme::dark;
  const char* background = dark ? "#15181c" : "#ffffff";
  const char* ink = dark ? "#e8e8e8" : "#222222";
  const char* grid = dark ? "#2c3137" : "#e8e8e8";
  const auto& palette = dark ? kDarkPalette : kLightPalette;

  report::SvgWriter svg(width, height, c.title);
  svg.rect(0, 0, width, height, background);
  svg.text(width / 2, 28, c.title, ink, 15, "middle", 0, true);
  svg.open_group("grid");
  for (int d = static_cast<int>(x.lo); d <= static_cast<int>(x.hi); ++d) {
    const double v = std::pow(10.0, d);
    svg.line(px(v), plot.y, px(v), plot.y + plot.height, grid, 1);
    svg.text(px(v), plot.y + plot.height + 19, units::si(v, c.x_unit, 3), ink, 12, "middle");
  }
  for (int d = static_cast<int>(y.lo); d <= static_cast<int>(y.hi); ++d) {
    const double v = std::pow(10.0, d);
    svg.line(plot.x, py(v), plot.x + plot.width, py(v), grid, 1);
    svg.text(plot.x - 8, py(v) + 4, units::si(v, c.y_unit, 3), ink, 12, "end");
  }
  svg.close_group();
  svg.rect(plot.x, plot.y, plot.width, plot.height, "none", ink);
  svg.text(plot.x + plot.width / 2, height - 14, c.x_title, ink, 13, "middle");
  svg.text(16, plot.y + plot.height / 2, c.y_title, ink, 13, "middle", 90);
  for (std::size_t i = 0; i < c.curves.size(); ++i) {
    const Curve& curve = c.curves[i];
    const char* colour = palette[i % std::size(kLightPalette)];
    svg.open_group("curve");
    for (std::size_t k = 1; k < curve.points.size(); ++k) {
      svg.line(px(curve.points[k - 1].first), py(curve.points[k - 1].second),
               px(curve.points[k].first), py(curve.points[k].second), colour, 2, curve.dashed);
    }
    for (const auto& [vx, vy] : curve.points) svg.circle(px(vx), py(vy), 3, colour, colour);
    svg.close_group();
    // The legend, top left inside the plot.
    const double ly = plot.y + 18 + 18 * static_cast<double>(i);
    svg.line(plot.x + 12, ly - 4, plot.x + 36, ly - 4, colour, 2.5, curve.dashed);
    svg.text(plot.x + 42, ly, curve.name, ink, 12);
  }
  return svg.finish();
}

}  // namespace ridge::chart
