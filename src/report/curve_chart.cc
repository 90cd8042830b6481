// Log-log line charts for sweeps (bus bandwidth by message size): decades on both axes, one
// coloured curve per series with its points marked, a legend; styled as the roofline chart.
#include <algorithm>
#include <cmath>

#include "report/chart_style.h"
#include "ridge/chart.h"
#include "ridge/error.h"
#include "ridge/units.h"

namespace ridge::chart {

namespace {

// The decades that hold every point of every curve (at least one each way); bad input when a
// point is not positive or there is none.
LogScale scale_for(const CurveChart& c) {
  LogScale s;
  s.x_lo = s.y_lo = INFINITY;
  s.x_hi = s.y_hi = -INFINITY;
  for (const Curve& curve : c.curves) {
    for (const auto& [x, y] : curve.points) {
      if (!(x > 0 && y > 0 && std::isfinite(x) && std::isfinite(y))) {
        input_error("chart: curve '{}' has the point ({}, {}), which is not positive", curve.name,
                    x, y);
      }
      s.x_lo = std::min(s.x_lo, std::floor(std::log10(x)));
      s.x_hi = std::max(s.x_hi, std::ceil(std::log10(x)));
      s.y_lo = std::min(s.y_lo, std::floor(std::log10(y)));
      s.y_hi = std::max(s.y_hi, std::ceil(std::log10(y)));
    }
  }
  if (s.x_lo > s.x_hi) input_error("chart: nothing to draw");
  s.x_hi = std::max(s.x_hi, s.x_lo + 1), s.y_hi = std::max(s.y_hi, s.y_lo + 1);
  s.plot = plot_area(c.options.width, c.options.height);
  return s;
}

}  // namespace

std::string render_curve_svg(const CurveChart& c) {
  const LogScale s = scale_for(c);
  const Axis x{s.x_lo, s.x_hi,
               decade_ticks(
                   s.x_lo, s.x_hi, [&](double v) { return s.px(v); },
                   [&](double v) { return units::si(v, c.x_unit, 3); }),
               c.x_title};
  const Axis y{s.y_lo, s.y_hi,
               decade_ticks(
                   s.y_lo, s.y_hi, [&](double v) { return s.py(v); },
                   [&](double v) { return units::si(v, c.y_unit, 3); }),
               c.y_title};
  const Colours& colour = colours(c.options.theme);
  report::SvgWriter svg = start_canvas(c.options.width, c.options.height, c.title, colour);
  draw_axes(svg, s.plot, x, y, c.options.height, colour);
  std::vector<LegendEntry> legend;
  for (std::size_t i = 0; i < c.curves.size(); ++i) {
    const Curve& curve = c.curves[i];
    const int series = static_cast<int>(i);
    const char* ink = series_colour(colour, series);
    svg.open_group("curve");
    for (std::size_t k = 1; k < curve.points.size(); ++k) {
      const auto& [x1, y1] = curve.points[k - 1];
      const auto& [x2, y2] = curve.points[k];
      svg.line(s.px(x1), s.py(y1), s.px(x2), s.py(y2), ink, 2, curve.dashed);
    }
    for (const auto& [vx, vy] : curve.points) svg.circle(s.px(vx), s.py(vy), 3, ink, ink);
    svg.close_group();
    legend.push_back({curve.name, series, curve.dashed});
  }
  draw_legend(svg, legend_box(s.plot, legend), legend, colour);
  return svg.finish();
}

}  // namespace ridge::chart
