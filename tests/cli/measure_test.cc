// `ridge measure` and `ridge lab` end to end: small runs, checked for completeness and sanity.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/run.h"

namespace ridge::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("ridge-measure-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

TEST(Measure, WritesACompleteMeasurementThatLoadsAsADevice) {
  const fs::path out = scratch("host.json");
  const Result r =
      ridge("measure --quick --max-working-set 8M --out " + out.string() + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json file = json::parse(read_file(out.string()));
  EXPECT_EQ(file, json::parse(r.out));  // stdout JSON is the file
  EXPECT_EQ(file["schema"], "ridge.measurement/1");
  EXPECT_GT(file["peak_flops"]["fp64"].get<double>(), 0);
  EXPECT_GT(file["peak_flops"]["fp32"].get<double>(), file["peak_flops"]["fp64"].get<double>());
  ASSERT_GT(file["bandwidth"].size(), 3u);
  for (const json& point : file["bandwidth"]) {
    for (const char* key : {"kernel", "working_set_bytes", "level", "bytes_per_s", "samples_s"}) {
      EXPECT_TRUE(point.contains(key)) << key;
    }
    EXPECT_GT(point["bytes_per_s"].get<double>(), 0);
  }
  EXPECT_FALSE(file["machine"]["cpu"].get<std::string>().empty());

  const Result op =
      ridge("op gemm --m 1024 --n 1024 --k 1024 --dtype fp32 --format json --device-file " +
            out.string());
  ASSERT_EQ(op.exit_code, 0) << op.err;
  const json j = json::parse(op.out);
  EXPECT_EQ(j["device"], "host");
  EXPECT_EQ(j["peak_provenance"], "measured");
  EXPECT_DOUBLE_EQ(j["peak_flops"].get<double>(), file["peak_flops"]["fp32"].get<double>());
  EXPECT_EQ(ridge("tour --device-file " + out.string()).exit_code, 0);
  EXPECT_EQ(
      ridge("compare --dtype fp32 --devices host,h100-sxm --device-file " + out.string()).exit_code,
      0);
  fs::remove_all(out.parent_path());
}

TEST(Measure, HostIsADeviceMeasuredOnTheSpot) {
  const Result r = ridge("op gemv --m 2048 --n 2048 --dtype fp32 --device host --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["device"], "host");
  EXPECT_EQ(j["peak_provenance"], "measured");
  EXPECT_EQ(j["bandwidth_provenance"], "measured");
  // The two ceilings are whatever this (possibly busy) machine gave; the analysis must use them.
  const double peak = j["peak_flops"].get<double>(), bandwidth = j["bandwidth"].get<double>();
  ASSERT_GT(peak, 0);
  ASSERT_GT(bandwidth, 0);
  EXPECT_DOUBLE_EQ(j["ridge"].get<double>(), peak / bandwidth);
  EXPECT_DOUBLE_EQ(j["time_s"].get<double>(),
                   std::max(j["flops"].get<double>() / peak, j["bytes"].get<double>() / bandwidth));
}

TEST(Measure, TextShowsCeilingsAndSpread) {
  const Result r = ridge("measure --quick --max-working-set 4M --threads 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Compute ceilings"), std::string::npos);
  EXPECT_NE(r.out.find("L1"), std::string::npos);
  EXPECT_NE(r.out.find("sgemm"), std::string::npos);
  const std::size_t threads = r.out.find("threads measured");
  ASSERT_NE(threads, std::string::npos);
  EXPECT_EQ(r.out.substr(r.out.find('\n', threads) - 2, 2), " 1");
}

// A shell starts background jobs with SIGINT ignored; ridge must still honour it.
TEST(Measure, InterruptLeavesNoPartialFileAndKeepsTheOldOne) {
  const fs::path out = scratch("kept.json");
  write_file(out.string(), "previous content\n");
  for (const char* signal : {"INT", "TERM", "KILL"}) {
    const std::string command = "sh -c '" + std::string(RIDGE_BINARY) + " measure --out " +
                                out.string() + " >/dev/null 2>&1 & pid=$!; sleep 0.5; kill -" +
                                signal + " $pid; wait $pid'";
    EXPECT_NE(std::system(command.c_str()), 0);
    EXPECT_EQ(read_file(out.string()), "previous content\n");
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(out.parent_path())) ++files;
    EXPECT_EQ(files, 1u) << "a temporary file was left behind";
  }
  fs::remove_all(out.parent_path());
}

// Device 1023 exists nowhere: a machine without a GPU says there is none, one with GPUs says how
// many it has. Either way one line, exit 2, and no file.
TEST(MeasureCuda, WithoutTheDeviceSaysSoInOneLine) {
  const fs::path out = scratch("gpu.json");
  const Result r = ridge("measure --backend cuda --gpu 1023 --quick --out " + out.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(out));
  fs::remove_all(out.parent_path());
  if (r.err.find("this machine has") != std::string::npos) {
    GTEST_SKIP() << "a CUDA device is present: " << r.err;
  }
  const bool no_device = r.err.find("no CUDA device is present") != std::string::npos;
  const bool no_backend = r.err.find("built without the CUDA backend") != std::string::npos;
  EXPECT_TRUE(no_device || no_backend) << r.err;
}

TEST(MeasureCuda, OptionsOfTheOtherBackendAreBadInput) {
  EXPECT_EQ(ridge("measure --gpu 0").err, "ridge: error: --gpu needs --backend cuda\n");
  EXPECT_EQ(ridge("measure --backend cuda --threads 2").err,
            "ridge: error: --threads applies to --backend cpu only\n");
  EXPECT_EQ(ridge("measure --backend cuda --max-working-set 1G").exit_code, 2);
  EXPECT_EQ(ridge("measure --backend opencl").exit_code, 2);
}

TEST(Lab, ComparesGemvWithGemmAndExitsByTheVerdict) {
  const Result r = ridge("lab --format json");
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["schema"], "ridge.lab/1");
  EXPECT_NEAR(j["spec"]["crossover_batch"].get<double>(), 990.0 / 3.35,
              1e-9);  // the reference's ~296
  ASSERT_EQ(j["spec"]["batches"].size(), 4u);
  EXPECT_EQ(j["spec"]["batches"][3]["bound"], "compute");
  ASSERT_EQ(j["cpu"]["kernels"].size(), 2u);
  for (const json& k : j["cpu"]["kernels"]) {
    EXPECT_GT(k["flops_per_s"].get<double>(), 0);
    EXPECT_GT(k["predicted_s"].get<double>(), 0);
  }
  EXPECT_EQ(r.exit_code == 0, j["cpu"]["passed"].get<bool>());
}

}  // namespace
}  // namespace ridge::test
