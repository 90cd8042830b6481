#include "ridge/device.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <utility>

#include "core/enum_names.h"
#include "ridge/error.h"

namespace ridge {

namespace {

constexpr EnumNames<Provenance, 5> kProvenanceNames = {{{Provenance::spec, "spec"},
                                                        {Provenance::estimate, "estimate"},
                                                        {Provenance::measured, "measured"},
                                                        {Provenance::derived, "derived"},
                                                        {Provenance::fitted, "fitted"}}};
constexpr EnumNames<MemoryKind, 4> kMemoryKindNames = {{{MemoryKind::registers, "registers"},
                                                        {MemoryKind::shared, "shared"},
                                                        {MemoryKind::cache, "cache"},
                                                        {MemoryKind::main, "main"}}};
constexpr EnumNames<Scope, 2> kScopeNames = {{{Scope::unit, "unit"}, {Scope::device, "device"}}};
constexpr EnumNames<LinkKind, 3> kLinkKindNames = {
    {{LinkKind::scale_up, "scale-up"}, {LinkKind::network, "network"}, {LinkKind::host, "host"}}};
constexpr EnumNames<DeviceKind, 4> kDeviceKindNames = {{{DeviceKind::gpu, "gpu"},
                                                        {DeviceKind::tpu, "tpu"},
                                                        {DeviceKind::accelerator, "accelerator"},
                                                        {DeviceKind::cpu, "cpu"}}};

}  // namespace

std::string_view to_string(DeviceKind k) { return name_of(kDeviceKindNames, k); }
std::optional<DeviceKind> find_device_kind(std::string_view n) {
  return value_of(kDeviceKindNames, n);
}
std::vector<std::string> device_kind_names() { return names_of(kDeviceKindNames); }
std::string_view to_string(Provenance p) { return name_of(kProvenanceNames, p); }
std::optional<Provenance> find_provenance(std::string_view n) {
  return value_of(kProvenanceNames, n);
}
std::string_view to_string(MemoryKind k) { return name_of(kMemoryKindNames, k); }
std::optional<MemoryKind> find_memory_kind(std::string_view n) {
  return value_of(kMemoryKindNames, n);
}
std::string_view to_string(Scope s) { return name_of(kScopeNames, s); }
std::optional<Scope> find_scope(std::string_view n) { return value_of(kScopeNames, n); }
std::string_view to_string(LinkKind k) { return name_of(kLinkKindNames, k); }
std::optional<LinkKind> find_link_kind(std::string_view n) { return value_of(kLinkKindNames, n); }

bool Device::has_peak(Precision precision) const { return peak_flops_per_s.contains(precision); }

Precision Device::headline_precision() const {
  if (has_peak(Precision::fp16)) return Precision::fp16;
  if (has_peak(Precision::bf16)) return Precision::bf16;
  return peak_flops_per_s.begin()->first;
}

const Figure& Device::peak(Precision precision) const {
  if (auto it = peak_flops_per_s.find(precision); it != peak_flops_per_s.end()) return it->second;
  std::string available;
  for (const auto& [p, figure] : peak_flops_per_s) {
    available += (available.empty() ? "" : ", ") + std::string(to_string(p));
  }
  input_error("device '{}' has no {} peak in the catalog (it has: {})", id, to_string(precision),
              available);
}

const MemoryLevel& Device::main_memory() const {
  const auto it = std::ranges::find(memory, MemoryKind::main, &MemoryLevel::kind);
  assert(it != memory.end() && "a loaded device always has a main memory level");
  return *it;
}

double Device::main_bandwidth_bytes_per_s() const {
  return main_memory().bandwidth_bytes_per_s->value;
}

const MemoryLevel* Device::shared_cache() const {
  const MemoryLevel* largest = nullptr;
  for (const MemoryLevel& level : memory) {
    if (level.kind != MemoryKind::cache || level.scope != Scope::device || !level.capacity_bytes)
      continue;
    if (!largest || level.capacity_bytes->value > largest->capacity_bytes->value) largest = &level;
  }
  return largest;
}

Ceiling Device::ceiling(Precision precision) const {
  return {peak(precision).value, main_bandwidth_bytes_per_s()};
}

const Link* Device::find_link(LinkKind link_kind) const {
  const auto it = std::ranges::find(links, link_kind, &Link::kind);
  return it == links.end() ? nullptr : &*it;
}

const Link& Device::link(LinkKind link_kind) const {
  if (const Link* found = find_link(link_kind)) return *found;
  input_error("device '{}' has no {} link in the catalog", id, to_string(link_kind));
}

int Device::compute_unit_count() const {
  if (!compute_units) input_error("device '{}' has no {} count in the catalog", id, unit_name);
  return static_cast<int>(compute_units->value);
}

int Device::compute_units_or_one() const {
  return compute_units ? static_cast<int>(compute_units->value) : 1;
}

PlausibleRange plausible_range(FigureKind kind) {
  switch (kind) {
    case FigureKind::count:
      return {1, 1e7, "1 to 10 million"};
    case FigureKind::flops_per_s:
      return {1e6, 1e21, "1 MFLOP/s to 1 ZFLOP/s"};
    case FigureKind::bytes:
      return {1, 1e18, "1 B to 1 EB"};
    case FigureKind::bytes_per_s:
      return {1e3, 1e18, "1 kB/s to 1 EB/s"};
    case FigureKind::seconds:
      return {1e-12, 10, "1 ps to 10 s"};
    case FigureKind::fraction:
      return {1e-3, 1, "0.001 to 1"};
    case FigureKind::exponent:
      // Below 1 a p-norm exceeds the sum of its parts.
      return {1, 100, "1 to 100"};
    case FigureKind::multiple:
      return {0.01, 10, "0.01 to 10 times"};
  }
  return {0, 0, ""};
}

bool is_plausible(double value, FigureKind kind) {
  const PlausibleRange r = plausible_range(kind);
  return std::isfinite(value) && value >= r.min && value <= r.max;
}

namespace {

void check_figure(const Figure& f, FigureKind kind, const std::string& what,
                  const std::string& origin) {
  if (!is_plausible(f.value, kind)) {
    input_error("{}: {} {} is outside the plausible range {}", origin, what, f.value,
                plausible_range(kind).text);
  }
}

}  // namespace

void check_plausible_figures(const Device& d, const std::string& origin) {
  if (d.compute_units) check_figure(*d.compute_units, FigureKind::count, "compute units", origin);
  for (const auto& [precision, figure] : d.peak_flops_per_s) {
    check_figure(figure, FigureKind::flops_per_s, fmt::format("{} peak", to_string(precision)),
                 origin);
  }
  for (const MemoryLevel& level : d.memory) {
    if (level.capacity_bytes)
      check_figure(*level.capacity_bytes, FigureKind::bytes, level.name + " capacity", origin);
    if (level.bandwidth_bytes_per_s) {
      check_figure(*level.bandwidth_bytes_per_s, FigureKind::bytes_per_s, level.name + " bandwidth",
                   origin);
    }
    if (level.latency_s)
      check_figure(*level.latency_s, FigureKind::seconds, level.name + " latency", origin);
  }
  for (const Link& link : d.links) {
    check_figure(link.bandwidth_bytes_per_s, FigureKind::bytes_per_s, link.name + " bandwidth",
                 origin);
    if (link.latency_s)
      check_figure(*link.latency_s, FigureKind::seconds, link.name + " latency", origin);
    if (link.switch_reduction_gpus) {
      check_figure(*link.switch_reduction_gpus, FigureKind::count,
                   link.name + " switch_reduction_gpus", origin);
    }
  }
}

}  // namespace ridge
