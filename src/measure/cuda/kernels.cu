// The backend's kernels. STREAM's arrays are doubles moved 16 bytes per access (double2), with
// four independent accesses in flight per thread; loads bypass L1 (ld.global.cg) so that a
// working set smaller than L1 still measures L2.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <stdexcept>

#include "cuda_check.h"
#include "kernels.h"
#include "random_values.h"

namespace ridge::gpu {

namespace {

constexpr int kThreads = 256;

__device__ std::size_t global_thread() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ std::size_t grid_threads() { return static_cast<std::size_t>(gridDim.x) * blockDim.x; }

// The sum of `value` over the block, added to *total by one thread.
__device__ void block_sum_into(double value, double* total) {
  __shared__ double partial[kThreads / 32];
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(~0u, value, offset);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = value;
  __syncthreads();
  if (threadIdx.x == 0) {
    double sum = 0;
    for (int w = 0; w < kThreads / 32; ++w) sum += partial[w];
    atomicAdd(total, sum);
  }
}

// `passes` passes over n2 words as one flat loop, so that the four loads in flight per thread
// continue from one pass into the next (a small working set has few words per thread). With
// more than one pass n2 is a power of two and the word is the flat index masked.
__global__ void stream_read(const double2* __restrict__ a, std::size_t n2, int passes,
                            double* sum) {
  const std::size_t stride = grid_threads();
  const std::size_t total = n2 * passes, mask = n2 - 1;
  const auto word = [=](std::size_t v) { return passes == 1 ? v : v & mask; };
  double acc = 0;
  std::size_t v = global_thread();
  for (; v + 3 * stride < total; v += 4 * stride) {
    const double2 v0 = __ldcg(a + word(v)), v1 = __ldcg(a + word(v + stride));
    const double2 v2 = __ldcg(a + word(v + 2 * stride)), v3 = __ldcg(a + word(v + 3 * stride));
    acc += (v0.x + v0.y) + (v1.x + v1.y) + (v2.x + v2.y) + (v3.x + v3.y);
  }
  for (; v < total; v += stride) {
    const double2 x = __ldcg(a + word(v));
    acc += x.x + x.y;
  }
  block_sum_into(acc, sum);
}

__global__ void stream_write(double2* __restrict__ a, std::size_t n2, double value) {
  const double2 v = make_double2(value, value);
  for (std::size_t i = global_thread(); i < n2; i += grid_threads()) a[i] = v;
}

// Copy and triad stream through: loads and stores marked evict-first (ld.global.cs,
// st.global.cs) leave the L2 to nothing else, and eight (copy) or four (triad) words per thread
// are in flight. bench/gpu/stream_variants.cu chose these on an H200: 2% over plain accesses.
__global__ void stream_copy(const double2* __restrict__ a, double2* __restrict__ c,
                            std::size_t n2) {
  constexpr int kUnroll = 8;
  const std::size_t stride = grid_threads();
  std::size_t i = global_thread();
  for (; i + (kUnroll - 1) * stride < n2; i += kUnroll * stride) {
    double2 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = __ldcs(a + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) __stcs(c + i + u * stride, v[u]);
  }
  for (; i < n2; i += stride) __stcs(c + i, __ldcs(a + i));
}

// The copy repeated over a working set the L2 holds: `passes` passes over n2 words as one flat
// loop, the word the flat index masked (n2 a power of two), as the read kernel repeats. Plain
// accesses (loads past L1, stores write-back), so that the arrays stay in the L2 from pass to
// pass: what an element-wise kernel on data the L2 holds moves.
__global__ void stream_copy_repeated(const double2* __restrict__ a, double2* __restrict__ c,
                                     std::size_t n2, int passes) {
  constexpr int kUnroll = 4;
  const std::size_t stride = grid_threads();
  const std::size_t total = n2 * passes, mask = n2 - 1;
  std::size_t v = global_thread();
  for (; v + (kUnroll - 1) * stride < total; v += kUnroll * stride) {
    double2 x[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) x[u] = __ldcg(a + ((v + u * stride) & mask));
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) c[(v + u * stride) & mask] = x[u];
  }
  for (; v < total; v += stride) c[v & mask] = __ldcg(a + (v & mask));
}

__device__ double2 triad(double2 b, double2 c, double s) {
  return make_double2(b.x + s * c.x, b.y + s * c.y);
}

__global__ void stream_triad(double2* __restrict__ a, const double2* __restrict__ b,
                             const double2* __restrict__ c, std::size_t n2, double s) {
  constexpr int kUnroll = 4;
  const std::size_t stride = grid_threads();
  std::size_t i = global_thread();
  for (; i + (kUnroll - 1) * stride < n2; i += kUnroll * stride) {
    double2 vb[kUnroll], vc[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      vb[u] = __ldcs(b + i + u * stride);
      vc[u] = __ldcs(c + i + u * stride);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) __stcs(a + i + u * stride, triad(vb[u], vc[u], s));
  }
  for (; i < n2; i += stride) __stcs(a + i, triad(__ldcs(b + i), __ldcs(c + i), s));
}

__global__ void mismatches(const double* p, std::size_t n, double expected,
                           unsigned long long* count) {
  unsigned long long local = 0;
  for (std::size_t i = global_thread(); i < n; i += grid_threads()) local += p[i] != expected;
  if (local > 0) atomicAdd(count, local);
}

// Consecutive threads read consecutive 16-byte words: a warp's 512 bytes take four conflict-free
// shared-memory wavefronts. The index moves every iteration so no load can be hoisted.
__global__ void shared_read(int tile_words, int iterations, float* sink) {
  extern __shared__ float4 tile[];
  for (int i = threadIdx.x; i < tile_words; i += blockDim.x) {
    tile[i] = make_float4(static_cast<float>(i), 1.0f, 2.0f, 3.0f);
  }
  __syncthreads();
  const int mask = tile_words - 1;
  float4 acc = make_float4(0, 0, 0, 0);
  int index = threadIdx.x;
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      const float4 v = tile[(index + u * kSharedThreads) & mask];
      acc.x += v.x, acc.y += v.y, acc.z += v.z, acc.w += v.w;
    }
    index += 32;
  }
  // Never true; the compiler cannot know that, so every load stays.
  if (acc.x + acc.y + acc.z + acc.w == -1.0f) sink[threadIdx.x] = acc.x;
}

