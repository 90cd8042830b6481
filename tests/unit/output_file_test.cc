// Durability of what ridge writes: a process killed in the middle of writing leaves the old file
// intact and nothing else behind.
#include "ridge/output_file.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "ridge/error.h"

namespace ridge {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::size_t files_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++n;
  return n;
}

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ridge-output-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    target_ = dir_ / "result.json";
    std::ofstream(target_) << "previous content\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_, target_;
};

TEST_F(OutputFileTest, CommitReplacesTheFileWhole) {
  OutputFile out(target_.string());
  out.commit("new content\n");
  EXPECT_EQ(contents(target_), "new content\n");
  EXPECT_EQ(files_in(dir_), 1u);
  const auto perms = fs::status(target_).permissions();
  EXPECT_NE(perms & fs::perms::owner_read, fs::perms::none);
  EXPECT_NE(perms & fs::perms::others_read, fs::perms::none) << "written like any file, umask 022";
}

TEST_F(OutputFileTest, ADirectoryOrAMissingDirectoryIsBadInput) {
  EXPECT_THROW(OutputFile(dir_.string()), InputError);
  EXPECT_THROW(OutputFile((dir_ / "no" / "such.json").string()), InputError);
  EXPECT_EQ(files_in(dir_), 1u);
}

// A child writes 512 MiB over the target and is killed with SIGKILL, which no handler sees,
// while the write is under way: the target keeps its old content, and no temporary file is left.
TEST_F(OutputFileTest, SigkillMidWriteLeavesTheOldFileAndNothingElse) {
  const std::string big(std::size_t{512} << 20, 'x');
  int killed_mid_write = 0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      OutputFile out(target_.string());
      out.commit(big);
      _exit(0);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20 + 30 * attempt));
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    const std::string now = contents(target_);
    // Either the old file, or (had the child been quicker than the kill) the whole new one.
    EXPECT_TRUE(now == "previous content\n" || now.size() == big.size());
    EXPECT_EQ(files_in(dir_), 1u) << "a temporary file was left behind";
    if (WIFSIGNALED(status) && now == "previous content\n") ++killed_mid_write;
    std::ofstream(target_) << "previous content\n";
  }
  EXPECT_GT(killed_mid_write, 0) << "no kill landed before the write finished";
}

}  // namespace
}  // namespace ridge
