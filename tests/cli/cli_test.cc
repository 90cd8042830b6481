// The CLI end to end: every subcommand in every format, run as a user would run it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/run.h"

namespace ridge::test {
namespace {

using nlohmann::json;

json ridge_json(const std::string& arguments) {
  const Result r = ridge(arguments + " --format json");
  EXPECT_EQ(r.exit_code, 0) << arguments << "\n" << r.err;
  EXPECT_EQ(r.err, "");
  return json::parse(r.out);
}

// Every CSV line has as many fields as the header (no field here holds a quoted comma).
void expect_rectangular_csv(const std::string& csv, const std::string& what) {
  std::istringstream lines(csv);
  std::string line;
  ASSERT_TRUE(std::getline(lines, line)) << what;
  const auto fields = [](const std::string& l) {
    std::size_t n = 1;
    bool quoted = false;
    for (char c : l) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted) ++n;
    }
    return n;
  };
  const std::size_t width = fields(line);
  std::size_t rows = 0;
  while (std::getline(lines, line)) {
    EXPECT_EQ(fields(line), width) << what << ": " << line;
    ++rows;
  }
  EXPECT_GT(rows, 0u) << what;
}

const char* const kCommands[] = {
    "tour",
    "tour --device b200",
    "op add --n 67108864",
    "op gemv --m 4096 --n 4096",
    "op gemm --m 4096 --n 4096 --k 4096 --batch 2",
    "op attention --seq 8192 --d-head 128 --heads 32 --batch 4",
    "op attention --seq 512 --d-head 64 --unfused",
    "op decode --params 7e9 --batch 8",
    "devices",
    "device show h100-sxm",
    "compare --devices v100-sxm2,a100-sxm-80gb,h100-sxm,b200",
    "occupancy --blocks 133",
    "collective allreduce --bytes 14e9 --gpus-per-node 8 --nodes 2",
    "collective alltoall --sweep-bytes 1K..1G --nodes 4",
    "parallel --model llama-3.1-8b --dp 4 --tp 2 --pp 2 --global-batch 64",
    "collective broadcast --bytes 1G --cluster " RIDGE_TEST_DATA
    "/../data/clusters/l40s-roce-x2.toml",
    "models",
    "model --model llama-2-7b",
    "model --model mixtral-8x7b --device h200-sxm --batch 16 --no-flash",
    "model --model llama-3.1-70b --tp 8 --sweep batch=1,8,64,256",
    "model --model llama-2-7b --device a100-sxm-80gb --cuda-graphs",
    "validate",
};

TEST(Cli, EveryCommandInEveryFormat) {
  for (const char* command : kCommands) {
    const Result text = ridge(command);
    EXPECT_EQ(text.exit_code, 0) << command << "\n" << text.err;
    EXPECT_GT(text.out.size(), 50u) << command;
    const json j = ridge_json(command);
    EXPECT_TRUE(j["schema"].get<std::string>().starts_with("ridge.")) << command;
    const Result csv = ridge(std::string(command) + " --format csv");
    EXPECT_EQ(csv.exit_code, 0) << command;
    expect_rectangular_csv(csv.out, command);
  }
}

TEST(Cli, NoSubcommandRunsTheTour) {
  EXPECT_EQ(ridge("").out, ridge("tour").out);
  EXPECT_EQ(ridge("--format json").out, ridge("tour --format json").out);
}

