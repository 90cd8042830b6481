// Calibration profiles: shipped TOML files per architecture, or a device's own measurement.
#include "ridge/calibration.h"

#include <algorithm>
#include <cmath>

#include "core/embedded.h"
#include "core/json_input.h"
#include "core/toml_reader.h"
#include "ridge/catalog.h"
#include "ridge/expected.h"
#include "ridge/input_file.h"

namespace ridge {

namespace {

class CalibrationReader : TomlReader {
 public:
  CalibrationReader(const toml::table& root, std::string origin)
      : TomlReader(std::move(origin)), root_(root) {}

  Calibration read() {
    expect_keys(root_, "",
                {"id", "name", "devices", "sources", "compute", "memory", "gemm", "overlap",
                 "fixed", "attention", "collective", "weight_only", "power", "blocks"});
    read_sources(root_);
    Calibration c;
    c.id = required_string(root_, "", "id");
    c.name = required_string(root_, "", "name");
    c.devices = read_devices();
    const toml::table& compute = section("compute", {});
    for (const auto& [key, node] : compute) {
      c.compute_efficiency[precision_key(node, "compute", key.str())] =
          sourced(compute, "compute", key.str(), FigureKind::fraction);
    }
    const toml::table& memory = section(
        "memory", {"bandwidth", "gemm_bandwidth", "grouped_gemm_bandwidth",
                   "latent_decode_bandwidth", "streaming_per_unit", "l2_streaming_per_unit",
                   "read_streaming_per_unit", "l2_bandwidth", "l2_reread", "l2_hit_all_to",
                   "l2_hit_none_from", "chained_load", "amax_grid_floor", "amax_grid_bandwidth"});
    c.bandwidth_efficiency = sourced(memory, "memory", "bandwidth", FigureKind::fraction);
    c.gemm_bandwidth_efficiency =
        optional_sourced(memory, "memory", "gemm_bandwidth", FigureKind::fraction);
    c.grouped_gemm_bandwidth_efficiency =
        optional_sourced(memory, "memory", "grouped_gemm_bandwidth", FigureKind::fraction);
    c.latent_decode_bandwidth_efficiency =
        optional_sourced(memory, "memory", "latent_decode_bandwidth", FigureKind::fraction);
    c.streaming_bytes_per_s_per_unit =
        optional_sourced(memory, "memory", "streaming_per_unit", FigureKind::bytes_per_s);
    c.l2_streaming_bytes_per_s_per_unit =
        optional_sourced(memory, "memory", "l2_streaming_per_unit", FigureKind::bytes_per_s);
    c.read_streaming_bytes_per_s_per_unit =
        optional_sourced(memory, "memory", "read_streaming_per_unit", FigureKind::bytes_per_s);
    c.l2_bandwidth_bytes_per_s =
        optional_sourced(memory, "memory", "l2_bandwidth", FigureKind::bytes_per_s);
    c.l2_reread_bytes_per_s =
        optional_sourced(memory, "memory", "l2_reread", FigureKind::bytes_per_s);
    read_l2_hits(memory, c);
    c.chained_load_s = optional_sourced(memory, "memory", "chained_load", FigureKind::seconds);
    read_together(memory, "memory", {"amax_grid_floor", FigureKind::seconds, c.amax_grid_floor_s},
                  {"amax_grid_bandwidth", FigureKind::bytes_per_s, c.amax_grid_bytes_per_s});
    if (root_.contains("gemm")) {
      const toml::table& gemm = section("gemm", {"stream_k", "multicast", "triton_moe_step",
                                                 "triton_moe_small_step", "descriptor_switch"});
      if (gemm.contains("stream_k")) c.gemm_stream_k = library_fact(gemm, "gemm", "stream_k");
      c.gemm_multicast = optional_sourced(gemm, "gemm", "multicast", FigureKind::count);
      c.triton_moe_step_s = optional_sourced(gemm, "gemm", "triton_moe_step", FigureKind::seconds);
      c.triton_moe_small_step_s =
          optional_sourced(gemm, "gemm", "triton_moe_small_step", FigureKind::seconds);
      c.gemm_descriptor_switch_s =
          optional_sourced(gemm, "gemm", "descriptor_switch", FigureKind::seconds);
    }
    if (root_.contains("blocks")) c.small_blocks = read_small_blocks();
    if (root_.contains("overlap")) {
      const toml::table& overlap = section("overlap", {"exponent"});
      c.overlap_exponent = sourced(overlap, "overlap", "exponent", FigureKind::exponent);
    }
    const toml::table& fixed =
        section("fixed", {"kernel_floor", "graph_kernel_floor", "graph_repeat_floor",
                          "graph_chain_floor", "launch_overhead", "eager_pytorch_op"});
    c.kernel_floor_s = sourced(fixed, "fixed", "kernel_floor", FigureKind::seconds);
    c.graph_kernel_floor_s = sourced(fixed, "fixed", "graph_kernel_floor", FigureKind::seconds);
    c.graph_repeat_floor_s =
        optional_sourced(fixed, "fixed", "graph_repeat_floor", FigureKind::seconds);
    c.graph_chain_floor_s =
        optional_sourced(fixed, "fixed", "graph_chain_floor", FigureKind::seconds);
    c.launch_overhead_s = optional_sourced(fixed, "fixed", "launch_overhead", FigureKind::seconds);
    c.eager_pytorch_op_s =
        optional_sourced(fixed, "fixed", "eager_pytorch_op", FigureKind::seconds);
    const toml::table& attention =
        section("attention", {"efficiency_d64", "efficiency_d128", "efficiency_d256",
                              "trtllm_efficiency_d128", "trtllm_query_tiles", "block_overhead",
                              "decode_block_overhead", "trtllm_gen_mla"});
    c.attention_efficiency_d64 =
        sourced(attention, "attention", "efficiency_d64", FigureKind::fraction);
    c.attention_efficiency_d128 =
        sourced(attention, "attention", "efficiency_d128", FigureKind::fraction);
    c.attention_efficiency_d256 =
        optional_sourced(attention, "attention", "efficiency_d256", FigureKind::fraction);
    c.attention_trtllm_efficiency_d128 =
        optional_sourced(attention, "attention", "trtllm_efficiency_d128", FigureKind::fraction);
    c.attention_trtllm_query_tiles =
        optional_sourced(attention, "attention", "trtllm_query_tiles", FigureKind::count);
    c.attention_block_overhead_s =
        optional_sourced(attention, "attention", "block_overhead", FigureKind::seconds);
    c.attention_decode_block_overhead_s =
        optional_sourced(attention, "attention", "decode_block_overhead", FigureKind::seconds);
    if (attention.contains("trtllm_gen_mla"))
      c.attention_trtllm_gen_mla = library_fact(attention, "attention", "trtllm_gen_mla");
    const toml::table& collective = section("collective", {"link_efficiency",
                                                           "latency",
                                                           "step_latency",
                                                           "local_step",
                                                           "ll_bandwidth",
                                                           "ll_max_bus_bandwidth",
                                                           "ll128_latency",
                                                           "ll128_step_latency",
                                                           "ll128_bandwidth",
                                                           "simple_latency",
                                                           "simple_step_latency",
                                                           "simple_bandwidth",
                                                           "p2p_channels",
                                                           "p2p_channel_bandwidth",
                                                           "nvls_latency",
                                                           "nvls_bandwidth",
                                                           "custom_latency",
                                                           "two_shot_share",
                                                           "sm_version",
                                                           "pull_barrier_latency",
                                                           "pull_share",
                                                           "pull_peer_read_latency",
                                                           "pull_two_stage_barrier"});
    c.link_efficiency = sourced(collective, "collective", "link_efficiency", FigureKind::fraction);
    c.collective_latency_s = sourced(collective, "collective", "latency", FigureKind::seconds);
    c.collective_step_latency_s =
        optional_sourced(collective, "collective", "step_latency", FigureKind::seconds);
    c.collective_local_step =
        optional_sourced(collective, "collective", "local_step", FigureKind::fraction);
    c.collective_ll_bandwidth =
        optional_sourced(collective, "collective", "ll_bandwidth", FigureKind::fraction);
    c.collective_ll_max_bus_bandwidth =
        optional_sourced(collective, "collective", "ll_max_bus_bandwidth", FigureKind::bytes_per_s);
    read_together(
        collective, "collective", {"p2p_channels", FigureKind::count, c.collective_p2p_channels},
        {"p2p_channel_bandwidth", FigureKind::bytes_per_s, c.collective_p2p_channel_bandwidth});
    read_together(collective, "collective",
                  {"nvls_latency", FigureKind::seconds, c.collective_nvls_latency_s},
                  {"nvls_bandwidth", FigureKind::fraction, c.collective_nvls_bandwidth});
    c.collective_custom_latency_s =
        optional_sourced(collective, "collective", "custom_latency", FigureKind::seconds);
    c.collective_two_shot_share =
        optional_sourced(collective, "collective", "two_shot_share", FigureKind::fraction);
    c.collective_sm_version =
        optional_sourced(collective, "collective", "sm_version", FigureKind::count);
    read_pull_allreduce(collective, c);
    for (const auto& [key, name] : {std::pair{"ll128", "LL128"}, std::pair{"simple", "Simple"}}) {
      if (auto protocol = read_protocol(collective, key, name))
        c.collective_protocols.push_back(std::move(*protocol));
    }
    if (root_.contains("power")) {
      const toml::table& power = section("power", {"sustained_clock", "clock_time_constant"});
      c.power_limit =
          PowerLimit{sourced(power, "power", "sustained_clock", FigureKind::fraction),
                     sourced(power, "power", "clock_time_constant", FigureKind::seconds)};
    }
    if (root_.contains("weight_only")) {
      const toml::table& weight_only =
          section("weight_only", {"torch_reduction", "torch_8bit", "torch_4bit"});
      c.torch_reduction =
          optional_sourced(weight_only, "weight_only", "torch_reduction", FigureKind::fraction);
      c.torch_weight_only_8bit =
          optional_sourced(weight_only, "weight_only", "torch_8bit", FigureKind::fraction);
      c.torch_weight_only_4bit =
          optional_sourced(weight_only, "weight_only", "torch_4bit", FigureKind::fraction);
    }
    return c;
  }

