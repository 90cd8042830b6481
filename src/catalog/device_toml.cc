// Reads one device from TOML. Every problem is reported as bad input naming the file, line,
// column and field, so a user can fix their file from the message alone.
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/toml_reader.h"
#include "ridge/catalog.h"
#include "ridge/error.h"
#include "ridge/input_file.h"
#include "ridge/measurement.h"

namespace ridge {

namespace {

class DeviceReader : TomlReader {
 public:
  DeviceReader(const toml::table& root, std::string origin)
      : TomlReader(std::move(origin)), root_(root) {}

  Device read() {
    expect_keys(root_, "",
                {"id", "name", "vendor", "year", "kind", "runtime_names", "compute_unit",
                 "compute_units", "sources", "peak", "memory", "link"});
    read_sources(root_);
    Device d;
    d.origin = origin_;
    d.id = required_string(root_, "", "id");
    check_id(d.id);
    d.name = required_string(root_, "", "name");
    d.vendor = required_string(root_, "", "vendor");
    d.year = read_year();
    if (root_.contains("kind"))
      d.kind = required_enum<DeviceKind>(root_, "", "kind", find_device_kind,
                                         fmt::format("{}", fmt::join(device_kind_names(), ", ")));
    d.runtime_names = read_runtime_names();
    if (root_.contains("compute_unit")) d.unit_name = required_string(root_, "", "compute_unit");
    if (const toml::node* units = root_.get("compute_units"))
      d.compute_units = figure(*units, "compute_units", FigureKind::count);
    read_peaks(d);
    read_memory(d);
    read_links(d);
    return d;
  }

 private:
  void check_id(const std::string& id) const {
    const bool ok = std::ranges::all_of(id, [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
    });
    if (!ok)
      fail(root_["id"].node()->source(), "id",
           fmt::format("'{}' must be lower-case letters, digits, '-', '.' or '_'", id));
  }

  std::vector<std::string> read_runtime_names() const {
    std::vector<std::string> names;
    const toml::node* node = root_.get("runtime_names");
    if (!node) return names;
    const toml::array* array = node->as_array();
    if (!array) fail(node->source(), "runtime_names", "must be an array of strings");
    for (const toml::node& name : *array) {
      auto text = name.value_exact<std::string>();
      if (!text || text->empty())
        fail(name.source(), "runtime_names", "each name must be a non-empty string");
      names.push_back(*text);
    }
    return names;
  }

  int read_year() const {
    const toml::node& node = required(root_, "", "year");
    // value_exact: toml++ 3.3 converts a float such as 1e300 to int64 with undefined behaviour.
    auto year = node.value_exact<std::int64_t>();
    if (!year || *year < 1950 || *year > 2100)
      fail(node.source(), "year", "must be a year such as 2022");
    return static_cast<int>(*year);
  }

  void read_peaks(Device& d) const {
    const toml::table& peaks = as_table(required(root_, "", "peak"), "peak");
    for (const auto& [key, node] : peaks) {
      d.peak_flops_per_s[precision_key(node, "peak", key.str())] =
          figure(node, join("peak", key.str()), FigureKind::flops_per_s);
    }
    if (d.peak_flops_per_s.empty()) fail(peaks.source(), "peak", "needs at least one precision");
  }

  template <typename Enum>
  Enum required_enum(const toml::table& t, const std::string& path, std::string_view key,
                     std::optional<Enum> (*find)(std::string_view),
                     std::string_view choices) const {
    const toml::node& node = required(t, path, key);
    if (auto value = find(node.value<std::string>().value_or(""))) return *value;
    fail(node.source(), join(path, key), fmt::format("must be one of {}", choices));
  }

  const toml::array& array_of_tables(std::string_view key) const {
    const toml::node& node = required(root_, "", key);
    const toml::array* array = node.as_array();
    if (!array || !array->is_array_of_tables())
      fail(node.source(), key, fmt::format("must be [[{}]] tables", key));
    return *array;
  }

