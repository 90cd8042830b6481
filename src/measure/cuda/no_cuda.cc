// The CUDA backend's interface in a build without the CUDA toolkit.
#include "cuda_measure.h"
#include "ridge/error.h"

namespace ridge::gpu {

namespace {

[[noreturn]] void missing_backend() {
  input_error(
      "--backend cuda: this ridge was built without the CUDA backend (CMake found no CUDA "
      "toolkit; see docs/measure.md)");
}

}  // namespace

bool cuda_backend_built() { return false; }

int cuda_device_count() { missing_backend(); }

Measurement measure_gpu(const GpuMeasureOptions&, const Progress&) { missing_backend(); }

}  // namespace ridge::gpu
