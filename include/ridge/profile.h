#pragma once
// The user's own kernels on the roofline: a profiler's record read (PyTorch profiler / Kineto
// Chrome traces, plain or gzip, and Nsight Compute CSV, long or --page raw), every launch with
// its time and, where the file says or its shapes let ridge count them, its FLOPs and bytes;
// then the launches grouped and placed on a device's roofline.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ridge/catalog.h"
#include "ridge/device.h"
#include "ridge/op.h"
#include "ridge/precision.h"

namespace ridge {

// Launches of one kernel (or, in a CPU-only trace, one operator's self time) by one op with the
// same figures: `count` of them, their times and figures added.
struct Launch {
  std::string name;  // as the file has it (mangled names demangled)
  std::string op;    // the framework op that launched it ("aten::mm"), where known
  int count = 1;
  double time_s = 0;
  std::optional<double> flops;
  std::optional<double> bytes;     // main-memory (DRAM) bytes
  std::optional<double> l2_bytes;  // Nsight Compute: L2 and L1 traffic
  std::optional<double> l1_bytes;
  std::optional<double> tensor_instructions;  // Nsight Compute, tensor pipe (warp level)
  std::string flops_source;  // "shapes of aten::mm", "the profiler's flops", "CUPTI counters"...
  std::optional<Precision> precision;  // of the FLOPs, where the counters or types say
  std::optional<GemmShape> gemm_shape;
  bool memory_operation = false;  // memcpy or memset
};

struct Profile {
  std::string file;
  std::string format;       // "Kineto trace", "legacy profiler trace", "Nsight Compute CSV"...
  std::string device_name;  // the runtime's name (deviceProperties), where the file has one
  bool host = false;        // CPU operators only: placed on the host
  std::vector<Launch> launches;
};

// Reads one file, recognised by its content (gzip, JSON trace, CSV). Bad input names the file:
// not a trace, a truncated gzip, no kernel or CPU events, an ncu CSV with no duration.
Profile read_profile(const std::string& path);

enum class ProfileGrouping { kernel, family, op };

struct ProfiledKernel {
  std::string name;  // shortened: "gemm_v1<float>", "ncclDevKernel_AllReduce_Sum_f32_RING_LL"
  std::string full_name;
  std::string family;  // gemm, attention, element-wise, reduction, communication, memcpy, other
  int count = 0;
  double time_s = 0;
  double share_of_time = 0;
  std::optional<double> flops;  // none: unknown, never invented
  std::optional<double> bytes;
  std::optional<double> l2_bytes;
  std::optional<double> l1_bytes;
  std::optional<double> tensor_instructions;
  std::string flops_source;
  Precision precision = Precision::fp32;
  std::optional<double> intensity;
  std::optional<double> attained_flops_per_s;
  std::optional<double> attained_bytes_per_s;
  std::optional<double> roof_flops_per_s;  // the roof at that intensity
  std::optional<double> share_of_roof;
  std::string bound;                      // "memory", "compute" or "unknown"
  std::optional<double> bound_time_s;     // the roofline time of the work
  std::optional<double> recoverable_s;    // time - bound: what reaching the roof would save
  std::optional<double> expected_time_s;  // where the shape is known and a calibration applies
};

struct FamilyTotal {
  std::string family;
  int count = 0;
  double time_s = 0;
  double share_of_time = 0;
};

struct ProfileAnalysis {
  std::vector<std::string> files;
  std::string device_id;
  std::string device_basis;  // how the device was chosen
  ProfileGrouping grouping = ProfileGrouping::kernel;
  double total_time_s = 0;
  int launches = 0;
  std::vector<ProfiledKernel> kernels;  // by time, longest first
  std::vector<FamilyTotal> families;
  std::vector<ProfiledKernel> top_recoverable;  // by recoverable time
};

// The catalog device whose runtime name the profiles carry; nullptr when none does.
const Device* profile_device(const std::vector<Profile>& profiles, const Catalog& catalog);

ProfileAnalysis analyse_profiles(const std::vector<Profile>& profiles, const Device& device,
                                 std::string device_basis, ProfileGrouping grouping,
                                 std::size_t top);

// Kernel names: demangled, shortened for a table, and their family.
std::string demangled(const std::string& name);
std::string kernel_stem(const std::string& name);
std::string short_kernel_name(const std::string& name);
std::string kernel_family(const std::string& name, bool memory_operation);

}  // namespace ridge
