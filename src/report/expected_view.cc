// The expected time's calibration, and `ridge validate`'s document.
#include <fmt/format.h>

#include <tuple>

#include "core/text.h"
#include "report/cells.h"
#include "ridge/units.h"
#include "ridge/views.h"

namespace ridge::report {

namespace {

// A figure (or a library fact) with its provenance and source, as three fields.
template <class Sourced>
void add_figure(std::vector<Field>& fields, const std::string& key, const std::string& label,
                const Sourced& f, Cell value) {
  fields.push_back({key, label, std::move(value)});
  fields.push_back({key + "_provenance", label + " provenance",
                    text_cell(std::string(to_string(f.provenance)))});
  fields.push_back({key + "_source", label + " source",
                    text_cell(f.note.empty() ? f.source : f.source + "; " + f.note)});
}

// Why an expected time is extrapolated: a shipped profile, or a shape its device did not measure.
Cell extrapolated_cell(const Calibration& c, bool extrapolated) {
  if (!extrapolated) return bool_cell(false, "no");
  return bool_cell(true, c.measured ? "yes: outside the measured sweep, the model alone"
                                    : "yes: not measured on this device");
}

// Which calibration applies, how, and whether the answer lies beyond what it measured.
std::vector<Field> calibration_header(const Calibration& c, bool extrapolated) {
  return {
      {"id", "calibration", text_cell(c.id)},
      {"source", "applies as", text_cell(c.basis)},
      {"provenance", "provenance",
       text_cell(c.measured ? "measured on this device"
                            : "shipped profile: measured on its "
                              "architecture, documented or estimated, "
                              "figure by figure below")},
      {"extrapolated", "extrapolated", extrapolated_cell(c, extrapolated)},
  };
}

// The section, closed by the figure every expected time pays: one kernel's floor.
Section calibration_closed(std::vector<Field> fields, const Calibration& c) {
  add_figure(fields, "kernel_floor_s", "kernel floor", c.kernel_floor_s,
             time_cell(c.kernel_floor_s.value));
  return {"calibration", "Calibration of the expected time", {Fields{std::move(fields)}}, {}};
}

}  // namespace

Section calibration_section(const Calibration& c, Precision precision, bool extrapolated) {
  std::vector<Field> fields = calibration_header(c, extrapolated);
  const Figure& compute = c.compute_efficiency.at(precision);
  add_figure(fields, "compute_efficiency", fmt::format("{} peak reached", to_string(precision)),
             compute, percent_cell(compute.value));
  if (c.power_limit) {
    add_figure(fields, "clock_share", "clock its power limit holds", c.power_limit->sustained_clock,
               number_cell(c.clock_share, fmt::format("{:.1f}% of the boost clock (the share "
                                                      "above, and attention's, at it)",
                                                      100 * c.clock_share)));
  }
  add_figure(fields, "bandwidth_efficiency", "bandwidth reached", c.bandwidth_efficiency,
             percent_cell(c.bandwidth_efficiency.value));
  for (const auto& [figure, key, label] :
       {std::tuple{&c.gemm_bandwidth_efficiency, "gemm_bandwidth_efficiency",
                   "bandwidth a GEMM reaches"},
        std::tuple{&c.grouped_gemm_bandwidth_efficiency, "grouped_gemm_bandwidth_efficiency",
                   "bandwidth a grouped GEMM reaches"},
        std::tuple{&c.latent_decode_bandwidth_efficiency, "latent_decode_bandwidth_efficiency",
                   "bandwidth latent decode reaches"}}) {
    if (*figure) add_figure(fields, key, label, **figure, percent_cell((*figure)->value));
  }
  // Rates in bytes a second, each with what it moves.
  for (const auto& [figure, key, label, what] :
       {std::tuple{&c.streaming_bytes_per_s_per_unit, "streaming_bytes_per_s_per_unit",
                   "element-wise per SM", "reads and writes"},
        std::tuple{&c.l2_streaming_bytes_per_s_per_unit, "l2_streaming_bytes_per_s_per_unit",
                   "element-wise per SM, data in the L2", "reads and writes"},
        std::tuple{&c.read_streaming_bytes_per_s_per_unit, "read_streaming_bytes_per_s_per_unit",
                   "read-only stream per SM", "reads alone"},
        std::tuple{&c.l2_bandwidth_bytes_per_s, "l2_bytes_per_s", "L2 into the SMs",
                   "what feeds a GEMM's tiles"},
        std::tuple{&c.l2_reread_bytes_per_s, "l2_reread_bytes_per_s", "L2 read again",
                   "what CTAs sharing data read after the first"}}) {
    if (!*figure) continue;
    const double rate = (*figure)->value;
    add_figure(fields, key, label, **figure,
               number_cell(rate, fmt::format("{} ({})", units::si(rate, "B/s"), what)));
  }
  if (c.overlap_exponent) {
    add_figure(fields, "overlap_exponent", "overlap exponent", *c.overlap_exponent,
               number_cell(c.overlap_exponent->value,
                           fmt::format("{:g} (compute and memory add as their {:g}-norm)",
                                       c.overlap_exponent->value, c.overlap_exponent->value)));
  }
  if (c.gemm_stream_k) {
    add_figure(fields, "gemm_stream_k", "GEMM stream-K", *c.gemm_stream_k,
               bool_cell(c.gemm_stream_k->holds, c.gemm_stream_k->holds
                                                     ? "offered by the library"
                                                     : "not offered: whole tiles in waves"));
  }
  if (c.attention_trtllm_gen_mla) {
    add_figure(fields, "attention_trtllm_gen_mla", "latent decode on trtllm-gen",
               *c.attention_trtllm_gen_mla,
               bool_cell(c.attention_trtllm_gen_mla->holds,
                         c.attention_trtllm_gen_mla->holds
                             ? "its cache read once a tile of query heads, as dispatched"
                             : "its cache read once"));
  }
  if (c.gemm_multicast) {
    const double tiles = c.gemm_multicast->value;
    add_figure(
        fields, "gemm_multicast", "GEMM tiles a cluster", *c.gemm_multicast,
        number_cell(tiles, fmt::format("{:g} (they share each load of one operand)", tiles)));
  }
  return calibration_closed(std::move(fields), c);
}

Section collective_calibration_section(const Calibration& c, bool extrapolated) {
  std::vector<Field> fields = calibration_header(c, extrapolated);
  add_figure(fields, "link_efficiency", "link bandwidth reached", c.link_efficiency,
             percent_cell(c.link_efficiency.value));
  add_figure(fields, "latency_s", "latency a call", c.collective_latency_s,
             time_cell(c.collective_latency_s.value));
  if (c.collective_step_latency_s) {
    add_figure(fields, "step_latency_s", "latency a ring step", *c.collective_step_latency_s,
               time_cell(c.collective_step_latency_s->value));
  }
  if (c.collective_local_step) {
    add_figure(fields, "local_step", "step that sends nothing", *c.collective_local_step,
               number_cell(c.collective_local_step->value,
                           fmt::format("{:g} of a sending step", c.collective_local_step->value)));
  }
  if (c.collective_p2p_channels && c.collective_p2p_channel_bandwidth) {
    const double channels = c.collective_p2p_channels->value;
    const double rate = c.collective_p2p_channel_bandwidth->value;
    add_figure(
        fields, "p2p_channels", "NCCL p2p channels", *c.collective_p2p_channels,
        number_cell(channels, fmt::format("{:g} (an all-to-all's peers share them)", channels)));
    add_figure(fields, "p2p_channel_bandwidth_bytes_per_s", "one p2p channel's rate",
               *c.collective_p2p_channel_bandwidth, number_cell(rate, units::si(rate, "B/s")));
  }
  if (c.collective_nvls_latency_s && c.collective_nvls_bandwidth) {
    add_figure(fields, "nvls_latency_s", "NVLS latency a call", *c.collective_nvls_latency_s,
               time_cell(c.collective_nvls_latency_s->value));
    add_figure(fields, "nvls_bandwidth", "NVLS link bandwidth reached",
               *c.collective_nvls_bandwidth, percent_cell(c.collective_nvls_bandwidth->value));
  }
  return calibration_closed(std::move(fields), c);
}

namespace {

// "llm_inference S3: request latency" -> "llm_inference_s3_request_latency": a JSON key.
std::string snake_key(const std::string& name) {
  std::string key;
  for (const std::string& word : lower_words(name)) {
    if (!key.empty()) key += '_';
    key += word;
  }
  return key;
}

Cell error_cell(std::optional<double> error) {
  if (!error) return empty_cell();
  return number_cell(*error, fmt::format("{:+.1f}%", 100 * *error));
}

Table sets_table(const std::vector<ValidationSet>& sets) {
  Table t{"sets",
          {{"name", "set", Align::left},
           {"role", "role", Align::left},
           {"points", "points"},
           {"median_bound_ratio", "measured/bound"},
           {"median_abs_error", "median |err|"},
           {"p90_abs_error", "p90 |err|"},
           {"bias", "bias"},
           {"within_10", "<=10%"},
           {"within_25", "<=25%"},
           {"bound_broken", "bound broken"},
           {"target", "target", Align::left}},
          {}};
  for (const ValidationSet& s : sets) {
    const ValidationStats& st = s.stats;
    // A set with no expected time has no errors: none, not zero.
    const bool priced = st.count > 0;
    const auto share = [&](double value, int decimals) {
      return priced ? percent_cell(value, decimals) : empty_cell();
    };
    t.rows.push_back({text_cell(s.name), text_cell(std::string(to_string(s.role))),
                      integer_cell(st.count), ratio_cell(st.median_bound_ratio),
                      share(st.median_abs_error, 1), share(st.p90_abs_error, 1),
                      error_cell(priced ? std::optional(st.bias) : std::nullopt),
                      share(st.within_10, 0), share(st.within_25, 0), integer_cell(st.bound_broken),
                      text_cell(target_verdict(s))});
  }
  return t;
}

// How many held-out sets (with expected times) meet their target, of how many.
std::pair<int, int> held_out_meeting_target(const std::vector<ValidationSet>& sets) {
  int judged = 0, met = 0;
  for (const ValidationSet& s : sets) {
    if (s.role != ValidationRole::held_out || s.stats.count == 0) continue;
    ++judged;
    met += meets_target(s) ? 1 : 0;
  }
  return {met, judged};
}

Table points_table(const ValidationSet& s) {
  Table t{"points",
          {{"line", "line"},
           {"label", "point", Align::left},
           {"device", "device", Align::left},
           {"quantity", "quantity", Align::left},
           {"measured_s", "measured"},
           {"bound_s", "bound"},
           {"expected_s", "expected"},
           {"error", "error"},
           {"note", "note", Align::left}},
          {}};
  for (const ValidationPoint& p : s.points) {
    std::string note = p.excluded ? "excluded: " + p.reason : p.remark;
    if (p.bound_broken()) note = "BOUND ABOVE MEASUREMENT";
    t.rows.push_back({integer_cell(p.line), text_cell(p.label), text_cell(p.device_id),
                      text_cell(p.quantity), time_cell(p.measured_s), time_cell(p.bound_s),
                      p.expected_s ? time_cell(*p.expected_s) : empty_cell("bound only"),
                      error_cell(p.error()), text_cell(note)});
  }
  return t;
}

// A heading and its items, one a line.
Paragraph listed(std::string heading, const std::vector<std::string>& items) {
  for (const std::string& item : items) heading += "\n  " + item;
  return Paragraph{std::move(heading)};
}

}  // namespace

Document validation_document(const std::vector<ValidationSet>& sets, bool summary) {
  Document doc;
  doc.schema = "ridge.validation/1";
  doc.title = "The bound and the expected time against published measurements";
  doc.sections.push_back({"", "", {sets_table(sets)}, {}});
  int broken = 0;
  for (const ValidationSet& s : sets) {
    broken += s.stats.bound_broken;
    if (summary) continue;
    std::vector<Block> blocks{Paragraph{s.source}, points_table(s)};
    if (!s.presumptions.empty()) blocks.emplace_back(listed("read as:", s.presumptions));
    if (!s.skipped.empty()) blocks.emplace_back(listed("not priced:", s.skipped));
    doc.sections.push_back(
        {snake_key(s.name), s.name + " (" + s.file + ")", std::move(blocks), {}});
  }
  const auto [met, judged] = held_out_meeting_target(sets);
  doc.sections.push_back(
      {"",
       "",
       {Paragraph{fmt::format("{} of {} held-out sets meet their target; {} bound{} above a "
                              "measurement.",
                              met, judged, broken, broken == 1 ? "" : "s")}},
       {{"bound_broken", "bounds above a measurement", integer_cell(broken)},
        {"held_out_sets", "held-out sets", integer_cell(judged)},
        {"held_out_meeting_target", "held-out sets meeting their target", integer_cell(met)}}});
  doc.check_failed = broken > 0;
  doc.notes = {
      "error = (expected - measured) / measured; bias is its median: positive when ridge expects "
      "longer than was measured",
      "held-out sets set no figure of the model; a fit set is where a calibration figure came "
      "from, and its error proves nothing (docs/predict.md)",
      "a bound above a measurement breaks the roofline's promise: ridge validate then exits 1",
      "target, for a held-out set: kernels median |err| <= 10% and p90 <= 25%, whole models "
      "median <= 15%, no bound broken; met or what missed it",
  };
  return doc;
}

}  // namespace ridge::report
