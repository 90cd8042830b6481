// Runs the bundled published measurements through ridge's bound and expected time.
#include "ridge/validation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <map>
#include <span>
#include <sstream>
#include <variant>
#include <vector>

#include "core/embedded.h"
#include "core/json_input.h"
#include "core/text.h"
#include "ops/triton_moe.h"
#include "predict/device_names.h"
#include "predict/flash_decode.h"
#include "ridge/analysis.h"
#include "ridge/bounds.h"
#include "ridge/calibration.h"
#include "ridge/collective.h"
#include "ridge/error.h"
#include "ridge/expected.h"
#include "ridge/inference.h"
#include "ridge/model.h"
#include "ridge/quantization.h"

namespace ridge {

std::string_view to_string(ValidationRole role) {
  return role == ValidationRole::fit ? "fit" : "held-out";
}

ValidationTarget target_for(const ValidationSet& set) {
  if (set.kind == "model") return {0.15, std::nullopt};
  return {0.10, 0.25};
}

namespace {

std::vector<std::string> target_misses(const ValidationSet& set) {
  const ValidationTarget target = target_for(set);
  const ValidationStats& s = set.stats;
  std::vector<std::string> misses;
  if (s.median_abs_error > target.median_abs_error)
    misses.push_back(fmt::format("median {:.1f}% > {:.0f}%", 100 * s.median_abs_error,
                                 100 * target.median_abs_error));
  if (target.p90_abs_error && s.p90_abs_error > *target.p90_abs_error)
    misses.push_back(
        fmt::format("p90 {:.1f}% > {:.0f}%", 100 * s.p90_abs_error, 100 * *target.p90_abs_error));
  if (s.bound_broken > 0)
    misses.push_back(
        fmt::format("{} bound{} broken", s.bound_broken, s.bound_broken == 1 ? "" : "s"));
  return misses;
}

}  // namespace

bool meets_target(const ValidationSet& set) {
  return set.role == ValidationRole::held_out && set.stats.count > 0 && target_misses(set).empty();
}

std::string target_verdict(const ValidationSet& set) {
  if (set.role == ValidationRole::fit) return "fit set (not judged)";
  if (set.stats.count == 0) return "no expected times";
  const std::vector<std::string> misses = target_misses(set);
  return misses.empty() ? "met" : fmt::format("{}", fmt::join(misses, "; "));
}

std::optional<double> ValidationPoint::error() const {
  if (!expected_s || excluded) return std::nullopt;
  return (*expected_s - measured_s) / measured_s;
}

namespace {

// ---------------------------------------------------------------------------------------------
// The file: '#' lines, then a header row and tab-separated rows.

struct Table {
  std::string origin;
  std::vector<std::string> comments;
  std::map<std::string, std::string> directives;         // '# ridge: key = value (why)'
  std::map<std::string, std::string> directive_reasons;  // each key's '(why)'
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int> lines;  // file line of each row
  // The part each GPU name of the file means, found once a name (device_of).
  mutable std::map<std::string, predict::NamedDevice, std::less<>> named_devices;

  // The column of that name, or of one of the names other sources give it.
  std::optional<std::size_t> column(std::string_view query) const {
    const std::string name = lower_case(query);  // outlives the views aliases() returns
    for (std::string_view alias : aliases(name)) {
      const auto it = std::ranges::find(header, alias);
      if (it != header.end()) return static_cast<std::size_t>(it - header.begin());
    }
    return std::nullopt;
  }

  static std::vector<std::string_view> aliases(std::string_view name) {
    static const std::map<std::string_view, std::vector<std::string_view>> names = {
        {"gpu", {"gpu", "device", "accelerator", "hardware"}},
        {"device", {"device", "gpu", "accelerator", "hardware"}},
        {"batch",
         {"batch", "batch_size", "bs", "max_concurrency", "concurrency", "concurrent_requests",
          "num_concurrent_requests"}},
        {"isl", {"isl", "input_len", "input_length", "prompt_len", "prompt"}},
        {"osl", {"osl", "output_len", "output_length", "gen_len", "gen"}},
        {"tp", {"tp", "tp_size", "tensor_parallel"}},
        {"dtype", {"dtype", "precision"}},
        {"groups", {"groups", "num_groups", "batch_count", "batch"}},
        {"seqlen", {"seqlen", "seq_len", "seqlen_q", "sequence_length", "seq"}},
        {"headdim", {"headdim", "head_dim", "d_head", "hdim"}},
        {"heads", {"heads", "nheads", "num_heads", "n_heads"}},
        {"causal", {"causal", "is_causal", "casual"}},
        {"pass", {"pass", "direction", "mode"}},
        {"kv_cache", {"kv_cache", "kv_cache_dtype", "kv_dtype", "kv_cache_precision", "kv"}},
    };
    const auto it = names.find(name);
    return it == names.end() ? std::vector<std::string_view>{name} : it->second;
  }
  bool has(std::string_view name) const { return column(name).has_value(); }
};

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  while (true) {
    const std::size_t tab = line.find('\t', start);
    cells.push_back(line.substr(start, tab - start));
    if (tab == std::string::npos) return cells;
    start = tab + 1;
  }
}

// The keys a '# ridge:' line may have ('device NAME' aside), in alphabetical order: a misspelt
// one would otherwise be read as no directive at all, and its file priced without it.
constexpr std::string_view kDirectiveKeys[] = {
    "attention",
    "collective_kernel",
    "context_kernel",
    "context_qkv",
    "decode_kernel",
    "device",
    "exclude",
    "extra_kernels",
    "fit",
    "flash_attention",
    "gemm_tile",
    "graph_calls",
    "graph_captured",
    "input_quantize",
    "message_row_elements",
    "moe_kernels",
    "replay_every_copy",
    "replay_floor_s",
    "replayed_copies",
    "role",
    "routing",
    "timed_calls",
    "timing_overhead_s",
    "warmup_calls",
};

void read_directive(Table& t, const std::string& comment, int line) {
  const std::string body = trimmed(comment.substr(std::string_view("ridge:").size()));
  const std::size_t equals = body.find('=');
  if (equals == std::string::npos)
    input_error("{}:{}: '# ridge:' line '{}' is not 'key = value'", t.origin, line, body);
  const std::string value = trimmed(body.substr(equals + 1));
  const std::string key = trimmed(body.substr(0, equals));
  if (!key.starts_with("device ") &&
      std::ranges::find(kDirectiveKeys, key) == std::ranges::end(kDirectiveKeys))
    input_error("{}:{}: '# ridge: {}' is no directive ridge reads ({})", t.origin, line, key,
                fmt::join(kDirectiveKeys, ", "));
  t.directives[key] = value.substr(0, value.find(' '));
  const std::size_t why = value.find('(');
  if (why != std::string::npos)
    t.directive_reasons[key] = trimmed(value.substr(why + 1, value.rfind(')') - why - 1));
}

// A column's name as it is matched: without regard to case ("M", "TFLOPS"), and with each run of
// other characters than letters and digits one '_' ("time (ms)" is time_ms, "latency-us"
// latency_us).
std::string column_key(std::string_view name) {
  std::string key;
  for (const char c : lower_case(trimmed(name))) {
    const bool word = std::isalnum(static_cast<unsigned char>(c));
    if (word)
      key += c;
    else if (!key.empty() && key.back() != '_')
      key += '_';
  }
  while (!key.empty() && key.back() == '_') key.pop_back();
  return key;
}

// A cell as a spreadsheet quotes it ("gpt-fast (torch.compile, pure PyTorch)", a quote within
// doubled), unquoted; any other cell as it is.
std::string unquoted(std::string cell) {
  if (cell.size() < 2 || cell.front() != '"' || cell.back() != '"') return cell;
  std::string plain;
  for (std::size_t i = 1; i + 1 < cell.size(); ++i) {
    plain += cell[i];
    if (cell[i] == '"' && cell[i + 1] == '"') ++i;
  }
  return plain;
}

// The cells of a row, unquoted, without the empty ones past the `keep`-th: a spreadsheet's
// export may end its rows, or its header, with tabs.
std::vector<std::string> cells_of(const std::string& line, std::size_t keep) {
  std::vector<std::string> cells = split_tabs(line);
  for (std::string& cell : cells) cell = unquoted(std::move(cell));
  while (cells.size() > keep && trimmed(cells.back()).empty()) cells.pop_back();
  return cells;
}

// The three sides of a product's shape as tables write it ("4096x4096x8192", "1024 x 2048 x
// 4096"): three whole numbers from 1 to 1e9, else none.
std::optional<std::array<double, 3>> shape_sides(std::string_view text) {
  std::string joined;
  for (const char c : text)
    if (!std::isspace(static_cast<unsigned char>(c)))
      joined += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::array<double, 3> sides{};
  std::size_t start = 0;
  for (double& side : sides) {
    if (start > joined.size()) return std::nullopt;  // fewer than three
    const std::size_t x = joined.find('x', start);
    const std::optional<double> value =
        whole_number(std::string_view(joined).substr(start, x - start));
    if (!value || *value < 1 || *value > 1e9 || *value != std::floor(*value)) return std::nullopt;
    side = *value;
    start = x == std::string::npos ? joined.size() + 1 : x + 1;
  }
  if (start <= joined.size()) return std::nullopt;  // more than three
  return sides;
}

// A GEMM table that gives each product's shape in one column ("shape", "mnk"), its m, n and k
// as columns of their own; a cell that is not a shape is bad input naming it.
void split_shape_column(Table& t) {
  if (t.column("m") || t.column("n") || t.column("k")) return;
  const auto shape = std::ranges::find_if(
      t.header, [](const std::string& name) { return name == "shape" || name == "mnk"; });
  if (shape == t.header.end()) return;
  const auto at = static_cast<std::size_t>(shape - t.header.begin());
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const auto sides = shape_sides(t.rows[r][at]);
    if (!sides)
      input_error("{}:{}: {}: '{}' is not MxNxK", t.origin, t.lines[r], *shape, t.rows[r][at]);
    for (const double side : *sides) t.rows[r].push_back(fmt::format("{:.0f}", side));
  }
  t.header.insert(t.header.end(), {"m", "n", "k"});
}

Table read_table(std::string_view text, const std::string& origin) {
  Table t;
  t.origin = origin;
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";  // a UTF-8 file saved with one
  if (text.starts_with(kByteOrderMark)) text.remove_prefix(kByteOrderMark.size());
  std::istringstream in{std::string(text)};
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trimmed(line).empty()) continue;
    if (line.starts_with('#')) {
      const std::string comment = trimmed(line.substr(1));
      if (comment.starts_with("ridge:")) {
        read_directive(t, comment, number);
      } else {
        t.comments.push_back(comment);
      }
      continue;
    }
    if (t.header.empty()) {
      t.header = cells_of(line, 1);
      for (std::string& name : t.header) name = column_key(name);
      continue;
    }
    std::vector<std::string> cells = cells_of(line, t.header.size());
    if (cells.size() != t.header.size())
      input_error("{}:{}: {} columns where the header has {}", origin, number, cells.size(),
                  t.header.size());
    t.rows.push_back(std::move(cells));
    t.lines.push_back(number);
  }
  if (t.header.empty()) input_error("{}: no header row", origin);
  split_shape_column(t);
  return t;
}

class Row {
 public:
  Row(const Table& t, std::size_t i) : table_(t), cells_(t.rows[i]), line_(t.lines[i]) {}
  int line() const { return line_; }
  const std::string& origin() const { return table_.origin; }

  std::string text(std::string_view column) const {
    const auto c = table_.column(column);
    if (!c) input_error("{}: no column '{}'", table_.origin, column);
    return cells_[*c];
  }
  // The header name `column` is read from ("max_concurrency" for "batch"), if the table has it.
  std::optional<std::string> header_of(std::string_view column) const {
    const auto c = table_.column(column);
    if (!c) return std::nullopt;
    return table_.header[*c];
  }
  std::optional<std::string> optional_text(std::string_view column) const {
    const auto c = table_.column(column);
    if (!c || cells_[*c].empty()) return std::nullopt;
    return cells_[*c];
  }
  // A positive finite number (thousands grouped by commas or not), else bad input naming the
  // file, line, column and value.
  double number(std::string_view column) const {
    const std::string cell = text(column);
    const std::optional<double> value = grouped_number(cell);
    if (!value || *value <= 0) {
      input_error("{}:{}: {}: '{}' is not a positive number", table_.origin, line_, column,
                  json_input_detail::printable(cell));
    }
    return *value;
  }
  std::optional<double> optional_number(std::string_view column) const {
    if (!optional_text(column)) return std::nullopt;
    return number(column);
  }
  // A whole number from 1 to `most` (batch, sequence lengths, GPUs): a count past int's range
  // would overflow the workload, so it is bad input rather than a cast.
  int count(std::string_view column, double most = 1e7) const {
    const double value = number(column);
    if (value != std::floor(value) || value > most)
      input_error("{}:{}: {}: '{}' is not a whole number from 1 to {}", table_.origin, line_,
                  column, text(column), most);
    return static_cast<int>(value);
  }
  // A count where the source gives the column, else one (one GPU, product, head or sequence).
  int count_or_one(std::string_view column, double most) const {
    return optional_text(column) ? count(column, most) : 1;
  }
  // A matrix side, from 1 to 1e9.
  double side(std::string_view column) const { return count(column, 1e9); }
  // A side where the source gives the column, else one.
  double side_or_one(std::string_view column) const { return count_or_one(column, 1e9); }

 private:
  const Table& table_;
  const std::vector<std::string>& cells_;
  int line_;
};

std::string source_of(const Table& t) {
  std::string source;
  for (const std::string& c : t.comments) {
    if (c.starts_with("Source") || c.starts_with("S") || c.starts_with("Model-level"))
      source += (source.empty() ? "" : " ") + c;
    if (source.size() > 600) break;
  }
  return source.empty() && !t.comments.empty() ? t.comments.front() : source;
}

// ---------------------------------------------------------------------------------------------
// Names in the files, turned into ridge's devices, precisions and models.

// The device of a row: the file's '# ridge: device NAME = ID (why)' for rows naming the part
// NAME, or its '# ridge: device = ID (why)' for every row (a source whose own name for the part
// fits several catalog entries, "A100 80GB", or none, but whose documents say which it is), else
// the part the row's name means (predict/device_names.h).
predict::NamedDevice device_of(const Table& t, const Catalog& catalog, std::string_view named) {
  auto it = t.directives.find("device " + std::string(named));
  if (it == t.directives.end()) it = t.directives.find("device");
  if (it == t.directives.end()) {
    auto known = t.named_devices.find(named);
    if (known == t.named_devices.end())
      known = t.named_devices.emplace(named, predict::find_named_device(catalog, named)).first;
    return known->second;
  }
  if (const Device* pinned = catalog.find(it->second)) return {pinned, {pinned}, ""};
  input_error("{}: '# ridge: {} = {}' is not a catalog id (`ridge devices` lists them)", t.origin,
              it->first, it->second);
}

// Notes once in the set how a row's device name was read, where it fits several parts.
void note_presumption(ValidationSet& set, const predict::NamedDevice& named) {
  if (named.presumption.empty()) return;
  if (std::ranges::find(set.presumptions, named.presumption) == set.presumptions.end())
    set.presumptions.push_back(named.presumption);
}

// 'fp16', 'bf16', 'fp8_e4m3->bf16' (inputs, then the output's type), 'fp8_e4m3fn',
// 'nvfp4->bf16' (a block-scaled format's inputs: its products' width, its scales in its bytes).
struct GemmTypes {
  Precision compute = Precision::fp16;
  double input_bytes = 2;
  double output_bytes = 2;
  bool hardware_scales = false;  // the inputs' format's QuantFormat::hardware_scales (NVFP4)
};