TEST(Cli, OpJsonHasTheDocumentedKeys) {
  const json j = ridge_json("op gemm --m 4096 --n 4096 --k 4096");
  for (const char* key : {"flops", "bytes", "intensity", "ridge", "attainable_flops", "bound",
                          "time_s", "device", "precision"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["schema"], "ridge.op/1");
  EXPECT_DOUBLE_EQ(j["flops"].get<double>(), 2 * 4096.0 * 4096 * 4096);
  EXPECT_DOUBLE_EQ(j["bytes"].get<double>(), 3 * 4096.0 * 4096 * 2);
  EXPECT_DOUBLE_EQ(j["ridge"].get<double>(), 990e12 / 3.35e12);
  EXPECT_DOUBLE_EQ(j["attainable_flops"].get<double>(), 990e12);
  EXPECT_EQ(j["bound"], "compute");
  EXPECT_DOUBLE_EQ(j["time_s"].get<double>(), 2 * 4096.0 * 4096 * 4096 / 990e12);
  EXPECT_EQ(j["device"], "h100-sxm");
  EXPECT_EQ(j["precision"], "fp16");
}

// `--tile` prices a GEMM as one kernel configuration, and says so: one row over 4096 columns
// 16384 deep on 32 tiles of 128x128 walks all of K on 32 SMs, where the library's pick splits K
// over most of them; the bound does not move.
TEST(Cli, OpPricesAGemmAtTheTileGiven) {
  const std::string product = "op gemm --m 1 --n 4096 --k 16384 --dtype fp8";
  const json library = ridge_json(product);
  const json tiled = ridge_json(product + " --tile 128x128x128");
  EXPECT_GT(tiled["expected_time_s"].get<double>(), 2 * library["expected_time_s"].get<double>());
  EXPECT_DOUBLE_EQ(tiled["time_s"].get<double>(), library["time_s"].get<double>());
  EXPECT_EQ(tiled["expected_detail"],
            "the configured tile 128x128x128, K unsplit, 1 wave (24% full)");
  EXPECT_EQ(library["expected_detail"].get<std::string>().find("configured"), std::string::npos);
}

TEST(Cli, OpGivesTheExpectedTimeAndItsCalibration) {
  const json j = ridge_json("op gemm --m 4096 --n 4096 --k 4096");
  EXPECT_GT(j["expected_time_s"].get<double>(), j["time_s"].get<double>());
  EXPECT_EQ(j["calibration"]["id"], "hopper");
  EXPECT_EQ(j["calibration"]["extrapolated"], true);
  EXPECT_EQ(j["calibration"]["compute_efficiency_provenance"], "measured");
  EXPECT_NE(j["calibration"]["compute_efficiency_source"].get<std::string>().find(
                "Maximum Achievable Matmul"),
            std::string::npos);
  // The overlap exponent is a figure of the calibration too, with where it came from.
  EXPECT_EQ(j["calibration"]["overlap_exponent_provenance"], "fitted");
  EXPECT_NE(j["calibration"]["overlap_exponent_source"].get<std::string>().find("H200"),
            std::string::npos);
  // So are the L2's rates where the profile gives them: Hopper's feed of a GEMM's tiles, measured
  // on an H200; Blackwell's reads again of data CTAs share, measured on a B200, with the fact that
  // its latent decode runs trtllm-gen's kernels.
  EXPECT_EQ(j["calibration"]["l2_bytes_per_s_provenance"], "measured");
  EXPECT_FALSE(j["calibration"].contains("l2_reread_bytes_per_s"));
  const json b200 = ridge_json("op gemm --m 4096 --n 4096 --k 4096 --device b200");
  EXPECT_FALSE(b200["calibration"].contains("l2_bytes_per_s"));
  EXPECT_DOUBLE_EQ(b200["calibration"]["l2_reread_bytes_per_s"].get<double>(), 16.7e12);
  EXPECT_NE(
      b200["calibration"]["l2_reread_bytes_per_s_source"].get<std::string>().find("SemiAnalysis"),
      std::string::npos);
  EXPECT_EQ(b200["calibration"]["attention_trtllm_gen_mla"], true);
  EXPECT_EQ(b200["calibration"]["attention_trtllm_gen_mla_provenance"], "spec");
  const json v100 = ridge_json("op gemm --m 4096 --n 4096 --k 4096 --device v100-sxm2");
  EXPECT_TRUE(v100["expected_time_s"].is_null());
  EXPECT_FALSE(v100.contains("calibration"));
  EXPECT_NE(ridge("op gemm --m 4096 --n 4096 --k 4096 --device v100-sxm2").out.find("bound only"),
            std::string::npos);
}

// A power-limited part's calibration says at what clock its shares are: an L40S's at the clock
// its power limit holds through a long run, a fitted figure; an H100's profile has none.
TEST(Cli, OpNamesTheClockAPowerLimitedPartsSharesAreAt) {
  const json l40s = ridge_json("op gemm --m 4096 --n 4096 --k 4096 --device l40s --dtype bf16");
  const double clock = l40s["calibration"]["clock_share"].get<double>();
  EXPECT_GT(clock, 0.5);
  EXPECT_LT(clock, 1);
  EXPECT_EQ(l40s["calibration"]["clock_share_provenance"], "fitted");
  // Its shares are Hopper's at the boost clock, taken at that clock.
  const json h100 = ridge_json("op gemm --m 4096 --n 4096 --k 4096 --dtype bf16");
  EXPECT_NEAR(l40s["calibration"]["compute_efficiency"].get<double>(),
              h100["calibration"]["compute_efficiency"].get<double>() * clock, 1e-9);
  EXPECT_FALSE(
      ridge_json("op gemm --m 4096 --n 4096 --k 4096")["calibration"].contains("clock_share"));
}

TEST(Cli, ModelGivesExpectedFigures) {
  const json j = ridge_json("model --model llama-3.1-8b --batch 4");
  for (const char* key : {"time_to_first_token_s", "time_per_token_s", "end_to_end_s"})
    EXPECT_GT(j["expected"][key].get<double>(), j[key].get<double>()) << key;
  EXPECT_LT(j["expected"]["tokens_per_s"].get<double>(), j["tokens_per_s"].get<double>());
  EXPECT_EQ(j["expected"]["calibration"], "hopper");
  for (const json& op : j["decode"]["ops"]) EXPECT_GE(op["expected_time_s"], op["time_s"]);
}

TEST(Cli, ValidateRunsTheBundledSets) {
  const json j = ridge_json("validate");
  EXPECT_EQ(j["schema"], "ridge.validation/1");
  EXPECT_EQ(j["bound_broken"], 0);
  ASSERT_GE(j["sets"].size(), 5u);
  for (const json& set : j["sets"]) {
    EXPECT_GT(set["points"].get<int>(), 0) << set["name"];
    EXPECT_EQ(set["bound_broken"], 0) << set["name"];
  }
  EXPECT_EQ(j["gemm_llmcompass_a100_fp16"]["points"].size(), 20u);
  // Every set says how it stands against its target, and the held-out ones are counted.
  int held_out = 0, met = 0;
  for (const json& set : j["sets"]) {
    if (set["role"] == "fit") {
      EXPECT_EQ(set["target"], "fit set (not judged)") << set["name"];
      continue;
    }
    ++held_out;
    met += set["target"] == "met" ? 1 : 0;
  }
  EXPECT_EQ(j["held_out_sets"], held_out);
  EXPECT_EQ(j["held_out_meeting_target"], met);
  const std::string summary =
      std::to_string(met) + " of " + std::to_string(held_out) + " held-out sets meet their target";
  EXPECT_NE(ridge("validate").out.find(summary), std::string::npos);
}

// --set keeps the sets whose name holds any of its names, in any case; --summary leaves every
// set's points out, not its errors.
TEST(Cli, ValidatePicksSetsByNameAndSummarises) {
  const json all = ridge_json("validate");
  const json picked = ridge_json("validate --set L40S --set s8: --summary");
  std::vector<std::string> expected;
  for (const json& set : all["sets"]) {
    const std::string name = set["name"];
    if (name.find("l40s") != std::string::npos || name.find("S8:") != std::string::npos)
      expected.push_back(name);
  }
  ASSERT_GE(expected.size(), 5u);
  std::vector<std::string> names;
  for (const json& set : picked["sets"]) names.push_back(set["name"]);
  EXPECT_EQ(names, expected);
  // The summary's keys, and no set's points.
  EXPECT_TRUE(all.contains("gemm_aiconfigurator_l40s_bf16"));
  for (const auto& [key, value] : picked.items())
    EXPECT_TRUE(all.contains(key) && !all[key].contains("points")) << key;
}

// A set no calibration prices (a part without a profile) has bounds but no errors: its error
// columns are empty (null in JSON), not zero, and it is not counted among the judged sets.
TEST(Cli, ValidateGivesNoErrorsForASetWithoutExpectedTimes) {
  const std::string path = ::testing::TempDir() + "/gaudi.tsv";
  write_file(path,
             "# Source: stas00/ml-engineering, its Gaudi 2 row\n"
             "dtype\taccelerator\tmamf_tflops\tbest_shape_MxNxK\n"
             "bf16\tIntel Gaudi 2\t418.7\t14336x15360x2048\n");
  const json j = ridge_json("validate --summary " + path);
  const json& set = j["sets"][0];
  EXPECT_EQ(set["points"], 0);
  for (const char* key : {"median_abs_error", "p90_abs_error", "bias", "within_10", "within_25"})
    EXPECT_TRUE(set[key].is_null()) << key;
  EXPECT_EQ(set["target"], "no expected times");
  EXPECT_EQ(j["held_out_sets"], 0);
}

TEST(Cli, ValidateFailsWhenABoundIsAboveAMeasurement) {
  const std::string path = ::testing::TempDir() + "/too-fast.tsv";
  write_file(path,
             "# Source: made up, faster than the roofline allows\n"
             "m\tn\tk\tdtype\tdevice\ttime_ms\n4096\t4096\t4096\tfp16\tH100 80GB HBM3\t0.001\n");
  const Result r = ridge("validate " + path);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("BOUND ABOVE MEASUREMENT"), std::string::npos);
}

