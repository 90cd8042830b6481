// PyTorch profiler traces (Kineto's Chrome trace format, and the legacy profiler's plain event
// list). The event splitter hands over one event at a time and simdjson's On Demand API reads
// it, so a trace of gigabytes streams through; what is kept is compact (names interned, shapes'
// figures shared). GPU kernels are joined to the CPU op that launched them by "External id"
// (or the launch's correlation id); a CPU-only trace is its operators' self times.
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "event_splitter.h"
#include "op_shapes.h"
#include "profile/readers.h"
#include "ridge/error.h"
#include "sass_counters.h"

namespace ridge::profile_input {

namespace {

using Json = nlohmann::json;
namespace od = simdjson::ondemand;

constexpr double kMicro = 1e-6;  // Chrome traces give ts and dur in microseconds

// One event's fields that matter here.
struct TraceEvent {
  std::string_view ph, cat, name;
  std::string thread;
  double ts = 0, dur = 0;
  std::optional<std::int64_t> external_id, correlation;
  std::optional<double> flops;
  Json dims, types;
  SassCounterFlops counters;
};

// Figures with where they came from, shared by every op of the same shape.
struct SourcedFigures {
  OpFigures figures;
  std::string source;
};

struct CpuOp {
  std::uint32_t name = 0;
  std::uint32_t thread = 0;
  double ts = 0, dur = 0;
  std::int32_t figures = -1;  // index into the shared figures, -1: none
};

struct GpuEvent {
  std::uint32_t name = 0;
  double dur_us = 0;
  std::int64_t external_id = -1;
  std::int64_t correlation = -1;
  bool memory = false;
  std::int32_t counters = -1;  // cuda_profiler_range: CUPTI's FLOPs
};

// Looked up by a string_view, without a copy: this runs once an event.
struct NameHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

class Names {
 public:
  std::uint32_t id(std::string_view name) {
    const auto it = ids_.find(name);
    if (it != ids_.end()) return it->second;
    const auto id = static_cast<std::uint32_t>(names_.size());
    names_.emplace_back(name);
    ids_.emplace(names_.back(), id);
    return id;
  }
  const std::string& operator[](std::uint32_t id) const { return names_[id]; }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, std::uint32_t, NameHash, std::equal_to<>> ids_;
};

std::optional<double> number_of(od::value v) {
  double d = 0;
  if (v.get_double().get(d) == simdjson::SUCCESS) return d;
  return std::nullopt;
}

// An event id (External id, correlation): a whole number an int64 holds exactly. Anything
// else links nothing, and a cast of a number past int64's range would be undefined.
std::optional<std::int64_t> id_of(od::value v) {
  const auto n = number_of(v);
  constexpr double kExact = 9007199254740992.0;  // 2^53: every whole double below is exact
  if (!n || *n != std::floor(*n) || std::fabs(*n) > kExact) return std::nullopt;
  return static_cast<std::int64_t>(*n);
}

// A small JSON value (Input Dims: lists of numbers; Input type: a list of strings) as
// nlohmann's, for the op models; anything else inside becomes null.
Json to_json(od::value v) {
  od::json_type type;
  if (v.type().get(type) != simdjson::SUCCESS) return Json();
  switch (type) {
    case od::json_type::array: {
      Json out = Json::array();
      od::array items;
      if (v.get_array().get(items) != simdjson::SUCCESS) return Json();
      for (auto item : items) {
        od::value element;
        out.push_back(item.get(element) == simdjson::SUCCESS ? to_json(element) : Json());
      }
      return out;
    }
    case od::json_type::number:
      return number_of(v).value_or(0);
    case od::json_type::string: {
      std::string_view text;
      return v.get_string().get(text) == simdjson::SUCCESS ? Json(std::string(text)) : Json();
    }
    default:
      return Json();
  }
}

void read_args(od::object args, TraceEvent& e) {
  for (auto field : args) {
    std::string_view key;
    if (field.unescaped_key().get(key) != simdjson::SUCCESS) continue;
    od::value v = field.value();
    if (key == "External id") {
      if (const auto id = id_of(v)) e.external_id = *id;
    } else if (key == "correlation") {
      if (const auto id = id_of(v)) e.correlation = *id;
    } else if (key == "flops") {
      e.flops = number_of(v);
    } else if (key == "Input Dims") {
      e.dims = to_json(v);
    } else if (key == "Input type") {
      e.types = to_json(v);
    } else if (key.starts_with("smsp__")) {
      if (const auto n = number_of(v)) e.counters.add(key, *n);
    }
  }
}

// pid and tid are numbers in Kineto's traces and strings in the legacy one: their text.
std::string_view token(od::value v) { return v.raw_json_token(); }

// Fails with simdjson's word for what is wrong with the event.
TraceEvent parse_event(od::parser& parser, std::string& text, const std::string& file,
                       std::size_t index) {
  text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  TraceEvent e;
  std::string_view pid, tid;
  od::document doc;
  auto error =
      parser.iterate(simdjson::padded_string_view(text.data(), text.size(), text.capacity()))
          .get(doc);
  od::object object;
  if (!error) error = doc.get_object().get(object);
  if (!error) {
    for (auto field : object) {
      std::string_view key;
      if ((error = field.unescaped_key().get(key))) break;
      od::value v = field.value();
      if (key == "ph") {
        error = v.get_string().get(e.ph);
      } else if (key == "cat") {
        error = v.get_string().get(e.cat);
      } else if (key == "name") {
        error = v.get_string().get(e.name);
      } else if (key == "ts") {
        e.ts = number_of(v).value_or(0);
      } else if (key == "dur") {
        e.dur = number_of(v).value_or(0);
      } else if (key == "pid") {
        pid = token(v);
      } else if (key == "tid") {
        tid = token(v);
      } else if (key == "args") {
        od::object args;
        if (v.get_object().get(args) == simdjson::SUCCESS) read_args(args, e);
      }
      if (error) break;
    }
  }
  if (error)
    input_error("{}: event {} is not valid JSON ({})", file, index, simdjson::error_message(error));
  e.thread = std::string(pid) + "/" + std::string(tid);
  return e;
}

class TraceContent {
 public:
  explicit TraceContent(bool legacy) : legacy_(legacy) {}

