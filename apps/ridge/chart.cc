// `ridge chart` (an SVG roofline), `ridge report` (one self-contained HTML page) and the tour's
// charts (`ridge tour --charts DIR`).
#include "ridge/chart.h"

#include <filesystem>

#include "common.h"
#include "ridge/analysis.h"
#include "ridge/error.h"
#include "ridge/measurement.h"
#include "ridge/op.h"
#include "ridge/output_file.h"
#include "ridge/render.h"
#include "ridge/tour.h"
#include "ridge/views.h"

namespace ridge::cli {

namespace {

struct ChartArgs {
  std::vector<std::string> devices;
  std::string device;
  std::vector<std::string> precisions;
  std::vector<std::string> ops;
  std::string dtype = "fp16";
  std::string measurement;
  bool links = false;
  bool tour_ops = false;
  std::string out;
  std::string theme = "light";
  std::string title;
  double width = 960, height = 600;
};

void add_chart_options(CLI::App& sub, ChartArgs& a) {
  sub.add_option("--devices", a.devices, "Devices to draw, comma-separated (default: --device)")
      ->delimiter(',')
      ->check(non_empty());
  sub.add_option("--precisions", a.precisions,
                 "Compute roofs to draw (default: all the device has)")
      ->delimiter(',');
  sub.add_option("--op", a.ops,
                 "A point, repeatable: \"gemm m=4096 n=4096 k=4096\", \"decode params=7e9 "
                 "batch=8\"...");
  sub.add_option("--dtype", a.dtype, "Precision of the --op points (default fp16)");
  sub.add_option("--measurement", a.measurement,
                 "A measurement file: its ceilings (dashed) and its GEMV/GEMM kernels as points");
  sub.add_flag("--links", a.links, "Also draw the links (NVLink, PCIe, network) as roofs");
  sub.add_flag("--tour-ops", a.tour_ops, "Add the operations of the tour's roofline demo");
  sub.add_option("--theme", a.theme, "light or dark")->capture_default_str();
  sub.add_option("--title", a.title, "Chart title (default: made from the devices)");
  sub.add_option("--width", a.width, "Pixels")->check(positive_number())->capture_default_str();
  sub.add_option("--height", a.height, "Pixels")->check(positive_number())->capture_default_str();
  add_device_option(sub, a.device);
}

struct Built {
  chart::Input input;
  std::vector<const Device*> devices;
  std::optional<Measurement> measurement;
  std::vector<OpAnalysis> analyses;  // the points' operations on the first device
};

Built build_chart(const ChartArgs& a, const Session& s) {
  Built b;
  b.input.options = {a.width, a.height, chart::parse_theme(a.theme), a.title};
  std::vector<Precision> precisions;
  for (const std::string& p : a.precisions) precisions.push_back(parse_precision(p));
  if (a.devices.empty() && a.measurement.empty()) b.devices.push_back(&s.device(a.device));
  for (const std::string& id : a.devices) b.devices.push_back(&s.catalog().get(id));
  for (const Device* d : b.devices)
    b.input.series.push_back(chart::series_for(*d, precisions, a.links));
  if (!a.measurement.empty()) {
    b.measurement = load_measurement_file(a.measurement);
    const Device measured = device_from_measurement(
        *b.measurement, std::filesystem::path(a.measurement).stem().string(), a.measurement);
    b.input.series.push_back(chart::series_for(measured, precisions, a.links));
    for (chart::Point& p :
         chart::measured_points(*b.measurement, static_cast<int>(b.input.series.size()) - 1)) {
      b.input.points.push_back(std::move(p));
    }
  }
  if (!a.ops.empty() || a.tour_ops) {
    if (b.devices.empty()) input_error("--op needs a device to sit on (--devices)");
    const Precision precision = parse_precision(a.dtype);
    std::vector<Op> ops;
    for (const std::string& text : a.ops)
      ops.push_back(parse_op_spec(text, bytes_per_element(precision)));
    if (a.tour_ops) {
      for (Op& op : tour_roofline_ops(bytes_per_element(precision))) ops.push_back(std::move(op));
    }
    for (const Op& op : ops) {
      b.analyses.push_back(analyse(op, *b.devices.front(), precision));
      b.input.points.push_back(chart::point_for(b.analyses.back(), 0));
      // Beside the bound, where a calibration applies: the rate the expected time implies,
      // drawn hollow as real kernels are.
      if (const auto e = expect(op, *b.devices.front(), precision))
        b.input.points.push_back(chart::expected_point_for(b.analyses.back(), e->time.time_s, 0));
    }
  }
  return b;
}

// The content, written whole to `out`, or printed as it is.
report::Document write_or_print(OutputFile* out, const std::string& path,
                                const std::string& content, const std::string& what) {
  report::Document doc;
  if (!out) {
    doc.verbatim = content;
    return doc;
  }
  out->commit(content);
  doc.schema = "ridge.written/1";
  doc.title = fmt::format("wrote {} ({}, {} bytes)", path, what, content.size());
  return doc;
}

}  // namespace

void add_chart(CLI::App& app, std::vector<Command>& commands) {
  auto args = std::make_shared<ChartArgs>();
  CLI::App* sub = app.add_subcommand("chart", "An SVG roofline chart of devices and operations");
  add_chart_options(*sub, *args);
  sub->add_option("--out", args->out, "Write the SVG to this file (default: standard output)");
  commands.push_back({sub, [args](const Session& s) {
                        const auto out = open_output(args->out);
                        const Built b = build_chart(*args, s);
                        return write_or_print(out.get(), args->out,
                                              chart::render_svg(chart::layout(b.input)),
                                              "SVG chart");
                      }});

  auto report_args = std::make_shared<ChartArgs>();
  CLI::App* report = app.add_subcommand(
      "report", "One self-contained HTML page: the chart, the analyses and every figure's source");
  add_chart_options(*report, *report_args);
  report->add_option("--out", report_args->out, "Write the HTML to this file")->required();
  commands.push_back(
      {report, [report_args](const Session& s) {
         const ChartArgs& a = *report_args;
         const auto out = open_output(a.out);
         const Built b = build_chart(a, s);
         std::string body;
         for (const OpAnalysis& analysis : b.analyses) {
           body += report::render_html_body(
               report::op_document(analysis, *b.devices.front(),
                                   expect(analysis.op, *b.devices.front(), analysis.precision)));
         }
         if (b.measurement)
           body += report::render_html_body(report::measurement_document(*b.measurement));
         for (const Device* d : b.devices)
           body += report::render_html_body(report::device_document(*d));
         const chart::Layout layout = chart::layout(b.input);  // its title is the page's
         const std::string page =
             report::html_page(layout.title, {chart::render_svg(layout)}, body);
         return write_or_print(out.get(), a.out, page, "HTML report");
       }});
}

}  // namespace ridge::cli
