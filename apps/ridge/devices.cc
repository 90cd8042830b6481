#include "common.h"
#include "ridge/views.h"

namespace ridge::cli {

namespace {

struct ListArgs {
  std::string vendor;
  std::string kind;
  std::string sort = "year";
};

DeviceQuery query_of(const ListArgs& a) {
  DeviceQuery q;
  q.vendor = a.vendor;
  if (!a.kind.empty()) q.kind = find_device_kind(a.kind);
  q.order = *find_device_order(a.sort);
  return q;
}

}  // namespace

void add_devices(CLI::App& app, std::vector<Command>& commands) {
  CLI::App* list =
      app.add_subcommand("devices", "List the catalog: bandwidth, fp16/bf16 peak, ridge");
  auto args = std::make_shared<ListArgs>();
  list->add_option("--vendor", args->vendor,
                   "Only this vendor's devices (NVIDIA, AMD, Google, ...)")
      ->check(non_empty());
  list->add_option("--kind", args->kind, "Only devices of this kind")
      ->check(CLI::IsMember(device_kind_names()));
  list->add_option("--sort", args->sort,
                   "Order: year (oldest first), or ridge, bandwidth, peak (largest first)")
      ->check(CLI::IsMember(device_order_names()))
      ->capture_default_str();
  commands.push_back({list, [args](const Session& s) {
                        return report::devices_document(s.catalog().select(query_of(*args)));
                      }});

  CLI::App* device = app.add_subcommand("device", "One device in detail");
  device->require_subcommand(1);
  auto id = std::make_shared<std::string>();
  CLI::App* show = device->add_subcommand("show", "Every figure of a device with its source");
  show->add_option("id", *id, "Device ID")->required()->check(non_empty());
  commands.push_back(
      {show, [id](const Session& s) { return report::device_document(s.catalog().get(*id)); }});
}

}  // namespace ridge::cli
