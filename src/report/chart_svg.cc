// Drawing a chart layout as SVG: everything was placed by `layout`; this only paints it.
#include <algorithm>
#include <array>

#include "report/svg.h"
#include "ridge/chart.h"

namespace ridge::chart {

namespace {

struct Colours {
  const char* background;
  const char* frame;
  const char* grid;
  const char* text;
  const char* muted;
  std::array<const char*, 7> series;
};

constexpr Colours kLight{
    "#ffffff", "#333333",
    "#e8e8e8", "#222222",
    "#666666", {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b"}};
constexpr Colours kDark{
    "#15181c", "#c8c8c8",
    "#2c3137", "#e8e8e8",
    "#a0a0a0", {"#5fa8ff", "#ff6b6b", "#5dd39e", "#c39bff", "#ffb347", "#4dd0e1", "#d7a67a"}};

const char* series_colour(const Colours& c, int series) {
  return c.series[static_cast<std::size_t>(series) % c.series.size()];
}

void draw_axes(report::SvgWriter& svg, const Layout& l, const Colours& c) {
  const Box& p = l.plot;
  svg.open_group("grid");
  for (const Tick& t : l.x.ticks) svg.line(t.position, p.y, t.position, p.y + p.height, c.grid, 1);
  for (const Tick& t : l.y.ticks) svg.line(p.x, t.position, p.x + p.width, t.position, c.grid, 1);
  svg.close_group();
  svg.rect(p.x, p.y, p.width, p.height, "none", c.frame);
  svg.open_group("ticks");
  for (const Tick& t : l.x.ticks) {
    svg.line(t.position, p.y + p.height, t.position, p.y + p.height + 5, c.frame, 1);
    svg.text(t.position, p.y + p.height + 19, t.label, c.text, 12, "middle");
  }
  for (const Tick& t : l.y.ticks) {
    svg.line(p.x - 5, t.position, p.x, t.position, c.frame, 1);
    svg.text(p.x - 8, t.position + 4, t.label, c.text, 12, "end");
  }
  svg.close_group();
  svg.text(p.x + p.width / 2, l.height - 14, l.x.title, c.text, 13, "middle");
  svg.text(16, p.y + p.height / 2, l.y.title, c.text, 13, "middle", 90);
}

void draw_legend(report::SvgWriter& svg, const Layout& l, const Colours& c) {
  const Box& b = l.legend_box;
  svg.open_group("legend");
  svg.rect(b.x, b.y, b.width, b.height, c.background, c.grid);
  double y = b.y + 16;
  for (const LegendEntry& e : l.legend) {
    const char* colour = e.series >= 0 ? series_colour(c, e.series) : c.muted;
    svg.line(b.x + 8, y - 4, b.x + 32, y - 4, colour, 2.5, e.dashed);
    svg.text(b.x + 38, y, e.text, c.text, 12);
    y += 18;
  }
  svg.close_group();
}

}  // namespace

std::string render_svg(const Layout& l) {
  const Colours& c = l.theme == Theme::dark ? kDark : kLight;
  report::SvgWriter svg(l.width, l.height, l.title);
  svg.rect(0, 0, l.width, l.height, c.background);
  svg.text(l.width / 2, 28, l.title, c.text, 15, "middle", 0, true);
  draw_axes(svg, l, c);
  svg.open_group("ceilings");
  for (const Line& line : l.lines) {
    svg.line(line.x1, line.y1, line.x2, line.y2, series_colour(c, line.series), 2, line.dashed);
  }
  svg.close_group();
  svg.open_group("markers");
  for (const Marker& m : l.markers) {
    const char* colour = series_colour(c, m.series);
    if (m.ridge) {
      svg.circle(m.x, m.y, 3.5, c.background, colour);
    } else {
      svg.circle(m.x, m.y, 4.5, m.measured ? c.background : colour, colour);
    }
  }
  svg.close_group();
  svg.open_group("labels");
  for (const Label& label : l.labels) {
    if (label.leader) {
      const double x = std::clamp(label.target_x, label.box.x, label.box.x + label.box.width);
      const double y = std::clamp(label.target_y, label.box.y, label.box.y + label.box.height);
      svg.line(label.target_x, label.target_y, x, y, c.muted, 0.8);
    }
    svg.text(label.anchor_x, label.anchor_y, label.text, series_colour(c, label.series), 12,
             "start", label.angle);
  }
  svg.close_group();
  draw_legend(svg, l, c);
  return svg.finish();
}

}  // namespace ridge::chart
