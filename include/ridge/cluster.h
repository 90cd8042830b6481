#pragma once
// A cluster: GPUs per node, nodes, the GPU (a catalog device), and the links between them when
// the device's own entries are not the ones the cluster has. Read from a TOML file:
//
//   device = "h100-sxm"
//   gpus_per_node = 8
//   nodes = 4
//   [links.network]            # overrides or completes the device's network link
//   name = "RoCE 200 Gb/s"
//   bandwidth = 25e9           # B/s, one direction
//   latency = 8e-6             # s per message (optional)
//
// `links.in_node` likewise replaces the device's scale-up (or PCIe) link.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "ridge/catalog.h"
#include "ridge/collective.h"

namespace ridge {

struct Cluster {
  std::string origin;  // the file; empty for a cluster from command-line options
  std::string device_id;
  ClusterShape shape;
  std::optional<LinkModel> in_node;  // from the file; else the device's
  std::optional<LinkModel> network;
};

Cluster parse_cluster_toml(std::string_view text, const std::string& origin);
Cluster load_cluster_file(const std::filesystem::path& path);

// The cluster a command describes: its --cluster file when it names one, else the device and
// shape of its options.
Cluster cluster_from(const std::string& file, const std::string& device_id,
                     const ClusterShape& shape);

// The links the alpha-beta model uses: the file's, else the device's. Bad input naming the file
// when the cluster spans nodes and neither gives a network link.
struct ClusterLinks {
  LinkModel in_node;
  std::optional<LinkModel> across_nodes;
};
ClusterLinks cluster_links(const Cluster& cluster, const Device& device);

}  // namespace ridge
