#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "report/cells.h"
#include "ridge/units.h"
#include "ridge/views.h"

namespace ridge::report {

namespace {

Cell optional_peak(const Device& d, Precision p) {
  return d.has_peak(p) ? flops_rate_cell(d.peak(p).value) : empty_cell();
}

// Numbers each distinct source once, in order of first use, for the text table's [n] column.
class SourceIndex {
 public:
  Cell cell(const Figure& f) {
    if (f.source.empty()) return empty_cell();
    auto [it, added] = numbers_.try_emplace(f.source, numbers_.size() + 1);
    if (added) order_.push_back(f.source);
    return {f.source, fmt::format("[{}]", it->second)};
  }
  std::string legend() const {
    std::string text = "Sources:";
    for (std::size_t i = 0; i < order_.size(); ++i)
      text += fmt::format("\n  [{}] {}", i + 1, order_[i]);
    return text;
  }

 private:
  std::map<std::string, std::size_t> numbers_;
  std::vector<std::string> order_;
};

std::vector<Cell> figure_row(const std::string& name, const Figure& f, std::string_view unit_kind,
                             SourceIndex& sources) {
  return {text_cell(name), figure_cell(f, unit_kind),
          text_cell(std::string(to_string(f.provenance))), sources.cell(f),
          f.note.empty() ? empty_cell("") : text_cell(f.note)};
}

void add_optional(Table& t, const std::string& name, const std::optional<Figure>& f,
                  std::string_view unit_kind, SourceIndex& sources) {
  if (f) t.rows.push_back(figure_row(name, *f, unit_kind, sources));
}

Table figure_table(const Device& d, SourceIndex& sources) {
  Table t{"figures",
          {{"figure", "figure", Align::left},
           {"value", "value"},
           {"provenance", "provenance", Align::left},
           {"source", "src", Align::left},
           {"note", "note", Align::left}},
          {}};
  add_optional(t, d.unit_name + " count", d.compute_units, "count", sources);
  for (const auto& [precision, figure] : d.peak_flops_per_s) {
    t.rows.push_back(
        figure_row(fmt::format("peak {}", to_string(precision)), figure, "flops", sources));
  }
  for (const MemoryLevel& m : d.memory) {
    const std::string per = m.scope == Scope::unit ? " per " + d.unit_name : "";
    add_optional(t, m.name + " capacity" + per, m.capacity_bytes, "capacity", sources);
    add_optional(t, m.name + " bandwidth", m.bandwidth_bytes_per_s, "bandwidth", sources);
    add_optional(t, m.name + " latency", m.latency_s, "latency", sources);
  }
  for (const Link& l : d.links) {
    t.rows.push_back(
        figure_row(l.name + " bandwidth", l.bandwidth_bytes_per_s, "bandwidth", sources));
    add_optional(t, l.name + " latency", l.latency_s, "latency", sources);
  }
  return t;
}

}  // namespace

Document devices_document(const std::vector<Device>& devices) {
  Table t{"devices",
          {{"id", "ID", Align::left},
           {"name", "name", Align::left},
           {"kind", "kind", Align::left},
           {"year", "year"},
           {"memory_bytes", "memory"},
           {"bandwidth_bytes_per_s", "bandwidth"},
           {"fp16_flops_per_s", "fp16 peak"},
           {"bf16_flops_per_s", "bf16 peak"},
           {"ridge_flops_per_byte", "ridge"}},
          {}};
  for (const Device& d : devices) {
    const Precision p = d.headline_precision();
    t.rows.push_back({text_cell(d.id), text_cell(d.name), text_cell(std::string(to_string(d.kind))),
                      integer_cell(d.year), capacity_cell(d.main_memory().capacity_bytes->value),
                      bandwidth_cell(d.main_bandwidth_bytes_per_s()),
                      optional_peak(d, Precision::fp16), optional_peak(d, Precision::bf16),
                      intensity_cell(ridge_point(d.ceiling(p)))});
  }
  Document doc;
  doc.schema = "ridge.devices/1";
  doc.sections.push_back({"", "", {std::move(t)}, {}});
  doc.notes.push_back(
      "peaks are dense (no 2:4 sparsity); ridge = fp16 peak (else bf16, else the first) / "
      "main-memory bandwidth");
  doc.notes.push_back("`ridge device show ID` gives every figure with its source");
  return doc;
}

Document device_document(const Device& d) {
  SourceIndex sources;
  Table figures = figure_table(d, sources);
  Fields header{{{"id", "ID", text_cell(d.id)},
                 {"name", "name", text_cell(d.name)},
                 {"vendor", "vendor", text_cell(d.vendor)},
                 {"year", "year", integer_cell(d.year)},
                 {"origin", "from", text_cell(d.origin)}}};
  if (!d.runtime_names.empty()) {
    header.fields.insert(header.fields.end() - 1,
                         {"runtime_names", "runtime calls it",
                          text_cell(fmt::format("{}", fmt::join(d.runtime_names, ", ")))});
  }
  Document doc;
  doc.schema = "ridge.device/1";
  doc.title = fmt::format("{} ({})", d.name, d.id);
  doc.sections.push_back(
      {"", "", {std::move(header), std::move(figures), Paragraph{sources.legend()}}, {}});
  doc.notes.push_back(
      "spec: a published specification; estimate: a literature figure, good to about a factor of "
      "two; measured: from a measurement; peaks are dense (no 2:4 sparsity)");
  return doc;
}

}  // namespace ridge::report