 private:
  // A section that must be there; an empty `allowed` accepts any key (checked by the caller).
  const toml::table& section(std::string_view key,
                             std::initializer_list<std::string_view> allowed) const {
    const toml::table& t = as_table(required(root_, "", key), key);
    if (allowed.size() > 0) expect_keys(t, key, allowed);
    return t;
  }

  // Every calibration figure names where it came from, derived ones included: an efficiency
  // without a source is a tuned constant.
  Figure sourced(const toml::table& t, std::string_view path, std::string_view key,
                 FigureKind kind) const {
    const toml::node& node = required(t, path, key);
    const std::string field = join(path, key);
    return with_source(figure(node, field, kind), node, field);
  }

  // The entry, where it names a source (a derived one names none): else bad input.
  template <class Sourced>
  Sourced with_source(Sourced entry, const toml::node& node, const std::string& field) const {
    if (entry.source.empty()) fail(node.source(), field, "names no source");
    return entry;
  }

  std::optional<Figure> optional_sourced(const toml::table& t, std::string_view path,
                                         std::string_view key, FigureKind kind) const {
    if (!t.contains(key)) return std::nullopt;
    return sourced(t, path, key, kind);
  }

  // A value as a message quotes it: a string in quotes, a number as written, else its kind.
  static std::string shown(const toml::node& value) {
    if (const auto text = value.value_exact<std::string>())
      return fmt::format("'{}'", json_input_detail::printable(*text));
    if (const auto number = value.value<double>()) return fmt::format("{:g}", *number);
    return value.is_table() ? "a table" : value.is_array() ? "an array" : "a date or time";
  }

