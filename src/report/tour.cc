// The tour: the roofline explained in eight demonstrations on one device. Every figure comes from
// the catalog through the library's model functions; this file only chooses the examples, lays
// out the tables and words the commentary.
#include "ridge/tour.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/cells.h"
#include "ridge/analysis.h"
#include "ridge/bounds.h"
#include "ridge/collective.h"
#include "ridge/occupancy.h"
#include "ridge/op.h"
#include "ridge/units.h"

namespace ridge {

namespace {

using report::Align;
using report::Cell;
using report::Document;
using report::Fields;
using report::number_cell;
using report::Paragraph;
using report::Section;
using report::Table;
using report::text_cell;

constexpr double kGiga = 1e9;
constexpr double kMega = 1e6;
constexpr double kExampleParams = 7e9;  // the "7B model" of the examples

std::string fixed(double value, int decimals) { return fmt::format("{:.{}f}", value, decimals); }

// A number cell that reads as the value in the given unit scale with fixed decimals.
Cell scaled(double value, double scale, int decimals, std::string_view unit) {
  return number_cell(value, fmt::format("{} {}", fixed(value / scale, decimals), unit));
}

report::Field fact(std::string key, double value) {
  return {std::move(key), "", number_cell(value, "")};
}

// The tour's working precision: fp16 (the tensor-core format of the examples), else bf16.
Precision tour_precision(const Device& d) {
  if (d.has_peak(Precision::fp16)) return Precision::fp16;
  if (d.has_peak(Precision::bf16)) return Precision::bf16;
  return d.peak_flops_per_s.begin()->first;
}

// What the vendor calls its matrix-multiply units.
std::string matrix_units(const Device& d) {
  if (d.vendor == "measured") return "vector units";
  return d.vendor == "AMD" ? "matrix cores" : "tensor cores";
}

struct Context {
  const Catalog& catalog;
  const Device& device;
  Precision precision;
  Ceiling ceiling;
  double elem;        // bytes per element at the working precision
  double rate_scale;  // 1e12 (T) for accelerators, 1e9 (G) for parts below a TFLOP/s
  std::string prefix;
  std::string source;  // "published" or "measured": where the device's ceilings come from

