// The CPU backend plugin's entry point: the suite's functions, as the library calls them.
#include "measure/backend_abi.h"

extern "C" __attribute__((visibility("default"))) const void* ridge_backend_cpu() {
  static const ridge::backend::CpuTable table{
      ridge::backend::kAbiVersion, ridge::describe_machine,       ridge::measure_host,
      ridge::measure_blas,         ridge::measure_read_bandwidth, ridge::measure_fp32_peak};
  return &table;
}
