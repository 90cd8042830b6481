// `ridge measure collectives` under mpirun, on this machine's loopback: 2 and 4 ranks (more ranks
// than cores is fine with --oversubscribe). Checked for completeness and sanity, never speed.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/run.h"

namespace ridge::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// mpirun runs the ridge binary; run.h's helper runs whatever follows the binary's path, so the
// command goes through /bin/sh here instead.
Result mpirun(int ranks, const std::string& arguments) {
  const fs::path dir = fs::temp_directory_path() / ("ridge-mpi-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string out = (dir / "out").string(), err = (dir / "err").string();
  const std::string command = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " +
                              std::string(RIDGE_MPIEXEC) + " --oversubscribe -np " +
                              std::to_string(ranks) + " " + RIDGE_BINARY + " " + arguments + " >" +
                              out + " 2>" + err + " </dev/null";
  const int status = std::system(command.c_str());
  Result r{WIFEXITED(status) ? WEXITSTATUS(status) : 128, read_file(out), read_file(err)};
  fs::remove_all(dir);
  return r;
}

void expect_complete(int ranks) {
  const Result r = mpirun(ranks, "measure collectives --max-bytes 256KiB --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);  // one document: only rank 0 prints
  EXPECT_EQ(j["schema"], "ridge.collective-measurement/1");
  EXPECT_EQ(j["ranks"], ranks);
  std::set<std::string> ops;
  for (const json& p : j["points"]) {
    ops.insert(p["op"].get<std::string>());
    EXPECT_TRUE(p["validated"].get<bool>()) << p;
    EXPECT_GT(p["time_s"].get<double>(), 0) << p;
    EXPECT_GE(p["time_s"].get<double>(), p["fastest_rank_s"].get<double>()) << p;
    EXPECT_GT(p["busbw_bytes_per_s"].get<double>(), 0) << p;
    EXPECT_GT(p["predicted_busbw_bytes_per_s"].get<double>(), 0) << p;
    EXPECT_EQ(std::fmod(p["bytes"].get<double>(), 4.0 * ranks), 0) << p;
  }
  EXPECT_EQ(ops, (std::set<std::string>{"allreduce", "allgather", "reducescatter", "alltoall",
                                        "broadcast"}));
  EXPECT_EQ(j["points"].size(), 5u * 9);  // 1 KiB to 256 KiB, doubling
  EXPECT_GT(j["fitted_link"]["bandwidth_bytes_per_s"].get<double>(), 0);
  EXPECT_GT(j["fitted_link"]["latency_s"].get<double>(), 0);
}

TEST(MeasureCollectives, TwoRanksMeasureEveryOperation) { expect_complete(2); }

TEST(MeasureCollectives, FourRanksMeasureEveryOperation) { expect_complete(4); }

TEST(MeasureCollectives, RankZeroAloneWritesTheFile) {
  const fs::path out =
      fs::temp_directory_path() / ("ridge-mpi-" + std::to_string(::getpid()) + ".json");
  const Result r = mpirun(2, "measure collectives --max-bytes 4KiB --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(read_file(out.string()))["ranks"], 2);
  EXPECT_NE(r.out.find("Collectives over MPI: 2 ranks"), std::string::npos);
  EXPECT_EQ(r.out.find("Collectives over MPI", 1), std::string::npos) << "printed twice";
  fs::remove(out);
}

// ERT's way: every rank measures the host at once, rank 0 prints the sum.
TEST(MeasureHost, RanksMeasureAtOnceAndRankZeroAggregates) {
  const Result r = mpirun(2, "measure --quick --max-working-set 4M --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);  // one document
  EXPECT_EQ(j["host"].get<std::string>().substr(0, 11), "2 ranks on ");
  EXPECT_GE(j["threads"].get<int>(), 2);
  EXPECT_GT(j["peak_flops"]["fp64"].get<double>(), 0);
  EXPECT_FALSE(j["bandwidth"].empty());
}

}  // namespace
}  // namespace ridge::test
