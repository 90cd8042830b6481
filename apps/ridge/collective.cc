#include "ridge/collective.h"

#include <cmath>

#include "common.h"
#include "ridge/chart.h"
#include "ridge/cluster.h"
#include "ridge/error.h"
#include "ridge/expected.h"
#include "ridge/units.h"
#include "ridge/views.h"

namespace ridge::cli {

namespace {

constexpr int kMaxSweepRows = 64;

struct CollectiveArgs {
  std::string bytes;
  std::string sweep_bytes;
  double gpus_per_node = 8;
  double nodes = 1;
  std::string algorithm = "auto";
  bool bandwidth_only = false;
  std::string device;
  std::string cluster;
  std::string chart;
};

// "1K..16G": every power-of-two multiple of the first size up to the second.
std::vector<double> sweep_sizes(const std::string& text) {
  const std::size_t dots = text.find("..");
  if (dots == std::string::npos) input_error("--sweep-bytes: '{}' is not FROM..TO", text);
  const double from = units::parse_bytes(text.substr(0, dots));
  const double to = units::parse_bytes(text.substr(dots + 2));
  if (to < from) input_error("--sweep-bytes: '{}' ends below where it starts", text);
  if (std::log2(to / from) >= kMaxSweepRows) {
    input_error("--sweep-bytes: '{}' spans more than {} doublings", text, kMaxSweepRows);
  }
  std::vector<double> sizes;
  for (double size = from; size <= to; size *= 2) sizes.push_back(size);
  return sizes;
}

LinkModel priced(const LinkModel& link, bool bandwidth_only) {
  return bandwidth_only ? without_latency(link) : link;
}

// NCCL's ring on one node over the device's own link, as nccl-tests times it (each call launched
// on its own), for each size, from the calibration of the device, looked up once; none across
// nodes (the calibration prices one node's ring) or over a cluster file's own in-node link.
report::CollectiveExpectation expectation(CollectiveOp op, const std::vector<double>& sizes,
                                          const Cluster& cluster, const Device& device) {
  if (cluster.shape.nodes > 1)
    return {std::nullopt, {}, "none across nodes: the calibration prices one node's NVLink ring"};
  if (cluster.in_node)
    return {std::nullopt,
            {},
            "none over a cluster file's own in-node link: the calibration prices the catalog's"};
  std::optional<Calibration> calibration = find_calibration(device);
  if (!calibration) return {std::nullopt, {}, "none: no calibration applies to this device"};
  std::vector<ExpectedTime> times;
  for (const double bytes : sizes) {
    times.push_back(expected_collective_time(op, bytes, cluster.shape.gpus_per_node, device,
                                             *calibration, KernelLaunch::alone));
  }
  return {std::move(calibration), std::move(times), ""};
}

// Bus bandwidth by message size, one curve per algorithm that applies.
std::string sweep_chart(CollectiveOp op, const std::vector<double>& sizes,
                        const ClusterShape& shape, const LinkModel& in_node,
                        const std::optional<LinkModel>& across, const Device& device) {
  chart::CurveChart c;
  c.title = fmt::format("{} bus bandwidth over {} GPUs of {} ({} per node)", to_string(op),
                        shape.ranks(), device.id, shape.gpus_per_node);
  c.x_title = "message size (bytes)";
  c.y_title = "bus bandwidth (B/s)";
  c.x_unit = "B";
  c.y_unit = "B/s";
  for (const double bytes : sizes) {
    const std::vector<CollectiveEstimate> all = every_algorithm(op, bytes, shape, in_node, across);
    if (c.curves.empty()) {
      for (const CollectiveEstimate& e : all)
        c.curves.push_back({std::string(to_string(e.algorithm)), {}, false});
    }
    for (std::size_t i = 0; i < all.size(); ++i)
      c.curves[i].points.emplace_back(bytes, all[i].busbw_bytes_per_s);
  }
  return chart::render_curve_svg(c);
}

report::Document run_collective(CollectiveOp op, const CollectiveArgs& args, const Session& s) {
  if (args.bytes.empty() == args.sweep_bytes.empty()) {
    input_error("give one of --bytes and --sweep-bytes");
  }
  const Cluster cluster =
      cluster_from(args.cluster, args.device,
                   {static_cast<int>(args.gpus_per_node), static_cast<int>(args.nodes)});
  const Device& d = s.device(cluster.device_id);
  const ClusterShape& shape = cluster.shape;
  const ClusterLinks links = cluster_links(cluster, d);
  const LinkModel in_node = priced(links.in_node, args.bandwidth_only);
  std::optional<LinkModel> across;
  if (links.across_nodes) across = priced(*links.across_nodes, args.bandwidth_only);
  std::optional<CollectiveAlgorithm> algorithm;
  if (args.algorithm != "auto") algorithm = find_collective_algorithm(args.algorithm);
  const auto estimate = [&](double bytes) {
    return algorithm ? estimate_collective(op, *algorithm, bytes, shape, in_node, across)
                     : best_collective(op, bytes, shape, in_node, across);
  };
  if (!args.chart.empty() && args.sweep_bytes.empty()) input_error("--chart needs --sweep-bytes");
  if (!args.sweep_bytes.empty()) {
    const auto chart_file = open_output(args.chart);
    const std::vector<double> sizes = sweep_sizes(args.sweep_bytes);
    std::vector<CollectiveEstimate> sweep;
    for (const double bytes : sizes) sweep.push_back(estimate(bytes));
    if (chart_file) chart_file->commit(sweep_chart(op, sizes, shape, in_node, across, d));
    return report::collective_sweep_document(sweep, expectation(op, sizes, cluster, d), d);
  }
  const double bytes = units::parse_bytes(args.bytes);
  return report::collective_document(estimate(bytes),
                                     every_algorithm(op, bytes, shape, in_node, across),
                                     expectation(op, {bytes}, cluster, d), d);
}

}  // namespace

void add_collective(CLI::App& app, std::vector<Command>& commands) {
  CLI::App* collective = app.add_subcommand(
      "collective", "A collective's time from each link's latency and bandwidth (alpha-beta)");
  collective->require_subcommand(1);
  for (const CollectiveOp op :
       {CollectiveOp::allreduce, CollectiveOp::allgather, CollectiveOp::reducescatter,
        CollectiveOp::alltoall, CollectiveOp::broadcast}) {
    auto args = std::make_shared<CollectiveArgs>();
    CLI::App* sub = collective->add_subcommand(std::string(to_string(op)),
                                               fmt::format("{}: time per leg, algbw, busbw and "
                                                           "the bound link",
                                                           to_string(op)));
    CLI::Option* bytes =
        sub->add_option("--bytes", args->bytes, "Message size as nccl-tests counts it: 14G, 1MiB");
    sub->add_option("--sweep-bytes", args->sweep_bytes, "A table over sizes, doubling: 1K..16G")
        ->excludes(bytes);
    CLI::Option* gpus = sub->add_option("--gpus-per-node", args->gpus_per_node, "GPUs per node")
                            ->check(positive_int())
                            ->capture_default_str();
    CLI::Option* nodes = sub->add_option("--nodes", args->nodes, "Nodes")
                             ->check(positive_int())
                             ->capture_default_str();
    sub->add_option("--algorithm", args->algorithm, "ring, tree, hierarchical, or auto (fastest)")
        ->check(CLI::IsMember({"auto", "ring", "tree", "hierarchical"}))
        ->capture_default_str();
    sub->add_option("--chart", args->chart,
                    "With --sweep-bytes: also write bus bandwidth by size, per algorithm (SVG)");
    sub->add_flag("--bandwidth-only", args->bandwidth_only,
                  "Leave out per-step latency, as the reference's model does");
    add_device_option(*sub, args->device);
    sub->add_option("--cluster", args->cluster,
                    "A cluster file (TOML): device, GPUs per node, nodes, links")
        ->excludes(gpus)
        ->excludes(nodes)
        ->excludes("--device");
    commands.push_back(
        {sub, [op, args](const Session& s) { return run_collective(op, *args, s); }});
  }
}

}  // namespace ridge::cli
