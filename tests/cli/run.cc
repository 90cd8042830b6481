#include "cli/run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ridge::test {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const std::string& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

std::string data_path(const std::string& relative) {
  return std::string(RIDGE_TEST_DATA) + "/" + relative;
}

Result ridge(const std::string& arguments, const std::string& working_directory) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("ridge-cli-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
  std::filesystem::create_directories(dir);
  const std::string out = (dir / "out").string();
  const std::string err = (dir / "err").string();
  const std::string cd = working_directory.empty() ? "" : "cd '" + working_directory + "' && ";
  const std::string command =
      cd + std::string(RIDGE_BINARY) + " " + arguments + " >" + out + " 2>" + err + " </dev/null";
  const int status = std::system(command.c_str());
  Result run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = read_file(out);
  run.err = read_file(err);
  std::filesystem::remove_all(dir);
  return run;
}

}  // namespace ridge::test
