// Roofline chart layout: data to pixels, ticks, clipped roofs, and labels placed so that none
// overlaps another or leaves the plot.
#include "ridge/chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

#include "report/chart_style.h"
#include "ridge/error.h"
#include "ridge/op.h"
#include "ridge/units.h"

namespace ridge::chart {

namespace {

constexpr double kLabelHeight = 15;
constexpr int kMostDecades = 9;

// The log-log scale with the data range it shows.
struct Scale : LogScale {
  double x_min() const { return std::pow(10, x_lo); }
  double x_max() const { return std::pow(10, x_hi); }
  double y_min() const { return std::pow(10, y_lo); }
};

std::string intensity_label(double v) {
  if (v >= 1e6) return fmt::format("{:g}M", v / 1e6);
  if (v >= 1e3) return fmt::format("{:g}k", v / 1e3);
  return fmt::format("{:g}", v);
}

void check_input(const Input& in) {
  if (in.series.empty()) input_error("chart: no device to draw");
  for (const Series& s : in.series) {
    if (s.compute.empty() || s.bandwidth.empty())
      input_error("chart: '{}' needs a peak and a bandwidth to have a roofline", s.name);
  }
  for (const Point& p : in.points) {
    if (!(std::isfinite(p.intensity) && p.intensity > 0 && std::isfinite(p.flops_per_s) &&
          p.flops_per_s > 0)) {
      input_error(
          "chart: point '{}' at {} FLOP/B and {} FLOP/s needs a positive intensity and rate",
          p.label, p.intensity, p.flops_per_s);
    }
  }
  if (!(in.options.width >= 300 && in.options.width <= 10000 && in.options.height >= 200 &&
        in.options.height <= 10000)) {
    input_error("chart: {} x {} pixels is outside 300..10000 x 200..10000", in.options.width,
                in.options.height);
  }
}

Scale make_scale(const Input& in) {
  double x_min = 0.1, x_max = 1e4, y_max = 0, y_min = INFINITY;
  for (const Series& s : in.series) {
    for (const Ceiling& c : s.compute) {
      y_max = std::max(y_max, c.value);
      for (const Ceiling& b : s.bandwidth) {
        x_min = std::min(x_min, c.value / b.value / 4);
        x_max = std::max(x_max, c.value / b.value * 4);
      }
    }
  }
  for (const Point& p : in.points) {
    x_min = std::min(x_min, p.intensity / 2), x_max = std::max(x_max, p.intensity * 2);
    y_max = std::max(y_max, p.flops_per_s);
  }
  Scale s;
  s.x_lo = std::floor(std::log10(x_min));
  s.x_hi = std::ceil(std::log10(x_max));
  s.y_hi = std::ceil(std::log10(y_max * 1.5));
  // Roofs may start below the plot (at most kMostDecades shown); every point is always in it.
  for (const Series& series : in.series) {
    for (const Ceiling& b : series.bandwidth)
      y_min = std::min(y_min, b.value * std::pow(10, s.x_lo));
  }
  s.y_lo = std::clamp(std::floor(std::log10(y_min)), s.y_hi - kMostDecades, s.y_hi - 2);
  for (const Point& p : in.points)
    s.y_lo = std::min(s.y_lo, std::floor(std::log10(p.flops_per_s / 2)));
  s.plot = plot_area(in.options.width, in.options.height);
  return s;
}

// Whether the segment crosses the box (Liang-Barsky clipping).
bool crosses(const Line& l, const Box& b) {
  double t0 = 0, t1 = 1;
  const double dx = l.x2 - l.x1, dy = l.y2 - l.y1;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {l.x1 - b.x, b.x + b.width - l.x1, l.y1 - b.y, b.y + b.height - l.y1};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;
      continue;
    }
    const double t = q[i] / p[i];
    if (p[i] < 0) {
      t0 = std::max(t0, t);
    } else {
      t1 = std::min(t1, t);
    }
    if (t0 > t1) return false;
  }
  return true;
}

