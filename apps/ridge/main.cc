// ridge: the command line. It parses arguments, asks the library for a document and renders it
// in the chosen format. Bad input ends as one line on stderr and exit code 2.
#include <cstdio>
#include <iostream>

#include "common.h"
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
  using namespace ridge::cli;
  CLI::App app{"ridge: where an operation sits on the roofline, and why", "ridge"};
  app.set_version_flag("--version", "ridge 0.1.0");
  app.fallthrough();
  app.require_subcommand(0, 1);
  GlobalOptions options;
  app.add_option("--format", options.format, "Output: text, json or csv")
      ->check(CLI::IsMember({"text", "json", "csv"}))
      ->capture_default_str();
  app.add_option("--device-file", options.device_files, "A device TOML file to add to the catalog");

  std::vector<Command> commands;
  Action default_action;
  add_tour(app, commands, default_action);
  add_op(app, commands);
  add_devices(app, commands);
  add_compare(app, commands);
  add_occupancy(app, commands);
  add_collective(app, commands);
  add_model(app, commands);
  add_measure(app, commands);
  add_lab(app, commands);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what(), 2);
  }

  Action action = default_action;
  for (const Command& command : commands) {
    if (command.app->parsed()) action = command.action;
  }
  ridge::remove_partial_output_on_interrupt();
  const Session session(options);
  const ridge::report::Document document = action(session);
  const std::string output =
      ridge::report::render(document, ridge::report::parse_format(options.format));
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