  std::string flops_unit() const { return prefix + "F/s"; }
  std::string bytes_unit() const { return prefix + "B/s"; }
};

// How the tour names a figure's provenance in prose.
std::string provenance_word(const Figure& f) {
  switch (f.provenance) {
    case Provenance::spec:
      return "published";
    case Provenance::estimate:
      return "estimated";
    case Provenance::measured:
      return "measured";
    case Provenance::derived:
      return "derived";
    case Provenance::fitted:
      return "fitted";
  }
  return "";
}

// ---------------------------------------------------------------- 1: the hierarchy

std::string bandwidth_text(const Figure& f) {
  return (f.provenance == Provenance::estimate ? "~" : "") + units::si(f.value, "B/s", 3);
}

std::vector<Cell> hierarchy_row(const std::string& name, const std::string& reach,
                                const std::optional<Figure>& capacity,
                                const std::optional<Figure>& bandwidth,
                                const std::optional<Figure>& latency, double peak) {
  std::vector<Cell> row{text_cell(name), text_cell(reach)};
  row.push_back(capacity ? report::capacity_cell(capacity->value) : report::empty_cell());
  row.push_back(bandwidth ? number_cell(bandwidth->value, bandwidth_text(*bandwidth))
                          : report::empty_cell());
  if (latency) {
    row.push_back(scaled(latency->value, 1e-9, 0, "ns"));
    row.push_back(number_cell(std::round(peak * latency->value), fixed(peak * latency->value, 0)));
  } else {
    row.push_back(report::empty_cell());
    row.push_back(report::empty_cell());
  }
  return row;
}

std::string reach_of(const MemoryLevel& m, const Device& d) {
  if (m.scope == Scope::unit) return "one " + d.unit_name;
  return "whole chip";
}

Section hierarchy(const Context& c) {
  const Device& d = c.device;
  const double peak = c.ceiling.peak_flops_per_s;
  Table t{"levels",
          {{"level", "level", Align::left},
           {"reach", "reach", Align::left},
           {"capacity_bytes", "capacity"},
           {"bandwidth_bytes_per_s", "bandwidth"},
           {"latency_s", "latency*"},
           {"flops_forgone", "FLOPs forgone"}},
          {}};
  for (const MemoryLevel& m : d.memory) {
    t.rows.push_back(hierarchy_row(m.name, reach_of(m, d), m.capacity_bytes,
                                   m.bandwidth_bytes_per_s, m.latency_s, peak));
  }
  for (const Link& l : d.links) {
    if (l.kind == LinkKind::host) continue;
    const std::string reach = l.kind == LinkKind::scale_up ? "same node" : "other nodes";
    t.rows.push_back(
        hierarchy_row(l.name, reach, std::nullopt, l.bandwidth_bytes_per_s, l.latency_s, peak));
  }
  Section s{"hierarchy", "1. Memory hierarchy: fast storage is small, big storage is far", {}, {}};
  s.blocks.push_back(Paragraph{fmt::format(
      "Device: {} ({}). Capacities and bandwidths are published specifications unless marked "
      "'~'; `ridge device show {}` names the document behind each.",
      d.name, d.id, d.id)});
  s.blocks.push_back(std::move(t));
  const MemoryLevel& main = d.main_memory();
  const bool has_latencies =
      std::ranges::any_of(d.memory, [](const MemoryLevel& m) { return m.latency_s.has_value(); });
  std::string text =
      has_latencies ? fmt::format(
                          "* latencies are literature estimates, right to about a factor of two; "
                          "vendors do not publish them. 'FLOPs forgone' is the {} peak multiplied "
                          "by the latency: the arithmetic the chip could have finished while "
                          "waiting for one access.",
                          to_string(c.precision))
                    : std::string("* the catalog has no latency figures for this device.");
  if (main.latency_s) {
    const double main_forgone = peak * main.latency_s->value;
    text += fmt::format("\n\nOne {} access costs about {} FLOPs of idle arithmetic", main.name,
                        fixed(main_forgone, 0));
    s.facts.push_back(fact("main_memory_flops_forgone", main_forgone));
    if (const Link* fabric = d.find_link(LinkKind::scale_up); fabric && fabric->latency_s) {
      const double fabric_forgone = peak * fabric->latency_s->value;
      text += fmt::format(", and reaching a neighbour over {} about {}", fabric->name,
                          fixed(fabric_forgone, 0));
      s.facts.push_back(fact("scale_up_flops_forgone", fabric_forgone));
    }
    text += ". Arithmetic is cheap; waiting for data is what costs.";
  }
  for (const MemoryLevel& m : d.memory) {
    if (m.kind == MemoryKind::shared && m.capacity_bytes) {
      text += fmt::format(
          "\n\nThe sizes run the other way: {} of shared memory per {} against {} of {}. "
          "Keeping a working set in that small, fast store is the whole trick of "
          "FlashAttention-style kernels.",
          units::capacity(m.capacity_bytes->value), d.unit_name,
          units::capacity(main.capacity_bytes->value), main.name);
      break;
    }
  }
  s.blocks.push_back(Paragraph{text});
  return s;
}

}  // namespace

// ---------------------------------------------------------------- 2: the roofline

std::vector<Op> tour_roofline_ops(double elem) {
  return {elementwise_add(64.0 * 1024 * 1024, elem),
          gemv(4096, 4096, elem),
          gemm(4096, 4096, 4096, elem),
          attention({.seq = 512, .d_head = 64}, elem),
          attention({.seq = 8192, .d_head = 64}, elem),
          decode_step(kExampleParams, 1, elem)};
}

namespace {

Section roofline_demo(const Context& c) {
  const double peak = c.ceiling.peak_flops_per_s;
  const double ridge = ridge_point(c.ceiling);
  Section s{
      "roofline", "2. The roofline: which side of the ridge does each operation land on?", {}, {}};
  s.blocks.push_back(Fields{{
      {"peak_flops_per_s", "compute ceiling",
       scaled(peak, c.rate_scale, 0,
              fmt::format("{}FLOP/s dense {} ({})", c.prefix, to_string(c.precision),
                          provenance_word(c.device.peak(c.precision))))},
      {"bandwidth_bytes_per_s", "memory ceiling",
       scaled(c.ceiling.bandwidth_bytes_per_s, c.rate_scale, 2,
              fmt::format("{} {} ({})", c.bytes_unit(), c.device.main_memory().name, c.source))},
      {"ridge_flops_per_byte", "ridge point",
       scaled(ridge, 1, 1, "FLOP/byte: memory-bound below, compute-bound above")},
  }});
  Table t{"ops",
          {{"op", "operation", Align::left},
           {"intensity", "FLOP/byte"},
           {"attainable_flops_per_s", "attainable"},
           {"bound", "bound"},
           {"time_s", "time >="}},
          {}};
  for (const Op& op : tour_roofline_ops(c.elem)) {
    const OpAnalysis a = analyse(op, c.device, c.precision);
    t.rows.push_back({text_cell(op.label), number_cell(a.intensity, fixed(a.intensity, 3)),
                      scaled(a.attainable_flops_per_s, c.rate_scale, 1, c.flops_unit()),
                      text_cell(std::string(to_string(a.bound))),
                      report::time_cell(a.time_lower_bound_s)});
  }
  s.blocks.push_back(std::move(t));
  const OpAnalysis add =
      analyse(elementwise_add(64.0 * 1024 * 1024, c.elem), c.device, c.precision);
  const OpAnalysis big_gemm = analyse(gemm(4096, 4096, 4096, c.elem), c.device, c.precision);
  const OpAnalysis short_attention =
      analyse(attention({.seq = 512, .d_head = 64}, c.elem), c.device, c.precision);
  const OpAnalysis long_attention =
      analyse(attention({.seq = 8192, .d_head = 64}, c.elem), c.device, c.precision);
  const OpAnalysis decode = analyse(decode_step(kExampleParams, 1, c.elem), c.device, c.precision);
  const double add_share = add.attainable_flops_per_s / peak;
  const double decode_gap = ridge / decode.intensity;
  std::string text = fmt::format(
      "Each row is two counts (FLOPs, bytes) held against two {} ceilings; nothing was "
      "run.\n"
      "  - The element-wise add can use at most {}% of the arithmetic peak. Only fusing it into "
      "a neighbouring kernel, so its operands never make the round trip, makes it cheaper.\n",
      c.source, fixed(add_share * 100, add_share < 5e-4 ? 2 : 1));
  text += big_gemm.bound == Bound::compute
              ? "  - The large matrix multiply reuses each byte enough to be limited by the "
                "arithmetic units.\n"
              : "  - Even the large matrix multiply stays below the ridge on this part.\n";
  text += short_attention.bound != long_attention.bound
              ? fmt::format(
                    "  - Attention changes sides with sequence length: at 512 tokens it is "
                    "{}-bound, at 8192 {}-bound, with the same kernel.\n",
                    to_string(short_attention.bound), to_string(long_attention.bound))
              : fmt::format(
                    "  - Attention is {}-bound at both 512 and 8192 tokens here; its "
                    "intensity grows with the sequence length.\n",
                    to_string(long_attention.bound));
  text += fmt::format(
      "  - Decoding one token at batch 1 runs at {} FLOP/byte, {}x {} the ridge: it streams every "
      "weight to do two FLOPs with each, so {}.",
      fixed(decode.intensity, 2), fixed(decode_gap >= 1 ? decode_gap : 1 / decode_gap, 0),
      decode_gap >= 1 ? "short of" : "beyond",
      decode.bound == Bound::memory ? "memory bandwidth sets its speed"
                                    : "even it is compute-bound");
  s.blocks.push_back(Paragraph{text});
  s.facts = {fact("add_share_of_peak", add_share), fact("decode_intensity", decode.intensity),
             fact("decode_ridge_gap", decode_gap)};
  return s;
}

// ---------------------------------------------------------------- 3: the ridge over time

std::vector<const Device*> generations(const Catalog& catalog, const Device& device,
                                       Precision precision) {
  std::vector<const Device*> parts;
  for (const char* id : {"v100-sxm2", "a100-sxm-80gb", "h100-sxm"}) {
    if (const Device* d = catalog.find(id); d && d->has_peak(precision)) parts.push_back(d);
  }
  const bool listed = std::ranges::find(parts, device.id, &Device::id) != parts.end();
  if (!listed && device.has_peak(precision)) parts.push_back(&device);
  return parts;
}

Section ridge_over_time(const Context& c) {
  Section s{"ridge_over_time", "3. The ridge climbs with each generation", {}, {}};
  const std::string p(to_string(c.precision));
  s.blocks.push_back(
      Paragraph{fmt::format("Dense {} tensor peak and main-memory bandwidth, as published.", p)});
  Table t{"parts",
          {{"id", "part", Align::left},
           {"year", "year"},
           {"bandwidth_bytes_per_s", "bandwidth"},
           {"peak_flops_per_s", p + " peak"},
           {"ridge_flops_per_byte", "ridge FLOP/byte"}},
          {}};
  const std::vector<const Device*> parts = generations(c.catalog, c.device, c.precision);
  for (const Device* d : parts) {
    const Ceiling ceiling = d->ceiling(c.precision);
    t.rows.push_back({text_cell(d->name), report::integer_cell(d->year),
                      scaled(ceiling.bandwidth_bytes_per_s, c.rate_scale, 2, c.bytes_unit()),
                      scaled(ceiling.peak_flops_per_s, c.rate_scale, 0, c.flops_unit()),
                      number_cell(ridge_point(ceiling), fixed(ridge_point(ceiling), 0))});
  }
  s.blocks.push_back(std::move(t));
  if (parts.size() < 2) return s;
  const Ceiling first = parts.front()->ceiling(c.precision);
  const Ceiling last = parts.back()->ceiling(c.precision);
  const double peak_growth = last.peak_flops_per_s / first.peak_flops_per_s;
  const double bandwidth_growth = last.bandwidth_bytes_per_s / first.bandwidth_bytes_per_s;
  const double ridge_growth = ridge_point(last) / ridge_point(first);
  s.blocks.push_back(Fields{{
      {"peak_growth", "compute grew", number_cell(peak_growth, fixed(peak_growth, 1) + "x")},
      {"bandwidth_growth", "bandwidth grew",
       number_cell(bandwidth_growth, fixed(bandwidth_growth, 1) + "x")},
      {"ridge_growth", "so the ridge moved",
       number_cell(ridge_growth, fixed(ridge_growth, 1) + "x")},
  }});
  s.blocks.push_back(Paragraph{fmt::format(
      "From {} to {}, FLOPs got cheaper much faster than bytes. A kernel that sat comfortably "
      "above the ridge on the older part can fall below it on the newer one without any change "
      "to its code, which is why so much recent systems work is about moving fewer bytes rather "
      "than doing fewer FLOPs.",
      parts.front()->id, parts.back()->id)});
  return s;
}

// ---------------------------------------------------------------- 4: precision

Section precision_demo(const Context& c) {
  const Device& d = c.device;
  const double n = 4096;
  Section s{"precision", "4. Narrower numbers: fewer bytes and a higher ceiling at once", {}, {}};
  s.blocks.push_back(Paragraph{fmt::format(
      "One operation, C = A B with all three matrices {}x{}; only the element type changes.",
      fixed(n, 0), fixed(n, 0))});
  Table t{"precisions",
          {{"precision", "precision", Align::left},
           {"bytes_per_element", "bytes/el"},
           {"peak_flops_per_s", "peak"},
           {"ridge_flops_per_byte", "ridge"},
           {"intensity", "FLOP/byte"},
           {"bound", "bound"}},
          {}};
  for (const auto& [precision, figure] : d.peak_flops_per_s) {
    const double bytes = bytes_per_element(precision);
    const OpAnalysis a = analyse(gemm(n, n, n, bytes), d, precision);
    t.rows.push_back(
        {text_cell(std::string(to_string(precision))), number_cell(bytes, fixed(bytes, 0)),
         scaled(figure.value, c.rate_scale, 0, c.flops_unit()),
         number_cell(a.ridge, fixed(a.ridge, 0)), number_cell(a.intensity, fixed(a.intensity, 0)),
         text_cell(std::string(to_string(a.bound)))});
  }
  s.blocks.push_back(std::move(t));
  if (!d.has_peak(Precision::fp32)) return s;
  const Precision narrow = d.has_peak(Precision::fp8) ? Precision::fp8 : c.precision;
  const Op wide_op = gemm(n, n, n, bytes_per_element(Precision::fp32));
  const Op narrow_op = gemm(n, n, n, bytes_per_element(narrow));
  const double fp32_peak = d.peak(Precision::fp32).value;
  const double narrow_peak = d.peak(narrow).value;
  s.blocks.push_back(Paragraph{fmt::format(
      "The work is {} GFLOP whatever the type. The traffic is not: {} MB at fp32, {} MB at {}, "
      "{}x less. And the ceiling itself rises from {} {tfs} (fp32 on the ordinary cores) to {} "
      "{tfs} ({} on the {}), {}x higher. Going narrower moves an operation right along "
      "the roofline and lifts the roof over it; what it costs in accuracy is a separate question.",
      fixed(wide_op.flops / kGiga, 0), fixed(wide_op.bytes / kMega, 1),
      fixed(narrow_op.bytes / kMega, 1), to_string(narrow),
      fixed(wide_op.bytes / narrow_op.bytes, 0), fixed(fp32_peak / c.rate_scale, 0),
      fixed(narrow_peak / c.rate_scale, 0), to_string(narrow), matrix_units(d),
      fixed(narrow_peak / fp32_peak, 0), fmt::arg("tfs", c.flops_unit()))});
  s.facts = {fact("gemm_flops", wide_op.flops), fact("fp32_bytes", wide_op.bytes),
             fact("narrow_bytes", narrow_op.bytes),
             fact("narrow_over_fp32_peak", narrow_peak / fp32_peak)};
  return s;
}

// ---------------------------------------------------------------- 5: occupancy

Section occupancy_demo(const Context& c) {
  const Device& d = c.device;
  const auto units = static_cast<std::uint64_t>(d.compute_unit_count());
  Section s{"occupancy", "5. Occupancy: too few blocks leave compute units idle", {}, {}};
  s.blocks.push_back(Paragraph{fmt::format(
      "{} has {} {}s, each an independent processor; a thread block runs on exactly one. Model: "
      "one block per sequence, as in a batched decode kernel, dealt out in waves.",
      d.id, units, d.unit_name)});
  Table t{"batches",
          {{"batch", "batch"},
           {"blocks", "blocks"},
           {"waves", "waves"},
           {"utilisation", "utilisation"},
           {"idle_slots", d.unit_name + "s idle"}},
          {}};
  for (std::uint64_t batch : {std::uint64_t{1}, std::uint64_t{8}, std::uint64_t{32},
                              std::uint64_t{64}, units, units + 1, 2 * units, std::uint64_t{512}}) {
    const Occupancy o = occupancy(batch, units);
    t.rows.push_back({report::integer_cell(static_cast<std::int64_t>(batch)),
                      report::integer_cell(static_cast<std::int64_t>(o.blocks)),
                      report::integer_cell(static_cast<std::int64_t>(o.waves)),
                      report::percent_cell(o.utilisation, 1),
                      report::integer_cell(static_cast<std::int64_t>(o.idle_slots))});
  }
  s.blocks.push_back(std::move(t));
  const Occupancy one = occupancy(1, units);
  const Occupancy over = occupancy(units + 1, units);
  s.blocks.push_back(Paragraph{fmt::format(
      "A single sequence occupies {}% of the chip: {} of the {} {}s wait. And one block more than "
      "a full wave ({} blocks) drops utilisation to {}%, since the extra block needs a second "
      "wave of its own. Batching is the remedy for both this and the memory-bound decode of "
      "demonstration 2, paid for in latency.",
      fixed(one.utilisation * 100, 2), one.idle_slots, units, d.unit_name, units + 1,
      fixed(over.utilisation * 100, 1))});
  s.facts = {fact("batch1_utilisation", one.utilisation),
             fact("one_past_wave_utilisation", over.utilisation)};
  return s;
}

// ---------------------------------------------------------------- 6: scaling out

constexpr int kGpusPerNode = 8;

Section scale_out(const Context& c) {
  const Device& d = c.device;
  Section s{"scale_out",
            "6. Scaling out: the network is an order of magnitude slower than the node",
            {},
            {}};
  if (!d.find_link(LinkKind::scale_up) && !d.find_link(LinkKind::host)) {
    s.blocks.push_back(Paragraph{fmt::format(
        "The catalog gives {} no links, so there is nothing to scale out over.", d.id)});
    return s;
  }
  const Link& fabric = in_node_link(d);
  const Link* network = d.find_link(LinkKind::network);
  const double grad_bytes = kExampleParams * bytes_per_element(Precision::bf16);
  std::vector<report::Field> links{{"in_node_bytes_per_s", fabric.name + " (in a node)",
                                    scaled(fabric.bandwidth_bytes_per_s.value, kGiga, 0, "GB/s")}};
  if (network) {
    links.push_back({"network_bytes_per_s", network->name + " (between nodes)",
                     scaled(network->bandwidth_bytes_per_s.value, kGiga, 0, "GB/s")});
    const double ratio = fabric.bandwidth_bytes_per_s.value / network->bandwidth_bytes_per_s.value;
    links.push_back({"ratio", "ratio", number_cell(ratio, fixed(ratio, 0) + "x")});
  }
  s.blocks.push_back(Paragraph{"Published per-GPU link bandwidths:"});
  s.blocks.push_back(Fields{std::move(links)});
  s.blocks.push_back(Paragraph{fmt::format(
      "Gradient all-reduce for a {}-parameter model in bf16: a {} GB buffer, {} GPUs per node.",
      units::count(kExampleParams), fixed(grad_bytes / kGiga, 1), kGpusPerNode)});
  Table t{"configurations",
          {{"configuration", "configuration", Align::left},
           {"bytes_per_gpu", "bytes/GPU on slowest link"},
           {"time_s", "time"},
           {"network_share", "on network"}},
          {}};
  const AllReduceCost in_node = hierarchical_allreduce(grad_bytes, kGpusPerNode, 1, fabric, fabric);
  t.rows.push_back({text_cell(fmt::format("{} GPUs, 1 node, {}", kGpusPerNode, fabric.name)),
                    scaled(in_node.legs[0].bytes_per_rank, kGiga, 1, "GB"),
                    scaled(in_node.time_s, 1e-3, 1, "ms"), report::empty_cell()});
  if (network) {
    for (int nodes : {2, 4, 16}) {
      const AllReduceCost cost =
          hierarchical_allreduce(grad_bytes, kGpusPerNode, nodes, fabric, *network);
      t.rows.push_back({text_cell(fmt::format("  + {} nodes over {}", nodes, network->name)),
                        scaled(cost.legs[1].bytes_per_rank, kGiga, 2, "GB"),
                        scaled(cost.time_s, 1e-3, 1, "ms"),
                        report::percent_cell(cost.inter_node_share, 0)});
    }
  }
  s.blocks.push_back(std::move(t));
  if (!network) {
    s.blocks.push_back(Paragraph{fmt::format(
        "The catalog gives {} no network link, so only the in-node ring is shown.", d.id)});
    return s;
  }
  const AllReduceCost two = hierarchical_allreduce(grad_bytes, kGpusPerNode, 2, fabric, *network);
  const double byte_share = two.legs[1].bytes_per_rank / two.legs[0].bytes_per_rank;
  s.blocks.push_back(Paragraph{fmt::format(
      "With two nodes each GPU sends only {}% as many bytes over the network as over {}, yet the "
      "network leg takes {}% of the time: the link is {}x slower. Inside a node the GPUs behave "
      "almost like one device; between nodes every byte is expensive. That gap is what expert "
      "parallelism, all-to-all placement and overlapping communication with compute are fighting.",
      fixed(byte_share * 100, 1), fabric.name, fixed(two.inter_node_share * 100, 0),
      fixed(fabric.bandwidth_bytes_per_s.value / network->bandwidth_bytes_per_s.value, 0))});
  s.facts = {fact("in_node_time_s", in_node.time_s), fact("two_node_byte_share", byte_share)};
  return s;
}

// ---------------------------------------------------------------- 7: what-ifs

std::string speedup_text(double ratio) {
  return ratio == 1 ? "no change" : fmt::format("{}x as fast", fixed(ratio, 1));
}

std::string faster_chip(const Context& c) {
  const Op op = decode_step(kExampleParams, 1, c.elem);
  const double ai = arithmetic_intensity(op.flops, op.bytes);
  const Ceiling now = c.ceiling;
  const RooflinePoint base = roofline(ai, now);
  const RooflinePoint more_flops =
      roofline(ai, {now.peak_flops_per_s * 2, now.bandwidth_bytes_per_s});
  const RooflinePoint more_bytes =
      roofline(ai, {now.peak_flops_per_s, now.bandwidth_bytes_per_s * 2});
  return fmt::format(
      "(1) \"A faster chip will fix it.\"\n"
      "  {} at {} FLOP/byte:\n"
      "    as it is:             {} {tfs} ({}-bound)\n"
      "    twice the FLOP/s:     {} {tfs} ({}-bound), {}\n"
      "    twice the bandwidth:  {} {tfs} ({}-bound), {}\n"
      "  Doubling the arithmetic peak gained {} {tflops}.",
      op.label, fixed(ai, 2), fixed(base.attainable_flops_per_s / c.rate_scale, 2),
      to_string(base.bound), fixed(more_flops.attainable_flops_per_s / c.rate_scale, 2),
      to_string(more_flops.bound),
      speedup_text(more_flops.attainable_flops_per_s / base.attainable_flops_per_s),
      fixed(more_bytes.attainable_flops_per_s / c.rate_scale, 2), to_string(more_bytes.bound),
      speedup_text(more_bytes.attainable_flops_per_s / base.attainable_flops_per_s),
      fixed((more_flops.attainable_flops_per_s - base.attainable_flops_per_s) / c.rate_scale, 0),
      fmt::arg("tfs", c.flops_unit()), fmt::arg("tflops", c.prefix + "FLOP/s"));
}

std::string batch_of_one(const Context& c) {
  const int units = c.device.compute_unit_count();
  const Occupancy o = occupancy(1, static_cast<std::uint64_t>(units));
  return fmt::format(
      "(2) \"One request at a time is fine.\"\n"
      "  Utilisation {}%: {} of {} {}s idle, {} processors paid for and one in use.",
      fixed(o.utilisation * 100, 2), o.idle_slots, units, c.device.unit_name, units);
}

std::string stray_fp32(const Context& c) {
  const double n = 4096;
  const OpAnalysis half = analyse(gemm(n, n, n, c.elem), c.device, c.precision);
  const OpAnalysis single = analyse(gemm(n, n, n, 4), c.device, Precision::fp32);
  return fmt::format(
      "(3) \"The model is in {}, so the {} do the work.\"\n"
      "  {:<21} {:>6} FLOP/byte, ceiling {} {tfs}\n"
      "  {:<21} {:>6} FLOP/byte, ceiling {} {tfs}\n"
      "  One matrix multiply left in fp32 runs under a ceiling {}x lower: its intensity halves "
      "and its roof drops at the same time.",
      to_string(c.precision), matrix_units(c.device),
      fmt::format("{} matrix path:", to_string(c.precision)), fixed(half.intensity, 0),
      fixed(half.attainable_flops_per_s / c.rate_scale, 1),
      "fp32 ordinary cores:", fixed(single.intensity, 0),
      fixed(single.attainable_flops_per_s / c.rate_scale, 1),
      fixed(half.attainable_flops_per_s / single.attainable_flops_per_s, 1),
      fmt::arg("tfs", c.flops_unit()), fmt::arg("tflops", c.prefix + "FLOP/s"));
}

std::string copy_in_loop(const Context& c) {
  const Link& pcie = c.device.link(LinkKind::host);
  const double tensor_bytes = 4096.0 * 4096 * bytes_per_element(Precision::fp16);
  const double iterations = 1000;
  const double total = tensor_bytes * iterations;
  const double over_pcie = transfer_time_s(total, pcie.bandwidth_bytes_per_s.value);
  const double over_hbm = transfer_time_s(total, c.ceiling.bandwidth_bytes_per_s);
  return fmt::format(
      "(4) \"Copying the tensor to the device inside the loop is harmless.\"\n"
      "  A 4096x4096 fp16 tensor is {} MB; {} iterations move {} GB over {}.\n"
      "  At {} GB/s that is {} s spent copying; the same bytes from {} would take {} s. The host "
      "link is {}x further away.\n"
      "  Copy it once before the loop: {} MB in total, {}x less traffic.",
      fixed(tensor_bytes / kMega, 1), fixed(iterations, 0), fixed(total / kGiga, 1), pcie.name,
      fixed(pcie.bandwidth_bytes_per_s.value / kGiga, 0), fixed(over_pcie, 2),
      c.device.main_memory().name, fixed(over_hbm, 2), fixed(over_pcie / over_hbm, 0),
      fixed(tensor_bytes / kMega, 1), fixed(iterations, 0));
}

std::string needless_sharding(const Context& c) {
  const Device& d = c.device;
  const double weights = kExampleParams * bytes_per_element(Precision::bf16);
  std::string text = fmt::format(
      "(5) \"Spread it over two nodes, to be safe.\"\n"
      "  {} parameters in bf16 are {} GB; one {} holds {}, so the model fits.",
      units::count(kExampleParams), fixed(weights / kGiga, 1), d.id,
      units::capacity(d.main_memory().capacity_bytes->value));
  const Link* network = d.find_link(LinkKind::network);
  if (!network) return text;
  const double across = ring_allreduce_bytes(weights / kGpusPerNode, 2);
  return text + fmt::format(
                    "\n  Splitting it anyway adds {} GB per step over {} at {} GB/s: {} ms of "
                    "network time every step that a single node never pays.",
                    fixed(across / kGiga, 2), network->name,
                    fixed(network->bandwidth_bytes_per_s.value / kGiga, 0),
                    fixed(transfer_time_s(across, network->bandwidth_bytes_per_s.value) / 1e-3, 1));
}

Section what_ifs(const Context& c) {
  Section s{"what_ifs", "7. Five beliefs, priced", {}, {}};
  s.blocks.push_back(Paragraph{faster_chip(c)});
  s.blocks.push_back(Paragraph{batch_of_one(c)});
  if (c.device.has_peak(Precision::fp32)) s.blocks.push_back(Paragraph{stray_fp32(c)});
  if (c.device.find_link(LinkKind::host)) s.blocks.push_back(Paragraph{copy_in_loop(c)});
  s.blocks.push_back(Paragraph{needless_sharding(c)});
  s.blocks.push_back(Paragraph{
      "Each of the five reasons about arithmetic and forgets data movement. Count the bytes "
      "first; they are usually what sets the time."});
  return s;
}

// ---------------------------------------------------------------- 8: sanity check

Section sanity_check(const Context& c) {
  const double ridge = ridge_point(c.ceiling);
  Section s{"sanity_check", "8. Check: the roofline really is the minimum of two lines", {}, {}};
  s.blocks.push_back(
      Paragraph{fmt::format("ridge = peak / bandwidth = {} FLOP/byte", fixed(ridge, 4))});
  Table t{"points",
          {{"intensity", "intensity"},
           {"attainable_flops_per_s", "attainable"},
           {"bound", "bound"},
           {"min_holds", "equals min(peak, bw x I)"}},
          {}};
  for (const double ai : {ridge / 100, ridge / 2, ridge, ridge * 2, ridge * 100}) {
    const RooflinePoint p = roofline(ai, c.ceiling);
    const double expected =
        std::min(c.ceiling.peak_flops_per_s, c.ceiling.bandwidth_bytes_per_s * ai);
    const bool holds = std::abs(p.attainable_flops_per_s - expected) <= 1e-9 * expected;
    t.rows.push_back({number_cell(ai, fixed(ai, 2)),
                      scaled(p.attainable_flops_per_s, c.rate_scale, 1, c.flops_unit()),
                      text_cell(std::string(to_string(p.bound))),
                      report::bool_cell(holds, holds ? "yes" : "NO")});
  }
  s.blocks.push_back(std::move(t));
  s.blocks.push_back(Paragraph{
      "No fitted curve and no measurement: a slanted line, a flat line and the lower of the two. "
      "Williams, Waterman and Patterson described it in 2009 for multicore CPUs; it carries over "
      "to every accelerator since, because each one still has a compute ceiling and a bandwidth "
      "ceiling."});
  s.facts = {fact("ridge_flops_per_byte", ridge)};
  return s;
}

Section summary(const Context& c) {
  return {"summary",
          "The model on one page",
          {Paragraph{
              " 1. intensity = FLOPs / bytes moved. It belongs to the operation.\n"
              " 2. ridge = peak FLOP/s / bandwidth. It belongs to the chip.\n"
              " 3. attainable = min(peak, bandwidth x intensity) (Williams et al., 2009).\n"
              " 4. Below the ridge only bandwidth helps; more FLOP/s changes nothing.\n"
              " 5. Each generation raises the ridge: compute outgrows bandwidth.\n"
              " 6. A narrower type raises intensity and the ceiling together.\n"
              " 7. Too few blocks idle the compute units whatever the roofline says.\n"
              " 8. In-node links are fast; the network between nodes is an order of magnitude "
              "slower.\n"
              "\n" +
              std::string(c.source == "measured"
                              ? "Hardware figures were measured on this machine by `ridge measure` "
                                "(see `ridge device show`); real kernels of other shapes can stay "
                                "below them. "
                              : "Hardware figures are published peak specifications (latencies are "
                                "literature estimates), not measurements, and real kernels stay "
                                "below them. ") +
              "The roofline says what limits an operation and the time it cannot beat, not the "
              "time it will take."}},
          {}};
}

}  // namespace

std::vector<std::pair<std::string, std::string>> tour_charts(const Catalog& catalog,
                                                             const Device& device,
                                                             chart::Theme theme) {
  const Precision precision = tour_precision(device);
  chart::Input roofline;
  roofline.options.theme = theme;
  roofline.options.title = fmt::format("Demo 2: where each operation lands on the {} roofline ({})",
                                       device.id, to_string(precision));
  roofline.series.push_back(chart::series_for(device, {precision}, false));
  for (const Op& op : tour_roofline_ops(bytes_per_element(precision))) {
    roofline.points.push_back(chart::point_for(analyse(op, device, precision), 0));
  }
  chart::Input parts;
  parts.options.theme = theme;
  parts.options.title = fmt::format(
      "Demo 3: the ridge climbs with each generation ({}, main memory)", to_string(precision));
  for (const Device* d : generations(catalog, device, precision)) {
    chart::Series s = chart::series_for(*d, {precision}, false);
    // Main memory only: one roof per part keeps the generations readable.
    std::erase_if(s.bandwidth,
                  [&](const chart::Ceiling& b) { return b.value != s.main_bandwidth; });
    parts.series.push_back(std::move(s));
  }
  return {{"roofline.svg", chart::render_svg(chart::layout(roofline))},
          {"generations.svg", chart::render_svg(chart::layout(parts))}};
}

report::Document tour(const Catalog& catalog, const Device& device) {
  const Precision precision = tour_precision(device);
  const Ceiling ceiling = device.ceiling(precision);
  const bool tera = ceiling.peak_flops_per_s >= 1e12;
  const Context c{catalog,
                  device,
                  precision,
                  ceiling,
                  bytes_per_element(precision),
                  tera ? 1e12 : 1e9,
                  tera ? "T" : "G",
                  provenance_word(*device.main_memory().bandwidth_bytes_per_s)};
  Document doc;
  doc.schema = "ridge.tour/1";
  doc.sections = {hierarchy(c),      roofline_demo(c),  ridge_over_time(c),
                  precision_demo(c), occupancy_demo(c), scale_out(c),
                  what_ifs(c),       sanity_check(c),   summary(c)};
  return doc;
}

}  // namespace ridge
