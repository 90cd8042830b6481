#pragma once
// Roofline charts: a device's ceilings (one per precision, one per memory level) on log-log axes
// with operations or measured kernels as points. Built in two steps: `layout` places everything
// in pixels (axes and ticks, lines clipped to the plot, labels that do not overlap), and
// `render_svg` draws a layout. The layout is what the tests check.

#include <string>
#include <utility>
#include <vector>

#include "ridge/analysis.h"
#include "ridge/device.h"
#include "ridge/measurement.h"

namespace ridge::chart {

enum class Theme { light, dark };
Theme parse_theme(std::string_view name);

struct Ceiling {
  std::string label;  // "fp16/bf16", "HBM3"
  double value = 0;   // FLOP/s or B/s
  bool measured = false;
};

// One device's roofs.
struct Series {
  std::string name;
  std::vector<Ceiling> compute;    // distinct peaks, highest first
  std::vector<Ceiling> bandwidth;  // memory levels (and links when asked), fastest first
  double main_bandwidth = 0;       // the level whose ridge points are marked
};

struct Point {
  std::string label;
  double intensity = 0;  // FLOP/B
  double flops_per_s = 0;
  bool measured = false;
  int series = 0;  // whose colour it takes
  // Where points stand for shares of a whole (a profile's kernels by time): the marker's area
  // is proportional to it; 0 draws the usual marker.
  double area_share = 0;
};

struct Options {
  double width = 960;
  double height = 600;
  Theme theme = Theme::light;
  std::string title;  // empty: made from the series
};

struct Input {
  std::vector<Series> series;
  std::vector<Point> points;
  Options options;
};

// The roofs of a device: the given precisions (all it has when empty), every memory level with
// a bandwidth, and its links when `links` is set. Figures of equal value share one line.
Series series_for(const Device& device, const std::vector<Precision>& precisions, bool links);

// An operation at the roof it reaches on its device.
Point point_for(const OpAnalysis& analysis, int series);

// The same operation at the rate its expected time implies (FLOPs / expected time), labelled
// "~ LABEL" and drawn hollow, as real kernels are.
Point expected_point_for(const OpAnalysis& analysis, double expected_time_s, int series);

// A measurement's GEMV/GEMM kernels at their intensity (weights, inputs and outputs once) and
// measured rate.
std::vector<Point> measured_points(const Measurement& measurement, int series);

// ---------------------------------------------------------------- layout

struct Box {
  double x = 0, y = 0, width = 0, height = 0;  // top-left corner, in pixels
  bool overlaps(const Box& other) const;
  bool inside(const Box& other) const;
};

struct Tick {
  double position = 0;  // pixels along the axis
  double value = 0;
  std::string label;
};

struct Axis {
  double lo = 0, hi = 0;  // data range, decades
  std::vector<Tick> ticks;
  std::string title;
};

struct Line {
  double x1, y1, x2, y2;
  int series = 0;
  bool dashed = false;
  bool compute = false;  // horizontal (compute) or diagonal (bandwidth)
  std::string label;     // "HBM3 3.35 TB/s"
};

struct Marker {
  double x, y;
  int series = 0;
  bool ridge = false;  // a ridge point; else a data point
  bool measured = false;
  double radius = 4.5;
};

struct Label {
  std::string text;
  Box box;  // the space it takes, for overlap checks (for a rotated label, its bounding box)
  std::vector<Box> parts;             // a rotated label's text, as small boxes along it
  double anchor_x = 0, anchor_y = 0;  // baseline start where it is drawn
  double angle = 0;  // degrees, counter-clockwise (bandwidth labels follow their line)
  int series = 0;
  bool leader = false;  // drawn with a thin line to what it names, which sits further away
  double target_x = 0, target_y = 0;
};

struct LegendEntry {
  std::string text;
  int series = -1;  // -1: a line-style entry
  bool dashed = false;
};

struct Layout {
  double width = 0, height = 0;
  Box plot;
  Axis x, y;
  std::string title;
  std::vector<Line> lines;
  std::vector<Marker> markers;
  std::vector<Label> labels;
  std::vector<LegendEntry> legend;
  Box legend_box;
  Theme theme = Theme::light;
};

// Bad input when there is nothing to draw or a point has no positive intensity or rate.
Layout layout(const Input& input);

std::string render_svg(const Layout& layout);

// ---------------------------------------------------------------- curve charts

// A log-log line chart of one quantity against another (bus bandwidth against message size),
// one curve per series, for sweeps that are not rooflines.
struct Curve {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), both positive
  bool dashed = false;
};

struct CurveChart {
  std::string title, x_title, y_title;
  std::string x_unit, y_unit;  // SI units of the tick labels ("B", "B/s")
  std::vector<Curve> curves;
  Options options;
};

// Bad input when there is no positive point to draw.
std::string render_curve_svg(const CurveChart& chart);

}  // namespace ridge::chart
