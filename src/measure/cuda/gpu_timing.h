#pragma once
// Timing device work: CUDA events around each sample, so that only the GPU's time counts and the
// host's enqueueing overlaps it.

#include <cuda_runtime_api.h>

#include <functional>

#include "ridge/measure.h"

namespace ridge::gpu {

// Warm-ups, then samples timed by events recorded on the default stream, where every backend
// kernel and cuBLAS call runs.
Timing time_device_calls(const std::function<void()>& enqueue, const TimingOptions& options);

TimingOptions gpu_timing_for(bool quick);

}  // namespace ridge::gpu
