// The measurement file: ridge.measurement/1 JSON, and the measured machine as a device.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/json_input.h"
#include "ridge/error.h"
#include "ridge/input_file.h"
#include "ridge/measurement.h"

namespace ridge {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kSchema = "ridge.measurement/1";

Json summary_json(const Summary& s) {
  return {{"min", s.min}, {"median", s.median}, {"max", s.max}, {"mean", s.mean}, {"cv", s.cv}};
}

// Rates and spreads are finite and never negative; a file that says otherwise was edited or
// corrupted, and its figures would turn into nonsense downstream.
double non_negative(const Json& j, const char* field) {
  const double v = j.at(field).get<double>();
  if (!std::isfinite(v) || v < 0) {
    throw std::invalid_argument(
        fmt::format("{} {} is not a finite, non-negative number", field, v));
  }
  return v;
}

// A whole number in [lo, hi]; the message names the field.
std::int64_t whole(const Json& j, const char* field, std::int64_t lo, std::int64_t hi) {
  try {
    return whole_number(j.at(field), lo, hi);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("{} {}", field, e.what()));
  }
}

constexpr std::int64_t kMaxCount = 10'000'000;  // cores, threads, SMs, batch, matrix sides
constexpr std::int64_t kMaxBytes = 1LL << 60;   // an exbibyte: past any memory or cache

int count(const Json& j, const char* field, std::int64_t lo = 1) {
  return static_cast<int>(whole(j, field, lo, kMaxCount));
}

std::uint64_t byte_count(const Json& j, const char* field) {
  return static_cast<std::uint64_t>(whole(j, field, 0, kMaxBytes));
}

// "MAJOR.MINOR", each a whole number that is not negative.
void read_compute_capability(const std::string& text, GpuInfo& g) {
  const char* const end = text.data() + text.size();
  const auto major = std::from_chars(text.data(), end, g.compute_capability_major);
  bool ok = major.ec == std::errc() && major.ptr != end && *major.ptr == '.';
  if (ok) {
    const auto minor = std::from_chars(major.ptr + 1, end, g.compute_capability_minor);
    ok = minor.ec == std::errc() && minor.ptr == end && g.compute_capability_major >= 0 &&
         g.compute_capability_minor >= 0;
  }
  if (!ok) throw std::invalid_argument("compute_capability " + text + " is not MAJOR.MINOR");
}

// The year of a "YYYY-MM-DDTHH:MM:SSZ" timestamp, as `ridge measure` writes it.
int year_of(const std::string& timestamp) {
  constexpr std::string_view kShape = "dddd-dd-ddTdd:dd:ddZ";
  bool ok = timestamp.size() == kShape.size();
  for (std::size_t i = 0; ok && i < kShape.size(); ++i) {
    const char c = timestamp[i];
    ok = kShape[i] == 'd' ? c >= '0' && c <= '9' : c == kShape[i];
  }
  if (!ok) {
    throw std::invalid_argument("created \"" + timestamp + "\" is not YYYY-MM-DDTHH:MM:SSZ");
  }
  int year = 0;
  std::from_chars(timestamp.data(), timestamp.data() + 4, year);
  return year;
}

Summary summary_from(const Json& j) {
  return {non_negative(j, "min"), non_negative(j, "median"), non_negative(j, "max"),
          non_negative(j, "mean"), non_negative(j, "cv")};
}

Json machine_json(const MachineInfo& m) {
  Json caches = Json::array();
  for (const CacheLevel& c : m.caches) {
    caches.push_back(
        {{"name", c.name}, {"bytes", c.bytes}, {"shared_by_cores", c.shared_by_cores}});
  }
  return {{"cpu", m.cpu},
          {"cores", m.cores},
          {"hardware_threads", m.hardware_threads},
          {"isa", std::string(to_string(m.isa))},
          {"avx512_bf16", m.has_avx512_bf16},
          {"under_hypervisor", m.under_hypervisor},
          {"caches", caches},
          {"memory_bytes", m.memory_bytes},
          {"frequency_governor", m.frequency_governor}};
}