// Sixteen independent FMA chains per thread, unrolled so that loop overhead takes under 3% of
// the issue slots: enough independent work to cover the pipeline's latency.
constexpr int kChains = 16;

template <typename T>
__global__ void fma_chains(int iterations, T* sink) {
  T x[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) x[c] = static_cast<T>(threadIdx.x + c) * static_cast<T>(1e-3);
  const T a = static_cast<T>(0.999), b = static_cast<T>(1e-3);
#pragma unroll 8
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = fma(x[c], a, b);
  }
  T sum = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) sum += x[c];
  if (sum == static_cast<T>(-1)) sink[threadIdx.x] = sum;
}

template <typename T>
__global__ void fill(T* p, std::size_t n, std::uint32_t seed) {
  for (std::size_t i = global_thread(); i < n; i += grid_threads()) {
    p[i] = static_cast<T>(uniform_value(i, seed));
  }
}

template <typename T>
void launch_fill(void* p, std::size_t n, std::uint32_t seed) {
  fill<T><<<1024, kThreads>>>(static_cast<T*>(p), n, seed);
  check_launch("fill");
}

}  // namespace

double stream_bytes_per_element(StreamKernel kernel) {
  switch (kernel) {
    case StreamKernel::read:
    case StreamKernel::write:
      return 8;
    case StreamKernel::copy:
      return 16;
    case StreamKernel::triad:
      return 24;
  }
  return 0;
}

const char* to_string(StreamKernel kernel) {
  switch (kernel) {
    case StreamKernel::read:
      return "read";
    case StreamKernel::write:
      return "write";
    case StreamKernel::copy:
      return "copy";
    case StreamKernel::triad:
      return "triad";
  }
  return "";
}

