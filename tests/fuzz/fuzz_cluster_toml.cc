// Fuzz target: a cluster file (TOML), then its links on the device it names, and an all-reduce.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ridge/catalog.h"
#include "ridge/cluster.h"
#include "ridge/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const ridge::Cluster cluster = ridge::parse_cluster_toml(text, "fuzz.toml");
    const ridge::Device& device = ridge::Catalog::builtin().get(cluster.device_id);
    const ridge::ClusterLinks links = ridge::cluster_links(cluster, device);
    (void)ridge::best_collective(ridge::CollectiveOp::allreduce, 1e9, cluster.shape, links.in_node,
                                 links.across_nodes);
  } catch (const ridge::InputError&) {
  }
  return 0;
}
