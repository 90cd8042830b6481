#include "ridge/tour.h"

#include "common.h"

namespace ridge::cli {

void add_tour(CLI::App& app, std::vector<Command>& commands, Action& default_action) {
  auto device = std::make_shared<std::string>();
  CLI::App* sub =
      app.add_subcommand("tour", "The roofline in eight demonstrations (the default command)");
  add_device_option(*sub, *device);
  Action action = [device](const Session& s) { return tour(s.catalog(), s.device(*device)); };
  commands.push_back({sub, action});
  default_action = action;
}

}  // namespace ridge::cli