  // { value = true or false, provenance, source, note }: whether the library does a thing.
  LibraryFact library_fact(const toml::table& t, std::string_view path,
                           std::string_view key) const {
    const toml::node& node = required(t, path, key);
    const std::string field = join(path, key);
    const auto read_holds = [&](const toml::table& entry, LibraryFact& fact) {
      const toml::node& value = required(entry, field, "value");
      const auto holds = value.value_exact<bool>();
      if (!holds)
        fail(value.source(), join(field, "value"),
             fmt::format("{} must be true or false", shown(value)));
      fact.holds = *holds;
    };
    return with_source(sourced_entry<LibraryFact>(node, field, read_holds), node, field);
  }

  // A protocol's '<key>_latency', '<key>_step_latency' and optional '<key>_bandwidth'; none when
  // the profile gives no latency for it. A latency without its step latency is bad input.
  std::optional<CollectiveProtocol> read_protocol(const toml::table& collective,
                                                  const std::string& key, std::string name) const {
    if (!collective.contains(key + "_latency")) return std::nullopt;
    return CollectiveProtocol{
        std::move(name), sourced(collective, "collective", key + "_latency", FigureKind::seconds),
        sourced(collective, "collective", key + "_step_latency", FigureKind::seconds),
        optional_sourced(collective, "collective", key + "_bandwidth", FigureKind::fraction)};
  }