MachineInfo machine_from(const Json& j) {
  MachineInfo m;
  m.cpu = j.at("cpu").get<std::string>();
  m.cores = count(j, "cores");
  m.hardware_threads = count(j, "hardware_threads");
  const std::string isa = j.at("isa").get<std::string>();
  m.isa = isa == "avx512" ? Isa::avx512 : isa == "avx2" ? Isa::avx2 : Isa::scalar;
  m.has_avx512_bf16 = j.at("avx512_bf16").get<bool>();
  m.under_hypervisor = j.at("under_hypervisor").get<bool>();
  for (const Json& c : j.at("caches")) {
    m.caches.push_back(
        {c.at("name").get<std::string>(), byte_count(c, "bytes"), count(c, "shared_by_cores")});
  }
  m.memory_bytes = byte_count(j, "memory_bytes");
  m.frequency_governor = j.at("frequency_governor").get<std::string>();
  return m;
}

Json gpu_json(const GpuInfo& g) {
  return {{"name", g.name},
          {"index", g.index},
          {"compute_capability",
           fmt::format("{}.{}", g.compute_capability_major, g.compute_capability_minor)},
          {"sm_count", g.sm_count},
          {"sm_clock_hz", g.sm_clock_hz},
          {"memory_clock_hz", g.memory_clock_hz},
          {"memory_bus_bits", g.memory_bus_bits},
          {"memory_bytes", g.memory_bytes},
          {"l2_bytes", g.l2_bytes},
          {"shared_memory_per_sm_bytes", g.shared_memory_per_sm_bytes},
          {"pci_bus_id", g.pci_bus_id},
          {"driver_version", g.driver_version},
          {"runtime_version", g.runtime_version}};
}

GpuInfo gpu_from(const Json& j) {
  GpuInfo g;
  g.name = j.at("name").get<std::string>();
  g.index = count(j, "index", 0);
  read_compute_capability(j.at("compute_capability").get<std::string>(), g);
  g.sm_count = count(j, "sm_count");
  g.sm_clock_hz = j.at("sm_clock_hz").get<double>();
  g.memory_clock_hz = j.at("memory_clock_hz").get<double>();
  g.memory_bus_bits = count(j, "memory_bus_bits", 0);
  g.memory_bytes = byte_count(j, "memory_bytes");
  g.l2_bytes = byte_count(j, "l2_bytes");
  g.shared_memory_per_sm_bytes = byte_count(j, "shared_memory_per_sm_bytes");
  g.pci_bus_id = j.at("pci_bus_id").get<std::string>();
  g.driver_version = j.at("driver_version").get<std::string>();
  g.runtime_version = j.at("runtime_version").get<std::string>();
  return g;
}

Precision precision_from(const Json& j) {
  const auto precision = find_precision(j.get<std::string>());
  if (!precision) throw std::invalid_argument("unknown precision " + j.dump());
  return *precision;
}

