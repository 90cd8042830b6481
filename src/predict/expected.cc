#include "ridge/expected.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <vector>

#include "ops/triton_moe.h"
#include "predict/flash_decode.h"
#include "predict/flash_mla.h"
#include "predict/gemm_tiles.h"
#include "predict/mmha_decode.h"
#include "predict/trtllm_allreduce.h"
#include "predict/trtllm_gen_mla.h"
#include "ridge/bounds.h"
#include "ridge/collective.h"
#include "ridge/units.h"

namespace ridge {

namespace {

// FlashAttention kernels tile the queries by 128 rows a block and the keys by 128 a step
// (FlashAttention-2 and -3 at head dimension 128), one block an SM at a time.
constexpr double kAttentionTile = 128;

// Where part of a kernel's data is in the L2 and the rest in main memory: the L2's share of its
// bytes and the rate of each level. A share of 0: every byte from main memory.
struct LevelSplit {
  double l2_share = 0;
  double main_bytes_per_s = 0;
  double l2_bytes_per_s = 0;
};

struct Achievable {
  double rate_flops_per_s = 0;
  double bandwidth_bytes_per_s = 0;  // the levels' together
  LevelSplit levels;
  double floor_s = 0;
  double overlap_exponent = 0;  // overlapped_time_s; 0: the larger part alone
  std::string cache_level;      // the cache the data stays in, when not main memory
  bool describe = true;         // ExpectOptions::describe
};

struct LevelBandwidth {
  double bytes_per_s = 0;
  std::string cache_level;  // empty: main memory
  LevelSplit levels;
};

// The share of main memory's rate `op` streams at: a GEMM's at the calibration's GEMM share where
// it gives one, CUTLASS's plain grouped kernel's and the latent attention's decode kernel's at
// their own where it gives those; any other streaming kernel's at the calibration's streaming
// share.
const Figure& main_memory_share(const Op& op, const Calibration& c) {
  if (op.attention_shape && op.attention_shape->values_in_keys &&
      c.latent_decode_bandwidth_efficiency)
    return *c.latent_decode_bandwidth_efficiency;
  if (!op.gemm_shape) return c.bandwidth_efficiency;
  if (op.gemm_shape->grouped == GroupedKernel::plain && c.grouped_gemm_bandwidth_efficiency)
    return *c.grouped_gemm_bandwidth_efficiency;
  return c.gemm_bandwidth_efficiency ? *c.gemm_bandwidth_efficiency : c.bandwidth_efficiency;
}

// On a measured CPU the data of a kernel called again and again stays in the smallest cache it
// fits (the timing harness, and a server's loop, call it on the same buffers): its bandwidth is
// that level's, as measured. A GPU's figures are for data in device memory (benchmarks flush the
// L2 between runs, and a model's layers each read their own weights), so its main-memory
// bandwidth serves, unless the caller says part of the data stays in the L2 (`l2_hit_share`: a
// benchmark that replays the kernel on buffers the L2 holds); that part then moves at the
// calibration's L2 rate, where it has one, and the two parts one after the other. Main memory
// serves each kind of kernel at its own share (main_memory_share).
LevelBandwidth bandwidth_for(const Op& op, const Device& device, const Calibration& c,
                             double l2_hit_share) {
  const Figure& share = main_memory_share(op, c);
  const LevelBandwidth main{share.value * device.main_bandwidth_bytes_per_s(), "", {}};
  if (!device.is_cpu()) {
    if (l2_hit_share <= 0 || !c.l2_bandwidth_bytes_per_s) return main;
    const MemoryLevel* l2 = device.shared_cache();
    if (!l2) return main;
    const double seconds_per_byte =
        l2_hit_share / c.l2_bandwidth_bytes_per_s->value + (1 - l2_hit_share) / main.bytes_per_s;
    return {1 / seconds_per_byte,
            l2_hit_share >= 1 ? l2->name : "",
            {l2_hit_share, main.bytes_per_s, c.l2_bandwidth_bytes_per_s->value}};
  }
  if (!c.measured) return main;
  const double units = device.compute_units_or_one();
  for (const MemoryLevel& level : device.memory) {
    if (level.kind != MemoryKind::cache || !level.capacity_bytes || !level.bandwidth_bytes_per_s)
      continue;
    const double capacity = level.capacity_bytes->value * (level.scope == Scope::unit ? units : 1);
    if (op.bytes <= capacity && level.bandwidth_bytes_per_s->value > main.bytes_per_s)
      return {level.bandwidth_bytes_per_s->value, level.name, {}};
  }
  return main;
}

// What a kernel of `op` reaches at a compute rate: the bandwidth of the level its data is in, and
// the fixed cost of its kernels (Op::kernels) launched so.
Achievable achievable_at(const Op& op, const Device& device, double rate_flops_per_s,
                         const Calibration& c, KernelLaunch launch, double l2_hit_share = 0) {
  const LevelBandwidth bandwidth = bandwidth_for(op, device, c, l2_hit_share);
  return {rate_flops_per_s,
          bandwidth.bytes_per_s,
          bandwidth.levels,
          op.kernels() * kernel_fixed_cost_s(c, launch),
          c.overlap_exponent ? c.overlap_exponent->value : 0,
          bandwidth.cache_level};
}

// The same at the calibration's share of the device's peak.
Achievable achievable(const Op& op, const Device& device, Precision precision, const Calibration& c,
                      const ExpectOptions& options) {
  Achievable a = achievable_at(
      op, device, c.compute_efficiency.at(precision).value * device.peak(precision).value, c,
      options.launch, options.l2_hit_share);
  a.bandwidth_bytes_per_s *= options.bandwidth_share;
  a.levels.main_bytes_per_s *= options.bandwidth_share;
  a.levels.l2_bytes_per_s *= options.bandwidth_share;
  a.describe = options.describe;
  return a;
}

// A measured GEMM as the operation it timed.
Op op_of(const MeasuredGemm& g) {
  const GemmShape& s = g.shape;
  return gemm(s.m, s.n, s.k, bytes_per_element(g.precision), s.batch);
}

double cache_bytes(const Device& device) {
  const MemoryLevel* cache = device.shared_cache();
  return cache ? cache->capacity_bytes->value : 0;
}

// The floor, the compute and memory parts as `work_s` (overlapped, or for a CPU BLAS one after
// the other: it packs its operands before its kernel runs), and a GEMM's epilogue.
ExpectedTime finish(ExpectedTime e, const Achievable& a, double work_s) {
  e.fixed_time_s = a.floor_s;
  e.time_s = a.floor_s + work_s + e.epilogue_time_s;
  if (e.fixed_time_s >= work_s) {
    e.limiter = "fixed";
  } else {
    e.limiter = e.compute_time_s >= e.memory_time_s ? "compute" : "memory";
  }
  return e;
}

// The share of the SMs busy over `compute_s` with work that takes `whole_part_s` on all of them.
double busy_share(double whole_part_s, double compute_s) {
  return compute_s > 0 ? std::min(1.0, whole_part_s / compute_s) : 1;
}

// A kernel's compute and memory parts, overlapped as the calibration says.
double overlapped_work_s(const ExpectedTime& e, const Achievable& a) {
  return overlapped_time_s(e.compute_time_s, e.memory_time_s, a.overlap_exponent);
}

// What an SM takes for each K step of the shape's own fixed tile, where the calibration says:
// vLLM's Triton fused-MoE kernel at either of its default tiles.
std::optional<double> fixed_tile_step_s(const GemmShape& shape, const Calibration& c) {
  if (!shape.fixed_tile) return std::nullopt;
  const std::optional<Figure>* step = nullptr;
  if (same_tile(*shape.fixed_tile, kTritonMoeTile)) step = &c.triton_moe_step_s;
  if (same_tile(*shape.fixed_tile, kTritonMoeSmallTile)) step = &c.triton_moe_small_step_s;
  if (!step || !*step) return std::nullopt;
  return (*step)->value;
}

ExpectedTime modelled_gemm_time(const Op& op, const Device& device, const Calibration& c,
                                const Achievable& a) {
  predict::GemmMachine machine;
  machine.units = device.compute_units_or_one();
  machine.rate_flops_per_s = a.rate_flops_per_s;
  machine.bandwidth_bytes_per_s = a.bandwidth_bytes_per_s;
  machine.l2_bytes = cache_bytes(device);
  machine.l2_feed_bytes_per_s = c.l2_bandwidth_bytes_per_s ? c.l2_bandwidth_bytes_per_s->value : 0;
  machine.cpu = device.is_cpu();
  machine.stream_k = !c.gemm_stream_k || c.gemm_stream_k->holds;
  machine.multicast = c.gemm_multicast ? c.gemm_multicast->value : 1;
  machine.overlap_exponent = a.overlap_exponent;
  machine.kernel_floor_s = a.floor_s;
  if (c.gemm_descriptor_switch_s)
    machine.group_switch_s = op.gemm_shape->group_descriptors() * c.gemm_descriptor_switch_s->value;
  const std::optional<double> fixed_step_s = fixed_tile_step_s(*op.gemm_shape, c);
  const predict::GemmTiling t =
      fixed_step_s ? predict::fixed_tiling(*op.gemm_shape, op.bytes, machine, *fixed_step_s)
                   : predict::best_tiling(*op.gemm_shape, op.bytes, machine);
  ExpectedTime e;
  e.compute_time_s = t.compute_time_s;
  e.busy_share = busy_share(op.flops / a.rate_flops_per_s, e.compute_time_s);
  e.memory_time_s = t.memory_time_s;
  e.epilogue_time_s = t.after_time_s();
  if (a.describe) e.detail = t.describe();
  return finish(e, a, t.work_time_s());
}

// The measured sweep at one precision, and whether a shape lies inside it on every axis: m, n,
// k and the groups of a batched product.
struct Sweep {
  std::vector<const CalibratedGemm*> points;
  GemmShape low, high;

