// GEMV against GEMM on the same bf16 weights, the lab on the GPU: cublasGemmEx with 1 to 512
// columns. One column is decode at batch 1, and cuBLAS treats it as a matrix-vector product.
#include <cublas_v2.h>
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "device_memory.h"
#include "gemm_reference.h"
#include "gpu_parts.h"
#include "gpu_timing.h"
#include "kernels.h"

namespace ridge::gpu {

namespace {

constexpr int kCheckedElements = 64;
constexpr double kTolerance = 2e-2;

struct CublasDeleter {
  void operator()(cublasHandle_t h) const { cublasDestroy(h); }
};

// Weights n x n and up to `max_batch` input columns, all bf16, with cuBLAS ready.
class WeightsProduct {
 public:
  WeightsProduct(int n, int max_batch)
      : n_(n),
        w_(static_cast<std::size_t>(n) * n),
        x_(static_cast<std::size_t>(n) * max_batch),
        y_(static_cast<std::size_t>(n) * max_batch) {
    fill_random(w_.get(), Precision::bf16, w_.size(), kSeedW);
    fill_random(x_.get(), Precision::bf16, x_.size(), kSeedX);
    cublasHandle_t h = nullptr;
    RIDGE_CUDA_CHECK(cublasCreate(&h));
    handle_.reset(h);
  }

  // Y = W^T X for the first `batch` columns.
  void run(int batch) {
    const float alpha = 1, beta = 0;
    RIDGE_CUDA_CHECK(cublasGemmEx(handle_.get(), CUBLAS_OP_T, CUBLAS_OP_N, n_, batch, n_, &alpha,
                                  w_.get(), CUDA_R_16BF, n_, x_.get(), CUDA_R_16BF, n_, &beta,
                                  y_.get(), CUDA_R_16BF, n_, CUBLAS_COMPUTE_32F,
                                  CUBLAS_GEMM_DEFAULT));
  }

  double relative_error(int batch, int samples) const {
    const TnProduct product{Precision::bf16, Precision::bf16, kSeedW, kSeedX, n_, batch, n_};
    return tn_relative_error(product, y_.get(), samples);
  }

 private:
  static constexpr std::uint32_t kSeedW = 21, kSeedX = 22;
  // bf16 elements, held as 16-bit words: the kernels only see bytes.
  int n_;
  DeviceArray<std::uint16_t> w_, x_, y_;
  std::unique_ptr<std::remove_pointer_t<cublasHandle_t>, CublasDeleter> handle_;
};

}  // namespace

std::vector<BlasPoint> measure_gemv_sweep(int n, const std::vector<int>& batches,
                                          const TimingOptions& timing,
                                          std::vector<std::string>& warnings) {
  WeightsProduct product(n, *std::max_element(batches.begin(), batches.end()));
  std::vector<BlasPoint> points;
  for (const int batch : batches) {
    const Timing t = time_device_calls([&] { product.run(batch); }, timing);
    BlasPoint p;
    p.weights = "hbm";
    p.n = n;
    p.batch = batch;
    p.precision = Precision::bf16;
    p.flops_per_s = rate_summary(2.0 * n * n * batch, t.seconds_per_call);
    p.samples_s = t.seconds_per_call;
    if (const double error = product.relative_error(batch, kCheckedElements);
        !(error < kTolerance)) {
      warnings.push_back(
          fmt::format("bf16 GEMM with {} columns failed its result check (relative error {:.2g})",
                      batch, error));
    }
    points.push_back(std::move(p));
  }
  return points;
}

double gemv_sweep_relative_error(int n, int batch) {
  WeightsProduct product(n, batch);
  product.run(batch);
  return product.relative_error(batch, n * batch);
}

}  // namespace ridge::gpu
