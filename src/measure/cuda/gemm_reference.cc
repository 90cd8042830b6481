#include "gemm_reference.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "cuda_check.h"
#include "random_values.h"

namespace ridge::gpu {

namespace {

// The value the device stored for element `index`: fill_random's value, rounded as it was.
double stored_input(Precision p, std::uint64_t index, std::uint32_t seed) {
  const float u = uniform_value(index, seed);
  switch (p) {
    case Precision::fp16:
      return __half2float(__float2half(u));
    case Precision::bf16:
      return __bfloat162float(__float2bfloat16(u));
    case Precision::fp8:
      return static_cast<float>(__nv_fp8_e4m3(u));
    default:
      return u;  // fp64, fp32, and tf32 (stored as fp32; the tensor cores round it)
  }
}

double element_bytes(Precision output) {
  return output == Precision::fp64 ? 8 : output == Precision::fp32 ? 4 : 2;
}

double decode_output(Precision output, const unsigned char* bytes) {
  if (output == Precision::fp64) {
    double v;
    std::memcpy(&v, bytes, sizeof v);
    return v;
  }
  if (output == Precision::fp32) {
    float v;
    std::memcpy(&v, bytes, sizeof v);
    return v;
  }
  if (output == Precision::fp16) {
    __half v;
    std::memcpy(&v, bytes, sizeof v);
    return __half2float(v);
  }
  __nv_bfloat16 v;
  std::memcpy(&v, bytes, sizeof v);
  return __bfloat162float(v);
}

// D's elements on the host: copied whole when small, one by one when only a sample is needed.
class OutputReader {
 public:
  OutputReader(Precision output, const void* device_d, std::uint64_t elements, bool whole)
      : output_(output), size_(static_cast<std::size_t>(element_bytes(output))), d_(device_d) {
    if (!whole) return;
    host_.resize(elements * size_);
    RIDGE_CUDA_CHECK(cudaMemcpy(host_.data(), d_, host_.size(), cudaMemcpyDeviceToHost));
  }
  double operator[](std::uint64_t index) const {
    if (!host_.empty()) return decode_output(output_, host_.data() + index * size_);
    unsigned char bytes[8] = {};
    RIDGE_CUDA_CHECK(cudaMemcpy(bytes, static_cast<const char*>(d_) + index * size_, size_,
                                cudaMemcpyDeviceToHost));
    return decode_output(output_, bytes);
  }

 private:
  Precision output_;
  std::size_t size_;
  const void* d_;
  std::vector<unsigned char> host_;
};

double reference(const TnProduct& p, int row, int col) {
  double sum = 0;
  const auto a0 = static_cast<std::uint64_t>(row) * p.k;
  const auto b0 = static_cast<std::uint64_t>(col) * p.k;
  for (int kk = 0; kk < p.k; ++kk) {
    sum += stored_input(p.input, a0 + kk, p.seed_a) * stored_input(p.input, b0 + kk, p.seed_b);
  }
  return sum;
}

}  // namespace

double tn_relative_error(const TnProduct& p, const void* device_d, int samples) {
  const std::uint64_t elements = static_cast<std::uint64_t>(p.m) * p.n;
  const bool all = static_cast<std::uint64_t>(samples) >= elements;
  const std::uint64_t count = all ? elements : static_cast<std::uint64_t>(samples);
  const OutputReader d(p.output, device_d, elements, all);
  double error = 0, norm = 0;
  for (std::uint64_t s = 0; s < count; ++s) {
    // A stride coprime with most sizes spreads the sample over rows and columns.
    const std::uint64_t index = all ? s : (s * 2654435761ull + 12345) % elements;
    const int row = static_cast<int>(index % p.m), col = static_cast<int>(index / p.m);
    const double want = reference(p, row, col);
    const double got = d[index];
    error += (got - want) * (got - want);
    norm += want * want;
  }
  return norm > 0 ? std::sqrt(error / norm) : INFINITY;
}

}  // namespace ridge::gpu
