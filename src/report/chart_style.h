#pragma once
// What the roofline chart and the curve chart share, so that they look like one family: the
// margins, the log-log scale, decade ticks, each theme's colours, and how the canvas, axes and
// legend are drawn.

#include <array>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "report/svg.h"
#include "ridge/chart.h"

namespace ridge::chart {

constexpr double kFontSize = 12;
constexpr double kCharWidth = 0.62 * kFontSize;  // a generous average glyph for sans-serif
constexpr double kLegendRow = 18;

// The plot area of a canvas: inside the margins that hold the title, ticks and axis titles.
Box plot_area(double width, double height);

// The width a label takes: kCharWidth a glyph; UTF-8 continuation bytes (the µ of µs) take no
// width of their own.
double text_width(std::string_view text);

// Log-log mapping from data to pixels; the ranges are in decades.
struct LogScale {
  Box plot;
  double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;
  double px(double x) const;
  double py(double y) const;
};

// A tick at each power of ten from 10^lo to 10^hi, at `at(value)` pixels, labelled `name(value)`.
std::vector<Tick> decade_ticks(double lo, double hi, const std::function<double(double)>& at,
                               const std::function<std::string(double)>& name);

struct Colours {
  const char* background;
  const char* frame;
  const char* grid;
  const char* text;
  const char* muted;
  std::array<const char*, 7> series;
};

const Colours& colours(Theme theme);
const char* series_colour(const Colours& c, int series);

// The legend's box, at the top left of the plot, sized for its entries.
Box legend_box(const Box& plot, const std::vector<LegendEntry>& entries);

// A canvas with its background and title drawn.
report::SvgWriter start_canvas(double width, double height, const std::string& title,
                               const Colours& c);
void draw_axes(report::SvgWriter& svg, const Box& plot, const Axis& x, const Axis& y,
               double canvas_height, const Colours& c);
void draw_legend(report::SvgWriter& svg, const Box& box, const std::vector<LegendEntry>& entries,
                 const Colours& c);

}  // namespace ridge::chart
