#pragma once
// Runs the ridge binary as a user would and captures what it printed.

#include <string>

namespace ridge::test {

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// `arguments` is appended to the binary's path and run by /bin/sh, in `working_directory` when
// one is given.
Result ridge(const std::string& arguments, const std::string& working_directory = "");

// A file from tests/ (e.g. "cli/data/custom.toml").
std::string data_path(const std::string& relative);

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& content);

}  // namespace ridge::test
