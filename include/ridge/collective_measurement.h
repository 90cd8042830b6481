#pragma once
// Collectives measured across the ranks of an MPI job, beside the alpha-beta model's
// prediction: what `ridge measure collectives` writes ("ridge.collective-measurement/1").

#include <string>
#include <vector>

#include "ridge/collective.h"

namespace ridge {

struct MeasuredCollective {
  CollectiveOp op = CollectiveOp::allreduce;
  double bytes = 0;   // nccl-tests' size (rounded to whole floats per rank)
  double time_s = 0;  // mean per operation on the slowest rank
  double fastest_rank_s = 0;
  double algbw_bytes_per_s = 0;
  double busbw_bytes_per_s = 0;
  double predicted_s = 0;  // the alpha-beta model with the link fitted to this run
  double predicted_busbw_bytes_per_s = 0;
  bool validated = true;  // the result checked on every rank
};

struct CollectiveMeasurement {
  std::string created;
  std::string host;
  int ranks = 0;
  std::string library;    // the MPI library's version line
  LinkModel fitted_link;  // latency from the smallest all-reduce, bandwidth from the largest
  std::vector<MeasuredCollective> points;
  bool root = true;  // false on every rank but 0, which alone holds the results and prints
};

std::string collective_measurement_to_json(const CollectiveMeasurement& m);

}  // namespace ridge