// A precision as the tables write it: ridge's names, PyTorch's ("torch.bfloat16", "half",
// "float8_e4m3fn") and the fp8 formats' ("e4m3").
std::optional<Precision> precision_named(std::string_view name) {
  std::string lower = lower_case(trimmed(name));
  if (lower.starts_with("torch.")) lower.erase(0, std::string_view("torch.").size());
  if (lower.starts_with("fp8") || lower.starts_with("float8") || lower.starts_with("e4m3") ||
      lower.starts_with("e5m2"))
    return Precision::fp8;
  static const std::map<std::string_view, Precision> torch_names = {
      {"float16", Precision::fp16}, {"half", Precision::fp16},  {"bfloat16", Precision::bf16},
      {"float32", Precision::fp32}, {"float", Precision::fp32}, {"float64", Precision::fp64},
      {"double", Precision::fp64}};
  if (const auto it = torch_names.find(lower); it != torch_names.end()) return it->second;
  return find_precision(lower);
}

// The products' inputs as a row names them: a precision, or a format that quantises the
// activations as well as the weights and multiplies at its own width ('nvfp4': fp4 values, an
// fp8 scale a block of 16 of them).
std::optional<GemmTypes> gemm_input_types(std::string_view name) {
  if (const auto precision = precision_named(name))
    return GemmTypes{*precision, bytes_per_element(*precision), bytes_per_element(*precision)};
  const auto format = find_quant_format(trimmed(name));
  if (!format || !format->quantises_activations) return std::nullopt;
  return GemmTypes{own_product_precision(*format), format->bytes_per_value(),
                   format->bytes_per_value(), format->hardware_scales};
}

std::optional<GemmTypes> gemm_types(std::string_view dtype) {
  const std::size_t arrow = dtype.find("->");
  auto types = gemm_input_types(dtype.substr(0, arrow));
  if (!types) return std::nullopt;
  GemmTypes& t = *types;
  if (arrow != std::string_view::npos) {
    const auto output = precision_named(dtype.substr(arrow + 2));
    if (!output) return std::nullopt;
    t.output_bytes = bytes_per_element(*output);
  }
  return t;
}

ValidationStats statistics(const std::vector<ValidationPoint>& points) {
  ValidationStats s;
  std::vector<double> abs_errors, errors, ratios;
  for (const ValidationPoint& p : points) {
    if (p.excluded) continue;
    s.bound_broken += p.bound_broken() ? 1 : 0;
    ratios.push_back(p.measured_s / p.bound_s);
    if (const auto e = p.error()) {
      errors.push_back(*e);
      abs_errors.push_back(std::abs(*e));
    }
  }
  const auto quantile = [](std::vector<double> v, double q) {
    if (v.empty()) return 0.0;
    std::ranges::sort(v);
    const double at = q * static_cast<double>(v.size() - 1);
    const std::size_t low = static_cast<std::size_t>(std::floor(at));
    const std::size_t high = std::min(low + 1, v.size() - 1);
    return v[low] + (at - static_cast<double>(low)) * (v[high] - v[low]);
  };
  s.count = static_cast<int>(abs_errors.size());
  s.median_abs_error = quantile(abs_errors, 0.5);
  s.p90_abs_error = quantile(abs_errors, 0.9);
  s.bias = quantile(errors, 0.5);
  s.median_bound_ratio = quantile(ratios, 0.5);
  const auto share_within = [&](double limit) {
    if (abs_errors.empty()) return 0.0;
    const auto within = std::ranges::count_if(abs_errors, [&](double e) { return e <= limit; });
    return static_cast<double>(within) / static_cast<double>(abs_errors.size());
  };
  s.within_10 = share_within(0.10);
  s.within_25 = share_within(0.25);
  return s;
}

ValidationSet new_set(const Table& t, std::string name, std::string kind, ValidationRole role) {
  ValidationSet set;
  set.name = std::move(name);
  set.file = t.origin;
  set.source = source_of(t);
  set.kind = std::move(kind);
  set.role = role;
  return set;
}

std::string stem_of(const std::string& origin) {
  const std::size_t slash = origin.find_last_of('/');
  std::string stem = origin.substr(slash == std::string::npos ? 0 : slash + 1);
  return stem.substr(0, stem.find('.'));
}

// A '# ridge: KEY = NUMBER' directive from `least` to `most`, a whole number where `whole`; none
// when the file has none. `what` is what it must be, for the error.
std::optional<double> directive_number(const Table& t, const std::string& key, double least,
                                       double most, bool whole, std::string_view what) {
  const auto it = t.directives.find(key);
  if (it == t.directives.end()) return std::nullopt;
  const std::optional<double> value = whole_number(it->second);
  if (!value || *value < least || *value > most || (whole && *value != std::floor(*value)))
    input_error("{}: '# ridge: {} = {}' is not {}", t.origin, key, it->second, what);
  return value;
}

// A '# ridge: KEY = SECONDS' directive; 0 when the file has none.
double directive_seconds(const Table& t, const std::string& key) {
  return directive_number(t, key, 0, 10, false, "a time from 0 to 10 s").value_or(0);
}

// A '# ridge: KEY = CHOICE' directive, one of `choices`; `absent` when the file has none.
std::string directive_choice(const Table& t, const std::string& key, std::string_view absent,
                             std::initializer_list<std::string_view> choices) {
  const auto it = t.directives.find(key);
  if (it == t.directives.end()) return std::string(absent);
  if (std::ranges::find(choices, it->second) == choices.end())
    input_error("{}: '# ridge: {} = {}' is not {}", t.origin, key, it->second,
                fmt::join(choices, " or "));
  return it->second;
}

// Where a kernel's operands are when a source times it. A source that replays it ('# ridge:
// replayed_copies = N (why)') over up to N distinct copies of its weights, as many as exceed the
// L2 (aiconfigurator's collector: max(1, min(5, ceil(L2 / weight bytes))) for its GEMMs,
// collector/trtllm/collect_gemm.py; one, the same buffers, for its attention layers) finds part
// of them in the L2 from the call before; a source without the directive reads them from memory
// (it flushes the L2, or times a model's layers, each with its own weights).
struct Residency {
  // The share of a call's bytes the L2 can hold between calls: its capacity over the replayed
  // working set, at most 1; 0 where nothing is replayed.
  double l2_share = 0;
  // The replayed working set over the L2's capacity, from which the calibration says what share
  // the L2 serves in practice (Calibration::l2_hit_share); 0 where nothing is replayed.
  double over_capacity = 0;
  // Whether the expected time counts the L2's hits only where the profile says how far its L2
  // holds a replayed set (Calibration::l2_hit_all_to, measured or estimated from a measurement):
  // the attention tables, whose figures are fitted to the H100's replayed tables, hits and all.
  bool hits_need_profile_reach = false;
};

// Where a replayed working set of `working_set_bytes` stays on `device`; nowhere but main memory
// where the catalog lists no L2.
Residency replayed_residency(double working_set_bytes, const Device& device) {
  const MemoryLevel* l2 = device.shared_cache();
  if (!l2 || working_set_bytes <= 0) return {};
  const double capacity = l2->capacity_bytes->value;
  return {std::min(1.0, capacity / working_set_bytes), working_set_bytes / capacity};
}

// The roofline bound of an op whose bytes are `l2_share` in the L2: those at the L2's bandwidth
// where the catalog gives one (else free: a bound may not assume less bandwidth than the part
// has), the rest at main memory's. Whatever the cache keeps, no more than its capacity of a
// replayed working set can be there, so the bound holds.
double bound_s(const Op& op, const Device& device, Precision precision, double l2_share) {
  if (l2_share <= 0) return analyse(op, device, precision).time_lower_bound_s;
  const MemoryLevel* l2 = device.shared_cache();
  const double from_memory_s =
      transfer_time_s(op.bytes * (1 - l2_share), device.main_bandwidth_bytes_per_s());
  const double from_l2_s =
      l2->bandwidth_bytes_per_s
          ? transfer_time_s(op.bytes * l2_share, l2->bandwidth_bytes_per_s->value)
          : 0;
  return std::max(compute_time_s(op.flops, device.peak(precision).value),
                  from_memory_s + from_l2_s);
}

// What a point's remark says of the share of its data the L2 serves from the call before.
std::string l2_remark(double l2_hits, bool profile_has_l2_rate) {
  std::string held = "its data stays in the L2 between calls";
  if (l2_hits < 1) held = fmt::format("{:.0f}% of {}", 100 * l2_hits, held);
  return profile_has_l2_rate ? held : held + "; the profile has no L2 rate";
}

// How a source times its calls within a burst of them ('# ridge: warmup_calls = N (why)', '#
// ridge: timed_calls = N (why)'): so many calls back to back, then the timed ones, each call one
// iteration of its loop (a GEMM table's replayed copies: kernels_per_call). Where a part's power
// limit holds its clock down, the timed calls see the clock's mean over their window of the
// burst (PowerLimit::mean_clock), and a short burst runs near the boost clock; without the
// directives, the sustained clock.
struct TimedBurst {
  double warmup_calls = 0;
  double timed_calls = 0;
  double kernels_per_call = 1;
};

// The directives' burst: none without them; a warm-up needs the calls it times after it, and a
// timed window at least one call.
TimedBurst timed_burst(const Table& t) {
  const auto warmup = directive_number(t, "warmup_calls", 0, 1e6, true, "a count from 0 to 1e6");
  const auto timed = directive_number(t, "timed_calls", 1, 1e6, true, "a count from 1 to 1e6");
  if (warmup && !timed)
    input_error(
        "{}: '# ridge: warmup_calls = {:g}' without '# ridge: timed_calls = N', the calls "
        "it times after them",
        t.origin, *warmup);
  return {warmup.value_or(0), timed.value_or(0)};
}

// The share of a table's calls that follow another kernel of their CUDA graph, and how the graph
// launches them: in a chain of other kernels (the graph's kernel floor), or right after the same
// element-wise kernel (its repeat floor).
struct InGraph {
  double share = 0;
  KernelLaunch launch = KernelLaunch::graph;
  // The call's ops are a chain of passes before a product (KernelChain): an element-wise pass
  // right after another goes at the graph's chain floor (KernelLaunch::graph_chain).
  bool chain = false;
};

// Whether an op is a small element-wise pass, as a quantization's passes are: neither a product
// nor attention.
bool is_pass(const Op& op) { return !op.gemm_shape && !op.attention_shape; }

// How the graph launches the call's op `op_index` for the calls that follow another kernel of it.
KernelLaunch launch_in_graph(std::size_t op_index, std::span<const Op> ops, const InGraph& g) {
  if (g.chain && op_index > 0 && is_pass(ops[op_index]) && is_pass(ops[op_index - 1]))
    return KernelLaunch::graph_chain;
  return g.launch;
}

// What an op of a call reads again that an earlier kernel of the same call touched moments
// before (a quantization's second pass over its input, a product's read of the input the pass
// before it wrote): so many bytes, and what the call has moved since they were touched, that
// kernel's bytes and those of any after it. The L2 still holds them as it holds a replayed
// working set of that size (held_within_call_share).
struct ReadAgain {
  double bytes = 0;
  double moved_since_bytes = 0;
};

// A call of a kernel table's row as its source times it: `ops` one after the other on `device`,
// what the source's timing adds to it and `extra_kernels` more kernels at the calibration's
// floor, each op's data `l2_hits[i]` in the L2 (from the call before or from earlier in the
// call), `in_graph` of the calls following another kernel of their CUDA graph.
struct TimedCall {
  const Device& device;
  std::span<const Op> ops;
  Precision precision;
  double overhead_s = 0;
  double extra_kernels = 0;
  std::span<const double> l2_hits;
  InGraph in_graph;
};

// A kernel's time over calls launched alone (`alone_s`) and, for `in_graph` of them, after another
// kernel of their CUDA graph (`graph_s`, the graph's floor).
double blended_in_graph(double alone_s, double graph_s, double in_graph) {
  return (1 - in_graph) * alone_s + in_graph * graph_s;
}

// One op's expected time in `call` with calibration `c`: launched alone, or for the share of
// the calls that follow another kernel of their graph, as that graph launches them; nullopt
// where `c` prices none.
std::optional<ExpectedTime> expected_in_call(std::size_t op_index, const TimedCall& call,
                                             const Calibration& c) {
  const Op& op = call.ops[op_index];
  const double hits = call.l2_hits[op_index];
  auto alone = expected_time(op, call.device, call.precision, c,
                             {.launch = KernelLaunch::alone, .l2_hit_share = hits});
  if (!alone || call.in_graph.share <= 0) return alone;
  const ExpectedTime in_graph = *expected_time(
      op, call.device, call.precision, c,
      {.launch = launch_in_graph(op_index, call.ops, call.in_graph), .l2_hit_share = hits});
  alone->time_s = blended_in_graph(alone->time_s, in_graph.time_s, call.in_graph.share);
  return alone;
}

// The memsets that zero the scales of a call's fixed-grid amaxes, each a kernel of its own where
// the calibration does not price it with its amax (Calibration::amax_grid_floor_s).
double scale_zeroing_kernels(std::span<const Op> ops, const Calibration& c) {
  if (c.amax_grid_floor_s) return 0;
  return static_cast<double>(std::ranges::count_if(ops, &Op::fixed_grid_amax));
}

// What a call adds to its ops' times: the source's overhead, its extra kernels and the zeroing
// of its amaxes' scales.
double call_overhead_s(const TimedCall& call, const Calibration& c) {
  return call.overhead_s + (call.extra_kernels + scale_zeroing_kernels(call.ops, c)) *
                               kernel_fixed_cost_s(c, KernelLaunch::alone);
}

// The call's expected time within `burst` on a part whose power limit holds its clock down:
// each op at the clock's mean over the timed window for as many SMs as it keeps busy
// (`busy_shares`: the ops' as priced at the sustained clock, which the clock does not move). The
// window depends on how long the calls take, which depends on the clock, so the two are settled
// together from the sustained clock's time: the clock moves the time by less than it moves itself
// and the window's mean clock moves less than the window, so each pass narrows the gap, and six
// leave it below a part in a million.
double expected_in_burst_s(const TimedCall& call, const Calibration& c, const TimedBurst& burst,
                           const std::vector<double>& busy_shares, double sustained_s) {
  constexpr int kPasses = 6;
  double call_s = sustained_s;
  for (int pass = 0; pass < kPasses; ++pass) {
    const double iteration_s = call_s * burst.kernels_per_call;
    const double start_s = burst.warmup_calls * iteration_s;
    const double end_s = start_s + burst.timed_calls * iteration_s;
    call_s = call_overhead_s(call, c);
    for (std::size_t i = 0; i < call.ops.size(); ++i) {
      const double clock = c.power_limit->mean_clock(start_s, end_s, busy_shares[i]);
      call_s += expected_in_call(i, call, at_clock(c, clock))->time_s;
    }
  }
  return call_s;
}

// The share of each op's bytes the L2 serves: `between_calls` of them, held from the call before,
// and of the rest what the op reads again that an earlier kernel of the call left there.
std::vector<double> l2_hits_in_call(std::span<const Op> ops, double between_calls,
                                    std::span<const ReadAgain> read_again, const Device& device,
                                    const Calibration& c) {
  std::vector<double> hits(ops.size(), between_calls);
  for (std::size_t i = 0; i < read_again.size() && i < ops.size(); ++i) {
    const ReadAgain& again = read_again[i];
    if (again.bytes <= 0 || ops[i].bytes <= 0) continue;
    const double held = held_within_call_share(again.moved_since_bytes, device, c);
    hits[i] += (1 - between_calls) * held * std::min(1.0, again.bytes / ops[i].bytes);
  }
  return hits;
}

