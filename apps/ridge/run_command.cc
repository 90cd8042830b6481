#include "run_command.h"

#include <mutex>
#include <sstream>

#include "command_line.h"
#include "ridge/error.h"
#include "ridge/output_file.h"
#include "ridge/render.h"

namespace ridge::cli {

namespace {

Outcome failed(const std::string& message, int code) {
  return {code, "", "ridge: error: " + message + "\n"};
}

// Parses and runs the chosen command; its whole output is returned at once, so an error never
// leaves partial output behind.
Outcome run(const std::vector<std::string>& args, bool own_signals) {
  CommandLine command_line(args);
  std::vector<const char*> argv{"ridge"};
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  try {
    command_line.app().parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::Success& e) {
    std::ostringstream out, err;
    const int code = command_line.app().exit(e, out, err);
    return {code, out.str(), err.str()};
  } catch (const CLI::ParseError& e) {
    return failed(e.what(), 2);
  }
  if (own_signals) remove_partial_output_on_interrupt();
  const Session session(command_line.options());
  const report::Document document = command_line.chosen_action()(session);
  if (document.silent) return {};
  Outcome outcome;
  outcome.out = report::render(document, report::parse_format(command_line.options().format));
  outcome.exit_code = document.check_failed ? 1 : 0;
  return outcome;
}

}  // namespace

Outcome run_command_line(const std::vector<std::string>& args, bool own_signals) {
  // One command at a time in a process: a session's --calibration profiles are process-wide
  // while it runs, and Python threads may call in together.
  static std::mutex one_at_a_time;
  const std::lock_guard lock(one_at_a_time);
  try {
    return run(args, own_signals);
  } catch (const InputError& e) {
    return failed(e.what(), 2);
  } catch (const std::exception& e) {
    return failed(std::string("internal error: ") + e.what(), 3);
  }
}

}  // namespace ridge::cli
