#include <fmt/format.h>

#include "report/cells.h"
#include "ridge/views.h"

namespace ridge::report {

Document occupancy_document(const Occupancy& o, const Device& device) {
  Fields fields{{
      {"device", "device", text_cell(device.id)},
      {"units", device.unit_name + "s", integer_cell(static_cast<std::int64_t>(o.units))},
      {"blocks", "blocks", integer_cell(static_cast<std::int64_t>(o.blocks))},
      {"waves", "waves", integer_cell(static_cast<std::int64_t>(o.waves))},
      {"utilisation", "utilisation", percent_cell(o.utilisation)},
      {"idle_slots", device.unit_name + " slots idle",
       integer_cell(static_cast<std::int64_t>(o.idle_slots))},
  }};
  Document doc;
  doc.schema = "ridge.occupancy/1";
  doc.title =
      fmt::format("{} blocks on {} {}s of {}", o.blocks, o.units, device.unit_name, device.name);
  doc.sections.push_back({"", "", {std::move(fields)}, {}});
  doc.notes.push_back(fmt::format(
      "model: equal blocks, one per {} at a time, dealt round-robin; the kernel lasts as long as "
      "its busiest {}, so a partial last wave costs a whole one",
      device.unit_name, device.unit_name));
  return doc;
}

Document allreduce_document(const AllReduceCost& cost, const Device& device) {
  Table legs{"legs",
             {{"leg", "leg", Align::left},
              {"link", "link", Align::left},
              {"ranks", "ranks"},
              {"bytes_per_gpu", "bytes/GPU"},
              {"bandwidth_bytes_per_s", "bandwidth"},
              {"time_s", "time"},
              {"share_of_time", "share"}},
             {}};
  for (const CollectiveLeg& leg : cost.legs) {
    legs.rows.push_back({text_cell(leg.name), text_cell(leg.link_name), integer_cell(leg.ranks),
                         bytes_cell(leg.bytes_per_rank), bandwidth_cell(leg.bandwidth_bytes_per_s),
                         time_cell(leg.time_s),
                         percent_cell(cost.time_s > 0 ? leg.time_s / cost.time_s : 0, 0)});
  }
  Fields totals{{
      {"buffer_bytes", "buffer", bytes_cell(cost.buffer_bytes)},
      {"gpus_per_node", "GPUs per node", integer_cell(cost.gpus_per_node)},
      {"nodes", "nodes", integer_cell(cost.nodes)},
      {"time_s", "all-reduce time", time_cell(cost.time_s)},
      {"inter_node_share", "share across nodes", percent_cell(cost.inter_node_share, 0)},
  }};
  Document doc;
  doc.schema = "ridge.collective/1";
  doc.title = fmt::format("Ring all-reduce on {}", device.name);
  doc.sections.push_back({"", "", {std::move(totals), std::move(legs)}, {}});
  doc.notes.push_back(
      "bandwidth-only model: each leg is a ring (2(n-1)/n of its buffer per GPU), the cross-node "
      "ring carries each GPU's 1/G shard, and per-message latency is ignored; a lower bound");
  return doc;
}

}  // namespace ridge::report