// The bound and, where a calibration applies, the expected time of `ops` run one after the
// other on `device`, with what the source's timing adds to every call and `extra_kernels` more
// kernels of the source's that ridge counts no work for, each at the calibration's floor, their
// data where `where` says and, for the ops `read_again` names (none where it is empty), what of
// it an earlier kernel of the call left in the L2; `in_graph` of the calls follow another kernel
// of their CUDA graph and pay that graph's floor, the rest a lone kernel's; timed within `burst`.
void price_ops(ValidationPoint& p, const Device& device, std::span<const Op> ops,
               Precision precision, double overhead_s, double extra_kernels = 0,
               Residency where = {}, InGraph in_graph = {}, const TimedBurst& burst = {},
               std::span<const ReadAgain> read_again = {}) {
  p.device_id = device.id;
  p.bound_s = overhead_s;
  for (const Op& op : ops) p.bound_s += bound_s(op, device, precision, where.l2_share);
  const auto calibration = find_calibration(device);
  if (!calibration) return;
  p.calibration = calibration->id;
  const bool counts_hits = where.over_capacity > 0 && (!where.hits_need_profile_reach ||
                                                       calibration->l2_hit_all_to.has_value());
  const double l2_hits = counts_hits ? calibration->l2_hit_share(where.over_capacity) : 0;
  const std::vector<double> op_hits =
      l2_hits_in_call(ops, l2_hits, read_again, device, *calibration);
  const TimedCall call{device, ops, precision, overhead_s, extra_kernels, op_hits, in_graph};
  std::vector<double> busy_shares;
  double sustained_s = call_overhead_s(call, *calibration);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const auto e = expected_in_call(i, call, *calibration);
    if (!e) return;
    sustained_s += e->time_s;
    busy_shares.push_back(e->busy_share);
  }
  p.expected_s = burst.timed_calls > 0 && calibration->power_limit
                     ? expected_in_burst_s(call, *calibration, burst, busy_shares, sustained_s)
                     : sustained_s;
  if (l2_hits > 0) p.remark = l2_remark(l2_hits, calibration->l2_bandwidth_bytes_per_s.has_value());
}

// An element-wise pass of an engine's beside its products: `bytes` read and written, `flops`.
Op element_pass(std::string label, double flops, double bytes) {
  Op op;
  op.kind = "add";
  op.label = std::move(label);
  op.flops = flops;
  op.bytes = bytes;
  return op;
}

// A pass over `elements` that reads each in one of the types' widths and writes it in the other
// (a quantization, an element-wise kernel's row).
Op read_write_pass(std::string label, double elements, const GemmTypes& types) {
  return element_pass(std::move(label), elements,
                      elements * (types.input_bytes + types.output_bytes));
}

// `elements` of 16 bits (the types' output width) quantized to the products' input type.
Op quantize_pass(double elements, const GemmTypes& types) {
  return read_write_pass("quantize", elements, types);
}

double gemm_weight_bytes(const GemmShape& s, const GemmTypes& types) {
  return s.batch * s.n * s.k * types.input_bytes;
}

// How many copies of a GEMM's weights a source replays it over, up to `most_copies` (0: not
// replayed): as many as exceed the L2, as aiconfigurator's TensorRT-LLM collector takes; all of
// them where `every_copy` (its vLLM and SGLang collectors' six, whatever their size).
double replayed_weight_copies(const GemmShape& s, const GemmTypes& types, int most_copies,
                              bool every_copy, const Device& device) {
  const MemoryLevel* l2 = device.shared_cache();
  if (most_copies < 1 || !l2) return 0;
  if (every_copy) return most_copies;
  return std::clamp(std::ceil(l2->capacity_bytes->value / gemm_weight_bytes(s, types)), 1.0,
                    1.0 * most_copies);
}

// Where a GEMM's operands are when a source replays it over `copies` copies of its weights
// (replayed_weight_copies; 0: not replayed): the copies, the activations they share and
// `scratch_bytes` more that each call's kernels pass through (the same blocks every copy).
Residency gemm_residency(const GemmShape& s, const GemmTypes& types, double copies,
                         const Device& device, double scratch_bytes = 0) {
  if (copies == 0) return {};
  const double activations = s.batch * s.m * (s.k * types.input_bytes + s.n * types.output_bytes);
  return replayed_residency(copies * gemm_weight_bytes(s, types) + activations + scratch_bytes,
                            device);
}

// Of `calls` calls a timed iteration, captured in one CUDA graph where `graph_captured`, the
// share that follows another kernel of the graph: all but the first.
double in_graph_share(bool graph_captured, double calls) {
  return graph_captured && calls > 1 ? (calls - 1) / calls : 0;
}

// One GEMM, its output in the types' output width.
Op gemm_op(const GemmShape& shape, const GemmTypes& types) {
  Op op = gemm(shape.m, shape.n, shape.k, types.input_bytes, shape.batch);
  op.gemm_shape->configured_tile = shape.configured_tile;
  op.bytes = shape.batch * ((shape.m * shape.k + shape.k * shape.n) * types.input_bytes +
                            shape.m * shape.n * types.output_bytes);
  return op;
}

// The same for one GEMM.
void price_gemm(ValidationPoint& p, const Device& device, const GemmShape& shape,
                const GemmTypes& types, double overhead_s, Residency where = {},
                double in_graph = 0, const TimedBurst& burst = {}) {
  const Op op = gemm_op(shape, types);
  price_ops(p, device, std::span<const Op>(&op, 1), types.compute, overhead_s, 0, where, {in_graph},
            burst);
}

// ---------------------------------------------------------------------------------------------
// GEMM timings: m, n, k (and groups), dtype, device, and time_ms, time_us(_derived) or tflops.

// A time in its unit ("ms", "ms/token", "usec"), in seconds.
double seconds_in(double value, std::string_view unit) {
  const std::string_view head = unit.substr(0, unit.find_first_of("/ "));
  if (head == "ms" || head == "msec" || head.starts_with("milli")) return value * 1e-3;
  if (head == "us" || head == "µs" || head == "usec" || head.starts_with("micro"))
    return value * 1e-6;
  if (head == "ns" || head.starts_with("nano")) return value * 1e-9;
  return value;
}

// A kernel's measured time: a time column in whatever unit the source gives it (time_, latency_
// or duration_ with s, ms, us or ns), else the source's TFLOP/s over `source_flops`, the FLOPs
// the source counts for it (none for a collective); a derived time last.
double measured_kernel_seconds(const Row& row, double source_flops) {
  for (const char* quantity : {"time", "latency", "duration"}) {
    for (const char* unit : {"s", "ms", "us", "ns"}) {
      if (const auto value = row.optional_number(fmt::format("{}_{}", quantity, unit)))
        return seconds_in(*value, unit);
    }
  }
  if (const auto tflops = row.optional_number("tflops"); tflops && source_flops > 0)
    return source_flops / (*tflops * 1e12);
  if (const auto us = row.optional_number("time_us_derived")) return *us * 1e-6;
  input_error("{}:{}: no time (time_, latency_ or duration_ in s, ms, us or ns) or tflops column",
              row.origin(), row.line());
}

// A kernel file's role: '# ridge: role = fit (why)' where a figure of the shipped model was
// fitted to its rows, else held out.
ValidationRole file_role(const Table& t) {
  return directive_choice(t, "role", "held-out", {"fit", "held-out"}) == "fit"
             ? ValidationRole::fit
             : ValidationRole::held_out;
}

// A kernel row whose part and operand types were read: what pricing it needs.
struct KernelRow {
  const Row& row;
  const Device& device;
  GemmTypes types;
  double overhead_s = 0;    // what the source's timing adds to each call
  int replayed_copies = 0;  // '# ridge: replayed_copies = N': Residency
  // '# ridge: replay_every_copy = yes': all N copies replayed, not only as many as exceed the L2.
  bool replay_every_copy = false;
  // '# ridge: graph_captured = yes': each timed iteration's calls are captured in one CUDA graph.
  bool graph_captured = false;
  TimedBurst burst;  // '# ridge: warmup_calls', 'timed_calls'
  // '# ridge: graph_calls = N': an element-wise table's timed iteration runs its kernel N times
  // on the same buffers, the time given for one.
  int graph_calls = 1;
};

// A source that times each call as one CUDA-graph replay issued from the host ('# ridge:
// replay_floor_s = SECONDS (why)': aiconfigurator's collector replays one attention layer, or one
// batched product, a timed iteration from a Python loop, collector/helper.py
// benchmark_with_power) times no call shorter than the host takes to issue a replay; a shorter
// GPU time waits for it. The bound does not: it is the kernels' own.
void wait_for_replay(ValidationPoint& p, double replay_floor_s) {
  if (!p.expected_s || *p.expected_s >= replay_floor_s) return;
  p.expected_s = replay_floor_s;
  p.remark = "expected: the host's replay floor";
}

// Among the parts a row's name fits, the one whose peak the row states ('theory_tflops', as
// stas00's table gives it: its MI250X row, run on one GCD, states the die's 191.5 TFLOP/s), where
// the row states one and exactly one of them has it; else the name's own reading.
predict::NamedDevice by_stated_peak(predict::NamedDevice named, const Row& row,
                                    const std::optional<GemmTypes>& types) {
  const std::optional<double> stated = row.optional_number("theory_tflops");
  if (!stated || !types || named.candidates.size() < 2) return named;
  std::vector<const Device*> matching;
  for (const Device* d : named.candidates) {
    if (d->has_peak(types->compute) &&
        std::abs(d->peak(types->compute).value / (*stated * 1e12) - 1) < 0.01)
      matching.push_back(d);
  }
  if (matching.size() != 1 || matching.front() == named.device) return named;
  named.device = matching.front();
  named.presumption = fmt::format(
      "'{}' fits {} parts: priced on {}, whose {} peak is the {} TFLOP/s "
      "the row states",
      row.text("device"), named.candidates.size(), named.device->id, to_string(types->compute),
      *stated);
  return named;
}

// Each row of a kernel table priced by `price` (its point, or the reason the row is not priced)
// once its part and types are read; a row without them is listed with the reason.
template <class Price>
ValidationSet run_kernel_set(const Table& t, const Catalog& catalog, ValidationRole role,
                             Price price) {
  ValidationSet set = new_set(t, stem_of(t.origin), "kernel", role);
  const double overhead_s = directive_seconds(t, "timing_overhead_s");
  const double replay_floor_s = directive_seconds(t, "replay_floor_s");
  const int replayed_copies = static_cast<int>(
      directive_number(t, "replayed_copies", 0, 100, true, "a count from 0 to 100").value_or(0));
  const bool replay_every_copy =
      directive_choice(t, "replay_every_copy", "no", {"yes", "no"}) == "yes";
  const bool graph_captured = directive_choice(t, "graph_captured", "no", {"yes", "no"}) == "yes";
  const TimedBurst burst = timed_burst(t);
  const int graph_calls = static_cast<int>(
      directive_number(t, "graph_calls", 1, 1000, true, "a count from 1 to 1000").value_or(1));
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const Row row(t, i);
    const std::string gpu = row.text("device");
    const auto types = gemm_types(row.text("dtype"));
    const predict::NamedDevice named = by_stated_peak(device_of(t, catalog, gpu), row, types);
    std::variant<ValidationPoint, std::string> priced;
    if (!named.device)
      priced = named.why_none(gpu);
    else if (!types)
      priced = fmt::format("dtype '{}' is not a precision ridge reads", row.text("dtype"));
    else
      priced = price(KernelRow{row, *named.device, *types, overhead_s, replayed_copies,
                               replay_every_copy, graph_captured, burst, graph_calls});
    if (auto* why = std::get_if<std::string>(&priced)) {
      set.skipped.push_back(fmt::format("line {}: {}", row.line(), *why));
      continue;
    }
    note_presumption(set, named);
    auto& point = std::get<ValidationPoint>(priced);
    wait_for_replay(point, replay_floor_s);
    set.points.push_back(std::move(point));
  }
  return set;
}

// Why a row cannot be priced on its part: the part has no peak for the precision the row's
// `column` names (a V100's bf16), as the catalog gives it; none where it can. `part` is how the
// message names the part ("device 'v100-sxm2'", "gpu 'Tesla V100'").
std::optional<std::string> no_peak_for(const Device& device, Precision precision,
                                       std::string_view part, const Row& row,
                                       std::string_view column) {
  if (device.has_peak(precision)) return std::nullopt;
  return fmt::format("{} has no {} peak for {} '{}'", part, to_string(precision), column,
                     row.text(column));
}

// The same for a kernel row: its part by catalog id, its type by its dtype column.
std::optional<std::string> unmultiplied(const KernelRow& k) {
  return no_peak_for(k.device, k.types.compute, fmt::format("device '{}'", k.device.id), k.row,
                     "dtype");
}

// A product's point where its part multiplies its type, else why not.
template <class Price>
auto where_multiplied(Price price) {
  return [price](const KernelRow& k) -> std::variant<ValidationPoint, std::string> {
    if (auto why = unmultiplied(k)) return *why;
    return price(k);
  };
}

// How a source's fp8 products quantize their 16-bit input in the call ('# ridge: input_quantize
// = none | dynamic | static | per-token | native-static | native-group (why)'): with a dynamic
// scale for the whole input (TensorRT-LLM's FP8QDQLinearMethod without an input scale) the scale
// zeroed (one more kernel, at the floor), the input's largest magnitude reduced into it, the
// input quantized, then the scale, kept in the input's 16 bits, widened to float32 for cuBLASLt
// by a PyTorch kernel of its own (`cur_input_scale.to(torch.float32)`); in one pass with a static
// scale (vLLM's custom kernel, static_scaled_fp8_quant) or with a scale a row or a group of one
// (SGLang's sgl_per_token_quant_fp8: each row's largest magnitude found and the row quantized by
// one block, its second read of the row from the SM's cache); or as PyTorch runs vLLM's
// QuantFP8.forward_native eagerly, each expression its own kernel (native_quantization_passes).
enum class InputQuantize { none, dynamic, one_pass, native_static, native_group };

InputQuantize input_quantize_of(const Table& t) {
  const std::string choice =
      directive_choice(t, "input_quantize", "none",
                       {"none", "dynamic", "static", "per-token", "native-static", "native-group"});
  if (choice == "none") return InputQuantize::none;
  if (choice == "dynamic") return InputQuantize::dynamic;
  if (choice == "native-static") return InputQuantize::native_static;
  if (choice == "native-group") return InputQuantize::native_group;
  return InputQuantize::one_pass;
}

// The bytes of a float32, the width the quantization passes widen to.
constexpr double kFloat32 = 4;

// Kernels a call runs one after the other, and what each reads again that an earlier one touched.
struct KernelChain {
  std::vector<Op> ops;
  std::vector<ReadAgain> read_again;
  // The pass that wrote the product's quantized input.
  std::size_t quantized_by = 0;

  std::size_t last() const { return ops.size() - 1; }
  // Appends `op`, which reads nothing an earlier kernel of the call touched; its index.
  std::size_t add(Op op) { return add_reading(std::move(op), 0, ops.size()); }
  // Appends `op`, which reads again `bytes` that the kernel at `touched_by` read or wrote: the
  // call has moved that kernel's bytes and those of every kernel since. Its index.
  std::size_t add_reading(Op op, double bytes, std::size_t touched_by) {
    ReadAgain again{bytes, 0};
    for (std::size_t i = touched_by; i < ops.size(); ++i) again.moved_since_bytes += ops[i].bytes;
    ops.push_back(std::move(op));
    read_again.push_back(again);
    return last();
  }
};

