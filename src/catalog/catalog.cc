#include "ridge/catalog.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <tuple>

#include "core/embedded.h"
#include "core/enum_names.h"
#include "core/text.h"
#include "ridge/error.h"
#include "ridge/roofline.h"

namespace ridge {

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitution});
    }
  }
  return row[b.size()];
}

// The key a listing sorts on: ascending for the year, the largest first for the rest.
double order_key(const Device& d, DeviceOrder order) {
  const Precision p = d.headline_precision();
  switch (order) {
    case DeviceOrder::year:
      return d.year;
    case DeviceOrder::ridge:
      return -ridge_point(d.ceiling(p));
    case DeviceOrder::bandwidth:
      return -d.main_bandwidth_bytes_per_s();
    case DeviceOrder::peak:
      return -d.peak(p).value;
  }
  return 0;
}

constexpr EnumNames<DeviceOrder, 4> kDeviceOrderNames = {{{DeviceOrder::year, "year"},
                                                          {DeviceOrder::ridge, "ridge"},
                                                          {DeviceOrder::bandwidth, "bandwidth"},
                                                          {DeviceOrder::peak, "peak"}}};

Catalog parse_builtin() {
  Catalog catalog;
  for (const embedded::File& file : embedded::device_files()) {
    Device device = parse_device_toml(file.text, "data/devices/" + std::string(file.name));
    device.origin = "built-in";
    catalog.add(std::move(device));
  }
  return catalog;
}

}  // namespace

const Catalog& Catalog::builtin() {
  static const Catalog catalog = parse_builtin();
  return catalog;
}

void Catalog::add(Device device) {
  auto it = std::ranges::find(devices_, device.id, &Device::id);
  if (it != devices_.end()) {
    *it = std::move(device);
  } else {
    devices_.push_back(std::move(device));
  }
}

std::optional<DeviceOrder> find_device_order(std::string_view name) {
  return value_of(kDeviceOrderNames, name);
}
std::vector<std::string> device_order_names() { return names_of(kDeviceOrderNames); }

std::vector<Device> Catalog::select(const DeviceQuery& query) const {
  const std::string vendor = lower_case(query.vendor);
  std::set<std::string> vendors;
  for (const Device& d : devices_) vendors.insert(lower_case(d.vendor));
  if (!vendor.empty() && !vendors.contains(vendor)) {
    std::set<std::string> names;
    for (const Device& d : devices_) names.insert(d.vendor);
    input_error("--vendor: no device of vendor '{}' (the catalog has {})", query.vendor,
                fmt::format("{}", fmt::join(names, ", ")));
  }
  std::vector<Device> chosen;
  for (const Device& d : devices_) {
    if (!vendor.empty() && lower_case(d.vendor) != vendor) continue;
    if (query.kind && d.kind != *query.kind) continue;
    chosen.push_back(d);
  }
  std::ranges::stable_sort(chosen, {}, [&](const Device& d) {
    return std::tuple(order_key(d, query.order), d.year, d.id);
  });
  return chosen;
}

const Device* Catalog::find(std::string_view id) const {
  auto it = std::ranges::find(devices_, id, &Device::id);
  return it == devices_.end() ? nullptr : &*it;
}

const Device& Catalog::get(std::string_view id) const {
  if (const Device* device = find(id)) return *device;
  const std::vector<std::string> close = closest_ids(id, 3);
  if (close.empty()) input_error("unknown device '{}' (`ridge devices` lists all)", id);
  std::string hint;
  for (const std::string& candidate : close) hint += (hint.empty() ? "" : ", ") + candidate;
  input_error("unknown device '{}' (did you mean {}? `ridge devices` lists all)", id, hint);
}

const Device* Catalog::find_by_runtime_name(std::string_view name) const {
  if (name.empty()) return nullptr;
  for (const Device& d : devices_) {
    if (std::ranges::find(d.runtime_names, name) != d.runtime_names.end()) return &d;
  }
  const Device* found = nullptr;
  for (const Device& d : devices_) {
    // Whole words only: "NVIDIA L40" is not the L40S.
    const std::string_view full(d.name);
    if (!full.starts_with(name) || (full.size() > name.size() && full[name.size()] != ' '))
      continue;
    if (found) return nullptr;
    found = &d;
  }
  return found;
}

// Ranks IDs by edit distance, with IDs that contain the query (or are contained in it) first;
// IDs too far from the query to be what the user meant are left out.
std::vector<std::string> Catalog::closest_ids(std::string_view id, std::size_t count) const {
  // (does not overlap, edit distance, id): overlapping IDs first, the nearest of them first.
  std::vector<std::tuple<bool, std::size_t, std::string>> ranked;
  for (const Device& d : devices_) {
    const bool overlaps = !id.empty() && (d.id.find(id) != std::string::npos ||
                                          id.find(d.id) != std::string_view::npos);
    ranked.emplace_back(!overlaps, edit_distance(id, d.id), d.id);
  }
  std::ranges::sort(ranked);
  const std::size_t furthest = std::max<std::size_t>(2, id.size() / 2);
  std::vector<std::string> ids;
  for (const auto& [apart, distance, candidate] : ranked) {
    if (ids.size() == count || (apart && distance > furthest)) break;
    ids.push_back(candidate);
  }
  return ids;
}

}  // namespace ridge
