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
  expect_rejected({"op gemm --m 1 --n 1 --k 1e20", "'1e20' is larger than 1e+18"});
  expect_rejected({"model --model llama-2-7b --batch 3e9", "'3e9' is larger than"});
  expect_rejected({"occupancy --blocks 1e19", "1e19"});
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

TEST(BadInput, ModelConfigsAndWorkloads) {
  const auto model = [](const char* file) {
    return "model --model " + data_path(std::string("cli/data/") + file);
  };
  expect_rejected({model("model_bad_syntax.json"), "model_bad_syntax.json:5:"});
  expect_rejected({model("model_missing_layers.json"), "num_hidden_layers: missing"});
  expect_rejected({model("model_gpt2.json"), "'GPT2LMHeadModel' is not supported"});
  expect_rejected({model("model_bad_heads.json"), "num_key_value_heads: 6 does not divide"});
  expect_rejected({model("nonexistent.json"), "nonexistent.json"});
  expect_rejected({"model --model llama-9", "'llama-9'"});
  expect_rejected({"model --model llama-2-70b --tp 3", "tensor-parallel degree 3"});
  expect_rejected({"model --model llama-2-7b --batch 0", "'0'"});
  expect_rejected({"model --model llama-2-7b --wbits nan", "nan"});
  expect_rejected({"model --model llama-2-7b --dtype fp8 --device a100-sxm-80gb", "no fp8 peak"});
  expect_rejected({"model --model llama-2-7b --abits 8 --device v100-sxm2", "8-bit activations"});
  expect_rejected({"model --model llama-2-7b --sweep batch=1,x", "'x'"});
  expect_rejected({"model --model llama-2-7b --sweep heads=1,2", "heads=1,2"});
  expect_rejected({"model --model llama-2-7b --sweep batch=", "lists no values"});
  expect_rejected({"model --model llama-2-70b --tp 2 --device l40s --device-file /nonexistent.toml",
                   "nonexistent"});
  expect_rejected({"model", "--model"});
}

TEST(BadInput, Measurements) {
  expect_rejected({"measure --threads 0", "'0'"});
  expect_rejected({"measure --threads 4096", "hardware threads"});
  expect_rejected({"measure --max-working-set 1P", "more than half"});
  expect_rejected({"measure --max-working-set lots", "'lots'"});
  expect_rejected(
      {"measure --quick --out /nonexistent/dir/m.json", "cannot write '/nonexistent/dir/m.json'"});
  expect_rejected({"lab --threads -1", "-1"});
  expect_rejected(
      {"devices --device-file " + data_path("cli/data/foreign.json"), "not a ridge measurement"});
  expect_rejected({"devices --device-file " + data_path("cli/data/truncated_measurement.json"),
                   "not valid JSON"});
}

TEST(BadInput, CommandsThatNeedAFigureTheDeviceLacks) {
  const std::string file = " --device-file " + data_path("cli/data/custom.toml");
  expect_rejected({"collective allreduce --bytes 1G --nodes 2" + file, "no network link"});
}

}  // namespace
}  // namespace ridge::test
