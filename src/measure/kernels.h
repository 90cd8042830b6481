#pragma once
// The measurement kernels. Each runs on the calling thread; the suite runs one per thread.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ridge/machine.h"
#include "ridge/precision.h"

namespace ridge::kernels {

// Independent FMA chains, enough of them to cover latency x pipes, so the kernel runs at the
// core's FMA throughput. Returns a value that depends on every chain.
struct FmaKernel {
  const char* name;
  Precision precision;
  double flops_per_iteration;
  double (*run)(std::int64_t iterations);
};

// The widest kernel the CPU runs for each precision it has (fp64, fp32, and bf16 with
// AVX512_BF16).
std::vector<FmaKernel> fma_kernels(const MachineInfo& machine);

// FLOP per cycle per core the widest units give, assuming two FMA pipes (as on the server cores
// this targets) and one bf16 dot product per cycle; 0 for the scalar fallback.
double assumed_flops_per_cycle(Precision precision, Isa isa);

// The sustained core clock from a chain of dependent integer adds (one per cycle); 0 when it
// cannot be measured on this architecture.
double measure_clock_hz(std::int64_t adds);

// The clock while the widest vector units are busy, from dependent vector integer adds; 0 for
// the scalar fallback.
double measure_vector_clock_hz(Isa isa, std::int64_t adds);

// STREAM's kernels over [begin, end) of each array.
double read(const double* a, std::size_t begin, std::size_t end);
void copy(double* c, const double* a, std::size_t begin, std::size_t end);
void triad(double* a, const double* b, const double* c, double scalar, std::size_t begin,
           std::size_t end);
// The same with non-temporal (streaming) stores; ranges must start on 64-byte boundaries.
void copy_nt(double* c, const double* a, std::size_t begin, std::size_t end);
void triad_nt(double* a, const double* b, const double* c, double scalar, std::size_t begin,
              std::size_t end);

}  // namespace ridge::kernels