// Places labels one after another: each where it overlaps no label placed before, and where it
// can no marker and no line; failing that no marker; failing that only no label.
class Placer {
 public:
  Placer(const Box& plot, const std::vector<Line>& lines) : plot_(plot), lines_(lines) {}
  void reserve(const Box& b) { taken_.push_back(b); }
  void avoid(const Box& b) { markers_.push_back(b); }
  // The index of the first candidate (a label as one or more boxes) that fits, reserved.
  std::optional<std::size_t> take(const std::vector<std::vector<Box>>& candidates) {
    for (const int strictness : {2, 1, 0}) {
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (fits(candidates[i], strictness)) {
          taken_.insert(taken_.end(), candidates[i].begin(), candidates[i].end());
          return i;
        }
      }
    }
    return std::nullopt;
  }

 private:
  bool fits(const std::vector<Box>& parts, int strictness) const {
    const auto hits = [](const std::vector<Box>& boxes, const Box& b) {
      return std::any_of(boxes.begin(), boxes.end(), [&](const Box& t) { return t.overlaps(b); });
    };
    return std::all_of(parts.begin(), parts.end(), [&](const Box& b) {
      return b.inside(plot_) && !hits(taken_, b) && (strictness < 1 || !hits(markers_, b)) &&
             (strictness < 2 || std::none_of(lines_.begin(), lines_.end(),
                                             [&](const Line& l) { return crosses(l, b); }));
    });
  }

  Box plot_;
  const std::vector<Line>& lines_;
  std::vector<Box> taken_;    // labels and the legend: never overlapped
  std::vector<Box> markers_;  // overlapped only when nothing else fits
};

// Around a marker: right, left, above, below, then the diagonals, further and further out.
std::vector<std::vector<Box>> around(double x, double y, double w, double h) {
  std::vector<std::vector<Box>> boxes;
  for (double r = 6; r <= 160; r *= 1.5) {
    for (const auto& [dx, dy] : std::initializer_list<std::pair<double, double>>{{r, -h / 2},
                                                                                 {-r - w, -h / 2},
                                                                                 {-w / 2, -r - h},
                                                                                 {-w / 2, r},
                                                                                 {r, -r - h},
                                                                                 {r, r},
                                                                                 {-r - w, -r - h},
                                                                                 {-r - w, r}}) {
      boxes.push_back({{x + dx, y + dy, w, h}});
    }
  }
  return boxes;
}

Label label_in(const std::string& text, const Box& box, int series) {
  return {text, box, {box}, box.x, box.y + box.height - 4, 0, series, false, 0, 0};
}

// A label next to the marker at (x, y) it names; placed more than 12 px away, a leader joins
// them.
Label label_at(const std::string& text, const Box& box, int series, double x, double y) {
  Label l = label_in(text, box, series);
  const double dx = std::max({box.x - x, 0.0, x - box.x - box.width});
  const double dy = std::max({box.y - y, 0.0, y - box.y - box.height});
  l.leader = std::hypot(dx, dy) > 12;
  l.target_x = x, l.target_y = y;
  return l;
}