  // Whether the table gives either of a pair of figures that come together: then both must be
  // there, and reading the one missing is bad input naming it.
  static bool gives_either(const toml::table& t, std::string_view first, std::string_view second) {
    return t.contains(first) || t.contains(second);
  }

  // A figure of a section, its key and kind, and where it goes.
  struct PairedFigure {
    std::string_view key;
    FigureKind kind;
    std::optional<Figure>& into;
  };

  // Two figures of the section at `path` that come together, both or neither: NCCL's p2p
  // channels and what one moves (a rate needs its channels), NVLS's latency and its share of the
  // link, the L2's two reaches, the fixed-grid amax's floor and rate.
  void read_together(const toml::table& t, std::string_view path, const PairedFigure& first,
                     const PairedFigure& second) const {
    if (!gives_either(t, first.key, second.key)) return;
    first.into = sourced(t, path, first.key, first.kind);
    second.into = sourced(t, path, second.key, second.kind);
  }

  // vLLM's custom all-reduce: its barrier, share and two-stage barrier together or none; the
  // peer read latency with them or alone absent.
  void read_pull_allreduce(const toml::table& collective, Calibration& c) const {
    if (!gives_either(collective, "pull_barrier_latency", "pull_share") &&
        !gives_either(collective, "pull_peer_read_latency", "pull_two_stage_barrier"))
      return;
    c.collective_pull_allreduce = PullAllreduce{
        sourced(collective, "collective", "pull_barrier_latency", FigureKind::seconds),
        sourced(collective, "collective", "pull_share", FigureKind::fraction),
        optional_sourced(collective, "collective", "pull_peer_read_latency", FigureKind::seconds),
        sourced(collective, "collective", "pull_two_stage_barrier", FigureKind::seconds)};
  }

  // 'l2_hit_all_to' and 'l2_hit_none_from', both or neither, the second past the first: the
  // share the L2 serves falls from all to none between them.
  void read_l2_hits(const toml::table& memory, Calibration& c) const {
    read_together(memory, "memory", {"l2_hit_all_to", FigureKind::multiple, c.l2_hit_all_to},
                  {"l2_hit_none_from", FigureKind::multiple, c.l2_hit_none_from});
    if (!c.l2_hit_all_to) return;
    if (c.l2_hit_none_from->value <= c.l2_hit_all_to->value) {
      fail(required(memory, "memory", "l2_hit_none_from").source(), "memory.l2_hit_none_from",
           fmt::format("{:g} must be more than memory.l2_hit_all_to ({:g})",
                       c.l2_hit_none_from->value, c.l2_hit_all_to->value));
    }
  }

  // '[blocks]': what an SM holds and how long a small block lives, all three or none.
  SmallBlocks read_small_blocks() const {
    const toml::table& blocks =
        section("blocks", {"max_threads_per_sm", "max_blocks_per_sm", "small_block_life"});
    return {sourced(blocks, "blocks", "max_threads_per_sm", FigureKind::count),
            sourced(blocks, "blocks", "max_blocks_per_sm", FigureKind::count),
            sourced(blocks, "blocks", "small_block_life", FigureKind::seconds)};
  }

  std::vector<std::string> read_devices() const {
    const toml::node& node = required(root_, "", "devices");
    const toml::array* array = node.as_array();
    if (!array || array->empty()) fail(node.source(), "devices", "must list device ids");
    std::vector<std::string> ids;
    for (const toml::node& id : *array) {
      auto text = id.value_exact<std::string>();
      if (!text || text->empty()) fail(id.source(), "devices", "each id must be a string");
      ids.push_back(*text);
    }
    return ids;
  }

