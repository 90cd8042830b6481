#pragma once
// CUDA and cuBLAS calls are checked one by one: a failure mid-measurement is a fault of the
// device or the driver, not of the user's input, and ends the run as an internal error naming
// the call.

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace ridge::gpu {

inline void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(call) + ": " + cudaGetErrorString(status));
  }
}

inline void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) + ": " + cublasGetStatusString(status));
  }
}

// After a kernel launch: the launch itself can fail (bad configuration, no image for this GPU).
inline void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

}  // namespace ridge::gpu

#define RIDGE_CUDA_CHECK(call) ::ridge::gpu::check((call), #call)
