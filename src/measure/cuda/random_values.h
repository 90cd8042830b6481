#pragma once
// Reproducible pseudo-random values, the same on the host and the device: the GPU fills its
// operands with them, and the host recomputes any element to check a result. Never zeros: a
// matrix unit runs faster on zeros than on real data, and zeros hide unwritten outputs.

#include <cstdint>

#ifdef __CUDACC__
#define RIDGE_HOST_DEVICE __host__ __device__
#else
#define RIDGE_HOST_DEVICE
#endif

namespace ridge::gpu {

// Uniform in [-1, 1), from SplitMix64 of the element index and a seed.
RIDGE_HOST_DEVICE inline float uniform_value(std::uint64_t index, std::uint32_t seed) {
  std::uint64_t z = index + (static_cast<std::uint64_t>(seed) << 40) + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  const auto top24 = static_cast<std::uint32_t>(z >> 40);
  return static_cast<float>(top24) * (2.0f / 16777216.0f) - 1.0f;
}

}  // namespace ridge::gpu
