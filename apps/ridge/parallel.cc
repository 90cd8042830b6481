// `ridge parallel`: communication per training step for data, tensor and pipeline parallelism.
#include "common.h"
#include "ridge/cluster.h"
#include "ridge/model.h"
#include "ridge/training.h"
#include "ridge/views.h"

namespace ridge::cli {

void add_parallel(CLI::App& app, std::vector<Command>& commands) {
  struct Args {
    std::string model, dtype = "bf16", device, cluster;
    double dp = 1, tp = 1, pp = 1, global_batch = 256, micro_batch = 1, seq = 4096;
    double gpus_per_node = 8, nodes = 0;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand(
      "parallel", "Training: what data, tensor and pipeline parallelism send, and if it hides");
  sub->add_option("--model", args->model, "A preset or a config.json")->required();
  for (auto [name, value, help] :
       {std::tuple{"--dp", &args->dp, "Data-parallel replicas"},
        std::tuple{"--tp", &args->tp, "Tensor-parallel degree (within a node)"},
        std::tuple{"--pp", &args->pp, "Pipeline stages"},
        std::tuple{"--global-batch", &args->global_batch, "Sequences per step"},
        std::tuple{"--micro-batch", &args->micro_batch, "Sequences per micro-batch"},
        std::tuple{"--seq", &args->seq, "Tokens per sequence"},
        std::tuple{"--gpus-per-node", &args->gpus_per_node, "GPUs per node"}}) {
    sub->add_option(name, *value, help)->check(positive_int())->capture_default_str();
  }
  sub->add_option("--nodes", args->nodes, "Nodes (default: as many as the layout needs)")
      ->check(positive_int());
  add_dtype_option(*sub, args->dtype);
  add_device_option(*sub, args->device);
  sub->add_option("--cluster", args->cluster, "A cluster file (TOML)")
      ->excludes("--gpus-per-node")
      ->excludes("--nodes")
      ->excludes("--device");
  commands.push_back(
      {sub, [args](const Session& s) {
         const ModelConfig model = load_model(args->model);
         TrainingLayout l;
         l.dp = static_cast<int>(args->dp), l.tp = static_cast<int>(args->tp);
         l.pp = static_cast<int>(args->pp);
         l.global_batch = static_cast<int>(args->global_batch);
         l.micro_batch = static_cast<int>(args->micro_batch);
         l.seq = static_cast<int>(args->seq);
         l.precision = parse_precision(args->dtype);
         // Without --nodes, as many nodes as the layout needs.
         const int per_node = static_cast<int>(args->gpus_per_node);
         const int nodes =
             args->nodes > 0 ? static_cast<int>(args->nodes) : (l.gpus() + per_node - 1) / per_node;
         const Cluster cluster = cluster_from(args->cluster, args->device, {per_node, nodes});
         const Device& d = s.device(cluster.device_id);
         const ClusterLinks links = cluster_links(cluster, d);
         const TrainingAnalysis a = analyse_training(
             model, l, cluster.shape, d.peak(l.precision).value, links.in_node, links.across_nodes);
         return report::training_document(a, model, d);
       }});
}

}  // namespace ridge::cli
