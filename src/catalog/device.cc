#include "ridge/device.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <utility>

#include "core/enum_names.h"
#include "ridge/error.h"

namespace ridge {

namespace {

constexpr EnumNames<Provenance, 4> kProvenanceNames = {{{Provenance::spec, "spec"},
                                                        {Provenance::estimate, "estimate"},
                                                        {Provenance::measured, "measured"},
                                                        {Provenance::derived, "derived"}}};
constexpr EnumNames<MemoryKind, 4> kMemoryKindNames = {{{MemoryKind::registers, "registers"},
                                                        {MemoryKind::shared, "shared"},
                                                        {MemoryKind::cache, "cache"},
                                                        {MemoryKind::main, "main"}}};
constexpr EnumNames<Scope, 2> kScopeNames = {{{Scope::unit, "unit"}, {Scope::device, "device"}}};
constexpr EnumNames<LinkKind, 3> kLinkKindNames = {
    {{LinkKind::scale_up, "scale-up"}, {LinkKind::network, "network"}, {LinkKind::host, "host"}}};

}  // namespace

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

Ceiling Device::ceiling(Precision precision) const {
  return {peak(precision).value, main_bandwidth_bytes_per_s()};
}

const Link* Device::find_link(LinkKind kind) const {
  const auto it = std::ranges::find(links, kind, &Link::kind);
  return it == links.end() ? nullptr : &*it;
}

const Link& Device::link(LinkKind kind) const {
  if (const Link* found = find_link(kind)) return *found;
  input_error("device '{}' has no {} link in the catalog", id, to_string(kind));
}

int Device::compute_unit_count() const {
  if (!compute_units) input_error("device '{}' has no {} count in the catalog", id, unit_name);
  return static_cast<int>(compute_units->value);
}

}  // namespace ridge
