#include "predict/device_names.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "core/text.h"

namespace ridge::predict {

namespace {

enum class FormFactor { unstated, module, pcie, nvl };

FormFactor form_factor_of(std::string_view word) {
  if (word == "pcie") return FormFactor::pcie;
  if (word == "nvl") return FormFactor::nvl;
  if (word.starts_with("sxm") || word == "hgx" || word == "oam") return FormFactor::module;
  return FormFactor::unstated;
}

// Words that tell no part from another: the vendor's, the product line's ("Tensor Core GPU"),
// and the memory technology (an H200 is HBM3e whatever a table calls it).
bool says_nothing_of_the_part(std::string_view word) {
  static const std::set<std::string_view> filler = {
      "nvidia", "amd",      "intel", "tesla",  "tensor", "core", "gpu", "gpus", "card",
      "module", "graphics", "one",   "single", "a",      "an",   "of",  "the"};
  // "VF": a virtual function of the part (Azure's MI300X), the same silicon; "NVL72": the rack
  // a part sits in, not the part.
  const bool rack = word.starts_with("nvl") && all_digits(word.substr(3));
  return filler.contains(word) || word == "vf" || rack || word.starts_with("hbm") ||
         word.starts_with("gddr");
}

// A model number written apart from its letters ("MI-250x", "MI 300X", "H 100") is one word, as
// the catalog writes it: a word of one or two letters joins the word after it where that begins
// with a digit.
std::vector<std::string> model_numbers_joined(std::vector<std::string> words) {
  std::vector<std::string> joined;
  for (std::string& w : words) {
    const bool letters = !joined.empty() && joined.back().size() <= 2 &&
                         std::ranges::all_of(joined.back(), [](char c) {
                           return std::isalpha(static_cast<unsigned char>(c));
                         });
    if (letters && std::isdigit(static_cast<unsigned char>(w.front()))) {
      joined.back() += w;
      continue;
    }
    joined.push_back(std::move(w));
  }
  return joined;
}

// The words of a name that tell parts apart, and the form factor it states. "80 GB" is read as
// one word, "80gb", as the catalog writes it.
struct NameWords {
  std::vector<std::string> words;
  FormFactor form = FormFactor::unstated;
};

NameWords name_words(std::string_view name) {
  NameWords out;
  std::string plain, remark;
  int depth = 0;  // what a name says in parentheses is a remark, not the part
  for (const char c : name) {
    depth += c == '(' ? 1 : 0;
    (depth == 0 ? plain : remark) += c;
    depth -= c == ')' && depth > 0 ? 1 : 0;
  }
  // But a run on one die of a two-die part ("MI250X (one GCD)") names the die, wherever it says
  // so: ROCm shows each GCD of an MI250X as a GPU of its own.
  const std::vector<std::string> remark_words = lower_words(remark);
  if (std::ranges::find(remark_words, "gcd") != remark_words.end()) plain += " gcd";
  for (std::string& w : model_numbers_joined(lower_words(plain))) {
    if (w == "gb" && !out.words.empty() && all_digits(out.words.back())) {
      out.words.back() += w;
      continue;
    }
    if (const FormFactor f = form_factor_of(w); f != FormFactor::unstated) {
      out.form = f;
      continue;
    }
    if (!says_nothing_of_the_part(w)) out.words.push_back(std::move(w));
  }
  return out;
}

// A part's words as a table may write them: its own, each pair of them run together ("RTX4090"),
// and its memory's size in GB and in GiB ("B200 180GB", "H100 80GB").
NameWords device_words(const Device& d) {
  std::string names = d.id + " " + d.name;
  for (const std::string& r : d.runtime_names) names += " " + r;
  NameWords w = name_words(names);
  if (w.form == FormFactor::unstated) w.form = FormFactor::module;
  const std::size_t own = w.words.size();
  for (std::size_t i = 0; i + 1 < own; ++i) w.words.push_back(w.words[i] + w.words[i + 1]);
  if (const auto& capacity = d.main_memory().capacity_bytes) {
    w.words.push_back(fmt::format("{:.0f}gb", capacity->value / 1e9));
    w.words.push_back(fmt::format("{:.0f}gb", capacity->value / (1u << 30)));
  }
  return w;
}

// The parts a name fits: every word of it among the part's words, and the form factor it states
// the part's; of those, the modules, which a name stating no form factor is presumed to mean.
struct Fits {
  std::vector<const Device*> all, modules;
};

Fits parts_named(const Catalog& catalog, const NameWords& query) {
  Fits fits;
  for (const Device& d : catalog.devices()) {
    const NameWords w = device_words(d);
    const bool all = std::ranges::all_of(query.words, [&](const std::string& q) {
      return std::ranges::find(w.words, q) != w.words.end();
    });
    if (!all || (query.form != FormFactor::unstated && w.form != query.form)) continue;
    fits.all.push_back(&d);
    if (w.form == FormFactor::module) fits.modules.push_back(&d);
  }
  return fits;
}

// Every peak of `other` and its bandwidth at most `d`'s.
bool at_least_as_fast(const Device& d, const Device& other) {
  if (d.main_bandwidth_bytes_per_s() < other.main_bandwidth_bytes_per_s()) return false;
  return std::ranges::all_of(other.peak_flops_per_s, [&](const auto& entry) {
    return d.has_peak(entry.first) && d.peak(entry.first).value >= entry.second.value;
  });
}

std::vector<std::string> ids_of(const std::vector<const Device*>& devices) {
  std::vector<std::string> ids;
  for (const Device* d : devices) ids.push_back(d->id);
  return ids;
}

// Says which part a name that fits several was priced on, and why that one.
std::string presumption(std::string_view name, const NamedDevice& found,
                        const std::vector<const Device*>& presumed) {
  std::vector<std::string> why;
  if (presumed.size() < found.candidates.size())
    why.emplace_back("the name says neither PCIe nor NVL: the module");
  if (presumed.size() > 1)
    why.emplace_back("the fastest of them, so the bound holds whichever it was");
  return fmt::format("'{}' fits {}: priced on {} ({})", name,
                     fmt::join(ids_of(found.candidates), ", "), found.device->id,
                     fmt::join(why, "; "));
}

}  // namespace

std::string NamedDevice::why_none(std::string_view name) const {
  if (candidates.empty())
    return fmt::format("device '{}' is not a catalog device (`ridge devices` lists them)", name);
  return fmt::format(
      "device '{}' fits {} and none is the fastest on every figure: name one with "
      "'# ridge: device {} = ID (why)'",
      name, fmt::join(ids_of(candidates), ", "), name);
}

NamedDevice find_named_device(const Catalog& catalog, std::string_view name) {
  NamedDevice found;
  // What CUDA calls the part names it exactly ("NVIDIA H200" is the SXM part, not the NVL), with
  // the vendor's name or without it ("H200").
  found.device = catalog.find_by_runtime_name(name);
  if (!found.device) found.device = catalog.find_by_runtime_name("NVIDIA " + std::string(name));
  if (found.device) {
    found.candidates = {found.device};
    return found;
  }
  const NameWords query = name_words(name);
  if (query.words.empty()) return found;
  const Fits fits = parts_named(catalog, query);
  found.candidates = fits.all;
  const std::vector<const Device*>& presumed = fits.modules.empty() ? fits.all : fits.modules;
  const auto fastest = std::ranges::find_if(presumed, [&](const Device* d) {
    return std::ranges::all_of(presumed,
                               [&](const Device* other) { return at_least_as_fast(*d, *other); });
  });
  if (fastest == presumed.end()) return found;
  found.device = *fastest;
  if (found.candidates.size() > 1) found.presumption = presumption(name, found, presumed);
  return found;
}

}  // namespace ridge::predict
