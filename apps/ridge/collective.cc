#include "ridge/collective.h"

#include "common.h"
#include "ridge/units.h"
#include "ridge/views.h"

namespace ridge::cli {

void add_collective(CLI::App& app, std::vector<Command>& commands) {
  struct Args {
    std::string bytes;
    double gpus_per_node = 8;
    double nodes = 1;
    std::string device;
  };
  auto args = std::make_shared<Args>();
  CLI::App* collective =
      app.add_subcommand("collective", "Cost of a collective from link bandwidths");
  collective->require_subcommand(1);
  CLI::App* sub =
      collective->add_subcommand("allreduce", "Ring all-reduce, hierarchical across nodes");
  sub->add_option("--bytes", args->bytes, "Buffer size: 14e9, 14G, 16GiB")->required();
  sub->add_option("--gpus-per-node", args->gpus_per_node, "GPUs per node")
      ->check(positive_int())
      ->capture_default_str();
  sub->add_option("--nodes", args->nodes, "Nodes")->check(positive_int())->capture_default_str();
  add_device_option(*sub, args->device);
  commands.push_back({sub, [args](const Session& s) {
                        const double bytes = units::parse_bytes(args->bytes);
                        const Device& d = s.device(args->device);
                        const int nodes = static_cast<int>(args->nodes);
                        const Link& in_node = in_node_link(d);
                        const Link& across = nodes > 1 ? d.link(LinkKind::network) : in_node;
                        const AllReduceCost cost = hierarchical_allreduce(
                            bytes, static_cast<int>(args->gpus_per_node), nodes, in_node, across);
                        return report::allreduce_document(cost, d);
                      }});
}

}  // namespace ridge::cli
