#include "ridge/catalog.h"

#include <gtest/gtest.h>

#include "ridge/error.h"

namespace ridge {
namespace {

const Catalog& builtin() { return Catalog::builtin(); }

TEST(Catalog, ShipsTheRequiredDevices) {
  for (const char* id : {"h100-sxm", "v100-sxm2", "a100-sxm-40gb", "a100-sxm-80gb", "h200-sxm",
                         "b200", "mi300x", "l40s"}) {
    EXPECT_NE(builtin().find(id), nullptr) << id;
  }
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
  EXPECT_EQ(builtin().closest_ids("h100", 1).front(), "h100-sxm");
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
  EXPECT_EQ(id_of("NVIDIA A100"), "(none)");       // a prefix of two parts names neither
  EXPECT_EQ(id_of("NVIDIA H100 PCIe"), "(none)");  // a different part from the SXM5 one
  EXPECT_EQ(id_of(""), "(none)");
  Catalog catalog;
  Device toy = builtin().get("l40s");
  toy.runtime_names.clear();
  catalog.add(toy);
  EXPECT_EQ(catalog.find_by_runtime_name("NVIDIA L40")->id, "l40s");  // the one name it begins
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
