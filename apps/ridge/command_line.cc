#include "command_line.h"

#include <algorithm>
#include <array>

namespace ridge::cli {

namespace {

using Adder = void (*)(CLI::App&, std::vector<Command>&);

// Each adder and the commands it registers, in the order help lists them.
struct Registration {
  std::array<std::string_view, 2> names;
  Adder add;
};
constexpr std::array<Registration, 13> kRegistrations = {{
    {{"op", ""}, add_op},
    {{"devices", "device"}, add_devices},
    {{"compare", ""}, add_compare},
    {{"occupancy", ""}, add_occupancy},
    {{"collective", ""}, add_collective},
    {{"parallel", ""}, add_parallel},
    {{"chart", "report"}, add_chart},
    {{"model", "models"}, add_model},
    {{"measure", ""}, add_measure},
    {{"lab", ""}, add_lab},
    {{"validate", ""}, add_validate},
    {{"profile", ""}, add_profile},
    {{"doctor", ""}, add_doctor},
}};

// The global options that take a value, whose value is never the command.
constexpr std::array<std::string_view, 3> kValuedGlobals = {"--format", "--device-file",
                                                            "--calibration"};

// The command the first word names, or "" (then every command is registered).
std::string_view named_command(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (std::ranges::find(kValuedGlobals, arg) != kValuedGlobals.end()) {
      ++i;
    } else if (!arg.starts_with("-")) {
      if (arg == "tour") return arg;
      for (const Registration& r : kRegistrations) {
        if (std::ranges::find(r.names, arg) != r.names.end()) return arg;
      }
      return "";
    }
  }
  return "";
}

}  // namespace

CommandLine::CommandLine()
    : app_("ridge: where an operation sits on the roofline, and why", "ridge") {
  add_commands("");
}

CommandLine::CommandLine(const std::vector<std::string>& args)
    : app_("ridge: where an operation sits on the roofline, and why", "ridge") {
  add_commands(named_command(args));
}

void CommandLine::add_commands(std::string_view only) {
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
  // The tour is also what runs when no command is named, so it is there unless another is.
  if (only.empty() || only == "tour") add_tour(app_, commands_, default_action_);
  for (const Registration& r : kRegistrations) {
    if (only.empty() || std::ranges::find(r.names, only) != r.names.end()) r.add(app_, commands_);
  }
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
