#pragma once
// Owning handles for device and pinned host memory, and CUDA events, so that an error thrown
// mid-measurement frees what was taken.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

#include "cuda_check.h"

namespace ridge::gpu {

template <typename T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t count) : count_(count) {
    void* p = nullptr;
    RIDGE_CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
    data_.reset(static_cast<T*>(p));
  }
  T* get() const { return data_.get(); }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  struct Free {
    void operator()(T* p) const { cudaFree(p); }
  };
  std::unique_ptr<T, Free> data_;
  std::size_t count_;
};

// Page-locked host memory: the only kind the copy engines move at full speed.
template <typename T>
class PinnedArray {
 public:
  explicit PinnedArray(std::size_t count) : count_(count) {
    void* p = nullptr;
    RIDGE_CUDA_CHECK(cudaMallocHost(&p, count * sizeof(T)));
    data_.reset(static_cast<T*>(p));
  }
  T* get() const { return data_.get(); }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  struct Free {
    void operator()(T* p) const { cudaFreeHost(p); }
  };
  std::unique_ptr<T, Free> data_;
  std::size_t count_;
};

class Event {
 public:
  Event() { RIDGE_CUDA_CHECK(cudaEventCreate(&event_)); }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_{};
};

}  // namespace ridge::gpu
