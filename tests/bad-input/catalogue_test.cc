// The bad-input catalogue (catalogue.toml), one test per case: ridge must answer each with exit
// code 2, one line on stderr naming what is wrong, nothing on stdout, and no file created or
// changed.
#include <gtest/gtest.h>
#include <toml++/toml.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/run.h"

namespace ridge::test {
namespace {

namespace fs = std::filesystem;

// A bad file made at run time from a good one, so that each case shows the one thing wrong with
// it instead of a copy of the whole file: the first `truncate` bytes, or the JSON with values
// set and keys removed (by JSON pointer).
struct Made {
  std::string from, as;
  std::size_t truncate = 0;
  std::vector<std::pair<std::string, nlohmann::json>> set;
  std::vector<std::string> remove;
};

struct Case {
  std::string name, args, mentions, out, setup;
  std::optional<Made> made;
};

// The values a `make` entry may set: whole numbers, floats, strings, booleans, and arrays and
// inline tables of them.
nlohmann::json json_of(const toml::node& node) {
  if (const auto v = node.value_exact<std::int64_t>()) return *v;
  if (const auto v = node.value_exact<double>()) return *v;
  if (const auto v = node.value_exact<std::string>()) return *v;
  if (const auto v = node.value_exact<bool>()) return *v;
  if (const toml::array* a = node.as_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const toml::node& element : *a) out.push_back(json_of(element));
    return out;
  }
  if (const toml::table* t = node.as_table()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : *t) out[std::string(key.str())] = json_of(value);
    return out;
  }
  throw std::invalid_argument("catalogue.toml:" + std::to_string(node.source().begin.line) +
                              ": a `set` value this test cannot make");
}

std::optional<Made> made_of(const toml::node_view<const toml::node>& view) {
  const toml::table* t = view.as_table();
  if (!t) return std::nullopt;
  Made m{(*t)["from"].value_or(std::string()),
         (*t)["as"].value_or(std::string()),
         static_cast<std::size_t>((*t)["truncate"].value_or(std::int64_t{0})),
         {},
         {}};
  if (const toml::table* set = (*t)["set"].as_table()) {
    for (const auto& [pointer, value] : *set)
      m.set.emplace_back(std::string(pointer.str()), json_of(value));
  }
  if (const toml::array* remove = (*t)["remove"].as_array()) {
    for (const toml::node& pointer : *remove) m.remove.push_back(pointer.value_or(std::string()));
  }
  return m;
}

void make_file(const Made& m, const fs::path& dir) {
  std::string text = read_file(std::string(RIDGE_TEST_DATA) + "/" + m.from);
  if (m.truncate > 0) {
    text.resize(m.truncate);
  } else {
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(text);
    for (const auto& [pointer, value] : m.set)
      j[nlohmann::ordered_json::json_pointer(pointer)] = value;
    for (const std::string& pointer : m.remove) {
      const nlohmann::ordered_json::json_pointer p(pointer);
      j[p.parent_pointer()].erase(p.back());
    }
    text = j.dump(1) + '\n';
  }
  write_file((dir / m.as).string(), text);
}

// How gtest shows a case in test lists and failures.
void PrintTo(const Case& c, std::ostream* os) { *os << '"' << c.name << '"'; }

std::vector<Case> load_catalogue() {
  const toml::table root = toml::parse_file(RIDGE_BAD_INPUT_DIR "/catalogue.toml");
  std::vector<Case> cases;
  for (const toml::node& node : *root["case"].as_array()) {
    const toml::table& t = *node.as_table();
    cases.push_back({t["name"].value_or(std::string()), t["args"].value_or(std::string()),
                     t["mentions"].value_or(std::string()), t["out"].value_or(std::string()),
                     t["setup"].value_or(std::string()), made_of(t["make"])});
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
  if (c.made) make_file(*c.made, dir_);
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
