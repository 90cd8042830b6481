// Fuzz target: the command line. Each line of the input is one argument; the arguments go
// through the same CLI11 app as the binary's, and a command that parses is run and rendered,
// except those that measure this machine or read files named by the input (they are slow, or
// depend on the filesystem, not on the arguments), and `model --per-step`: its million decode
// steps take 3 s in a release build but a minute under the sanitizers, past libFuzzer's limit
// per input (model_test covers it).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "command_line.h"
#include "ridge/error.h"
#include "ridge/render.h"

namespace {

constexpr std::size_t kMaxArguments = 24;

std::vector<std::string> arguments_of(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"ridge"};
  std::string current;
  for (std::size_t i = 0; i < size && args.size() <= kMaxArguments; ++i) {
    if (data[i] == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  if (!current.empty()) args.push_back(current);
  return args;
}

bool out_of_scope(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a.find('/') != std::string::npos || a.find("host") != std::string::npos ||
        a.find("file") != std::string::npos || a.find(".json") != std::string::npos ||
        a.find("--out") != std::string::npos || a.find("--charts") != std::string::npos ||
        a.find("--measurement") != std::string::npos || a.find("--cluster") != std::string::npos ||
        a.find("per-step") != std::string::npos) {
      return true;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args = arguments_of(data, size);
  if (out_of_scope(args)) return 0;
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  ridge::cli::CommandLine command_line;
  try {
    command_line.app().parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError&) {
    return 0;  // includes --help and --version, which CLI11 reports as "success"
  }
  // doctor loads the backend plugins (OpenBLAS starts its threads): not the parser's business.
  if (command_line.chose("measure") || command_line.chose("collectives") ||
      command_line.chose("lab") || command_line.chose("report") || command_line.chose("doctor")) {
    return 0;
  }
  try {
    const ridge::cli::Session session(command_line.options());
    const ridge::report::Document document = command_line.chosen_action()(session);
    (void)ridge::report::render(document,
                                ridge::report::parse_format(command_line.options().format));
  } catch (const ridge::InputError&) {
  }
  return 0;
}
