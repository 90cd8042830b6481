#include "predict/gemm_tiles.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace ridge::predict {

namespace {

struct Tile {
  int m, n;
};

// The rows and columns of a tile that lie inside its product.
struct TileExtent {
  double m, n;
};

// The threadblock tiles of CUTLASS's default GEMM kernels for Ampere and Hopper tensor cores
// (cutlass/profiler's default instances, which cuBLAS's heuristics pick among): 128x256 and
// 256x128 for large problems, 128x128, the 64-row tiles (Hopper's smallest wgmma M), and the
// 16-row tiles of the mma.sync m16n8k16 kernels that GEMV-like products of a few rows use.
constexpr std::array<Tile, 9> kTiles = {{{128, 256},
                                         {256, 128},
                                         {128, 128},
                                         {64, 256},
                                         {64, 128},
                                         {128, 64},
                                         {64, 64},
                                         {16, 256},
                                         {16, 128}}};
constexpr Tile kLargestTile = {128, 256};
// All of it inside its product.
constexpr TileExtent kLargestExtent = {kLargestTile.m, kLargestTile.n};

// OpenBLAS's sgemm register tile on Haswell and SkylakeX (SGEMM_DEFAULT_UNROLL_M 16 by
// UNROLL_N 4, param.h), with the batch as its 4 and the weights' rows as its 16; a single row is
// a GEMV, streamed without padding or packing.
constexpr Tile kCpuTile = {4, 16};
// Rows up to which the 16-row tiles are tried: past 64 a 64-row tile wastes no more than they.
constexpr double kSmallRowTileLimit = 64;
constexpr Tile kCpuGemvTile = {1, 16};

// The K depth a tile steps by; a split-K slice is a whole number of steps, and is not split
// below kMinSliceK (the partial sums would cost more than the parallelism gains).
constexpr double kStepK = 64;
constexpr double kMinSliceK = 256;
constexpr int kMaxSplitK = 16;
constexpr double kPartialSumBytes = 4;  // split-K partials are kept in fp32

// What partial sums are read back at: the L2's bandwidth, else main memory's; one unit summing
// them alone gets an even share of it.
double l2_bytes_per_s(const GemmMachine& machine) {
  return machine.l2_feed_bytes_per_s > 0 ? machine.l2_feed_bytes_per_s
                                         : machine.bandwidth_bytes_per_s;
}

// The partials of a stream-K tile that its units share are summed by the one that finishes it
// (Osama et al., "Stream-K", PPoPP 2023: it waits for its peers' partial tiles in the workspace,
// reads and adds them), one after the other: fewer tiles than units are each shared by
// units / tiles of them; more, and only a tile split across the end of a unit's share is
// shared, by two.
double stream_k_fixup_s(double tiles, Tile t, const GemmMachine& machine) {
  double sharers = 1;
  if (tiles < machine.units) {
    sharers = std::ceil(machine.units / tiles);
  } else if (std::fmod(tiles, machine.units) != 0) {
    sharers = 2;
  }
  return (sharers - 1) * t.m * t.n * kPartialSumBytes / (l2_bytes_per_s(machine) / machine.units);
}

// Split-K's partial products are summed by a second kernel after the GEMM (CUTLASS's
// GemmSplitKParallel runs reduction::kernel::ReduceSplitK; cuBLASLt's out-of-place reduction
// schemes its splitKreduce_kernel): that kernel's floor, and the partials read from L2.
double split_k_reduction_s(const GemmShape& s, int split, const GemmMachine& machine) {
  if (split <= 1) return 0;
  return machine.kernel_floor_s +
         s.batch * s.m * s.n * split * kPartialSumBytes / l2_bytes_per_s(machine);
}
// K steps a tile spends filling its pipeline before the first MMA: CUTLASS's multistage
// mainloop issues Stages - 1 loads ahead, with 3 stages in its default Ampere kernels.
constexpr double kPipelineFillSteps = 2;

// How the work is shared out over the units: whole tiles (data-parallel, optionally split-K,
// in waves), or stream-K, which deals the K steps of all tiles out evenly, so no wave is part
// empty, at the cost of fixing up the tiles split between units.
enum class Decomposition { tiles, stream_k };

// How many tiles lie along each dimension of the output: a cluster lines up along one of them.
struct TileGrid {
  double m, n;
};
// So many of them that a cluster lines up along either.
constexpr TileGrid kWideGrid = {1e9, 1e9};

// FLOP per byte a tile does for what it draws from L2: 2 tm tn per (tm + tn) elements a step,
// less what a cluster of `multicast` tiles in a line shares. Lined up along M they all need the
// same columns of B, each receiving the tn the L2 sent once for all of them; along N, the same
// rows of A. The library lines them up along whichever dimension saves more and has the tiles.
// The tensor cores multiply the whole tile, but a tile of a product with fewer rows (or columns)
// than it draws only those: the loads past the matrix's edge are masked (TMA fills them with
// zeros without reading, cp.async's predicated copies issue none), so `inside` is what it draws.
double tile_intensity(Tile t, TileExtent inside, double element_bytes, TileGrid grid,
                      double multicast) {
  double drawn = inside.m + inside.n;
  if (multicast > 1 && grid.m >= multicast)
    drawn = std::min(drawn, inside.m + inside.n / multicast);
  if (multicast > 1 && grid.n >= multicast)
    drawn = std::min(drawn, inside.m / multicast + inside.n);
  return 2.0 * t.m * t.n / (drawn * element_bytes);
}

// The rows and columns of tile `t` that lie inside a product of `m` rows and `n` columns (a
// grouped product's rows a group on average: a group that gets any draws at least one).
TileExtent inside_of(Tile t, double m, double n) {
  return {std::min<double>(t.m, std::max(1.0, m)), std::min<double>(t.n, std::max(1.0, n))};
}

// The share of the achievable rate a tile keeps when L2 cannot feed it, relative to the largest
// tile: the calibration's rate is what the largest tiles reach, so only smaller tiles lose.
// `element_bytes` is what the operands occupy on average (4-bit weights feed twice as many
// elements per byte as 8-bit ones).
double feed_efficiency(Tile t, TileExtent inside, double element_bytes, TileGrid grid,
                       const GemmMachine& machine) {
  if (machine.l2_feed_bytes_per_s <= 0) return 1;
  const double needed_per_intensity = machine.rate_flops_per_s / machine.l2_feed_bytes_per_s;
  const auto fed = [&](Tile x, TileExtent drawn, TileGrid g) {
    return std::min(
        1.0, tile_intensity(x, drawn, element_bytes, g, machine.multicast) / needed_per_intensity);
  };
  return fed(t, inside, grid) / fed(kLargestTile, kLargestExtent, kWideGrid);
}

// Main-memory traffic in elements of one product: each wave of tiles reads the rows of A and
// the columns of B it covers, unless A and B together stay in (half) the L2 between waves.
double traffic_elements(const GemmShape& s, Tile t, double tiles_m, double tiles_n,
                        const GemmMachine& machine, double element_bytes) {
  const double ideal = s.m * s.k + s.k * s.n + s.m * s.n;
  if ((s.m * s.k + s.k * s.n) * element_bytes <= machine.l2_bytes / 2) return ideal;
  const double tiles = tiles_m * tiles_n;
  const double per_wave = std::min<double>(machine.units, tiles);
  const double wave_m = std::min(tiles_m, std::ceil(std::sqrt(per_wave)));
  const double wave_n = std::min(tiles_n, std::ceil(per_wave / wave_m));
  const double waves = std::ceil(tiles / per_wave);
  // Rows and columns past the matrix's edge are masked, never read.
  const double rows = std::min<double>(wave_m * t.m, s.m);
  const double columns = std::min<double>(wave_n * t.n, s.n);
  const double rereads = waves * (rows + columns) * s.k + s.m * s.n;
  return std::max(ideal, rereads);
}

// How many of an SM's tiles start a group other than its last tile's, in CUTLASS's grouped
// scheduler (PersistentTileSchedulerSm90Group, which its SM100 kernels share): the tiles of
// every group in order, group after group, and each persistent block taking every `units`-th.
// Where a group has no more tiles than there are SMs, each of an SM's tiles is another group's;
// where it has more, an SM's run of `waves` tiles spans so many groups, the first included.
double group_switches_per_unit(double waves, double tiles_per_group, const GemmMachine& machine) {
  return std::min(waves, std::ceil(waves * machine.units / tiles_per_group));
}

// A grouped kernel's SM, pipelined, issues a tile's loads and then readies the next tile's while
// they stream; where the next is another group's, readying it means rewriting and fencing the
// TMA descriptors, and its loads wait on that. A tile then takes the longer of its own stream
// (its wave's share of the memory time) and the switch.
double group_switch_stall_s(const GemmTiling& g, double tiles_per_group,
                            const GemmMachine& machine) {
  if (machine.group_switch_s <= 0 || g.waves <= 0) return 0;
  const double tile_stream_s = g.memory_time_s / g.waves;
  return group_switches_per_unit(g.waves, tiles_per_group, machine) *
         std::max(0.0, machine.group_switch_s - tile_stream_s);
}

// Split K only while the tiles leave units idle and each slice keeps its depth. CUTLASS's
// grouped kernels deal whole tiles out: their scheduler splits no K.
int useful_split_k(const GemmShape& shape, double tiles, const GemmMachine& machine) {
  if (shape.grouped != GroupedKernel::none) return 1;
  return static_cast<int>(
      std::min<double>({kMaxSplitK, std::max(1.0, std::floor(machine.units / tiles)),
                        std::max(1.0, std::floor(shape.k / kMinSliceK))}));
}

GemmTiling price(const GemmShape& s, Tile t, int split, Decomposition how, double ideal_bytes,
                 const GemmMachine& machine) {
  GemmTiling g;
  g.tile_m = t.m;
  g.tile_n = t.n;
  g.split_k = split;
  g.stream_k = how == Decomposition::stream_k;
  g.overlap_exponent = machine.overlap_exponent;
  const double tiles_m = std::ceil(s.m / t.m);
  const double tiles_n = std::ceil(s.n / t.n);
  const double tiles = s.batch * tiles_m * tiles_n;
  const double ideal_elements = s.batch * (s.m * s.k + s.k * s.n + s.m * s.n);
  const double bytes_per_element = ideal_bytes / ideal_elements;
  const double step_time =
      2.0 * t.m * t.n * kStepK /
      (machine.rate_flops_per_s / machine.units *
       feed_efficiency(t, inside_of(t, s.m, s.n), bytes_per_element, {tiles_m, tiles_n}, machine));
  // A configured kernel's MMAs run whole steps of its own depth, the last one's tail zero-filled.
  g.configured_tile_k = s.configured_tile ? s.configured_tile->k : 0;
  const double step_k = g.configured_tile_k;
  const double multiplied_k = step_k > 0 ? std::ceil(s.k / step_k) * step_k : s.k;
  const double steps_per_slice = std::ceil(multiplied_k / split / kStepK) + kPipelineFillSteps;
  double partials = 0;
  if (g.stream_k) {
    // Every unit gets the same share of all tiles' steps; the tiles they share are fixed up.
    g.waves = tiles / machine.units;  // fractional: no wave is part empty
    g.wave_fill = 1;
    g.compute_time_s = tiles * steps_per_slice / machine.units * step_time;
    g.reduction_time_s = stream_k_fixup_s(tiles, t, machine);
    partials = tiles > machine.units ? 0 : 2.0 * machine.units * t.m * t.n * kPartialSumBytes;
  } else {
    const double work_units = tiles * split;
    g.waves = std::ceil(work_units / machine.units);
    g.wave_fill = work_units / (g.waves * machine.units);
    g.compute_time_s = g.waves * steps_per_slice * step_time;
    partials = split > 1 ? 2.0 * s.batch * s.m * s.n * split * kPartialSumBytes : 0;
    g.reduction_time_s = split_k_reduction_s(s, split, machine);
  }
  g.traffic_bytes = s.batch * bytes_per_element *
                    traffic_elements(s, t, tiles_m, tiles_n, machine, bytes_per_element);
  if (partials > machine.l2_bytes / 2) g.traffic_bytes += partials;
  g.memory_time_s = g.traffic_bytes / machine.bandwidth_bytes_per_s;
  if (s.grouped != GroupedKernel::none) {
    g.group_switch_time_s = group_switch_stall_s(g, tiles_m * tiles_n, machine);
    g.memory_time_s += g.group_switch_time_s;
  }
  // The last wave's output tiles are stored after their products finish, with nothing left to
  // run beside them (earlier waves' stores hide under the next wave's loads and products).
  const double last_wave_outputs =
      std::min(std::min<double>(tiles, machine.units) * t.m * t.n, s.batch * s.m * s.n);
  g.epilogue_time_s = last_wave_outputs * bytes_per_element / machine.bandwidth_bytes_per_s;
  return g;
}

}  // namespace