void prepare_stream_arrays(double* a, double* b, double* c, std::size_t n, int blocks) {
  const std::size_t n2 = n / 2;
  stream_write<<<blocks, kThreads>>>(reinterpret_cast<double2*>(a), n2, kStreamA);
  stream_write<<<blocks, kThreads>>>(reinterpret_cast<double2*>(b), n2, kStreamB);
  stream_write<<<blocks, kThreads>>>(reinterpret_cast<double2*>(c), n2, 0.0);
  check_launch("stream_write");
}

void launch_stream(StreamKernel kernel, double* a, double* b, double* c, std::size_t n, int passes,
                   int blocks, double* sum) {
  const std::size_t n2 = n / 2;
  auto* a2 = reinterpret_cast<double2*>(a);
  if (passes > 1 && (n2 & (n2 - 1)) != 0) {
    throw std::logic_error("launch_stream: repeated passes need a power-of-two working set");
  }
  switch (kernel) {
    case StreamKernel::read:
      stream_read<<<blocks, kThreads>>>(a2, n2, passes, sum);
      break;
    case StreamKernel::write:
      stream_write<<<blocks, kThreads>>>(a2, n2, kStreamA);
      break;
    // Four waves of blocks: copy moved 2% more so than with one (bench/gpu/stream_variants.cu).
    // Repeated, one wave over the L2's working set, as the read kernel repeats.
    case StreamKernel::copy:
      if (passes > 1) {
        stream_copy_repeated<<<blocks, kThreads>>>(a2, reinterpret_cast<double2*>(c), n2, passes);
      } else {
        stream_copy<<<4 * blocks, kThreads>>>(a2, reinterpret_cast<double2*>(c), n2);
      }
      break;
    case StreamKernel::triad:
      stream_triad<<<4 * blocks, kThreads>>>(a2, reinterpret_cast<const double2*>(b),
                                             reinterpret_cast<const double2*>(c), n2,
                                             kStreamScalar);
      break;
  }
  check_launch(to_string(kernel));
}

std::uint64_t count_mismatches(const double* p, std::size_t n, double expected, int blocks) {
  unsigned long long* count = nullptr;
  RIDGE_CUDA_CHECK(cudaMalloc(&count, sizeof *count));
  RIDGE_CUDA_CHECK(cudaMemset(count, 0, sizeof *count));
  mismatches<<<blocks, kThreads>>>(p, n, expected, count);
  check_launch("mismatches");
  unsigned long long host = 0;
  const cudaError_t copied = cudaMemcpy(&host, count, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(count);
  check(copied, "cudaMemcpy(mismatch count)");
  return host;
}

double launch_shared_read(int blocks, int tile_bytes, int iterations, float* sink) {
  const int words = tile_bytes / 16;
  shared_read<<<blocks, kSharedThreads, tile_bytes>>>(words, iterations, sink);
  check_launch("shared_read");
  return static_cast<double>(blocks) * kSharedThreads * iterations * 8 * 16;
}

int shared_blocks_per_sm(int tile_bytes) {
  int blocks = 0;
  RIDGE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, shared_read,
                                                                 kSharedThreads, tile_bytes));
  return blocks;
}

double launch_fma(Precision precision, int blocks, int threads, int iterations, void* sink) {
  if (precision == Precision::fp64) {
    fma_chains<double><<<blocks, threads>>>(iterations, static_cast<double*>(sink));
  } else {
    fma_chains<float><<<blocks, threads>>>(iterations, static_cast<float*>(sink));
  }
  check_launch("fma_chains");
  return 2.0 * kChains * iterations * static_cast<double>(blocks) * threads;
}

void fill_random(void* p, Precision precision, std::size_t n, std::uint32_t seed) {
  switch (precision) {
    case Precision::fp64:
      return launch_fill<double>(p, n, seed);
    case Precision::fp32:
    case Precision::tf32:
      return launch_fill<float>(p, n, seed);
    case Precision::fp16:
      return launch_fill<__half>(p, n, seed);
    case Precision::bf16:
      return launch_fill<__nv_bfloat16>(p, n, seed);
    case Precision::fp8:
      return launch_fill<__nv_fp8_e4m3>(p, n, seed);
    default:
      throw std::logic_error("fill_random: no device type for this precision");
  }
}

}  // namespace ridge::gpu
