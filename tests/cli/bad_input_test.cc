// Bad input: one line on stderr naming what is wrong, exit code 2, nothing on stdout.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli/run.h"

namespace ridge::test {
namespace {

struct BadInput {
  std::string arguments;
  std::string mentions;  // the bad value (or field) the message must name
};

void expect_rejected(const BadInput& c) {
  const Result r = ridge(c.arguments);
  EXPECT_EQ(r.exit_code, 2) << c.arguments << "\n" << r.err;
  EXPECT_EQ(r.out, "") << c.arguments;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.arguments << "\n" << r.err;
  EXPECT_TRUE(r.err.starts_with("ridge: error: ")) << r.err;
  EXPECT_NE(r.err.find(c.mentions), std::string::npos) << c.arguments << "\n" << r.err;
}

TEST(BadInput, UnknownDeviceSuggestsTheClosest) {
  expect_rejected({"op gemm --m 1 --n 1 --k 1 --device h100", "'h100'"});
  expect_rejected({"tour --device a100", "a100-sxm-40gb"});
  expect_rejected({"device show mi300", "mi300x"});
  expect_rejected({"compare --devices v100-sxm2,h800", "'h800'"});
}

TEST(BadInput, PrecisionTheDeviceLacks) {
  expect_rejected({"op gemm --m 1 --n 1 --k 1 --device v100-sxm2 --dtype fp8", "no fp8 peak"});
  expect_rejected({"op add --n 10 --device l40s --dtype fp64", "no fp64 peak"});
  expect_rejected({"compare --devices v100-sxm2,h100-sxm --dtype bf16", "'v100-sxm2' has no bf16"});
  expect_rejected({"op add --n 10 --dtype fp12", "'fp12'"});
}

TEST(BadInput, SizesMustBePositiveFiniteNumbers) {
  for (const char* value : {"0", "-5", "nan", "inf", "-inf", "abc", "1e999", "12x"}) {
    expect_rejected({std::string("op add --n ") + value, value});
  }
  expect_rejected({"op gemm --m 1.5 --n 2 --k 2", "1.5"});
  expect_rejected({"op decode --params 0", "'0'"});
  expect_rejected({"op decode --params nan", "nan"});
  expect_rejected({"occupancy --blocks 0", "'0'"});
  expect_rejected({"collective allreduce --bytes 12Q", "12Q"});
  expect_rejected({"collective allreduce --bytes -1G", "-1G"});
  expect_rejected({"collective allreduce --bytes 1G --nodes 0", "'0'"});
  expect_rejected({"op gemm --m 1 --n 1 --k 1e20", "1e20"});
}

TEST(BadInput, UnknownOptionsAndMissingOnes) {
  expect_rejected({"op gemm --m 1 --n 1 --k 1 --bogus", "--bogus"});
  expect_rejected({"frobnicate", "frobnicate"});
  expect_rejected({"op gemm --m 1 --n 1", "--k"});
  expect_rejected({"op", "subcommand"});
  expect_rejected({"--format xml", "xml"});
}

TEST(BadInput, DeviceFiles) {
  expect_rejected(
      {"devices --device-file " + data_path("cli/data/bad_syntax.toml"), "bad_syntax.toml:5:"});
  expect_rejected({"devices --device-file " + data_path("cli/data/missing_bandwidth.toml"),
                   "memory[0].bandwidth: missing"});
  expect_rejected({"devices --device-file " + data_path("cli/data/negative.toml"),
                   "peak.fp32.value: -10000000000000 must be positive"});
  expect_rejected({"devices --device-file /nonexistent/x.toml", "/nonexistent/x.toml"});
  expect_rejected({"devices --device-file " + data_path("cli/data"), "cannot read device file"});
}

TEST(BadInput, CommandsThatNeedAFigureTheDeviceLacks) {
  const std::string file = " --device-file " + data_path("cli/data/custom.toml");
  expect_rejected({"collective allreduce --bytes 1G --nodes 2" + file, "no network link"});
}

}  // namespace
}  // namespace ridge::test
