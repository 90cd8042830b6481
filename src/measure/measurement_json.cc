// The measurement file: ridge.measurement/1 JSON, and the measured machine as a device.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "ridge/error.h"
#include "ridge/measurement.h"

namespace ridge {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kSchema = "ridge.measurement/1";

Json summary_json(const Summary& s) {
  return {{"min", s.min}, {"median", s.median}, {"max", s.max}, {"mean", s.mean}, {"cv", s.cv}};
}

Summary summary_from(const Json& j) {
  return {j.at("min").get<double>(), j.at("median").get<double>(), j.at("max").get<double>(),
          j.at("mean").get<double>(), j.at("cv").get<double>()};
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
  m.cores = j.at("cores").get<int>();
  m.hardware_threads = j.at("hardware_threads").get<int>();
  const std::string isa = j.at("isa").get<std::string>();
  m.isa = isa == "avx512" ? Isa::avx512 : isa == "avx2" ? Isa::avx2 : Isa::scalar;
  m.has_avx512_bf16 = j.at("avx512_bf16").get<bool>();
  m.under_hypervisor = j.at("under_hypervisor").get<bool>();
  for (const Json& c : j.at("caches")) {
    m.caches.push_back({c.at("name").get<std::string>(), c.at("bytes").get<std::uint64_t>(),
                        c.at("shared_by_cores").get<int>()});
  }
  m.memory_bytes = j.at("memory_bytes").get<std::uint64_t>();
  m.frequency_governor = j.at("frequency_governor").get<std::string>();
  return m;
}

Measurement measurement_from(const Json& j) {
  Measurement m;
  m.created = j.at("created").get<std::string>();
  m.host = j.at("host").get<std::string>();
  m.machine = machine_from(j.at("machine"));
  m.threads = j.at("threads").get<int>();
  m.quick = j.at("quick").get<bool>();
  m.clock_hz = j.at("clock_hz").get<double>();
  m.vector_clock_hz = j.at("vector_clock_hz").get<double>();
  for (const Json& p : j.at("peaks")) {
    const auto precision = find_precision(p.at("precision").get<std::string>());
    if (!precision) throw std::invalid_argument("unknown precision " + p.at("precision").dump());
    m.peaks.push_back(
        {*precision, p.at("kernel").get<std::string>(), summary_from(p.at("flops_per_s")),
         p.at("samples_s").get<std::vector<double>>(), p.at("flops_per_call").get<double>(),
         p.at("theoretical_flops_per_s").get<double>()});
  }
  for (const Json& b : j.at("bandwidth")) {
    m.bandwidth.push_back(
        {b.at("kernel").get<std::string>(), b.at("working_set_bytes").get<double>(),
         b.at("level").get<std::string>(), summary_from(b.at("bytes_per_s_summary")),
         b.at("write_allocate_factor").get<double>(), b.at("validated").get<bool>(),
         b.at("samples_s").get<std::vector<double>>()});
  }
  for (const Json& b : j.at("blas")) {
    m.blas.push_back({b.at("weights").get<std::string>(), b.at("n").get<int>(),
                      b.at("batch").get<int>(), summary_from(b.at("flops_per_s_summary")),
                      b.at("samples_s").get<std::vector<double>>()});
  }
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
  root["machine"] = machine_json(m.machine);
  root["threads"] = m.threads;
  root["quick"] = m.quick;
  root["clock_hz"] = m.clock_hz;
  root["vector_clock_hz"] = m.vector_clock_hz;
  Json peak_flops = Json::object();
  Json peaks = Json::array();
  for (const PeakResult& p : m.peaks) {
    peak_flops[std::string(to_string(p.precision))] = p.flops_per_s.median;
    peaks.push_back({{"precision", std::string(to_string(p.precision))},
                     {"kernel", p.kernel},
                     {"flops_per_s", summary_json(p.flops_per_s)},
                     {"flops_per_call", p.flops_per_call},
                     {"theoretical_flops_per_s", p.theoretical_flops_per_s},
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
                    {"op", b.batch == 1 ? "sgemv" : "sgemm"},
                    {"flops_per_s", b.flops_per_s.median},
                    {"flops_per_s_summary", summary_json(b.flops_per_s)},
                    {"samples_s", b.samples_s}});
  }
  root["blas"] = blas;
  root["warnings"] = m.warnings;
  return root.dump(2) + '\n';
}

Measurement parse_measurement(std::string_view json_text, const std::string& origin) {
  Json root;
  try {
    root = Json::parse(json_text);
  } catch (const Json::parse_error& e) {
    input_error("{}: not valid JSON (byte {})", origin, e.byte);
  }
  if (!root.is_object() || !root.contains("schema")) {
    input_error("{}: not a ridge measurement (no \"schema\" field)", origin);
  }
  if (root["schema"] != kSchema) {
    input_error("{}: schema {} is not {}", origin, root["schema"].dump(), kSchema);
  }
  try {
    return measurement_from(root);
  } catch (const std::exception& e) {
    input_error("{}: malformed measurement ({})", origin, e.what());
  }
}

Device device_from_measurement(const Measurement& m, const std::string& id,
                               const std::string& origin) {
  Device d;
  d.id = id;
  d.name = fmt::format("{} ({} threads, measured)", m.machine.cpu, m.threads);
  d.vendor = "measured";
  d.year = std::stoi(m.created.substr(0, 4));
  d.unit_name = "core";
  d.origin = origin;
  d.compute_units = measured(m.threads, m, origin, "threads the measurement ran on");
  for (const PeakResult& p : m.peaks) {
    d.peak_flops_per_s[p.precision] =
        measured(p.flops_per_s.median, m, origin, p.kernel + "; " + spread(p.flops_per_s));
  }
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
  double bandwidth = m.level_bandwidth("DRAM");
  if (bandwidth <= 0)
    bandwidth = m.level_bandwidth(m.bandwidth.empty() ? "" : m.bandwidth.back().level);
  if (bandwidth <= 0) input_error("{}: the measurement has no bandwidth points", origin);
  dram.bandwidth_bytes_per_s =
      measured(bandwidth, m, origin, "best kernel median beyond the last-level cache");
  d.memory.push_back(std::move(dram));
  if (d.peak_flops_per_s.empty()) input_error("{}: the measurement has no peaks", origin);
  return d;
}

}  // namespace ridge
