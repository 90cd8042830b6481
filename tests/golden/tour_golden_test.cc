// Golden test: every figure the reference walk-through prints (shared/reference/
// gpu_from_scratch.output.txt) appears, with the same value, in the same section of `ridge tour`.
//
// The figures are extracted from the reference into golden/gpu_from_scratch.figures (only the
// numbers, one section per line), so the test runs from a clone without shared/. When the
// reference is present the test also checks that the extracted file is still in sync with it;
// RIDGE_REGENERATE_GOLDEN=1 rewrites the file from the reference.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cli/run.h"

namespace ridge::test {
namespace {

using Figures = std::vector<std::vector<std::string>>;  // per section, in order of appearance

bool is_rule(const std::string& line) {
  return line.size() >= 20 && line.find_first_not_of('=') == std::string::npos;
}

// The numbers of a text: digit runs with an optional decimal part, not glued to a word on the
// left ("H100", "x4096" and "V3" are names, not figures).
std::vector<std::string> numbers(const std::string& text) {
  std::vector<std::string> found;
  for (std::size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    const bool glued = i > 0 && (std::isalnum(static_cast<unsigned char>(text[i - 1])) ||
                                 text[i - 1] == '.' || text[i - 1] == '_');
    std::size_t end = i;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end + 1 < text.size() && text[end] == '.' &&
        std::isdigit(static_cast<unsigned char>(text[end + 1]))) {
      ++end;
      while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    }
    if (!glued) found.push_back(text.substr(i, end - i));
    i = end;
  }
  return found;
}

// Sections start at a title framed by two rules of '='; text before the first is ignored.
Figures figures_by_section(const std::string& text) {
  std::istringstream lines(text);
  std::vector<std::string> all;
  for (std::string line; std::getline(lines, line);) all.push_back(line);
  Figures sections;
  for (std::size_t i = 0; i + 2 < all.size(); ++i) {
    if (is_rule(all[i]) && is_rule(all[i + 2])) {
      sections.emplace_back();
      i += 2;
      continue;
    }
    if (sections.empty()) continue;
    for (std::string& n : numbers(all[i])) sections.back().push_back(std::move(n));
  }
  return sections;
}

std::string golden_path() { return data_path("golden/gpu_from_scratch.figures"); }

std::string serialise(const Figures& figures) {
  std::string out;
  for (std::size_t s = 0; s < figures.size(); ++s) {
    out += "section " + std::to_string(s + 1) + ":";
    for (const std::string& n : figures[s]) out += " " + n;
    out += "\n";
  }
  return out;
}

Figures parse(const std::string& text) {
  Figures figures;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line.substr(line.find(':') + 1));
    figures.emplace_back();
    for (std::string n; words >> n;) figures.back().push_back(n);
  }
  return figures;
}

TEST(TourGolden, ExtractedFiguresMatchTheReference) {
  const std::string reference = RIDGE_REFERENCE_OUTPUT;
  if (!std::filesystem::exists(reference))
    GTEST_SKIP() << "reference not beside the checkout: " << reference;
  const std::string extracted = serialise(figures_by_section(read_file(reference)));
  if (std::getenv("RIDGE_REGENERATE_GOLDEN") != nullptr) {
    std::ofstream(golden_path()) << extracted;
  }
  EXPECT_EQ(read_file(golden_path()), extracted) << "run with RIDGE_REGENERATE_GOLDEN=1 to refresh";
}

TEST(TourGolden, EveryReferenceFigureAppearsInTheSameSection) {
  const Figures expected = parse(read_file(golden_path()));
  ASSERT_EQ(expected.size(), 9u);
  const Result tour = ridge("tour");
  ASSERT_EQ(tour.exit_code, 0) << tour.err;
  const Figures actual = figures_by_section(tour.out);
  ASSERT_EQ(actual.size(), expected.size());
  std::size_t checked = 0;
  for (std::size_t s = 0; s < expected.size(); ++s) {
    const std::multiset<std::string> have(actual[s].begin(), actual[s].end());
    for (const std::string& figure : expected[s]) {
      EXPECT_TRUE(have.contains(figure)) << "section " << s + 1 << " lacks " << figure;
      ++checked;
    }
  }
  EXPECT_GT(checked, 200u);  // 231 figures in the reference
}

TEST(TourGolden, NumbersIgnoreNamesButKeepDecimals) {
  EXPECT_EQ(numbers("H100 at 3.35 TB/s, 4096x4096 (2017) V3 ~100 1."),
            (std::vector<std::string>{"3.35", "4096", "2017", "100", "1"}));
}

}  // namespace
}  // namespace ridge::test