  bool contains(const GemmShape& s) const {
    return s.m >= low.m && s.m <= high.m && s.n >= low.n && s.n <= high.n && s.k >= low.k &&
           s.k <= high.k && s.batch >= low.batch && s.batch <= high.batch;
  }
  std::string range() const {
    std::string text =
        fmt::format("m {}-{}, n {}-{}, k {}-{}", low.m, high.m, low.n, high.n, low.k, high.k);
    if (high.batch > 1) text += fmt::format(", groups {}-{}", low.batch, high.batch);
    return text;
  }
};

Sweep sweep_at(const Calibration& c, Precision precision) {
  Sweep sweep;
  for (const CalibratedGemm& g : c.measured_gemms) {
    if (g.gemm.precision != precision) continue;
    const GemmShape& s = g.gemm.shape;
    if (sweep.points.empty()) sweep.low = sweep.high = s;
    sweep.points.push_back(&g);
    sweep.low = {std::min(sweep.low.m, s.m), std::min(sweep.low.n, s.n), std::min(sweep.low.k, s.k),
                 std::min(sweep.low.batch, s.batch)};
    sweep.high = {std::max(sweep.high.m, s.m), std::max(sweep.high.n, s.n),
                  std::max(sweep.high.k, s.k), std::max(sweep.high.batch, s.batch)};
  }
  return sweep;
}

// Squared distance in log2 of (m, n, k, groups): a shape twice another's on one axis is 1 away.
double log_distance2(const GemmShape& a, const GemmShape& b) {
  const auto axis = [](double x, double y) { return std::pow(std::log2(x / y), 2); };
  return axis(a.m, b.m) + axis(a.n, b.n) + axis(a.k, b.k) + axis(a.batch, b.batch);
}

// Inside the sweep, the model is corrected by what the measured points took against what it
// gives for them: their ratios, weighted by inverse squared distance in log2 of the shape.
double sweep_correction(const GemmShape& shape, const Sweep& sweep) {
  double weights = 0, weighted_log_ratio = 0;
  for (const CalibratedGemm* g : sweep.points) {
    const double d2 = log_distance2(shape, g->gemm.shape);
    if (d2 < 1e-12) return g->measured_over_model;
    weights += 1 / d2;
    weighted_log_ratio += std::log(g->measured_over_model) / d2;
  }
  return std::exp(weighted_log_ratio / weights);
}

bool contains(const GemmShape& outer, const GemmShape& inner) {
  return outer.m >= inner.m && outer.n >= inner.n && outer.k >= inner.k &&
         outer.batch >= inner.batch;
}

// A product does all the work of any product it contains (no larger on any axis): it takes at
// least as long as each measured one it contains, and no longer than each that contains it.
// The correction, interpolated between points the model misses by different amounts, could
// otherwise put it past one of them. A measured shape is its own time, noise and all.
double within_measured_neighbours(const GemmShape& shape, double time_s, const Sweep& sweep) {
  double low = 0, high = time_s;
  for (const CalibratedGemm* g : sweep.points) {
    if (log_distance2(shape, g->gemm.shape) < 1e-12) return g->gemm.seconds;
    if (contains(shape, g->gemm.shape)) low = std::max(low, g->gemm.seconds);
    if (contains(g->gemm.shape, shape)) high = std::min(high, g->gemm.seconds);
  }
  return std::max(low, high);
}

ExpectedTime gemm_time(const Op& op, const Device& device, Precision precision,
                       const Calibration& c, const Achievable& a) {
  ExpectedTime e = modelled_gemm_time(op, device, c, a);
  const Sweep sweep = sweep_at(c, precision);
  // The sweep timed the vendor library's kernels as it picks them, not a kernel with a tile of
  // its own or a configuration the caller fixed.
  if (sweep.points.empty() || fixed_tile_step_s(*op.gemm_shape, c) ||
      op.gemm_shape->configured_tile)
    return e;
  if (!sweep.contains(*op.gemm_shape)) {
    if (a.describe)
      e.detail += fmt::format("; outside the measured sweep ({}): the model alone", sweep.range());
    e.extrapolated = true;
    return e;
  }
  const double correction = sweep_correction(*op.gemm_shape, sweep);
  e.time_s = within_measured_neighbours(*op.gemm_shape, e.time_s * correction, sweep);
  if (a.describe) e.detail += fmt::format("; x{:.2f} from the measured sweep", correction);
  e.extrapolated = false;
  return e;
}

// Share of the spec peak a fused attention kernel reaches at this head dimension: the
// calibration's points at 64, 128 and (where it has one) 256, interpolated between them and
// held outside; at 128, TensorRT-LLM's own where the kernel is its context FMHA and the
// calibration has a figure for it.
double attention_efficiency(const AttentionShape& s, const Calibration& c) {
  const auto between = [&](double low_d, const Figure& low, const Figure& high) {
    const double x = std::clamp((s.d_head - low_d) / low_d, 0.0, 1.0);
    return low.value + x * (high.value - low.value);
  };
  const Figure& at_128 = s.trtllm_fmha && c.attention_trtllm_efficiency_d128
                             ? *c.attention_trtllm_efficiency_d128
                             : c.attention_efficiency_d128;
  if (s.d_head > 128 && c.attention_efficiency_d256)
    return between(128, at_128, *c.attention_efficiency_d256);
  return between(64, c.attention_efficiency_d64, at_128);
}

// How a fused attention kernel's work falls on the SMs, in tiles of queries by keys as its
// kernel cuts them (AttentionTiling below; kAttentionTile both ways unless it says otherwise):
// each block of queries runs on one of the slots the SMs hold and visits the key tiles it attends
// to, a causal block only those up to its own last query, and pays a fixed part beside them.
// The blocks go to the SMs in the grid's order, each SM taking the next block when it frees up:
// the hardware's block dispatch does so for a grid launched whole, and a persistent kernel's
// atomic tile counter (TensorRT-LLM's Hopper FMHA) the same. The grid puts a head's query blocks
// side by side, first to last (FlashAttention-2's grid is (query blocks, batch, heads),
// TensorRT-LLM's Ampere FMHA's (query blocks, heads, batch)), so a causal prompt's blocks, which
// grow from one key tile to all of them, come shortest first and the longest come last, when
// fewer SMs are left to share them. A block may run more than one tile of queries, one a
// warpgroup (TensorRT-LLM's trtllm-gen context kernels on Blackwell run two): it visits the key
// tiles of each. A decode kernel (one query a sequence) splits its keys over blocks instead
// (FlashDecoding, TensorRT-LLM's multi-block mode): its tiles spread evenly.
struct AttentionSchedule {
  double key_tile_span = 1;    // query tiles a key tile spans (its rows over a query tile's)
  double tiles = 0;            // key tiles visited by every query tile of every head and sequence
  double key_tiles = 0;        // the keys' tiles, all of which the last query tile visits
  double groups = 0;           // heads x sequences, each a run of query blocks
  double query_tiles = 0;      // of a group
  double tiles_per_block = 1;  // query tiles each block runs
  double blocks_per_group = 0;
  double past_tiles = 0;  // key tiles before a causal prompt's first query
  bool causal = false;
  bool split_keys = false;   // a decode kernel
  double tile_scores = 0;    // query-key pairs of one tile
  double useful_scores = 0;  // query-key pairs the op counts

  double blocks() const { return groups * blocks_per_group; }

  // The key tiles query tile `j` of its group visits: a causal one those up to its last query.
  double query_tile_keys(double j) const {
    if (!causal || j == query_tiles - 1) return key_tiles;
    return std::min(key_tiles, past_tiles + std::ceil((j + 1) / key_tile_span));
  }

  // The key tiles block `i` of its group visits, over each of its query tiles.
  double block_tiles(double i) const {
    const double first = i * tiles_per_block;
    const double end = std::min(query_tiles, first + tiles_per_block);
    double visited = 0;
    for (double j = first; j < end; ++j) visited += query_tile_keys(j);
    return visited;
  }

  // The key tiles the block that visits the most visits: the group's last.
  double longest_tiles() const { return block_tiles(blocks_per_group - 1); }

  // The kernel's span in tile times, over `units` SMs, each block paying `block_overhead` tile
  // times beyond its tiles.
  double span_tiles(double units, double block_overhead) const {
    const double longest = longest_tiles() + block_overhead;
    const double work = tiles + blocks() * block_overhead;
    if (split_keys) return std::max(longest, std::ceil(work / units - 1e-9));
    if (blocks() <= units) return longest;
    if (blocks() > kSimulatedRounds * units) return std::ceil(blocks() / units) * work / blocks();
    return in_grid_order(units, block_overhead);
  }

 private:
  // Past this many blocks an SM, whole rounds of the mean block serve: within 1% of the
  // schedule on average and 6% at worst (a causal prompt's longest blocks last), never longer,
  // and they cost nothing to work out where a model sweep prices thousands of prompts.
  static constexpr double kSimulatedRounds = 16;