Measurement measurement_from(const Json& j) {
  Measurement m;
  m.created = j.at("created").get<std::string>();
  year_of(m.created);  // checked here, where a bad one is the file's fault
  m.host = j.at("host").get<std::string>();
  m.machine = machine_from(j.at("machine"));
  // Measurements written before GPUs were measured have no "device_kind": they are of the CPU.
  const std::string kind = j.value("device_kind", "cpu");
  if (kind == "gpu") {
    m.gpu = gpu_from(j.at("gpu"));
  } else if (kind != "cpu") {
    throw std::invalid_argument("device_kind \"" + kind + "\" is neither \"cpu\" nor \"gpu\"");
  }
  m.threads = count(j, "threads");
  m.quick = j.at("quick").get<bool>();
  m.clock_hz = j.at("clock_hz").get<double>();
  m.vector_clock_hz = j.at("vector_clock_hz").get<double>();
  for (const Json& p : j.at("peaks")) {
    m.peaks.push_back({precision_from(p.at("precision")), p.at("kernel").get<std::string>(),
                       summary_from(p.at("flops_per_s")),
                       p.at("samples_s").get<std::vector<double>>(),
                       p.at("flops_per_call").get<double>(),
                       p.at("theoretical_flops_per_s").get<double>(), p.value("validated", true)});
  }
  for (const Json& b : j.at("bandwidth")) {
    m.bandwidth.push_back(
        {b.at("kernel").get<std::string>(), b.at("working_set_bytes").get<double>(),
         b.at("level").get<std::string>(), summary_from(b.at("bytes_per_s_summary")),
         b.at("write_allocate_factor").get<double>(), b.at("validated").get<bool>(),
         b.at("samples_s").get<std::vector<double>>()});
  }
  for (const Json& b : j.at("blas")) {
    m.blas.push_back({b.at("weights").get<std::string>(), count(b, "n"), count(b, "batch"),
                      b.contains("precision") ? precision_from(b["precision"]) : Precision::fp32,
                      summary_from(b.at("flops_per_s_summary")),
                      b.at("samples_s").get<std::vector<double>>()});
  }
  check_blas_sweep(m.blas);
  // Measurements made before the shape sweep have none.
  for (const Json& g : j.value("gemm_sweep", Json::array())) {
    try {
      m.gemm_sweep.push_back({count(g, "m"), count(g, "n"), count(g, "k"), count(g, "groups"),
                              precision_from(g.at("precision")), g.at("library").get<std::string>(),
                              summary_from(g.at("flops_per_s_summary")),
                              g.at("samples_s").get<std::vector<double>>()});
    } catch (const std::exception& e) {
      throw std::invalid_argument(
          fmt::format("gemm_sweep[{}]: {}", m.gemm_sweep.size(), json_input_detail::reason(e)));
    }
  }
  check_gemm_sweep(m.gemm_sweep);
  m.warnings = j.at("warnings").get<std::vector<std::string>>();
  return m;
}

// A measured figure's provenance: the run it comes from, and its spread.
Figure measured(double value, const Measurement& m, const std::string& origin,
                const std::string& note) {
  return {value, Provenance::measured,
          fmt::format("ridge measure on {} ({}), {}", m.host, m.created, origin), note};
}

std::string spread(const Summary& s) {
  return fmt::format("median of samples; min {:.4g}, max {:.4g}, cv {:.1f}%", s.min, s.max,
                     s.cv * 100);
}

}  // namespace

