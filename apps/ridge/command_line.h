#pragma once
// The whole command line as one value: the CLI11 app with its global options and every
// subcommand, so that main and the argument fuzzer build exactly the same one.

#include <CLI/CLI.hpp>
#include <vector>

#include "common.h"

namespace ridge::cli {

class CommandLine {
 public:
  CommandLine();
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

  CLI::App app_;
  GlobalOptions options_;
  std::vector<Command> commands_;
  Action default_action_;
};

}  // namespace ridge::cli
