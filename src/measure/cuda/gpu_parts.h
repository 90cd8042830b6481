#pragma once
// The pieces of the GPU suite, each usable alone (the CUDA tests check them one by one).

#include <string>
#include <vector>

#include "ridge/measure.h"
#include "ridge/measurement.h"

namespace ridge::gpu {

// Makes device `index` current and describes it. Bad input when there is no such device.
GpuInfo select_gpu(int index);

// Blocks of `threads_per_block` that fill every SM of the current device.
int resident_blocks(int threads_per_block);

// FLOP per cycle per SM of plain (non-tensor) FMA units, from the compute capability; 0 where
// ridge does not know the architecture.
double fma_flops_per_cycle_per_sm(const GpuInfo& gpu, Precision precision);

// fp32 or fp64 FMA chains on every SM.
PeakResult measure_fma_peak(const GpuInfo& gpu, Precision precision, const TimingOptions& timing);

// Whether cuBLASLt has GEMMs for this precision on this device: tensor-core ones for the
// narrow types, DGEMM for fp64.
bool has_tensor_gemm(const GpuInfo& gpu, Precision precision);

// A size x size x size GEMM through cuBLASLt on random operands (the fastest of cuBLASLt's first
// few algorithms), its results spot-checked against the host.
PeakResult measure_tensor_peak(Precision precision, int size, const TimingOptions& timing);

// ||D - reference|| / ||reference|| of one m x n x k GEMM through the same path, over every
// element: the correctness check behind the peaks.
double tensor_gemm_relative_error(Precision precision, int m, int n, int k);

// The shapes of a GEMM sweep: sets of weights (n x k, `groups` of them per call) at one
// precision, each timed at every m of its set.
struct GemmSweepPlan {
  struct Set {
    Precision precision = Precision::bf16;
    int n = 0, k = 0, groups = 1;
    std::vector<int> m;
  };
  std::vector<Set> sets;
};

// The plan `ridge measure --backend cuda` runs: m from 1 to 16k (every power of two; fp8 from
// 16) against a transformer's square, up and down projections (4096 x 4096, 14336 x 4096,
// 4096 x 14336) in fp16, bf16 and fp8, and a mixture of experts' batched experts (8 of
// 2048 x 7168, bf16). Quick: fewer m, the square shape only, no experts.
GemmSweepPlan default_gemm_sweep_plan(bool quick);

// The plan through cuBLASLt as a framework's linear layer issues it (the weights as cuBLAS's
// first operand), each point on the heuristic's first algorithm and spot-checked
// against the host. Precisions the GPU has no GEMM for are skipped; a shape cuBLASLt refuses
// costs its point and a warning.
std::vector<GemmSweepPoint> measure_gemm_shape_sweep(const GpuInfo& gpu, const GemmSweepPlan& plan,
                                                     const TimingOptions& timing,
                                                     std::vector<std::string>& warnings);

// bf16 weights n x n times 1..512 columns through cublasGemmEx: one column is GEMV.
std::vector<BlasPoint> measure_gemv_sweep(int n, const std::vector<int>& batches,
                                          const TimingOptions& timing,
                                          std::vector<std::string>& warnings);

// ||Y - reference|| / ||reference|| of one such product, over every element.
double gemv_sweep_relative_error(int n, int batch);

// The read kernel over power-of-two working sets from about `smallest` (rounded down) to at
// most `largest` bytes, doubling; each point
// labelled L2, the main memory, or "L2/<main>" in between.
std::vector<BandwidthPoint> measure_read_sweep(const GpuInfo& gpu, double smallest, double largest,
                                               const TimingOptions& timing);

// STREAM's copy over two arrays that together fill half the L2, repeated within one launch: what
// an element-wise kernel moves on data the L2 holds.
BandwidthPoint measure_l2_copy(const GpuInfo& gpu, const TimingOptions& timing);

// STREAM's read, write, copy and triad on arrays of `array_bytes` each.
std::vector<BandwidthPoint> measure_stream(const GpuInfo& gpu, double array_bytes,
                                           const TimingOptions& timing);

// Every SM reading its shared memory.
BandwidthPoint measure_shared_memory(const GpuInfo& gpu, const TimingOptions& timing);

// Pinned host memory to the device and back ("h2d", "d2h"), `bytes` per copy.
std::vector<BandwidthPoint> measure_host_link(double bytes, const TimingOptions& timing);

}  // namespace ridge::gpu
