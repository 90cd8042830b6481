// Which way of writing STREAM's copy, write and read kernels moves device memory fastest, side by
// side with cudaMemcpy device-to-device (the copy PyTorch's tensor.copy_ runs) in one run. Used
// to choose the kernels of ridge's CUDA backend; prints medians and spreads of 15 samples, each
// at least 10 ms, after a warm-up, in STREAM's bytes.
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 stream_variants.cu -o stream_variants
// Run:   ./stream_variants [array MiB, default 1024]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CHECK(call)                                                   \
  do {                                                                \
    cudaError_t e = (call);                                           \
    if (e != cudaSuccess) {                                           \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e)); \
      std::exit(1);                                                   \
    }                                                                 \
  } while (0)

namespace {

enum class Hint { cg, cs };  // loads: L2 only / evict-first

template <Hint H>
__device__ double2 load(const double2* p) {
  return H == Hint::cg ? __ldcg(p) : __ldcs(p);
}

template <bool Streaming>
__device__ void store(double2* p, double2 v) {
  if (Streaming) {
    __stcs(p, v);
  } else {
    *p = v;
  }
}

template <Hint H, bool Streaming, int Unroll>
__global__ void copy(const double2* __restrict__ a, double2* __restrict__ c, size_t n2) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (Unroll - 1) * stride < n2; i += Unroll * stride) {
    double2 v[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) v[u] = load<H>(a + i + u * stride);
#pragma unroll
    for (int u = 0; u < Unroll; ++u) store<Streaming>(c + i + u * stride, v[u]);
  }
  for (; i < n2; i += stride) store<Streaming>(c + i, load<H>(a + i));
}

// A 16-byte load that skips L1 and asks L2 to fetch 256 bytes around it (sm_80 and later).
__device__ double2 load_prefetch256(const double2* p) {
  double2 v;
  asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v2.f64 {%0, %1}, [%2];"
               : "=d"(v.x), "=d"(v.y)
               : "l"(p));
  return v;
}

template <int Unroll>
__global__ void copy_prefetch(const double2* __restrict__ a, double2* __restrict__ c, size_t n2) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (Unroll - 1) * stride < n2; i += Unroll * stride) {
    double2 v[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) v[u] = load_prefetch256(a + i + u * stride);
#pragma unroll
    for (int u = 0; u < Unroll; ++u) __stcs(c + i + u * stride, v[u]);
  }
  for (; i < n2; i += stride) __stcs(c + i, load_prefetch256(a + i));
}

// Each block copies one contiguous chunk, its threads striding through it.
template <int Unroll, bool Prefetch>
__global__ void copy_chunked(const double2* __restrict__ a, double2* __restrict__ c, size_t n2) {
  const size_t chunk = (n2 + gridDim.x - 1) / gridDim.x;
  const size_t begin = blockIdx.x * chunk, end = begin + chunk < n2 ? begin + chunk : n2;
  const size_t stride = blockDim.x;
  size_t i = begin + threadIdx.x;
  for (; i + (Unroll - 1) * stride < end; i += Unroll * stride) {
    double2 v[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      v[u] = Prefetch ? load_prefetch256(a + i + u * stride) : __ldcs(a + i + u * stride);
#pragma unroll
    for (int u = 0; u < Unroll; ++u) __stcs(c + i + u * stride, v[u]);
  }
  for (; i < end; i += stride) __stcs(c + i, __ldcs(a + i));
}

template <bool Streaming, int Unroll>
__global__ void write(double2* __restrict__ a, size_t n2) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  const double2 v = make_double2(1, 1);
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (Unroll - 1) * stride < n2; i += Unroll * stride) {
#pragma unroll
    for (int u = 0; u < Unroll; ++u) store<Streaming>(a + i + u * stride, v);
  }
  for (; i < n2; i += stride) store<Streaming>(a + i, v);
}

template <Hint H, int Unroll>
__global__ void read(const double2* __restrict__ a, size_t n2, double* sink) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  double acc = 0;
  for (; i + (Unroll - 1) * stride < n2; i += Unroll * stride) {
    double2 v[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) v[u] = load<H>(a + i + u * stride);
#pragma unroll
    for (int u = 0; u < Unroll; ++u) acc += v[u].x + v[u].y;
  }
  for (; i < n2; i += stride) acc += load<H>(a + i).x;
  if (acc == -1.0) *sink = acc;
}

struct Result {
  double median, min, max;
};

