#pragma once
// A device: compute peaks per precision, memory levels and links, every figure with provenance.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ridge/op.h"
#include "ridge/precision.h"
#include "ridge/roofline.h"

namespace ridge {

// Where a figure comes from. Every figure ridge prints is one of these.
enum class Provenance {
  spec,      // a published specification; `source` names the document
  estimate,  // a literature estimate (order of magnitude); `source` names it
  measured,  // measured on a real machine; `source` names the measurement
  derived,   // computed from other figures
  fitted,    // fitted to a named set of measurements; `source` names the set and the fit
};

std::string_view to_string(Provenance provenance);
std::optional<Provenance> find_provenance(std::string_view name);

struct Figure {
  double value = 0;
  Provenance provenance = Provenance::spec;
  std::string source;  // the document (or measurement) the value comes from
  std::string note;    // how the value was read from it, when that is not obvious
};

// What a figure measures, and the range a figure of that kind must fall in to be taken: wide
// enough for any machine real or planned, narrow enough that every result stays finite and
// meaningful (a 1e300-byte memory or a 1e-30 B/s link is a typo, not a device).
// fraction: a share of a peak (an efficiency), above 0 and at most 1. exponent: the power of a
// p-norm (how a kernel's parts overlap), at least 1.
enum class FigureKind {
  count,
  flops_per_s,
  bytes,
  bytes_per_s,
  seconds,
  fraction,
  exponent,
  multiple  // of a capacity: how far a working set reaches past it, or short of it
};
struct PlausibleRange {
  double min, max;
  const char* text;  // "1 B to 1 EB"
};
PlausibleRange plausible_range(FigureKind kind);
bool is_plausible(double value, FigureKind kind);

// Bad input naming `origin` and the figure when any figure of the device is not finite or not
// plausible: devices not parsed from TOML (measurements) are checked here.
void check_plausible_figures(const struct Device& device, const std::string& origin);

enum class MemoryKind { registers, shared, cache, main };
std::string_view to_string(MemoryKind kind);
std::optional<MemoryKind> find_memory_kind(std::string_view name);

// Whether a capacity is per compute unit (SM, CU) or for the whole device.
enum class Scope { unit, device };
std::string_view to_string(Scope scope);
std::optional<Scope> find_scope(std::string_view name);

struct MemoryLevel {
  std::string name;
  MemoryKind kind = MemoryKind::main;
  Scope scope = Scope::device;
  std::optional<Figure> capacity_bytes;
  std::optional<Figure> bandwidth_bytes_per_s;  // aggregate over the whole device
  std::optional<Figure> latency_s;
};

// scale_up: NVLink / Infinity Fabric inside a node; network: InfiniBand / Ethernet between
// nodes; host: PCIe to the CPU.
enum class LinkKind { scale_up, network, host };
std::string_view to_string(LinkKind kind);
std::optional<LinkKind> find_link_kind(std::string_view name);

struct Link {
  LinkKind kind = LinkKind::host;
  std::string name;
  Figure bandwidth_bytes_per_s;
  std::optional<Figure> latency_s;
  // The GPUs the scale-up switch reduces across in the network (NVLink SHARP: NVSwitch sums
  // what the GPUs send it and sends the sum back out), which NCCL's NVLS all-reduce runs on.
  // Absent: the switch forwards only, or there is none.
  std::optional<Figure> switch_reduction_gpus;
};

// A GEMM timed on the device itself (a measurement's GEMV/GEMM sweep): what the expected time
// interpolates between inside the measured range.
struct MeasuredGemm {
  GemmShape shape;  // m rows of activations (the batch), n outputs, k inputs
  Precision precision = Precision::fp32;
  double seconds = 0;  // median
};

// What sort of chip: `ridge devices --kind` filters on it, and a CPU's GEMMs are priced as BLAS
// calls rather than GPU tiles. accelerator: a matrix engine that is neither a GPU nor a TPU
// (Gaudi, Trainium).
enum class DeviceKind { gpu, tpu, accelerator, cpu };
std::string_view to_string(DeviceKind kind);
std::optional<DeviceKind> find_device_kind(std::string_view name);
std::vector<std::string> device_kind_names();  // "gpu", "tpu", "accelerator", "cpu"

struct Device {
  std::string id;
  std::string name;
  std::string vendor;
  int year = 0;
  DeviceKind kind = DeviceKind::gpu;
  std::string unit_name = "SM";  // what one compute unit is called
  // The names the vendor's runtime reports for the part (CUDA's cudaDeviceProp::name, which
  // nvidia-smi shows), so that a measurement can find its spec sheet.
  std::vector<std::string> runtime_names;
  std::optional<Figure> compute_units;
  std::map<Precision, Figure> peak_flops_per_s;  // dense (no 2:4 sparsity)
  std::vector<MemoryLevel> memory;               // fastest first; exactly one of kind main
  std::vector<Link> links;
  std::string origin;                        // "built-in" or the file it was loaded from
  std::vector<MeasuredGemm> measured_gemms;  // empty but for measured devices

  bool has_peak(Precision precision) const;
  // The precision a one-line summary quotes (the catalog's peak and ridge columns): fp16, else
  // bf16, else the device's first.
  Precision headline_precision() const;
  // A CPU: its GEMMs are BLAS calls, not GPU tiles.
  bool is_cpu() const { return kind == DeviceKind::cpu; }
  // Bad input when the device has no peak at this precision.
  const Figure& peak(Precision precision) const;
  const MemoryLevel& main_memory() const;
  double main_bandwidth_bytes_per_s() const;
  // The largest cache the whole device shares (a GPU's L2) whose capacity the catalog gives;
  // none where it lists none.
  const MemoryLevel* shared_cache() const;
  Ceiling ceiling(Precision precision) const;
  const Link* find_link(LinkKind link_kind) const;
  // Bad input when the device has no such link.
  const Link& link(LinkKind link_kind) const;
  // Bad input when the catalog has no compute-unit count for the device.
  int compute_unit_count() const;
  // The count where the catalog gives one, else 1: what a schedule of blocks over the units
  // takes for a part whose count is unknown.
  int compute_units_or_one() const;
};

}  // namespace ridge
