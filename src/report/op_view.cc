#include <fmt/format.h>

#include "report/cells.h"
#include "ridge/views.h"

namespace ridge::report {

namespace {

// The provenance and source of a figure as two fields, e.g. "peak_provenance", "peak_source".
void add_provenance(std::vector<Field>& fields, const std::string& key, const std::string& label,
                    const Figure& figure) {
  fields.push_back({key + "_provenance", label + " provenance",
                    text_cell(std::string(to_string(figure.provenance)))});
  fields.push_back({key + "_source", label + " source", text_cell(figure.source)});
}

}  // namespace

Document op_document(const OpAnalysis& a, const Device& device,
                     const std::optional<Expectation>& expected) {
  const Figure& peak = device.peak(a.precision);
  const Figure& bandwidth = *device.main_memory().bandwidth_bytes_per_s;
  const double share_of_peak = a.attainable_flops_per_s / a.ceiling.peak_flops_per_s;
  Fields fields{{
      {"op", "operation", text_cell(a.op.kind)},
      {"label", "sizes", text_cell(a.op.label)},
      {"device", "device", text_cell(a.device_id)},
      {"precision", "precision", text_cell(std::string(to_string(a.precision)))},
      {"flops", "FLOPs", flops_cell(a.op.flops)},
      {"bytes", "bytes moved", bytes_cell(a.op.bytes)},
      {"intensity", "arithmetic intensity", intensity_cell(a.intensity)},
      {"peak_flops", "compute peak", flops_rate_cell(a.ceiling.peak_flops_per_s)},
      {"bandwidth", "memory bandwidth", bandwidth_cell(a.ceiling.bandwidth_bytes_per_s)},
      {"ridge", "ridge point", intensity_cell(a.ridge)},
      {"attainable_flops", "attainable", flops_rate_cell(a.attainable_flops_per_s)},
      {"attainable_share_of_peak", "share of peak", percent_cell(share_of_peak)},
      {"bound", "bound by", text_cell(std::string(to_string(a.bound)))},
      {"compute_time_s", "compute time", time_cell(a.compute_time_s)},
      {"memory_time_s", "memory time", time_cell(a.memory_time_s)},
      {"time_s", "time lower bound", time_cell(a.time_lower_bound_s)},
  }};
  if (expected) {
    const ExpectedTime& e = expected->time;
    fields.fields.push_back({"expected_time_s", "expected time", time_cell(e.time_s)});
    fields.fields.push_back(
        {"expected_over_bound", "expected / bound", ratio_cell(e.time_s / a.time_lower_bound_s)});
    fields.fields.push_back({"expected_limiter", "expected limited by", text_cell(e.limiter)});
    fields.fields.push_back({"expected_detail", "expected as", text_cell(e.detail)});
  } else {
    fields.fields.push_back(
        {"expected_time_s", "expected time", empty_cell("bound only (no calibration applies)")});
  }
  add_provenance(fields.fields, "peak", "peak", peak);
  add_provenance(fields.fields, "bandwidth", "bandwidth", bandwidth);
  Document doc;
  doc.schema = "ridge.op/1";
  doc.title = fmt::format("{} on {}, {}", a.op.label, a.device_name, to_string(a.precision));
  doc.sections.push_back({"", "", {std::move(fields)}, {}});
  if (expected)
    doc.sections.push_back(
        calibration_section(expected->calibration, a.precision, expected->time.extrapolated));
  doc.notes.push_back(
      "the time is a lower bound: max(FLOPs / peak, bytes / bandwidth), with every input read "
      "once and every output written once; real kernels move more and reach less than peak");
  if (expected)
    doc.notes.push_back(
        "the expected time is what a library kernel takes: tiles and waves, the shares of peak "
        "and bandwidth real kernels reach, how its compute and memory overlap near the ridge, "
        "what it does after them (its last stores, its partial sums) and a per-kernel floor, "
        "from the calibration named (docs/predict.md)");
  if (expected && expected->calibration.measured && expected->time.extrapolated)
    doc.notes.push_back(
        "warning: this shape lies outside the device's measured GEMM sweep: the expected time is "
        "the model alone, not corrected by a measurement");
  return doc;
}

}  // namespace ridge::report