Result time_it(const std::function<void()>& body, double bytes) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 3; ++i) body();
  int calls = 1;
  for (;;) {
    CHECK(cudaEventRecord(start));
    for (int i = 0; i < calls; ++i) body();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (ms >= 10) break;
    calls *= 2;
  }
  std::vector<double> rates;
  for (int s = 0; s < 15; ++s) {
    CHECK(cudaEventRecord(start));
    for (int i = 0; i < calls; ++i) body();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    rates.push_back(bytes * calls / (ms * 1e-3));
  }
  CHECK(cudaGetLastError());
  std::sort(rates.begin(), rates.end());
  return {rates[rates.size() / 2], rates.front(), rates.back()};
}

void row(const char* name, int blocks, int threads, Result r) {
  std::printf("%-34s %6d x %4d  %7.3f TB/s  (min %.3f, max %.3f)\n", name, blocks, threads,
              r.median / 1e12, r.min / 1e12, r.max / 1e12);
}

}  // namespace

int main(int argc, char** argv) {
  const size_t mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1024;
  const size_t bytes = mib << 20, n2 = bytes / 16;
  double2 *a, *c;
  double* sink;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&c, bytes));
  CHECK(cudaMalloc(&sink, 8));
  CHECK(cudaMemset(a, 1, bytes));
  CHECK(cudaMemset(c, 0, bytes));
  int sms = 0, max_threads = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
  std::printf("arrays of %zu MiB, %d SMs\n", mib, sms);
  const double copy_bytes = 2.0 * bytes;
  row("cudaMemcpy d2d", 0, 0,
      time_it([&] { CHECK(cudaMemcpyAsync(c, a, bytes, cudaMemcpyDeviceToDevice)); }, copy_bytes));
  for (int waves : {1, 4, 8}) {
    const int blocks = sms * (max_threads / 256) * waves;
    row("copy prefetch 256B, x8", blocks, 256,
        time_it([&] { copy_prefetch<8><<<blocks, 256>>>(a, c, n2); }, copy_bytes));
    row("copy chunked cs, x8", blocks, 256,
        time_it([&] { copy_chunked<8, false><<<blocks, 256>>>(a, c, n2); }, copy_bytes));
    row("copy chunked prefetch 256B, x8", blocks, 256,
        time_it([&] { copy_chunked<8, true><<<blocks, 256>>>(a, c, n2); }, copy_bytes));
    row("copy cs, streaming stores, x8", blocks, 256,
        time_it([&] { copy<Hint::cs, true, 8><<<blocks, 256>>>(a, c, n2); }, copy_bytes));
  }
  for (int threads : {256}) {
    for (int waves : {1, 4}) {
      const int blocks = sms * (max_threads / threads) * waves;
      if (waves > 1 && threads != 256) continue;
      row("copy cg, plain stores, x4", blocks, threads,
          time_it([&] { copy<Hint::cg, false, 4><<<blocks, threads>>>(a, c, n2); }, copy_bytes));
      row("copy cs, streaming stores, x4", blocks, threads,
          time_it([&] { copy<Hint::cs, true, 4><<<blocks, threads>>>(a, c, n2); }, copy_bytes));
      row("copy cs, streaming stores, x8", blocks, threads,
          time_it([&] { copy<Hint::cs, true, 8><<<blocks, threads>>>(a, c, n2); }, copy_bytes));
      row("copy cg, streaming stores, x8", blocks, threads,
          time_it([&] { copy<Hint::cg, true, 8><<<blocks, threads>>>(a, c, n2); }, copy_bytes));
      row("copy cs, plain stores, x2", blocks, threads,
          time_it([&] { copy<Hint::cs, false, 2><<<blocks, threads>>>(a, c, n2); }, copy_bytes));
    }
  }
  const int blocks = sms * (max_threads / 256);
  row("write plain, x1", blocks, 256,
      time_it([&] { write<false, 1><<<blocks, 256>>>(a, n2); }, double(bytes)));
  row("write streaming, x4", blocks, 256,
      time_it([&] { write<true, 4><<<blocks, 256>>>(a, n2); }, double(bytes)));
  row("read cg, x4", blocks, 256,
      time_it([&] { read<Hint::cg, 4><<<blocks, 256>>>(a, n2, sink); }, double(bytes)));
  row("read cs, x4", blocks, 256,
      time_it([&] { read<Hint::cs, 4><<<blocks, 256>>>(a, n2, sink); }, double(bytes)));
  row("read cs, x8", blocks, 256,
      time_it([&] { read<Hint::cs, 8><<<blocks, 256>>>(a, n2, sink); }, double(bytes)));
  row("read cg, x8, 2 waves", 2 * blocks, 256,
      time_it([&] { read<Hint::cg, 8><<<2 * blocks, 256>>>(a, n2, sink); }, double(bytes)));
  return 0;
}
