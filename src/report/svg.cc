#include "report/svg.h"

#include <fmt/format.h>

#include <cmath>

namespace ridge::report {

namespace {

// A tenth of a pixel, in the shortest form that reads back the same ("12.3", "40").
std::string px(double v) {
  const double rounded = std::round(v * 10) / 10;
  return rounded == 0 ? "0" : fmt::format("{}", rounded);
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

SvgWriter::SvgWriter(double width, double height, std::string_view title) {
  out_ = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
      "<title>{2}</title>\n",
      px(width), px(height), xml_escape(title));
}

void SvgWriter::rect(double x, double y, double width, double height, std::string_view fill,
                     std::string_view stroke) {
  out_ += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"{}\"/>\n", px(x),
      px(y), px(width), px(height), fill, stroke);
}

void SvgWriter::line(double x1, double y1, double x2, double y2, std::string_view stroke,
                     double width, bool dashed) {
  out_ += fmt::format(
      "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n",
      px(x1), px(y1), px(x2), px(y2), stroke, px(width), dashed ? " stroke-dasharray=\"7 5\"" : "");
}

void SvgWriter::circle(double cx, double cy, double r, std::string_view fill,
                       std::string_view stroke) {
  out_ += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\"/>\n", px(cx),
                      px(cy), px(r), fill, stroke);
}

void SvgWriter::text(double x, double y, std::string_view content, std::string_view fill,
                     double size, std::string_view anchor, double angle, bool bold) {
  const std::string rotate =
      angle == 0 ? "" : fmt::format(" transform=\"rotate({} {} {})\"", px(-angle), px(x), px(y));
  out_ += fmt::format(
      "<text x=\"{}\" y=\"{}\" fill=\"{}\" font-size=\"{}\" text-anchor=\"{}\"{}{}>{}</text>\n",
      px(x), px(y), fill, px(size), anchor, bold ? " font-weight=\"bold\"" : "", rotate,
      xml_escape(content));
}

void SvgWriter::open_group(std::string_view class_name) {
  out_ += fmt::format("<g class=\"{}\">\n", xml_escape(class_name));
}

void SvgWriter::close_group() { out_ += "</g>\n"; }

std::string SvgWriter::finish() { return out_ + "</svg>\n"; }

}  // namespace ridge::report