std::string measurement_to_json(const Measurement& m) {
  Json root;
  root["schema"] = kSchema;
  root["created"] = m.created;
  root["host"] = m.host;
  root["device_kind"] = m.gpu ? "gpu" : "cpu";
  if (m.gpu) root["gpu"] = gpu_json(*m.gpu);
  root["machine"] = machine_json(m.machine);
  root["threads"] = m.threads;
  root["quick"] = m.quick;
  root["clock_hz"] = m.clock_hz;
  root["vector_clock_hz"] = m.vector_clock_hz;
  Json peak_flops = Json::object();
  Json peaks = Json::array();
  for (const PeakResult& p : m.peaks) {
    // Two kernels may measure one precision (fp64 FMA and DGEMM): the ceiling is the faster.
    Json& ceiling = peak_flops[std::string(to_string(p.precision))];
    ceiling = std::max(ceiling.is_number() ? ceiling.get<double>() : 0.0, p.flops_per_s.median);
    peaks.push_back({{"precision", std::string(to_string(p.precision))},
                     {"kernel", p.kernel},
                     {"flops_per_s", summary_json(p.flops_per_s)},
                     {"flops_per_call", p.flops_per_call},
                     {"theoretical_flops_per_s", p.theoretical_flops_per_s},
                     {"validated", p.validated},
                     {"samples_s", p.samples_s}});
  }
  root["peak_flops"] = peak_flops;
  root["peaks"] = peaks;
  Json bandwidth = Json::array();
  for (const BandwidthPoint& b : m.bandwidth) {
    bandwidth.push_back(
        {{"kernel", b.kernel},
         {"working_set_bytes", b.working_set_bytes},
         {"level", b.level},
         {"bytes_per_s", b.bytes_per_s.median},
         {"bytes_per_s_with_write_allocate", b.bytes_per_s.median * b.write_allocate_factor},
         {"bytes_per_s_summary", summary_json(b.bytes_per_s)},
         {"write_allocate_factor", b.write_allocate_factor},
         {"validated", b.validated},
         {"samples_s", b.samples_s}});
  }
  root["bandwidth"] = bandwidth;
  Json blas = Json::array();
  for (const BlasPoint& b : m.blas) {
    blas.push_back({{"weights", b.weights},
                    {"n", b.n},
                    {"batch", b.batch},
                    {"precision", std::string(to_string(b.precision))},
                    {"op", blas_op_name(b)},
                    {"flops_per_s", b.flops_per_s.median},
                    {"flops_per_s_summary", summary_json(b.flops_per_s)},
                    {"samples_s", b.samples_s}});
  }
  root["blas"] = blas;
  Json gemm_sweep = Json::array();
  for (const GemmSweepPoint& g : m.gemm_sweep) {
    gemm_sweep.push_back({{"m", g.m},
                          {"n", g.n},
                          {"k", g.k},
                          {"groups", g.groups},
                          {"precision", std::string(to_string(g.precision))},
                          {"library", g.library},
                          {"flops_per_s", g.flops_per_s.median},
                          {"flops_per_s_summary", summary_json(g.flops_per_s)},
                          {"samples_s", g.samples_s}});
  }
  root["gemm_sweep"] = gemm_sweep;
  root["warnings"] = m.warnings;
  return root.dump(2) + '\n';
}

Measurement parse_measurement(std::string_view json_text, const std::string& origin) {
  const Json root = parse_json_input<Json>(json_text, origin);
  if (!root.is_object() || !root.contains("schema")) {
    input_error("{}: not a ridge measurement (no \"schema\" field)", origin);
  }
  if (root["schema"] != kSchema) {
    input_error("{}: schema {} is not {}", origin, root["schema"].dump(), kSchema);
  }
  try {
    return measurement_from(root);
  } catch (const std::exception& e) {
    input_error("{}: malformed measurement ({})", origin, json_input_detail::reason(e));
  }
}

