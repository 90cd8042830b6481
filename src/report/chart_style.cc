#include "report/chart_style.h"

#include <algorithm>
#include <cmath>

namespace ridge::chart {

namespace {

constexpr double kMarginLeft = 112, kMarginRight = 24, kMarginTop = 48, kMarginBottom = 60;

constexpr Colours kLight{
    "#ffffff", "#333333",
    "#e8e8e8", "#222222",
    "#666666", {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b"}};
constexpr Colours kDark{
    "#15181c", "#c8c8c8",
    "#2c3137", "#e8e8e8",
    "#a0a0a0", {"#5fa8ff", "#ff6b6b", "#5dd39e", "#c39bff", "#ffb347", "#4dd0e1", "#d7a67a"}};

}  // namespace

Box plot_area(double width, double height) {
  return {kMarginLeft, kMarginTop, width - kMarginLeft - kMarginRight,
          height - kMarginTop - kMarginBottom};
}

double text_width(std::string_view text) {
  const auto glyphs = std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  });
  return static_cast<double>(glyphs) * kCharWidth;
}

double LogScale::px(double x) const {
  return plot.x + (std::log10(x) - x_lo) / (x_hi - x_lo) * plot.width;
}

double LogScale::py(double y) const {
  return plot.y + plot.height - (std::log10(y) - y_lo) / (y_hi - y_lo) * plot.height;
}

std::vector<Tick> decade_ticks(double lo, double hi, const std::function<double(double)>& at,
                               const std::function<std::string(double)>& name) {
  std::vector<Tick> ticks;
  for (int d = static_cast<int>(lo); d <= static_cast<int>(hi); ++d) {
    const double v = std::pow(10.0, d);
    ticks.push_back({at(v), v, name(v)});
  }
  return ticks;
}

const Colours& colours(Theme theme) { return theme == Theme::dark ? kDark : kLight; }

const char* series_colour(const Colours& c, int series) {
  return c.series[static_cast<std::size_t>(series) % c.series.size()];
}

Box legend_box(const Box& plot, const std::vector<LegendEntry>& entries) {
  double width = 0;
  for (const LegendEntry& e : entries) width = std::max(width, text_width(e.text));
  return {plot.x + 10, plot.y + 10, width + 46,
          kLegendRow * static_cast<double>(entries.size()) + 8};
}

report::SvgWriter start_canvas(double width, double height, const std::string& title,
                               const Colours& c) {
  report::SvgWriter svg(width, height, title);
  svg.rect(0, 0, width, height, c.background);
  svg.text(width / 2, 28, title, c.text, 15, "middle", 0, true);
  return svg;
}

void draw_axes(report::SvgWriter& svg, const Box& p, const Axis& x, const Axis& y,
               double canvas_height, const Colours& c) {
  svg.open_group("grid");
  for (const Tick& t : x.ticks) svg.line(t.position, p.y, t.position, p.y + p.height, c.grid, 1);
  for (const Tick& t : y.ticks) svg.line(p.x, t.position, p.x + p.width, t.position, c.grid, 1);
  svg.close_group();
  svg.rect(p.x, p.y, p.width, p.height, "none", c.frame);
  svg.open_group("ticks");
  for (const Tick& t : x.ticks) {
    svg.line(t.position, p.y + p.height, t.position, p.y + p.height + 5, c.frame, 1);
    svg.text(t.position, p.y + p.height + 19, t.label, c.text, kFontSize, "middle");
  }
  for (const Tick& t : y.ticks) {
    svg.line(p.x - 5, t.position, p.x, t.position, c.frame, 1);
    svg.text(p.x - 8, t.position + 4, t.label, c.text, kFontSize, "end");
  }
  svg.close_group();
  svg.text(p.x + p.width / 2, canvas_height - 14, x.title, c.text, 13, "middle");
  svg.text(16, p.y + p.height / 2, y.title, c.text, 13, "middle", 90);
}

void draw_legend(report::SvgWriter& svg, const Box& b, const std::vector<LegendEntry>& entries,
                 const Colours& c) {
  svg.open_group("legend");
  svg.rect(b.x, b.y, b.width, b.height, c.background, c.grid);
  double y = b.y + 16;
  for (const LegendEntry& e : entries) {
    const char* colour = e.series >= 0 ? series_colour(c, e.series) : c.muted;
    svg.line(b.x + 8, y - 4, b.x + 32, y - 4, colour, 2.5, e.dashed);
    svg.text(b.x + 38, y, e.text, c.text, kFontSize);
    y += kLegendRow;
  }
  svg.close_group();
}

}  // namespace ridge::chart
