#pragma once
// The host's check of a GPU matrix product. Both products the suite times are "TN": D = A^T B
// with A stored k x m and B k x n, column-major, so that every output is the dot product of two
// contiguous columns; operands come from fill_random, so the host recomputes any of them.

#include <cstdint>

#include "ridge/precision.h"

namespace ridge::gpu {

struct TnProduct {
  Precision input = Precision::bf16;   // how A and B are stored
  Precision output = Precision::bf16;  // how D is stored: fp64, fp32, fp16 or bf16
  std::uint32_t seed_a = 1, seed_b = 2;
  int m = 0, n = 0, k = 0;
};

// ||D - reference|| / ||reference|| over every element of D when `samples` >= m x n, else over
// `samples` elements spread over D. D is on the device.
double tn_relative_error(const TnProduct& product, const void* device_d, int samples);

}  // namespace ridge::gpu
