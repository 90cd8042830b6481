// A profile file recognised by its content, and its launches grouped and placed on a device's
// roofline: attained rates, the roof at each group's intensity, and the time reaching it would
// save.
#include "ridge/profile.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/text.h"
#include "profile/readers.h"
#include "ridge/bounds.h"
#include "ridge/error.h"
#include "ridge/expected.h"
#include "ridge/roofline.h"

namespace ridge {

namespace {

// The first character that is not white space: '{' or '[' opens a trace.
char first_visible(const std::string& head) {
  const auto at = head.find_first_not_of(" \t\r\n");
  return at == std::string::npos ? '\0' : head[at];
}

bool looks_like_ncu_csv(const std::string& head) {
  return head.starts_with("\"ID\"") || head.starts_with("ID,") ||
         head.find("\"Kernel Name\"") != std::string::npos;
}

// Sums of figures that are known only when every launch's is.
struct Sum {
  std::optional<double> total = 0.0;
  void add(const std::optional<double>& v) {
    if (!v || !total) {
      total.reset();
      return;
    }
    *total += *v;
  }
};

struct Group {
  std::string key;
  std::string full_name;
  std::string family;
  int count = 0;
  double time_s = 0;
  Sum flops, bytes, l2, l1, tensor;
  std::string flops_source;
  std::optional<Precision> precision;
  std::optional<double> expected_s = 0.0;
};

std::string group_key(const Launch& l, ProfileGrouping grouping, const std::string& family) {
  switch (grouping) {
    case ProfileGrouping::family:
      return family;
    case ProfileGrouping::op:
      return l.op.empty() ? short_kernel_name(l.name) : l.op;
    case ProfileGrouping::kernel:
      break;
  }
  return l.name;
}

// The expected time of one launch, where its shape is known and a calibration applies.
std::optional<double> expected_launch_s(const Launch& l, const Device& device, Precision p) {
  if (!l.gemm_shape || !l.flops || !l.bytes) return std::nullopt;
  const Op op{"gemm",       l.name,       *l.flops / l.count, *l.bytes / l.count,
              l.gemm_shape, std::nullopt, std::nullopt};
  const auto e = expect(op, device, p);
  if (!e) return std::nullopt;
  return e->time.time_s;
}

Precision precision_on(const Device& device, std::optional<Precision> p) {
  if (p && device.has_peak(*p)) return *p;
  if (device.has_peak(Precision::fp32)) return Precision::fp32;
  return device.has_peak(Precision::fp16) ? Precision::fp16 : Precision::bf16;
}

void place_on_roofline(ProfiledKernel& k, const Device& device) {
  const Ceiling c = device.ceiling(k.precision);
  if (k.flops && k.time_s > 0) k.attained_flops_per_s = *k.flops / k.time_s;
  if (k.bytes && k.time_s > 0) k.attained_bytes_per_s = *k.bytes / k.time_s;
  if (k.flops && k.bytes && *k.bytes > 0) {
    k.intensity = *k.flops / *k.bytes;
    const RooflinePoint point = roofline(*k.intensity, c);
    k.roof_flops_per_s = point.attainable_flops_per_s;
    k.bound = std::string(to_string(point.bound));
    k.bound_time_s = time_lower_bound_s(*k.flops, *k.bytes, c);
  } else if (k.flops) {
    k.bound = "compute (bytes unknown)";
    k.bound_time_s = *k.flops / c.peak_flops_per_s;
  } else if (k.bytes) {
    k.bound = "memory (FLOPs unknown)";
    k.bound_time_s = *k.bytes / c.bandwidth_bytes_per_s;
  } else {
    k.bound = "unknown";
  }
  if (k.roof_flops_per_s && k.attained_flops_per_s)
    k.share_of_roof = *k.attained_flops_per_s / *k.roof_flops_per_s;
  // With only one of the two known, the bound is a floor too low to say what could be saved.
  if (k.intensity) k.recoverable_s = std::max(0.0, k.time_s - *k.bound_time_s);
}

ProfiledKernel kernel_of(const Group& g, const Device& device, double total) {
  ProfiledKernel k;
  k.full_name = g.full_name;
  k.name = g.family == g.key ? g.key : short_kernel_name(g.key);
  k.family = g.family;
  k.count = g.count;
  k.time_s = g.time_s;
  k.share_of_time = total > 0 ? g.time_s / total : 0;
  k.flops = g.flops.total;
  k.bytes = g.bytes.total;
  k.l2_bytes = g.l2.total;
  k.l1_bytes = g.l1.total;
  k.tensor_instructions = g.tensor.total;
  k.flops_source = k.flops ? g.flops_source : "unknown: no counters or shapes for it in the file";
  k.precision = precision_on(device, g.precision);
  k.expected_time_s = g.expected_s;
  place_on_roofline(k, device);
  return k;
}

}  // namespace

Profile read_profile(const std::string& path) {
  profile_input::ByteSource source(path);
  const std::string head = source.head(4096);
  if (head.empty()) input_error("{}: empty: not a profile", path);
  const char first = first_visible(head);
  if (first == '{' || first == '[') return profile_input::read_trace(source, path);
  if (looks_like_ncu_csv(head)) return profile_input::read_ncu_csv(source.rest(), path);
  input_error(
      "{}: not a profile: neither a PyTorch profiler trace (JSON{}) nor an Nsight "
      "Compute CSV (ncu --csv)",
      path, source.compressed() ? " in gzip" : ", plain or gzip");
}

const Device* profile_device(const std::vector<Profile>& profiles, const Catalog& catalog) {
  for (const Profile& p : profiles) {
    if (p.device_name.empty()) continue;
    for (const Device& d : catalog.devices()) {
      const bool named = std::ranges::any_of(d.runtime_names, [&](const std::string& n) {
        return lower_case(n) == lower_case(p.device_name);
      });
      if (named) return &d;
    }
  }
  return nullptr;
}

ProfileAnalysis analyse_profiles(const std::vector<Profile>& profiles, const Device& device,
                                 std::string device_basis, ProfileGrouping grouping,
                                 std::size_t top) {
  ProfileAnalysis a;
  a.device_id = device.id;
  a.device_basis = std::move(device_basis);
  a.grouping = grouping;
  std::map<std::string, Group> groups;
  std::vector<std::string> order;  // first appearance
  for (const Profile& p : profiles) {
    a.files.push_back(p.file);
    for (const Launch& l : p.launches) {
      const std::string family = kernel_family(
          l.op.empty() || l.op == l.name ? l.name : l.name + " " + l.op, l.memory_operation);
      const std::string key = group_key(l, grouping, family);
      auto [it, added] = groups.try_emplace(key);
      Group& g = it->second;
      if (added) {
        order.push_back(key);
        g.key = key;
        g.full_name = grouping == ProfileGrouping::kernel ? l.name : key;
        g.family = family;
      }
      g.count += l.count;
      g.time_s += l.time_s;
      g.flops.add(l.flops);
      g.bytes.add(l.bytes);
      g.l2.add(l.l2_bytes);
      g.l1.add(l.l1_bytes);
      g.tensor.add(l.tensor_instructions);
      if (g.flops_source.empty()) g.flops_source = l.flops_source;
      if (!g.precision) g.precision = l.precision;
      const auto e = expected_launch_s(l, device, precision_on(device, l.precision));
      if (e && g.expected_s) {
        *g.expected_s += *e * l.count;
      } else {
        g.expected_s.reset();
      }
      a.total_time_s += l.time_s;
      a.launches += l.count;
    }
  }
  std::map<std::string, FamilyTotal> families;
  for (const std::string& key : order) {
    const Group& g = groups[key];
    a.kernels.push_back(kernel_of(g, device, a.total_time_s));
    FamilyTotal& f = families[g.family];
    f.family = g.family;
    f.count += g.count;
    f.time_s += g.time_s;
  }
  std::ranges::stable_sort(a.kernels, std::greater{}, &ProfiledKernel::time_s);
  for (auto& [name, f] : families) {
    f.share_of_time = a.total_time_s > 0 ? f.time_s / a.total_time_s : 0;
    a.families.push_back(f);
  }
  std::ranges::sort(a.families, std::greater{}, &FamilyTotal::time_s);
  for (const ProfiledKernel& k : a.kernels) {
    if (k.recoverable_s && *k.recoverable_s > 0) a.top_recoverable.push_back(k);
  }
  std::ranges::stable_sort(a.top_recoverable, std::greater{},
                           [](const ProfiledKernel& k) { return *k.recoverable_s; });
  if (a.top_recoverable.size() > top) a.top_recoverable.resize(top);
  return a;
}

}  // namespace ridge