std::string GemmTiling::describe() const {
  if (fixed_tile_k > 0)
    return fmt::format("the kernel's own tile {}x{} stepping {} deep, {:.2f} tiles an SM", tile_m,
                       tile_n, fixed_tile_k, waves);
  if (cpu_packing)
    return fmt::format("BLAS register tile {}x{}, operands packed first", tile_m, tile_n);
  if (stream_k) return fmt::format("tile {}x{}, stream-k over {:.2f} waves", tile_m, tile_n, waves);
  if (configured_tile_k > 0)
    return fmt::format("the configured tile {}x{}x{}, K unsplit, {} wave{} ({:.0f}% full)", tile_m,
                       tile_n, configured_tile_k, waves, waves == 1 ? "" : "s", 100 * wave_fill);
  std::string text = fmt::format("tile {}x{}, split-k {}, {} wave{} ({:.0f}% full)", tile_m, tile_n,
                                 split_k, waves, waves == 1 ? "" : "s", 100 * wave_fill);
  if (group_switch_time_s > 0)
    text += fmt::format(", {:.3g} us waiting at changes of group", 1e6 * group_switch_time_s);
  return text;
}

// A CPU BLAS call: threads share the register tiles out (no split-K, no waves to speak of); a
// GEMM first packs A and B into panels, reading and writing each once, then computes.
GemmTiling cpu_tiling(const GemmShape& s, double ideal_bytes, const GemmMachine& machine) {
  const bool gemv = s.m == 1;
  const Tile t = gemv ? kCpuGemvTile : kCpuTile;
  GemmTiling g;
  g.tile_m = t.m;
  g.tile_n = t.n;
  const double tiles = s.batch * std::ceil(s.m / t.m) * std::ceil(s.n / t.n);
  g.waves = std::ceil(tiles / machine.units);
  g.wave_fill = tiles / (g.waves * machine.units);
  g.compute_time_s = g.waves * machine.units * 2.0 * t.m * t.n * s.k / machine.rate_flops_per_s;
  const double ideal_elements = s.batch * (s.m * s.k + s.k * s.n + s.m * s.n);
  const double bytes_per_element = ideal_bytes / ideal_elements;
  const double packed = s.batch * (s.m * s.k + s.k * s.n) * bytes_per_element;
  g.traffic_bytes = gemv ? ideal_bytes : 2 * packed + s.batch * s.m * s.n * bytes_per_element;
  g.memory_time_s = g.traffic_bytes / machine.bandwidth_bytes_per_s;
  g.sequential = !gemv;
  g.cpu_packing = !gemv;
  return g;
}

