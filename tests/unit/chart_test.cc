// Roofline charts: the layout's properties on several inputs (everything inside the plot, roofs
// horizontal or rising, no label over another, every roof and point labelled), the SVG valid
// XML, and operations written on the command line.
#include "ridge/chart.h"

#include <gtest/gtest.h>
#include <tinyxml2.h>

#include "ridge/catalog.h"
#include "ridge/error.h"
#include "ridge/op.h"

namespace ridge::chart {
namespace {

const Catalog& catalog() { return Catalog::builtin(); }

Input one_device_with_ops() {
  Input in;
  const Device& d = catalog().get("h100-sxm");
  in.series.push_back(series_for(d, {}, false));
  for (const char* text : {"add n=67108864", "gemv m=4096 n=4096", "gemm m=4096 n=4096 k=4096",
                           "attention seq=8192 d=64", "decode params=7e9 batch=8"}) {
    in.points.push_back(point_for(analyse(parse_op_spec(text, 2), d, Precision::fp16), 0));
  }
  return in;
}

Input generations() {
  Input in;
  for (const char* id : {"v100-sxm2", "a100-sxm-80gb", "h100-sxm", "b200"}) {
    in.series.push_back(series_for(catalog().get(id), {Precision::fp16}, true));
  }
  in.options.theme = Theme::dark;
  return in;
}

Input small_canvas() {
  Input in = one_device_with_ops();
  in.options.width = 640;
  in.options.height = 400;
  return in;
}

class ChartProperties : public ::testing::TestWithParam<Input (*)()> {};

TEST_P(ChartProperties, EverythingInsideNothingOverlapping) {
  const Input in = GetParam()();
  const Layout l = layout(in);
  const auto inside = [&](double x, double y) {
    return x >= l.plot.x - 0.5 && x <= l.plot.x + l.plot.width + 0.5 && y >= l.plot.y - 0.5 &&
           y <= l.plot.y + l.plot.height + 0.5;
  };
  for (const Marker& m : l.markers) EXPECT_TRUE(inside(m.x, m.y)) << m.x << "," << m.y;
  std::size_t roofs = 0;
  for (const Line& line : l.lines) {
    EXPECT_TRUE(inside(line.x1, line.y1) && inside(line.x2, line.y2)) << line.label;
    EXPECT_LT(line.x1, line.x2) << line.label;
    if (line.compute) {
      EXPECT_EQ(line.y1, line.y2) << line.label;  // a peak is flat
    } else {
      EXPECT_GT(line.y1, line.y2) << line.label;  // bandwidth rises with intensity
    }
    ++roofs;
  }
  for (std::size_t i = 0; i < l.labels.size(); ++i) {
    for (const Box& part : l.labels[i].parts) {
      EXPECT_TRUE(part.inside(l.plot)) << l.labels[i].text;
      EXPECT_FALSE(part.overlaps(l.legend_box)) << l.labels[i].text;
      for (std::size_t j = i + 1; j < l.labels.size(); ++j) {
        for (const Box& other : l.labels[j].parts) {
          EXPECT_FALSE(part.overlaps(other)) << l.labels[i].text << " / " << l.labels[j].text;
        }
      }
    }
  }
  // Every roof and every point is named, and each device's ridge.
  EXPECT_EQ(l.labels.size(), roofs + in.points.size() + in.series.size());
  for (std::size_t i = 1; i < l.x.ticks.size(); ++i) {
    EXPECT_GT(l.x.ticks[i].position, l.x.ticks[i - 1].position);
    EXPECT_EQ(l.x.ticks[i].value, 10 * l.x.ticks[i - 1].value);
  }
  for (std::size_t i = 1; i < l.y.ticks.size(); ++i)
    EXPECT_LT(l.y.ticks[i].position, l.y.ticks[i - 1].position);
}

TEST_P(ChartProperties, SvgIsWellFormedXml) {
  const std::string svg = render_svg(layout(GetParam()()));
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(svg.c_str()), tinyxml2::XML_SUCCESS) << doc.ErrorStr();
  EXPECT_STREQ(doc.RootElement()->Name(), "svg");
  EXPECT_NE(doc.RootElement()->FirstChildElement("title"), nullptr);
}

// A point far below every roof (1 kFLOP/s on an H100) still lands inside the plot.
Input a_slow_point() {
  Input in = one_device_with_ops();
  in.points.push_back({"slow", 0.5, 1e3, true, 0});
  return in;
}

INSTANTIATE_TEST_SUITE_P(Inputs, ChartProperties,
                         ::testing::Values(&one_device_with_ops, &generations, &small_canvas,
                                           &a_slow_point));

TEST(Chart, EqualPeaksShareOneRoof) {
  const Series s = series_for(catalog().get("h100-sxm"), {Precision::fp16, Precision::bf16}, false);
  ASSERT_EQ(s.compute.size(), 1u);
  EXPECT_EQ(s.compute[0].label, "fp16/bf16");
  EXPECT_EQ(s.main_bandwidth, 3.35e12);
  EXPECT_GT(s.bandwidth.front().value, s.bandwidth.back().value);
}

TEST(Chart, AxesCoverEveryPointAndRidge) {
  const Layout l = layout(one_device_with_ops());
  EXPECT_LE(l.x.lo, -1);  // 0.1 FLOP/B and below: the add sits at 1/6
  EXPECT_GE(l.x.hi, 4);
  EXPECT_EQ(l.x.ticks.front().label, "0.01");
  EXPECT_EQ(l.x.ticks.back().label, "10k");
  EXPECT_EQ(l.y.ticks.back().label, "10 PFLOP/s");
}

TEST(Chart, BadInputIsNamed) {
  Input empty;
  EXPECT_THROW(layout(empty), InputError);
  Input bad_point = one_device_with_ops();
  bad_point.points.push_back({"nothing", 0, 1, false, 0});
  EXPECT_THROW(layout(bad_point), InputError);
  Input tiny = one_device_with_ops();
  tiny.options.width = 10;
  EXPECT_THROW(layout(tiny), InputError);
  EXPECT_THROW(parse_theme("sepia"), InputError);
}

TEST(CurveChart, DrawsWellFormedSvgOfPositivePointsOnly) {
  CurveChart c;
  c.title = "busbw";
  c.x_unit = "B";
  c.y_unit = "B/s";
  c.curves.push_back({"ring", {{1e3, 1e8}, {1e6, 1e10}, {1e9, 4e11}}, false});
  c.curves.push_back({"model", {{1e3, 2e8}, {1e9, 5e11}}, true});
  const std::string svg = render_curve_svg(c);
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(svg.c_str()), tinyxml2::XML_SUCCESS) << doc.ErrorStr();
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);  // the dashed curve
  EXPECT_NE(svg.find(">1 kB<"), std::string::npos);            // decade ticks in SI units
  c.curves[0].points.push_back({0, 1});
  EXPECT_THROW(render_curve_svg(c), InputError);
  EXPECT_THROW(render_curve_svg(CurveChart{}), InputError);
}