// Every position in the plot on an 8-pixel grid, nearest to (x, y) first: where a label goes
// when nothing near its target is free (it gets a leader).
std::vector<std::vector<Box>> anywhere(const Box& plot, double x, double y, double w, double h) {
  std::vector<std::pair<double, Box>> spots;
  for (double bx = plot.x + 2; bx + w <= plot.x + plot.width - 2; bx += 8) {
    for (double by = plot.y + 2; by + h <= plot.y + plot.height - 2; by += 8) {
      spots.emplace_back(std::hypot(bx + w / 2 - x, by + h / 2 - y), Box{bx, by, w, h});
    }
  }
  std::stable_sort(spots.begin(), spots.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::vector<Box>> boxes;
  for (const auto& [distance, box] : spots) boxes.push_back({box});
  return boxes;
}

// A label for the marker or line end at (x, y): around it, else anywhere with a leader.
void place_near(Layout& out, Placer& placer, const std::string& text, double x, double y,
                int series) {
  const double w = text_width(text);
  for (const auto& candidates :
       {around(x, y, w, kLabelHeight), anywhere(out.plot, x, y, w, kLabelHeight)}) {
    if (const auto i = placer.take(candidates)) {
      out.labels.push_back(label_at(text, candidates[*i].front(), series, x, y));
      return;
    }
  }
}

// Compute labels at the right end of their line, above it, else below, else further left.
void place_compute_labels(Layout& out, Placer& placer) {
  for (const Line& line : out.lines) {
    if (!line.compute) continue;
    const double w = text_width(line.label);
    std::vector<std::vector<Box>> candidates;
    for (double shift = 4; shift + w < out.plot.width; shift += 12) {
      const double x = out.plot.x + out.plot.width - shift - w;
      candidates.push_back({{x, line.y1 - kLabelHeight - 1, w, kLabelHeight}});
      candidates.push_back({{x, line.y1 + 2, w, kLabelHeight}});
    }
    if (const auto i = placer.take(candidates)) {
      out.labels.push_back(label_in(line.label, candidates[*i].front(), line.series));
    } else {
      place_near(out, placer, line.label, line.x2 - 20, line.y2, line.series);
    }
  }
}

// Bandwidth labels along their line (all share its on-screen angle), as near its start as they
// fit: the baseline 3 px above the line, the text as boxes of two glyphs each.
void place_bandwidth_labels(Layout& out, Placer& placer, double angle) {
  const double c = std::cos(angle), sn = std::sin(angle);
  for (const Line& line : out.lines) {
    if (line.compute) continue;
    const double w = text_width(line.label);
    std::vector<std::vector<Box>> candidates;
    std::vector<std::pair<double, double>> anchors;
    for (double t = 0.04; t < 0.95; t += 0.03) {
      const double ax = line.x1 + t * (line.x2 - line.x1) - 3 * sn;
      const double ay = line.y1 + t * (line.y2 - line.y1) - 3 * c;
      std::vector<Box> parts;
      for (double along = 0; along < w; along += 2 * kCharWidth) {
        const double piece = std::min(2 * kCharWidth, w - along);
        const double x = ax + along * c, y = ay - along * sn;
        const double height = kLabelHeight - 4;
        parts.push_back(
            {x, y - piece * sn - height * c, piece * c + height * sn, piece * sn + height * c});
      }
      candidates.push_back(std::move(parts));
      anchors.emplace_back(ax, ay);
    }
    if (const auto i = placer.take(candidates)) {
      const auto [ax, ay] = anchors[*i];
      const Box bounds{ax, ay - w * sn - kLabelHeight * c, w * c + kLabelHeight * sn,
                       w * sn + kLabelHeight * c};
      out.labels.push_back({line.label, bounds, candidates[*i], ax, ay, angle * 180 / M_PI,
                            line.series, false, 0, 0});
    } else {
      place_near(out, placer, line.label, (line.x1 + line.x2) / 2, (line.y1 + line.y2) / 2,
                 line.series);
    }
  }
}

// Which kinds of roof the chart draws: spec (solid), measured (dashed), or both.
struct RoofKinds {
  bool spec = false, measured = false;
};

RoofKinds roof_kinds(const Input& in) {
  RoofKinds k;
  for (const Series& s : in.series) {
    for (const auto* list : {&s.compute, &s.bandwidth}) {
      for (const Ceiling& c : *list) (c.measured ? k.measured : k.spec) = true;
    }
  }
  return k;
}

std::string auto_title(const Input& in) {
  const auto [spec, measured] = roof_kinds(in);
  std::string names;
  for (const Series& s : in.series) {
    if (!names.empty()) names += ", ";
    names += s.name;
  }
  const char* kind = spec && measured ? "spec (solid) and measured (dashed) ceilings"
                     : measured       ? "measured ceilings (dashed)"
                                      : "spec ceilings";
  return fmt::format("Roofline{}: {}, {}", in.series.size() > 1 ? "s" : "", names, kind);
}

void add_legend(Layout& out, const Input& in, Placer& placer) {
  const auto [spec, measured] = roof_kinds(in);
  for (std::size_t i = 0; i < in.series.size(); ++i)
    out.legend.push_back({in.series[i].name, static_cast<int>(i), false});
  if (spec) out.legend.push_back({"spec (datasheet)", -1, false});
  if (measured) out.legend.push_back({"measured", -1, true});
  out.legend_box = legend_box(out.plot, out.legend);
  placer.reserve(out.legend_box);
}

}  // namespace