// vLLM's QuantFP8.forward_native (vllm/model_executor/layers/quantization/input_quant_fp8.py, as
// of vLLM 0.12 to 0.14) run eagerly, one PyTorch kernel an expression, where vLLM's custom ops are
// off: a VllmConfig without a model takes the -O2 default, whose compiled mode turns them off and
// leaves their fusion to Inductor, which an eager caller never runs. With a static per-tensor
// scale, `(x.to(float32) * scale.reciprocal()).clamp(min, max).to(fp8)`: four passes over the
// input, three of them through float32, and the scale's reciprocal. With a dynamic scale a group
// of 128 elements of a row (block-scaled weights, `_quantize_group_native`): the magnitudes, their
// largest in each group (values and int64 indices), that widened to float32, divided by fp8's
// largest and floored, the input divided by it into float32, clamped and narrowed; the scales
// made column-major (`column_major_scales`, as vLLM's DeepGEMM and CUTLASS paths ask). On
// Blackwell DeepGEMM also rounds the scales to powers of two (use_ue8m0), three more small
// kernels, not priced: the one such table at hand is the H100's.
// Each pass that reads what the one before it wrote (or, for the division, the input the first
// read) reads it again from the L2 where the call has not moved so much since.
KernelChain native_quantization_passes(double elements, const GemmTypes& t, bool per_group) {
  constexpr double kIndex = 8;
  constexpr double kGroup = 128;
  const double wide = t.output_bytes;
  const double groups = elements / kGroup;
  auto pass = [](std::string label, double count, double bytes_each) {
    return element_pass(std::move(label), count, count * bytes_each);
  };
  KernelChain chain;
  std::size_t widened = 0;  // the pass that writes the float32 copy the clamp's chain reads
  if (per_group) {
    const std::size_t magnitudes = chain.add(pass("abs", elements, 2 * wide));
    chain.add_reading(
        element_pass("group_max", elements, elements * wide + groups * (wide + kIndex)),
        elements * wide, magnitudes);
    chain.add(pass("group_max_to_float32", groups, wide + kFloat32));
    chain.add(pass("scale_divide", groups, 2 * kFloat32));
    chain.add(pass("scale_clamp", groups, 2 * kFloat32));
    widened = chain.add_reading(
        element_pass("divide", elements, elements * (wide + kFloat32) + groups * kFloat32),
        elements * wide, magnitudes);
  } else {
    const std::size_t to_float32 = chain.add(pass("to_float32", elements, wide + kFloat32));
    chain.add(pass("scale_reciprocal", 1, 2 * kFloat32));
    widened = chain.add_reading(pass("multiply", elements, 2 * kFloat32), elements * kFloat32,
                                to_float32);
  }
  const std::size_t clamp =
      chain.add_reading(pass("clamp", elements, 2 * kFloat32), elements * kFloat32, widened);
  chain.quantized_by = chain.add_reading(pass("to_fp8", elements, kFloat32 + t.input_bytes),
                                         elements * kFloat32, clamp);
  if (per_group) chain.add(pass("scales_column_major", groups, 2 * kFloat32));
  return chain;
}

// What the passes before the product hold beside the product's operands (whose activations are
// counted in the product's narrow type): every one the 16-bit input it reads each call, and
// PyTorch's chain (the native quantizations) two float32 copies of it at once besides, one
// pass's input and its output (the caching allocator hands each copy's passes the same blocks).
double input_quantization_scratch_bytes(const GemmShape& s, const GemmTypes& types,
                                        InputQuantize how) {
  if (how == InputQuantize::none) return 0;
  constexpr double kTwoFloat32 = 8;
  const bool native = how == InputQuantize::native_static || how == InputQuantize::native_group;
  return s.batch * s.m * s.k * (types.output_bytes + (native ? kTwoFloat32 : 0));
}

// TensorRT-LLM's quantization with a scale of its own (quantize_e4m3_per_tensor): the input's
// largest magnitude found by the amax kernel on its fixed grid (Op::fixed_grid_amax), then the
// input read again, right after, and quantized; the scale left in the input's 16 bits.
KernelChain dynamic_quantization_passes(double elements, const GemmTypes& types) {
  const double wide = std::max(types.input_bytes, types.output_bytes);
  KernelChain chain;
  Op amax = element_pass("input_amax", elements, elements * wide);
  amax.fixed_grid_amax = true;
  const std::size_t amax_pass = chain.add(std::move(amax));
  chain.quantized_by =
      chain.add_reading(quantize_pass(elements, types), elements * wide, amax_pass);
  return chain;
}

// The passes before the product, as `how` says; the dynamic scale's quantization reads the input
// again right after its largest magnitude was found.
KernelChain input_quantization_passes(const GemmShape& s, const GemmTypes& types,
                                      InputQuantize how) {
  const double elements = s.batch * s.m * s.k;
  KernelChain chain;
  switch (how) {
    case InputQuantize::one_pass:
      chain.add(quantize_pass(elements, types));
      break;
    case InputQuantize::native_static:
    case InputQuantize::native_group:
      chain = native_quantization_passes(elements, types, how == InputQuantize::native_group);
      break;
    case InputQuantize::dynamic:
      chain = dynamic_quantization_passes(elements, types);
      chain.add(element_pass("scale_to_float32", 1, types.output_bytes + kFloat32));
      break;
    case InputQuantize::none:
      break;
  }
  return chain;
}

// The configuration a source's GEMM kernel runs at ('# ridge: gemm_tile = best | MxNxK (why)'):
// the library's pick for each shape (best_tiling's), or CUTLASS's kernel at one tile M x N x K,
// whole tiles in waves, K unsplit: as TensorRT-LLM's NVFP4 GEMM runs untuned (its fallback,
// 128x256x128: CtaShape128x256x128B on SM100, a step of 128 values; 128x256x768 on SM103, whose
// launcher makes CtaShape128x256x256B's step three times 256 deep: getDefaultGemmConfig in
// cpp/tensorrt_llm/thop/fp4Gemm.cpp, genericFp4GemmKernelLauncher's MmaTileShape and its tile
// scheduler cutlass::gemm::PersistentScheduler in nvfp4_nvfp4_gemm_template_sm100.h), or as
// sgl-kernel's fp8_scaled_mm runs on SM120 (128x128x128, cluster 1x1x1, no split-K:
// sm120_fp8_dispatch_bias in sgl-kernel/csrc/gemm/fp8_gemm_kernel.cu).
std::optional<ConfiguredTile> configured_tile_of(const Table& t) {
  const auto it = t.directives.find("gemm_tile");
  if (it == t.directives.end() || it->second == "best") return std::nullopt;
  if (const auto tile = parse_configured_tile(it->second)) return tile;
  input_error("{}: '# ridge: gemm_tile = {}' is not best or {}", t.origin, it->second,
              configured_tile_form());
}

ValidationPoint gemm_point(const KernelRow& k, InputQuantize input_quantize,
                           std::optional<ConfiguredTile> tile) {
  const Row& row = k.row;
  GemmShape shape{row.side("m"), row.side("n"), row.side("k"), row.side_or_one("groups")};
  shape.configured_tile = tile;
  ValidationPoint p;
  p.line = row.line();
  p.quantity = "time";
  p.label = fmt::format("{}{}x{}x{} {}", shape.batch > 1 ? fmt::format("{}x ", shape.batch) : "",
                        shape.m, shape.n, shape.k, row.text("dtype"));
  if (const auto layout = row.optional_text("layout")) p.label = *layout + " " + p.label;
  p.measured_s = measured_kernel_seconds(row, 2 * shape.batch * shape.m * shape.n * shape.k);
  // Of the copies one iteration times, all but the first follow another in its graph.
  const double copies =
      replayed_weight_copies(shape, k.types, k.replayed_copies, k.replay_every_copy, k.device);
  const double in_graph = in_graph_share(k.graph_captured, copies);
  TimedBurst burst = k.burst;
  burst.kernels_per_call = std::max(1.0, copies);  // a call is one iteration over any copies
  if (k.types.input_bytes >= k.types.output_bytes) input_quantize = InputQuantize::none;
  const Residency where =
      gemm_residency(shape, k.types, copies, k.device,
                     input_quantization_scratch_bytes(shape, k.types, input_quantize));
  if (input_quantize == InputQuantize::none) {
    price_gemm(p, k.device, shape, k.types, k.overhead_s, where, in_graph, burst);
    return p;
  }
  // The product reads its quantized input from the last pass that wrote it.
  KernelChain chain = input_quantization_passes(shape, k.types, input_quantize);
  chain.add_reading(gemm_op(shape, k.types), shape.batch * shape.m * shape.k * k.types.input_bytes,
                    chain.quantized_by);
  price_ops(p, k.device, chain.ops, k.types.compute, k.overhead_s, 0, where,
            {in_graph, KernelLaunch::graph, true}, burst, chain.read_again);
  return p;
}

ValidationSet run_gemm_set(const Table& t, const Catalog& catalog) {
  const InputQuantize how = input_quantize_of(t);
  const std::optional<ConfiguredTile> tile = configured_tile_of(t);
  return run_kernel_set(t, catalog, file_role(t), where_multiplied([how, tile](const KernelRow& k) {
                          return gemm_point(k, how, tile);
                        }));
}

// ---------------------------------------------------------------------------------------------
// Fused attention kernels (FlashAttention's benchmarks): batch, heads, seqlen, headdim, causal;
// a decode kernel's also kvlen (the keys in its cache) and kvheads (grouped queries).

// "true", "yes", "1", "causal"; anything else is not.
bool says_yes(std::string_view cell) {
  const std::string lower = lower_case(trimmed(cell));
  return lower == "true" || lower == "yes" || lower == "1" || lower == "causal";
}

// Only the forward pass is modelled: a row of the backward pass (or of both) is not priced.
bool forward_pass(const Row& row) {
  const std::string pass = lower_case(row.optional_text("pass").value_or("fwd"));
  return pass.find("b") == std::string::npos;  // "bwd", "backward", "fwd+bwd", "fwd_bwd"
}

// Which FlashAttention's host code a call runs, where the file says.
enum class FlashHost { none, flash2, flash3 };

FlashHost flash_host_of(const Table& t) {
  const std::string choice = directive_choice(t, "flash_attention", "none", {"none", "2", "3"});
  return choice == "2" ? FlashHost::flash2 : choice == "3" ? FlashHost::flash3 : FlashHost::none;
}

// The kernels FlashAttention's host code launches around its fused kernel, as passes before
// (`before`) and after it. FlashAttention-2 (mha_varlen_fwd, the same file) runs a decode step of
// grouped queries with each group's query heads as one sequence: it copies the queries into that
// layout where a reshape cannot view them (more than one sequence and more than one K and V
// head), copies the output back into the caller's buffer, and then either combines its key
// splits or, unsplit, copies the log-sum-exp back where a reshape cannot view it. Prompts, and
// as many K and V heads as query heads, run in place. FlashAttention-3 (hopper/flash_api.cpp)
// launches one kernel after the fused one whatever the shape: the splits' combine, or where
// it does not split, the zeroing of its scheduler's semaphore (vLLM hands it the schedule, so
// the kernel that would zero it does not run); its bytes are a few, priced at the floor.
struct FlashHostPasses {
  std::vector<Op> before, after;
  double floor_kernels = 0;
};

FlashHostPasses flash_host_passes(FlashHost host, const AttentionShape& s, double sms,
                                  double element_bytes) {
  FlashHostPasses passes;
  if (host == FlashHost::flash3) passes.floor_kernels = 1;
  if (host != FlashHost::flash2 || !predict::flash2_swaps_groups(s)) return passes;
  const double values = s.batch * s.heads * s.d_head;  // the queries', and the output's
  const double lse = s.batch * s.heads;
  const bool reshaped_by_copy = s.batch > 1 && s.key_heads() > 1;
  if (reshaped_by_copy)
    passes.before.push_back(element_pass("flash_query_swap", 0, 2 * values * element_bytes));
  const double splits = predict::flash2_decode_splits(s, sms);
  if (splits > 1)
    passes.after.push_back(
        element_pass("flash_split_combine", 2 * splits * values,
                     splits * (values + lse) * kFloat32 + values * element_bytes + lse * kFloat32));
  else if (reshaped_by_copy)
    passes.after.push_back(element_pass("flash_lse_swap", 0, 2 * lse * kFloat32));
  passes.after.push_back(element_pass("flash_output_swap", 0, 2 * values * element_bytes));
  return passes;
}

// What a file's attention rows timed: the fused kernel alone (FlashAttention's benchmarks), or
// an engine's attention layer ('# ridge: attention = layer (why)'): the rotary and cache pass
// before the kernel too, or ('grouped-layer') before it only for grouped queries, where an
// engine's kernel for as many K and V heads as query heads does that pass itself; and
// `extra_kernels` small ones of its own ('# ridge: extra_kernels = N (why)'), each at the
// calibration's floor.
struct AttentionTiming {
  bool layer = false;
  bool grouped_only = false;
  // 'cache-layer': the fused kernel after the new K and V written to the cache alone, vLLM's
  // attention backends' forward (reshape_and_cache_flash), the rotary embedding outside it.
  bool cache_write_only = false;
  double extra_kernels = 0;
  // '# ridge: decode_kernel = trtllm-blocks (why)': the decode kernel deals its keys out in
  // TensorRT-LLM's multi-block blocks (AttentionShape::trtllm_decode_blocks); 'flash-mla':
  // FlashMLA's tile scheduler deals them to parts of the SMs (AttentionShape::flash_mla);
  // 'split' (the default): spread evenly.
  bool trtllm_decode_blocks = false;
  bool flash_mla = false;
  // '# ridge: context_kernel = trtllm (why)': a prompt's attention runs TensorRT-LLM's context
  // FMHA (AttentionShape::trtllm_fmha); 'flash' (the default): FlashAttention's rate.
  bool trtllm_fmha = false;
  // '# ridge: context_qkv = packed (why)': a prompt's cache pass writes the turned Q and K back
  // into the packed QKV buffer the fused kernel reads (RotaryOutput::packed_qkv); 'separate' (the
  // default): Q to a buffer of its own, as every decode step's pass does.
  RotaryOutput context_rotary_output = RotaryOutput::separate_q;
  // '# ridge: flash_attention = 2|3 (why)': the call runs FlashAttention's own host code (vLLM's
  // builds of it), which launches kernels around the fused one (flash_host_passes).
  FlashHost flash_host = FlashHost::none;
  // 'latent-layer': DeepSeek's attention absorbed, in decode, as TensorRT-LLM runs it: a pass that
  // turns the queries' rotary part into the fused queries and writes each new token's latent to
  // the cache (latent_rotary_cache_write), then the fused kernel over the latent cache, whose
  // values are each key's first vheaddim elements (AttentionShape::values_in_keys).
  bool latent = false;

  bool has_cache_pass(const AttentionShape& s) const {
    return layer && (!grouped_only || s.key_heads() < s.heads);
  }

  // Where the cache pass of a row of shape `s` leaves its turned Q: a prompt's as the table
  // says, a decode step's always in a buffer of its own.
  RotaryOutput rotary_output(const AttentionShape& s) const {
    return s.seq > 1 ? context_rotary_output : RotaryOutput::separate_q;
  }
};

AttentionTiming attention_timing(const Table& t) {
  const std::string choice =
      directive_choice(t, "attention", "kernel",
                       {"kernel", "layer", "grouped-layer", "cache-layer", "latent-layer"});
  const std::string decode_kernel =
      directive_choice(t, "decode_kernel", "split", {"split", "trtllm-blocks", "flash-mla"});
  return {choice != "kernel",
          choice == "grouped-layer",
          choice == "cache-layer",
          directive_number(t, "extra_kernels", 0, 100, true, "a count from 0 to 100").value_or(0),
          decode_kernel == "trtllm-blocks",
          decode_kernel == "flash-mla",
          directive_choice(t, "context_kernel", "flash", {"flash", "trtllm"}) == "trtllm",
          directive_choice(t, "context_qkv", "separate", {"separate", "packed"}) == "packed"
              ? RotaryOutput::packed_qkv
              : RotaryOutput::separate_q,
          flash_host_of(t),
          choice == "latent-layer"};
}

// The attention a row describes. A decode kernel's rows give the keys in the cache (kvlen), the
// K and V heads of grouped queries (kvheads), and where the values are narrower than the keys
// their width (vheaddim).
AttentionShape attention_shape_of(const Row& row) {
  AttentionShape shape{row.side("seqlen"), row.side("headdim"), row.side_or_one("heads"),
                       row.side_or_one("batch")};
  shape.causal = row.optional_text("causal") && says_yes(row.text("causal"));
  if (row.optional_text("kvlen")) shape.kv_seq = row.side("kvlen");
  if (row.optional_text("kvheads")) shape.kv_heads = row.side("kvheads");
  if (row.optional_text("vheaddim")) shape.d_value = row.side("vheaddim");
  if (shape.value_width() > shape.d_head)
    input_error("{}:{}: vheaddim: {} is wider than the keys' headdim {}", row.origin(), row.line(),
                shape.value_width(), shape.d_head);
  if (const auto why = attention_shape_problem(shape))
    input_error("{}:{}: kvheads, kvlen: {}", row.origin(), row.line(), *why);
  return shape;
}

