#include <fmt/format.h>

#include "common.h"
#include "ridge/views.h"

namespace ridge::cli {

void add_compare(CLI::App& app, std::vector<Command>& commands) {
  struct Args {
    std::vector<std::string> devices{"v100-sxm2", "a100-sxm-80gb", "h100-sxm"};
    std::string dtype;  // empty: each device's 16-bit rate
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub =
      app.add_subcommand("compare", "Bandwidth, peak and ridge of several devices side by side");
  sub->add_option("--devices", args->devices, "Comma-separated device IDs, oldest first")
      ->delimiter(',')
      ->check(non_empty())
      ->capture_default_str();
  sub->add_option(
      "--dtype", args->dtype,
      fmt::format("Precision: {} (default: each device's fp16, else bf16)", precision_choices()));
  commands.push_back({sub, [args](const Session& s) {
                        std::optional<Precision> precision;
                        if (!args->dtype.empty()) precision = parse_precision(args->dtype);
                        std::vector<const Device*> devices;
                        for (const std::string& id : args->devices) {
                          const Device& d = s.catalog().get(id);
                          if (precision) d.peak(*precision);  // every device must have it
                          devices.push_back(&d);
                        }
                        return report::compare_document(devices, precision);
                      }});
}

}  // namespace ridge::cli