GemmTiling fixed_tiling(const GemmShape& shape, double ideal_bytes, const GemmMachine& machine,
                        double step_s) {
  const FixedTile& t = *shape.fixed_tile;
  GemmTiling g;
  g.tile_m = static_cast<int>(t.m);
  g.tile_n = static_cast<int>(t.n);
  g.fixed_tile_k = t.k;
  g.overlap_exponent = machine.overlap_exponent;
  const double tiles = t.row_tiles * std::ceil(shape.n / t.n);
  const double steps_per_tile = std::ceil(shape.k / t.k);
  g.waves = tiles / machine.units;  // fractional: an SM holds several of the tiles at once
  g.compute_time_s = std::max(g.waves, 1.0) * steps_per_tile * step_s;
  g.traffic_bytes = ideal_bytes;
  g.memory_time_s = g.traffic_bytes / machine.bandwidth_bytes_per_s;
  return g;
}

GemmTiling best_tiling(const GemmShape& shape, double ideal_bytes, const GemmMachine& machine) {
  if (machine.cpu) return cpu_tiling(shape, ideal_bytes, machine);
  if (const auto& c = shape.configured_tile)
    return price(shape, {c->m, c->n}, 1, Decomposition::tiles, ideal_bytes, machine);
  GemmTiling best;
  double best_time_s = 0;
  bool first = true;
  for (const Tile t : kTiles) {
    // The libraries keep the small-M kernels for products of few rows.
    if (t.m < 64 && shape.m > kSmallRowTileLimit) continue;
    const double tiles = shape.batch * std::ceil(shape.m / t.m) * std::ceil(shape.n / t.n);
    const int useful = useful_split_k(shape, tiles, machine);
    // The fastest; among equally fast ones (a bandwidth-bound product), the least compute. A
    // tiling whose larger part alone is slower than the best, or no part of which is shorter
    // than the best's, cannot win, and its overlapped time (two powers) is not worked out.
    const auto consider = [&](const GemmTiling& g) {
      if (!first && (g.lower_time_s() > best_time_s * (1 + 1e-9) || g.no_better_than(best))) return;
      const double time_s = g.time_s();
      const bool faster = time_s < best_time_s * (1 - 1e-9);
      const bool as_fast = !faster && time_s <= best_time_s * (1 + 1e-9);
      if (first || faster || (as_fast && g.compute_time_s < best.compute_time_s)) {
        best = g;
        best_time_s = time_s;
      }
      first = false;
    };
    // Split factors as the libraries offer them: powers of two, and the one that fills the units.
    for (int split = 1; split < useful; split *= 2)
      consider(price(shape, t, split, Decomposition::tiles, ideal_bytes, machine));
    consider(price(shape, t, useful, Decomposition::tiles, ideal_bytes, machine));
    if (machine.stream_k && shape.grouped == GroupedKernel::none)
      consider(price(shape, t, 1, Decomposition::stream_k, ideal_bytes, machine));
  }
  return best;
}

}  // namespace ridge::predict