// A fused attention row: FlashAttention's benchmarks count 2 batch heads seqlen keys (headdim +
// the values' width) FLOP (keys: kvlen where given, else seqlen), halved when causal.
ValidationPoint attention_point(const KernelRow& k, const AttentionTiming& timing) {
  const Row& row = k.row;
  AttentionShape shape = attention_shape_of(row);
  shape.trtllm_decode_blocks = timing.trtllm_decode_blocks;
  shape.trtllm_fmha = timing.trtllm_fmha;
  shape.flash2_split_kv = timing.flash_host == FlashHost::flash2;
  shape.flash3_persistent = timing.flash_host == FlashHost::flash3;
  shape.values_in_keys = timing.latent;
  shape.flash_mla = timing.flash_mla;
  std::vector<Op> ops;
  const bool cache_pass = timing.has_cache_pass(shape);
  if (cache_pass && timing.latent) {
    // The rotary part of each head's fused query is its last `headdim - vheaddim` elements.
    ops.push_back(latent_rotary_cache_write(
        shape.batch * shape.seq, shape.heads, shape.d_head - shape.value_width(),
        shape.key_heads() * shape.d_head, k.types.input_bytes, k.types.input_bytes));
  } else if (cache_pass && timing.cache_write_only) {
    ops.push_back(cache_write(shape.batch * shape.seq, shape.key_heads() * shape.d_head,
                              k.types.input_bytes, k.types.input_bytes));
  } else if (cache_pass) {
    ops.push_back(rotary_cache_write(shape.batch * shape.seq, shape.heads * shape.d_head,
                                     shape.key_heads() * shape.d_head, k.types.input_bytes,
                                     k.types.input_bytes, timing.rotary_output(shape)));
  }
  FlashHostPasses host = flash_host_passes(timing.flash_host, shape,
                                           k.device.compute_units_or_one(), k.types.input_bytes);
  std::ranges::move(host.before, std::back_inserter(ops));
  ops.push_back(attention(shape, k.types.input_bytes));
  ValidationPoint p;
  p.line = row.line();
  p.quantity = "time";
  p.label = ops.back().label + " " + row.text("dtype");
  std::ranges::move(host.after, std::back_inserter(ops));
  if (cache_pass) p.label = "layer: " + p.label;
  const double source_flops = 2 * shape.batch * shape.heads * shape.seq * shape.keys() *
                              (shape.d_head + shape.value_width()) / (shape.causal ? 2 : 1);
  p.measured_s = measured_kernel_seconds(row, source_flops);
  // The layer's kernels share their buffers: the working set is at least the largest one's. The
  // bound counts what the L2 can hold of it; the expected time only where the profile says how
  // far its L2 holds a replayed set, since the attention figures of the calibrations are fitted
  // to these replayed tables (the H100's), hits and all.
  const double working_set = std::ranges::max(ops, {}, &Op::bytes).bytes;
  Residency where = k.replayed_copies > 0 ? replayed_residency(working_set, k.device) : Residency{};
  where.hits_need_profile_reach = true;
  price_ops(p, k.device, ops, k.types.compute, k.overhead_s,
            timing.extra_kernels + host.floor_kernels, where, {}, k.burst);
  return p;
}

ValidationSet run_attention_set(const Table& t, const Catalog& catalog) {
  const AttentionTiming timing = attention_timing(t);
  return run_kernel_set(
      t, catalog, file_role(t),
      [&timing](const KernelRow& k) -> std::variant<ValidationPoint, std::string> {
        if (!forward_pass(k.row))
          return fmt::format("pass '{}': only the forward pass is modelled", k.row.text("pass"));
        if (auto why = unmultiplied(k)) return *why;
        return attention_point(k, timing);
      });
}

// ---------------------------------------------------------------------------------------------
// MoE experts (one layer's routed experts as an engine runs them): tokens, hidden, inter, topk,
// experts, tp, ep, dtype, device, and a time column.

// One GPU's share of a MoE layer's routed experts over `tokens` tokens under balanced routing:
// min(E, T k) experts receive T k / min(E, T k) of the token-expert pairs each, the experts'
// intermediate width split over `tp` GPUs and the experts over `ep`.
// Under random routing ('# ridge: routing = random (why)') each token picks its experts at
// random instead, and each expert receives a binomial number of pairs.
struct MoeCall {
  double tokens = 0, hidden = 0, inter = 0, topk = 0, experts = 0, tp = 1, ep = 1;
  bool random_routing = false;

  double pairs() const { return tokens * topk; }
  double width() const { return inter / tp; }
  double local_experts() const { return experts / ep; }
  // The experts of this GPU that receive pairs, and their pairs: at least one expert with one
  // pair, since balanced routing gives the first GPU's first expert the first token.
  double local_active() const {
    if (random_routing)
      return std::max(1.0, random_active_experts(local_experts(), tokens, topk, experts));
    return std::max(1.0, std::min(experts, pairs()) / ep);
  }
  double local_rows() const { return std::max(local_active(), pairs() / ep); }
  // The tiles of `tile_m` rows this GPU's experts' pairs fill, each expert's rows padded.
  double local_row_tiles(double tile_m) const {
    if (random_routing) return random_row_tiles(local_experts(), tokens, topk, experts, tile_m);
    return balanced_row_tiles(local_active(), local_rows() / local_active(), tile_m);
  }
};

MoeCall moe_call_of(const Row& row, bool random_routing) {
  MoeCall c{row.side("tokens"),  row.side("hidden"),    row.side("inter"),     row.side("topk"),
            row.side("experts"), row.side_or_one("tp"), row.side_or_one("ep"), random_routing};
  const auto problem = [&](std::string_view columns, const std::string& why) {
    input_error("{}:{}: {}: {}", row.origin(), row.line(), columns, why);
  };
  if (c.topk > c.experts)
    problem("topk, experts", fmt::format("top {} of {} experts", c.topk, c.experts));
  if (std::fmod(c.inter, c.tp) != 0)
    problem("inter, tp", fmt::format("tp {} does not divide the width {}", c.tp, c.inter));
  if (std::fmod(c.experts, c.ep) != 0)
    problem("experts, ep", fmt::format("ep {} does not divide the {} experts", c.ep, c.experts));
  return c;
}

// Whose kernels a MoE table timed ('# ridge: moe_kernels = vllm|trtllm (why)'): the two grouped
// products and the gated activation between them alone, what `ridge model` counts (`products`,
// the default), or an engine's whole call.
enum class MoeKernels { products, vllm, trtllm };

MoeKernels moe_kernels_of(const Table& t) {
  const std::string choice =
      directive_choice(t, "moe_kernels", "products", {"products", "vllm", "trtllm"});
  if (choice == "vllm") return MoeKernels::vllm;
  if (choice == "trtllm") return MoeKernels::trtllm;
  return MoeKernels::products;
}

// One of the call's two products over this GPU's experts, `out` by `in` weights each, a grouped
// product of the rows each active expert receives, its output written for `written_rows`. vLLM
// runs it on its Triton kernel at the default tile for the call (ops/triton_moe.h), whose
// grid works on this GPU's row tiles; TensorRT-LLM on CUTLASS's grouped kernel, whose SMs wait
// at each change of expert (GemmShape::grouped); the libraries choose their tiles.
Op moe_product(const MoeCall& c, double out, double in, const GemmTypes& types, double written_rows,
               MoeKernels kernels) {
  const double groups = c.local_active();
  Op op = gemm(c.local_rows() / groups, out, in, types.input_bytes, groups);
  op.bytes = groups * out * in * types.input_bytes + c.local_rows() * in * types.input_bytes +
             written_rows * out * types.output_bytes;
  if (kernels == MoeKernels::vllm) {
    FixedTile tile = triton_moe_default_tile(c.tokens, c.local_experts());
    tile.row_tiles = c.local_row_tiles(tile.m);
    op.gemm_shape->fixed_tile = tile;
  }
  if (kernels == MoeKernels::trtllm)
    op.gemm_shape->grouped = cutlass_grouped_kernel(types.hardware_scales);
  return op;
}

// TensorRT-LLM's kernels on either side of its block-scaled (NVFP4) products, expandInputRowsKernel
// and doActivationKernel (cpp/tensorrt_llm/kernels/cutlass_kernels/moe_gemm/moe_kernels.cu @
// 000dea27), each run min(8 SMs, max(T k, 128 E)) blocks ("Launching 8 blocks per SM"), and a
// block waits on its loads in turn: for every row it handles, a binary search of this GPU's
// experts' first rows (findTotalEltsLessThanTarget, floor(log2 E) + 1 reads) and then its
// expert's first row; after its rows, a loop over 128 padding rows of every expert
// (MinNDimAlignmentNVFP4), each step reading two of those offsets before it knows whether to
// write zero scales. Without block scales neither kernel searches or pads.
double trtllm_scale_chain_loads(const MoeCall& c, double units) {
  constexpr double kBlocksPerUnit = 8;
  constexpr double kPaddingRowsPerExpert = 128;
  const double experts = c.local_experts();
  const double padding_rows = kPaddingRowsPerExpert * experts;
  const double blocks = std::min(kBlocksPerUnit * units, std::max(c.pairs(), padding_rows));
  const double search = std::floor(std::log2(experts)) + 1;
  return std::ceil(c.local_rows() / blocks) * (search + 1) + std::ceil(padding_rows / blocks);
}

// The kernels of one call, each engine's as its code runs them:
// - vLLM's fused_experts (vllm/model_executor/layers/fused_moe/fused_moe.py, fused_experts_impl):
//   in fp8 the tokens quantized; the gate-and-up product (its Triton fused_moe_kernel, which
//   gathers each pair's token itself); the gated activation over every pair's row; in fp8 its
//   output quantized; the down product weighted by the routing; each token's k rows summed
//   (moe_sum). The other GPUs' pairs keep their padded blocks, which write zeros
//   (write_zeros_to_output): every pair's rows are written.
// - TensorRT-LLM's CUTLASS MoE (CutlassMoeFCRunner::runMoe, cpp/tensorrt_llm/kernels/
//   cutlass_kernels/moe_gemm/moe_kernels.cu): in fp8 the tokens quantized before the op; this
//   GPU's pairs copied into expert order (expandInputRowsKernel); the gate-and-up product
//   (grouped TMA warp-specialized), its gated activation in a kernel of its own (doActivation,
//   which quantizes in fp8); the down product; the rows weighted and summed back to their
//   tokens (finalizeMoeRouting, or the same traffic fused into the product's epilogue); with
//   block scales the copy and the activation each wait on chains of loads
//   (trtllm_scale_chain_loads) on a GPU of `units` SMs.
std::vector<Op> moe_call_ops(const MoeCall& c, const GemmTypes& types, MoeKernels kernels,
                             double units) {
  const double h = c.hidden, w = c.width();
  const double wide = types.output_bytes, narrow = types.input_bytes;
  const bool quantized = narrow < wide && kernels != MoeKernels::products;
  const double rows = kernels == MoeKernels::vllm ? c.pairs() : c.local_rows();
  const double chained_loads = kernels == MoeKernels::trtllm && types.hardware_scales
                                   ? trtllm_scale_chain_loads(c, units)
                                   : 0;
  std::vector<Op> ops;
  if (quantized) ops.push_back(quantize_pass(c.tokens * h, types));
  if (kernels == MoeKernels::trtllm) {
    ops.push_back(element_pass("expand_rows", 0, 2 * c.local_rows() * h * narrow));
    ops.back().chained_loads = chained_loads;
  }
  ops.push_back(moe_product(c, 2 * w, h, types, rows, kernels));
  // TensorRT-LLM's activation writes the down product's input in its type; vLLM's in 16 bits,
  // quantized after.
  const double act_out = kernels == MoeKernels::trtllm ? narrow : wide;
  ops.push_back(element_pass("gated_activation", 3 * rows * w, rows * w * (2 * wide + act_out)));
  ops.back().chained_loads = chained_loads;
  if (quantized && kernels == MoeKernels::vllm) ops.push_back(quantize_pass(rows * w, types));
  ops.push_back(moe_product(c, h, w, types, rows, kernels));
  if (kernels != MoeKernels::products)
    ops.push_back(element_pass("sum_rows", rows * h, (rows + c.tokens) * h * wide));
  return ops;
}

// TensorRT-LLM builds the expert maps in one kernel where one block can sort the pairs
// (fusedBuildExpertMapsSortFirstToken: at most 256 tokens, top 1, 2, 4, 6 or 8, and fewer than
// 511 experts a GPU), else in three (threeStepBuildExpertMapsSortFirstToken).
double trtllm_expert_map_kernels(const MoeCall& c) {
  const bool fused_top_k = c.topk == 1 || c.topk == 2 || c.topk == 4 || c.topk == 6 || c.topk == 8;
  const bool fused = c.tokens <= 256 && fused_top_k && c.local_experts() + 1 < 512;
  return fused ? 1 : 3;
}

// How a MoE table's calls run: whose kernels, how many more of them than moe_call_ops counts
// ('# ridge: extra_kernels'), and whether the tokens' experts were picked at random.
struct MoeTable {
  MoeKernels kernels = MoeKernels::products;
  double extra_kernels = 0;
  bool random_routing = false;
};

ValidationPoint moe_point(const KernelRow& k, const MoeTable& table) {
  const Row& row = k.row;
  const MoeCall c = moe_call_of(row, table.random_routing);
  const std::vector<Op> ops =
      moe_call_ops(c, k.types, table.kernels, k.device.compute_units_or_one());
  double extra_kernels = table.extra_kernels;
  if (table.kernels == MoeKernels::trtllm) extra_kernels += trtllm_expert_map_kernels(c);
  ValidationPoint p;
  p.line = row.line();
  p.quantity = "time";
  p.label = fmt::format("{} tokens, top {} of {} experts {}x{}{}{} {}", c.tokens, c.topk, c.experts,
                        c.hidden, c.inter, c.tp > 1 ? fmt::format(" tp={}", c.tp) : "",
                        c.ep > 1 ? fmt::format(" ep={}", c.ep) : "", row.text("dtype"));
  p.measured_s = measured_kernel_seconds(row, 0);
  // The call's weights and buffers are the same every replay: the working set is the two
  // products' operands, their weights and the rows they read and write, which the passes
  // between them read and write again.
  double working_set = 0;
  for (const Op& op : ops) working_set += op.gemm_shape ? op.bytes : 0;
  const Residency where =
      k.replayed_copies > 0 ? replayed_residency(working_set, k.device) : Residency{};
  price_ops(p, k.device, ops, k.types.compute, k.overhead_s, extra_kernels, where, {}, k.burst);
  return p;
}

ValidationSet run_moe_set(const Table& t, const Catalog& catalog) {
  const MoeTable table{
      moe_kernels_of(t),
      directive_number(t, "extra_kernels", 0, 100, true, "a count from 0 to 100").value_or(0),
      directive_choice(t, "routing", "balanced", {"balanced", "random"}) == "random"};
  return run_kernel_set(t, catalog, file_role(t), where_multiplied([table](const KernelRow& k) {
                          return moe_point(k, table);
                        }));
}

// ---------------------------------------------------------------------------------------------
// Collectives (nccl-tests on one node): collective, gpus, bytes (nccl-tests' size), dtype,
// device, and a time column.

// A row's collective: ridge's names ("allreduce") or NCCL's ("all_reduce", "AllReduce").
CollectiveOp collective_of(const Row& row) {
  std::string name = lower_case(trimmed(row.text("collective")));
  std::erase(name, '_');
  const auto op = find_collective_op(name);
  if (!op)
    input_error(
        "{}:{}: collective: '{}' is not allreduce, allgather, reducescatter, alltoall or "
        "broadcast",
        row.origin(), row.line(), json_input_detail::printable(row.text("collective")));
  return *op;
}

