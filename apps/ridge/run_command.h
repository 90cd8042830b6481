#pragma once
// ridge's command line run inside this process: what the binary would print on stdout and
// stderr, and its exit code. The binary's main and the Python module both run commands so.

#include <string>
#include <vector>

namespace ridge::cli {

struct Outcome {
  int exit_code = 0;  // 0 ok, 1 a check the user asked for failed, 2 bad input, 3 internal
  std::string out;
  std::string err;  // one line "ridge: error: ..." on failure
};

// `args` without the program name. With `own_signals`, SIGINT and SIGTERM remove a file being
// written before the process ends (the binary); a host process (Python) keeps its own handlers.
Outcome run_command_line(const std::vector<std::string>& args, bool own_signals);

}  // namespace ridge::cli
