// docs/catalog.md is generated from the catalog (data/devices/*.toml): this test renders it and
// fails when the committed file differs. RIDGE_WRITE_DOCS=1 rewrites the file instead.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "ridge/catalog.h"
#include "ridge/roofline.h"
#include "ridge/units.h"

namespace ridge {
namespace {

std::string peak_or_dash(const Device& d, Precision p) {
  return d.has_peak(p) ? units::si(d.peak(p).value, "FLOP/s") : "-";
}

// Numbers each source document once per device, in order of first use.
struct Sources {
  std::map<std::string, int> numbers;
  std::vector<std::string> order;
  std::string mark(const Figure& f) {
    auto [it, added] = numbers.try_emplace(f.source, static_cast<int>(numbers.size()) + 1);
    if (added) order.push_back(f.source);
    return fmt::format("{} [{}]", to_string(f.provenance), it->second);
  }
};

std::string figure_line(const std::string& name, const std::string& value, const Figure& f,
                        Sources& sources) {
  return fmt::format("| {} | {} | {} | {} |\n", name, value, sources.mark(f),
                     f.note.empty() ? "" : f.note);
}

std::string device_section(const Device& d) {
  Sources sources;
  std::string text = fmt::format("\n### {} (`{}`)\n\n{} {}, {}.\n\n", d.name, d.id, d.vendor,
                                 to_string(d.kind), d.year);
  text += "| figure | value | provenance | note |\n| --- | --- | --- | --- |\n";
  for (const auto& [p, f] : d.peak_flops_per_s)
    text +=
        figure_line(fmt::format("peak {}", to_string(p)), units::si(f.value, "FLOP/s"), f, sources);
  const MemoryLevel& main = d.main_memory();
  text += figure_line(main.name + " capacity", units::capacity(main.capacity_bytes->value),
                      *main.capacity_bytes, sources);
  text += figure_line(main.name + " bandwidth", units::si(main.bandwidth_bytes_per_s->value, "B/s"),
                      *main.bandwidth_bytes_per_s, sources);
  for (const Link& l : d.links)
    text += figure_line(fmt::format("{} link: {}", to_string(l.kind), l.name),
                        units::si(l.bandwidth_bytes_per_s.value, "B/s"), l.bandwidth_bytes_per_s,
                        sources);
  text += "\n";
  for (std::size_t i = 0; i < sources.order.size(); ++i)
    text += fmt::format("{}. {}\n", i + 1, sources.order[i]);
  return text;
}

std::string catalog_markdown(const Catalog& catalog) {
  DeviceQuery by_vendor_then_year;
  std::vector<Device> devices = catalog.select(by_vendor_then_year);
  std::ranges::stable_sort(devices, {}, &Device::vendor);
  std::string text =
      "# The device catalog\n\n"
      "Generated from `data/devices/*.toml` by `tests/unit/catalog_doc_test.cc`; `make test` fails "
      "when this file is out of date (`RIDGE_WRITE_DOCS=1 ctest --preset release -R CatalogDoc` "
      "rewrites it). `ridge devices` lists the same devices (`--vendor`, `--kind`, `--sort "
      "ridge|bandwidth|peak|year`), `ridge device show ID` every figure.\n\n"
      "Conventions: SI units; peaks are dense (a \"with sparsity\" figure is halved and the note "
      "says so); for GeForce cards the 16-bit peak is the FP32-accumulate rate; a link's "
      "bandwidth is one direction for host and network links and both directions together for "
      "scale-up links, as vendors quote NVLink; the ridge is the 16-bit peak (fp16, else bf16, "
      "else the first) over main-memory bandwidth. spec: the vendor's document; estimate: no "
      "vendor publishes it, and the note or source says how it was reached.\n\n";
  text += fmt::format("{} devices.\n\n", devices.size());
  text +=
      "| ID | name | kind | year | memory | bandwidth | 16-bit peak | fp8 | fp4 | ridge |\n"
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const Device& d : devices) {
    const Precision p = d.headline_precision();
    text += fmt::format(
        "| `{}` | {} | {} | {} | {} | {} | {} ({}) | {} | {} | {} FLOP/B |\n", d.id, d.name,
        to_string(d.kind), d.year, units::capacity(d.main_memory().capacity_bytes->value),
        units::si(d.main_bandwidth_bytes_per_s(), "B/s"), units::si(d.peak(p).value, "FLOP/s"),
        to_string(p), peak_or_dash(d, Precision::fp8), peak_or_dash(d, Precision::fp4),
        units::plain(ridge_point(d.ceiling(p)), 1));
  }
  text += "\n## Devices and their sources\n";
  for (const Device& d : devices) text += device_section(d);
  return text;
}

TEST(CatalogDoc, IsCurrent) {
  const std::string path = std::string(RIDGE_SOURCE_DIR) + "/docs/catalog.md";
  const std::string expected = catalog_markdown(Catalog::builtin());
  if (const char* write = std::getenv("RIDGE_WRITE_DOCS"); write && std::string(write) == "1") {
    std::ofstream(path) << expected;
    GTEST_SKIP() << "wrote " << path;
  }
  std::ifstream in(path);
  std::stringstream committed;
  committed << in.rdbuf();
  EXPECT_EQ(committed.str(), expected)
      << "docs/catalog.md is out of date: RIDGE_WRITE_DOCS=1 ctest --preset release -R CatalogDoc";
}

}  // namespace
}  // namespace ridge
