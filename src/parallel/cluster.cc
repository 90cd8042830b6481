// Cluster files: TOML, every problem reported with file, line, column and field.
#include "ridge/cluster.h"

#include "core/toml_reader.h"
#include "ridge/error.h"
#include "ridge/input_file.h"

namespace ridge {

namespace {

constexpr std::int64_t kMaxGpusPerNode = 1024;
constexpr std::int64_t kMaxNodes = 1'000'000;

class ClusterReader : TomlReader {
 public:
  ClusterReader(const toml::table& root, std::string origin)
      : TomlReader(std::move(origin)), root_(root) {}

  Cluster read() {
    expect_keys(root_, "", {"device", "gpus_per_node", "nodes", "links"});
    Cluster c;
    c.origin = origin_;
    c.device_id = required_string(root_, "", "device");
    c.shape.gpus_per_node = count("gpus_per_node", kMaxGpusPerNode);
    c.shape.nodes = count("nodes", kMaxNodes);
    if (const toml::node* links = root_.get("links")) {
      const toml::table& t = as_table(*links, "links");
      expect_keys(t, "links", {"in_node", "network"});
      if (const toml::node* n = t.get("in_node")) c.in_node = link(*n, "links.in_node");
      if (const toml::node* n = t.get("network")) c.network = link(*n, "links.network");
    }
    return c;
  }

 private:
  int count(std::string_view key, std::int64_t largest) const {
    const toml::node& node = required(root_, "", key);
    const auto value = node.value_exact<std::int64_t>();
    if (!value || *value < 1 || *value > largest) {
      fail(node.source(), key, fmt::format("must be a whole number from 1 to {}", largest));
    }
    return static_cast<int>(*value);
  }

  LinkModel link(const toml::node& node, std::string_view path) const {
    const toml::table& t = as_table(node, path);
    expect_keys(t, path, {"name", "bandwidth", "latency"});
    LinkModel l;
    l.name = required_string(t, path, "name");
    l.bandwidth_bytes_per_s = plausible_number(t, path, "bandwidth", FigureKind::bytes_per_s);
    if (t.contains("latency")) {
      l.latency_s = plausible_number(t, path, "latency", FigureKind::seconds);
      l.latency_known = true;
    }
    return l;
  }

  const toml::table& root_;
};

}  // namespace

Cluster parse_cluster_toml(std::string_view text, const std::string& origin) {
  const toml::table root = parse_toml_input(text, origin);
  return ClusterReader(root, origin).read();
}

Cluster load_cluster_file(const std::filesystem::path& path) {
  const std::optional<std::string> text = read_text_file(path);
  if (!text) input_error("cannot read cluster file '{}'", path.string());
  return parse_cluster_toml(*text, path.string());
}

Cluster cluster_from(const std::string& file, const std::string& device_id,
                     const ClusterShape& shape) {
  if (!file.empty()) return load_cluster_file(file);
  Cluster c;
  c.device_id = device_id;
  c.shape = shape;
  return c;
}

ClusterLinks cluster_links(const Cluster& cluster, const Device& device) {
  ClusterLinks links{cluster.in_node ? *cluster.in_node : link_model(in_node_link(device)),
                     cluster.network};
  if (!links.across_nodes && cluster.shape.nodes > 1) {
    const Link* network = device.find_link(LinkKind::network);
    if (!network && !cluster.origin.empty()) {
      input_error("{}: links.network: missing, and device '{}' has no network link", cluster.origin,
                  device.id);
    }
    links.across_nodes = link_model(network ? *network : device.link(LinkKind::network));
  }
  return links;
}

}  // namespace ridge