// Whose all-reduce a collective table timed ('# ridge: collective_kernel = nccl | trtllm |
// trtllm-1.0 | trtllm-plugin | vllm | sglang (why)'): NCCL's (nccl-tests); TensorRT-LLM's custom
// kernels as one of its generations dispatches them (expected_trtllm_allreduce_time); or vLLM's
// custom all-reduce as vLLM or SGLang dispatches it (expected_pull_allreduce_time).
AllreduceKernel allreduce_kernel_of(const Table& t) {
  const std::string kernel =
      directive_choice(t, "collective_kernel", "nccl",
                       {"nccl", "trtllm", "trtllm-1.0", "trtllm-plugin", "vllm", "sglang"});
  return *find_allreduce_kernel(kernel);  // the choices above are the kernels' names
}

// How a table's source shaped its messages ('# ridge: message_row_elements = N (why)'): rows of N
// values, a message of no more than N values one row of its own length (aiconfigurator's
// collector: token_dim = 4096 in get_input_shape_and_comm_size); one row where it says nothing.
// TensorRT-LLM's dispatch reads the rows as tokens.
AllreduceMessage message_of(double bytes, double element_bytes,
                            std::optional<double> row_elements) {
  const double elements = bytes / element_bytes;
  if (!row_elements || elements <= *row_elements) return {1, elements, element_bytes};
  return {std::floor(elements / *row_elements), *row_elements, element_bytes};
}

// The bound as `ridge model` counts a collective (the bytes each rank sends at the link's spec
// bandwidth, no latency), and the expected time as it prices one (NCCL's latency model over the
// achievable link, or the engine's all-reduce where the table says), the collective launched on
// its own as nccl-tests does, or `graph_calls` of them in a CUDA graph, all but the first after
// another kernel of it.
ValidationPoint collective_point(const KernelRow& k, AllreduceKernel kernel,
                                 std::optional<double> row_elements) {
  const Row& row = k.row;
  const CollectiveOp op = collective_of(row);
  const int ranks = row.count("gpus", 1e6);
  if (ranks < 2)
    input_error("{}:{}: gpus: '{}' is not a collective (2 GPUs or more)", row.origin(), row.line(),
                row.text("gpus"));
  const double bytes = row.number("bytes");
  ValidationPoint p;
  p.line = row.line();
  p.quantity = "time";
  p.label = fmt::format("{} {} B over {} GPUs", to_string(op), bytes, ranks);
  p.measured_s = measured_kernel_seconds(row, 0);
  p.device_id = k.device.id;
  p.bound_s = k.overhead_s + collective_bound(op, bytes, ranks, k.device).time_s;
  if (const auto calibration = find_calibration(k.device)) {
    p.calibration = calibration->id;
    const auto priced = [&](KernelLaunch launch) {
      return expected_collective_as_run(op, bytes, ranks, k.device, *calibration, launch, kernel,
                                        message_of(bytes, k.types.input_bytes, row_elements));
    };
    const ExpectedTime alone = priced(KernelLaunch::alone);
    const double in_graph = in_graph_share(k.graph_captured, k.graph_calls);
    const double time_s =
        in_graph > 0 ? blended_in_graph(alone.time_s, priced(KernelLaunch::graph).time_s, in_graph)
                     : alone.time_s;
    p.expected_s = k.overhead_s + time_s;
    p.remark = "expected: " + alone.detail;  // NCCL's protocol, or the engine's kernel
  }
  return p;
}

ValidationSet run_collective_set(const Table& t, const Catalog& catalog) {
  const AllreduceKernel kernel = allreduce_kernel_of(t);
  const std::optional<double> row_elements =
      directive_number(t, "message_row_elements", 1, 1e9, true, "a count from 1 to 1e9");
  return run_kernel_set(t, catalog, file_role(t), [kernel, row_elements](const KernelRow& k) {
    return collective_point(k, kernel, row_elements);
  });
}

// ---------------------------------------------------------------------------------------------
// Element-wise kernels (a quantization, a copy, an activation): elements, dtype (what each
// element is read as and written as, 'bf16->fp8_e4m3'; one type: the same both ways), device,
// and a time, and optionally the op: 'dynamic_quantize' is TensorRT-LLM's quantization that finds
// its own scale (dynamic_quantization_passes), the amax kernel and the quantization one after the
// other, the graph's calls after the first each following the other kind; any other op one
// kernel, priced as `ridge model` prices every element-wise op (each element read and written
// once, at the lesser of the achievable bandwidth and what the SMs move), each call after the
// first following the same kernel.
ValidationPoint elementwise_point(const KernelRow& k) {
  const Row& row = k.row;
  const double elements = row.number("elements");
  const std::optional<std::string> name = row.optional_text("op");
  const bool dynamic_quantize = name == "dynamic_quantize";
  KernelChain chain;
  if (dynamic_quantize)
    chain = dynamic_quantization_passes(elements, k.types);
  else
    chain.add(read_write_pass(name.value_or("element-wise"), elements, k.types));
  ValidationPoint p;
  p.line = row.line();
  p.quantity = "time";
  p.label = fmt::format("{:g} elements {}", elements, row.text("dtype"));
  if (name) p.label = *name + " " + p.label;
  p.measured_s = measured_kernel_seconds(row, 0);
  // A source that replays the calls on the same buffers finds what the L2 holds of them: the
  // input and the output.
  const Residency where =
      k.replayed_copies > 0
          ? replayed_residency(elements * (k.types.input_bytes + k.types.output_bytes), k.device)
          : Residency{};
  TimedBurst burst = k.burst;
  burst.kernels_per_call = static_cast<double>(chain.ops.size()) * k.graph_calls;
  const InGraph in_graph{in_graph_share(k.graph_captured, k.graph_calls),
                         dynamic_quantize ? KernelLaunch::graph : KernelLaunch::graph_repeat,
                         dynamic_quantize};
  price_ops(p, k.device, chain.ops, k.types.compute, k.overhead_s, 0, where, in_graph, burst,
            chain.read_again);
  return p;
}

ValidationSet run_elementwise_set(const Table& t, const Catalog& catalog) {
  return run_kernel_set(t, catalog, file_role(t), where_multiplied(elementwise_point));
}

// ---------------------------------------------------------------------------------------------
// Achievable matmul ceilings (mamf_tflops): the best shape's time at the table's rate.

GemmShape parse_shape(const Row& row, std::string_view column) {
  const std::string text = row.text(column);
  const auto sides = shape_sides(text);
  if (!sides) input_error("{}:{}: {}: '{}' is not MxNxK", row.origin(), row.line(), column, text);
  return GemmShape{(*sides)[0], (*sides)[1], (*sides)[2]};
}

// The best shape's time at the achievable rate the table reports.
ValidationPoint ceiling_point(const KernelRow& k) {
  const GemmShape shape = parse_shape(k.row, "best_shape_MxNxK");
  ValidationPoint p;
  p.line = k.row.line();
  p.quantity = "time";
  p.label = fmt::format("{} best shape {}", k.row.text("dtype"), k.row.text("best_shape_MxNxK"));
  p.measured_s = 2 * shape.m * shape.n * shape.k / (k.row.number("mamf_tflops") * 1e12);
  price_gemm(p, k.device, shape, k.types, k.overhead_s);
  return p;
}

// A fit set where the file says so (the bundled table is where the NVIDIA profiles' compute
// shares come from); a table of parts whose shares came from elsewhere holds them out.
ValidationSet run_ceiling_set(const Table& t, const Catalog& catalog) {
  return run_kernel_set(t, catalog, file_role(t), where_multiplied(ceiling_point));
}

// ---------------------------------------------------------------------------------------------
// Whole-model runs: model, gpu, tp, precision, batch, isl, osl, metric, value, unit.

struct RunPrecision {
  Precision compute = Precision::fp16;
  double weight_bits = 16;
  bool presumed = false;  // the source does not state it
  // A checkpoint format the row names ('mxfp4'): the model's layers in it as its checkpoint
  // keeps them (its quantization_config where that names the format), the rest 16-bit.
  std::optional<QuantFormat> format;
};

// The bits of a weight format its name gives: 8 for 'int8' and 'fp8', 6 for 'fp6'.
std::optional<double> named_bits(std::string_view word) {
  for (std::string_view kind : {"int", "fp"}) {
    if (!word.starts_with(kind)) continue;
    const std::string_view digits = word.substr(kind.size());
    if (all_digits(digits)) return std::atof(std::string(digits).c_str());
  }
  return std::nullopt;
}

// The weights a group of a weight-only format holds, as a precision's words give it: "g32",
// "(G=32)" (the words "g" and "32"), "group size 128", "group 128"; none if they give none.
std::optional<double> weight_group(const std::vector<std::string>& w) {
  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::string& word = w[i];
    if (word.size() > 1 && word[0] == 'g' && all_digits(std::string_view(word).substr(1)))
      return std::atof(word.c_str() + 1);
    const bool names_group = word == "g" || word == "group" || word == "groupsize";
    std::size_t next = i + 1;
    if (names_group && next < w.size() && w[next] == "size") ++next;
    if (names_group && next < w.size() && all_digits(w[next])) return std::atof(w[next].c_str());
  }
  return std::nullopt;
}

// The bits a weight-only precision's words give its weights: "int4", "fp8" and the like first,
// "4-bit" (the words "4" and "bit"), "w4a16"; none if they name no width.
std::optional<double> weight_only_bits(const std::vector<std::string>& w) {
  if (const auto bits = named_bits(w[0])) return bits;
  if (w.size() > 1 && all_digits(w[0]) && w[1] == "bit") return std::atof(w[0].c_str());
  if (w[0] == "w4a16") return 4;
  if (w[0] == "w8a16") return 8;
  return std::nullopt;
}

// 'bf16', 'fp16' (or PyTorch's 'float16', 'half', 'bfloat16'), 'int8 weight-only', 'int4
// weight-only g32' (groups of 32 weights, each with a 16-bit scale and a 16-bit zero point, as
// GPTQ, AWQ and gpt-fast store them), '8-bit' and '4-bit (G=32)' (gpt-fast's README's words for
// the same), 'fp8 weight-only', 'fp6 weight-only' (narrow weights, 16-bit products), 'AWQ',
// 'GPTQ', 'W4A16' (4-bit weights in groups of 128 unless the words give another), 'W8A8' or
// 'int8 SmoothQuant' (int8 products), 'fp8', 'nvfp4', 'mxfp4' (the checkpoint's format,
// gpt-oss's: its experts' weights, 16-bit products), or a sentence saying it is not stated
// (then fp16, presumed).
std::optional<RunPrecision> run_precision(std::string_view text) {
  std::vector<std::string> w = lower_words(text);
  RunPrecision p;
  p.presumed = std::ranges::find(w, "presumed") != w.end();
  if (!w.empty() && w[0] == "torch") w.erase(w.begin());  // "torch.float16"
  if (w.empty()) return std::nullopt;
  const auto says = [&](std::string_view word) { return std::ranges::find(w, word) != w.end(); };
  // Weights and activations in int8 (SmoothQuant): int8 products.
  if (w[0] == "w8a8" || (w[0] == "int8" && (says("smoothquant") || says("sq") || says("w8a8"))))
    return RunPrecision{Precision::int8, 8, false, {}};
  // Weight-only: said so, a library that ships only such weights (AWQ, GPTQ: 4-bit in groups of
  // 128 unless the words say otherwise), or a width the products do not have.
  const bool awq_or_gptq = says("awq") || says("gptq");
  const bool weight_only = (says("weight") && says("only")) || awq_or_gptq || w[0] == "w4a16" ||
                           w[0] == "w8a16" || w[0] == "int8" || w[0] == "int4" ||
                           (w.size() > 1 && w[1] == "bit");
  std::optional<double> bits = weight_only_bits(w);
  if (!bits && awq_or_gptq) bits = 4;
  if (weight_only && bits && *bits >= 1 && *bits < 16) {
    p.weight_bits = *bits;
    std::optional<double> group = weight_group(w);
    if (!group && awq_or_gptq) group = 128;
    if (group && *group >= 1) p.weight_bits += 32.0 / *group;
    return p;
  }
  const auto named = precision_named(w[0]);  // ridge's and PyTorch's names
  const bool sixteen_bit = bits == 16 && w.size() > 1 && w[1] == "bit";  // "16-bit"
  if (p.presumed || sixteen_bit || named == Precision::fp16 || named == Precision::bf16) return p;
  if (named == Precision::fp8) return RunPrecision{Precision::fp8, 8, false, {}};
  if (named == Precision::fp32) return RunPrecision{Precision::fp32, 32, false, {}};
  // NVFP4 weights and activations: fp4 products, and the format's scales in its bytes.
  if (w[0] == "nvfp4")
    return RunPrecision{Precision::fp4, find_quant_format("nvfp4")->bits_per_value(), false, {}};
  if (w[0] == "mxfp4") return RunPrecision{Precision::bf16, 16, false, find_quant_format("mxfp4")};
  return std::nullopt;
}

// A run's times as ridge prices them: its first token, each token after it, the whole request.
struct RunTimes {
  double ttft = 0, tpot = 0, e2e = 0;
};

// Which of a run's times a metric measures, and the measured value in seconds.
struct RunMetric {
  std::string quantity;
  double seconds = 0;
  double RunTimes::*predicted = nullptr;
};

RunTimes bound_times(const ModelAnalysis& a) {
  return {a.prefill.time_s, a.decode_time_per_token_s, a.end_to_end_s};
}

RunTimes expected_times(const ExpectedRun& e) {
  return {e.time_to_first_token_s, e.time_per_token_s, e.end_to_end_s};
}

// A serving benchmark's concurrency (a closed loop of N clients, each sending its next request
// when the last one ends), not a static batch: requests need not start together, and one may
// have its prompt prefilled alone, so the bound takes one request's prefill (`one`: the run at
// batch 1) beside the decode steps of N in flight.
RunTimes concurrent_bound(const ModelAnalysis& in_flight, const ModelAnalysis& one, double osl) {
  const double ttft = one.prefill.time_s;
  const double tpot = in_flight.decode_time_per_token_s;
  return {ttft, tpot, ttft + (osl - 1) * tpot};
}

// The expected times of such a loop: with equal lengths, as the tables' isl and osl give them,
// its requests start and end in step, a wave of N; the engines these benchmarks time (vLLM's and
// SGLang's chunked prefill) prefill a wave's prompts in order, so the i-th request's first token
// comes after i of the N prompts: the mean first token at (N + 1) / 2N of the wave's prefill.
RunTimes concurrent_expected(const ExpectedRun& wave, double n) {
  RunTimes t = expected_times(wave);
  t.ttft *= (n + 1) / (2 * n);
  return t;
}

// Whether a run's batch is a serving benchmark's concurrency: its batch_semantics column says so
// ("max concurrency", "concurrent requests", "requests in flight", "clients"), or its batch is a
// concurrency column.
bool is_concurrency(const Row& row) {
  // A batch given as a concurrency column ("max_concurrency", "concurrent_requests") is one.
  if (const auto header = row.header_of("batch");
      header && header->find("concurren") != std::string::npos)
    return true;
  const std::string semantics = lower_case(row.optional_text("batch_semantics").value_or(""));
  for (std::string_view word : {"concurren", "in flight", "in-flight", "client"}) {
    if (semantics.find(word) != std::string::npos) return true;
  }
  return false;
}

// A rate the source gives per GPU (its 'per' column, its unit or its metric says so: "per GPU",
// "tok/s/gpu") is the group's over all its GPUs.
double group_rate(const Row& row, std::string_view metric, std::string_view unit, double value) {
  const std::string per = lower_case(row.optional_text("per").value_or(""));
  const bool per_gpu = per.find("per gpu") != std::string::npos || per == "gpu" ||
                       unit.find("gpu") != std::string_view::npos ||
                       metric.find("gpu") != std::string_view::npos;
  if (!per_gpu) return value;
  const double gpus =
      row.optional_text("n_gpus") ? row.count("n_gpus", 1e5) : row.count_or_one("tp", 1024);
  return value * gpus;
}

