#include "ridge/profile.h"

#include "common.h"
#include "ridge/chart.h"
#include "ridge/error.h"
#include "ridge/output_file.h"
#include "ridge/views.h"

namespace ridge::cli {

namespace {

struct ProfileArgs {
  std::vector<std::string> files;
  std::string device;
  double top = 10;
  std::string group = "kernel";
  std::string chart;
};

ProfileGrouping grouping_of(const std::string& name) {
  if (name == "family") return ProfileGrouping::family;
  if (name == "op") return ProfileGrouping::op;
  return ProfileGrouping::kernel;
}

struct Placement {
  const Device* device;
  std::string basis;
};

// --device, else the device the trace names (by the runtime's name), else the --device-file
// device, else the host for a CPU-only trace; a GPU the catalog does not know needs --device.
Placement place(const std::vector<Profile>& profiles, const ProfileArgs& args, const Session& s) {
  if (!args.device.empty()) return {&s.device(args.device), "--device"};
  if (const Device* named = profile_device(profiles, s.catalog()))
    return {named, "the trace's deviceProperties (the runtime's name)"};
  if (s.device_file_given()) return {&s.device(""), "--device-file"};
  const bool host = std::ranges::all_of(profiles, &Profile::host);
  if (host) return {&s.device("host"), "this host, measured (a CPU-only trace)"};
  for (const Profile& p : profiles) {
    if (!p.device_name.empty()) {
      input_error("{}: its GPU '{}' is no catalog device by its runtime name; give --device",
                  p.file, p.device_name);
    }
  }
  input_error("{}: the file names no GPU; give --device", profiles.front().file);
}

std::string profile_chart(const ProfileAnalysis& a, const Device& device) {
  chart::Input in;
  in.options.title = fmt::format("{}: the profile's kernels (area: share of time)", device.id);
  std::vector<Precision> precisions;
  for (const ProfiledKernel& k : a.kernels) {
    if (k.intensity && std::ranges::find(precisions, k.precision) == precisions.end())
      precisions.push_back(k.precision);
  }
  in.series.push_back(chart::series_for(device, precisions, false));
  // A hierarchical roofline: where the file has L2 and L1 bytes, the same FLOP/s again at each
  // level's intensity (Nsight Compute's hierarchical chart); the device's cache roofs are drawn
  // where the catalog has their bandwidth.
  for (const ProfiledKernel& k : a.kernels) {
    if (!k.flops || !k.attained_flops_per_s || *k.attained_flops_per_s <= 0) continue;
    for (const auto& [bytes, level] :
         {std::pair{k.bytes, ""}, std::pair{k.l2_bytes, " (L2)"}, std::pair{k.l1_bytes, " (L1)"}}) {
      if (!bytes || *bytes <= 0) continue;
      chart::Point p;
      p.label = k.name + level;
      p.intensity = *k.flops / *bytes;
      p.flops_per_s = *k.attained_flops_per_s;
      p.measured = true;
      p.area_share = k.share_of_time;
      in.points.push_back(std::move(p));
    }
  }
  return chart::render_svg(chart::layout(in));
}

report::Document run_profile(const ProfileArgs& args, const Session& s) {
  const auto chart_file = open_output(args.chart);
  std::vector<Profile> profiles;
  for (const std::string& file : args.files) profiles.push_back(read_profile(file));
  const Placement where = place(profiles, args, s);
  const ProfileAnalysis a =
      analyse_profiles(profiles, *where.device, where.basis, grouping_of(args.group),
                       static_cast<std::size_t>(args.top));
  if (chart_file) chart_file->commit(profile_chart(a, *where.device));
  return report::profile_document(a, profiles, *where.device);
}

}  // namespace

void add_profile(CLI::App& app, std::vector<Command>& commands) {
  auto args = std::make_shared<ProfileArgs>();
  CLI::App* sub = app.add_subcommand(
      "profile",
      "Your own kernels on the roofline: PyTorch profiler traces and Nsight Compute CSVs");
  sub->add_option("files", args->files,
                  "Trace (JSON, or gzip) or ncu --csv files, recognised by their content")
      ->required();
  add_device_option(*sub, args->device);
  sub->add_option("--top", args->top, "Kernels listed by recoverable time")
      ->check(positive_int())
      ->capture_default_str();
  sub->add_option("--group", args->group, "One row per kernel, family or op")
      ->check(CLI::IsMember({"kernel", "family", "op"}))
      ->capture_default_str();
  sub->add_option("--chart", args->chart,
                  "Also write the device's roofline with each kernel a point (SVG)");
  commands.push_back({sub, [args](const Session& s) { return run_profile(*args, s); }});
}

}  // namespace ridge::cli
