#include "ridge/measure.h"

#include <memory>

#include "common.h"
#include "ridge/lab.h"
#include "ridge/output_file.h"
#include "ridge/units.h"
#include "ridge/views.h"

namespace ridge::cli {

void add_measure(CLI::App& app, std::vector<Command>& commands) {
  struct Args {
    bool quick = false;
    std::string out;
    double threads = 0;
    std::string max_working_set;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand(
      "measure", "Measure this machine's ceilings: peaks, bandwidth per level, GEMV vs GEMM");
  sub->add_flag("--quick", args->quick, "A shorter run (under 15 s on two cores), less precise");
  sub->add_option("--out", args->out, "Write the measurement (JSON) to this file");
  sub->add_option("--threads", args->threads, "Threads (default: one per core)")
      ->check(positive_int());
  sub->add_option(
      "--max-working-set", args->max_working_set,
      "Largest bandwidth working set, e.g. 2G (default: 4x the last-level cache per array)");
  commands.push_back({sub, [args](const Session&) {
                        MeasureOptions options;
                        options.quick = args->quick;
                        options.threads = static_cast<int>(args->threads);
                        if (!args->max_working_set.empty()) {
                          options.max_working_set_bytes = units::parse_bytes(args->max_working_set);
                        }
                        // Opened first: an unwritable path fails before minutes of measuring.
                        std::unique_ptr<OutputFile> out;
                        if (!args->out.empty()) out = std::make_unique<OutputFile>(args->out);
                        const Measurement m = measure_host(options, progress_bar());
                        if (out) out->commit(measurement_to_json(m));
                        return report::measurement_document(m);
                      }});
}

void add_lab(CLI::App& app, std::vector<Command>& commands) {
  struct Args {
    std::string device;
    double threads = 0;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub =
      app.add_subcommand("lab", "Decode intensity by batch, then GEMV against GEMM on this CPU");
  add_device_option(*sub, args->device);
  sub->add_option("--threads", args->threads, "Threads (default: one per core)")
      ->check(positive_int());
  commands.push_back({sub, [args](const Session& s) {
                        return report::lab_document(
                            run_lab(s.device(args->device), static_cast<int>(args->threads)));
                      }});
}

}  // namespace ridge::cli
