#include "ridge/measure.h"

#include <memory>

#include "common.h"
#include "ridge/cuda_measure.h"
#include "ridge/error.h"
#include "ridge/lab.h"
#include "ridge/mpi_measure.h"
#include "ridge/output_file.h"
#include "ridge/units.h"
#include "ridge/views.h"

namespace ridge::cli {

namespace {

struct MeasureArgs {
  std::string backend = "cpu";
  int gpu = 0;
  bool quick = false;
  std::string out;
  double threads = 0;
  std::string max_working_set;
};

// The options that make sense for one backend only, rejected for the other.
void check_backend_options(const MeasureArgs& args, const CLI::App& sub) {
  const bool cuda = args.backend == "cuda";
  if (!cuda && sub.count("--gpu") > 0) input_error("--gpu needs --backend cuda");
  for (const char* cpu_only : {"--threads", "--max-working-set"}) {
    if (cuda && sub.count(cpu_only) > 0) input_error("{} applies to --backend cpu only", cpu_only);
  }
}

Measurement run_measurement(const MeasureArgs& args, bool& root) {
  if (args.backend == "cuda") {
    return gpu::measure_gpu({args.quick, args.gpu}, progress_bar());
  }
  MeasureOptions options;
  options.quick = args.quick;
  options.threads = static_cast<int>(args.threads);
  if (!args.max_working_set.empty()) {
    options.max_working_set_bytes = units::parse_bytes(args.max_working_set);
  }
  if (mpi::started_by_mpirun()) return mpi::measure_host_on_every_rank(options, root);
  return measure_host(options, progress_bar());
}

}  // namespace

namespace {

// `mpirun -np N ridge measure collectives`: registered after `measure`, so it wins the dispatch.
void add_measure_collectives(CLI::App& measure, std::vector<Command>& commands) {
  struct Args {
    std::string min_bytes = "1KiB", max_bytes = "64MiB", out;
    double iterations = 20, warmups = 5;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = measure.add_subcommand(
      "collectives", "Under mpirun: time collectives across the ranks, beside the model");
  sub->add_option("--min-bytes", args->min_bytes, "Smallest message")->capture_default_str();
  sub->add_option("--max-bytes", args->max_bytes, "Largest message")->capture_default_str();
  sub->add_option("--iterations", args->iterations, "Timed iterations per size")
      ->check(positive_int())
      ->capture_default_str();
  sub->add_option("--warmups", args->warmups, "Untimed iterations first")
      ->check(positive_int())
      ->capture_default_str();
  sub->add_option("--out", args->out, "Write the measurement (JSON) to this file (rank 0)");
  commands.push_back({sub, [args](const Session&) {
                        mpi::CollectiveSweepOptions options;
                        options.min_bytes = units::parse_bytes(args->min_bytes);
                        options.max_bytes = units::parse_bytes(args->max_bytes);
                        options.iterations = static_cast<int>(args->iterations);
                        options.warmups = static_cast<int>(args->warmups);
                        // Probed by every rank before measuring; written by rank 0 alone.
                        const auto out = open_output(args->out);
                        const CollectiveMeasurement m = mpi::measure_collectives(options);
                        if (out && m.root) out->commit(collective_measurement_to_json(m));
                        return report::collective_measurement_document(m);
                      }});
}

}  // namespace

void add_measure(CLI::App& app, std::vector<Command>& commands) {
  auto args = std::make_shared<MeasureArgs>();
  CLI::App* sub = app.add_subcommand(
      "measure", "Measure this machine's ceilings: peaks, bandwidth per level, GEMV vs GEMM");
  sub->add_option("--backend", args->backend, "What to measure: the host CPU, or a CUDA GPU")
      ->check(CLI::IsMember({"cpu", "cuda"}))
      ->default_str("cpu");
  sub->add_option("--gpu", args->gpu, "With --backend cuda: the CUDA device index (default 0)")
      ->check(CLI::Range(0, 1023));
  sub->add_flag("--quick", args->quick,
                "A shorter run (CPU: under 15 s on two cores; GPU: a few seconds), less precise");
  sub->add_option("--out", args->out, "Write the measurement (JSON) to this file");
  sub->add_option("--threads", args->threads, "CPU: threads (default: one per core)")
      ->check(positive_int());
  sub->add_option(
      "--max-working-set", args->max_working_set,
      "CPU: largest bandwidth working set, e.g. 2G (default: 4x the last-level cache per array)");
  commands.push_back({sub, [args, sub](const Session&) {
                        check_backend_options(*args, *sub);
                        // Opened first: an unwritable path fails before minutes of measuring.
                        const auto out = open_output(args->out);
                        bool root = true;
                        const Measurement m = run_measurement(*args, root);
                        if (!root) return report::silent_document();
                        if (out) out->commit(measurement_to_json(m));
                        return report::measurement_document(m);
                      }});
  add_measure_collectives(*sub, commands);
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
