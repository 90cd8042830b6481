// Kernels compiled for several instruction sets in one binary and chosen at run time: the FMA
// kernels by explicit dispatch on CPUID, the bandwidth loops through GCC's target_clones.
#include "measure/kernels.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#if defined(__clang__)
// Sanitizer and fuzzer instrumentation can stop clang honouring `omp simd`; only the fuzz build
// uses clang, and it never times these loops.
#pragma clang diagnostic ignored "-Wpass-failed"
#elif defined(__GNUC__)
// GCC 12 reports the deliberately undefined vectors inside its own AVX-512 set1 intrinsics.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#if defined(__x86_64__)
#include <immintrin.h>
#define RIDGE_X86 1
#endif

// The bandwidth loops are compiled for AVX-512, AVX2 and the baseline, and the loader picks one.
#if RIDGE_X86
#define RIDGE_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define RIDGE_CLONES
#endif

namespace ridge::kernels {

namespace {

// FMA chains of one vector type: `chains` accumulators updated once per iteration.
#define RIDGE_FMA_KERNEL(NAME, TARGET, VEC, SCALAR, SET1, FMADD, ADD, STORE, CHAINS)          \
  __attribute__((target(TARGET))) double NAME(std::int64_t iterations) {                      \
    VEC acc[CHAINS];                                                                          \
    const VEC m = SET1(SCALAR(0.9999999));                                                    \
    const VEC b = SET1(SCALAR(1e-9));                                                         \
    _Pragma("GCC unroll 32") for (int k = 0; k < CHAINS; ++k) acc[k] = SET1(SCALAR(1 + k));   \
    for (std::int64_t i = 0; i < iterations; ++i) {                                           \
      _Pragma("GCC unroll 32") for (int k = 0; k < CHAINS; ++k) acc[k] = FMADD(acc[k], m, b); \
    }                                                                                         \
    VEC total = acc[0];                                                                       \
    _Pragma("GCC unroll 32") for (int k = 1; k < CHAINS; ++k) total = ADD(total, acc[k]);     \
    alignas(64) SCALAR lanes[sizeof(VEC) / sizeof(SCALAR)];                                   \
    STORE(lanes, total);                                                                      \
    double sum = 0;                                                                           \
    for (SCALAR lane : lanes) sum += lane;                                                    \
    return sum;                                                                               \
  }

#if RIDGE_X86
constexpr int kAvx512Chains = 16;  // 4-cycle latency x 2 pipes, with room to spare
constexpr int kAvx2Chains = 12;    // 16 ymm registers: 12 chains and 2 constants

RIDGE_FMA_KERNEL(fma_avx512_f64, "avx512f", __m512d, double, _mm512_set1_pd, _mm512_fmadd_pd,
                 _mm512_add_pd, _mm512_store_pd, kAvx512Chains)
RIDGE_FMA_KERNEL(fma_avx512_f32, "avx512f", __m512, float, _mm512_set1_ps, _mm512_fmadd_ps,
                 _mm512_add_ps, _mm512_store_ps, kAvx512Chains)
RIDGE_FMA_KERNEL(fma_avx2_f64, "avx2,fma", __m256d, double, _mm256_set1_pd, _mm256_fmadd_pd,
                 _mm256_add_pd, _mm256_store_pd, kAvx2Chains)
RIDGE_FMA_KERNEL(fma_avx2_f32, "avx2,fma", __m256, float, _mm256_set1_ps, _mm256_fmadd_ps,
                 _mm256_add_ps, _mm256_store_ps, kAvx2Chains)

// bf16 pairs dotted into fp32 accumulators: each instruction does 16 lanes x 2 products x 2.
__attribute__((target("avx512f,avx512bf16"))) double dot_avx512_bf16(std::int64_t iterations) {
  __m512 acc[kAvx512Chains];
  const __m512bh x = _mm512_cvtne2ps_pbh(_mm512_set1_ps(1e-3f), _mm512_set1_ps(2e-3f));
  const __m512bh y = _mm512_cvtne2ps_pbh(_mm512_set1_ps(3e-3f), _mm512_set1_ps(1e-3f));
#pragma GCC unroll 32
  for (int k = 0; k < kAvx512Chains; ++k) acc[k] = _mm512_set1_ps(static_cast<float>(k));
  for (std::int64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 32
    for (int k = 0; k < kAvx512Chains; ++k) acc[k] = _mm512_dpbf16_ps(acc[k], x, y);
  }
  __m512 total = acc[0];
#pragma GCC unroll 32
  for (int k = 1; k < kAvx512Chains; ++k) total = _mm512_add_ps(total, acc[k]);
  return _mm512_reduce_add_ps(total);
}
#endif

// Portable fallback: independent multiply-add chains in plain C++.
template <typename T>
double fma_scalar(std::int64_t iterations) {
  constexpr int kChains = 8;
  T acc[kChains];
  for (int k = 0; k < kChains; ++k) acc[k] = static_cast<T>(1 + k);
  const T m = static_cast<T>(0.9999999);
  const T b = static_cast<T>(1e-9);
  for (std::int64_t i = 0; i < iterations; ++i) {
    for (T& a : acc) a = a * m + b;
  }
  double sum = 0;
  for (T a : acc) sum += a;
  return sum;
}

}  // namespace

std::vector<FmaKernel> fma_kernels(const MachineInfo& machine) {
#if RIDGE_X86
  if (machine.isa == Isa::avx512) {
    std::vector<FmaKernel> k = {
        {"fma avx512 x16", Precision::fp64, 2.0 * 8 * kAvx512Chains, fma_avx512_f64},
        {"fma avx512 x16", Precision::fp32, 2.0 * 16 * kAvx512Chains, fma_avx512_f32}};
    if (machine.has_avx512_bf16) {
      k.push_back(
          {"dpbf16 avx512 x16", Precision::bf16, 4.0 * 16 * kAvx512Chains, dot_avx512_bf16});
    }
    return k;
  }
  if (machine.isa == Isa::avx2) {
    return {{"fma avx2 x12", Precision::fp64, 2.0 * 4 * kAvx2Chains, fma_avx2_f64},
            {"fma avx2 x12", Precision::fp32, 2.0 * 8 * kAvx2Chains, fma_avx2_f32}};
  }
#else
  (void)machine;
#endif
  return {{"multiply-add scalar x8", Precision::fp64, 2.0 * 8, fma_scalar<double>},
          {"multiply-add scalar x8", Precision::fp32, 2.0 * 8, fma_scalar<float>}};
}

double assumed_flops_per_cycle(Precision precision, Isa isa) {
  const double bits = isa == Isa::avx512 ? 512 : isa == Isa::avx2 ? 256 : 0;
  if (precision == Precision::bf16)
    return bits / 32 * 4;  // one dpbf16ps per cycle: 16 lanes x 4 FLOP
  return 2 /* FMA pipes */ * bits / (8 * bytes_per_element(precision)) * 2;
}

double measure_clock_hz(std::int64_t adds) {
#if RIDGE_X86
#define RIDGE_ADD4 \
  "add %1, %0\n\t" \
  "add %1, %0\n\t" \
  "add %1, %0\n\t" \
  "add %1, %0\n\t"
#define RIDGE_ADD32 \
  RIDGE_ADD4 RIDGE_ADD4 RIDGE_ADD4 RIDGE_ADD4 RIDGE_ADD4 RIDGE_ADD4 RIDGE_ADD4 RIDGE_ADD4
  constexpr int kAddsPerRound = 32;
  const std::int64_t rounds = std::max<std::int64_t>(1, adds / kAddsPerRound);
  std::uint64_t x = 0;
  std::uint64_t one = 1;
  asm volatile(
      ""
      : "+r"(one));  // an opaque register: adds of a known immediate can be folded at rename
  const auto start = std::chrono::steady_clock::now();
  for (std::int64_t r = 0; r < rounds; ++r) {
    // Each add waits for the previous one: one add per cycle, whatever the core's width.
    asm volatile(RIDGE_ADD32 : "+r"(x) : "r"(one));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return seconds > 0 ? static_cast<double>(rounds * kAddsPerRound) / seconds : 0;
#undef RIDGE_ADD32
#undef RIDGE_ADD4
#else
  (void)adds;
  return 0;
#endif
}

// Four independent vector sums, so the adds' latency does not limit the loads.
#if RIDGE_X86
// The clock under wide-vector load: a chain of dependent vector integer adds (one per cycle)
// runs at whatever frequency the core keeps while its vector units are busy.
__attribute__((target("avx512f"))) double vector_clock_avx512(std::int64_t rounds) {
  const auto start = std::chrono::steady_clock::now();
  asm volatile("vpxorq %%zmm0, %%zmm0, %%zmm0\n\tvpternlogq $0xff, %%zmm1, %%zmm1, %%zmm1" ::
                   : "xmm0", "xmm1");
  for (std::int64_t r = 0; r < rounds; ++r) {
    asm volatile(".rept 32\n\tvpaddq %%zmm1, %%zmm0, %%zmm0\n\t.endr" ::: "xmm0");
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

__attribute__((target("avx2"))) double vector_clock_avx2(std::int64_t rounds) {
  const auto start = std::chrono::steady_clock::now();
  asm volatile("vpxor %%ymm0, %%ymm0, %%ymm0\n\tvpcmpeqq %%ymm1, %%ymm1, %%ymm1" ::
                   : "xmm0", "xmm1");
  for (std::int64_t r = 0; r < rounds; ++r) {
    asm volatile(".rept 32\n\tvpaddq %%ymm1, %%ymm0, %%ymm0\n\t.endr" ::: "xmm0");
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
#endif

double measure_vector_clock_hz(Isa isa, std::int64_t adds) {
#if RIDGE_X86
  const std::int64_t rounds = std::max<std::int64_t>(1, adds / 32);
  const double seconds = isa == Isa::avx512 ? vector_clock_avx512(rounds)
                         : isa == Isa::avx2 ? vector_clock_avx2(rounds)
                                            : 0;
  return seconds > 0 ? static_cast<double>(rounds * 32) / seconds : 0;
#else
  (void)isa;
  (void)adds;
  return 0;
#endif
}

RIDGE_CLONES double read(const double* __restrict a, std::size_t begin, std::size_t end) {
  using Vec = double __attribute__((vector_size(64)));
  constexpr std::size_t kLanes = 8;
  constexpr std::size_t kSums = 4;
  Vec sums[kSums] = {};
  std::size_t i = begin;
  for (; i + kLanes * kSums <= end; i += kLanes * kSums) {
    for (std::size_t k = 0; k < kSums; ++k) {
      Vec v;
      std::memcpy(&v, a + i + k * kLanes, sizeof v);
      sums[k] += v;
    }
  }
  double total = 0;
  for (std::size_t k = 0; k < kSums; ++k) {
    for (std::size_t lane = 0; lane < kLanes; ++lane) total += sums[k][lane];
  }
  for (; i < end; ++i) total += a[i];
  return total;
}

RIDGE_CLONES void copy(double* __restrict c, const double* __restrict a, std::size_t begin,
                       std::size_t end) {
#pragma omp simd
  for (std::size_t i = begin; i < end; ++i) c[i] = a[i];
}

RIDGE_CLONES void triad(double* __restrict a, const double* __restrict b,
                        const double* __restrict c, double scalar, std::size_t begin,
                        std::size_t end) {
#pragma omp simd
  for (std::size_t i = begin; i < end; ++i) a[i] = b[i] + scalar * c[i];
}

namespace {

#if RIDGE_X86
__attribute__((target("avx512f"))) void copy_nt_avx512(double* c, const double* a,
                                                       std::size_t begin, std::size_t end) {
  std::size_t i = begin;
  for (; i + 8 <= end; i += 8) _mm512_stream_pd(c + i, _mm512_loadu_pd(a + i));
  for (; i < end; ++i) c[i] = a[i];
  _mm_sfence();
}

__attribute__((target("avx512f"))) void triad_nt_avx512(double* a, const double* b, const double* c,
                                                        double scalar, std::size_t begin,
                                                        std::size_t end) {
  const __m512d s = _mm512_set1_pd(scalar);
  std::size_t i = begin;
  for (; i + 8 <= end; i += 8) {
    _mm512_stream_pd(a + i, _mm512_fmadd_pd(s, _mm512_loadu_pd(c + i), _mm512_loadu_pd(b + i)));
  }
  for (; i < end; ++i) a[i] = b[i] + scalar * c[i];
  _mm_sfence();
}

__attribute__((target("avx2,fma"))) void copy_nt_avx2(double* c, const double* a, std::size_t begin,
                                                      std::size_t end) {
  std::size_t i = begin;
  for (; i + 4 <= end; i += 4) _mm256_stream_pd(c + i, _mm256_loadu_pd(a + i));
  for (; i < end; ++i) c[i] = a[i];
  _mm_sfence();
}

__attribute__((target("avx2,fma"))) void triad_nt_avx2(double* a, const double* b, const double* c,
                                                       double scalar, std::size_t begin,
                                                       std::size_t end) {
  const __m256d s = _mm256_set1_pd(scalar);
  std::size_t i = begin;
  for (; i + 4 <= end; i += 4) {
    _mm256_stream_pd(a + i, _mm256_fmadd_pd(s, _mm256_loadu_pd(c + i), _mm256_loadu_pd(b + i)));
  }
  for (; i < end; ++i) a[i] = b[i] + scalar * c[i];
  _mm_sfence();
}

// SSE2 is part of x86-64 itself.
void copy_nt_sse2(double* c, const double* a, std::size_t begin, std::size_t end) {
  std::size_t i = begin;
  for (; i + 2 <= end; i += 2) _mm_stream_pd(c + i, _mm_loadu_pd(a + i));
  for (; i < end; ++i) c[i] = a[i];
  _mm_sfence();
}

void triad_nt_sse2(double* a, const double* b, const double* c, double scalar, std::size_t begin,
                   std::size_t end) {
  const __m128d s = _mm_set1_pd(scalar);
  std::size_t i = begin;
  for (; i + 2 <= end; i += 2) {
    _mm_stream_pd(a + i, _mm_add_pd(_mm_loadu_pd(b + i), _mm_mul_pd(s, _mm_loadu_pd(c + i))));
  }
  for (; i < end; ++i) a[i] = b[i] + scalar * c[i];
  _mm_sfence();
}

#endif

}  // namespace

void copy_nt(double* c, const double* a, std::size_t begin, std::size_t end) {
#if RIDGE_X86
  static const Isa isa = detect_isa();
  if (isa == Isa::avx512) return copy_nt_avx512(c, a, begin, end);
  if (isa == Isa::avx2) return copy_nt_avx2(c, a, begin, end);
  return copy_nt_sse2(c, a, begin, end);
#else
  copy(c, a, begin, end);
#endif
}

void triad_nt(double* a, const double* b, const double* c, double scalar, std::size_t begin,
              std::size_t end) {
#if RIDGE_X86
  static const Isa isa = detect_isa();
  if (isa == Isa::avx512) return triad_nt_avx512(a, b, c, scalar, begin, end);
  if (isa == Isa::avx2) return triad_nt_avx2(a, b, c, scalar, begin, end);
  return triad_nt_sse2(a, b, c, scalar, begin, end);
#else
  triad(a, b, c, scalar, begin, end);
#endif
}

}  // namespace ridge::kernels
