#pragma once
// A small SVG writer: the elements a chart needs, attributes escaped, numbers rounded to a
// tenth of a pixel so that the same chart always makes the same file.

#include <string>
#include <string_view>

namespace ridge::report {

std::string xml_escape(std::string_view text);

class SvgWriter {
 public:
  SvgWriter(double width, double height, std::string_view title);

  void rect(double x, double y, double width, double height, std::string_view fill,
            std::string_view stroke = "none");
  void line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
            bool dashed = false);
  void circle(double cx, double cy, double r, std::string_view fill, std::string_view stroke);
  // `anchor`: start, middle or end; `angle`: degrees counter-clockwise about (x, y).
  void text(double x, double y, std::string_view content, std::string_view fill, double size,
            std::string_view anchor = "start", double angle = 0, bool bold = false);
  void open_group(std::string_view class_name);
  void close_group();

  std::string finish();

 private:
  std::string out_;
};

}  // namespace ridge::report
