#pragma once
// The CUDA backend of `ridge measure`: what an NVIDIA GPU really delivers, in the measurement
// schema the CPU side writes. A plugin (lib/ridge/libridge-cuda.so, built when CMake finds the
// CUDA toolkit) loaded on first use (backend.h); where it is missing or does not load, these say
// so as bad input.

#include "ridge/measure.h"

namespace ridge::gpu {

struct GpuMeasureOptions {
  bool quick = false;
  int gpu = 0;  // the CUDA device index
};

// Whether this build has the CUDA backend.
bool cuda_backend_built();

// The CUDA devices present, or bad input naming why there are none (no backend, no driver, no
// device).
int cuda_device_count();

// The whole GPU suite on one device. Bad input when there is no such device.
Measurement measure_gpu(const GpuMeasureOptions& options, const Progress& progress = {});

}  // namespace ridge::gpu
