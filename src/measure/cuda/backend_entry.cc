// The CUDA backend plugin's entry point.
#include "measure/backend_abi.h"

extern "C" __attribute__((visibility("default"))) const void* ridge_backend_cuda() {
  static const ridge::backend::CudaTable table{
      ridge::backend::kAbiVersion, ridge::gpu::cuda_device_count, ridge::gpu::measure_gpu};
  return &table;
}
