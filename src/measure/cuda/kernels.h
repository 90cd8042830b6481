#pragma once
// The backend's own kernels, launched from plain C++: STREAM's four, a shared-memory reader,
// FMA chains per precision and the random fill. Each launch goes to the default stream.

#include <cstddef>
#include <cstdint>

#include "ridge/precision.h"

namespace ridge::gpu {

enum class StreamKernel { read, write, copy, triad };

// Bytes STREAM counts per element of one pass: read 8, write 8, copy 16, triad 24.
double stream_bytes_per_element(StreamKernel kernel);
const char* to_string(StreamKernel kernel);

// The value every element of `a` holds after the write kernel; b and c hold these too once the
// arrays are prepared (prepare_stream_arrays).
inline constexpr double kStreamA = 1.0, kStreamB = 2.0, kStreamScalar = 3.0;

// a = kStreamA, b = kStreamB, c = 0.
void prepare_stream_arrays(double* a, double* b, double* c, std::size_t n, int blocks);

// One launch: `passes` passes of the kernel over n doubles of each array (n / 2 a power of two
// when passes > 1; the read and copy kernels repeat). The read kernel adds
// what it read into *sum, so its result can be checked; the others check what they wrote.
//   read: sum += a   write: a = kStreamA   copy: c = a   triad: a = b + kStreamScalar * c
void launch_stream(StreamKernel kernel, double* a, double* b, double* c, std::size_t n, int passes,
                   int blocks, double* sum);

// Elements of p[0, n) that differ from `expected`, counted on the device.
std::uint64_t count_mismatches(const double* p, std::size_t n, double expected, int blocks);

// Shared memory: each block fills a tile of `tile_bytes` and reads it `iterations` times.
// Threads per block are kSharedThreads; returns the bytes one launch reads.
inline constexpr int kSharedThreads = 256;
double launch_shared_read(int blocks, int tile_bytes, int iterations, float* sink);
// Blocks of the shared-memory reader one SM holds at once with tiles of this size.
int shared_blocks_per_sm(int tile_bytes);

// FMA chains in fp32 or fp64: returns the FLOPs one launch does.
double launch_fma(Precision precision, int blocks, int threads, int iterations, void* sink);

// Fills n elements of a matrix operand with uniform_value(i, seed), rounded to `precision`
// (fp64, fp32, tf32 (stored as fp32), fp16, bf16 or fp8 e4m3).
void fill_random(void* p, Precision precision, std::size_t n, std::uint32_t seed);

}  // namespace ridge::gpu
