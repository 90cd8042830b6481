#pragma once
// What real kernels reach on a device, as opposed to what its spec sheet promises: the share of
// each peak and of the memory bandwidth that the best library kernels attain, the fixed cost of
// a kernel, and what attention and collectives reach. Every figure carries its provenance; the
// expected-time model (expected.h) takes nothing else.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ridge/device.h"
#include "ridge/precision.h"

namespace ridge {

// A yes-or-no fact about how the vendor's library runs a kernel, sourced as a Figure is.
struct LibraryFact {
  bool holds = true;
  Provenance provenance = Provenance::estimate;
  std::string source;
  std::string note;
};

// A GEMM timed on the device, and what it took over what the model gives for it, priced as it
// was timed (alone, back to back): the correction the expected time applies near its shape.
struct CalibratedGemm {
  MeasuredGemm gemm;
  double measured_over_model = 1;
};

// One of NCCL's protocols as its tuning model prices a ring collective: the call's latency, what
// each step of the ring adds, and the bytes each rank sends at its share of the ring's bus
// bandwidth.
struct CollectiveProtocol {
  std::string name;  // "LL128", "Simple"
  Figure latency_s;
  Figure step_latency_s;
  std::optional<Figure> bandwidth_share;  // absent: the ring's whole bus bandwidth
};

// vLLM's custom all-reduce (SGLang's is its descendant): each GPU's SMs read every peer's buffer
// over the in-node link and sum it, between flags the GPUs write to each other (barriers); one
// stage for small messages, two (a reduce-scatter and an all-gather, a barrier between) for
// larger ones (expected_pull_allreduce_time).
struct PullAllreduce {
  // What a one-stage call costs beyond its kernel's fixed cost and its bytes: its two barriers.
  Figure barrier_latency_s;
  // The rate its SMs read the peers' buffers at, together, as a share of the in-node link's
  // bandwidth (Link::bandwidth_bytes_per_s).
  Figure pull_share;
  // How long one 16-byte read of a peer's buffer takes: the kernel's whole grid of reads in
  // flight over it is what it reads from one peer a second. Absent: no limit of its own.
  std::optional<Figure> peer_read_latency_s;
  // What the two-stage kernel's middle barrier (a system-wide fence, then flags) costs, for each
  // peer.
  Figure two_stage_barrier_s;
};

// Where a part's power limit holds its clock below the boost clock through a long dense load
// (the L40S's, at 350 W): the share of the boost clock it holds, and how fast its clock falls to
// that from the boost clock when such a load begins (first order, from an idle part).
struct PowerLimit {
  Figure sustained_clock;        // share of the boost clock, (0, 1]
  Figure clock_time_constant_s;  // seconds
  // The share of the boost clock held through a long load that keeps `busy_share` of the SMs'
  // tensor cores busy: their dynamic power goes as the busy SMs times the clock cubed (CMOS
  // power ~ C V^2 f, the voltage scaled with the clock), so a part-loaded part holds the
  // sustained clock over the cube root of its busy share, up to the boost clock.
  double held_clock(double busy_share) const;
  // The clock's mean share of the boost clock from `start_s` to `end_s` after such a load began
  // on an idle part: what a benchmark that times calls `start_s` into a burst of them sees.
  double mean_clock(double start_s, double end_s, double busy_share) const;
};

// What an SM holds at once of a kernel's blocks, and how long one small block lives: a grid of
// many blocks each doing little (BlockGrid, op.h) runs in rounds of as many as the SMs hold,
// each round taking a block's life besides its bytes' time (small_block_time_s, expected.h).
struct SmallBlocks {
  Figure max_threads_per_unit;  // threads an SM holds at once
  Figure max_blocks_per_unit;   // blocks an SM holds at once, however small
  Figure life_s;                // from a block's launch to its exit: its loads one after another
};

struct Calibration {
  std::string id;    // "hopper", or the measurement file a device was loaded from
  std::string name;  // for people: "NVIDIA Hopper (H100, H200, H800, GH200)"
  // How the profile applies to this device: "measured on this device", "profile for its
  // architecture", ...
  std::string basis;
  bool measured = false;             // from a measurement of the device itself
  std::vector<std::string> devices;  // catalog ids a shipped profile speaks for
  // Share of the spec peak that the best large GEMM reaches, per precision (0..1]. A precision
  // without one has no expected time. Where the part has a power limit, at the clock_share below.
  std::map<Precision, Figure> compute_efficiency;
  // Where the part's power limit holds its clock down (power_limit): the share of the boost clock
  // at which the tensor rates (compute_efficiency and the attention shares) are given. A profile
  // gives them at the boost clock (1); find_calibration gives them at the sustained clock, as a
  // long run meets them, and at_clock at any other.
  std::optional<PowerLimit> power_limit;
  double clock_share = 1;
  // Share of the spec main-memory bandwidth that a streaming kernel (a read, a decode attention
  // kernel streaming its cache; a GEMV over weights in main memory unless gemm_bandwidth_efficiency
  // says otherwise) reaches.
  Figure bandwidth_efficiency;
  // The share a library GEMM's tiles stream main memory at (a GEMV's weights), where the vendor's
  // GEMM kernels reach less of it than other streaming kernels do (Blackwell's cuBLAS GEMVs).
  // Absent: bandwidth_efficiency.
  std::optional<Figure> gemm_bandwidth_efficiency;
  // The share CUTLASS's plain grouped kernels (GroupedKernel::plain: TensorRT-LLM's MoE experts in
  // 16 bits or per-tensor fp8) stream their weights at, where it differs from the library GEMMs'.
  // Absent: gemm_bandwidth_efficiency, else bandwidth_efficiency.
  std::optional<Figure> grouped_gemm_bandwidth_efficiency;
  // The share DeepSeek's latent attention streams its cache at in decode (values in keys,
  // AttentionShape::values_in_keys: trtllm-gen's MLA kernels on Blackwell), where its kernel
  // reaches less than other streaming kernels do. Absent: bandwidth_efficiency.
  std::optional<Figure> latent_decode_bandwidth_efficiency;
  // What one SM moves, B/s, in a streaming kernel that writes what it reads (an element-wise
  // pass: a norm, a residual, the rotary and cache pass), loading and storing through its own
  // load-store units. Where the part's achievable main-memory bandwidth per SM is more than
  // this, the SMs, not the memory, set such a kernel's rate. Absent: no limit but the memory's.
  std::optional<Figure> streaming_bytes_per_s_per_unit;
  // The same where the kernel's data is in the L2 (a benchmark that replays it on buffers the L2
  // holds): an SM's loads come back sooner, and it moves more. Absent: the figure above for
  // every byte.
  std::optional<Figure> l2_streaming_bytes_per_s_per_unit;
  // What one SM moves, B/s, in a kernel that only reads main memory (a decode step's attention
  // streaming its cache): no writes share the memory's bus with its reads, so its SMs read at
  // the rate a read kernel reaches, more than an element-wise pass moves. Absent: the
  // element-wise figure above.
  std::optional<Figure> read_streaming_bytes_per_s_per_unit;
  // The bandwidth from L2 into the SMs over the whole device, B/s: what feeds a GEMM tile.
  // Absent: tiles are taken to be fed at their full rate.
  std::optional<Figure> l2_bandwidth_bytes_per_s;
  // The rate over the whole device, B/s, at which the L2 serves again what CTAs running side by
  // side read together, the first of them bringing it from main memory (a decode kernel whose
  // tiles of query heads each read a sequence's keys). Absent: l2_bandwidth_bytes_per_s.
  std::optional<Figure> l2_reread_bytes_per_s;
  // What one step of a chain of loads takes, s: a block that reads a small table in the L2 and
  // waits for the value before its next read (Op::chained_loads). Absent: such chains cost
  // nothing beyond the kernel's bytes.
  std::optional<Figure> chained_load_s;
  // TensorRT-LLM's per-tensor amax kernel (Op::fixed_grid_amax): what it and the zeroing of its
  // scale before it take beyond its bytes, s, however small its input (its fixed grid's 1024
  // blocks launch, reduce and each contend for the one scale's address whatever the size), and
  // the rate its grid's narrow loads read the input at, B/s. Given together or not at all.
  // Absent: the kernel is priced as any element-wise pass, the zeroing at the kernel floor.
  std::optional<Figure> amax_grid_floor_s;
  std::optional<Figure> amax_grid_bytes_per_s;
  // How much of a working set that is read again call after call, by every SM, the L2 still
  // holds at the next call, by the set's size over the L2's capacity: all of it up to
  // l2_hit_all_to times the capacity, none from l2_hit_none_from times it, in a straight line
  // between (l2_hit_share). Given together or not at all. Absent: all of it up to half the
  // capacity and none above, the two halves of a partitioned L2 each holding its own copy.
  std::optional<Figure> l2_hit_all_to;
  std::optional<Figure> l2_hit_none_from;
  // The share of a replayed working set of `working_set_over_capacity` times the L2's capacity
  // that the L2 serves at the next call, from l2_hit_all_to and l2_hit_none_from.
  double l2_hit_share(double working_set_over_capacity) const;
  // Whether the GEMM library deals the K steps of all tiles out evenly over the SMs (stream-K;
  // cuBLAS's "segment-K"), so a part-empty last wave costs only the fix-up of the tiles SMs
  // share. Where its kernels have no such mode, whole tiles go out in waves and split-K fills
  // SMs the tiles leave idle. Absent: offered.
  std::optional<LibraryFact> gemm_stream_k;
  // Whether DeepSeek's latent attention in decode runs trtllm-gen's kernels as TensorRT-LLM
  // dispatches them (predict/trtllm_gen_mla.h): for few heads or few sequences, tiles of 8 or 16
  // query heads, each reading the keys. Absent: the kernel reads the latent cache once.
  std::optional<LibraryFact> attention_trtllm_gen_mla;
  // How many tiles of a thread-block cluster share each K step's load of one operand: the L2
  // sends it once and the cluster's SMs each receive it (TMA multicast, Hopper's clusters), so a
  // tile of m by n whose cluster lines up along M draws m + n / c elements a step from the L2.
  // Absent: 1, every tile loads its own.
  std::optional<Figure> gemm_multicast;
  // What an SM takes for each K step of vLLM's Triton fused-MoE kernel at its default tiles
  // (ops/triton_moe.h), seconds: 64 by 64 stepping 32 deep, and 16 by 32 stepping 64 deep.
  // The kernel retires its steps at this rate whatever the operands' type (its loop's latency,
  // not the tensor cores, sets it). Absent: the product is priced at the vendor libraries'
  // tiles.
  std::optional<Figure> triton_moe_step_s;
  std::optional<Figure> triton_moe_small_step_s;
  // What a grouped kernel's tile waits, for each TMA descriptor it switches, before its loads
  // when it starts a group other than its SM's last (GemmShape::group_descriptors()): the group's
  // pointer and strides read, the descriptor rewritten in shared memory, copied out behind a
  // release fence and acquired again, seconds. The tile takes the longer of the switch and
  // streaming its operands. Absent: no such wait.
  std::optional<Figure> gemm_descriptor_switch_s;
  // A grid of small blocks (vLLM's cache write, a block a token). Absent: such a kernel is
  // priced by its bytes alone.
  std::optional<SmallBlocks> small_blocks;
  // How a kernel's compute and memory parts add up near its ridge point: the exponent p of their
  // p-norm (overlapped_time_s, expected.h). Absent: the larger part alone, as the roofline has
  // it.
  std::optional<Figure> overlap_exponent;
  // What one kernel costs however small it is, seconds. Timed on its own, back to back as a
  // benchmark times it (the launches queue ahead, so only its ramp and tail show).
  Figure kernel_floor_s;
  // One kernel of a model step's chain replayed from a CUDA graph or a compiled engine: it waits
  // for the one before to drain, then ramps up; what no byte or FLOP count explains.
  Figure graph_kernel_floor_s;
  // An element-wise kernel replayed from a CUDA graph right after the same kernel (a benchmark's
  // loop over one kernel): the one before it drains at once, and what is left is the graph's
  // launch and the kernel's first loads. Absent: graph_kernel_floor_s.
  std::optional<Figure> graph_repeat_floor_s;
  // What a small element-wise kernel costs beyond its bytes when a CUDA graph replays it right
  // after another small kernel of a chain (a quantization's passes, each of another kind): the
  // one before drains at once, but the kernel is not the one the SMs just ran, seconds. Absent:
  // graph_kernel_floor_s.
  std::optional<Figure> graph_chain_floor_s;
  // What the host takes to launch one kernel in an engine that launches them one at a time
  // (eager PyTorch, a C++ runtime without graphs): it runs ahead of long kernels, and short ones
  // wait for it. Absent: the kernel floor.
  std::optional<Figure> launch_overhead_s;
  // What eager PyTorch's host spends on each op of a model step (Python, the dispatcher, the
  // several ATen kernels one op of model code launches): a step is host-bound, and each op
  // shorter than that waits for it. Absent: launch_overhead_s.
  std::optional<Figure> eager_pytorch_op_s;
  // Share of the spec peak that a fused (FlashAttention) kernel reaches, at head dimension 64
  // and at 128 and above; in between it is interpolated. Where the softmax's exponentials bind
  // at 128 (Blackwell), a share at 256, reached between 128 and 256 and held past it.
  Figure attention_efficiency_d64;
  Figure attention_efficiency_d128;
  std::optional<Figure> attention_efficiency_d256;
  // The same share at 128 and wider for TensorRT-LLM's context FMHA kernels, which reach less
  // than the FlashAttention papers (AttentionShape::trtllm_fmha). Absent: FlashAttention's.
  std::optional<Figure> attention_trtllm_efficiency_d128;
  // The 128-query tiles each block of TensorRT-LLM's context FMHA runs, one a warpgroup, where
  // its kernels run more than one (trtllm-gen's on Blackwell: two). A block visits the key tiles
  // of each, so a prompt has fewer, longer blocks. Absent: one.
  std::optional<Figure> attention_trtllm_query_tiles;
  // What each block of a prompt's queries costs beyond the key tiles it visits, seconds: loading
  // its queries before the first tile, filling the pipeline, scaling and storing its output
  // after the last. Memory latency and setup, not tensor work: the same time on a part whose
  // tensor cores are faster or slower. Absent: none.
  std::optional<Figure> attention_block_overhead_s;
  // What each block of a decode kernel costs, seconds, beyond streaming its share of K and V:
  // TensorRT-LLM's XQA kernel splits each sequence's keys over blocks (multi-block mode), each
  // of which loads its queries, reduces its softmax and writes a partial output for the blocks'
  // reduction. The blocks run in waves over the SMs, each wave streaming at the SMs' share of
  // the bandwidth (AttentionShape::trtllm_decode_blocks). Absent: the decode kernel's keys
  // spread evenly over the SMs at no cost a block.
  std::optional<Figure> attention_decode_block_overhead_s;
  // Share of a link's spec bandwidth that collectives reach (nccl-tests' busbw), the fixed
  // latency of one collective call, and what each step of its ring adds (an all-reduce over n
  // ranks takes 2(n-1) steps, as NCCL's own latency model counts them). No step latency: the
  // call's latency alone, whatever the ranks.
  Figure link_efficiency;
  Figure collective_latency_s;
  std::optional<Figure> collective_step_latency_s;
  // The step of each chunk that sends nothing over the link, as a share of a step that does.
  // NCCL's ring all-gather runs n steps a chunk, n - 1 of them sending (the last only
  // receives: src/device/all_gather.h), its reduce-scatter and all-reduce end on a step that
  // reduces or copies into the output, an all-to-all copies its own share: that step holds the
  // channel as well, so a collective over n ranks moves, in time, this share of a rank's 1 / n
  // of the message beyond what nccl-tests' bus factor counts. Absent: none.
  std::optional<Figure> collective_local_step;
  // The call and step latencies above are those of NCCL's LL protocol, which carries 4 bytes of
  // data in each 8-byte line with a flag: its share of the ring's bus bandwidth and a cap on it
  // (NCCL's tuning model). Absent: all of it.
  std::optional<Figure> collective_ll_bandwidth;
  std::optional<Figure> collective_ll_max_bus_bandwidth;
  // NCCL's other protocols (LL128, Simple), each of which NCCL prices the same way; a collective
  // runs on whichever of them and LL is the fastest for its size, as NCCL's tuner picks.
  std::vector<CollectiveProtocol> collective_protocols;
  // The channels NCCL runs point-to-point transfers on within a node (p2pnChannels: its ring
  // channels, a power of two), and what one of them moves, B/s, when a send or receive has it to
  // itself. An all-to-all gives each peer a power of two of them, at most its even share, one
  // a 64 KiB part: where they carry less than the link does, they set its rate. Given together or
  // not at all; absent, the link alone.
  std::optional<Figure> collective_p2p_channels;
  std::optional<Figure> collective_p2p_channel_bandwidth;
  // NCCL's NVLS all-reduce, where the switch reduces in the network (Link::switch_reduction_gpus):
  // each GPU sends its whole buffer to the switch and its 1 / n of the sum back through it, then
  // takes in the n sums, (1 + 1/n) of the message each way, at this share of the ring's link
  // rate and this latency a call. An all-reduce runs on it where it is faster than the ring, as
  // NCCL's tuner picks. Given together or not at all; absent, the ring alone.
  std::optional<Figure> collective_nvls_latency_s;
  std::optional<Figure> collective_nvls_bandwidth;
  // What an engine's own one-shot all-reduce costs a call beyond its kernel's fixed cost and its
  // bytes: how its GPUs learn that every peer's buffer has arrived (TensorRT-LLM's Lamport wait
  // on the data itself) around each writing its buffer to every peer (TensorRT-LLM's custom
  // all-reduce over NVLink). Absent: such a call is priced as NCCL's.
  std::optional<Figure> collective_custom_latency_s;
  // TensorRT-LLM's two-shot kernel (its 1/n of the rows reduced from every peer's buffer, the
  // sums written back to every peer, a barrier before and after): the rate its peer traffic,
  // 2 (n - 1) / n of the message, moves at, as a share of the ring's link rate. Absent: a message
  // TensorRT-LLM sends to it is priced as NCCL's.
  std::optional<Figure> collective_two_shot_share;
  // The part's SM version (80 Ampere, 90 Hopper, 100 Blackwell), by which TensorRT-LLM's lookup
  // table picks its all-reduce kernel (trtllm_allreduce.h). Absent: the table's SM90 rows.
  std::optional<Figure> collective_sm_version;
  // vLLM's and SGLang's custom all-reduce. Absent: such a call is priced as NCCL's.
  std::optional<PullAllreduce> collective_pull_allreduce;
  // Inductor's reduction that stands for a one-row product under gpt-fast's and torchao's
  // torch.compile (runs_as_inductor_reduction in expected.cc): the share of a streaming read's
  // rate (bandwidth_efficiency) it reads 16-bit weights at. Absent: that rate.
  std::optional<Figure> torch_reduction;
  // PyTorch's weight-only kernels (gpt-fast, torchao): inductor's dequantising reduction for 8-bit
  // weights, tinygemm's int4 kernel for 4-bit ones. The share of the rate their 16-bit kind reaches
  // (the reduction's above, tinygemm's the library GEMV's) that their weight reads reach, at batch
  // 1, where they widen each weight as they read it. Absent: the format's bytes at that rate.
  std::optional<Figure> torch_weight_only_8bit;
  std::optional<Figure> torch_weight_only_4bit;
  // GEMMs timed on the device itself (a measured device's sweeps), each with its time over the
  // model's for it: inside their range the expected time follows them, outside it the model
  // alone, with a warning.
  std::vector<CalibratedGemm> measured_gemms;
};

// Parses a calibration profile (data/calibration/*.toml). Bad input naming `origin` for a
// malformed one, or one whose figures name no source.
Calibration parse_calibration_toml(std::string_view text, const std::string& origin);

// The profiles shipped in data/calibration/, parsed once.
const std::vector<Calibration>& builtin_calibrations();

// Reads a profile of the user's (`--calibration FILE`): bad input naming the file when it cannot
// be read or is malformed.
Calibration load_calibration_file(const std::string& path);

// Makes `profile` the one that applies to the devices it lists, before any shipped profile, until
// forget_user_calibrations() (a session's `--calibration` files; a process that runs many
// sessions, as the Python module does, forgets them at each session's end).
void use_calibration(Calibration profile);
void forget_user_calibrations();

// The calibration that applies to `device`: its own measurement when it was loaded from one
// (the shipped profile of its spec fills what the measurement lacks), else the shipped profile
// that lists its id, its tensor rates at the clock its power limit sustains; nullopt when none
// does (then only the bound is given).
std::optional<Calibration> find_calibration(const Device& device);

// `c` with its tensor rates (compute_efficiency, the attention shares) at `clock_share` of the
// boost clock rather than at c.clock_share: the clock sets how fast the tensor cores multiply,
// not what the memory moves or what a kernel's fixed part takes.
Calibration at_clock(Calibration c, double clock_share);

}  // namespace ridge
