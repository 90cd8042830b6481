// Matrix peaks: large TN GEMMs through cuBLASLt, the library every framework's matmul ends in,
// on random operands: the tensor cores per precision, and DGEMM for fp64.
#include <cublasLt.h>
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "device_memory.h"
#include "gemm_reference.h"
#include "gpu_parts.h"
#include "gpu_timing.h"
#include "kernels.h"

namespace ridge::gpu {

namespace {

constexpr std::size_t kWorkspaceBytes = 32u << 20;  // what cuBLAS asks for on Hopper
constexpr int kCandidateAlgorithms = 4;
constexpr int kCheckedElements = 256;
constexpr double kTolerance = 2e-2;  // fp8 inputs are exact in the reference; bf16 output rounds

struct GemmTypes {
  cudaDataType_t input, output;
  cublasComputeType_t compute;
  Precision output_precision;
};

GemmTypes gemm_types(Precision p) {
  switch (p) {
    case Precision::fp64:  // DGEMM: the FP64 tensor cores where the GPU has them
      return {CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, Precision::fp64};
    case Precision::tf32:
      return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, Precision::fp32};
    case Precision::fp16:
      return {CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, Precision::fp16};
    case Precision::bf16:
      return {CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, Precision::bf16};
    case Precision::fp8:
      return {CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, Precision::bf16};
    default:
      throw std::logic_error("no tensor-core GEMM for this precision");
  }
}

std::size_t element_bytes(cudaDataType_t type) {
  switch (type) {
    case CUDA_R_64F:
      return 8;
    case CUDA_R_32F:
      return 4;
    case CUDA_R_8F_E4M3:
      return 1;
    default:
      return 2;
  }
}

template <typename T, cublasStatus_t (*Destroy)(T)>
struct LtDeleter {
  void operator()(T handle) const { Destroy(handle); }
};
template <typename T, cublasStatus_t (*Destroy)(T)>
using LtHandle = std::unique_ptr<std::remove_pointer_t<T>, LtDeleter<T, Destroy>>;

// One TN GEMM D = A^T B set up for cuBLASLt, with the algorithms its heuristic offers.
class LtGemm {
 public:
  LtGemm(Precision precision, int m, int n, int k)
      : types_(gemm_types(precision)),
        product_{precision, types_.output_precision, 11, 12, m, n, k},
        a_(static_cast<std::size_t>(k) * m * element_bytes(types_.input)),
        b_(static_cast<std::size_t>(k) * n * element_bytes(types_.input)),
        d_(static_cast<std::size_t>(m) * n * element_bytes(types_.output)),
        workspace_(kWorkspaceBytes) {
    fill_random(a_.get(), precision, static_cast<std::size_t>(k) * m, product_.seed_a);
    fill_random(b_.get(), precision, static_cast<std::size_t>(k) * n, product_.seed_b);
    cublasLtHandle_t lt = nullptr;
    RIDGE_CUDA_CHECK(cublasLtCreate(&lt));
    lt_.reset(lt);
    cublasLtMatmulDesc_t op = nullptr;
    RIDGE_CUDA_CHECK(cublasLtMatmulDescCreate(&op, types_.compute, scale_type()));
    op_.reset(op);
    const cublasOperation_t transpose = CUBLAS_OP_T, keep = CUBLAS_OP_N;
    RIDGE_CUDA_CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &transpose,
                                                    sizeof transpose));
    RIDGE_CUDA_CHECK(
        cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &keep, sizeof keep));
    a_layout_ = layout(types_.input, k, m);
    b_layout_ = layout(types_.input, k, n);
    d_layout_ = layout(types_.output, m, n);
    find_algorithms();
  }

  int algorithms() const { return static_cast<int>(algorithms_.size()); }

  void run(int algorithm) {
    // alpha and beta in the scale type: double for DGEMM, float for everything else.
    const double alpha64 = 1, beta64 = 0;
    const float alpha32 = 1, beta32 = 0;
    const bool fp64 = scale_type() == CUDA_R_64F;
    const void* alpha = fp64 ? static_cast<const void*>(&alpha64) : &alpha32;
    const void* beta = fp64 ? static_cast<const void*>(&beta64) : &beta32;
    RIDGE_CUDA_CHECK(cublasLtMatmul(lt_.get(), op_.get(), alpha, a_.get(), a_layout_.get(),
                                    b_.get(), b_layout_.get(), beta, d_.get(), d_layout_.get(),
                                    d_.get(), d_layout_.get(), &algorithms_[algorithm].algo,
                                    workspace_.get(), workspace_.bytes(), nullptr));
  }

  double relative_error(int samples) const {
    return tn_relative_error(product_, d_.get(), samples);
  }

 private:
  using Layout = LtHandle<cublasLtMatrixLayout_t, cublasLtMatrixLayoutDestroy>;

  cudaDataType_t scale_type() const {
    return types_.compute == CUBLAS_COMPUTE_64F ? CUDA_R_64F : CUDA_R_32F;
  }

  static Layout layout(cudaDataType_t type, int rows, int cols) {
    cublasLtMatrixLayout_t l = nullptr;
    RIDGE_CUDA_CHECK(cublasLtMatrixLayoutCreate(&l, type, rows, cols, rows));
    return Layout(l);
  }

  void find_algorithms() {
    cublasLtMatmulPreference_t pref = nullptr;
    RIDGE_CUDA_CHECK(cublasLtMatmulPreferenceCreate(&pref));
    const LtHandle<cublasLtMatmulPreference_t, cublasLtMatmulPreferenceDestroy> owned(pref);
    const std::size_t workspace = workspace_.bytes();
    RIDGE_CUDA_CHECK(cublasLtMatmulPreferenceSetAttribute(
        pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof workspace));
    algorithms_.resize(kCandidateAlgorithms);
    int found = 0;
    RIDGE_CUDA_CHECK(cublasLtMatmulAlgoGetHeuristic(
        lt_.get(), op_.get(), a_layout_.get(), b_layout_.get(), d_layout_.get(), d_layout_.get(),
        pref, kCandidateAlgorithms, algorithms_.data(), &found));
    if (found == 0) throw std::runtime_error("cuBLASLt offers no algorithm for this GEMM");
    algorithms_.resize(static_cast<std::size_t>(found));
  }

  GemmTypes types_;
  TnProduct product_;
  DeviceArray<char> a_, b_, d_, workspace_;
  LtHandle<cublasLtHandle_t, cublasLtDestroy> lt_;
  LtHandle<cublasLtMatmulDesc_t, cublasLtMatmulDescDestroy> op_;
  Layout a_layout_, b_layout_, d_layout_;
  std::vector<cublasLtMatmulHeuristicResult_t> algorithms_;
};

