#include "ridge/tour.h"

#include <filesystem>
#include <memory>

#include "common.h"
#include "ridge/error.h"
#include "ridge/output_file.h"

namespace ridge::cli {

void add_tour(CLI::App& app, std::vector<Command>& commands, Action& default_action) {
  struct Args {
    std::string device, charts, theme = "light";
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub =
      app.add_subcommand("tour", "The roofline in eight demonstrations (the default command)");
  add_device_option(*sub, args->device);
  sub->add_option("--charts", args->charts, "Also write the tour's charts (SVG) into this folder");
  sub->add_option("--theme", args->theme, "Charts: light or dark")->capture_default_str();
  Action action = [args](const Session& s) {
    const Device& device = s.device(args->device);
    if (!args->charts.empty()) {
      std::error_code error;
      std::filesystem::create_directories(args->charts, error);
      if (!std::filesystem::is_directory(args->charts)) {
        input_error("--charts: cannot make the folder '{}' ({})", args->charts,
                    error ? error.message() : "a file of that name is in the way");
      }
      const auto charts = tour_charts(s.catalog(), device, chart::parse_theme(args->theme));
      // Every file is opened before any is written, so a failure leaves none half made.
      std::vector<std::unique_ptr<OutputFile>> files;
      for (const auto& [name, svg] : charts) {
        files.push_back(
            std::make_unique<OutputFile>((std::filesystem::path(args->charts) / name).string()));
      }
      for (std::size_t i = 0; i < charts.size(); ++i) files[i]->commit(charts[i].second);
    }
    return tour(s.catalog(), device);
  };
  commands.push_back({sub, action});
  default_action = action;
}

}  // namespace ridge::cli