  const toml::table& root_;
};

std::vector<Calibration> parse_builtin() {
  std::vector<Calibration> profiles;
  for (const embedded::File& file : embedded::calibration_files()) {
    profiles.push_back(
        parse_calibration_toml(file.text, "data/calibration/" + std::string(file.name)));
  }
  return profiles;
}

std::vector<Calibration>& user_profiles() {
  static std::vector<Calibration> profiles;
  return profiles;
}

const Calibration* profile_listing(std::string_view id) {
  const std::vector<Calibration>* lists[] = {&user_profiles(), &builtin_calibrations()};
  for (const std::vector<Calibration>* profiles : lists) {
    for (const Calibration& c : *profiles) {
      if (std::ranges::find(c.devices, id) != c.devices.end()) return &c;
    }
  }
  return nullptr;
}

// A profile's tensor rates at the clock its power limit sustains, as a long run meets them.
Calibration sustained(const Calibration& profile) {
  return profile.power_limit ? at_clock(profile, profile.power_limit->sustained_clock.value)
                             : profile;
}

bool is_measured(const Device& device) {
  return device.main_memory().bandwidth_bytes_per_s->provenance == Provenance::measured;
}

// The share of a measured peak that the device's fastest measured GEMM reached (its floor and
// any packing taken out): 1 where no GEMM was timed at that precision or the peak is itself a
// GEMM's (cuBLASLt on a GPU); below 1 where the peak is an FMA kernel's and BLAS reaches less
// (OpenBLAS sgemm on a CPU).
Figure measured_gemm_share(const Device& device, const Calibration& c, Precision precision,
                           const Figure& peak) {
  double best = 0;
  for (const MeasuredGemm& g : device.measured_gemms) {
    if (g.precision == precision) best = std::max(best, measured_compute_share(g, device, c));
  }
  if (best <= 0) return {1, Provenance::measured, peak.source, "the measured peak is the ceiling"};
  return {best, Provenance::measured, peak.source,
          "the fastest GEMM of the measured sweep, its floor and packing taken out, over the "
          "measured peak"};
}

// A measured device's ceilings are what its kernels reached: the bandwidth's share is 1 and the
// peaks' what its fastest GEMM reached, sourced to the measurement; what a measurement does not
// cover (kernel floors, attention, collectives) comes from the profile of the part it ran on.
Calibration from_measurement(const Device& device, const Calibration* spec_profile) {
  Calibration c = spec_profile ? sustained(*spec_profile) : Calibration{};
  c.power_limit.reset();  // its peaks were measured at the clock it held
  const Figure& bandwidth = *device.main_memory().bandwidth_bytes_per_s;
  c.id = device.origin;
  c.name = bandwidth.source;
  c.measured = true;
  c.basis = spec_profile ? fmt::format(
                               "measured on this device; fixed costs, attention and "
                               "collectives from the {} profile",
                               spec_profile->id)
                         : "measured on this device";
  c.bandwidth_efficiency = {1, Provenance::measured, bandwidth.source,
                            "the measured bandwidth is the ceiling"};
  c.gemm_bandwidth_efficiency.reset();  // its GEMMs are measured too
  c.grouped_gemm_bandwidth_efficiency.reset();
  c.latent_decode_bandwidth_efficiency.reset();
  // The L2 feed is a GPU tile's; a CPU's BLAS blocks for its own caches, per core.
  c.l2_bandwidth_bytes_per_s.reset();
  c.l2_reread_bytes_per_s.reset();
  for (const MemoryLevel& level : device.memory) {
    if (!device.is_cpu() && level.kind == MemoryKind::cache && level.bandwidth_bytes_per_s &&
        level.bandwidth_bytes_per_s->provenance == Provenance::measured)
      c.l2_bandwidth_bytes_per_s = level.bandwidth_bytes_per_s;
  }
  if (!spec_profile) {
    const std::string why =
        "estimate: a few microseconds per kernel; no profile for this part to take it from";
    c.kernel_floor_s = {3e-6, Provenance::estimate, why, ""};
    c.graph_kernel_floor_s = {1.5e-6, Provenance::estimate, why, ""};
    c.attention_efficiency_d64 = c.attention_efficiency_d128 = {
        0.5, Provenance::estimate, "estimate: half the peak, the FlashAttention papers' low end",
        ""};
    c.link_efficiency = {0.41, Provenance::estimate,
                         "estimate: a ring's busbw over a both-way NVLink figure, as on Hopper",
                         ""};
    c.collective_latency_s = {10e-6, Provenance::estimate, "estimate", ""};
  }
  std::map<Precision, Figure> shares;
  for (const auto& [precision, peak] : device.peak_flops_per_s)
    shares[precision] = measured_gemm_share(device, c, precision, peak);
  c.compute_efficiency = std::move(shares);
  c.measured_gemms = calibrated_gemms(device, c);
  return c;
}

const Calibration* spec_profile_of(const Device& device) {
  for (const std::string& name : device.runtime_names) {
    if (const Device* spec = Catalog::builtin().find_by_runtime_name(name))
      return profile_listing(spec->id);
  }
  return nullptr;
}

}  // namespace

double Calibration::l2_hit_share(double working_set_over_capacity) const {
  // Without the profile's figures: the A100's and Hopper's L2 is two partitions, each caching
  // what its own SMs read (their whitepapers), so a set every SM reads is held in half of it.
  constexpr double kPartitionedL2Share = 0.5;
  if (!l2_hit_all_to || !l2_hit_none_from)
    return working_set_over_capacity <= kPartitionedL2Share ? 1 : 0;
  const double all = l2_hit_all_to->value, none = l2_hit_none_from->value;
  return std::clamp((none - working_set_over_capacity) / (none - all), 0.0, 1.0);
}

double PowerLimit::held_clock(double busy_share) const {
  if (busy_share <= 0) return 1;
  return std::min(1.0, sustained_clock.value / std::cbrt(std::min(1.0, busy_share)));
}

double PowerLimit::mean_clock(double start_s, double end_s, double busy_share) const {
  // From the boost clock (1) at the load's start the clock falls as
  // held + (1 - held) exp(-t / tau); its mean over the window, or its value at a point.
  const double held = held_clock(busy_share), tau = clock_time_constant_s.value;
  const double above = 1 - held;
  if (end_s - start_s < 1e-9 * tau) return held + above * std::exp(-start_s / tau);
  return held +
         above * tau * (std::exp(-start_s / tau) - std::exp(-end_s / tau)) / (end_s - start_s);
}

Calibration at_clock(Calibration c, double clock_share) {
  const double scale = clock_share / c.clock_share;
  const auto scaled = [scale](Figure& f) { f.value *= scale; };
  for (auto& [precision, share] : c.compute_efficiency) scaled(share);
  scaled(c.attention_efficiency_d64);
  scaled(c.attention_efficiency_d128);
  if (c.attention_efficiency_d256) scaled(*c.attention_efficiency_d256);
  if (c.attention_trtllm_efficiency_d128) scaled(*c.attention_trtllm_efficiency_d128);
  c.clock_share = clock_share;
  return c;
}

Calibration parse_calibration_toml(std::string_view text, const std::string& origin) {
  const toml::table root = parse_toml_input(text, origin);
  return CalibrationReader(root, origin).read();
}

const std::vector<Calibration>& builtin_calibrations() {
  static const std::vector<Calibration> profiles = parse_builtin();
  return profiles;
}

Calibration load_calibration_file(const std::string& path) {
  const std::optional<std::string> text = read_text_file(path);
  if (!text) input_error("cannot read calibration file '{}'", path);
  return parse_calibration_toml(*text, path);
}

void use_calibration(Calibration profile) {
  user_profiles().insert(user_profiles().begin(), std::move(profile));
}

void forget_user_calibrations() { user_profiles().clear(); }

std::optional<Calibration> find_calibration(const Device& device) {
  if (is_measured(device)) return from_measurement(device, spec_profile_of(device));
  if (const Calibration* profile = profile_listing(device.id)) {
    Calibration c = sustained(*profile);
    const bool shipped = std::ranges::any_of(builtin_calibrations(),
                                             [&](const Calibration& b) { return &b == profile; });
    c.basis = shipped ? fmt::format("the shipped {} profile (data/calibration/{}.toml)", c.id, c.id)
                      : fmt::format("the {} profile given with --calibration", c.id);
    return c;
  }
  return std::nullopt;
}

}  // namespace ridge
