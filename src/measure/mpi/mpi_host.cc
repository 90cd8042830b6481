// `mpirun -np N ridge measure`: the host measured by every rank at once, aggregated on rank 0.
#include <mpi.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ridge/measurement.h"
#include "ridge/mpi_measure.h"

namespace ridge::mpi {

namespace {

// Every rank's text, on rank 0 (empty elsewhere).
std::vector<std::string> gather_text(const std::string& mine, int ranks, int rank) {
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(ranks));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(static_cast<std::size_t>(ranks), 0);
  for (int i = 1; i < ranks; ++i) offsets[i] = offsets[i - 1] + lengths[i - 1];
  std::string all(rank == 0 ? static_cast<std::size_t>(offsets.back() + lengths.back()) : 0, ' ');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, MPI_COMM_WORLD);
  std::vector<std::string> texts;
  if (rank == 0) {
    for (int i = 0; i < ranks; ++i) texts.push_back(all.substr(offsets[i], lengths[i]));
  }
  return texts;
}

}  // namespace

Measurement measure_host_on_every_rank(MeasureOptions options, bool& root) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) MPI_Init(nullptr, nullptr);
  int ranks = 1, rank = 0, local_ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &local_ranks);
  MPI_Comm_free(&node);
  // The ranks of one machine share its cores rather than each taking all of them.
  if (options.threads == 0) options.threads = std::max(1, describe_machine().cores / local_ranks);
  MPI_Barrier(MPI_COMM_WORLD);
  const Measurement mine = measure_host(options);
  const std::vector<std::string> texts = gather_text(measurement_to_json(mine), ranks, rank);
  MPI_Finalize();
  root = rank == 0;
  if (!root) return {};
  std::vector<Measurement> all;
  for (int i = 0; i < ranks; ++i) {
    all.push_back(parse_measurement(texts[i], "rank " + std::to_string(i)));
  }
  return aggregate_measurements(all);
}

}  // namespace ridge::mpi
