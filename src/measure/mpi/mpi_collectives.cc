// Collectives over MPI, timed as nccl-tests times them: warm-ups, then a barrier and a loop of
// iterations between two MPI_Wtime calls on every rank, the mean per operation taken from the
// slowest rank. Sizes are nccl-tests' (all-gather: the whole output; reduce-scatter: the whole
// input; all-to-all: each rank's whole send buffer), floats throughout.
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "ridge/error.h"
#include "ridge/mpi_measure.h"

namespace ridge::mpi {

namespace {

struct Ranks {
  int size = 1, rank = 0;
};

// Elements of one call's buffers, from nccl-tests' byte size.
struct Buffers {
  std::vector<float> send, receive;
  int count = 0;  // the count MPI is given
};

Buffers buffers_for(CollectiveOp op, double bytes, int ranks) {
  const auto total = static_cast<std::size_t>(bytes / sizeof(float));
  const std::size_t share = total / ranks;
  Buffers b;
  switch (op) {
    case CollectiveOp::allreduce:
    case CollectiveOp::broadcast:
      b.send.resize(total), b.receive.resize(total), b.count = static_cast<int>(total);
      break;
    case CollectiveOp::allgather:
      b.send.resize(share), b.receive.resize(share * ranks), b.count = static_cast<int>(share);
      break;
    case CollectiveOp::reducescatter:
      b.send.resize(share * ranks), b.receive.resize(share), b.count = static_cast<int>(share);
      break;
    case CollectiveOp::alltoall:
      b.send.resize(share * ranks), b.receive.resize(share * ranks);
      b.count = static_cast<int>(share);
      break;
  }
  return b;
}

void run(CollectiveOp op, Buffers& b) {
  switch (op) {
    case CollectiveOp::allreduce:
      MPI_Allreduce(b.send.data(), b.receive.data(), b.count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      break;
    case CollectiveOp::allgather:
      MPI_Allgather(b.send.data(), b.count, MPI_FLOAT, b.receive.data(), b.count, MPI_FLOAT,
                    MPI_COMM_WORLD);
      break;
    case CollectiveOp::reducescatter:
      MPI_Reduce_scatter_block(b.send.data(), b.receive.data(), b.count, MPI_FLOAT, MPI_SUM,
                               MPI_COMM_WORLD);
      break;
    case CollectiveOp::alltoall:
      MPI_Alltoall(b.send.data(), b.count, MPI_FLOAT, b.receive.data(), b.count, MPI_FLOAT,
                   MPI_COMM_WORLD);
      break;
    case CollectiveOp::broadcast:
      MPI_Bcast(b.receive.data(), b.count, MPI_FLOAT, 0, MPI_COMM_WORLD);
      break;
  }
}

// Every rank sends rank + 1 everywhere (broadcast: rank 0's buffer holds 1): what each element
// of the result must be.
float expected_value(CollectiveOp op, int ranks, std::size_t index, std::size_t share) {
  switch (op) {
    case CollectiveOp::allreduce:
    case CollectiveOp::reducescatter:
      return static_cast<float>(ranks * (ranks + 1) / 2);
    case CollectiveOp::allgather:
    case CollectiveOp::alltoall:
      return static_cast<float>(index / share + 1);  // the block from rank index / share
    case CollectiveOp::broadcast:
      return 1;
  }
  return 0;
}

bool check_result(CollectiveOp op, Buffers& b, const Ranks& r) {
  std::fill(b.send.begin(), b.send.end(), static_cast<float>(r.rank + 1));
  std::fill(b.receive.begin(), b.receive.end(),
            op == CollectiveOp::broadcast && r.rank == 0 ? 1.0f : -1.0f);
  run(op, b);
  bool ok = true;
  const std::size_t share = std::max(1, b.count);
  for (std::size_t i = 0; i < b.receive.size(); ++i) {
    ok = ok && b.receive[i] == expected_value(op, r.size, i, share);
  }
  int local = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&local, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

MeasuredCollective time_one(CollectiveOp op, double bytes, const CollectiveSweepOptions& o,
                            const Ranks& r) {
  Buffers b = buffers_for(op, bytes, r.size);
  std::fill(b.send.begin(), b.send.end(), 1.0f);
  for (int i = 0; i < o.warmups; ++i) run(op, b);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int i = 0; i < o.iterations; ++i) run(op, b);
  const double mine = (MPI_Wtime() - start) / o.iterations;
  double slowest = 0, fastest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &fastest, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MeasuredCollective m;
  m.op = op;
  m.bytes = bytes;
  m.time_s = slowest;
  m.fastest_rank_s = fastest;
  m.algbw_bytes_per_s = bytes / slowest;
  m.busbw_bytes_per_s = m.algbw_bytes_per_s * bus_bandwidth_factor(op, r.size);
  m.validated = check_result(op, b, r);
  return m;
}

// The one link a single machine's ranks share, fitted to this run's all-reduces: the latency
// from the smallest (almost all of its 2(p-1) steps), the bandwidth as the median of what the
// three largest imply once that latency is taken off, so that one disturbed sample does not
// set it.
LinkModel fit_link(const std::vector<MeasuredCollective>& points, int ranks) {
  std::vector<const MeasuredCollective*> allreduce;
  for (const MeasuredCollective& p : points) {
    if (p.op == CollectiveOp::allreduce) allreduce.push_back(&p);
  }
  std::sort(allreduce.begin(), allreduce.end(),
            [](const auto* a, const auto* b) { return a->bytes < b->bytes; });
  LinkModel link{"fitted shared-memory link", 0, 0, true};
  const int steps = 2 * (ranks - 1);
  const double share = 2.0 * (ranks - 1) / ranks;
  link.latency_s = allreduce.front()->time_s / steps;
  std::vector<double> implied;
  for (std::size_t i = allreduce.size() >= 3 ? allreduce.size() - 3 : 0; i < allreduce.size();
       ++i) {
    const double transfer_s = allreduce[i]->time_s - steps * link.latency_s;
    if (transfer_s > 0) implied.push_back(share * allreduce[i]->bytes / transfer_s);
  }
  if (implied.empty())
    implied.push_back(share * allreduce.back()->bytes / allreduce.back()->time_s);
  std::sort(implied.begin(), implied.end());
  link.bandwidth_bytes_per_s = implied[implied.size() / 2];
  return link;
}

void check_options(const CollectiveSweepOptions& o) {
  if (!(o.min_bytes >= 4 && o.min_bytes <= o.max_bytes && o.max_bytes <= 1e10)) {
    input_error(
        "measure collectives: --min-bytes {} to --max-bytes {}: sizes run from at least 4 B up to "
        "at most 10 GB, the first no larger than the second",
        o.min_bytes, o.max_bytes);
  }
  if (o.iterations < 1 || o.warmups < 0) {
    input_error("measure collectives: --iterations {} and --warmups {}: need at least 1 and 0",
                o.iterations, o.warmups);
  }
}

}  // namespace

CollectiveMeasurement measure_collectives(const CollectiveSweepOptions& options) {
  check_options(options);
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) MPI_Init(nullptr, nullptr);
  Ranks r;
  MPI_Comm_size(MPI_COMM_WORLD, &r.size);
  MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
  if (r.size < 2) {
    MPI_Finalize();
    input_error("measure collectives: 1 rank; run it under mpirun -np N with N of 2 or more");
  }
  CollectiveMeasurement m;
  m.ranks = r.size;
  m.root = r.rank == 0;
  m.created = utc_timestamp();
  m.host = host_name();
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(library, &length);
  m.library = std::string(library, static_cast<std::size_t>(length));
  m.library = m.library.substr(0, m.library.find_first_of(",\n"));
  // Whole floats per rank: every size a multiple of 4 bytes x ranks.
  const double quantum = 4.0 * r.size;
  for (const CollectiveOp op :
       {CollectiveOp::allreduce, CollectiveOp::allgather, CollectiveOp::reducescatter,
        CollectiveOp::alltoall, CollectiveOp::broadcast}) {
    for (double size = options.min_bytes; size <= options.max_bytes; size *= 2) {
      const double bytes = std::max(quantum, std::floor(size / quantum) * quantum);
      m.points.push_back(time_one(op, bytes, options, r));
    }
  }
  MPI_Finalize();
  m.fitted_link = fit_link(m.points, r.size);
  const ClusterShape one_node{r.size, 1};
  for (MeasuredCollective& p : m.points) {
    const CollectiveEstimate e = estimate_collective(p.op, CollectiveAlgorithm::ring, p.bytes,
                                                     one_node, m.fitted_link, std::nullopt);
    p.predicted_s = e.time_s;
    p.predicted_busbw_bytes_per_s = e.busbw_bytes_per_s;
  }
  return m;
}

}  // namespace ridge::mpi
