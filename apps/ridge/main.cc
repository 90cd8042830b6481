// ridge: the command line. It parses arguments, asks the library for a document and renders it
// in the chosen format (run_command.h). Bad input ends as one line on stderr and exit code 2.
#include <cstdio>
#include <iostream>

#include "run_command.h"

int main(int argc, char** argv) {
  const ridge::cli::Outcome outcome =
      ridge::cli::run_command_line(std::vector<std::string>(argv + 1, argv + argc), true);
  std::fwrite(outcome.out.data(), 1, outcome.out.size(), stdout);
  if (std::fflush(stdout) != 0) {
    std::cerr << "ridge: error: cannot write the output\n";
    return 2;
  }
  std::cerr << outcome.err;
  return outcome.exit_code;
}