  void event(const TraceEvent& e) {
    if (e.ph != "X") return;  // complete events: those with a duration
    const std::string_view cat = e.cat;
    if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "Kernel" ||
        cat == "Memcpy" || cat == "Memset") {
      gpu_.push_back({names_.id(e.name), e.dur, e.external_id.value_or(-1),
                      e.correlation.value_or(-1),
                      cat.find("emcpy") != std::string_view::npos ||
                          cat.find("emset") != std::string_view::npos,
                      -1});
    } else if (cat == "cuda_profiler_range") {
      GpuEvent r{names_.id(e.name), e.dur, e.external_id.value_or(-1), -1, false, -1};
      if (e.counters.any)
        r.counters = shared({OpFigures{e.counters.flops, 0, std::nullopt, e.counters.precision},
                             "CUPTI counters (FMA = 2 FLOP)"});
      ranges_.push_back(r);
    } else if (cat == "cuda_runtime" || cat == "cuda_driver") {
      if (e.correlation && e.external_id) launch_ops_[*e.correlation] = *e.external_id;
    } else if (cat == "cpu_op" || cat == "operator" || (cat.empty() && legacy_)) {
      add_cpu_op(e);
    }
  }

  void device(std::string_view name) {
    if (device_name_.empty()) device_name_ = name;
  }

  Profile finish(const std::string& file, bool compressed) const {
    Profile p;
    p.file = file;
    p.format = legacy_ ? "legacy PyTorch profiler trace (an event list, no shapes)"
                       : "PyTorch profiler (Kineto) trace";
    if (compressed) p.format += ", gzip";
    p.device_name = device_name_;
    if (!gpu_.empty()) {
      gpu_launches(p);
    } else if (!ranges_.empty()) {
      p.format += ", CUPTI range-profiler counters";
      Tallies tallies;
      for (const GpuEvent& r : ranges_) tallies.add({r.name, -1, r.counters, false}, r.dur_us);
      add_all(p, tallies, "");
    } else if (!cpu_.empty()) {
      p.host = true;
      cpu_launches(p);
    } else {
      input_error("{}: the trace has no GPU kernel, memcpy or CPU operator events", file);
    }
    return p;
  }

