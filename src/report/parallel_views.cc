#include <fmt/format.h>

#include <cmath>

#include "report/cells.h"
#include "ridge/units.h"
#include "ridge/views.h"

namespace ridge::report {

Document occupancy_document(const Occupancy& o, const Device& device) {
  Fields fields{{
      {"device", "device", text_cell(device.id)},
      {"units", device.unit_name + "s", integer_cell(static_cast<std::int64_t>(o.units))},
      {"blocks", "blocks", integer_cell(static_cast<std::int64_t>(o.blocks))},
      {"waves", "waves", integer_cell(static_cast<std::int64_t>(o.waves))},
      {"utilisation", "utilisation", percent_cell(o.utilisation)},
      {"idle_slots", device.unit_name + " slots idle",
       integer_cell(static_cast<std::int64_t>(o.idle_slots))},
  }};
  Document doc;
  doc.schema = "ridge.occupancy/1";
  doc.title =
      fmt::format("{} blocks on {} {}s of {}", o.blocks, o.units, device.unit_name, device.name);
  doc.sections.push_back({"", "", {std::move(fields)}, {}});
  doc.notes.push_back(fmt::format(
      "model: equal blocks, one per {} at a time, dealt round-robin; the kernel lasts as long as "
      "its busiest {}, so a partial last wave costs a whole one",
      device.unit_name, device.unit_name));
  return doc;
}

namespace {

std::string shape_text(const ClusterShape& shape) {
  return shape.nodes == 1 ? fmt::format("{} GPUs", shape.gpus_per_node)
                          : fmt::format("{} GPUs ({} per node x {} nodes)", shape.ranks(),
                                        shape.gpus_per_node, shape.nodes);
}

Table legs_table(const CollectiveEstimate& e) {
  Table legs{"legs",
             {{"leg", "leg", Align::left},
              {"link", "link", Align::left},
              {"ranks", "ranks"},
              {"steps", "steps"},
              {"bytes_per_gpu", "bytes/GPU"},
              {"bandwidth_bytes_per_s", "bandwidth"},
              {"latency_s", "latency term"},
              {"transfer_s", "transfer term"},
              {"time_s", "time"},
              {"share_of_time", "share"}},
             {}};
  for (const CollectiveLeg& leg : e.legs) {
    legs.rows.push_back({text_cell(leg.name), text_cell(leg.link_name), integer_cell(leg.ranks),
                         integer_cell(leg.steps), bytes_cell(leg.bytes_per_rank),
                         bandwidth_cell(leg.bandwidth_bytes_per_s), time_cell(leg.latency_s),
                         time_cell(leg.transfer_s), time_cell(leg.time_s),
                         percent_cell(e.time_s > 0 ? leg.time_s / e.time_s : 0, 0)});
  }
  return legs;
}

Table algorithms_table(const std::vector<CollectiveEstimate>& alternatives) {
  Table t{"algorithms",
          {{"algorithm", "algorithm", Align::left},
           {"time_s", "time"},
           {"busbw_bytes_per_s", "bus bandwidth"},
           {"bound_link", "bound by", Align::left}},
          {}};
  for (const CollectiveEstimate& a : alternatives) {
    t.rows.push_back({text_cell(std::string(to_string(a.algorithm))), time_cell(a.time_s),
                      bandwidth_cell(a.busbw_bytes_per_s), text_cell(a.bound_link)});
  }
  return t;
}

// The expected time's fields: the calibrated time and how NCCL runs it, or why there is none.
void add_expected_fields(std::vector<Field>& fields, const CollectiveExpectation& e) {
  if (!e.calibration) {
    fields.push_back({"expected_time_s", "expected time", empty_cell(e.why_none)});
    return;
  }
  const ExpectedTime& time = e.times.front();
  fields.push_back({"expected_time_s", "expected time", time_cell(time.time_s)});
  fields.push_back({"expected_detail", "expected as", text_cell(time.detail)});
}

// The validation tables the latencies are fitted to and checked on go to 8 GPUs of a node.
constexpr int kValidatedRanks = 8;

// The calibration the expected times rest on, and how they were priced.
void add_expectation(Document& doc, const CollectiveExpectation& e, const ClusterShape& shape) {
  if (!e.calibration) return;
  doc.sections.push_back(
      collective_calibration_section(*e.calibration, e.times.front().extrapolated));
  doc.notes.push_back(
      "the expected time is NCCL's ring on one node as NCCL's own tuning model prices it, on the "
      "fastest of its protocols (an all-to-all, NCCL's exchange with every peer at once, on the "
      "protocol its point-to-point path takes and no faster than the channels it gives each peer "
      "carry, where the calibration rates them), over the link's achievable bandwidth with the "
      "call's and each step's latency the calibration gives, plus the kernel's floor: what "
      "nccl-tests times (docs/predict.md, validated against aiconfigurator's nccl-tests tables)");
  if (shape.gpus_per_node > kValidatedRanks) {
    doc.notes.push_back(fmt::format(
        "warning: the expected time is validated over 2 to {} GPUs; over {}, NCCL runs trees and "
        "NVLink SHARP that its ring here does not have, so small messages may be faster",
        kValidatedRanks, shape.gpus_per_node));
  }
}

void add_model_notes(Document& doc, bool latency_known) {
  doc.notes.push_back(
      "alpha-beta model: each leg takes steps x the link's latency plus its bytes per GPU over "
      "the link's bandwidth; rings and trees that span nodes run at the network's pace");
  doc.notes.push_back(
      "algbw = bytes / time; busbw = algbw x 2(n-1)/n (allreduce), (n-1)/n (allgather, "
      "reducescatter, alltoall) or 1 (broadcast), as nccl-tests reports them");
  if (!latency_known) {
    doc.notes.push_back(
        "a link here has no latency in the catalog (or --bandwidth-only): its latency term is 0, "
        "so small messages come out too fast");
  }
}

}  // namespace

Document collective_document(const CollectiveEstimate& e,
                             const std::vector<CollectiveEstimate>& alternatives,
                             const CollectiveExpectation& expected, const Device& device) {
  Fields totals{{
      {"op", "collective", text_cell(std::string(to_string(e.op)))},
      {"algorithm", "algorithm", text_cell(std::string(to_string(e.algorithm)))},
      {"bytes", "bytes", bytes_cell(e.bytes)},
      {"gpus_per_node", "GPUs per node", integer_cell(e.shape.gpus_per_node)},
      {"nodes", "nodes", integer_cell(e.shape.nodes)},
      {"time_s", "time", time_cell(e.time_s)},
      {"algbw_bytes_per_s", "algorithm bandwidth", bandwidth_cell(e.algbw_bytes_per_s)},
      {"busbw_bytes_per_s", "bus bandwidth", bandwidth_cell(e.busbw_bytes_per_s)},
      {"bound_link", "bound by", text_cell(e.bound_link)},
  }};
  add_expected_fields(totals.fields, expected);
  Document doc;
  doc.schema = "ridge.collective/3";
  doc.title = fmt::format("{} of {} over {} on {}: {}", to_string(e.op), units::si(e.bytes, "B"),
                          shape_text(e.shape), device.name, to_string(e.algorithm));
  doc.sections.push_back({"", "", {std::move(totals), legs_table(e)}, {}});
  if (alternatives.size() > 1) {
    doc.sections.push_back(
        {"algorithms", "Every algorithm that applies", {algorithms_table(alternatives)}, {}});
  }
  add_model_notes(doc, e.latency_known);
  add_expectation(doc, expected, e.shape);
  return doc;
}

Document collective_sweep_document(const std::vector<CollectiveEstimate>& sweep,
                                   const CollectiveExpectation& expected, const Device& device) {
  Table t{"sweep",
          {{"bytes", "bytes"},
           {"algorithm", "algorithm", Align::left},
           {"time_s", "time"},
           {"algbw_bytes_per_s", "algbw"},
           {"busbw_bytes_per_s", "busbw"},
           {"bound_link", "bound by", Align::left},
           {"expected_time_s", "expected ~"}},
          {}};
  bool latency_known = true;
  for (std::size_t i = 0; i < sweep.size(); ++i) {
    const CollectiveEstimate& e = sweep[i];
    // Binary units for binary sizes (1KiB..16GiB), SI otherwise (1K..16G).
    const bool binary = std::exp2(std::round(std::log2(e.bytes))) == e.bytes;
    t.rows.push_back(
        {number_cell(e.bytes, binary ? units::binary_bytes(e.bytes) : units::si(e.bytes, "B")),
         text_cell(std::string(to_string(e.algorithm))), time_cell(e.time_s),
         bandwidth_cell(e.algbw_bytes_per_s), bandwidth_cell(e.busbw_bytes_per_s),
         text_cell(e.bound_link),
         expected.calibration ? time_cell(expected.times[i].time_s) : empty_cell()});
    latency_known = latency_known && e.latency_known;
  }
  Document doc;
  doc.schema = "ridge.collective-sweep/2";
  doc.title = fmt::format("{} over {} on {}, by message size", to_string(sweep.front().op),
                          shape_text(sweep.front().shape), device.name);
  doc.sections.push_back({"", "", {std::move(t)}, {}});
  if (!expected.calibration) doc.notes.push_back("expected time: " + expected.why_none);
  add_model_notes(doc, latency_known);
  add_expectation(doc, expected, sweep.front().shape);
  return doc;
}

Document collective_measurement_document(const CollectiveMeasurement& m) {
  if (!m.root) return silent_document();
  Document doc;
  Fields facts{{
      {"ranks", "ranks", integer_cell(m.ranks)},
      {"host", "host", text_cell(m.host)},
      {"library", "MPI", text_cell(m.library)},
      {"fitted_latency_s", "fitted link: latency per step", time_cell(m.fitted_link.latency_s)},
      {"fitted_bandwidth_bytes_per_s", "fitted link: bandwidth",
       bandwidth_cell(m.fitted_link.bandwidth_bytes_per_s)},
      {"created", "measured", text_cell(m.created)},
  }};
  Table t{"points",
          {{"op", "op", Align::left},
           {"bytes", "bytes"},
           {"time_s", "time (slowest rank)"},
           {"algbw_bytes_per_s", "algbw"},
           {"busbw_bytes_per_s", "busbw"},
           {"predicted_busbw_bytes_per_s", "model busbw"},
           {"measured_over_model", "measured / model"},
           {"validated", "checked"}},
          {}};
  for (const MeasuredCollective& p : m.points) {
    t.rows.push_back({text_cell(std::string(to_string(p.op))),
                      number_cell(p.bytes, units::binary_bytes(p.bytes)), time_cell(p.time_s),
                      bandwidth_cell(p.algbw_bytes_per_s), bandwidth_cell(p.busbw_bytes_per_s),
                      bandwidth_cell(p.predicted_busbw_bytes_per_s),
                      ratio_cell(p.busbw_bytes_per_s / p.predicted_busbw_bytes_per_s),
                      bool_cell(p.validated, p.validated ? "ok" : "FAILED")});
  }
  doc.schema = "ridge.collective-measurement/1";
  doc.title = fmt::format("Collectives over MPI: {} ranks on {}", m.ranks, m.host);
  doc.sections.push_back({"", "", {std::move(facts), std::move(t)}, {}});
  doc.notes.push_back(
      "timed as nccl-tests times them: warm-ups, a barrier, then the mean of the iterations on "
      "the slowest rank; busbw with nccl-tests' factors");
  doc.notes.push_back(
      "model: a ring over the ranks on one link fitted to this run (latency from the smallest "
      "all-reduce, bandwidth from the largest); where measured / model strays from 1x, the "
      "library ran another algorithm or the copies through shared memory cost other than ring "
      "steps");
  doc.json = collective_measurement_to_json(m);
  return doc;
}

Document training_document(const TrainingAnalysis& a, const ModelConfig& model,
                           const Device& device) {
  const TrainingLayout& l = a.layout;
  Fields facts{{
      {"model", "model", text_cell(model.name)},
      {"layout", "layout",
       text_cell(fmt::format("dp {} x tp {} x pp {} = {} GPUs", l.dp, l.tp, l.pp, l.gpus()))},
      {"batch", "batch",
       text_cell(fmt::format("{} sequences of {} tokens, micro-batches of {}", l.global_batch,
                             l.seq, l.micro_batch))},
      {"flops_per_step", "FLOPs per step (6 x active params x tokens)",
       flops_cell(a.flops_per_step)},
      {"compute_time_s", "compute per GPU at the peak", time_cell(a.compute_time_s)},
      {"pipeline_bubble", "pipeline bubble", percent_cell(a.pipeline_bubble)},
      {"exposed_communication_s", "communication not hidden", time_cell(a.exposed_communication_s)},
      {"step_time_s", "step time (lower bound)", time_cell(a.step_time_s)},
      {"communication_to_compute", "communication / compute",
       ratio_cell(a.communication_to_compute)},
  }};
  Table t{"traffic",
          {{"kind", "parallelism", Align::left},
           {"what", "what", Align::left},
           {"bytes_per_gpu", "bytes/GPU/step"},
           {"messages", "messages"},
           {"time_s", "time"},
           {"overlaps_compute", "hidden by compute", Align::left},
           {"link", "link", Align::left}},
          {}};
  for (const TrainingTraffic& x : a.traffic) {
    const bool hidden = x.overlaps_compute && x.time_s <= a.compute_time_s;
    t.rows.push_back(
        {text_cell(x.kind), text_cell(x.what), bytes_cell(x.bytes_per_gpu),
         integer_cell(x.messages), time_cell(x.time_s),
         bool_cell(hidden, x.overlaps_compute ? (hidden ? "yes" : "partly") : "no (critical path)"),
         text_cell(x.link)});
  }
  Document doc;
  doc.schema = "ridge.parallel/1";
  doc.title = fmt::format("Training {} on {} x {}", model.name, l.gpus(), device.name);
  doc.sections.push_back({"", "", {std::move(facts), std::move(t)}, {}});
  doc.notes.push_back(
      "compute counts 6 FLOPs per active parameter per token (forward 2, backward 4), attention "
      "scores and recomputation left out; communication uses the alpha-beta collective model "
      "(ridge collective) on the cluster's links");
  doc.notes.push_back(
      "data parallelism's gradient all-reduce overlaps the backward pass; tensor parallelism's "
      "all-reduces and pipeline sends sit on the critical path");
  return doc;
}

}  // namespace ridge::report
