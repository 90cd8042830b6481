// The bad-input catalogue (catalogue.toml), one test per case: ridge must answer each with exit
// code 2, one line on stderr naming what is wrong, nothing on stdout, and no file created or
// changed.
#include <gtest/gtest.h>
#include <toml++/toml.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cli/run.h"

namespace ridge::test {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string name, args, mentions, out, setup;
};

// How gtest shows a case in test lists and failures.
void PrintTo(const Case& c, std::ostream* os) { *os << '"' << c.name << '"'; }

std::vector<Case> load_catalogue() {
  const toml::table root = toml::parse_file(RIDGE_BAD_INPUT_DIR "/catalogue.toml");
  std::vector<Case> cases;
  for (const toml::node& node : *root["case"].as_array()) {
    const toml::table& t = *node.as_table();
    cases.push_back({t["name"].value_or(std::string()), t["args"].value_or(std::string()),
                     t["mentions"].value_or(std::string()), t["out"].value_or(std::string()),
                     t["setup"].value_or(std::string())});
  }
  return cases;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// Every file under `dir` with its content: what a run must leave as it found it.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    files[entry.path().string()] = entry.is_regular_file() ? read_file(entry.path()) : "<dir>";
  }
  return files;
}

class Catalogue : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ridge-bad-input-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir_ / "unreadable.toml", fs::perms::owner_all, ignored);
    fs::remove_all(dir_, ignored);
  }
  fs::path dir_;
};

TEST_P(Catalogue, IsOneLineAndExitTwoAndTouchesNoFile) {
  const Case& c = GetParam();
  if (c.setup == "unreadable") {
    if (::geteuid() == 0) GTEST_SKIP() << "root reads any file";
    fs::copy_file(RIDGE_TEST_DATA "/cli/data/custom.toml", dir_ / "unreadable.toml");
    fs::permissions(dir_ / "unreadable.toml", fs::perms::none);
  }
  const fs::path out = dir_ / "out.json";
  if (c.out == "kept") write_file(out.string(), "previous content\n");
  const auto before = snapshot(dir_);

  std::string args = replace_all(c.args, "{tests}", RIDGE_TEST_DATA);
  args = replace_all(args, "{files}", RIDGE_BAD_INPUT_DIR "/files");
  args = replace_all(args, "{out}", out.string());
  args = replace_all(args, "{tmp}", dir_.string());
  const Result r = ridge(args, dir_.string());

  EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
  EXPECT_EQ(r.out, "") << args;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
  EXPECT_TRUE(r.err.starts_with("ridge: error: ")) << r.err;
  EXPECT_NE(r.err.find(c.mentions), std::string::npos)
      << args << "\n  said: " << r.err << "  must mention: " << c.mentions;
  EXPECT_EQ(snapshot(dir_), before) << "the run created or changed a file";
}

std::string test_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name;
  for (const char ch : info.param.name)
    name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(BadInput, Catalogue, ::testing::ValuesIn(load_catalogue()), test_name);

TEST(BadInputCatalogue, HasAtLeastFortyCasesWithUniqueNames) {
  const std::vector<Case> cases = load_catalogue();
  EXPECT_GE(cases.size(), 40u);
  std::vector<std::string> names;
  for (const Case& c : cases) {
    EXPECT_FALSE(c.args.empty() || c.mentions.empty()) << c.name;
    names.push_back(c.name);
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
}

}  // namespace
}  // namespace ridge::test