  void read_memory(Device& d) const {
    const toml::array& levels = array_of_tables("memory");
    for (std::size_t i = 0; i < levels.size(); ++i) {
      const toml::table& t = *levels[i].as_table();
      const std::string path = fmt::format("memory[{}]", i);
      expect_keys(t, path, {"name", "kind", "scope", "capacity", "bandwidth", "latency"});
      MemoryLevel level;
      level.name = required_string(t, path, "name");
      level.kind = required_enum<MemoryKind>(t, path, "kind", find_memory_kind,
                                             "registers, shared, cache, main");
      if (t.contains("scope"))
        level.scope = required_enum<Scope>(t, path, "scope", find_scope, "unit, device");
      level.capacity_bytes = optional_figure(t, path, "capacity", FigureKind::bytes);
      level.bandwidth_bytes_per_s = optional_figure(t, path, "bandwidth", FigureKind::bytes_per_s);
      level.latency_s = optional_figure(t, path, "latency", FigureKind::seconds);
      if (level.kind == MemoryKind::main) check_main_memory(t, path, level, d);
      d.memory.push_back(std::move(level));
    }
    if (std::ranges::none_of(d.memory,
                             [](const MemoryLevel& m) { return m.kind == MemoryKind::main; })) {
      fail(levels.source(), "memory", "needs one level of kind \"main\" (HBM, GDDR or DRAM)");
    }
  }

  void check_main_memory(const toml::table& t, const std::string& path, const MemoryLevel& level,
                         const Device& d) const {
    if (std::ranges::any_of(d.memory,
                            [](const MemoryLevel& m) { return m.kind == MemoryKind::main; })) {
      fail(t.source(), path, "a second level of kind \"main\"; a device has one");
    }
    if (!level.capacity_bytes)
      fail(t.source(), join(path, "capacity"), "missing (required for main memory)");
    if (!level.bandwidth_bytes_per_s)
      fail(t.source(), join(path, "bandwidth"), "missing (required for main memory)");
  }

  void read_links(Device& d) const {
    if (!root_.contains("link")) return;
    const toml::array& links = array_of_tables("link");
    for (std::size_t i = 0; i < links.size(); ++i) {
      const toml::table& t = *links[i].as_table();
      const std::string path = fmt::format("link[{}]", i);
      expect_keys(t, path, {"kind", "name", "bandwidth", "latency", "switch_reduction_gpus"});
      Link link;
      link.kind =
          required_enum<LinkKind>(t, path, "kind", find_link_kind, "scale-up, network, host");
      link.name = required_string(t, path, "name");
      link.bandwidth_bytes_per_s =
          figure(required(t, path, "bandwidth"), join(path, "bandwidth"), FigureKind::bytes_per_s);
      link.latency_s = optional_figure(t, path, "latency", FigureKind::seconds);
      link.switch_reduction_gpus =
          optional_figure(t, path, "switch_reduction_gpus", FigureKind::count);
      if (d.find_link(link.kind))
        fail(t.source(), path,
             fmt::format("a second {} link; a device has one of each kind", to_string(link.kind)));
      d.links.push_back(std::move(link));
    }
  }

  const toml::table& root_;
};

}  // namespace

Device parse_device_toml(std::string_view text, const std::string& origin) {
  const toml::table root = parse_toml_input(text, origin);
  return DeviceReader(root, origin).read();
}

Device load_device_file(const std::filesystem::path& path) {
  const std::optional<std::string> text = read_text_file(path);
  if (!text) input_error("cannot read device file '{}'", path.string());
  // A measurement from `ridge measure --out` is JSON; a device description is TOML.
  const std::size_t first = text->find_first_not_of(" \t\r\n");
  if (first != std::string::npos && (*text)[first] == '{') {
    return device_from_measurement(parse_measurement(*text, path.string()), path.stem().string(),
                                   path.string());
  }
  return parse_device_toml(*text, path.string());
}

}  // namespace ridge
