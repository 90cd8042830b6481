// Matrix peaks and the GEMM shape sweep: TN GEMMs through cuBLASLt, the library every framework's
// matmul ends in, on random operands: the tensor cores per precision, and DGEMM for fp64.
#include <cublasLt.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

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
constexpr int kSweepCheckedElements = 64;
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

// One TN GEMM D = A^T B set up for cuBLASLt, with the algorithms its heuristic offers; `groups`
// of them in one strided batched call when more than one. The check covers the first group.
class LtGemm {
 public:
  LtGemm(Precision precision, int m, int n, int k, int groups = 1)
      : types_(gemm_types(precision)),
        product_{precision, types_.output_precision, 11, 12, m, n, k},
        groups_(groups),
        a_(elements(k, m) * element_bytes(types_.input)),
        b_(elements(k, n) * element_bytes(types_.input)),
        d_(elements(m, n) * element_bytes(types_.output)),
        workspace_(kWorkspaceBytes) {
    fill_random(a_.get(), precision, elements(k, m), product_.seed_a);
    fill_random(b_.get(), precision, elements(k, n), product_.seed_b);
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

  // Elements of a rows x cols operand, every group's.
  std::size_t elements(int rows, int cols) const {
    return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols) *
           static_cast<std::size_t>(groups_);
  }

  cudaDataType_t scale_type() const {
    return types_.compute == CUBLAS_COMPUTE_64F ? CUDA_R_64F : CUDA_R_32F;
  }

  // Column-major rows x cols; with groups, each group's matrix follows the one before.
  Layout layout(cudaDataType_t type, int rows, int cols) const {
    cublasLtMatrixLayout_t l = nullptr;
    RIDGE_CUDA_CHECK(cublasLtMatrixLayoutCreate(&l, type, rows, cols, rows));
    Layout owned(l);
    if (groups_ > 1) {
      const std::int64_t stride = static_cast<std::int64_t>(rows) * cols;
      RIDGE_CUDA_CHECK(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                                        &groups_, sizeof groups_));
      RIDGE_CUDA_CHECK(cublasLtMatrixLayoutSetAttribute(
          l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride));
    }
    return owned;
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
  int groups_;
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

std::vector<GemmSweepPoint> measure_gemm_shape_sweep(const GpuInfo& gpu, const GemmSweepPlan& plan,
                                                     const TimingOptions& timing,
                                                     std::vector<std::string>& warnings) {
  std::vector<GemmSweepPoint> sweep;
  for (const GemmSweepPlan::Set& set : plan.sets) {
    if (!has_tensor_gemm(gpu, set.precision)) continue;
    for (const int m : set.m) {
      // A shape cuBLASLt will not run (fp8 wants sides in multiples of 16) costs its point.
      try {
        // As a framework's linear layer issues y = x W^T (x m by k, W n by k, row-major): to
        // column-major cuBLAS that is y^T = W x^T, the weights' n as the product's rows and the
        // activations' m as its columns. The other orientation draws other kernels from the
        // heuristic, for a few rows up to 1.7 times slower (an H200, 2026-12-04).
        LtGemm gemm(set.precision, set.n, m, set.k, set.groups);
        // The heuristic's first pick, as a framework's matmul takes it.
        const Timing t = time_device_calls([&] { gemm.run(0); }, timing);
        GemmSweepPoint g{m,
                         set.n,
                         set.k,
                         set.groups,
                         set.precision,
                         "cublasLt as F.linear issues it, the heuristic's first algorithm",
                         rate_summary(2.0 * m * set.n * set.k * set.groups, t.seconds_per_call),
                         t.seconds_per_call};
        if (const double error = gemm.relative_error(kSweepCheckedElements); !(error < kTolerance))
          warnings.push_back(
              fmt::format("{} GEMM m={} n={} k={} failed its result check "
                          "(relative error {:.2g})",
                          to_string(set.precision), m, set.n, set.k, error));
        sweep.push_back(std::move(g));
      } catch (const std::runtime_error& e) {
        warnings.push_back(fmt::format("no {} GEMM m={} n={} k={} groups={} in the sweep: {}",
                                       to_string(set.precision), m, set.n, set.k, set.groups,
                                       e.what()));
      }
    }
  }
  return sweep;
}

double tensor_gemm_relative_error(Precision precision, int m, int n, int k) {
  LtGemm gemm(precision, m, n, k);
  gemm.run(0);
  return gemm.relative_error(m * n);
}

}  // namespace ridge::gpu
