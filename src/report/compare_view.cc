#include <fmt/format.h>

#include "report/cells.h"
#include "ridge/views.h"

namespace ridge::report {

Document compare_document(const std::vector<const Device*>& devices,
                          std::optional<Precision> precision) {
  // Without a precision each device is compared at its 16-bit rate (fp16, else bf16), so that
  // TPUs and Gaudi, which quote bf16 only, sit beside GPUs.
  const auto ceiling_of = [&](const Device& d) {
    return d.ceiling(precision.value_or(d.headline_precision()));
  };
  const std::string p = precision ? std::string(to_string(*precision)) : "16-bit";
  Table t{"devices",
          {{"id", "ID", Align::left},
           {"year", "year"},
           {"bandwidth_bytes_per_s", "bandwidth"},
           {"peak_flops_per_s", p + " peak"},
           {"ridge_flops_per_byte", "ridge"},
           {"bandwidth_growth", "bandwidth x"},
           {"peak_growth", "peak x"},
           {"ridge_growth", "ridge x"}},
          {}};
  const Ceiling first = ceiling_of(*devices.front());
  for (const Device* d : devices) {
    const Ceiling c = ceiling_of(*d);
    t.rows.push_back({text_cell(d->id), integer_cell(d->year),
                      bandwidth_cell(c.bandwidth_bytes_per_s), flops_rate_cell(c.peak_flops_per_s),
                      intensity_cell(ridge_point(c)),
                      ratio_cell(c.bandwidth_bytes_per_s / first.bandwidth_bytes_per_s),
                      ratio_cell(c.peak_flops_per_s / first.peak_flops_per_s),
                      ratio_cell(ridge_point(c) / ridge_point(first))});
  }
  const Device& last = *devices.back();
  const Ceiling end = ceiling_of(last);
  const double peak_growth = end.peak_flops_per_s / first.peak_flops_per_s;
  const double bandwidth_growth = end.bandwidth_bytes_per_s / first.bandwidth_bytes_per_s;
  const double ridge_growth = ridge_point(end) / ridge_point(first);
  Paragraph summary{fmt::format(
      "From {} to {}, {} compute grew {:.1f}x and memory bandwidth {:.1f}x, so the intensity an "
      "operation needs to be compute-bound moved by {:.1f}x.",
      devices.front()->id, last.id, p, peak_growth, bandwidth_growth, ridge_growth)};
  Document doc;
  doc.schema = "ridge.compare/1";
  doc.title = fmt::format("Dense {} peak against main-memory bandwidth", p);
  doc.sections.push_back({"",
                          "",
                          {std::move(t), std::move(summary)},
                          {{"precision", "precision", text_cell(p)},
                           {"peak_growth", "", number_cell(peak_growth, "")},
                           {"bandwidth_growth", "", number_cell(bandwidth_growth, "")},
                           {"ridge_growth", "", number_cell(ridge_growth, "")}}});
  doc.notes.push_back("growth columns are relative to the first device listed");
  if (!precision)
    doc.notes.push_back("16-bit: each device's fp16 rate, else its bf16 rate (--dtype picks one)");
  return doc;
}

}  // namespace ridge::report
