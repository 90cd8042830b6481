#include "command_line.h"

namespace ridge::cli {

CommandLine::CommandLine()
    : app_("ridge: where an operation sits on the roofline, and why", "ridge") {
  app_.set_version_flag("--version", [] { return version_text(); });
  app_.fallthrough();
  app_.require_subcommand(0, 1);
  app_.add_option("--format", options_.format, "Output: text, json, csv or html")
      ->check(CLI::IsMember({"text", "json", "csv", "html"}))
      ->capture_default_str();
  app_.add_option("--device-file", options_.device_files,
                  "A device TOML file to add to the catalog");
  app_.add_option("--calibration", options_.calibration_files,
                  "A calibration profile (TOML, as data/calibration/) for the devices it lists");
  add_tour(app_, commands_, default_action_);
  add_op(app_, commands_);
  add_devices(app_, commands_);
  add_compare(app_, commands_);
  add_occupancy(app_, commands_);
  add_collective(app_, commands_);
  add_parallel(app_, commands_);
  add_chart(app_, commands_);
  add_model(app_, commands_);
  add_measure(app_, commands_);
  add_lab(app_, commands_);
  add_validate(app_, commands_);
  add_doctor(app_, commands_);
}

// The last parsed command in registration order: a subcommand of a command (`measure
// collectives`) is registered after it.
const Command* CommandLine::chosen() const {
  const Command* chosen = nullptr;
  for (const Command& command : commands_) {
    if (command.app->parsed()) chosen = &command;
  }
  return chosen;
}

const Action& CommandLine::chosen_action() const {
  const Command* command = chosen();
  return command ? command->action : default_action_;
}

bool CommandLine::chose(const std::string& name) const {
  const Command* command = chosen();
  return command && command->app->get_name() == name;
}

}  // namespace ridge::cli
