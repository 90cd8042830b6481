// Which CUDA devices there are, and what the runtime says about the one measured.
#include <fmt/format.h>

#include "cuda_check.h"
#include "gpu_parts.h"
#include "ridge/cuda_measure.h"
#include "ridge/error.h"

namespace ridge::gpu {

namespace {

std::string cuda_version(int encoded) {
  return fmt::format("{}.{}", encoded / 1000, (encoded % 1000) / 10);
}

int attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  RIDGE_CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, device));
  return value;
}

}  // namespace

int cuda_device_count() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaErrorNoDevice || (status == cudaSuccess && count == 0)) {
    input_error("--backend cuda: no CUDA device is present");
  }
  if (status == cudaErrorInsufficientDriver) {
    // The runtime reports a missing driver library the same way as an old one.
    input_error(
        "--backend cuda: no CUDA device is present (no NVIDIA driver, or one older than CUDA {})",
        cuda_version(CUDART_VERSION));
  }
  if (status != cudaSuccess) {
    input_error("--backend cuda: no CUDA device is present ({})", cudaGetErrorString(status));
  }
  return count;
}

GpuInfo select_gpu(int index) {
  const int count = cuda_device_count();
  if (index < 0 || index >= count) {
    input_error("--gpu {}: this machine has {} CUDA device{} (0 to {})", index, count,
                count == 1 ? "" : "s", count - 1);
  }
  RIDGE_CUDA_CHECK(cudaSetDevice(index));
  cudaDeviceProp prop{};
  RIDGE_CUDA_CHECK(cudaGetDeviceProperties(&prop, index));
  GpuInfo g;
  g.name = prop.name;
  g.index = index;
  g.compute_capability_major = prop.major;
  g.compute_capability_minor = prop.minor;
  g.sm_count = prop.multiProcessorCount;
  g.sm_clock_hz = attribute(cudaDevAttrClockRate, index) * 1e3;
  g.memory_clock_hz = attribute(cudaDevAttrMemoryClockRate, index) * 1e3;
  g.memory_bus_bits = prop.memoryBusWidth;
  g.memory_bytes = prop.totalGlobalMem;
  g.l2_bytes = static_cast<std::uint64_t>(prop.l2CacheSize);
  g.shared_memory_per_sm_bytes = prop.sharedMemPerMultiprocessor;
  char bus_id[32] = {};
  RIDGE_CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, index));
  g.pci_bus_id = bus_id;
  int driver = 0, runtime = 0;
  RIDGE_CUDA_CHECK(cudaDriverGetVersion(&driver));
  RIDGE_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  g.driver_version = cuda_version(driver);
  g.runtime_version = cuda_version(runtime);
  return g;
}

int resident_blocks(int threads_per_block) {
  int device = 0;
  RIDGE_CUDA_CHECK(cudaGetDevice(&device));
  return attribute(cudaDevAttrMultiProcessorCount, device) *
         (attribute(cudaDevAttrMaxThreadsPerMultiProcessor, device) / threads_per_block);
}

}  // namespace ridge::gpu
