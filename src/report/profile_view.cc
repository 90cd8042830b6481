// `ridge profile`: the user's kernels on the device's roofline, their families, and where the
// recoverable time is.
#include <fmt/format.h>

#include "report/cells.h"
#include "ridge/profile.h"
#include "ridge/units.h"
#include "ridge/views.h"

namespace ridge::report {

namespace {

// A cell for a figure that may be unknown: "unknown", never an invented number.
template <typename Make>
Cell maybe(const std::optional<double>& value, Make make) {
  return value ? make(*value) : empty_cell("unknown");
}

// What would move a kernel, from where it sits.
std::string advice(const ProfiledKernel& k) {
  if (k.family == "communication")
    return "overlap it with compute, or send less (a lower precision, fewer all-reduces)";
  if (k.family == "memcpy") return "keep the data on the device, or overlap the copy";
  if (!k.share_of_roof) return "its FLOPs or bytes are unknown: profile it with counters";
  const double share = *k.share_of_roof;
  if (k.bound == "memory")
    return fmt::format(
        "{:.0f}% of its memory roof: fuse it with its neighbours or move fewer "
        "bytes (a lower precision)",
        100 * share);
  return fmt::format("{:.0f}% of peak: larger tiles, or tensor cores at a lower precision",
                     100 * share);
}

Table kernels_table(const std::vector<ProfiledKernel>& kernels, ProfileGrouping grouping) {
  const char* what = grouping == ProfileGrouping::family ? "family"
                     : grouping == ProfileGrouping::op   ? "op"
                                                         : "kernel";
  Table t{"kernels",
          {{"name", what, Align::left},
           {"family", "family", Align::left},
           {"count", "launches"},
           {"time_s", "time"},
           {"share_of_time", "share"},
           {"flops", "FLOPs"},
           {"bytes", "bytes"},
           {"intensity", "FLOP/B"},
           {"attained_flops_per_s", "FLOP/s"},
           {"attained_bytes_per_s", "B/s"},
           {"roof_flops_per_s", "roof"},
           {"share_of_roof", "of roof"},
           {"bound", "bound", Align::left},
           {"bound_time_s", "time >="},
           {"recoverable_s", "recoverable"},
           {"expected_time_s", "expected ~"},
           {"l2_bytes", "L2 bytes"},
           {"l1_bytes", "L1 bytes"},
           {"tensor_instructions", "tensor inst"},
           {"precision", "precision", Align::left},
           {"flops_source", "FLOPs from", Align::left},
           {"full_name", "full name", Align::left}},
          {}};
  for (const ProfiledKernel& k : kernels) {
    t.rows.push_back(
        {text_cell(k.name),
         text_cell(k.family),
         integer_cell(k.count),
         time_cell(k.time_s),
         percent_cell(k.share_of_time),
         maybe(k.flops, flops_cell),
         maybe(k.bytes, bytes_cell),
         maybe(k.intensity, [](double v) { return number_cell(v, units::plain(v, 2)); }),
         maybe(k.attained_flops_per_s, flops_rate_cell),
         maybe(k.attained_bytes_per_s, bandwidth_cell),
         maybe(k.roof_flops_per_s, flops_rate_cell),
         maybe(k.share_of_roof, [](double v) { return percent_cell(v); }),
         text_cell(k.bound),
         maybe(k.bound_time_s, time_cell),
         maybe(k.recoverable_s, time_cell),
         maybe(k.expected_time_s, time_cell),
         maybe(k.l2_bytes, bytes_cell),
         maybe(k.l1_bytes, bytes_cell),
         maybe(k.tensor_instructions, [](double v) { return number_cell(v, units::count(v)); }),
         text_cell(std::string(to_string(k.precision))),
         text_cell(k.flops_source),
         text_cell(k.full_name)});
  }
  return t;
}

Table families_table(const std::vector<FamilyTotal>& families) {
  Table t{"families",
          {{"family", "family", Align::left},
           {"count", "launches"},
           {"time_s", "time"},
           {"share_of_time", "share"}},
          {}};
  for (const FamilyTotal& f : families) {
    t.rows.push_back({text_cell(f.family), integer_cell(f.count), time_cell(f.time_s),
                      percent_cell(f.share_of_time)});
  }
  return t;
}

Table top_table(const std::vector<ProfiledKernel>& top) {
  Table t{"top",
          {{"name", "kernel", Align::left},
           {"recoverable_s", "recoverable"},
           {"time_s", "time"},
           {"bound", "bound", Align::left},
           {"advice", "what would move it", Align::left}},
          {}};
  for (const ProfiledKernel& k : top) {
    t.rows.push_back({text_cell(k.name), time_cell(*k.recoverable_s), time_cell(k.time_s),
                      text_cell(k.bound), text_cell(advice(k))});
  }
  return t;
}

}  // namespace

Document profile_document(const ProfileAnalysis& a, const std::vector<Profile>& profiles,
                          const Device& device) {
  Document doc;
  doc.schema = "ridge.profile/1";
  std::string files;
  for (const Profile& p : profiles) files += (files.empty() ? "" : ", ") + p.file;
  doc.title = fmt::format("{} on {}: {} launches, {}", files, device.name, a.launches,
                          units::seconds(a.total_time_s));
  std::string formats;
  for (const Profile& p : profiles) formats += (formats.empty() ? "" : "; ") + p.format;
  doc.sections.push_back({"",
                          "",
                          {Fields{{
                               {"device", "device", text_cell(device.id)},
                               {"device_basis", "device from", text_cell(a.device_basis)},
                               {"format", "read as", text_cell(formats)},
                               {"total_time_s", "total time", time_cell(a.total_time_s)},
                               {"launches", "launches", integer_cell(a.launches)},
                           }},
                           kernels_table(a.kernels, a.grouping)},
                          {}});
  doc.sections.push_back({"families", "Families", {families_table(a.families)}, {}});
  doc.sections.push_back(
      {"top", "Where the time could be recovered", {top_table(a.top_recoverable)}, {}});
  doc.notes = {
      "time is each group's launches added; a CPU-only trace's operators count their self time "
      "(their children's taken out), so the times add up to the trace's top-level operators",
      "FLOPs and bytes come from the file's counters (Nsight Compute, CUPTI), the profiler's "
      "flops, or the recorded shapes through ridge's op models; where none says, they are "
      "unknown, and so is the roofline placement",
      "recoverable: the time less the roofline time of the same work on the device's spec "
      "ceilings; a profiler's counter replay inflates durations",
  };
  return doc;
}

}  // namespace ridge::report
