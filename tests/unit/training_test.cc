// Parallelism what-ifs by hand: Llama 3.1 70B on 256 H100s, dp 8 x tp 8 x pp 4, 1024 sequences
// of 4096 tokens in micro-batches of 1, NVLink 4 (900 GB/s, 2 us) and InfiniBand (50 GB/s, 5 us).
#include "ridge/training.h"

#include <gtest/gtest.h>

#include "ridge/error.h"
#include "ridge/model.h"

namespace ridge {
namespace {

const LinkModel kNvlink{"NVLink 4", 900e9, 2e-6, true};
const LinkModel kInfiniband{"IB NDR", 50e9, 5e-6, true};

TrainingLayout layout(int dp, int tp, int pp) {
  TrainingLayout l;
  l.dp = dp, l.tp = tp, l.pp = pp;
  l.global_batch = 1024, l.micro_batch = 1, l.seq = 4096;
  return l;
}

TEST(Training, Llama70bOn256GpusByHand) {
  const ModelConfig model = load_model("llama-3.1-70b");
  const double params = count_parameters(model).total();
  const TrainingAnalysis a =
      analyse_training(model, layout(8, 8, 4), {8, 32}, 989.5e12, kNvlink, kInfiniband);
  EXPECT_NEAR(a.flops_per_step, 6 * params * 1024 * 4096, 1);
  EXPECT_NEAR(a.compute_time_s, a.flops_per_step / 256 / 989.5e12, 1e-12);
  EXPECT_NEAR(a.pipeline_bubble, 3.0 / (128 + 3), 1e-15);  // 128 micro-batches per replica
  ASSERT_EQ(a.traffic.size(), 3u);
  // Data: each replica's 1/32 of the gradients in bf16, a ring over 8 replicas one per node.
  const double gradients = params / 32 * 2;
  EXPECT_NEAR(a.traffic[0].bytes_per_gpu, 2 * 7.0 / 8 * gradients, 1);
  EXPECT_NEAR(a.traffic[0].time_s, 14 * 5e-6 + 2 * 7.0 / 8 * gradients / 50e9, 1e-9);
  EXPECT_TRUE(a.traffic[0].overlaps_compute);
  // Tensor: 4 all-reduces x 20 layers x 128 micro-batches of 4096 x 8192 bf16 activations.
  const double activations = 4096.0 * 8192 * 2;
  EXPECT_EQ(a.traffic[1].messages, 10240);
  EXPECT_NEAR(a.traffic[1].time_s, 10240 * (14 * 2e-6 + 2 * 7.0 / 8 * activations / 900e9), 1e-9);
  // Pipeline: stages 8 GPUs apart sit on different nodes: 256 sends over InfiniBand.
  EXPECT_EQ(a.traffic[2].messages, 256);
  EXPECT_NEAR(a.traffic[2].time_s, 256 * (5e-6 + activations / 50e9), 1e-9);
  EXPECT_NEAR(a.exposed_communication_s, a.traffic[1].time_s + a.traffic[2].time_s, 1e-12);
  EXPECT_NEAR(a.step_time_s, a.compute_time_s / (1 - a.pipeline_bubble) + a.exposed_communication_s,
              1e-12);
}

TEST(Training, LayoutsThatDoNotFitAreBadInput) {
  const ModelConfig model = load_model("llama-3.1-70b");
  const auto analyse = [&](int dp, int tp, int pp, ClusterShape cluster) {
    return analyse_training(model, layout(dp, tp, pp), cluster, 1e15, kNvlink, kInfiniband);
  };
  EXPECT_THROW(analyse(1, 16, 1, {8, 2}), InputError);  // tensor parallelism across nodes
  EXPECT_THROW(analyse(1, 3, 1, {8, 1}), InputError);   // 64 heads do not split 3 ways
  EXPECT_THROW(analyse(1, 1, 3, {8, 1}), InputError);   // 80 layers do not split 3 ways
  EXPECT_THROW(analyse(8, 8, 4, {8, 4}), InputError);   // 256 GPUs on 32
  EXPECT_THROW(analyse(3, 1, 1, {8, 1}), InputError);   // 1024 sequences over 3 replicas
  EXPECT_NO_THROW(analyse(1, 1, 1, {8, 1}));
}

}  // namespace
}  // namespace ridge