TEST(Cli, ACalibrationFileAppliesToTheDevicesItLists) {
  const json j = ridge_json("--calibration " RIDGE_TEST_DATA
                            "/cli/data/calibration-v100.toml op gemm --m 4096 --n 4096 --k 4096 "
                            "--device v100-sxm2");
  EXPECT_EQ(j["calibration"]["id"], "volta-test");
  EXPECT_GT(j["expected_time_s"].get<double>(), j["time_s"].get<double>());
}

TEST(Cli, OpHonoursDeviceAndPrecision) {
  const json j = ridge_json("op gemv --m 8192 --n 8192 --device a100-sxm-80gb --dtype bf16");
  EXPECT_EQ(j["device"], "a100-sxm-80gb");
  EXPECT_EQ(j["precision"], "bf16");
  EXPECT_EQ(j["bound"], "memory");
  EXPECT_DOUBLE_EQ(j["attainable_flops"].get<double>(), 2039e9 * j["intensity"].get<double>());
}

TEST(Cli, HugeDecodeStaysCorrect) {
  const json j = ridge_json("op decode --params 1e15");
  EXPECT_DOUBLE_EQ(j["flops"].get<double>(), 2e15);
  EXPECT_DOUBLE_EQ(j["bytes"].get<double>(), 2e15);
  EXPECT_DOUBLE_EQ(j["intensity"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["time_s"].get<double>(), 2e15 / 3.35e12);
}

TEST(Cli, SizesUpTo1e18StayFiniteAndOrdered) {
  const json j = ridge_json("op add --n 1e18");
  EXPECT_DOUBLE_EQ(j["flops"].get<double>(), 1e18);
  EXPECT_GE(j["time_s"].get<double>(), j["bytes"].get<double>() / j["bandwidth"].get<double>());
  const json huge = ridge_json("op gemm --m 1e6 --n 1e6 --k 1e6 --batch 1e6");
  EXPECT_DOUBLE_EQ(huge["flops"].get<double>(), 2e24);
  EXPECT_EQ(huge["bound"], "compute");
}

TEST(Cli, UnfusedAttentionIsSlowerThanFused) {
  const json fused = ridge_json("op attention --seq 4096 --d-head 64");
  const json unfused = ridge_json("op attention --seq 4096 --d-head 64 --unfused");
  EXPECT_EQ(fused["flops"], unfused["flops"]);
  EXPECT_GT(unfused["bytes"].get<double>(), fused["bytes"].get<double>());
  EXPECT_EQ(fused["bound"], "compute");
  EXPECT_EQ(unfused["bound"], "memory");
}

// A causal mask halves the FLOPs (seq (seq + 1) / 2 scores), not the bytes, and the expected
// time with them.
TEST(Cli, CausalAttentionDoesHalfTheWork) {
  const json full = ridge_json("op attention --seq 4096 --d-head 128 --heads 32 --device h100-sxm");
  const json causal =
      ridge_json("op attention --seq 4096 --d-head 128 --heads 32 --device h100-sxm --causal");
  EXPECT_DOUBLE_EQ(causal["flops"].get<double>(), full["flops"].get<double>() * 4097 / 8192);
  EXPECT_EQ(causal["bytes"], full["bytes"]);
  EXPECT_LT(causal["expected_time_s"].get<double>(), full["expected_time_s"].get<double>());
}

// A decode step over a cache of grouped queries: one query a sequence scores every key, and K
// and V are read once per K and V head; fewer K and V heads read fewer bytes, the same FLOPs.
TEST(Cli, DecodeAttentionReadsItsCacheOncePerKvHead) {
  const char* step = "op attention --seq 1 --keys 8192 --heads 32 --d-head 128 --batch 16 --causal";
  const json mha = ridge_json(step);
  const json gqa = ridge_json(std::string(step) + " --kv-heads 8");
  EXPECT_DOUBLE_EQ(mha["flops"].get<double>(), 4.0 * 8192 * 128 * 32 * 16);
  EXPECT_EQ(mha["flops"], gqa["flops"]);
  const double queries = 2.0 * 128 * 2 * 32 * 16;
  EXPECT_DOUBLE_EQ(gqa["bytes"].get<double>(), queries + 2.0 * 8192 * 128 * 2 * 8 * 16);
  EXPECT_DOUBLE_EQ(mha["bytes"].get<double>(), queries + 2.0 * 8192 * 128 * 2 * 32 * 16);
}

TEST(Cli, DevicesListsTheCatalog) {
  const json j = ridge_json("devices");
  ASSERT_GE(j["devices"].size(), 8u);
  const json& h100 = *std::find_if(j["devices"].begin(), j["devices"].end(),
                                   [](const json& d) { return d["id"] == "h100-sxm"; });
  EXPECT_EQ(h100["year"], 2022);
  EXPECT_DOUBLE_EQ(h100["bandwidth_bytes_per_s"].get<double>(), 3.35e12);
  EXPECT_DOUBLE_EQ(h100["fp16_flops_per_s"].get<double>(), 990e12);
  EXPECT_NEAR(h100["ridge_flops_per_byte"].get<double>(), 295.52, 0.01);
  const Result text = ridge("devices");
  EXPECT_NE(text.out.find("mi300x"), std::string::npos);
}

TEST(Cli, DeviceShowGivesEveryFigureItsProvenance) {
  const json j = ridge_json("device show h100-sxm");
  ASSERT_GT(j["figures"].size(), 20u);
  for (const json& f : j["figures"]) {
    EXPECT_TRUE(f["provenance"] == "spec" || f["provenance"] == "estimate") << f;
    EXPECT_FALSE(f["source"].get<std::string>().empty()) << f;
  }
  const Result text = ridge("device show h100-sxm");
  EXPECT_NE(text.out.find("estimate"), std::string::npos);
  EXPECT_NE(text.out.find("H100 Tensor Core GPU datasheet"), std::string::npos);
}

TEST(Cli, CompareShowsGrowth) {
  const json j = ridge_json("compare --devices v100-sxm2,h100-sxm");
  EXPECT_NEAR(j["peak_growth"].get<double>(), 990.0 / 125, 1e-12);
  EXPECT_NEAR(j["bandwidth_growth"].get<double>(), 3350.0 / 900, 1e-12);
  EXPECT_NEAR(j["ridge_growth"].get<double>(), (990.0 / 3.35) / (125.0 / 0.9), 1e-9);
}

// Every device, GPU, TPU, Gaudi, Trainium or CPU, compares at its 16-bit rate by default.
TEST(Cli, CompareWorksAcrossTheWholeCatalog) {
  const json list = ridge_json("devices");
  std::string ids;
  for (const json& d : list["devices"]) {
    if (!ids.empty()) ids += ',';
    ids += d["id"].get<std::string>();
  }
  const json j = ridge_json("compare --devices " + ids);
  EXPECT_EQ(j["devices"].size(), list["devices"].size());
  EXPECT_EQ(j["precision"], "16-bit");
  const json tpus = ridge_json("devices --kind tpu --sort bandwidth");
  ASSERT_EQ(tpus["devices"].size(), 4u);
  EXPECT_EQ(tpus["devices"][0]["id"], "tpu-v5p");
  for (const json& d : tpus["devices"]) EXPECT_EQ(d["kind"], "tpu");
}

TEST(Cli, Occupancy) {
  const json j = ridge_json("occupancy --blocks 133");
  EXPECT_EQ(j["units"], 132);
  EXPECT_EQ(j["waves"], 2);
  EXPECT_EQ(j["idle_slots"], 131);
  EXPECT_DOUBLE_EQ(j["utilisation"].get<double>(), 133.0 / 264);
}

TEST(Cli, CollectiveAllReduceIsTheReferencesWithoutLatency) {
  const json j =
      ridge_json("collective allreduce --bytes 14G --gpus-per-node 8 --nodes 2 --bandwidth-only");
  EXPECT_EQ(j["algorithm"], "hierarchical");
  ASSERT_EQ(j["legs"].size(), 3u);
  EXPECT_DOUBLE_EQ(j["legs"][0]["bytes_per_gpu"].get<double>(), 12.25e9);
  EXPECT_DOUBLE_EQ(j["legs"][1]["bytes_per_gpu"].get<double>(), 1.75e9);
  EXPECT_NEAR(j["time_s"].get<double>(), 24.5e9 / 900e9 + 1.75e9 / 50e9, 1e-12);  // 62.2 ms
  EXPECT_EQ(j["bound_link"], "InfiniBand NDR 400 Gb/s");
  // With the catalog's latencies (NVLink 2 us, InfiniBand 5 us): 14 + 10 + 14 us more.
  const json with_latency =
      ridge_json("collective allreduce --bytes 14G --gpus-per-node 8 --nodes 2");
  EXPECT_NEAR(with_latency["time_s"].get<double>() - j["time_s"].get<double>(), 38e-6, 1e-12);
  EXPECT_NEAR(with_latency["busbw_bytes_per_s"].get<double>(),
              14e9 / with_latency["time_s"].get<double>() * 2 * 15 / 16, 1e-3);
}

TEST(Cli, CollectiveSweepChoosesTheAlgorithmBySize) {
  const json j = ridge_json("collective allreduce --sweep-bytes 1KiB..1GiB --nodes 1");
  ASSERT_EQ(j["sweep"].size(), 21u);
  EXPECT_EQ(j["sweep"][0]["algorithm"], "tree");
  EXPECT_EQ(j["sweep"][20]["algorithm"], "ring");
  EXPECT_EQ(j["sweep"][20]["bytes"], 1073741824.0);
  const std::string chart = ::testing::TempDir() + "ridge-sweep.svg";
  ASSERT_EQ(
      ridge("collective allreduce --sweep-bytes 1KiB..1GiB --nodes 2 --chart " + chart).exit_code,
      0);
  const std::string svg = read_file(chart);
  EXPECT_TRUE(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
  EXPECT_NE(svg.find(">hierarchical<"), std::string::npos);
  for (const char* op : {"allgather", "reducescatter", "alltoall", "broadcast"}) {
    EXPECT_EQ(ridge(std::string("collective ") + op + " --bytes 1G").exit_code, 0) << op;
  }
}

// On one node the answer gives NCCL's expected time beside the alpha-beta model's, with the
// calibration it rests on (the one `ridge validate` checks against nccl-tests tables); across
// nodes, or for a part no calibration covers, it says why there is none.
TEST(Cli, CollectiveOnOneNodeExpectsNcclsTime) {
  const json one = ridge_json("collective allreduce --bytes 4096 --gpus-per-node 8");
  EXPECT_EQ(one["schema"], "ridge.collective/3");
  ASSERT_TRUE(one["expected_time_s"].is_number());
  // Launched on its own as nccl-tests launches it: the kernel's floor, Hopper's fitted latencies
  // of a call and 14 steps (about 16 us), and 7 KB sent at LL's rate (tens of nanoseconds).
  const json& c = one["calibration"];
  const double fixed = c["kernel_floor_s"].get<double>() + c["latency_s"].get<double>() +
                       14 * c["step_latency_s"].get<double>();
  EXPECT_GT(one["expected_time_s"].get<double>(), fixed);
  EXPECT_LT(one["expected_time_s"].get<double>(), fixed + 0.1e-6);
  EXPECT_NE(one["expected_detail"].get<std::string>().find("LL protocol"), std::string::npos);
  EXPECT_EQ(one["calibration"]["id"], "hopper");
  EXPECT_EQ(one["calibration"]["latency_s_provenance"], "fitted");
  EXPECT_EQ(one["calibration"]["step_latency_s_provenance"], "fitted");
  const json two = ridge_json("collective allreduce --bytes 4096 --gpus-per-node 8 --nodes 2");
  EXPECT_TRUE(two["expected_time_s"].is_null());
  EXPECT_FALSE(two.contains("calibration"));
  EXPECT_NE(ridge("collective allreduce --bytes 4096 --nodes 2").out.find("none across nodes"),
            std::string::npos);
  EXPECT_TRUE(
      ridge_json("collective allreduce --bytes 1M --device mi355x")["expected_time_s"].is_null());
  // RCCL on an MI300X: NCCL's ring over xGMI at the rate RCCL's maintainers give a link.
  const json rccl = ridge_json("collective allreduce --bytes 1M --device mi300x");
  EXPECT_TRUE(rccl["expected_time_s"].is_number());
  EXPECT_EQ(rccl["calibration"]["id"], "cdna3");
  EXPECT_EQ(rccl["expected_detail"].get<std::string>().rfind("RCCL ring", 0), 0u);
  // By size: never faster for more bytes, and every row priced.
  const json sweep = ridge_json("collective allgather --sweep-bytes 1K..1G --device b200");
  EXPECT_EQ(sweep["schema"], "ridge.collective-sweep/2");
  EXPECT_EQ(sweep["calibration"]["id"], "blackwell");
  double last = 0;
  for (const json& row : sweep["sweep"]) {
    ASSERT_TRUE(row["expected_time_s"].is_number());
    EXPECT_GE(row["expected_time_s"].get<double>(), last);
    last = row["expected_time_s"].get<double>();
  }
}

TEST(Cli, DeviceFileAddsAUserDevice) {
  const std::string file = "--device-file " + data_path("cli/data/custom.toml");
  const json j = ridge_json("op gemm --m 1024 --n 1024 --k 1024 " + file);
  EXPECT_EQ(j["device"], "lab-gpu");
  EXPECT_DOUBLE_EQ(j["ridge"].get<double>(), 100.0);
  EXPECT_EQ(ridge_json("devices " + file)["devices"].size(),
            ridge_json("devices")["devices"].size() + 1);
  const json shown = ridge_json("device show lab-gpu " + file);
  EXPECT_EQ(shown["figures"][0]["provenance"], "measured");
  EXPECT_EQ(ridge("tour " + file).exit_code, 0);
}

TEST(Cli, ModelJsonHasTheDocumentedKeys) {
  const json j =
      ridge_json("model --model llama-2-7b --device a100-sxm-80gb --prompt 512 --gen 32");
  EXPECT_EQ(j["schema"], "ridge.model/1");
  for (const char* key :
       {"weights_bytes", "kv_cache_bytes", "max_batch", "crossover_batch", "fits"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_GT(j["prefill"]["time_s"].get<double>(), 0.02);
  EXPECT_LT(j["prefill"]["time_s"].get<double>(), 0.025);
  EXPECT_GT(j["decode"]["time_per_token_s"].get<double>(), 0.0065);
  EXPECT_LT(j["decode"]["time_per_token_s"].get<double>(), 0.0068);
  EXPECT_NEAR(j["decode"]["tokens_per_s"].get<double>(),
              1 / j["decode"]["time_per_token_s"].get<double>(), 1e-6);
  EXPECT_TRUE(j["crossover_batch"].is_null());  // full multi-head attention: never compute-bound
  ASSERT_GT(j["decode"]["ops"].size(), 10u);
  double total = 0;
  for (const json& op : j["decode"]["ops"]) total += op["time_s"].get<double>();
  EXPECT_NEAR(total, j["decode"]["time_per_token_s"].get<double>(), 1e-12);
}

TEST(Cli, ModelPrecisionFlags) {
  const json fp16 = ridge_json("model --model llama-3.1-8b");
  const json w4 = ridge_json("model --model llama-3.1-8b --wbits 4");
  const json fp8 = ridge_json("model --model llama-3.1-8b --dtype fp8");
  EXPECT_NEAR(w4["weights_bytes"].get<double>() / fp16["weights_bytes"].get<double>(), 0.25, 1e-12);
  EXPECT_EQ(w4["precision"], "fp16");  // weight-only quantisation computes in fp16
  EXPECT_EQ(fp8["precision"], "fp8");
  EXPECT_LT(fp8["decode"]["time_per_token_s"].get<double>(),
            fp16["decode"]["time_per_token_s"].get<double>());
  const json kv8 = ridge_json("model --model llama-3.1-8b --kvbits 8");
  EXPECT_NEAR(kv8["kv_cache_bytes"].get<double>() / fp16["kv_cache_bytes"].get<double>(), 0.5,
              1e-12);
}

// DeepSeek-V3 decode on 8 H200 with --ep 8: the all-to-alls stand beside the expert GEMMs, and
// each is what `ridge collective alltoall` gives for the same bytes.
TEST(Cli, ExpertParallelAllToAllIsTheCollectiveCommand) {
  const json j = ridge_json("model --model deepseek-v3 --device h200-sxm --ep 8 --batch 64");
  bool experts = false;
  for (const json& op : j["decode"]["ops"]) experts = experts || op["name"] == "expert_gate_proj";
  EXPECT_TRUE(experts);
  ASSERT_EQ(j["decode"]["collectives"].size(), 2u);
  for (const json& c : j["decode"]["collectives"]) {
    EXPECT_EQ(c["op"], "alltoall");
    const std::string command = "collective alltoall --device h200-sxm --gpus-per-node 8 --bytes " +
                                std::to_string(std::llround(c["bytes"].get<double>())) +
                                " --bandwidth-only";
    EXPECT_DOUBLE_EQ(c["time_s"].get<double>(), ridge_json(command)["time_s"].get<double>());
    EXPECT_EQ(c["command"].get<std::string>(), "ridge " + command);
  }
}

// The config's quantization_config sets the weights; --quant overrides it.
TEST(Cli, ModelQuantisationFormats) {
  const json v3 = ridge_json("model --model deepseek-v3 --device h200-sxm --tp 8");
  EXPECT_NE(v3["weight_format"].get<std::string>().find("fp8-block"), std::string::npos);
  const json bf16 = ridge_json("model --model deepseek-v3 --device h200-sxm --tp 8 --quant bf16");
  EXPECT_GT(bf16["weights_bytes"].get<double>(), 1.9 * v3["weights_bytes"].get<double>());
  const json awq = ridge_json("model --model llama-3.1-8b --device h100-sxm --quant int4-g128");
  const json fp16 = ridge_json("model --model llama-3.1-8b --device h100-sxm");
  // 4 + 20/128 bits for the decoder's projections; the embedding and head stay 16-bit.
  EXPECT_LT(awq["weights_bytes"].get<double>(), 0.45 * fp16["weights_bytes"].get<double>());
  EXPECT_GT(awq["weights_bytes"].get<double>(), 0.25 * fp16["weights_bytes"].get<double>());
  const json kv = ridge_json("model --model llama-3.1-8b --device h100-sxm --kv-quant fp8");
  EXPECT_NEAR(kv["kv_cache_bytes"].get<double>() / fp16["kv_cache_bytes"].get<double>(), 0.5,
              1e-12);
}

TEST(Cli, ModelsListsFamilyAndActiveParameters) {
  const json j = ridge_json("models");
  bool found = false;
  for (const json& m : j["models"]) {
    if (m["name"] != "qwen3-30b-a3b") continue;
    found = true;
    EXPECT_EQ(m["family"], "qwen3_moe");
    EXPECT_NEAR(m["active_parameters"].get<double>(), 3.35e9, 0.01e9);
  }
  EXPECT_TRUE(found);
}

// ridge profile's chart: each kernel a point at its DRAM, L2 and L1 intensity, and only the
// chart file written beside the answer.
TEST(Cli, ProfileChartDrawsEachKernel) {
  const std::string dir = ::testing::TempDir() + "profile-chart";
  std::filesystem::create_directories(dir);
  const auto r =
      ridge("profile " + data_path("data/profiles/learningnote4dev__ncu_sgemm_cc80.csv") +
            " --device a100-sxm-40gb --chart " + dir + "/p.svg --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string svg = read_file(dir + "/p.svg");
  EXPECT_NE(svg.find("gemm_v1&lt;float&gt; (L2)"), std::string::npos);
  EXPECT_NE(svg.find("randomInit&lt;float&gt; (L1)"), std::string::npos);
  EXPECT_EQ(json::parse(r.out)["schema"], "ridge.profile/1");
}

TEST(Cli, ModelSweepHasOneRowPerValue) {
  const json j = ridge_json("model --model llama-2-7b --sweep batch=1,8,64,256");
  EXPECT_EQ(j["schema"], "ridge.model_sweep/1");
  ASSERT_EQ(j["sweep"].size(), 4u);
  EXPECT_EQ(j["sweep"][3]["batch"], 256);
  EXPECT_GT(j["sweep"][3]["tokens_per_s"].get<double>(),
            j["sweep"][0]["tokens_per_s"].get<double>());
}

TEST(Cli, ModelSweepHasABoundedLength) {
  std::string values = "1";
  for (int i = 0; i < 1000; ++i) values += ",2";
  const auto r = ridge("model --model llama-2-7b --sweep batch=" + values);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "ridge: error: --sweep: more than 1000 values\n");
  EXPECT_EQ(r.out, "");
}

TEST(Cli, ModelReadsAConfigFile) {
  const json j = ridge_json("model --model " + data_path("cli/data/my-llama/config.json"));
  EXPECT_EQ(j["model"], "my-llama");
  EXPECT_EQ(j["weights_bytes"], ridge_json("model --model llama-2-7b")["weights_bytes"]);
}

// On a measured device, a shape outside its GEMM sweep is the model alone, and says so.
TEST(Cli, AShapeOutsideTheMeasuredSweepIsAWarning) {
  const std::string device =
      " --dtype bf16 --device-file " + data_path("../docs/measurements/h200-2026-11-30/h200.json");
  const Result inside = ridge("op gemm --m 64 --n 16384 --k 16384" + device);
  const Result outside = ridge("op gemm --m 4096 --n 16384 --k 16384" + device);
  ASSERT_EQ(inside.exit_code, 0) << inside.err;
  ASSERT_EQ(outside.exit_code, 0) << outside.err;
  EXPECT_EQ(inside.out.find("outside the device's measured GEMM sweep"), std::string::npos);
  EXPECT_NE(outside.out.find("warning: this shape lies outside the device's measured GEMM"),
            std::string::npos)
      << outside.out;
  EXPECT_EQ(
      ridge_json("op gemm --m 4096 --n 16384 --k 16384" + device)["calibration"]["extrapolated"],
      true);
}

// The H200 that `scripts/gpu-check.sh` measured (docs/measurements/h200-2026-11-30): a real GPU
// measurement is a device, beside its spec, and decode on it is bound by the bandwidth measured.
TEST(Cli, AMeasuredGpuStandsBesideItsSpec) {
  const std::string file = data_path("../docs/measurements/h200-2026-11-30/h200.json");
  const json compare =
      ridge_json("compare --dtype bf16 --devices h200-sxm,h200 --device-file " + file);
  ASSERT_EQ(compare["devices"].size(), 2u);
  EXPECT_EQ(compare["devices"][1]["id"], "h200");
  EXPECT_LT(compare["peak_growth"].get<double>(), 1);  // nobody reaches the datasheet
  EXPECT_GT(compare["bandwidth_growth"].get<double>(), 0.9);
  const json gemv = ridge_json("op gemv --m 16384 --n 16384 --dtype bf16 --device h200 " +
                               std::string("--device-file ") + file);
  EXPECT_EQ(gemv["bound"], "memory");
  EXPECT_EQ(gemv["bandwidth_provenance"], "measured");
  const json file_json = json::parse(read_file(file));
  double best_read = 0;
  for (const json& b : file_json["bandwidth"]) {
    if (b["level"] == "HBM") best_read = std::max(best_read, b["bytes_per_s"].get<double>());
  }
  EXPECT_EQ(gemv["bandwidth"].get<double>(), best_read);
  const Result text = ridge("measure --help");
  EXPECT_NE(text.out.find("--backend"), std::string::npos);
}

TEST(Cli, ChartPrintsSvgAndTheTourWritesItsCharts) {
  const Result chart =
      ridge("chart --devices a100-sxm-80gb,h100-sxm --op \"gemm m=8192 n=8192 k=8192\"");
  ASSERT_EQ(chart.exit_code, 0) << chart.err;
  EXPECT_TRUE(chart.out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_NE(chart.out.find("gemm 8192x8192x8192"), std::string::npos);
  EXPECT_NE(chart.out.find("a100-sxm-80gb"), std::string::npos);
  const std::string dir = ::testing::TempDir() + "ridge-tour-charts";
  const Result tour = ridge("tour --device h200-sxm --charts " + dir);
  ASSERT_EQ(tour.exit_code, 0) << tour.err;
  EXPECT_NE(tour.out.find("The roofline"), std::string::npos);  // the tour itself, as usual
  for (const char* file : {"/roofline.svg", "/generations.svg"}) {
    const std::string svg = read_file(dir + file);
    EXPECT_TRUE(svg.starts_with("<svg")) << file;
    EXPECT_TRUE(svg.ends_with("</svg>\n")) << file;
  }
  EXPECT_NE(read_file(dir + "/roofline.svg").find("decode 7B"), std::string::npos);
}

TEST(Cli, EveryCommandHasAnHtmlForm) {
  const Result r = ridge("compare --format html");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("<!DOCTYPE html>"));
  EXPECT_NE(r.out.find("<td class=\"number\">"), std::string::npos);
  EXPECT_EQ(r.out.find("<script"), std::string::npos);  // nothing to run, nothing fetched
  EXPECT_EQ(r.out.find("http://"), std::string::npos);
}

TEST(Cli, HelpAndVersionSucceed) {
  EXPECT_EQ(ridge("--help").exit_code, 0);
  EXPECT_EQ(ridge("op gemm --help").exit_code, 0);
  const std::string version = ridge("--version").out;
  EXPECT_TRUE(version.starts_with("ridge 0.1.0\nbackends: cpu")) << version;
}

TEST(Cli, DoctorLoadsEveryBuiltBackend) {
  const json j = ridge_json("doctor");
  ASSERT_EQ(j["backends"].size(), 3u);
  for (const json& b : j["backends"]) {
    if (b["built"] == true) {
      EXPECT_EQ(b["loads"], true) << b.dump();
    }
  }
  EXPECT_EQ(j["backends"][0]["name"], "cpu");
  EXPECT_EQ(j["backends"][0]["built"], true);
}

// RIDGE_BACKEND_DIR, for this test's process and the ridge it starts.
class BackendDir {
 public:
  explicit BackendDir(const std::string& dir) { setenv("RIDGE_BACKEND_DIR", dir.c_str(), 1); }
  ~BackendDir() { unsetenv("RIDGE_BACKEND_DIR"); }
};

TEST(Cli, AMissingOrBrokenBackendIsOneLineAndExitTwo) {
  const std::string dir = ::testing::TempDir() + "/ridge-no-backends";
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir + "/libridge-cpu.so");
  const BackendDir only(dir);
  Result r = ridge("measure --quick");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("the cpu backend's plugin libridge-cpu.so is not installed"),
            std::string::npos)
      << r.err;
  write_file(dir + "/libridge-cpu.so", "not a shared library");
  r = ridge("op add --n 8 --device host");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("libridge-cpu.so does not load"), std::string::npos) << r.err;
  EXPECT_EQ(ridge("op add --n 8").exit_code, 0);  // an analytical command needs none
  EXPECT_EQ(ridge("doctor").exit_code, 1);
}

}  // namespace
}  // namespace ridge::test
