// ridge profile's readers and its roofline placement, on the real files in tests/data/profiles.
#include "ridge/profile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "ridge/catalog.h"
#include "ridge/error.h"

namespace ridge {
namespace {

const std::string kProfiles = RIDGE_SOURCE_DIR "/tests/data/profiles/";

const Launch& launch(const Profile& p, const std::string& short_name) {
  const auto it = std::ranges::find_if(
      p.launches, [&](const Launch& l) { return short_kernel_name(l.name) == short_name; });
  EXPECT_NE(it, p.launches.end()) << short_name;
  return *it;
}

// The long-form ncu CSV, kernel ID 2 (gemm_v1<float>), by hand from its rows: FFMA
// 34,359,738,368,000 and HFMA 2,149,161,369,600 thread instructions at two FLOPs each, no
// adds or multiplies; 807,658,682,624 DRAM bytes; 25,610,472,227.46 cycles at
// 764,999,999.31 cycles a second.
TEST(Profile, NcuCsvFiguresByHand) {
  const Profile p = read_profile(kProfiles + "learningnote4dev__ncu_sgemm_cc80.csv");
  EXPECT_EQ(p.format, "Nsight Compute CSV (ncu --csv)");
  ASSERT_EQ(p.launches.size(), 3u);
  const Launch& gemm = launch(p, "gemm_v1<float>");
  EXPECT_DOUBLE_EQ(*gemm.flops, 2 * 34'359'738'368'000.0 + 2 * 2'149'161'369'600.0);
  EXPECT_DOUBLE_EQ(*gemm.bytes, 807'658'682'624.0);
  EXPECT_DOUBLE_EQ(*gemm.l2_bytes, 40'927'345'510'272.0);
  EXPECT_DOUBLE_EQ(*gemm.l1_bytes, 38'708'392'755'200.0);
  EXPECT_DOUBLE_EQ(*gemm.tensor_instructions, 67'161'292'800.0);
  EXPECT_DOUBLE_EQ(gemm.time_s, 25'610'472'227.46 / 764'999'999.31);
  EXPECT_EQ(gemm.precision, Precision::fp32);
  // randomInit: 838,860,800 FFMA and 5,323,503,232 DRAM bytes in the first launch.
  EXPECT_DOUBLE_EQ(*p.launches[0].flops, 2 * 838'860'800.0);
  EXPECT_DOUBLE_EQ(*p.launches[0].bytes, 5'323'503'232.0);
}

TEST(Profile, CuptiCountersGiveFlopsPerKernel) {
  const Profile p = read_profile(
      kProfiles + "hta__cupti_profiler__benchmark_result_924719_1679055439_trace.json.gz");
  EXPECT_NE(p.format.find("CUPTI"), std::string::npos);
  EXPECT_EQ(p.device_name, "NVIDIA A100-PG509-200");
  // The first range: 4,866,048 HFMA and 38,731,776 FFMA thread instructions.
  const auto& first = p.launches.front();
  EXPECT_DOUBLE_EQ(*first.flops, 2 * (4'866'048.0 + 38'731'776.0));
  EXPECT_EQ(first.precision, Precision::fp32);
  int launches = 0;
  for (const Launch& l : p.launches) launches += l.count;
  EXPECT_EQ(launches, 77);
}

TEST(Profile, UnknownFiguresStayUnknown) {
  const Profile p = read_profile(kProfiles + "hta__triton_example__triton_example.json.gz");
  ASSERT_EQ(p.launches.size(), 1u);
  EXPECT_EQ(p.launches[0].op, "triton_poi_fused_add_cos_sin_0");
  EXPECT_FALSE(p.launches[0].flops.has_value());
  const ProfileAnalysis a = analyse_profiles({p}, Catalog::builtin().get("a100-sxm-40gb"),
                                             "--device", ProfileGrouping::kernel, 10);
  ASSERT_EQ(a.kernels.size(), 1u);
  EXPECT_EQ(a.kernels[0].bound, "unknown");
  EXPECT_FALSE(a.kernels[0].recoverable_s.has_value());
  EXPECT_TRUE(a.top_recoverable.empty());
}

// gemm_v1 on an A100 40GB at fp32 (19.5 TFLOP/s, 1.555 TB/s): intensity 90.4 is past the
// ridge (12.5), so compute-bound; its roofline time is its FLOPs over the peak.
TEST(Profile, KernelsSitOnTheRoofline) {
  const Profile p = read_profile(kProfiles + "learningnote4dev__ncu_sgemm_cc80.csv");
  const Device& a100 = Catalog::builtin().get("a100-sxm-40gb");
  const ProfileAnalysis a = analyse_profiles({p}, a100, "--device", ProfileGrouping::kernel, 10);
  const ProfiledKernel& gemm = a.kernels.front();
  EXPECT_EQ(gemm.name, "gemm_v1<float>");
  EXPECT_EQ(gemm.family, "gemm");
  EXPECT_EQ(gemm.bound, "compute");
  const double flops = 2 * 34'359'738'368'000.0 + 2 * 2'149'161'369'600.0;
  EXPECT_DOUBLE_EQ(*gemm.bound_time_s, flops / a100.peak(Precision::fp32).value);
  EXPECT_DOUBLE_EQ(*gemm.recoverable_s, gemm.time_s - *gemm.bound_time_s);
  EXPECT_DOUBLE_EQ(*gemm.share_of_roof, flops / gemm.time_s / a100.peak(Precision::fp32).value);
  EXPECT_EQ(a.launches, 3);
  EXPECT_EQ(a.top_recoverable.front().name, "gemm_v1<float>");
  const ProfileAnalysis families =
      analyse_profiles({p}, a100, "--device", ProfileGrouping::family, 10);
  EXPECT_EQ(families.kernels.size(), 2u);  // gemm, and randomInit as other
}

TEST(Profile, KernelNamesAndFamilies) {
  EXPECT_EQ(demangled("_Z6kernelPfi"), "kernel(float*, int)");
  EXPECT_EQ(short_kernel_name("void gemm_v1<float>(float *, float *, float *, int, int, int)"),
            "gemm_v1<float>");
  EXPECT_EQ(short_kernel_name("void at::native::(anonymous namespace)::max_pool_forward_nchw<"
                              "float, float>(int, float const*)"),
            "at::native::(anonymous namespace)::max_pool_forward_nchw<...>");
  EXPECT_EQ(
      kernel_family("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage)", false),
      "communication");
  EXPECT_EQ(kernel_family("ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)", false),
            "communication");
  EXPECT_EQ(kernel_family("void flash_fwd_kernel<Flash_fwd_kernel_traits<128>>(Params)", false),
            "attention");
  EXPECT_EQ(kernel_family("ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn", false), "gemm");
  // A parameter type does not decide the family (cudnn::reduced_divisor is no reduction).
  EXPECT_EQ(kernel_family("void fft2d_r2c_32x32<float>(float2*, cudnn::reduced_divisor)", false),
            "other");
  EXPECT_EQ(kernel_family("Memcpy HtoD (Pageable -> Device)", true), "memcpy");
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

// A GPU trace as Kineto writes one: an aten::mm with its shapes launching one GEMM kernel, an
// aten::linear launching two (a GEMM and a bias add), a copy and an NCCL all-reduce.
constexpr const char* kGpuTrace = R"json({"schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
  "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 10,
   "args": {"External id": 1, "Input Dims": [[4096, 4096], [4096, 4096]],
            "Input type": ["c10::BFloat16", "c10::BFloat16"]}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 20, "dur": 10,
   "args": {"External id": 2, "flops": 1000}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 5,
   "dur": 2, "args": {"correlation": 11, "External id": 1}},
  {"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64",
   "pid": 0, "tid": 7, "ts": 100, "dur": 200.5, "args": {"correlation": 11}},
  {"ph": "X", "cat": "kernel", "name": "ampere_bf16_s16816gemm_bf16_64x64_ldg8_f2f_tn", "pid": 0,
   "tid": 7, "ts": 400, "dur": 10, "args": {"External id": 2}},
  {"ph": "X", "cat": "kernel", "name": "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>(int)",
   "pid": 0, "tid": 7, "ts": 420, "dur": 2, "args": {"External id": 2}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7,
   "ts": 430, "dur": 50, "args": {"bytes": 1048576}},
  {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
   "pid": 0, "tid": 8, "ts": 500, "dur": 80, "args": {}}
]})json";

TEST(Profile, KernelsJoinTheirOpsAndItsShapes) {
  const Profile p = read_profile(write_temp("gpu_trace.json", kGpuTrace));
  EXPECT_EQ(p.device_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(profile_device({p}, Catalog::builtin())->id, "h100-sxm");
  ASSERT_EQ(p.launches.size(), 5u);
  // The GEMM joined to aten::mm through the launch's correlation id: 2 m n k from the shapes.
  const Launch& gemm = p.launches[0];
  EXPECT_EQ(gemm.op, "aten::mm");
  EXPECT_DOUBLE_EQ(*gemm.flops, 2.0 * 4096 * 4096 * 4096);
  EXPECT_DOUBLE_EQ(*gemm.bytes, 3.0 * 4096 * 4096 * 2);
  EXPECT_EQ(gemm.precision, Precision::bf16);
  EXPECT_DOUBLE_EQ(gemm.time_s, 200.5e-6);
  // aten::linear launched two kernels: its FLOPs go to neither, rather than twice.
  EXPECT_EQ(p.launches[1].op, "aten::linear");
  EXPECT_FALSE(p.launches[1].flops.has_value());
  EXPECT_TRUE(p.launches[3].memory_operation);
  const ProfileAnalysis a = analyse_profiles({p}, Catalog::builtin().get("h100-sxm"), "trace",
                                             ProfileGrouping::kernel, 10);
  EXPECT_EQ(a.launches, 5);
  EXPECT_DOUBLE_EQ(a.total_time_s, (200.5 + 10 + 2 + 50 + 80) * 1e-6);
  const auto family = [&](const std::string& name) {
    return std::ranges::find(a.families, name, &FamilyTotal::family) != a.families.end();
  };
  EXPECT_TRUE(family("gemm") && family("memcpy") && family("communication") &&
              family("element-wise"));
  // The shaped GEMM has an expected time from the Hopper calibration, above its bound.
  const ProfiledKernel& top = a.kernels.front();
  ASSERT_TRUE(top.expected_time_s.has_value());
  EXPECT_GT(*top.expected_time_s, *top.bound_time_s);
  const ProfileAnalysis by_op =
      analyse_profiles({p}, Catalog::builtin().get("h100-sxm"), "trace", ProfileGrouping::op, 10);
  const auto linear = std::ranges::find(by_op.kernels, "aten::linear", &ProfiledKernel::name);
  ASSERT_NE(linear, by_op.kernels.end());
  EXPECT_EQ(linear->count, 2);
}

// ncu --page raw: one row per kernel, a units row second; the same figures as the long form.
TEST(Profile, NcuRawPageReadsAsTheLongForm) {
  const std::string raw =
      "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"gpu__time_duration.sum\","
      "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
      "\"\",\"\",\"Mbyte\",\"usecond\",\"inst\"\n"
      "\"0\",\"void saxpy(float*, float*, float)\",\"1,024.00\",\"12.50\",\"268,435,456\"\n";
  const Profile p = read_profile(write_temp("raw.csv", raw));
  EXPECT_EQ(p.format, "Nsight Compute CSV (--page raw)");
  ASSERT_EQ(p.launches.size(), 1u);
  EXPECT_DOUBLE_EQ(*p.launches[0].bytes, 1024e6);
  EXPECT_DOUBLE_EQ(p.launches[0].time_s, 12.5e-6);
  EXPECT_DOUBLE_EQ(*p.launches[0].flops, 2 * 268'435'456.0);
}

TEST(Profile, NotAProfileIsBadInput) {
  EXPECT_THROW(read_profile(RIDGE_SOURCE_DIR "/data/models/llama-2-7b.json"), InputError);
  EXPECT_THROW(read_profile(RIDGE_SOURCE_DIR "/data/devices/h100-sxm.toml"), InputError);
  EXPECT_THROW(read_profile(kProfiles + "no-such-file.json"), InputError);
}

}  // namespace
}  // namespace ridge
