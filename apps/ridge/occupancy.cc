#include "ridge/occupancy.h"

#include "common.h"
#include "ridge/views.h"

namespace ridge::cli {

void add_occupancy(CLI::App& app, std::vector<Command>& commands) {
  struct Args {
    double blocks = 0;
    std::string device;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub =
      app.add_subcommand("occupancy", "Waves, utilisation and idle compute units for N blocks");
  sub->add_option("--blocks", args->blocks, "Thread blocks")->required()->check(positive_count());
  add_device_option(*sub, args->device);
  commands.push_back({sub, [args](const Session& s) {
                        const Device& d = s.device(args->device);
                        const auto units = static_cast<std::uint64_t>(d.compute_unit_count());
                        return report::occupancy_document(
                            occupancy(static_cast<std::uint64_t>(args->blocks), units), d);
                      }});
}

}  // namespace ridge::cli
