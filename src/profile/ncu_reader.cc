// Nsight Compute's `ncu --csv`: the long form (one row per kernel and metric: Metric Name,
// Metric Unit, Metric Value) and the wide `--page raw` form (one row per kernel, one column per
// metric, the units in the second row). CSV fields are split by libcsv.
#include <csv.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/text.h"
#include "profile/readers.h"
#include "ridge/error.h"
#include "sass_counters.h"

namespace ridge::profile_input {

namespace {

using Rows = std::vector<std::vector<std::string>>;

struct CsvCollector {
  Rows rows;
  std::vector<std::string> row;
};

Rows split_csv(const std::string& text, const std::string& file) {
  csv_parser parser;
  if (csv_init(&parser, CSV_APPEND_NULL) != 0) input_error("{}: cannot start the CSV reader", file);
  CsvCollector c;
  const auto field = [](void* data, std::size_t size, void* collector) {
    static_cast<CsvCollector*>(collector)->row.emplace_back(static_cast<const char*>(data), size);
  };
  const auto end_row = [](int, void* collector) {
    auto* rows = static_cast<CsvCollector*>(collector);
    rows->rows.push_back(std::move(rows->row));
    rows->row.clear();
  };
  const std::size_t done = csv_parse(&parser, text.data(), text.size(), field, end_row, &c);
  const bool failed = done != text.size();
  const std::string problem = failed ? csv_strerror(csv_error(&parser)) : "";
  csv_fini(&parser, field, end_row, &c);
  csv_free(&parser);
  if (failed) input_error("{}: not valid CSV at byte {} ({})", file, done, problem);
  return c.rows;
}

// "5,323,503,232.00" -> 5323503232; "n/a" or empty -> nullopt.
std::optional<double> metric_number(const std::string& text) {
  return grouped_number(trimmed(text));
}

// The factor that turns a value in `unit` into bytes, seconds or cycles per second (SI
// prefixes, as Nsight Compute scales its units).
double unit_factor(std::string unit) {
  unit = trimmed(unit);
  const auto prefixed = [&](std::string_view base) -> std::optional<double> {
    if (!unit.ends_with(base)) return std::nullopt;
    const std::string prefix = unit.substr(0, unit.size() - base.size());
    if (prefix.empty()) return 1.0;
    if (prefix == "K" || prefix == "k") return 1e3;
    if (prefix == "M") return 1e6;
    if (prefix == "G") return 1e9;
    if (prefix == "T") return 1e12;
    if (prefix == "m") return 1e-3;
    if (prefix == "u") return 1e-6;
    if (prefix == "n") return 1e-9;
    return std::nullopt;
  };
  if (const std::size_t slash = unit.find('/'); slash != std::string::npos) {
    // "cycle/nsecond": cycles per that time.
    const std::string per = unit.substr(slash + 1);
    const double time = unit_factor(per);
    return time > 0 ? 1 / time : 1;
  }
  for (std::string_view base : {"byte", "second", "cycle", "inst"}) {
    if (const auto f = prefixed(base)) return *f;
  }
  return 1;
}

struct KernelMetrics {
  std::string id;
  std::string name;
  std::map<std::string, double> values;  // in base units
};

std::optional<double> metric(const KernelMetrics& k, const std::string& name) {
  const auto it = k.values.find(name);
  if (it == k.values.end()) return std::nullopt;
  return it->second;
}

std::size_t column(const std::vector<std::string>& header, std::string_view name) {
  const auto it = std::ranges::find(header, name);
  return it == header.end() ? header.size() : static_cast<std::size_t>(it - header.begin());
}

std::vector<KernelMetrics> long_form(const Rows& rows, const std::string& file) {
  const auto& h = rows[0];
  const std::size_t id = column(h, "ID"), name = column(h, "Kernel Name"),
                    metric_name = column(h, "Metric Name"), unit = column(h, "Metric Unit"),
                    value = column(h, "Metric Value");
  if (id == h.size() || name == h.size() || value == h.size())
    input_error("{}: an ncu CSV needs the columns ID, Kernel Name and Metric Value", file);
  std::vector<KernelMetrics> kernels;
  std::map<std::string, std::size_t> index;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const auto& row = rows[r];
    if (row.size() < h.size()) continue;
    auto [it, added] = index.try_emplace(row[id], kernels.size());
    if (added) kernels.push_back({row[id], row[name], {}});
    if (const auto v = metric_number(row[value])) {
      const double factor = unit < h.size() ? unit_factor(row[unit]) : 1;
      kernels[it->second].values[row[metric_name]] = *v * factor;
    }
  }
  return kernels;
}

// --page raw: the metrics are the columns; the second row gives their units.
std::vector<KernelMetrics> wide_form(const Rows& rows, const std::string& file) {
  const auto& h = rows[0];
  const std::size_t id = column(h, "ID"), name = column(h, "Kernel Name");
  if (id == h.size() || name == h.size())
    input_error("{}: an ncu CSV needs the columns ID and Kernel Name", file);
  const bool has_units = rows.size() > 1 && rows[1].size() > id && trimmed(rows[1][id]).empty();
  const auto& units = has_units ? rows[1] : std::vector<std::string>{};
  std::vector<KernelMetrics> kernels;
  for (std::size_t r = has_units ? 2 : 1; r < rows.size(); ++r) {
    const auto& row = rows[r];
    if (row.size() < h.size()) continue;
    KernelMetrics k{row[id], row[name], {}};
    for (std::size_t c = 0; c < h.size(); ++c) {
      if (h[c].find("__") == std::string::npos) continue;  // metric names: unit__counter.rollup
      if (const auto v = metric_number(row[c]))
        k.values[h[c]] = *v * (c < units.size() ? unit_factor(units[c]) : 1);
    }
    kernels.push_back(std::move(k));
  }
  return kernels;
}

std::optional<double> duration_s(const KernelMetrics& k) {
  if (const auto t = metric(k, "gpu__time_duration.sum")) return *t;
  for (const char* cycles :
       {"smsp__cycles_elapsed.avg", "sm__cycles_elapsed.avg", "gpc__cycles_elapsed.max"}) {
    const auto n = metric(k, cycles);
    const auto rate = metric(k, std::string(cycles) + ".per_second");
    if (n && rate && *rate > 0) return *n / *rate;
  }
  return std::nullopt;
}

void add_flops(const KernelMetrics& k, Launch& l) {
  SassCounterFlops counted;
  for (const auto& [name, value] : k.values) counted.add(name, value);
  if (!counted.any) return;
  l.flops = counted.flops;
  l.precision = counted.precision;
  l.flops_source = "Nsight Compute instruction counters (FMA = 2 FLOP)";
}

Launch launch_of(const KernelMetrics& k, const std::string& file) {
  Launch l;
  l.name = demangled(k.name);
  const auto t = duration_s(k);
  if (!t) {
    input_error(
        "{}: kernel '{}' (ID {}) has no duration: the file needs gpu__time_duration.sum, "
        "or smsp__cycles_elapsed.avg with its .per_second",
        file, short_kernel_name(k.name), k.id);
  }
  l.time_s = *t;
  add_flops(k, l);
  l.bytes = metric(k, "dram__bytes.sum");
  if (!l.bytes) {
    const auto read = metric(k, "dram__bytes_read.sum");
    const auto write = metric(k, "dram__bytes_write.sum");
    if (read || write) l.bytes = read.value_or(0) + write.value_or(0);
  }
  l.l2_bytes = metric(k, "lts__t_bytes.sum");
  l.l1_bytes = metric(k, "l1tex__t_bytes.sum");
  l.tensor_instructions = metric(k, "smsp__inst_executed_pipe_tensor.sum");
  return l;
}

}  // namespace

Profile read_ncu_csv(const std::string& text, const std::string& file) {
  const Rows rows = split_csv(text, file);
  if (rows.size() < 2) input_error("{}: an ncu CSV with no kernel rows", file);
  const bool long_form_file = std::ranges::find(rows[0], "Metric Name") != rows[0].end();
  Profile p;
  p.file = file;
  p.format = long_form_file ? "Nsight Compute CSV (ncu --csv)" : "Nsight Compute CSV (--page raw)";
  for (const KernelMetrics& k : long_form_file ? long_form(rows, file) : wide_form(rows, file))
    p.launches.push_back(launch_of(k, file));
  if (p.launches.empty()) input_error("{}: an ncu CSV with no kernel rows", file);
  return p;
}

}  // namespace ridge::profile_input