Theme parse_theme(std::string_view name) {
  if (name == "light") return Theme::light;
  if (name == "dark") return Theme::dark;
  input_error("--theme: '{}' is neither light nor dark", name);
}

bool Box::overlaps(const Box& o) const {
  return x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height;
}

bool Box::inside(const Box& o) const {
  return x >= o.x && y >= o.y && x + width <= o.x + o.width && y + height <= o.y + o.height;
}

Layout layout(const Input& in) {
  check_input(in);
  const Scale s = make_scale(in);
  Layout out;
  out.width = in.options.width;
  out.height = in.options.height;
  out.plot = s.plot;
  out.theme = in.options.theme;
  out.title = in.options.title.empty() ? auto_title(in) : in.options.title;
  out.x = {s.x_lo, s.x_hi,
           decade_ticks(
               s.x_lo, s.x_hi, [&](double v) { return s.px(v); }, intensity_label),
           "arithmetic intensity (FLOP/byte)"};
  out.y = {s.y_lo, s.y_hi,
           decade_ticks(
               s.y_lo, s.y_hi, [&](double v) { return s.py(v); },
               [](double v) { return units::si(v, "FLOP/s"); }),
           "attainable performance (FLOP/s)"};

  // Roofs: bandwidth lines up to the highest peak, compute lines from the fastest bandwidth.
  for (std::size_t i = 0; i < in.series.size(); ++i) {
    const Series& series = in.series[i];
    const int id = static_cast<int>(i);
    const double top = series.compute.front().value;
    const double fastest = series.bandwidth.front().value;
    for (const Ceiling& b : series.bandwidth) {
      const double x1 = std::max(s.x_min(), s.y_min() / b.value);
      const double x2 = std::min(top / b.value, s.x_max());
      if (x2 > x1)
        out.lines.push_back({s.px(x1), s.py(b.value * x1), s.px(x2), s.py(b.value * x2), id,
                             b.measured, false,
                             fmt::format("{} {}", b.label, units::si(b.value, "B/s"))});
    }
    for (const Ceiling& c : series.compute) {
      const double x1 = std::max(s.x_min(), c.value / fastest);
      out.lines.push_back({s.px(x1), s.py(c.value), s.plot.x + s.plot.width, s.py(c.value), id,
                           c.measured, true,
                           fmt::format("{} {}", c.label, units::si(c.value, "FLOP/s"))});
      for (const Ceiling& b : series.bandwidth) {
        const double ridge = c.value / b.value;
        if (ridge > s.x_min() && ridge < s.x_max())
          out.markers.push_back(
              {s.px(ridge), s.py(c.value), id, true, c.measured || b.measured, 3.5});
      }
    }
  }
  for (const Point& p : in.points) {
    // A whole profile in one marker would be about 60 pixels across.
    const double radius = p.area_share > 0 ? std::max(2.5, 30 * std::sqrt(p.area_share)) : 4.5;
    out.markers.push_back(
        {s.px(p.intensity), s.py(p.flops_per_s), p.series, false, p.measured, radius});
  }

  Placer placer(s.plot, out.lines);
  add_legend(out, in, placer);
  for (const Marker& m : out.markers)
    placer.avoid({m.x - m.radius, m.y - m.radius, 2 * m.radius, 2 * m.radius});
  place_compute_labels(out, placer);
  place_bandwidth_labels(
      out, placer, std::atan2(s.plot.height / (s.y_hi - s.y_lo), s.plot.width / (s.x_hi - s.x_lo)));
  // Ridge labels for each device's top peak on its main memory, then the points.
  for (std::size_t i = 0; i < in.series.size(); ++i) {
    const Series& series = in.series[i];
    const double ridge = series.compute.front().value / series.main_bandwidth;
    if (!(ridge > s.x_min() && ridge < s.x_max())) continue;
    place_near(out, placer, fmt::format("ridge {} FLOP/B", units::plain(ridge, ridge < 10 ? 2 : 0)),
               s.px(ridge), s.py(series.compute.front().value), static_cast<int>(i));
  }
  for (const Point& p : in.points) {
    place_near(out, placer, p.label, s.px(p.intensity), s.py(p.flops_per_s), p.series);
  }
  return out;
}

