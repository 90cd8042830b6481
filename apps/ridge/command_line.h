#pragma once
// The whole command line as one value: the CLI11 app with its global options and every
// subcommand, so that main and the argument fuzzer build exactly the same one.

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "common.h"

namespace ridge::cli {

class CommandLine {
 public:
  // Every command.
  CommandLine();
  // Only the command `args` names, where its first word is one: a process that runs many
  // command lines (the Python module) builds only what each needs. The parse is the same; help
  // and errors without a command see them all.
  explicit CommandLine(const std::vector<std::string>& args);
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  CLI::App& app() { return app_; }
  const GlobalOptions& options() const { return options_; }
  // After a parse: the chosen subcommand's action (the tour when none was named).
  const Action& chosen_action() const;
  // After a parse: whether the chosen subcommand is `name`.
  bool chose(const std::string& name) const;

 private:
  const Command* chosen() const;
  void add_commands(std::string_view only);

  CLI::App app_;
  GlobalOptions options_;
  std::vector<Command> commands_;
  Action default_action_;
};

}  // namespace ridge::cli