 private:
  std::int32_t shared(SourcedFigures f) {
    const OpFigures& o = f.figures;
    const GemmShape g = o.gemm_shape.value_or(GemmShape{});
    const auto key =
        std::make_tuple(o.flops, o.bytes, o.gemm_shape.has_value(), g.m, g.n, g.k, g.batch,
                        o.precision ? static_cast<int>(*o.precision) : -1, f.source);
    const auto it = figure_ids_.find(key);
    if (it != figure_ids_.end()) return it->second;
    figures_.push_back(std::move(f));
    const auto id = static_cast<std::int32_t>(figures_.size() - 1);
    figure_ids_.emplace(key, id);
    return id;
  }

  void add_cpu_op(const TraceEvent& e) {
    CpuOp op{names_.id(e.name), threads_.id(e.thread), e.ts, e.dur, -1};
    const std::string name(e.name);
    std::optional<SourcedFigures> f;
    if (e.flops && *e.flops > 0)
      f = SourcedFigures{OpFigures{*e.flops, 0, std::nullopt, std::nullopt},
                         "the profiler's flops (with_flops=True)"};
    if (!e.dims.is_null()) {
      if (auto shaped = figures_from_shapes(name, e.dims, e.types)) {
        // The shapes give bytes too; the profiler's own FLOPs, where recorded, stay.
        if (f) {
          shaped->flops = f->figures.flops;
          f = SourcedFigures{*shaped, f->source + "; bytes from its Input Dims"};
        } else {
          f = SourcedFigures{*shaped, "its Input Dims, through ridge's op model"};
        }
      }
    }
    if (f) op.figures = shared(std::move(*f));
    if (e.external_id) op_index_[*e.external_id] = cpu_.size();
    cpu_.push_back(op);
  }

  const CpuOp* op_of(const GpuEvent& g) const {
    std::int64_t id = g.external_id;
    if (id <= 0 && g.correlation >= 0) {
      if (const auto it = launch_ops_.find(g.correlation); it != launch_ops_.end()) id = it->second;
    }
    const auto it = op_index_.find(id);
    return it == op_index_.end() ? nullptr : &cpu_[it->second];
  }

  // Launches of the same kernel, op and figures are one entry with their count: what is kept
  // grows with the distinct kernels, not with the launches.
  using LaunchKey = std::tuple<std::uint32_t, std::int64_t, std::int32_t, bool>;
  struct Tally {
    int count = 0;
    double dur_us = 0;
  };

  Launch launch(const LaunchKey& key, const Tally& tally, const std::string& via) const {
    const auto [name, op_name, figures, memory] = key;
    Launch l;
    l.name = names_[name];
    if (op_name >= 0) l.op = names_[static_cast<std::uint32_t>(op_name)];
    l.count = tally.count;
    l.time_s = tally.dur_us * kMicro;
    l.memory_operation = memory;
    if (figures >= 0) {
      const SourcedFigures& f = figures_[static_cast<std::size_t>(figures)];
      l.flops = f.figures.flops * tally.count;
      if (f.figures.bytes > 0) l.bytes = f.figures.bytes * tally.count;
      l.gemm_shape = f.figures.gemm_shape;
      l.precision = f.figures.precision;
      l.flops_source = via + f.source;
    }
    return l;
  }

  // The tallies in the order each key first appeared.
  class Tallies {
   public:
    void add(const LaunchKey& key, double dur_us) {
      auto [it, added] = index_.try_emplace(key, order_.size());
      if (added) order_.push_back({key, {}});
      Tally& t = order_[it->second].second;
      ++t.count;
      t.dur_us += dur_us;
    }
    const std::vector<std::pair<LaunchKey, Tally>>& entries() const { return order_; }