namespace {

void add_measured_peaks(Device& d, const Measurement& m, const std::string& origin) {
  for (const PeakResult& p : m.peaks) {
    const auto known = d.peak_flops_per_s.find(p.precision);
    if (known != d.peak_flops_per_s.end() && known->second.value >= p.flops_per_s.median) continue;
    d.peak_flops_per_s[p.precision] =
        measured(p.flops_per_s.median, m, origin, p.kernel + "; " + spread(p.flops_per_s));
  }
  if (d.peak_flops_per_s.empty()) input_error("{}: the measurement has no peaks", origin);
}

Figure main_memory_bandwidth(const Measurement& m, const std::string& level,
                             const std::string& origin) {
  double bandwidth = m.level_bandwidth(level);
  if (bandwidth <= 0)
    bandwidth = m.level_bandwidth(m.bandwidth.empty() ? "" : m.bandwidth.back().level);
  if (bandwidth <= 0) input_error("{}: the measurement has no bandwidth points", origin);
  return measured(bandwidth, m, origin, "best kernel median beyond the last-level cache");
}

void add_cpu_memory(Device& d, const Measurement& m, const std::string& origin) {
  for (const CacheLevel& c : m.machine.caches) {
    MemoryLevel level{
        c.name, MemoryKind::cache, c.shared_by_cores == 1 ? Scope::unit : Scope::device, {}, {},
        {}};
    level.capacity_bytes = measured(static_cast<double>(c.bytes), m, origin, "from hwloc");
    const std::string label = c.name == "L1d" ? "L1" : c.name;
    if (const double bw = m.level_bandwidth(label); bw > 0) {
      level.bandwidth_bytes_per_s = measured(bw, m, origin, "best kernel median at this level");
    }
    d.memory.push_back(std::move(level));
  }
  MemoryLevel dram{"DRAM", MemoryKind::main, Scope::device, {}, {}, {}};
  dram.capacity_bytes =
      measured(static_cast<double>(m.machine.memory_bytes), m, origin, "physical memory");
  dram.bandwidth_bytes_per_s = main_memory_bandwidth(m, "DRAM", origin);
  d.memory.push_back(std::move(dram));
}

// Shared memory, L2 and device memory, each with the bandwidth its sweep reached; the host link
// with the better direction of the pinned copies.
void add_gpu_memory(Device& d, const Measurement& m, const GpuInfo& g, const std::string& origin) {
  const std::string reported = "reported by the CUDA runtime";
  MemoryLevel shared{"shared memory", MemoryKind::shared, Scope::unit, {}, {}, {}};
  shared.capacity_bytes =
      measured(static_cast<double>(g.shared_memory_per_sm_bytes), m, origin, reported);
  if (const double bw = m.level_bandwidth("shared"); bw > 0)
    shared.bandwidth_bytes_per_s = measured(bw, m, origin, "all SMs together");
  d.memory.push_back(std::move(shared));
  MemoryLevel l2{"L2 cache", MemoryKind::cache, Scope::device, {}, {}, {}};
  l2.capacity_bytes = measured(static_cast<double>(g.l2_bytes), m, origin, reported);
  if (const double bw = m.level_bandwidth("L2"); bw > 0)
    l2.bandwidth_bytes_per_s = measured(bw, m, origin, "best read median within half the L2");
  d.memory.push_back(std::move(l2));
  const std::string main_name = g.main_memory_name();
  MemoryLevel main{main_name, MemoryKind::main, Scope::device, {}, {}, {}};
  main.capacity_bytes = measured(static_cast<double>(g.memory_bytes), m, origin, reported);
  main.bandwidth_bytes_per_s = main_memory_bandwidth(m, main_name, origin);
  d.memory.push_back(std::move(main));
  if (const double link = m.level_bandwidth("host link"); link > 0) {
    d.links.push_back({LinkKind::host, "host link (pinned copies)",
                       measured(link, m, origin, "the faster direction, one way"), std::nullopt,
                       std::nullopt});
  }
}

}  // namespace

Measurement load_measurement_file(const std::string& path) {
  const std::optional<std::string> text = read_text_file(path);
  if (!text) input_error("cannot read measurement file '{}'", path);
  return parse_measurement(*text, path);
}

Device device_from_measurement(const Measurement& m, const std::string& id,
                               const std::string& origin) {
  Device d;
  d.id = id;
  d.year = year_of(m.created);
  d.origin = origin;
  add_measured_peaks(d, m, origin);
  if (m.gpu) {
    d.name = fmt::format("{} (GPU {}, measured)", m.gpu->name, m.gpu->index);
    d.vendor = "NVIDIA";
    d.runtime_names = {m.gpu->name};
    d.unit_name = "SM";
    d.compute_units = measured(m.gpu->sm_count, m, origin, "reported by the CUDA runtime");
    add_gpu_memory(d, m, *m.gpu, origin);
  } else {
    d.name = fmt::format("{} ({} threads, measured)", m.machine.cpu, m.threads);
    d.vendor = "measured";
    d.kind = DeviceKind::cpu;
    d.unit_name = "core";
    d.compute_units = measured(m.threads, m, origin, "threads the measurement ran on");
    add_cpu_memory(d, m, origin);
  }
  for (const BlasPoint& b : m.blas) d.measured_gemms.push_back(measured_gemm(b));
  for (const GemmSweepPoint& g : m.gemm_sweep) d.measured_gemms.push_back(measured_gemm(g));
  check_plausible_figures(d, origin);
  return d;
}

}  // namespace ridge
