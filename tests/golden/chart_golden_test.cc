// Charts for fixed inputs against the SVG files checked in beside this test. After a deliberate
// change to the charts, RIDGE_REGENERATE_GOLDEN=1 rewrites them (then look at them).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "cli/run.h"

namespace ridge::test {
namespace {

struct GoldenChart {
  const char* file;
  std::string arguments;
};

const GoldenChart kCharts[] = {
    {"h100-ops.svg",
     "chart --device h100-sxm --op \"add n=67108864\" --op \"gemv m=4096 n=4096\" --op \"gemm "
     "m=4096 n=4096 k=4096\" --op \"attention seq=8192 d=64\" --op \"decode params=7e9 batch=8\""},
    {"generations-dark.svg",
     "chart --devices v100-sxm2,a100-sxm-80gb,h100-sxm,b200 --precisions fp16 --links --theme "
     "dark"},
    {"h200-measured.svg", "chart --devices h200-sxm --measurement " +
                              data_path("../docs/measurements/h200-2026-11-30/h200.json")},
};

TEST(ChartGolden, ChartsMatchTheCheckedInFiles) {
  const bool regenerate = std::getenv("RIDGE_REGENERATE_GOLDEN") != nullptr;
  for (const GoldenChart& c : kCharts) {
    const Result r = ridge(c.arguments);
    ASSERT_EQ(r.exit_code, 0) << c.arguments << "\n" << r.err;
    const std::string path = data_path(std::string("golden/charts/") + c.file);
    if (regenerate) {
      write_file(path, r.out);
      continue;
    }
    EXPECT_EQ(r.out, read_file(path))
        << c.file << " differs (RIDGE_REGENERATE_GOLDEN=1 rewrites it)";
  }
}

}  // namespace
}  // namespace ridge::test
