#include "common.h"
#include "ridge/views.h"

namespace ridge::cli {

void add_compare(CLI::App& app, std::vector<Command>& commands) {
  struct Args {
    std::vector<std::string> devices{"v100-sxm2", "a100-sxm-80gb", "h100-sxm"};
    std::string dtype = "fp16";
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub =
      app.add_subcommand("compare", "Bandwidth, peak and ridge of several devices side by side");
  sub->add_option("--devices", args->devices, "Comma-separated device IDs, oldest first")
      ->delimiter(',')
      ->check(non_empty())
      ->capture_default_str();
  add_dtype_option(*sub, args->dtype);
  commands.push_back({sub, [args](const Session& s) {
                        const Precision precision = parse_precision(args->dtype);
                        std::vector<const Device*> devices;
                        for (const std::string& id : args->devices) {
                          const Device& d = s.catalog().get(id);
                          d.peak(precision);  // every device must have the precision
                          devices.push_back(&d);
                        }
                        return report::compare_document(devices, precision);
                      }});
}

}  // namespace ridge::cli
