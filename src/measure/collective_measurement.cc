// The collective measurement as JSON ("ridge.collective-measurement/1").
#include "ridge/collective_measurement.h"

#include <nlohmann/json.hpp>

namespace ridge {

std::string collective_measurement_to_json(const CollectiveMeasurement& m) {
  using Json = nlohmann::ordered_json;
  Json points = Json::array();
  for (const MeasuredCollective& p : m.points) {
    points.push_back({{"op", std::string(to_string(p.op))},
                      {"bytes", p.bytes},
                      {"time_s", p.time_s},
                      {"fastest_rank_s", p.fastest_rank_s},
                      {"algbw_bytes_per_s", p.algbw_bytes_per_s},
                      {"busbw_bytes_per_s", p.busbw_bytes_per_s},
                      {"predicted_s", p.predicted_s},
                      {"predicted_busbw_bytes_per_s", p.predicted_busbw_bytes_per_s},
                      {"validated", p.validated}});
  }
  const Json root{{"schema", "ridge.collective-measurement/1"},
                  {"created", m.created},
                  {"host", m.host},
                  {"ranks", m.ranks},
                  {"library", m.library},
                  {"fitted_link",
                   {{"bandwidth_bytes_per_s", m.fitted_link.bandwidth_bytes_per_s},
                    {"latency_s", m.fitted_link.latency_s}}},
                  {"points", points}};
  return root.dump(2) + '\n';
}

}  // namespace ridge
