#pragma once
// How a vendor library runs one GEMM: the tile shape, split-K factor and number of waves over
// the compute units that give the shortest time, and the traffic that tiling moves.

#include <algorithm>
#include <string>

#include "ridge/expected.h"
#include "ridge/op.h"

namespace ridge::predict {

struct GemmMachine {
  int units = 1;                     // SMs (or cores)
  double rate_flops_per_s = 0;       // achievable, whole device
  double bandwidth_bytes_per_s = 0;  // achievable main-memory bandwidth
  double l2_bytes = 0;               // 0: no cache holds operands between tiles
  double l2_feed_bytes_per_s = 0;    // L2 into the units; 0: tiles are fed at their full rate
  // A CPU's BLAS (Goto's algorithm, as OpenBLAS): register tiles, threads share out the rows,
  // no split-K, and the operands are packed into contiguous panels before the kernel runs.
  bool cpu = false;
  // Whether the library offers stream-K (Calibration::gemm_stream_k); else whole tiles in waves.
  bool stream_k = true;
  // Tiles of a cluster that share one operand's loads from L2 (Calibration::gemm_multicast).
  double multicast = 1;
  // How its compute and memory parts overlap (overlapped_time_s); 0: the larger part alone.
  double overlap_exponent = 0;
  // The fixed cost of a kernel launched as the GEMM is: what split-K's reduction kernel pays.
  double kernel_floor_s = 0;
  // What a grouped kernel's tile waits before its loads when it starts another group: its
  // descriptors (GemmShape::group_descriptors()) at Calibration::gemm_descriptor_switch_s each;
  // 0: none.
  double group_switch_s = 0;
};

struct GemmTiling {
  int tile_m = 0, tile_n = 0, split_k = 1;
  bool stream_k = false;
  double waves = 0;
  double wave_fill = 1;  // useful work units over the slots the waves offer
  double compute_time_s = 0;
  double traffic_bytes = 0;
  double memory_time_s = 0;
  // The memory part runs before the compute (a CPU BLAS's packing), not beside it.
  bool sequential = false;
  bool cpu_packing = false;
  // The kernel's own fixed tile (FixedTile), not one a library chose: its K step.
  double fixed_tile_k = 0;
  // The one configuration the shape's kernel runs (ConfiguredTile): its K step; 0: none.
  int configured_tile_k = 0;
  double overlap_exponent = 0;  // the machine's
  // The last wave's output tiles, stored after their products with nothing beside them.
  double epilogue_time_s = 0;
  // Summing partial products after them: stream-K's fix-ups, or split-K's reduction kernel.
  double reduction_time_s = 0;
  // Of the memory part, what a grouped kernel's SMs wait at their changes of group.
  double group_switch_time_s = 0;
  // The compute and memory parts together: one after the other, or overlapped.
  double work_time_s() const {
    if (sequential) return compute_time_s + memory_time_s;
    return ridge::overlapped_time_s(compute_time_s, memory_time_s, overlap_exponent);
  }
  double time_s() const { return work_time_s() + after_time_s(); }
  // What time_s() is at least: the larger part, as if the other hid under it.
  double lower_time_s() const {
    if (sequential) return compute_time_s + memory_time_s;
    return std::max(compute_time_s, memory_time_s) + after_time_s();
  }
  // What runs after the overlapped parts, with nothing beside it.
  double after_time_s() const { return epilogue_time_s + reduction_time_s; }
  // No part shorter than `other`'s: it is no faster, and does no less compute.
  bool no_better_than(const GemmTiling& other) const {
    return compute_time_s >= other.compute_time_s && memory_time_s >= other.memory_time_s &&
           after_time_s() >= other.after_time_s() && sequential == other.sequential;
  }
  std::string describe() const;
};

// The best of the tile shapes CUTLASS and cuBLAS choose among, each with split-K where the
// tiles alone cannot fill the units. `ideal_bytes` is the operation's every-operand-once
// traffic (its element sizes may differ from the shape's, as for 4-bit weights). A shape whose
// kernel runs one configuration (its ConfiguredTile) takes that tile, in waves, unsplit; so does
// CUTLASS's grouped kernel (GemmShape::grouped) at each tile, its SMs waiting at each
// change of group.
GemmTiling best_tiling(const GemmShape& shape, double ideal_bytes, const GemmMachine& machine);

// A kernel of one fixed tile (the shape's FixedTile): each tile of its grid steps through K, and
// each SM retires the steps of the tiles it holds at `step_s` apiece, so the compute part is
// every tile's steps shared out evenly over the units, and no less than one tile's own. Its
// operands cross memory once: the ideal traffic.
GemmTiling fixed_tiling(const GemmShape& shape, double ideal_bytes, const GemmMachine& machine,
                        double step_s);

}  // namespace ridge::predict
