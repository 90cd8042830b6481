#include "gpu_timing.h"

#include <memory>

#include "device_memory.h"

namespace ridge::gpu {

Timing time_device_calls(const std::function<void()>& enqueue, const TimingOptions& options) {
  auto start = std::make_shared<Event>();
  auto stop = std::make_shared<Event>();
  const Stopwatch events{[start] { RIDGE_CUDA_CHECK(cudaEventRecord(start->get())); },
                         [start, stop] {
                           RIDGE_CUDA_CHECK(cudaEventRecord(stop->get()));
                           RIDGE_CUDA_CHECK(cudaEventSynchronize(stop->get()));
                           float ms = 0;
                           RIDGE_CUDA_CHECK(cudaEventElapsedTime(&ms, start->get(), stop->get()));
                           return ms * 1e-3;
                         }};
  return time_calls(enqueue, options, events);
}

TimingOptions gpu_timing_for(bool quick) {
  // Events resolve about half a microsecond; samples of 10 ms keep that far below 0.1%.
  return quick ? TimingOptions{2, 7, 0.005, 0.3} : TimingOptions{3, 15, 0.01, 1.0};
}

}  // namespace ridge::gpu
