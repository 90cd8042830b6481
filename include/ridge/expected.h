#pragma once
// The expected time of an operation: what a real library kernel takes, beside the roofline's
// lower bound. It prices what the bound leaves out (tile and wave quantisation, split-K, the
// traffic of tiling past the L2, bandwidth and peaks that kernels reach rather than the spec's,
// the fixed cost of a kernel) from a calibration (calibration.h), and names it.

#include <optional>
#include <string>
#include <vector>

#include "ridge/calibration.h"
#include "ridge/collective.h"
#include "ridge/device.h"
#include "ridge/op.h"
#include "ridge/precision.h"

namespace ridge {

// How a kernel is launched, which sets its fixed cost (calibration.h).
enum class KernelLaunch {
  alone,  // timed on its own, back to back, as a benchmark times it: the kernel floor
  graph,  // one of a model step's chain, replayed from a CUDA graph or a compiled engine
  // An element-wise kernel replayed from a CUDA graph right after the same kernel, as a
  // benchmark's loop over one kernel runs it: the graph's repeat floor.
  graph_repeat,
  // A small element-wise kernel replayed from a CUDA graph right after another of a chain of them
  // (a quantization's passes before a product): the graph's chain floor.
  graph_chain,
  eager,  // one of a model step's chain, launched from the host one at a time
  // One of a model step's chain in eager PyTorch: each op dispatched from Python (and the
  // dispatcher, and the several ATen kernels one op of model code launches) before the next.
  python,
};

struct ExpectOptions {
  KernelLaunch launch = KernelLaunch::alone;
  // The share of the achievable bandwidth the kernel's reads reach (weight_read_share: a
  // dequantising weight-only kernel's; times Calibration::torch_reduction for Inductor's
  // reduction standing for a one-row product); 1 for any other.
  double bandwidth_share = 1;
  // The share of the kernel's data the device's L2 still holds from the call before: a benchmark
  // that replays it on buffers the L2 holds (a model's layers each read their own weights, so
  // never there; Calibration::l2_hit_share). That share moves at the calibration's L2 rate,
  // where the calibration gives one, the rest at main memory's.
  double l2_hit_share = 0;
  // Whether ExpectedTime::detail is written (a model's thousands of ops keep only their times).
  bool describe = true;
};

// The share of the achievable bandwidth at which a linear op reads weights of `weight_bits`
// each that are narrower than its products: PyTorch's weight-only kernels (`torch_kernels`) at
// the calibration's figure for 8-bit weights (int8, fp8) or 4-bit ones (4 to 5 bits with their
// group scales); 1 for 16-bit weights (`weight_bits` 0), for other engines' kernels, and for a
// format without a figure.
double weight_read_share(double weight_bits, bool torch_kernels, const Calibration& calibration);

// How a kernel's compute and memory parts add up. Far from its ridge point it takes the larger
// part: the smaller hides under it. Near the ridge they hide each other only in part (a tile's
// loads are in flight while its products wait on them, and the reverse), and the kernel reaches
// neither ceiling: their p-norm, (c^p + m^p)^(1/p), p the calibration's overlap exponent. At the
// ridge (c = m) that is 2^(1/p) of either part; p 1 is their sum; `exponent` 0 the larger part
// alone, the roofline's perfect overlap.
double overlapped_time_s(double compute_s, double memory_s, double exponent);

// The blocks of `grid` an SM holds at once under `limits`: as many as its threads and its block
// slots allow, at least one. Registers and shared memory are not counted.
double blocks_held_per_unit(const BlockGrid& grid, const SmallBlocks& limits);
// How long a grid of small blocks takes by its blocks' lives alone: rounds of as many blocks as
// the SMs hold at once, each round one block's life (Calibration::small_blocks). nullopt where
// the calibration has no such figures or the device no count of SMs. An element-wise kernel with
// such a grid takes this beside its bytes' time (expected_time): each round's blocks wait out
// their loads' latency, then move their bytes.
std::optional<double> small_block_time_s(const BlockGrid& grid, const Device& device,
                                         const Calibration& calibration);

// The share of what a call touches and then reads again within the call that the L2 still holds
// when it reads it, from what the call has moved meanwhile over the L2's capacity, as a replayed
// working set is held (Calibration::l2_hit_share); none where the catalog gives the part no L2.
double held_within_call_share(double working_set_bytes, const Device& device, const Calibration& c);

// The fixed cost of one kernel launched so: the kernel floor alone, the graph floor in a chain.
double kernel_fixed_cost_s(const Calibration& calibration, KernelLaunch launch);
// What the host takes to launch one kernel where it launches them one at a time (eager; eager
// PyTorch's dispatch of one op, python), else 0: a kernel shorter than that waits for it.
double host_launch_interval_s(const Calibration& calibration, KernelLaunch launch);

struct ExpectedTime {
  double time_s = 0;
  double compute_time_s = 0;  // at the achievable rate, with tile and wave quantisation
  double memory_time_s = 0;   // the traffic a tiled kernel moves, at the achievable bandwidth
  double fixed_time_s = 0;    // the kernel's floor
  // Where the host launches kernels one at a time: how long the kernel waits for its launch
  // beyond its own time (a short kernel waits for the host, a long one hides it).
  double host_wait_s = 0;
  // What a GEMM does after its overlapped parts, with nothing beside it: its last wave of
  // output stores, and the sum of its split-K or stream-K partial products.
  double epilogue_time_s = 0;
  // The share of the SMs the kernel's tensor work keeps busy over its compute part: its FLOPs
  // at the whole part's rate over that part's time (a GEMM's last wave part-empty, a prompt's
  // longest block running on after the others). What it draws from a power limit goes with it.
  double busy_share = 1;
  std::string limiter;  // "compute", "memory", "fixed", "host" or "communication": what binds
  std::string detail;   // how it was priced: "tile 128x256, split-k 1, 7 waves (97% full)"
  // Beyond measured data: the calibration was not measured on this device (its shares come from
  // the architecture's profile or from estimates), or the shape lies outside its measured sweep.
  bool extrapolated = false;
  // What the op costs for being a kernel of its own, beyond its work: its floor and any wait for
  // its launch. CUDA graphs remove the wait, and fusing it into a neighbour both.
  double kernel_cost_s() const { return fixed_time_s + host_wait_s; }
};

// nullopt where the calibration has no achievable peak for `precision` (then only the bound is
// given). The time is never below the roofline bound of the same operation.
std::optional<ExpectedTime> expected_time(const Op& op, const Device& device, Precision precision,
                                          const Calibration& calibration,
                                          const ExpectOptions& options = {});

// The share of the device's peak at `g.precision` that a GEMM timed on it reached, once the
// model's other parts are taken out of its time: the calibration's kernel floor, and a CPU BLAS's
// packing of its operands. 0 when the GEMM was bound by memory (it says nothing of the peak).
double measured_compute_share(const MeasuredGemm& g, const Device& device,
                              const Calibration& calibration);

// Each GEMM the device measured with its time over the model's for it (launched alone, as it
// was timed), under calibration `c` (whose measured_gemms it does not read).
std::vector<CalibratedGemm> calibrated_gemms(const Device& device, const Calibration& c);

// An expected time with the calibration it rests on.
struct Expectation {
  ExpectedTime time;
  Calibration calibration;
};

// The expected time from the calibration that applies to `device` (find_calibration); nullopt
// when none applies or it has no figure for `precision`: then only the bound is given.
std::optional<Expectation> expect(const Op& op, const Device& device, Precision precision,
                                  const ExpectOptions& options = {});

// A ring collective over a link as NCCL's tuning model prices it, on the fastest of its
// protocols the calibration gives: the call's latency, the step latency for each of `steps`, and
// `bytes` (each rank's sends: nccl-tests' bus bytes) at the protocol's share of the bandwidth
// collectives reach on the link.
struct CollectiveTransfer {
  std::string protocol;  // "LL", "LL128", "Simple"
  double time_s = 0;
};
CollectiveTransfer expected_transfer(double bytes, int steps, const Link& link,
                                     const Calibration& calibration);
// An all-to-all as NCCL runs it: a send to and a receive from every peer at once (grouped
// point-to-point, over a node's switch), one exchange of `bytes` (each rank's sends), on LL
// while each peer's `peer_bytes` are small and Simple past that, as NCCL picks for them; its
// tuner does not choose. Each of the `ranks` peers' bytes go over as many of NCCL's p2p channels
// as it gives them (p2p_channels_per_peer), at no more than the channels carry.
CollectiveTransfer expected_p2p_transfer(double bytes, double peer_bytes, int ranks,
                                         const Link& link, const Calibration& calibration);
// The channels NCCL gives each peer of an exchange among `ranks` whose peers get `peer_bytes`
// each, of its `channels` p2p channels (src/enqueue.cc: scheduleP2pTasksToPlan, addP2pToPlan):
// one a 64 KiB part (an eighth of the 512 KiB NVLink chunk), at most the largest power of two
// that gives every rank as many, and twice that while a channel's part would pass 16 MiB (32
// chunks), up to all of them.
int p2p_channels_per_peer(double peer_bytes, int ranks, int channels);

// One collective of `bytes` (nccl-tests' size: the buffer, an all-gather's whole output) over
// `ranks` GPUs of one node, a ring over the node's link as NCCL's latency model prices it (an
// all-to-all, NCCL's exchange with every peer at once), and the fixed cost of a kernel launched
// so.
ExpectedTime expected_collective_time(CollectiveOp op, double bytes, int ranks,
                                      const Device& device, const Calibration& calibration,
                                      KernelLaunch launch);

// An all-reduce of `message` as TensorRT-LLM runs it over one node's link, its kernel picked as
// `engine` (one of its generations: trtllm_allreduce.h) picks it: its one-shot kernel (each GPU
// writes its buffer to every peer and reduces what arrives, waiting on the data itself), its
// two-shot kernel (each GPU copies its buffer where its peers can read it, reduces its 1/n of
// the rows from every peer's and writes the sums to every peer, then reads them back, a barrier
// between the steps), or NCCL's ring. NCCL's where the calibration has no figure for the kernel
// picked.
ExpectedTime expected_trtllm_allreduce_time(const AllreduceMessage& message, int ranks,
                                            const Device& device, const Calibration& calibration,
                                            KernelLaunch launch, AllreduceKernel engine);

// An all-reduce of `bytes` as vLLM's custom all-reduce runs it, dispatched as `engine` (vLLM or
// SGLang, its descendant) does: one stage, each GPU's SMs reading every peer's whole buffer
// between two barriers, or for larger messages over 4 to 8 GPUs two (each reduces its share from
// every peer, a barrier, then gathers the others' sums), NCCL's ring past its size limit and
// where it does not run (PullAllreduce in calibration.h), and without the calibration's figures
// for it.
ExpectedTime expected_pull_allreduce_time(double bytes, int ranks, const Device& device,
                                          const Calibration& calibration, KernelLaunch launch,
                                          AllreduceKernel engine = AllreduceKernel::vllm);

// A collective of `bytes` as the stack that runs it: an all-reduce on `kernel` (`message` the
// shape of its bytes, for TensorRT-LLM's dispatch; one row where it gives none), anything else
// on NCCL's.
ExpectedTime expected_collective_as_run(CollectiveOp op, double bytes, int ranks,
                                        const Device& device, const Calibration& calibration,
                                        KernelLaunch launch, AllreduceKernel kernel,
                                        const AllreduceMessage& message = {});

}  // namespace ridge

#include "ridge/inference.h"

namespace ridge {

// Sets the expected time of every operation of both phases (one kernel launched per instance),
// the phases' sums, and the run's expected figures, from `calibration`.
void add_expected(ModelAnalysis& analysis, const Device& device, const Calibration& calibration);

}  // namespace ridge