// A tail percentile a metric names ("P99 TPOT", "p90_ttft_ms", "99th percentile latency"), if
// any: ridge predicts a typical request, not the slowest, so such a metric is not priced.
std::optional<std::string> tail_percentile(std::string_view metric) {
  for (const std::string& word : lower_words(metric)) {
    std::string_view digits = word;
    if (digits.starts_with('p'))
      digits.remove_prefix(1);
    else if (digits.ends_with("th"))
      digits.remove_suffix(2);
    else
      continue;
    if (all_digits(digits) && digits != "50") return word;
  }
  return std::nullopt;
}

// Every metric is compared as a time: a rate is turned into the time it implies (tokens per
// second per user: the request's output tokens over it; requests per second: the batch over it;
// output tokens per second for the batch: batch x output tokens over it; a static batch's
// prefill tokens per second: its prompts' tokens over it, the first token; decode tokens per
// second: the batch over it, a decode step). Else why the metric is not priced.
std::variant<RunMetric, std::string> run_metric(const Row& row, double batch, double isl,
                                                double osl) {
  const std::string named = row.text("metric");
  if (const auto tail = tail_percentile(named))
    return fmt::format("metric '{}' is a tail percentile ('{}'): ridge predicts a typical request",
                       named, *tail);
  std::string metric = lower_case(named);
  std::ranges::replace(metric, ' ', '_');
  std::ranges::replace(metric, '-', '_');
  const std::string unit = lower_case(row.text("unit"));
  const double value = row.number("value");
  const auto has = [&](std::string_view s) { return metric.find(s) != std::string::npos; };
  const auto unit_has = [&](std::string_view s) { return unit.find(s) != std::string::npos; };
  // A rate: by its name ("throughput", "tokens_per_s") or by its unit ("tok/s", "req/s").
  const bool rate = has("throughput") || has("per_s") || unit_has("/s") || unit_has("per s");
  // A user's own rate first: gpt-fast's "decode tokens/s per user" is its whole request's.
  if (rate && (has("per_user") || unit_has("user")))
    return RunMetric{"request time (from tokens/s per user)", osl / value, &RunTimes::e2e};
  if (rate && has("prefill")) {
    if (is_concurrency(row))
      return fmt::format(
          "metric '{}': a serving loop's prefill rate mixes its requests' "
          "prompts; ridge prices a static batch's",
          named);
    return RunMetric{"time to first token (from prefill throughput)",
                     batch * isl / group_rate(row, metric, unit, value), &RunTimes::ttft};
  }
  if (rate && has("decode"))
    return RunMetric{"time per output token (from decode throughput)",
                     batch / group_rate(row, metric, unit, value), &RunTimes::tpot};
  if (has("ttft") || has("first_token") || has("1st_token") || (has("prefill") && !rate))
    return RunMetric{"time to first token", seconds_in(value, unit), &RunTimes::ttft};
  if (has("tpot") || has("per_output_token") || has("itl") || has("inter_token") ||
      (has("per_token") && !rate))
    return RunMetric{"time per output token", seconds_in(value, unit), &RunTimes::tpot};
  if (has("latency") || has("e2e") || has("end_to_end"))
    return RunMetric{"request latency", seconds_in(value, unit), &RunTimes::e2e};
  if (rate) {
    // Tokens ("tokens/s", "out tok/s"): the batch's output tokens, or its input and output ones
    // where the source counts both ("total"); else requests or sentences: the batch.
    const bool tokens = unit_has("tok") || has("tok");
    const bool total = has("total") || unit_has("total");
    const double work = tokens ? batch * (total ? isl + osl : osl) : batch;
    return RunMetric{"request time (from throughput)", work / group_rate(row, metric, unit, value),
                     &RunTimes::e2e};
  }
  return fmt::format("metric '{}' is not one ridge predicts", named);
}

// The engine traits below read a framework cell lower-cased (`lower`), once per row.

// Eager PyTorch: a cell that says so ("PyTorch eager", "eager, no torch.compile"), whatever
// else it names; its ops are dispatched from Python one at a time.
bool uses_eager_pytorch(const std::string& lower) {
  return lower.find("eager") != std::string::npos;
}

// torch.compile (gpt-fast's reduce-overhead mode), vLLM and SGLang replay decode from CUDA
// graphs. TensorRT-LLM's C++ runtime launches each kernel from the host unless told otherwise
// (gptSessionBenchmark had no graph option; later benchmarks take --enable_cuda_graph), as does
// eager PyTorch. A framework cell that says "cuda graph" means graphs, whatever the engine.
bool uses_cuda_graphs(const std::string& lower) {
  if (uses_eager_pytorch(lower)) return false;
  for (std::string_view engine : {"torch.compile", "vllm", "sglang", "gpt-fast", "cuda graph"}) {
    if (lower.find(engine) != std::string::npos) return true;
  }
  return false;
}

// The release a framework cell names for TensorRT-LLM ("TensorRT-LLM v0.9.0", "TensorRT-LLM
// 1.0.0"): its minor number where its major one is `major`; none where the cell names no such
// release.
std::optional<int> tensorrt_llm_release(const std::string& lower, std::string_view major) {
  const std::size_t engine = lower.find("tensorrt-llm");
  if (engine == std::string::npos) return std::nullopt;
  const std::size_t release = lower.find(fmt::format("{}.", major), engine);
  if (release == std::string::npos) return std::nullopt;
  const std::size_t minor_at = release + major.size() + 1;
  if (minor_at >= lower.size()) return std::nullopt;
  const bool named = release > 0 && (lower[release - 1] == 'v' || lower[release - 1] == ' ');
  if (!named || !std::isdigit(static_cast<unsigned char>(lower[minor_at]))) return std::nullopt;
  return std::atoi(lower.c_str() + minor_at);
}

// Its minor number under 0.x.
std::optional<int> tensorrt_llm_minor_release(const std::string& lower) {
  return tensorrt_llm_release(lower, "0");
}

// gpt-fast and torchao (which forked gpt-fast's generate.py) run weight-only formats on PyTorch's
// own kernels: inductor's dequantising GEMV for int8 and fp8 weights, tinygemm's
// _weight_int4pack_mm for int4 (torchao/quantization/README.md). Other engines ship their own
// (vLLM's Marlin, TensorRT-LLM's weight-only GEMMs) and read the format's bytes at full rate.
bool uses_torch_weight_kernels(const std::string& lower) {
  return lower.find("gpt-fast") != std::string::npos || lower.find("torchao") != std::string::npos;
}

// Fused attention runs in 16 bits where the products are narrower (fp8, int8, fp4), unless the
// row says its attention is fp8 too. TensorRT-LLM's FP8 context FMHA is opt-in
// (`use_fp8_context_fmha: bool = False` in its plugin config, a copy at 0.10.0.dev2024043000;
// its context FMHA types are "FP16 I/O") and the builds its tables state do not turn it on;
// torchao's float8 modes quantise the linear layers, and SDPA runs in bf16.
bool runs_fp8_attention(const std::string& lower) {
  for (std::string_view says : {"fp8 attention", "fp8 context fmha", "fp8 fmha"})
    if (lower.find(says) != std::string::npos) return true;
  return false;
}

// A run's products at `products`; where they are narrower than 16 bits (fp8, int8, fp4) and the
// device has a 16-bit peak, the hidden states between them in 16 bits, and its attention and
// element-wise work too unless the row (`stated`, lower case) says its attention is fp8. Engines
// quantise a product's input on its way in and write its output in the model's type:
// TensorRT-LLM's FP8Linear (tensorrt_llm/quantization/layers.py: quantize, then the fp8 GEMM or
// its Q/DQ pair, out in self.dtype), vLLM's fp8 linear methods (output_dtype = input.dtype) and
// torchao's float8 modes alike; the residual stream, its norms and the tensor-parallel all-reduces
// stay in 16 bits. The products' inputs are read at the products' width (add_linear).
void set_compute(Workload& w, Precision products, const std::string& stated, const Device& device) {
  w.compute = products;
  w.activation_bytes = std::min(2.0, bytes_per_element(products));
  const bool has_16_bits = device.has_peak(Precision::fp16) || device.has_peak(Precision::bf16);
  if (bytes_per_element(products) >= 2 || !has_16_bits) return;
  w.activation_bytes = 2;
  if (runs_fp8_attention(stated)) return;
  w.weights.set_compute(products);
  w.compute = compute_precision_for_bits(16, device);
}

// TensorRT-LLM's generation kernel ran each query head on its own, reading its group's K and V
// for each, until its XQA kernels for grouped-query attention became the default in v0.8
// (docs/source/blogs/XQA-kernel.md: 2.4x the throughput for Llama 70B with them). Through v0.9
// XQA took only one shape of group: DecoderXQARunner::shouldUse (decoderXQARunner.h, in v0.7.1
// and still in 0.10.0.dev2024043000) declines any model whose query heads per KV head are not 8
// or whose head dimension is not 128, so Mistral and Mixtral (4 a group) and Falcon 180B (29,
// head dimension 64) kept the per-head kernel. A cell that names an earlier release, or says XQA
// is off, reads K and V per query head; one without a release is presumed current.
bool reads_kv_per_query_head(const std::string& lower, const ModelConfig& model) {
  if (lower.find("without xqa") != std::string::npos || lower.find("no xqa") != std::string::npos)
    return true;
  const std::optional<int> minor = tensorrt_llm_minor_release(lower);
  if (!minor) return false;
  if (*minor < 8) return true;
  const bool xqa_shape = model.num_heads == 8 * model.num_kv_heads && model.head_dim == 128;
  return *minor <= 9 && !xqa_shape;
}

// A cell that names TensorRT-LLM runs its attention kernels: its context FMHA on the prompt, and
// its decode kernels, the attention's shape saying which (XQA for grouped queries that share
// their reads, AttentionShape::trtllm_xqa_blocks).
bool runs_trtllm(const std::string& lower) {
  return lower.find("tensorrt-llm") != std::string::npos;
}

// Serving engines all-reduce a tensor-parallel layer's output with their own kernel: vLLM and
// SGLang their custom all-reduce (on by default, each by its own dispatch), and TensorRT-LLM from
// v0.7 its custom kernels. TensorRT-LLM's benchmarks build with its custom all-reduce plugin
// (BuildConfig.use_custom_all_reduce = True in benchmarks/python/allowed_configs.py, a copy with
// v0.7's Mixtral; trtllm-build's PluginConfig the same), as NeMo's exporter does
// (use_custom_all_reduce = True in nemo/export/trt_llm/tensorrt_llm_build.py): the plugin's
// dispatch by size. Before v0.7 the examples built without it unless told
// (--use_custom_all_reduce, a store_true flag, at v0.5 and v0.7's build.py). Its PyTorch flow
// from 1.0 dispatches by tokens (trtllm_allreduce.h): 1.0 by its 128-token threshold, later
// releases by its lookup table. A cell naming no release (NeMo's) is taken to build an engine.
AllreduceKernel engine_allreduce_kernel(const std::string& lower) {
  if (lower.find("sglang") != std::string::npos) return AllreduceKernel::sglang;
  if (lower.find("vllm") != std::string::npos) return AllreduceKernel::vllm;
  if (!runs_trtllm(lower)) return AllreduceKernel::nccl;
  if (const std::optional<int> minor = tensorrt_llm_minor_release(lower))
    return *minor >= 7 ? AllreduceKernel::trtllm_plugin : AllreduceKernel::nccl;
  if (const std::optional<int> minor = tensorrt_llm_release(lower, "1"))
    return *minor == 0 ? AllreduceKernel::trtllm_1_0 : AllreduceKernel::trtllm;
  return AllreduceKernel::trtllm_plugin;
}

// TensorRT-LLM's first Falcon (tensorrt_llm/models/falcon/model.py at 027cd518, the v0.5 code)
// all-reduced the attention's and the MLP's outputs each inside its layer; by v0.7.1 (a copy at
// github.com/glqglq/TensorRT-LLM @ 9ebe326e) one all-reduce took their sum. A release before
// v0.7 is taken to run the first code (v0.6's was not seen).
bool reduces_parallel_outputs_apart(const std::string& lower) {
  const std::optional<int> minor = tensorrt_llm_minor_release(lower);
  return minor && *minor < 7;
}

