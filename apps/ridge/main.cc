// ridge: the command line. It parses arguments, asks the library for a document and renders it
// in the chosen format. Bad input ends as one line on stderr and exit code 2.
#include <cstdio>
#include <iostream>

#include "command_line.h"
#include "ridge/error.h"
#include "ridge/output_file.h"
#include "ridge/render.h"

namespace {

int fail(const std::string& message, int code) {
  std::cerr << "ridge: error: " << message << '\n';
  return code;
}

// Runs the chosen command and prints its whole output at once, so an error never leaves
// partial output behind.
int run(int argc, char** argv) {
  ridge::cli::CommandLine command_line;
  try {
    command_line.app().parse(argc, argv);
  } catch (const CLI::Success& e) {
    return command_line.app().exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what(), 2);
  }
  ridge::remove_partial_output_on_interrupt();
  const ridge::cli::Session session(command_line.options());
  const ridge::report::Document document = command_line.chosen_action()(session);
  if (document.silent) return 0;
  const std::string output =
      ridge::report::render(document, ridge::report::parse_format(command_line.options().format));
  std::fwrite(output.data(), 1, output.size(), stdout);
  if (std::fflush(stdout) != 0) return fail("cannot write the output", 2);
  return document.check_failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const ridge::InputError& e) {
    return fail(e.what(), 2);
  } catch (const std::exception& e) {
    return fail(std::string("internal error: ") + e.what(), 3);
  }
}