  // Greedy list scheduling: each block, in the grid's order, starts on the SM free first.
  double in_grid_order(double units, double block_overhead) const {
    std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
    for (int unit = 0; unit < static_cast<int>(units); ++unit) free_at.push(0);
    double span = 0;
    for (double group = 0; group < groups; ++group) {
      for (double i = 0; i < blocks_per_group; ++i) {
        const double end = free_at.top() + block_tiles(i) + block_overhead;
        free_at.pop();
        free_at.push(end);
        span = std::max(span, end);
      }
    }
    return span;
  }
};

// How a prompt's kernel tiles its work: the rows of a query tile and of a key tile, the query
// tiles a block runs and the blocks an SM runs at once.
struct AttentionTiling {
  double query_rows = kAttentionTile;
  double key_rows = kAttentionTile;
  double tiles_per_block = 1;
  double blocks_per_sm = 1;
};

// The key tiles the first `n` query tiles of a causal prompt visit beyond the past's, where a
// key tile spans `m` query tiles (a whole number in every tiling here): tile j reaches
// ceil((j + 1) / m) of them, so m tiles reach each count in turn.
double causal_key_tiles(double n, double m) {
  const double whole = std::floor(n / m);
  return m * whole * (whole + 1) / 2 + (n - whole * m) * (whole + 1);
}

AttentionSchedule schedule_of(const AttentionShape& s, const AttentionTiling& tiling) {
  const double past = std::max(0.0, s.keys() - s.seq);
  const double query_tiles = std::ceil(s.seq / tiling.query_rows);
  AttentionSchedule a;
  a.key_tile_span = tiling.key_rows / tiling.query_rows;
  a.groups = s.batch * s.heads;
  a.query_tiles = query_tiles;
  a.tiles_per_block = tiling.tiles_per_block;
  a.blocks_per_group = std::ceil(query_tiles / tiling.tiles_per_block);
  a.tile_scores = std::min(s.seq, tiling.query_rows) * tiling.key_rows;
  a.useful_scores = s.batch * s.heads * s.scores();
  a.key_tiles = std::ceil(s.keys() / tiling.key_rows);
  a.past_tiles = std::ceil(past / tiling.key_rows);
  a.causal = s.causal;
  double per_head = query_tiles * a.key_tiles;
  if (s.seq <= 1) {
    // Split over the keys: no block is longer than a tile.
    a.split_keys = true;
    a.key_tiles = 1;
    a.tiles_per_block = 1;
    a.blocks_per_group = 1;
  } else if (s.causal) {
    // Query tile j < n - 1 visits the past's tiles and the key tiles up to its last query; the
    // last, every key tile.
    per_head = (query_tiles - 1) * a.past_tiles +
               causal_key_tiles(query_tiles - 1, a.key_tile_span) + a.key_tiles;
  }
  a.tiles = s.batch * s.heads * per_head;
  return a;
}

// How this prompt's kernel tiles it: TensorRT-LLM's context FMHA runs the calibration's count of
// query tiles a block where it gives one; FlashAttention-2's split-KV kernel, which vLLM's paged
// cache forces on it (mha_varlen_fwd: run_mha_fwd(params, stream, paged_KV)), blocks of 64 query
// rows stepping over its key block (kBlockM and kBlockN of run_mha_fwd_splitkv_dispatch), as
// many to an SM as its shared memory holds, each at that share of the SM's rate, alone on its
// SM or not; else FlashAttention's 128 by 128, one to an SM.
AttentionTiling tiling_of(const AttentionShape& s, const Device& device, const Calibration& c) {
  AttentionTiling t;
  if (s.trtllm_fmha && c.attention_trtllm_query_tiles)
    t.tiles_per_block = c.attention_trtllm_query_tiles->value;
  if (s.flash2_split_kv && s.seq > 1) {
    t.query_rows = predict::flash2_query_rows();
    t.key_rows = predict::flash2_key_block(s.d_head);
    t.blocks_per_sm = predict::flash2_blocks_per_sm(device, s.d_head);
  }
  return t;
}

// How TensorRT-LLM splits a decode kernel's keys over blocks (computeMultiBlockCount in
// cpp/tensorrt_llm/kernels/decoderMaskedMultiheadAttention/decoderXQAImplCommon.h, its constants
// kMinHistoryTokensPerBlock = 128 and kTargetWaveFactor = 8 in decoderXQAConstants.h): a
// block for each 128 keys, no more than sqrt(8 n) for n such chunks (so the blocks' reduction
// stays small), fewer where the grid would pass 8 waves over the SMs, and no more sub-sequences
// than its workspace holds (6,000 over the batch).
double decode_blocks_per_sequence(double keys, double sequences, double pairs, double units) {
  constexpr double kMinKeysPerBlock = 128, kTargetWaves = 8, kMaxSubSequences = 6000;
  double blocks = std::floor(keys / kMinKeysPerBlock);
  blocks = std::max(1.0, std::min(blocks, std::round(std::sqrt(blocks * 8))));
  const double waves = pairs * blocks / units;
  if (waves > kTargetWaves) blocks = std::floor(blocks / (waves / kTargetWaves));
  return std::max(1.0, std::min(blocks, std::floor(kMaxSubSequences / sequences)));
}

// A decode kernel as its blocks run: one group of blocks for each sequence and K/V head, the keys
// split over them, the blocks in waves over the SMs, each paying the calibration's cost a block
// and streaming its bytes at an SM's share of the bandwidth.
struct DecodeBlocks {
  double blocks = 0;
  double keys_per_block = 0;
  double slots = 0;  // blocks that run at once
  double waves = 0;
  double memory_time_s = 0;
  double overhead_time_s = 0;
};

// `per_pair` blocks for each of `pairs` (a sequence and the head its blocks read K and V for),
// each taking that share of its keys; `slots` blocks run at once, each streaming at that share
// of the bandwidth.
DecodeBlocks decode_blocks(const AttentionShape& s, double pairs, double per_pair, double slots,
                           double bytes, double bandwidth_bytes_per_s, double block_overhead_s) {
  DecodeBlocks d;
  d.blocks = pairs * per_pair;
  d.keys_per_block = s.keys() / per_pair;
  d.slots = slots;
  d.waves = std::ceil(d.blocks / slots);
  d.memory_time_s = d.waves * (bytes / d.blocks) / (bandwidth_bytes_per_s / slots);
  d.overhead_time_s = d.waves * block_overhead_s;
  return d;
}

// What one SM reads from memory at most in a kernel that only streams its inputs in: the
// calibration's rate an SM in such a kernel, else its rate in a copy; the whole part's where it
// has neither.
double sm_read_bytes_per_s(const Calibration& c, double bandwidth_bytes_per_s) {
  const std::optional<Figure>& per_sm = c.read_streaming_bytes_per_s_per_unit
                                            ? c.read_streaming_bytes_per_s_per_unit
                                            : c.streaming_bytes_per_s_per_unit;
  return per_sm ? per_sm->value : bandwidth_bytes_per_s;
}

// What one of `sharers` CTAs reading the same data side by side reads at most: the first to
// reach each block takes it from memory at an SM's read rate (`sm_bytes_per_s`), the others
// find it in the L2 and take it at an SM's rate from there, where the calibration has one.
double shared_read_bytes_per_s(const Calibration& c, double sm_bytes_per_s, double sharers) {
  if (sharers <= 1 || !c.l2_streaming_bytes_per_s_per_unit) return sm_bytes_per_s;
  const double from_l2 = c.l2_streaming_bytes_per_s_per_unit->value;
  return 1 / (1 / (sharers * sm_bytes_per_s) + (sharers - 1) / (sharers * from_l2));
}

// The rate the L2 serves reads again at: the calibration's for them, else its L2 rate; none where
// it has neither.
const std::optional<Figure>& reread_bandwidth(const Calibration& c) {
  return c.l2_reread_bytes_per_s ? c.l2_reread_bytes_per_s : c.l2_bandwidth_bytes_per_s;
}

// A decode kernel that runs each query head on its own (`kv_reads` > 1: TensorRT-LLM's masked
// MHA kernel before XQA), or each tile of query heads (trtllm-gen's latent kernels on Blackwell),
// reads its keys once for each, but not from memory each time: its grid puts the heads first
// (mmha_launch_kernel_ex: grid{num_heads, batch_size, ...}; trtllm-gen's computeNumCtas: the
// heads' CTAs in Y, the sequences in Z), so the CTAs that share keys start side by side and
// stream them at about the same time, the first from memory and the others from the L2. The
// op's own bytes (`op_bytes`) move at main memory's rate, the reads again at the calibration's
// rate for them (reread_bandwidth) where it has one, the two one after the other: the rate of all
// of them together.
double repeated_kv_bandwidth(const AttentionShape& s, double op_bytes, double main_bytes_per_s,
                             const Calibration& c) {
  const std::optional<Figure>& l2 = reread_bandwidth(c);
  if (s.kv_reads <= 1 || !l2) return main_bytes_per_s;
  const double again = (s.kv_reads - 1) * s.kv_bytes;
  return (op_bytes + again) / (op_bytes / main_bytes_per_s + again / l2->value);
}

// The step as its kernel runs it: where the calibration says DeepSeek's latent attention in
// decode runs trtllm-gen's kernels (and not FlashMLA), its latent cache read once a tile of
// query heads, as TensorRT-LLM's dispatch picks the tiles.
AttentionShape as_run(const AttentionShape& s, const Device& device, const Calibration& c) {
  AttentionShape run = s;
  if (c.attention_trtllm_gen_mla && c.attention_trtllm_gen_mla->holds && !s.flash_mla &&
      s.kv_reads == 1)
    run.kv_reads = predict::trtllm_gen_mla_key_reads(s, device.compute_units_or_one());
  return run;
}

// TensorRT-LLM's masked MHA kernel as it splits a step (mmha_grid): its blocks in waves of as
// many as the SMs hold, each block streaming its share of the keys at the bandwidth's share of
// the blocks running beside it, and no faster than an SM reads (the calibration's rate an SM in
// a kernel that only reads: the cache's keys and values in, one row a head out; a group's blocks
// reading the same keys, each but the first from the L2) shared by the blocks on that SM. A last
// wave of fewer blocks than the SMs holds them one to an SM, each at what one SM reads: what a step
// of few sequences and heads waits for. Each wave pays the calibration's cost a block, as XQA's do.
DecodeBlocks mmha_decode_blocks(const AttentionShape& s, const Device& device, double bytes,
                                double bandwidth_bytes_per_s, const Calibration& c) {
  const double units = device.compute_units_or_one();
  const double pairs = s.batch * s.heads;  // a block reads K and V for its query head
  const predict::MmhaGrid grid = predict::mmha_grid(pairs, s.keys(), units, s.d_head);
  DecodeBlocks d = decode_blocks(s, pairs, grid.per_pair, units * grid.per_sm, bytes,
                                 bandwidth_bytes_per_s, c.attention_decode_block_overhead_s->value);
  const double sm_bytes_per_s =
      shared_read_bytes_per_s(c, sm_read_bytes_per_s(c, bandwidth_bytes_per_s), s.kv_reads);
  const double block_bytes = bytes / d.blocks;
  const auto wave_s = [&](double running) {
    const double on_one_sm = std::ceil(running / units);
    return block_bytes / std::min(bandwidth_bytes_per_s / running, sm_bytes_per_s / on_one_sm);
  };
  const double full_waves = std::floor(d.blocks / d.slots);
  const double last_wave = d.blocks - full_waves * d.slots;
  d.memory_time_s = full_waves * wave_s(d.slots) + (last_wave > 0 ? wave_s(last_wave) : 0);
  return d;
}

// A decode kernel whose keys its blocks deal out (XQA's, FlashAttention-2's split-KV kernel's,
// TensorRT-LLM's masked MHA kernel's), or whose persistent CTAs, one wave of them, share the keys
// evenly (FlashAttention-3's); none for a kernel whose keys spread evenly without such blocks, or
// without the calibration's cost a block.
std::optional<DecodeBlocks> decode_schedule(const AttentionShape& s, const Device& device,
                                            double bytes, double bandwidth_bytes_per_s,
                                            const Calibration& c) {
  if (!c.attention_decode_block_overhead_s || s.seq > 1) return std::nullopt;
  const double units = device.compute_units_or_one();
  const double overhead_s = c.attention_decode_block_overhead_s->value;
  if (s.trtllm_xqa_blocks()) {
    const double per_pair = decode_blocks_per_sequence(s.keys(), s.batch, s.kv_pairs(), units);
    return decode_blocks(s, s.kv_pairs(), per_pair, units, bytes, bandwidth_bytes_per_s,
                         overhead_s);
  }
  if (s.trtllm_mmha_blocks()) return mmha_decode_blocks(s, device, bytes, bandwidth_bytes_per_s, c);
  if (s.flash2_split_blocks()) {
    const double per_pair =
        predict::flash2_decode_splits(s, units) * predict::flash2_query_blocks(s);
    const double slots = units * predict::flash2_blocks_per_sm(device, s.d_head);
    return decode_blocks(s, s.kv_pairs(), per_pair, slots, bytes, bandwidth_bytes_per_s,
                         overhead_s);
  }
  if (s.flash3_persistent_blocks())
    return decode_blocks(s, s.kv_pairs(), units / s.kv_pairs(), units, bytes, bandwidth_bytes_per_s,
                         overhead_s);
  return std::nullopt;
}

// FlashMLA's step (predict::flash_mla_plan): its longest running part's key blocks, each a tile
// of 64 query rows at an SM's share of the rate and its keys read at the part's share of the
// bandwidth (the part's CTAs for more than 64 query rows, side by side in the grid, read the
// same keys, once from memory and again from the L2: shared_read_bytes_per_s), no faster than
// one SM reads, with the partial outputs its CTAs write for the pieces of shared sequences; the
// queries in and outputs out at the whole bandwidth; each split it starts at the calibration's cost
// a decode block (its queries loaded, its softmax reduced); and then the combine kernel
// (flash_fwd_splitkv_mla_combine_kernel), a CTA for each query row of a shared sequence, reading
// its pieces' partial outputs back, no faster than its SMs read.
ExpectedTime flash_mla_time(const Op& op, const Device& device, const Calibration& c,
                            const Achievable& a, double rate_flops_per_s) {
  const AttentionShape& s = *op.attention_shape;
  const double units = device.compute_units_or_one();
  const predict::FlashMlaPlan plan = predict::flash_mla_plan(s, units);
  const double key_element_bytes = s.kv_bytes / (s.batch * s.key_heads() * s.keys() * s.d_head);
  const double sm_bytes_per_s = sm_read_bytes_per_s(c, a.bandwidth_bytes_per_s);
  const double part_bytes_per_s =
      std::min(a.bandwidth_bytes_per_s / plan.busy_parts,
               shared_read_bytes_per_s(c, sm_bytes_per_s, plan.query_blocks));
  const double partial_bytes = predict::flash_mla_partial_bytes(s);
  ExpectedTime e;
  e.compute_time_s =
      plan.key_blocks * predict::flash_mla_tile_flops(s) / (rate_flops_per_s / units);
  e.busy_share = busy_share(op.flops / rate_flops_per_s, e.compute_time_s);
  const double part_bytes =
      plan.key_blocks * predict::flash_mla_tile_key_elements(s) * key_element_bytes +
      plan.partial_splits * partial_bytes / plan.query_blocks;
  e.memory_time_s =
      part_bytes / part_bytes_per_s + (op.bytes - s.kv_bytes) / a.bandwidth_bytes_per_s;
  const double split_s = c.attention_decode_block_overhead_s
                             ? plan.splits * c.attention_decode_block_overhead_s->value
                             : 0;
  const double combine_ctas = plan.split_sequences * s.heads * s.seq;
  const double combine_s =
      combine_ctas > 0
          ? plan.partial_outputs * s.key_heads() * partial_bytes /
                std::min(a.bandwidth_bytes_per_s, std::min(combine_ctas, units) * sm_bytes_per_s)
          : 0;
  if (a.describe) {
    e.detail = fmt::format(
        "FlashMLA: {} parts of the SMs, {} busy, {} query blocks each; the longest part {} key "
        "blocks of 64 in {} split{}",
        plan.parts, plan.busy_parts, plan.query_blocks, plan.key_blocks, plan.splits,
        plan.splits == 1 ? "" : "s");
    if (plan.split_sequences > 0)
      e.detail += fmt::format(
          "; {} sequences shared by parts in {} pieces, whose partial outputs the combine "
          "kernel's {} CTAs read back",
          plan.split_sequences, plan.partial_outputs, combine_ctas);
  }
  return finish(e, a, overlapped_work_s(e, a) + split_s + combine_s);
}

ExpectedTime attention_time(const Op& op, const Device& device, Precision precision,
                            const Calibration& c, const Achievable& a) {
  const AttentionShape s = as_run(*op.attention_shape, device, c);
  const double rate = attention_efficiency(s, c) * device.peak(precision).value;
  if (s.flash_mla_blocks()) return flash_mla_time(op, device, c, a, rate);
  const AttentionTiling tiling = tiling_of(s, device, c);
  // The blocks that run at once; one SM's share of the rate is theirs together.
  const double units = device.compute_units_or_one() * tiling.blocks_per_sm;
  const AttentionSchedule schedule = schedule_of(s, tiling);
  // One tile on one SM: its FLOPs at the SM's share of the rate.
  const double tile_s = op.flops / schedule.useful_scores * schedule.tile_scores / (rate / units);
  ExpectedTime e;
  // A prompt's block pays its fixed part, a time, as so many of this part's tile times, which
  // the schedule counts in. A decode kernel's blocks, each a slice of one query's keys, pay none
  // here: XQA's cost a block is its own figure below.
  const double block_overhead = c.attention_block_overhead_s && !schedule.split_keys
                                    ? c.attention_block_overhead_s->value / tile_s
                                    : 0;
  const double span_tiles = schedule.span_tiles(units, block_overhead);
  e.compute_time_s = span_tiles * tile_s;
  e.busy_share = busy_share(op.flops / rate, e.compute_time_s);
  const double bytes = op.bytes + (s.kv_reads - 1) * s.kv_bytes;
  const double bandwidth = repeated_kv_bandwidth(s, op.bytes, a.bandwidth_bytes_per_s, c);
  e.memory_time_s = bytes / bandwidth;
  if (const auto d = decode_schedule(s, device, bytes, bandwidth, c)) {
    e.memory_time_s = d->memory_time_s;
    if (a.describe)
      e.detail = fmt::format(
          "decode kernel: {} blocks of {:.4g} keys in {} waves of {} over {} SMs, each streaming "
          "at its share of the bandwidth and paying {:.3g} us",
          d->blocks, d->keys_per_block, d->waves, d->slots, units,
          1e6 * c.attention_decode_block_overhead_s->value);
    return finish(e, a, overlapped_work_s(e, a) + d->overhead_time_s);
  }
  if (a.describe) {
    e.detail = fmt::format(
        "flash attention at {:.0f}% of peak: {} blocks visit {} key tiles, the longest {}, "
        "over {} SMs in the grid's order: {:.4g} tile times",
        100 * rate / device.peak(precision).value, schedule.blocks(), schedule.tiles,
        schedule.longest_tiles(), device.compute_units_or_one(), span_tiles);
    if (schedule.tiles_per_block > 1)
      e.detail += fmt::format("; {} query tiles a block", schedule.tiles_per_block);
    if (tiling.query_rows != kAttentionTile || tiling.blocks_per_sm > 1)
      e.detail +=
          fmt::format("; tiles of {} queries by {} keys, {} block{} an SM", tiling.query_rows,
                      tiling.key_rows, tiling.blocks_per_sm, tiling.blocks_per_sm == 1 ? "" : "s");
    if (s.kv_reads > 1)
      e.detail += fmt::format("; {} read once per {} ({}x){}",
                              s.values_in_keys ? "the latent cache" : "K and V",
                              s.values_in_keys ? "tile of query heads" : "query head", s.kv_reads,
                              reread_bandwidth(c) ? ", again from the L2" : "");
  }
  return finish(e, a, overlapped_work_s(e, a));
}

// Launched from the host, a kernel shorter than the launch itself waits for it: the host runs
// ahead of longer ones, so their launches cost nothing.
void wait_for_host(ExpectedTime& e, double host_launch_s) {
  if (host_launch_s <= e.time_s) return;
  e.host_wait_s = host_launch_s - e.time_s;
  e.time_s = host_launch_s;
  e.limiter = "host";
}

// What the SMs of a GPU move together in a streaming kernel, where its calibration says what one
// moves; none (0) on a CPU, without that figure or without a count of SMs.
double streaming_sm_bytes_per_s(const Device& device, const std::optional<Figure>& per_unit) {
  if (device.is_cpu() || !per_unit || !device.compute_units) return 0;
  return device.compute_units_or_one() * per_unit->value;
}

// The seconds a streaming kernel's byte takes where part of its data is in the L2 and the
// calibration says what an SM moves from each level: each byte from its level, at the slower of
// the level and what the SMs move from it. None where it says nothing of the L2.
std::optional<double> seconds_per_byte_by_level(const Achievable& a, const Device& device,
                                                const Calibration& c) {
  const double sm_from_l2 = streaming_sm_bytes_per_s(device, c.l2_streaming_bytes_per_s_per_unit);
  if (a.levels.l2_share <= 0 || sm_from_l2 <= 0) return std::nullopt;
  const double sm_from_main = streaming_sm_bytes_per_s(device, c.streaming_bytes_per_s_per_unit);
  const double main = sm_from_main > 0 ? std::min(a.levels.main_bytes_per_s, sm_from_main)
                                       : a.levels.main_bytes_per_s;
  return a.levels.l2_share / std::min(a.levels.l2_bytes_per_s, sm_from_l2) +
         (1 - a.levels.l2_share) / main;
}

// A grid of small blocks: its blocks go in rounds of as many as the SMs hold, and each round
// waits out a block's life (its launch and its loads one after another) besides moving its
// bytes, so the memory part is the bytes' time and the rounds' lives (small_block_time_s).
void add_block_lives(ExpectedTime& e, const Op& op, const Device& device, const Calibration& c,
                     bool describe) {
  if (!op.block_grid) return;
  const auto lives_s = small_block_time_s(*op.block_grid, device, c);
  if (!lives_s) return;
  e.memory_time_s += *lives_s;
  if (describe)
    e.detail += fmt::format(
        "; {} blocks of {} threads, {} an SM at once over {} SMs, in rounds of a block's life "
        "({}) besides their bytes",
        units::plain(op.block_grid->blocks), units::plain(op.block_grid->threads),
        units::plain(blocks_held_per_unit(*op.block_grid, *c.small_blocks)),
        device.compute_units_or_one(), units::si(c.small_blocks->life_s.value, "s"));
}

// A kernel whose blocks wait on loads one after another (Op::chained_loads): the chain's steps,
// each a round trip to the L2, besides its bytes, since a block moves its row only once it
// knows where it goes.
void add_chained_loads(ExpectedTime& e, const Op& op, const Calibration& c, bool describe) {
  if (op.chained_loads <= 0 || !c.chained_load_s) return;
  e.memory_time_s += op.chained_loads * c.chained_load_s->value;
  if (describe)
    e.detail +=
        fmt::format("; {} loads its blocks wait on one after another, {} each",
                    units::plain(op.chained_loads), units::si(c.chained_load_s->value, "s"));
}

// An element-wise kernel's bytes: at the achievable bandwidth, or, on a part whose memory
// outruns its SMs' loads and stores (the B200's achievable HBM per SM is 1.66 times the H100's),
// at what the SMs move; each level at its own rate where part of the data is in the L2.
void stream_bytes(ExpectedTime& e, const Op& op, const Achievable& a, const Device& device,
                  const Calibration& c) {
  if (const auto by_level = seconds_per_byte_by_level(a, device, c)) {
    e.memory_time_s = op.bytes * *by_level;
    if (a.describe)
      e.detail = fmt::format(
          "streaming kernel, {:.0f}% of its bytes from the L2: each level at the slower of it and "
          "what the {} SMs move from it",
          100 * a.levels.l2_share, device.compute_units_or_one());
    return;
  }
  const double sm_bytes_per_s = streaming_sm_bytes_per_s(device, c.streaming_bytes_per_s_per_unit);
  const bool sm_bound = sm_bytes_per_s > 0 && sm_bytes_per_s < a.bandwidth_bytes_per_s;
  e.memory_time_s = op.bytes / (sm_bound ? sm_bytes_per_s : a.bandwidth_bytes_per_s);
  if (a.describe) {
    e.detail = sm_bound ? fmt::format(
                              "streaming kernel at what its {} SMs move ({}), below the "
                              "achievable bandwidth",
                              device.compute_units_or_one(), units::si(sm_bytes_per_s, "B/s"))
                        : "streaming kernel at the achievable bandwidth";
  }
}

// How much faster an SM's loads come back from the L2 than from main memory, as the calibration's
// element-wise rates per SM from each say; 1 where it does not give both.
double l2_over_main_per_unit(const Calibration& c) {
  if (!c.l2_streaming_bytes_per_s_per_unit || !c.streaming_bytes_per_s_per_unit) return 1;
  return c.l2_streaming_bytes_per_s_per_unit->value / c.streaming_bytes_per_s_per_unit->value;
}

// TensorRT-LLM's per-tensor amax on its fixed grid (Op::fixed_grid_amax), where the calibration
// prices it: the grid's fixed part, which also holds the zeroing of the scale, in place of the
// floor, and the input read at the rate the grid's narrow loads reach, however fast the memory.
// Its loads wait on their round trips, so what the L2 holds of the input comes as much faster as
// an element-wise kernel's loads from the L2 come to an SM.
std::optional<ExpectedTime> fixed_grid_amax_time(const Op& op, Achievable a, const Calibration& c) {
  if (!op.fixed_grid_amax || !c.amax_grid_floor_s) return std::nullopt;
  a.floor_s = c.amax_grid_floor_s->value;
  const double main_rate = c.amax_grid_bytes_per_s->value;
  const double l2_share = a.levels.l2_share;
  ExpectedTime e;
  e.memory_time_s =
      op.bytes * ((1 - l2_share) / main_rate + l2_share / (main_rate * l2_over_main_per_unit(c)));
  if (a.describe)
    e.detail = fmt::format(
        "TensorRT-LLM's amax on its fixed grid of 1024 blocks of 1024 threads: {} fixed, its input "
        "read at {} from main memory, {:.0f}% of it from the L2",
        units::si(a.floor_s, "s"), units::si(main_rate, "B/s"), 100 * l2_share);
  return finish(e, a, e.memory_time_s);
}

// An element-wise kernel: its bytes (stream_bytes), and a grid of small blocks its blocks' lives
// and its blocks' chains of loads besides.
ExpectedTime streaming_time(const Op& op, const Achievable& a, const Device& device,
                            const Calibration& c) {
  if (const auto amax = fixed_grid_amax_time(op, a, c)) return *amax;
  ExpectedTime e;
  e.compute_time_s = op.flops / a.rate_flops_per_s;
  stream_bytes(e, op, a, device, c);
  add_block_lives(e, op, device, c, a.describe);
  add_chained_loads(e, op, c, a.describe);
  return finish(e, a, overlapped_work_s(e, a));
}

}  // namespace

std::optional<ExpectedTime> expected_time(const Op& op, const Device& device, Precision precision,
                                          const Calibration& calibration,
                                          const ExpectOptions& options) {
  if (!calibration.compute_efficiency.contains(precision) || !device.has_peak(precision))
    return std::nullopt;
  const Achievable a = achievable(op, device, precision, calibration, options);
  ExpectedTime e;
  if (op.gemm_shape) {
    e = gemm_time(op, device, precision, calibration, a);
  } else if (op.attention_shape && op.attention_shape->fused) {
    e = attention_time(op, device, precision, calibration, a);
  } else {
    e = streaming_time(op, a, device, calibration);
  }
  wait_for_host(e, op.kernels() * host_launch_interval_s(calibration, options.launch));
  e.extrapolated = e.extrapolated || !calibration.measured;
  if (a.describe && !a.cache_level.empty())
    e.detail += fmt::format("; its data stays in {} between calls", a.cache_level);
  // Every share is at most 1, so this holds by construction: never below the roofline of the
  // memory level the data is in.
  const Ceiling ceiling{device.peak(precision).value,
                        std::max(device.main_bandwidth_bytes_per_s(), a.bandwidth_bytes_per_s)};
  e.time_s = std::max(e.time_s, time_lower_bound_s(op.flops, op.bytes, ceiling));
  return e;
}

double blocks_held_per_unit(const BlockGrid& grid, const SmallBlocks& limits) {
  const double by_threads = std::floor(limits.max_threads_per_unit.value / grid.threads);
  return std::max(1.0, std::min(limits.max_blocks_per_unit.value, by_threads));
}

std::optional<double> small_block_time_s(const BlockGrid& grid, const Device& device,
                                         const Calibration& c) {
  if (!c.small_blocks || !device.compute_units || grid.blocks <= 0 || grid.threads <= 0)
    return std::nullopt;
  const double held = device.compute_units_or_one() * blocks_held_per_unit(grid, *c.small_blocks);
  // The kernel's floor already holds its first round: a kernel however small launches a round of
  // blocks that load and store once. Each later round waits out a life of its own.
  return (std::ceil(grid.blocks / held) - 1) * c.small_blocks->life_s.value;
}

std::optional<Expectation> expect(const Op& op, const Device& device, Precision precision,
                                  const ExpectOptions& options) {
  std::optional<Calibration> calibration = find_calibration(device);
  if (!calibration) return std::nullopt;
  const auto time = expected_time(op, device, precision, *calibration, options);
  if (!time) return std::nullopt;
  return Expectation{*time, std::move(*calibration)};
}

double measured_compute_share(const MeasuredGemm& g, const Device& device, const Calibration& c) {
  const Op op = op_of(g);
  // The model at the full peak (a share of 1), timed alone as the GEMM was.
  const Achievable a =
      achievable_at(op, device, device.peak(g.precision).value, c, KernelLaunch::alone);
  const ExpectedTime at_full_rate = modelled_gemm_time(op, device, c, a);
  // Compute-bound, the rest of the time is the floor (and a CPU's packing, which comes first).
  const double other = at_full_rate.time_s - at_full_rate.compute_time_s;
  if (at_full_rate.limiter != "compute" || g.seconds <= other) return 0;
  return std::min(1.0, at_full_rate.compute_time_s / (g.seconds - other));
}

std::vector<CalibratedGemm> calibrated_gemms(const Device& device, const Calibration& c) {
  std::vector<CalibratedGemm> out;
  for (const MeasuredGemm& g : device.measured_gemms) {
    // A precision with no peak has no model to correct: its points say nothing.
    if (!c.compute_efficiency.contains(g.precision) || !device.has_peak(g.precision)) continue;
    const Op op = op_of(g);
    const Achievable a = achievable(op, device, g.precision, c, {KernelLaunch::alone});
    out.push_back({g, g.seconds / modelled_gemm_time(op, device, c, a).time_s});
  }
  return out;
}

double overlapped_time_s(double compute_s, double memory_s, double exponent) {
  const double larger = std::max(compute_s, memory_s);
  if (exponent <= 0 || larger <= 0) return larger;
  const double ratio = std::min(compute_s, memory_s) / larger;
  // In single precision: a model's parts are not known to seven digits, and it halves the cost
  // of the two powers, which every tiling a GEMM considers pays.
  const float p = static_cast<float>(exponent);
  return larger * std::pow(1 + std::pow(static_cast<float>(ratio), p), 1 / p);
}

double kernel_fixed_cost_s(const Calibration& c, KernelLaunch launch) {
  if (launch == KernelLaunch::alone) return c.kernel_floor_s.value;
  if (launch == KernelLaunch::graph_repeat && c.graph_repeat_floor_s)
    return c.graph_repeat_floor_s->value;
  if (launch == KernelLaunch::graph_chain && c.graph_chain_floor_s)
    return c.graph_chain_floor_s->value;
  return c.graph_kernel_floor_s.value;
}

double host_launch_interval_s(const Calibration& c, KernelLaunch launch) {
  if (launch == KernelLaunch::alone || launch == KernelLaunch::graph ||
      launch == KernelLaunch::graph_repeat || launch == KernelLaunch::graph_chain)
    return 0;
  if (launch == KernelLaunch::python && c.eager_pytorch_op_s) return c.eager_pytorch_op_s->value;
  return c.launch_overhead_s ? c.launch_overhead_s->value : c.kernel_floor_s.value;
}

namespace {

// Weights PyTorch widens on their way into an aten.mm (int8 and fp8, their scales apart).
bool is_torch_8bit_weight(double weight_bits) { return weight_bits > 7 && weight_bits <= 8; }

// Weights tinygemm's int4 kernel reads: 4 to 5 bits, its group scales and zero points included.
bool is_torch_4bit_weight(double weight_bits) { return weight_bits >= 4 && weight_bits <= 5; }

}  // namespace

double weight_read_share(double weight_bits, bool torch_kernels, const Calibration& c) {
  if (!torch_kernels) return 1;
  const std::optional<Figure>* share = nullptr;
  if (is_torch_8bit_weight(weight_bits)) share = &c.torch_weight_only_8bit;
  if (is_torch_4bit_weight(weight_bits)) share = &c.torch_weight_only_4bit;
  return share && *share ? (*share)->value : 1;
}

namespace {

// LL's share of the ring's bus bandwidth, capped; all of it where the profile gives no share.
double ll_bus_bandwidth(double ring_bytes_per_s, const Calibration& c) {
  double bytes_per_s =
      ring_bytes_per_s * (c.collective_ll_bandwidth ? c.collective_ll_bandwidth->value : 1);
  if (c.collective_ll_max_bus_bandwidth)
    bytes_per_s = std::min(bytes_per_s, c.collective_ll_max_bus_bandwidth->value);
  return bytes_per_s;
}

// What the step of each chunk that sends nothing costs, as bytes sent: the calibration's share
// of a rank's 1 / n of the message (Calibration::collective_local_step). A broadcast's chunks
// flow down its ring without such a step.
double local_step_bytes(CollectiveOp op, double bytes, int ranks, const Calibration& c) {
  if (!c.collective_local_step || op == CollectiveOp::broadcast) return 0;
  return c.collective_local_step->value * bytes / ranks;
}

// `bytes` over `steps` on LL, its latencies those the calibration fits.
CollectiveTransfer ll_transfer(double bytes, int steps, double ring_bytes_per_s,
                               const Calibration& c) {
  const double ll_step = c.collective_step_latency_s ? c.collective_step_latency_s->value : 0;
  return {"LL", c.collective_latency_s.value + steps * ll_step +
                    bytes / ll_bus_bandwidth(ring_bytes_per_s, c)};
}

CollectiveTransfer protocol_transfer(double bytes, int steps, double ring_bytes_per_s,
                                     const CollectiveProtocol& p) {
  const double share = p.bandwidth_share ? p.bandwidth_share->value : 1;
  return {p.name,
          p.latency_s.value + steps * p.step_latency_s.value + bytes / (share * ring_bytes_per_s)};
}

double ring_bandwidth(const Link& link, const Calibration& c) {
  return c.link_efficiency.value * link.bandwidth_bytes_per_s.value;
}

}  // namespace

CollectiveTransfer expected_transfer(double bytes, int steps, const Link& link,
                                     const Calibration& c) {
  const double ring = ring_bandwidth(link, c);
  CollectiveTransfer best = ll_transfer(bytes, steps, ring, c);
  for (const CollectiveProtocol& p : c.collective_protocols) {
    const CollectiveTransfer t = protocol_transfer(bytes, steps, ring, p);
    if (t.time_s < best.time_s) best = t;
  }
  return best;
}

// NCCL's NVLink chunk (its Simple protocol's step): a p2p channel carries at least an eighth of
// one to a peer before the next channel opens, and past 32 of them a channel a peer doubles.
constexpr double kNvlinkChunkBytes = 524288;

int p2p_channels_per_peer(double peer_bytes, int ranks, int channels) {
  constexpr double kMinPartBytes = kNvlinkChunkBytes / 8, kMaxPartBytes = 32 * kNvlinkChunkBytes;
  int most = 1;  // halved from all of them while the ranks together would need more
  while (most * 2 * ranks <= channels) most *= 2;
  int per_peer =
      static_cast<int>(std::clamp(std::ceil(peer_bytes / kMinPartBytes), 1.0, 1.0 * most));
  while (peer_bytes / per_peer > kMaxPartBytes && per_peer * 2 <= channels) per_peer *= 2;
  return per_peer;
}

CollectiveTransfer expected_p2p_transfer(double bytes, double peer_bytes, int ranks,
                                         const Link& link, const Calibration& c) {
  // NCCL_P2P_LL_THRESHOLD's default (src/enqueue.cc, addP2pToPlan): LL while a channel carries
  // no more than this much to its peer; a peer's first channel carries up to an eighth of an
  // NVLink chunk (64 KiB) before a second opens, so past this much a peer gets Simple.
  constexpr double kP2pLLThresholdBytes = 16384;
  // The link's rate, or less where the channels each peer gets carry less.
  double bytes_per_s = ring_bandwidth(link, c);
  // Each peer's bytes over its channels take peer_bytes / (channels x rate): as a rate for the
  // rank's `bytes`, so the protocols' latencies and shares apply to it as to the link's.
  if (c.collective_p2p_channels && c.collective_p2p_channel_bandwidth && peer_bytes > 0) {
    const int per_peer = p2p_channels_per_peer(peer_bytes, ranks,
                                               static_cast<int>(c.collective_p2p_channels->value));
    bytes_per_s = std::min(
        bytes_per_s, bytes * per_peer * c.collective_p2p_channel_bandwidth->value / peer_bytes);
  }
  // One exchange with every peer at once, over the switch.
  constexpr int kSteps = 1;
  if (peer_bytes > kP2pLLThresholdBytes) {
    for (const CollectiveProtocol& p : c.collective_protocols)
      if (p.name == "Simple") return protocol_transfer(bytes, kSteps, bytes_per_s, p);
  }
  return ll_transfer(bytes, kSteps, bytes_per_s, c);
}

namespace {

// A communication kernel of `transfer_s` launched `launch`: its fixed cost beside the transfer,
// and any wait for its launch.
ExpectedTime communication_kernel(double transfer_s, std::string detail, const Calibration& c,
                                  KernelLaunch launch) {
  ExpectedTime e;
  e.fixed_time_s = kernel_fixed_cost_s(c, launch);
  e.time_s = e.fixed_time_s + transfer_s;
  e.limiter = "communication";
  e.detail = std::move(detail);
  wait_for_host(e, host_launch_interval_s(c, launch));
  e.extrapolated = !c.measured;
  return e;
}

// NCCL's NVLS all-reduce (NVLink SHARP, src/device/all_reduce.h's NVLS algorithm): each GPU
// sends its whole buffer into the switch, which sums the GPUs' copies of each GPU's 1 / n as that
// GPU reads it, then sends that 1 / n of the sum back into the switch, which writes it to every
// GPU: (1 + 1/n) of the message each way over the link, at the calibration's share of the ring's
// rate, beside its latency a call. None where the switch does not reduce across `ranks` GPUs or
// the calibration does not price it.
std::optional<CollectiveTransfer> nvls_transfer(double bytes, int ranks, const Link& link,
                                                const Calibration& c) {
  if (!link.switch_reduction_gpus || ranks > link.switch_reduction_gpus->value ||
      !c.collective_nvls_latency_s || !c.collective_nvls_bandwidth)
    return std::nullopt;
  const double sent = (1.0 + 1.0 / ranks) * bytes;
  return CollectiveTransfer{
      "NVLS", c.collective_nvls_latency_s->value +
                  sent / (c.collective_nvls_bandwidth->value * ring_bandwidth(link, c))};
}

}  // namespace

ExpectedTime expected_collective_time(CollectiveOp op, double bytes, int ranks,
                                      const Device& device, const Calibration& c,
                                      KernelLaunch launch) {
  // What each rank sends, at the link's achievable bandwidth: nccl-tests' bus factor turns the
  // collective's size into it (2 (n-1)/n for an all-reduce, (n-1)/n for an all-to-all), and
  // the step of each chunk that sends nothing holds the channel as if it sent a share of its
  // 1 / n. The collective is a kernel too, and pays its fixed cost.
  const double sent =
      bytes * bus_bandwidth_factor(op, ranks) + local_step_bytes(op, bytes, ranks, c);
  const Link& link = in_node_link(device);
  const bool p2p = op == CollectiveOp::alltoall;
  const CollectiveTransfer transfer =
      p2p ? expected_p2p_transfer(sent, bytes / ranks, ranks, link, c)
          : expected_transfer(sent, ring_steps(op, ranks), link, c);
  if (op == CollectiveOp::allreduce) {
    if (const auto nvls = nvls_transfer(bytes, ranks, link, c);
        nvls && nvls->time_s < transfer.time_s)
      return communication_kernel(
          nvls->time_s, fmt::format("NCCL NVLS (NVLink SHARP) over {} GPUs", ranks), c, launch);
  }
  // AMD's parts run RCCL, NCCL's fork with its rings and protocols.
  return communication_kernel(
      transfer.time_s,
      fmt::format("{} {} over {} GPUs, {} protocol", device.vendor == "AMD" ? "RCCL" : "NCCL",
                  p2p ? "send/receive" : "ring", ranks, transfer.protocol),
      c, launch);
}

double held_within_call_share(double working_set_bytes, const Device& device,
                              const Calibration& c) {
  const MemoryLevel* l2 = device.shared_cache();
  if (!l2 || working_set_bytes <= 0) return 0;
  return c.l2_hit_share(working_set_bytes / l2->capacity_bytes->value);
}

namespace {

// What a custom all-reduce's passes over its own GPU's memory (copies, clears) move a second.
double local_pass_bytes_per_s(const Device& device, const Calibration& c) {
  return c.bandwidth_efficiency.value * device.main_bandwidth_bytes_per_s();
}

// The one-shot kernel (allreduce_fusion_kernel_oneshot_lamport, TensorRT-LLM's
// allReduceFusionKernels.cu): each GPU writes its whole buffer to every peer, n - 1 buffers in
// over its link, clears the n copies the call before it used (a pass over its own memory), and
// reduces the copies once it knows they have all arrived, which the calibration's latency prices.
// The reduction reads back the n copies the call has just written and writes the sum: where the
// L2 holds the call's working set (its buffer in and out, the n copies, the n it clears) it reads
// them from the L2 as they arrive, in the shadow of the link; what the L2 cannot hold it reads
// from memory, and writes the sum there, after the last copy is in.
ExpectedTime one_shot_allreduce_time(double bytes, int ranks, const Device& device,
                                     const Calibration& c, KernelLaunch launch) {
  const double received = (ranks - 1) * bytes;
  const double cleared = ranks * bytes;
  const double working_set = (2.0 * ranks + 2) * bytes;
  const double held = held_within_call_share(working_set, device, c);
  const double reduced_from_memory = (ranks + 1) * bytes * (1 - held);
  std::string detail = fmt::format("TensorRT-LLM's one-shot all-reduce over {} GPUs", ranks);
  if (held <= 0)
    detail += ", its reduction from memory past the L2";
  else if (held < 1)
    detail += fmt::format(", {:.0f}% of its reduction from memory past the L2", 100 * (1 - held));
  return communication_kernel(
      c.collective_custom_latency_s->value + received / ring_bandwidth(in_node_link(device), c) +
          (cleared + reduced_from_memory) / local_pass_bytes_per_s(device, c),
      std::move(detail), c, launch);
}

// The two-shot kernel (allreduce_fusion_kernel_twoshot_sync, the same file): each GPU copies its
// buffer into its own part of the shared workspace, reduces its 1/n of the rows from all n copies
// and writes the sums into each, then reads all the sums back out; a barrier (each GPU's flags
// written to every peer, system-wide) after the copy and another after the sums. Its peer
// traffic, 2 (n - 1) / n of the buffer, at the calibration's share of the ring's rate; its local
// passes (the buffer in and out, the sums read back: four of it) at the memory's; each barrier as
// vLLM's two-stage one (a flag for each peer after a system-wide fence,
// PullAllreduce::two_stage_barrier_s).
std::optional<ExpectedTime> two_shot_allreduce_time(double bytes, int ranks, const Device& device,
                                                    const Calibration& c, KernelLaunch launch) {
  if (!c.collective_two_shot_share || !c.collective_pull_allreduce) return std::nullopt;
  const int peers = ranks - 1;
  const double peer_bytes = 2.0 * peers / ranks * bytes;
  const double link_bytes_per_s =
      c.collective_two_shot_share->value * ring_bandwidth(in_node_link(device), c);
  const double barriers_s = 2.0 * peers * c.collective_pull_allreduce->two_stage_barrier_s.value;
  return communication_kernel(
      barriers_s + peer_bytes / link_bytes_per_s + 4 * bytes / local_pass_bytes_per_s(device, c),
      fmt::format("TensorRT-LLM's two-shot all-reduce over {} GPUs", ranks), c, launch);
}

// The SM version TensorRT-LLM's lookup table takes for the part: the calibration's, else Hopper's.
int trtllm_sm_version(const Calibration& c) {
  constexpr int kHopper = 90;
  return c.collective_sm_version ? static_cast<int>(c.collective_sm_version->value) : kHopper;
}

}  // namespace

ExpectedTime expected_trtllm_allreduce_time(const AllreduceMessage& message, int ranks,
                                            const Device& device, const Calibration& c,
                                            KernelLaunch launch, AllreduceKernel engine) {
  const double bytes = message.bytes();
  const auto nccl = [&] {
    return expected_collective_time(CollectiveOp::allreduce, bytes, ranks, device, c, launch);
  };
  // Its kernels need every GPU to reach every other over NVLink; without it, NCCL's
  // (ifFallbackToNCCL: mIsNVLINKSupported).
  if (!c.collective_custom_latency_s || in_node_link(device).kind != LinkKind::scale_up)
    return nccl();
  switch (predict::trtllm_allreduce_strategy(engine, message, ranks, trtllm_sm_version(c))) {
    case predict::EngineAllreduce::one_shot:
      return one_shot_allreduce_time(bytes, ranks, device, c, launch);
    case predict::EngineAllreduce::two_shot:
      if (auto two_shot = two_shot_allreduce_time(bytes, ranks, device, c, launch))
        return *two_shot;
      break;
    case predict::EngineAllreduce::nccl:
      break;
  }
  return nccl();
}

namespace {

// vLLM's custom all-reduce as vLLM dispatches it (vllm-project/vllm: csrc/custom_all_reduce.cuh
// @ c9eabec7, CustomAllreduce::allreduce; vllm/distributed/device_communicators/
// custom_all_reduce.py @ 0ad80649; SGLang's python/sglang/srt/distributed/device_communicators/
// custom_all_reduce.py @ 004e6561 the same on CUDA but at its limit, below). Its buffer:
// max_size = 8192 * 1024.
constexpr double kPullMaxBytes = 8192.0 * 1024;

// vLLM takes a message while inp_size < max_size, NCCL the rest. SGLang keeps one of exactly
// max_size too (inp_size <= max_size in later copies of its file than the one above; its B300
// table, a fit set, times 8 MiB at the custom kernel's rate, 60.3 us over 2 GPUs where NCCL's
// 16 MiB takes 56.8).
bool pull_allreduce_takes(double bytes, AllreduceKernel engine) {
  return engine == AllreduceKernel::sglang ? bytes <= kPullMaxBytes : bytes < kPullMaxBytes;
}

// Each of its threads reads 16 bytes of a peer's buffer at a time; a grid of at most 36 blocks
// of 512 threads.
constexpr double kPullGridReadBytes = 36.0 * 512 * 16;

// It runs on 2, 4, 6 or 8 GPUs, more than two only where each reaches every other over NVLink.
bool pull_allreduce_runs(int ranks, const Link& link) {
  const bool supported = ranks == 2 || ranks == 4 || ranks == 6 || ranks == 8;
  return supported && (ranks == 2 || link.kind == LinkKind::scale_up);
}

// One stage on 2 GPUs, and below 512 KiB on up to 4 or 256 KiB on up to 8; two above.
bool pull_allreduce_one_stage(double bytes, int ranks) {
  constexpr double kKiB = 1024;
  return ranks == 2 || (ranks <= 4 && bytes < 512 * kKiB) || (ranks <= 8 && bytes < 256 * kKiB);
}

// The rate a GPU's SMs read their peers' buffers at: the calibration's share of the link, or
// less where the reads the grid keeps in flight to each peer, over a read's latency, come to less.
double pull_bytes_per_s(const PullAllreduce& k, int peers, const Link& link) {
  const double rate = k.pull_share.value * link.bandwidth_bytes_per_s.value;
  if (!k.peer_read_latency_s) return rate;
  return std::min(rate, peers * kPullGridReadBytes / k.peer_read_latency_s->value);
}

}  // namespace

ExpectedTime expected_pull_allreduce_time(double bytes, int ranks, const Device& device,
                                          const Calibration& c, KernelLaunch launch,
                                          AllreduceKernel engine) {
  const Link& link = in_node_link(device);
  if (!c.collective_pull_allreduce || ranks < 2 || !pull_allreduce_takes(bytes, engine) ||
      !pull_allreduce_runs(ranks, link))
    return expected_collective_time(CollectiveOp::allreduce, bytes, ranks, device, c, launch);
  const PullAllreduce& k = *c.collective_pull_allreduce;
  const int peers = ranks - 1;
  const bool one_stage = pull_allreduce_one_stage(bytes, ranks);
  // One stage reads every peer's whole buffer; two read each peer's 1 / n of it, then the sums
  // the peers made of theirs, with a barrier between.
  const double read = one_stage ? peers * bytes : 2.0 * peers / ranks * bytes;
  const double barriers =
      k.barrier_latency_s.value + (one_stage ? 0 : peers * k.two_stage_barrier_s.value);
  return communication_kernel(barriers + read / pull_bytes_per_s(k, peers, link),
                              fmt::format("vLLM's {} custom all-reduce over {} GPUs",
                                          one_stage ? "one-stage" : "two-stage", ranks),
                              c, launch);
}

namespace {

// The message's shape, or its bytes as one row where it gives none.
AllreduceMessage shaped(const AllreduceMessage& message, double bytes) {
  if (message.row_elements > 0) return message;
  return {1, bytes / message.element_bytes, message.element_bytes};
}

}  // namespace

ExpectedTime expected_collective_as_run(CollectiveOp op, double bytes, int ranks,
                                        const Device& device, const Calibration& c,
                                        KernelLaunch launch, AllreduceKernel kernel,
                                        const AllreduceMessage& message) {
  if (op == CollectiveOp::allreduce) {
    switch (kernel) {
      case AllreduceKernel::trtllm:
      case AllreduceKernel::trtllm_1_0:
      case AllreduceKernel::trtllm_plugin:
        return expected_trtllm_allreduce_time(shaped(message, bytes), ranks, device, c, launch,
                                              kernel);
      case AllreduceKernel::vllm:
      case AllreduceKernel::sglang:
        return expected_pull_allreduce_time(bytes, ranks, device, c, launch, kernel);
      case AllreduceKernel::nccl:
        break;
    }
  }
  return expected_collective_time(op, bytes, ranks, device, c, launch);
}

namespace {

KernelLaunch launch_of(const Workload& w) {
  if (w.cuda_graphs) return KernelLaunch::graph;
  return w.eager_pytorch ? KernelLaunch::python : KernelLaunch::eager;
}

// gpt-fast and torchao compile their decode step with coordinate_descent_tuning on, and with it
// Inductor turns a product of one row (aten.mm or bmm, m or n 1) into a multiply and a sum over
// K (torch/_inductor/decomposition.py, `mm` and `bmm`: "Our matrix vector multiplies only achieve
// peak bandwidth with coordinate descent tuning"): a Triton reduction that streams the weights,
// with no tiles and no tensor cores, into which the int8 and fp8 weight-only paths fuse their
// widening. tinygemm's int4 and FP6-LLM's fp6 products are no aten.mm and keep their own
// kernels; 8-bit products run torch._scaled_mm, cuBLASLt's; eager PyTorch compiles nothing.
bool runs_as_inductor_reduction(const ModelOp& op, const Workload& w) {
  if (!w.torch_weight_kernels || !w.cuda_graphs || !op.gemm_shape) return false;
  const GemmShape& s = *op.gemm_shape;
  const bool one_row = s.m <= 1 || s.n <= 1;
  const bool sixteen_bit_products = bytes_per_element(op.precision) >= 2;
  const bool widened_into_mm = op.weight_bits == 0 || is_torch_8bit_weight(op.weight_bits);
  return one_row && s.grouped == GroupedKernel::none && sixteen_bit_products && widened_into_mm;
}

std::optional<ExpectedTime> expected_op_time(const ModelOp& op, const Device& device,
                                             const Workload& w, const Calibration& c) {
  if (op.collective)
    return expected_collective_as_run(*op.collective, op.bytes, op.ranks, device, c, launch_of(w),
                                      w.allreduce_kernel, op.message);
  // A reduction streams its operands as an element-wise kernel does: priced without its shape,
  // at its own share of a streaming read's rate.
  std::optional<GemmShape> shape = op.gemm_shape;
  double share = weight_read_share(op.weight_bits, w.torch_weight_kernels, c);
  if (runs_as_inductor_reduction(op, w)) {
    shape.reset();
    if (c.torch_reduction) share *= c.torch_reduction->value;
  }
  const Op as_op{op.kind, op.name, op.flops, op.bytes, shape, op.attention_shape, std::nullopt};
  // An engine's own kernels run inside one of its calls (TensorRT-LLM's MoE op launches its
  // kernels back to back from C++), the host issuing each faster than the one before drains: a
  // chain's floor, as in a graph, whatever launches the call itself.
  const KernelLaunch launch = op.engine_only ? KernelLaunch::graph : launch_of(w);
  // A model's ops keep their times only: no description is written.
  return expected_time(as_op, device, op.precision, c,
                       {.launch = launch, .bandwidth_share = share, .describe = false});
}

// Prices every op of the phase; false when one cannot be (then the run is bound only).
// `extrapolated` becomes true when any op lies beyond what the calibration measured.
bool expect_phase(PhaseResult& phase, const Device& device, const Workload& w, const Calibration& c,
                  bool& extrapolated) {
  double total = 0;
  double kernel_costs = 0;
  phase.kernels = 0;
  for (ModelOp& op : phase.ops) {
    const auto e = expected_op_time(op, device, w, c);
    if (!e) return false;
    op.expected_time_s = e->time_s;
    extrapolated = extrapolated || e->extrapolated;
    total += op.count * e->time_s;
    kernel_costs += op.count * e->kernel_cost_s();
    phase.kernels += op.count * op.kernels();
  }
  phase.expected_time_s = total;
  phase.expected_kernel_cost_s = kernel_costs;
  return true;
}

}  // namespace

void add_expected(ModelAnalysis& a, const Device& device, const Calibration& c) {
  bool extrapolated = false;
  const bool priced = expect_phase(a.prefill, device, a.workload, c, extrapolated) &&
                      expect_phase(a.decode, device, a.workload, c, extrapolated);
  if (!priced) return;
  ExpectedRun run;
  run.time_to_first_token_s = *a.prefill.expected_time_s;
  run.time_per_token_s = *a.decode.expected_time_s;
  run.tokens_per_s = a.workload.batch / run.time_per_token_s;
  run.end_to_end_s = run.time_to_first_token_s + (a.workload.gen - 1.0) * run.time_per_token_s;
  run.calibration = c.id;
  run.basis = c.basis;
  run.extrapolated = extrapolated;
  a.expected = run;
}

}  // namespace ridge