// '-0324', '-2507': a hyphen and four digits at the end of a model's name.
bool ends_with_release_date(std::string_view name) {
  if (name.size() < 6 || name[name.size() - 5] != '-') return false;
  return std::ranges::all_of(name.substr(name.size() - 4),
                             [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A model as sources name it ("meta-llama/Llama-3.1-8B-Instruct", "Llama-2-7b-chat-hf", "LLaMA
// 7B", "GPT-J 6B"), as a preset: the organisation, the fine-tune's and the release's suffixes go
// (they change no shape), words are joined by hyphens, and a name takes the preset of the same
// shapes: LLaMA 7B and 13B are Llama 2's (the same layers, widths and vocabulary), "LLaMA 70B"
// is Llama 2 70B (there was no other), Llama 3 and 3.3 take Llama 3.1's of their size (their
// context length aside).
std::string model_preset(std::string_view name) {
  std::string lower =
      lower_case(name.substr(name.find('/') == std::string_view::npos ? 0 : name.find('/') + 1));
  std::ranges::replace(lower, ' ', '-');
  std::ranges::replace(lower, '_', '-');
  if (lower.starts_with("meta-")) lower.erase(0, 5);
  // The fine-tune's, the release's and a quantised checkpoint's suffixes (its format is the
  // precision column's to say), and a checkpoint's release date ('DeepSeek-V3-0324',
  // 'Qwen3-30B-A3B-Instruct-2507': four digits, which no size is).
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::string_view suffix :
         {"-hf",   "-instruct", "-chat", "-base",        "-thinking", "-v0.1", "-v0.2",
          "-v0.3", "-it",       "-fp8",  "-fp8-dynamic", "-bf16",     "-fp4",  "-nvfp4",
          "-awq",  "-gptq",     "-int4", "-int8",        "-w8a8",     "-w4a16"}) {
      if (lower.ends_with(suffix)) {
        lower.resize(lower.size() - suffix.size());
        stripped = true;
      }
    }
    if (ends_with_release_date(lower)) {
      lower.resize(lower.size() - 5);
      stripped = true;
    }
  }
  static const std::map<std::string_view, std::string_view> same_shapes = {
      {"llama-7b", "llama-2-7b"},
      {"llama-13b", "llama-2-13b"},
      {"llama-70b", "llama-2-70b"},
      {"llama2-7b", "llama-2-7b"},
      {"llama2-13b", "llama-2-13b"},
      {"llama2-70b", "llama-2-70b"},
      {"llama-3-8b", "llama-3.1-8b"},
      {"llama-3-70b", "llama-3.1-70b"},
      {"llama-3.3-70b", "llama-3.1-70b"},
      {"gpt-j", "gpt-j-6b"},
      {"gptj-6b", "gpt-j-6b"},
      {"deepseek-r1", "deepseek-v3"},    // R1's config.json is V3's architecture and shapes
      {"deepseek-v3.1", "deepseek-v3"},  // and V3.1's too
      {"olmo-2-1124-7b", "olmo-2-7b"},   // the November 2024 release, its preset's config
      {"qwen2-72b", "qwen2.5-72b"},      // Qwen2.5 kept Qwen2's 72B layers, widths, vocabulary
      {"codellama-34b-python", "codellama-34b"},
      {"llama-3.1-nemotron-70b", "llama-3.1-70b"},  // NVIDIA's fine-tune of Llama 3.1 70B
      // DeepSeek's distillations: each its base model's config.json (Llama 3.3 70B's are Llama
      // 3.1 70B's shapes; Qwen2.5-Math-7B's Qwen2.5 7B's).
      {"deepseek-r1-distill-llama-70b", "llama-3.1-70b"},
      {"deepseek-r1-distill-llama-8b", "llama-3.1-8b"},
      {"deepseek-r1-distill-qwen-32b", "qwen2.5-32b"},
      {"deepseek-r1-distill-qwen-14b", "qwen2.5-14b"},
      {"deepseek-r1-distill-qwen-7b", "qwen2.5-7b"},
  };
  const auto it = same_shapes.find(lower);
  return it == same_shapes.end() ? lower : std::string(it->second);
}

// The word of a run's framework or notes that names speculative decoding (a draft model, EAGLE,
// Medusa, DeepSeek's MTP: several tokens a decode step), if any; ridge prices one token a step,
// so such a run's decode can beat its bound, and it is not priced.
std::optional<std::string> speculative_decoding(const Row& row) {
  const std::string text =
      row.optional_text("framework").value_or("") + " " + row.optional_text("notes").value_or("");
  for (const std::string& word : lower_words(text)) {
    for (std::string_view named :
         {"speculative", "eagle", "eagle2", "eagle3", "medusa", "mtp", "lookahead", "draft"}) {
      if (word == named) return word;
    }
  }
  return std::nullopt;
}

std::string skip_reason(const Row& row, const predict::NamedDevice& named,
                        const RunPrecision* precision, bool known_model,
                        const std::string* metric_why) {
  const Device* device = named.device;
  if (!device) return named.why_none(row.text("gpu"));
  if (const auto word = speculative_decoding(row))
    return fmt::format("speculative decoding ('{}'): ridge prices one token a decode step", *word);
  if (!precision)
    return fmt::format("precision '{}' is not one ridge reads", row.text("precision"));
  if (auto why = no_peak_for(*device, precision->compute, fmt::format("gpu '{}'", row.text("gpu")),
                             row, "precision"))
    return *why;
  if (!known_model) return fmt::format("no config for model '{}'", row.text("model"));
  if (const double pp = row.count_or_one("pp", 1024); pp > 1)
    return fmt::format(
        "pipeline parallelism (pp={}): ridge prices tensor and expert "
        "parallelism, not pipeline stages",
        pp);
  if (metric_why) return *metric_why;
  return "";
}

// Which layers a row's checkpoint format covers: those the model's own quantization_config puts
// in it (gpt-oss: its experts), else every decoder layer, as `ridge model --quant` does.
WeightQuantization checkpoint_scope(const ModelConfig& model, const QuantFormat& format) {
  if (model.quantization && model.quantization->format.name == format.name)
    return *model.quantization;
  return {"validation precision", format};
}

// How many copies of a group of `group` GPUs a row's n_gpus holds (data parallelism): 1 where it
// gives no n_gpus or no whole multiple of the group.
double data_parallel_replicas(const Row& row, double group) {
  if (!row.optional_text("n_gpus")) return 1;
  const double gpus = row.count("n_gpus", 1e5);
  const double replicas = gpus / group;
  return replicas > 1 && replicas == std::floor(replicas) ? replicas : 1;
}

// The bytes of a KV cache element a row states: its kv_cache column ("fp8", "int8", "fp4"), or
// its precision or notes naming a narrow cache ("fp8 KV cache", "kv_cache_dtype=fp8"); none if
// it states none.
std::optional<double> stated_kv_cache_bytes(const Row& row) {
  // A width as the precision readers name it ("int4", "fp8", "e4m3", "bf16", "nvfp4"); "auto",
  // vLLM's word for the model's own 16 bits.
  const auto bytes_named = [](std::string_view word) -> std::optional<double> {
    if (word == "auto") return 2;
    if (const auto bits = named_bits(word)) return *bits / 8;
    if (const auto types = gemm_input_types(word)) return types->input_bytes;
    return std::nullopt;
  };
  if (const auto cell = row.optional_text("kv_cache")) {
    for (const std::string& word : lower_words(*cell))
      if (const auto bytes = bytes_named(word)) return bytes;
  }
  for (const auto& text : {row.optional_text("precision"), row.optional_text("notes")}) {
    const std::vector<std::string> w = lower_words(text.value_or(""));
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (w[i] != "kv") continue;
      // "fp8 KV cache" names the type before "kv"; "KV cache fp8", "kv_cache_dtype fp8" after.
      if (i > 0)
        if (const auto bytes = bytes_named(w[i - 1])) return bytes;
      for (std::size_t j = i + 1; j < w.size() && j <= i + 3; ++j)
        if (const auto bytes = bytes_named(w[j])) return bytes;
    }
  }
  return std::nullopt;
}

ValidationPoint price_run(const Row& row, const Device& device, const RunPrecision& precision,
                          const RunMetric& metric) {
  Workload w;
  w.batch = row.count("batch");
  w.prompt = row.count("isl");
  w.gen = row.count("osl");
  w.tp = row.count_or_one("tp", 1024);
  w.ep = row.count_or_one("ep", 1024);
  // More GPUs than one group of tp (or ep) uses are data-parallel replicas of it, each serving
  // its share of the batch; the rate a row gives is all of theirs (group_rate).
  const double replicas = data_parallel_replicas(row, std::max(w.tp, w.ep));
  w.batch = static_cast<int>(std::ceil(w.batch / replicas));
  const std::string framework = lower_case(row.optional_text("framework").value_or(""));
  set_compute(w, precision.compute, framework + " " + lower_case(row.text("precision")), device);
  w.weights.set_bytes(precision.weight_bits / 8);
  ModelConfig model = load_model(model_preset(row.text("model")));
  if (precision.format)
    quantise_weights(w.weights, checkpoint_scope(model, *precision.format), model, device);
  // The KV cache as the row states it, else in fp8 where the products are fp8, else 16-bit.
  w.kv_bytes = stated_kv_cache_bytes(row).value_or(precision.compute == Precision::fp8 ? 1.0 : 2.0);
  w.cuda_graphs = uses_cuda_graphs(framework);
  w.eager_pytorch = uses_eager_pytorch(framework);
  w.torch_weight_kernels = uses_torch_weight_kernels(framework);
  w.kv_read_per_query_head = reads_kv_per_query_head(framework, model);
  w.trtllm_xqa = w.trtllm_fmha = w.trtllm_moe = runs_trtllm(framework);
  w.allreduce_kernel = engine_allreduce_kernel(framework);
  if (reduces_parallel_outputs_apart(framework)) model.one_allreduce_per_layer = false;
  const ModelAnalysis a = analyse_model(model, w, device);
  const bool concurrent = is_concurrency(row) && w.batch > 1;
  RunTimes bound = bound_times(a);
  if (concurrent) {
    Workload alone = w;
    alone.batch = 1;
    bound = concurrent_bound(a, analyse_model(model, alone, device), w.gen);
  }
  ValidationPoint p;
  p.line = row.line();
  p.device_id = device.id;
  p.quantity = metric.quantity;
  p.label = fmt::format("{} tp={}{}{} {}={} {}+{} {}", row.text("model"), w.tp,
                        w.ep > 1 ? fmt::format(" ep={}", w.ep) : "",
                        replicas > 1 ? fmt::format(" dp={}", replicas) : "",
                        concurrent ? "concurrency" : "batch", w.batch, w.prompt, w.gen,
                        row.text("precision").substr(0, 24));
  p.measured_s = metric.seconds;
  p.bound_s = bound.*metric.predicted;
  if (a.expected) {
    const RunTimes expected =
        concurrent ? concurrent_expected(*a.expected, w.batch) : expected_times(*a.expected);
    p.expected_s = expected.*metric.predicted;
    p.calibration = a.expected->calibration;
  }
  return p;
}

// A row whose layout the model refuses (a TP degree that does not divide its heads, an EP degree
// its experts) is bad input at that row: the model's own message, with the file and line.
ValidationPoint priced_at_its_line(const Row& row, const Device& device,
                                   const RunPrecision& precision, const RunMetric& metric) {
  try {
    return price_run(row, device, precision, metric);
  } catch (const InputError& e) {
    input_error("{}:{}: {}", row.origin(), row.line(), e.what());
  }
}

// A point of a set being built: the set's name and the point's index in it.
struct PointRef {
  std::string set;
  std::size_t index = 0;
};

// The comma-separated items of a directive's value ('# ridge: fit = S3,S4 (why)'), trimmed;
// none when the file has no such directive.
std::vector<std::string> directive_list(const Table& t, const std::string& key) {
  std::vector<std::string> items;
  const auto it = t.directives.find(key);
  if (it == t.directives.end()) return items;
  std::istringstream list(it->second);
  std::string item;
  while (std::getline(list, item, ',')) items.push_back(trimmed(item));
  return items;
}

// The sources a file names in '# ridge: fit = S3,S4 (why)': a figure of the shipped model was
// fitted to their rows, so their sets are reported as fit sets.
bool is_fit_source(const Table& t, const std::string& source) {
  const std::vector<std::string> fitted = directive_list(t, "fit");
  return !source.empty() && std::ranges::find(fitted, source) != fitted.end();
}

// Where a source does not state its precision, a run faster than the presumed fp16 allows (its
// bound above the measurement) refutes the presumption for that model in that source: none of
// its runs can be priced then, and none counts as a broken bound.
void exclude_refuted_precisions(std::map<std::string, ValidationSet>& sets,
                                const std::map<std::string, std::vector<PointRef>>& presumed) {
  const auto point = [&](const PointRef& r) -> ValidationPoint& {
    return sets.at(r.set).points[r.index];
  };
  for (const auto& [model, refs] : presumed) {
    const auto refuting =
        std::ranges::find_if(refs, [&](const PointRef& r) { return point(r).bound_broken(); });
    if (refuting == refs.end()) continue;
    const int line = point(*refuting).line;
    for (const PointRef& r : refs) {
      ValidationPoint& p = point(r);
      p.excluded = true;
      p.reason = p.line == line ? "faster than any run at the presumed fp16 can be: the source's "
                                  "precision is not the one presumed"
                                : fmt::format(
                                      "the source's precision is not stated, and line {} (the same "
                                      "model) is faster than the presumed fp16 allows",
                                      line);
    }
  }
}

std::vector<ValidationSet> run_model_sets(const Table& t, const Catalog& catalog) {
  std::map<std::string, ValidationSet> sets;              // by source and quantity
  std::map<std::string, std::vector<PointRef>> presumed;  // by source and model
  std::vector<std::string> order;
  const std::vector<std::string> presets = model_preset_names();
  ValidationSet skipped = new_set(t, stem_of(t.origin), "model", ValidationRole::held_out);
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const Row row(t, i);
    const predict::NamedDevice device = device_of(t, catalog, row.text("gpu"));
    const auto precision = run_precision(row.text("precision"));
    const std::string preset = model_preset(row.text("model"));
    const bool known_model = std::ranges::find(presets, preset) != presets.end();
    const auto priced = run_metric(row, row.count("batch"), row.count("isl"), row.count("osl"));
    const RunMetric* metric = std::get_if<RunMetric>(&priced);
    const std::string why = skip_reason(row, device, precision ? &*precision : nullptr, known_model,
                                        std::get_if<std::string>(&priced));
    if (!why.empty()) {
      skipped.skipped.push_back(fmt::format("line {}: {}", row.line(), why));
      continue;
    }
    const std::string source = row.optional_text("src").value_or("");
    const std::string name = fmt::format("{}{}{}: {}", stem_of(t.origin), source.empty() ? "" : " ",
                                         source, metric->quantity);
    if (!sets.contains(name)) {
      const ValidationRole role =
          is_fit_source(t, source) ? ValidationRole::fit : ValidationRole::held_out;
      sets.emplace(name, new_set(t, name, "model", role));
      order.push_back(name);
    }
    note_presumption(sets.at(name), device);
    std::vector<ValidationPoint>& points = sets.at(name).points;
    points.push_back(priced_at_its_line(row, *device.device, *precision, *metric));
    if (precision->presumed) presumed[source + " " + preset].push_back({name, points.size() - 1});
  }
  exclude_refuted_precisions(sets, presumed);
  std::vector<ValidationSet> out;
  for (const std::string& name : order) out.push_back(std::move(sets.at(name)));
  if (!skipped.skipped.empty()) {
    if (out.empty()) return {skipped};
    out.front().skipped = skipped.skipped;
  }
  return out;
}

// '# ridge: exclude = 148,150 (why)': rows the file's maintainer found not to time what the
// source states (faster than the stated configuration can physically run, or run at tactics its
// collector tuned for another), kept in the output with the reason and out of the statistics.
// Every excluded line must say why.
void exclude_named_lines(const Table& t, std::vector<ValidationSet>& sets) {
  const std::vector<std::string> lines = directive_list(t, "exclude");
  if (lines.empty()) return;
  const auto why = t.directive_reasons.find("exclude");
  if (why == t.directive_reasons.end() || why->second.empty())
    input_error("{}: '# ridge: exclude' names no reason '(why)'", t.origin);
  for (const std::string& item : lines) {
    const auto line = whole_number(item);
    if (!line || *line != std::floor(*line) || *line < 1 || *line > 1e9)
      input_error("{}: '# ridge: exclude' line '{}' is not a line number", t.origin, item);
    // A line that prices no point (a comment, a skipped row, a number left stale by an edit)
    // would exclude nothing, or the wrong row once the file changes: bad input.
    bool found = false;
    for (ValidationSet& set : sets) {
      for (ValidationPoint& p : set.points) {
        if (p.line != static_cast<int>(*line)) continue;
        p.excluded = true;
        p.reason = "excluded by the file: " + why->second;
        found = true;
      }
    }
    if (!found)
      input_error("{}: '# ridge: exclude' line {} is no priced row of the file", t.origin, item);
  }
}

}  // namespace

std::vector<ValidationSet> run_validation_file(std::string_view text, const std::string& origin,
                                               const Catalog& catalog) {
  const Table t = read_table(text, origin);
  std::vector<ValidationSet> sets;
  if (t.has("mamf_tflops")) {
    sets.push_back(run_ceiling_set(t, catalog));
  } else if (t.has("m") && t.has("n") && t.has("k")) {
    sets.push_back(run_gemm_set(t, catalog));
  } else if (t.has("seqlen") && t.has("headdim")) {
    sets.push_back(run_attention_set(t, catalog));
  } else if (t.has("collective") && t.has("gpus") && t.has("bytes")) {
    sets.push_back(run_collective_set(t, catalog));
  } else if (t.has("experts") && t.has("topk") && t.has("tokens")) {
    sets.push_back(run_moe_set(t, catalog));
  } else if (t.has("elements") && t.has("dtype")) {
    sets.push_back(run_elementwise_set(t, catalog));
  } else if (t.has("model") && t.has("metric") && t.has("value")) {
    sets = run_model_sets(t, catalog);
  } else {
    input_error(
        "{}: not a validation table (GEMM columns m, n, k; attention: seqlen, headdim; "
        "collectives: collective, gpus, bytes; MoE experts: tokens, topk, experts; element-wise "
        "kernels: elements, dtype; model runs: model, metric, value; ceilings: mamf_tflops)",
        origin);
  }
  exclude_named_lines(t, sets);
  for (ValidationSet& set : sets) set.stats = statistics(set.points);
  return sets;
}

std::vector<ValidationSet> run_bundled_validation(const Catalog& catalog) {
  std::vector<ValidationSet> all;
  for (const embedded::File& file : embedded::validation_files()) {
    for (ValidationSet& set :
         run_validation_file(file.text, "data/validation/" + std::string(file.name), catalog))
      all.push_back(std::move(set));
  }
  return all;
}

std::vector<ValidationSet> validation_sets_named(std::vector<ValidationSet> sets,
                                                 const std::vector<std::string>& names) {
  if (names.empty()) return sets;
  std::vector<std::string> wanted;
  for (const std::string& name : names) wanted.push_back(lower_case(name));
  std::vector<bool> picked(wanted.size(), false);
  std::vector<ValidationSet> kept;
  for (ValidationSet& set : sets) {
    const std::string name = lower_case(set.name);
    bool keep = false;
    for (std::size_t i = 0; i < wanted.size(); ++i) {
      if (name.find(wanted[i]) == std::string::npos) continue;
      picked[i] = true;
      keep = true;
    }
    if (keep) kept.push_back(std::move(set));
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!picked[i]) input_error("--set '{}': no validation set's name contains it", names[i]);
  }
  return kept;
}

}  // namespace ridge