TEST(OpSpec, ReadsEachKind) {
  EXPECT_EQ(parse_op_spec("gemm m=4096 n=4096 k=4096", 2).flops, 2.0 * 4096 * 4096 * 4096);
  EXPECT_EQ(parse_op_spec("gemm m=2 n=3 k=4 batch=5", 2).flops, 2.0 * 2 * 3 * 4 * 5);
  EXPECT_EQ(parse_op_spec("add n=100", 4).bytes, 1200);
  EXPECT_EQ(parse_op_spec("gemv m=10 n=20", 2).flops, 400);
  EXPECT_EQ(parse_op_spec("decode params=7e9 batch=8", 2).flops, 2 * 7e9 * 8);
  EXPECT_GT(parse_op_spec("attention seq=512 d=64 unfused", 2).bytes,
            parse_op_spec("attention seq=512 d=64", 2).bytes);
  EXPECT_EQ(parse_op_spec("attention seq=512 d=64 causal unfused", 2).label,
            "attention seq=512 d_head=64 causal unfused");
  EXPECT_EQ(parse_op_spec("attention seq=1 keys=4096 d=128 heads=32 kv_heads=8", 2).label,
            "attention seq=1 d_head=128 keys=4096 heads=32 kv_heads=8");
}

TEST(OpSpec, BadSpecsSayWhatIsWrong) {
  const auto error_of = [](const char* text) {
    try {
      parse_op_spec(text, 2);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error_of("conv n=3"),
            "--op 'conv n=3': 'conv' is not an operation (add, gemv, gemm, attention, decode)");
  EXPECT_EQ(error_of("gemm m=1 n=1"), "--op 'gemm m=1 n=1': k= is missing");
  EXPECT_EQ(error_of("gemm m=1 n=1 k=1 q=2"),
            "--op 'gemm m=1 n=1 k=1 q=2': 'q=2' is not one of m=, n=, k=, batch=");
  EXPECT_EQ(error_of("add n=-4"), "--op 'add n=-4': n='-4' is not a number from 1 to 1e18");
  EXPECT_EQ(error_of("add n=1.5"), "--op 'add n=1.5': n=1.5 is not whole");
  EXPECT_EQ(error_of(""), "--op '': '' is not an operation (add, gemv, gemm, attention, decode)");
}

}  // namespace
}  // namespace ridge::chart