   private:
    std::map<LaunchKey, std::size_t> index_;
    std::vector<std::pair<LaunchKey, Tally>> order_;
  };

  void add_all(Profile& p, const Tallies& tallies, const std::string& via) const {
    for (const auto& [key, tally] : tallies.entries())
      p.launches.push_back(launch(key, tally, via));
  }

  // A kernel takes its op's FLOPs and bytes only when it is the op's one kernel: an op that
  // launches several leaves them unknown rather than counted twice.
  void gpu_launches(Profile& p) const {
    std::unordered_map<const CpuOp*, int> kernels_of;
    for (const GpuEvent& g : gpu_) {
      if (const CpuOp* op = op_of(g)) ++kernels_of[op];
    }
    Tallies tallies;
    for (const GpuEvent& g : gpu_) {
      const CpuOp* op = op_of(g);
      const std::int32_t figures = op && kernels_of[op] == 1 ? op->figures : -1;
      tallies.add({g.name, op ? static_cast<std::int64_t>(op->name) : -1, figures, g.memory},
                  g.dur_us);
    }
    add_all(p, tallies, "the op's ");
  }

  // Each operator's self time: its duration less its children's on the same thread, so the
  // times add up to the top-level operators' durations.
  void cpu_launches(Profile& p) const {
    std::vector<std::size_t> order(cpu_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::ranges::sort(order, [&](std::size_t a, std::size_t b) {
      const CpuOp& x = cpu_[a];
      const CpuOp& y = cpu_[b];
      return std::tie(x.thread, x.ts, y.dur) < std::tie(y.thread, y.ts, x.dur);
    });
    std::vector<double> self(cpu_.size());
    std::vector<std::size_t> open;  // enclosing ops on this thread
    for (const std::size_t i : order) {
      const CpuOp& op = cpu_[i];
      while (!open.empty() && (cpu_[open.back()].thread != op.thread ||
                               cpu_[open.back()].ts + cpu_[open.back()].dur <= op.ts))
        open.pop_back();
      self[i] = op.dur;
      if (!open.empty()) self[open.back()] -= op.dur;
      open.push_back(i);
    }
    Tallies tallies;
    for (std::size_t i = 0; i < cpu_.size(); ++i) {
      tallies.add({cpu_[i].name, cpu_[i].name, cpu_[i].figures, false}, std::max(0.0, self[i]));
    }
    add_all(p, tallies, "");
  }

  bool legacy_;
  std::string device_name_;
  Names names_;
  Names threads_;
  std::vector<CpuOp> cpu_;
  std::vector<GpuEvent> gpu_;
  std::vector<GpuEvent> ranges_;
  std::vector<SourcedFigures> figures_;
  std::map<std::tuple<double, double, bool, double, double, double, double, int, std::string>,
           std::int32_t>
      figure_ids_;
  std::unordered_map<std::int64_t, std::size_t> op_index_;
  std::unordered_map<std::int64_t, std::int64_t> launch_ops_;
};

}  // namespace

Profile read_trace(ByteSource& source, const std::string& file) {
  EventSplitter splitter;
  od::parser parser;
  std::optional<TraceContent> content;
  std::size_t index = 0;
  splitter.run(source, file, [&](TraceSection section, std::string& text) {
    if (!content) content.emplace(splitter.legacy());
    if (section == TraceSection::devices) {
      od::document doc;
      text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
      std::string_view name;
      if (parser.iterate(simdjson::padded_string_view(text.data(), text.size(), text.capacity()))
                  .get(doc) == simdjson::SUCCESS &&
          doc["name"].get_string().get(name) == simdjson::SUCCESS)
        content->device(name);
      return;
    }
    content->event(parse_event(parser, text, file, index++));
  });
  if (!splitter.legacy() && !splitter.saw_events())
    input_error("{}: not a PyTorch profiler trace (a JSON object without traceEvents)", file);
  if (!content) content.emplace(splitter.legacy());
  return content->finish(file, source.compressed());
}

}  // namespace ridge::profile_input
