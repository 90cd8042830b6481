#include "common.h"
#include "ridge/views.h"

namespace ridge::cli {

void add_devices(CLI::App& app, std::vector<Command>& commands) {
  CLI::App* list =
      app.add_subcommand("devices", "List the catalog: bandwidth, fp16/bf16 peak, ridge");
  commands.push_back(
      {list, [](const Session& s) { return report::devices_document(s.catalog().devices()); }});

  CLI::App* device = app.add_subcommand("device", "One device in detail");
  device->require_subcommand(1);
  auto id = std::make_shared<std::string>();
  CLI::App* show = device->add_subcommand("show", "Every figure of a device with its source");
  show->add_option("id", *id, "Device ID")->required();
  commands.push_back(
      {show, [id](const Session& s) { return report::device_document(s.catalog().get(*id)); }});
}

}  // namespace ridge::cli
