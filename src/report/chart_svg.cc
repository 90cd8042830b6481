// Drawing a chart layout as SVG: everything was placed by `layout`; this only paints it.
#include <algorithm>

#include "report/chart_style.h"
#include "ridge/chart.h"

namespace ridge::chart {

std::string render_svg(const Layout& l) {
  const Colours& c = colours(l.theme);
  report::SvgWriter svg = start_canvas(l.width, l.height, l.title, c);
  draw_axes(svg, l.plot, l.x, l.y, l.height, c);
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
      svg.circle(m.x, m.y, m.radius, m.measured ? c.background : colour, colour);
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
    svg.text(label.anchor_x, label.anchor_y, label.text, series_colour(c, label.series), kFontSize,
             "start", label.angle);
  }
  svg.close_group();
  draw_legend(svg, l.legend_box, l.legend, c);
  return svg.finish();
}

}  // namespace ridge::chart
