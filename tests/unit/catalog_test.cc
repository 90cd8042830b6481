#include "ridge/catalog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "ridge/error.h"
#include "ridge/roofline.h"

namespace ridge {
namespace {

const Catalog& builtin() { return Catalog::builtin(); }

TEST(Catalog, ShipsTheRequiredDevices) {
  for (const char* id : {"h100-sxm",
                         "v100-sxm2",
                         "a100-sxm-40gb",
                         "a100-sxm-80gb",
                         "h200-sxm",
                         "b200",
                         "mi300x",
                         "l40s",
                         "l40",
                         "h100-pcie",
                         "h100-nvl",
                         "h20",
                         "h800",
                         "gh200",
                         "h200-nvl",
                         "b300",
                         "gb200",
                         "a100-pcie-80gb",
                         "a100-pcie-40gb",
                         "a10",
                         "l4",
                         "t4",
                         "rtx-4090",
                         "rtx-5090",
                         "rtx-6000-ada",
                         "rtx-pro-6000-server",
                         "rtx-pro-6000",
                         "mi250x",
                         "mi250x-gcd",
                         "mi325x",
                         "mi355x",
                         "gaudi2",
                         "gaudi3",
                         "tpu-v4",
                         "tpu-v5e",
                         "tpu-v5p",
                         "tpu-v6e",
                         "trainium2",
                         "apple-m4-max",
                         "epyc-9755",
                         "xeon-6980p",
                         "arc-pro-b60"}) {
    EXPECT_NE(builtin().find(id), nullptr) << id;
  }
  EXPECT_GE(builtin().devices().size(), 32U);
  std::size_t cpus = 0;
  for (const Device& d : builtin().devices()) cpus += d.is_cpu() ? 1 : 0;
  EXPECT_GE(cpus, 2U);
}

// Each device's main-memory bandwidth and dense 16-bit peak (bf16 where the part has no fp16
// rate), as read by hand from the vendor document its file names.
TEST(Catalog, BandwidthAndDense16BitPeakMatchTheVendorDocuments) {
  struct Expected {
    const char* id;
    double bandwidth, peak16;
  };
  const Expected table[] = {
      {"h100-pcie", 2.0e12, 756.5e12},
      {"h100-nvl", 3.9e12, 835.5e12},
      {"h20", 4.0e12, 148e12},
      {"gh200", 4.9e12, 989.5e12},
      {"h200-nvl", 4.8e12, 835.5e12},
      {"b300", 8e12, 2.25e15},
      {"gb200", 8e12, 2.5e15},
      {"a100-pcie-80gb", 1.935e12, 312e12},
      {"a100-pcie-40gb", 1.555e12, 312e12},
      {"mi250x-gcd", 1.6384e12, 191.5e12},
      {"l40", 864e9, 181.05e12},
      {"a10", 600e9, 125e12},
      {"l4", 300e9, 121e12},
      {"t4", 320e9, 65e12},
      {"rtx-4090", 1008e9, 165.2e12},
      {"rtx-5090", 1792e9, 209.5e12},
      {"rtx-6000-ada", 960e9, 364.2e12},
      // The datasheet's bandwidth; its tensor rate four times its 120 TFLOPS of FP32 (no dense
      // tensor figure in the datasheet: 1024 FLOP a clock an SM, aiconfigurator's system file).
      {"rtx-pro-6000-server", 1.597e12, 480e12},
      {"rtx-pro-6000", 1.792e12, 500e12},  // the Workstation Edition: four times 125 TFLOPS
      {"mi250x", 3.2768e12, 383e12},
      {"mi325x", 6e12, 1307.4e12},
      {"mi355x", 8e12, 2516.6e12},
      {"gaudi2", 2.46e12, 432e12},
      {"gaudi3", 3.67e12, 1835e12},
      {"tpu-v4", 1.2e12, 275e12},
      {"tpu-v5e", 819e9, 197e12},
      {"tpu-v5p", 2.765e12, 459e12},
      {"tpu-v6e", 1.638e12, 918e12},
      {"trainium2", 2.9e12, 667e12},
      {"apple-m4-max", 546e9, 16.2e12},
      {"epyc-9755", 614.4e9, 44.24e12},
      {"xeon-6980p", 614.4e9, 262.1e12},
      // Intel publishes 197 INT8 TOPS; Xe2's XMX runs 16 bits at half that rate.
      {"arc-pro-b60", 456e9, 98.5e12},
  };
  for (const Expected& e : table) {
    const Device& d = builtin().get(e.id);
    EXPECT_DOUBLE_EQ(d.main_bandwidth_bytes_per_s(), e.bandwidth) << e.id;
    const Precision p16 = d.has_peak(Precision::fp16) ? Precision::fp16 : Precision::bf16;
    EXPECT_DOUBLE_EQ(d.peak(p16).value, e.peak16) << e.id;
  }
}

// A note that quotes a "with sparsity" figure: the dense peak is at most that figure, and half
// of it where the note says it was halved. Figures quoted for a board or superchip are per
// device once divided by its GPUs ("for eight GPUs", "for 72 GPUs", "per superchip of two GPUs").
TEST(Catalog, DensePeaksAreAtMostTheSparseFiguresQuoted) {
  const std::regex sparse(R"(([0-9][0-9,]*(?:\.[0-9]+)?) (T|P)(?:FLOPS|OPS)[^;]*? with sparsity)");
  std::size_t checked = 0;
  for (const Device& d : builtin().devices()) {
    for (const auto& [p, f] : d.peak_flops_per_s) {
      std::smatch m;
      if (!std::regex_search(f.note, m, sparse)) continue;
      std::string digits = m[1];
      std::erase(digits, ',');
      double quoted = std::stod(digits) * (m[2] == "T" ? 1e12 : 1e15);
      if (f.note.find("for eight GPUs") != std::string::npos) quoted /= 8;
      if (f.note.find("for 72 GPUs") != std::string::npos) quoted /= 72;
      if (f.note.find("superchip of two GPUs") != std::string::npos) quoted /= 2;
      const std::string where = d.id + " " + std::string(to_string(p)) + ": " + f.note;
      EXPECT_LE(f.value, quoted * (1 + 1e-3)) << where;
      if (f.note.find("halved") != std::string::npos) {
        EXPECT_NEAR(f.value, quoted / 2, quoted * 1e-3) << where;
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 60U);  // the check reads the notes it is meant to read
}

// Figures inside what any real chip of the kind can have, and peaks that rise as the
// precision narrows: a typo of a factor of 1000 or a swapped column shows here.
TEST(Catalog, FiguresAreInPlausibleRanges) {
  const Precision widest_to_narrowest[] = {Precision::fp64, Precision::fp32, Precision::tf32,
                                           Precision::bf16, Precision::fp8,  Precision::fp6,
                                           Precision::fp4};
  for (const Device& d : builtin().devices()) {
    const double bandwidth = d.main_bandwidth_bytes_per_s();
    EXPECT_GE(bandwidth, 100e9) << d.id;
    EXPECT_LE(bandwidth, 20e12) << d.id;
    EXPECT_GE(d.main_memory().capacity_bytes->value, 8e9) << d.id;
    EXPECT_LE(d.main_memory().capacity_bytes->value, 8e12) << d.id;
    for (const auto& [p, f] : d.peak_flops_per_s) {
      EXPECT_GE(f.value, 1e11) << d.id << " " << to_string(p);
      EXPECT_LE(f.value, 5e16) << d.id << " " << to_string(p);
    }
    double previous = 0;
    for (const Precision p : widest_to_narrowest) {
      if (!d.has_peak(p)) continue;
      EXPECT_GE(d.peak(p).value, previous) << d.id << " " << to_string(p);
      previous = d.peak(p).value;
    }
    // The ridge is derived from the two figures, never stored.
    const Precision p = d.headline_precision();
    EXPECT_DOUBLE_EQ(ridge_point(d.ceiling(p)), d.peak(p).value / bandwidth) << d.id;
    EXPECT_GT(ridge_point(d.ceiling(p)), 10) << d.id;
    EXPECT_LT(ridge_point(d.ceiling(p)), 1000) << d.id;
    for (const Link& l : d.links) EXPECT_LE(l.bandwidth_bytes_per_s.value, 4e12) << d.id;
  }
}

TEST(Catalog, SelectsByVendorAndKindInTheAskedOrder) {
  DeviceQuery tpus;
  tpus.kind = DeviceKind::tpu;
  const std::vector<Device> by_year = builtin().select(tpus);
  ASSERT_EQ(by_year.size(), 4U);
  EXPECT_EQ(by_year.front().id, "tpu-v4");
  tpus.order = DeviceOrder::bandwidth;
  EXPECT_EQ(builtin().select(tpus).front().id, "tpu-v5p");
  DeviceQuery amd;
  amd.vendor = "amd";  // any case
  amd.order = DeviceOrder::peak;
  const std::vector<Device> amd_parts = builtin().select(amd);
  EXPECT_EQ(amd_parts.front().id, "mi355x");
  for (const Device& d : amd_parts) EXPECT_EQ(d.vendor, "AMD");
  DeviceQuery ridges;
  ridges.order = DeviceOrder::ridge;
  const std::vector<Device> all = builtin().select(ridges);
  for (std::size_t i = 1; i < all.size(); ++i) {
    EXPECT_GE(ridge_point(all[i - 1].ceiling(all[i - 1].headline_precision())),
              ridge_point(all[i].ceiling(all[i].headline_precision())));
  }
  DeviceQuery typo;
  typo.vendor = "nvdia";
  EXPECT_THROW(builtin().select(typo), InputError);
}

TEST(Catalog, H100IsExactlyTheReferenceSpecification) {
  const Device& d = builtin().get("h100-sxm");
  EXPECT_EQ(d.compute_unit_count(), 132);
  EXPECT_EQ(d.main_memory().capacity_bytes->value, 80.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(d.main_bandwidth_bytes_per_s(), 3.35e12);
  EXPECT_EQ(d.peak(Precision::fp32).value, 67e12);
  EXPECT_EQ(d.peak(Precision::tf32).value, 495e12);
  EXPECT_EQ(d.peak(Precision::fp16).value, 990e12);
  EXPECT_EQ(d.peak(Precision::fp8).value, 1979e12);
  EXPECT_EQ(d.link(LinkKind::scale_up).bandwidth_bytes_per_s.value, 900e9);
  EXPECT_EQ(d.link(LinkKind::network).bandwidth_bytes_per_s.value, 50e9);
  EXPECT_EQ(d.link(LinkKind::host).bandwidth_bytes_per_s.value, 64e9);
  const double capacities[] = {256 * 1024, 228 * 1024, 50 * 1024 * 1024};
  const double latencies_ns[] = {1, 30, 200, 500};
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(d.memory[i].capacity_bytes->value, capacities[i]);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(d.memory[i].latency_s->value * 1e9, latencies_ns[i], 1e-9);
    EXPECT_EQ(d.memory[i].latency_s->provenance, Provenance::estimate);
  }
  EXPECT_EQ(d.memory[0].bandwidth_bytes_per_s->provenance, Provenance::estimate);
  EXPECT_EQ(d.main_memory().bandwidth_bytes_per_s->provenance, Provenance::spec);
}

TEST(Catalog, GenerationsUseThePublishedFigures) {
  EXPECT_EQ(builtin().get("v100-sxm2").ceiling(Precision::fp16).peak_flops_per_s, 125e12);
  EXPECT_EQ(builtin().get("v100-sxm2").main_bandwidth_bytes_per_s(), 900e9);
  EXPECT_EQ(builtin().get("a100-sxm-80gb").main_bandwidth_bytes_per_s(), 2039e9);
  EXPECT_EQ(builtin().get("a100-sxm-80gb").peak(Precision::bf16).value, 312e12);
  EXPECT_EQ(builtin().get("a100-sxm-40gb").main_bandwidth_bytes_per_s(), 1555e9);
}

TEST(Catalog, PeaksAreDenseAndAbsentWhereThePartLacksThem) {
  EXPECT_FALSE(builtin().get("v100-sxm2").has_peak(Precision::bf16));
  EXPECT_FALSE(builtin().get("a100-sxm-80gb").has_peak(Precision::fp8));
  EXPECT_FALSE(builtin().get("l40s").has_peak(Precision::fp64));
  EXPECT_EQ(builtin().get("mi300x").peak(Precision::fp16).value, 1307.4e12);
  EXPECT_EQ(builtin().get("b200").peak(Precision::fp8).value, 4.5e15);
  EXPECT_EQ(builtin().get("l40s").peak(Precision::fp8).value, 733e12);
}

TEST(Catalog, EveryFigureNamesItsSource) {
  auto check = [](const Figure& f, const std::string& where) {
    EXPECT_GT(f.value, 0) << where;
    if (f.provenance != Provenance::derived) {
      EXPECT_FALSE(f.source.empty()) << where;
    }
  };
  for (const Device& d : builtin().devices()) {
    for (const auto& [p, f] : d.peak_flops_per_s) check(f, d.id);
    for (const MemoryLevel& m : d.memory) {
      for (const auto* f : {&m.capacity_bytes, &m.bandwidth_bytes_per_s, &m.latency_s}) {
        if (*f) check(**f, d.id + " " + m.name);
      }
    }
    for (const Link& l : d.links) check(l.bandwidth_bytes_per_s, d.id + " " + l.name);
  }
}

TEST(Catalog, UnknownDeviceSuggestsTheClosest) {
  const std::vector<std::string> h100s = builtin().closest_ids("h100", 3);
  EXPECT_NE(std::ranges::find(h100s, "h100-sxm"), h100s.end());  // every H100 is a candidate
  EXPECT_EQ(builtin().closest_ids("a100-sxm-80", 1).front(), "a100-sxm-80gb");
  try {
    builtin().get("h10");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'h10'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("h100-sxm"), std::string::npos);
  }
}

TEST(Catalog, FindsTheSpecOfWhatTheRuntimeReports) {
  // The names CUDA reports differ from the datasheets' (H100 SXM5 is "NVIDIA H100 80GB HBM3").
  const auto id_of = [](std::string_view runtime_name) {
    const Device* d = builtin().find_by_runtime_name(runtime_name);
    return d ? d->id : std::string("(none)");
  };
  EXPECT_EQ(id_of("NVIDIA H100 80GB HBM3"), "h100-sxm");
  EXPECT_EQ(id_of("NVIDIA A100-SXM4-80GB"), "a100-sxm-80gb");
  EXPECT_EQ(id_of("Tesla V100-SXM2-32GB"), "v100-sxm2");
  EXPECT_EQ(id_of("NVIDIA H200"), "h200-sxm");
  EXPECT_EQ(id_of("NVIDIA A100"), "(none)");          // a prefix of two parts names neither
  EXPECT_EQ(id_of("NVIDIA H100 PCIe"), "h100-pcie");  // a different part from the SXM5 one
  EXPECT_EQ(id_of(""), "(none)");
  // Without runtime names, the one catalog name that a name begins, in whole words: the L40 is
  // another part than the L40S.
  Catalog catalog;
  for (const char* id : {"l40s", "h100-pcie"}) {
    Device toy = builtin().get(id);
    toy.runtime_names.clear();
    catalog.add(toy);
  }
  EXPECT_EQ(catalog.find_by_runtime_name("NVIDIA H100 PCIe")->id, "h100-pcie");
  EXPECT_EQ(catalog.find_by_runtime_name("NVIDIA L40"), nullptr);
}

TEST(Catalog, AddReplacesADeviceWithTheSameId) {
  Catalog catalog = builtin();
  Device d = builtin().get("h100-sxm");
  d.name = "mine";
  catalog.add(d);
  EXPECT_EQ(catalog.devices().size(), builtin().devices().size());
  EXPECT_EQ(catalog.get("h100-sxm").name, "mine");
}

constexpr const char* kMinimal = R"(id = "toy"
name = "Toy"
vendor = "Test"
year = 2024
[sources]
doc = "a document"
[peak]
fp16 = { value = 100e12, provenance = "spec", source = "doc" }
[[memory]]
name = "DRAM"
kind = "main"
capacity = { value = 1e9, provenance = "spec", source = "doc" }
bandwidth = { value = 1e12, provenance = "measured", source = "doc" }
)";

std::string error_of(const std::string& text) {
  try {
    parse_device_toml(text, "toy.toml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

TEST(DeviceToml, ParsesAMinimalDevice) {
  const Device d = parse_device_toml(kMinimal, "toy.toml");
  EXPECT_EQ(d.id, "toy");
  EXPECT_EQ(d.ceiling(Precision::fp16).peak_flops_per_s, 100e12);
  EXPECT_EQ(d.main_memory().bandwidth_bytes_per_s->provenance, Provenance::measured);
  EXPECT_EQ(d.peak(Precision::fp16).source, "a document");
}

TEST(DeviceToml, ErrorsNameFileLineAndField) {
  EXPECT_EQ(error_of(replaced(kMinimal, "value = 100e12", "value = -3")),
            "toy.toml:8:18: peak.fp16.value: -3 must be positive");
  EXPECT_EQ(error_of(replaced(kMinimal, "year = 2024", "year = 2024\nbandwith = 3")),
            "toy.toml:5:12: bandwith: unknown field");
  EXPECT_EQ(error_of(replaced(kMinimal, "source = \"doc\" }\n[[memory]]",
                              "source = \"dco\" }\n[[memory]]")),
            "toy.toml:8:56: peak.fp16.source: 'dco' is not a key of [sources]");
  EXPECT_NE(
      error_of(replaced(kMinimal,
                        "bandwidth = { value = 1e12, provenance = \"measured\", source = \"doc\" }",
                        ""))
          .find("memory[0].bandwidth: missing"),
      std::string::npos);
  EXPECT_NE(error_of(replaced(kMinimal, "kind = \"main\"", "kind = \"cache\""))
                .find("memory: needs one level"),
            std::string::npos);
  EXPECT_NE(error_of(replaced(kMinimal, "value = 100e12", "value = nan")).find("not finite"),
            std::string::npos);
  EXPECT_NE(error_of(replaced(kMinimal, "provenance = \"spec\", source = \"doc\" }\n[[",
                              "provenance = \"guess\", source = \"doc\" }\n[["))
                .find("peak.fp16.provenance"),
            std::string::npos);
  EXPECT_NE(error_of(replaced(kMinimal, "fp16 =", "fp12 =")).find("peak.fp12: unknown precision"),
            std::string::npos);
  EXPECT_NE(error_of("id = \"x\"\nname = [").find("toy.toml:2:"), std::string::npos);
  EXPECT_NE(error_of("").find("toy.toml:1:1: id: missing"), std::string::npos);
}

TEST(DeviceToml, MissingFileIsBadInput) {
  EXPECT_THROW(load_device_file("/nonexistent/device.toml"), InputError);
}

}  // namespace
}  // namespace ridge