// The fastest of the candidates, each timed briefly.
int fastest_algorithm(LtGemm& gemm) {
  const TimingOptions trial{1, 3, 0.002, 0.05};
  int best = 0;
  double best_s = 0;
  for (int a = 0; a < gemm.algorithms(); ++a) {
    const double s = time_device_calls([&] { gemm.run(a); }, trial).summary.median;
    if (a == 0 || s < best_s) best = a, best_s = s;
  }
  return best;
}

}  // namespace

bool has_tensor_gemm(const GpuInfo& gpu, Precision precision) {
  const int cc = gpu.compute_capability_major * 10 + gpu.compute_capability_minor;
  switch (precision) {
    case Precision::fp64:
    case Precision::fp16:
      return cc >= 70;
    case Precision::tf32:
    case Precision::bf16:
      return cc >= 80;
    case Precision::fp8:
      return cc >= 89;
    default:
      return false;
  }
}

PeakResult measure_tensor_peak(Precision precision, int size, const TimingOptions& timing) {
  LtGemm gemm(precision, size, size, size);
  const int algorithm = fastest_algorithm(gemm);
  const Timing t = time_device_calls([&] { gemm.run(algorithm); }, timing);
  PeakResult r;
  r.precision = precision;
  r.kernel = fmt::format("cublasLt {} {}x{}x{} TN, algorithm {} of {}", to_string(precision), size,
                         size, size, algorithm + 1, gemm.algorithms());
  r.flops_per_call = 2.0 * size * size * size;
  r.flops_per_s = rate_summary(r.flops_per_call, t.seconds_per_call);
  r.samples_s = t.seconds_per_call;
  r.validated = gemm.relative_error(kCheckedElements) < kTolerance;
  return r;
}

double tensor_gemm_relative_error(Precision precision, int m, int n, int k) {
  LtGemm gemm(precision, m, n, k);
  gemm.run(0);
  return gemm.relative_error(m * n);
}

}  // namespace ridge::gpu