// ---------------------------------------------------------------- inputs

Series series_for(const Device& device, const std::vector<Precision>& precisions, bool links) {
  Series s;
  s.name = device.id;
  // Equal peaks (fp16 and bf16 on most parts) share one line and one label.
  std::map<double, Ceiling, std::greater<>> compute;
  for (const auto& [precision, figure] : device.peak_flops_per_s) {
    if (!precisions.empty() &&
        std::find(precisions.begin(), precisions.end(), precision) == precisions.end())
      continue;
    Ceiling& c = compute[figure.value];
    if (!c.label.empty()) c.label += '/';
    c.label += to_string(precision);
    c.value = figure.value;
    c.measured = figure.provenance == Provenance::measured;
  }
  for (const auto& [value, c] : compute) s.compute.push_back(c);
  for (const MemoryLevel& level : device.memory) {
    if (!level.bandwidth_bytes_per_s) continue;
    s.bandwidth.push_back({level.name, level.bandwidth_bytes_per_s->value,
                           level.bandwidth_bytes_per_s->provenance == Provenance::measured});
  }
  if (links) {
    for (const Link& link : device.links) {
      s.bandwidth.push_back({link.name, link.bandwidth_bytes_per_s.value,
                             link.bandwidth_bytes_per_s.provenance == Provenance::measured});
    }
  }
  std::sort(s.bandwidth.begin(), s.bandwidth.end(),
            [](const Ceiling& a, const Ceiling& b) { return a.value > b.value; });
  s.main_bandwidth = device.main_bandwidth_bytes_per_s();
  if (s.compute.empty()) {
    std::string asked;
    for (const Precision p : precisions) {
      if (!asked.empty()) asked += ", ";
      asked += to_string(p);
    }
    input_error("chart: '{}' has none of the precisions asked for ({})", device.id, asked);
  }
  return s;
}

Point point_for(const OpAnalysis& a, int series) {
  return {a.op.label, a.intensity, a.attainable_flops_per_s, false, series};
}

Point expected_point_for(const OpAnalysis& a, double expected_time_s, int series) {
  return {"~ " + a.op.label, a.intensity, a.op.flops / expected_time_s, true, series};
}

std::vector<Point> measured_points(const Measurement& m, int series) {
  std::vector<Point> points;
  for (const BlasPoint& b : m.blas) {
    // n-by-n weights times n-by-batch inputs (batch 1 is the GEMV).
    const Op op = gemm(b.n, b.batch, b.n, bytes_per_element(b.precision));
    // The sweep reads as one series: the GEMV named in full, the GEMMs by their batch.
    const std::string label = b.batch == 1 ? fmt::format("{} n={}", blas_op_name(b), b.n)
                                           : fmt::format("batch {}", b.batch);
    points.push_back({label, op.flops / op.bytes, b.flops_per_s.median, true, series});
  }
  return points;
}

}  // namespace ridge::chart
