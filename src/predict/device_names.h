#pragma once
// A GPU as published tables name it ("A100 80GB", "H100-SXM5-80GB", "NVIDIA H100 Tensor Core
// GPU", "GH200 SXM"), found in the catalog.

#include <string>
#include <string_view>
#include <vector>

#include "ridge/catalog.h"

namespace ridge::predict {

struct NamedDevice {
  const Device* device = nullptr;         // null: no part, or several and none the fastest
  std::vector<const Device*> candidates;  // every part the name fits
  // Where the name fits several parts and the fastest of them was taken: which, and why.
  std::string presumption;
  // Why no device was found, for the row's skip reason.
  std::string why_none(std::string_view name) const;
};

// The part a name means: CUDA's own name for it, else the catalog parts every word of the name
// fits (vendor, "Tensor Core GPU" and memory technology aside; "80 GB" is "80GB"). A name that
// says "PCIe" or "NVL" means that card; one that says neither means the module (SXM), where the
// part comes in both, as NVIDIA names them. Where several parts still fit ("A100": the SXM4 40
// and 80 GB), the one whose every peak and bandwidth is at least any other's is taken, with a
// presumption that says so: the roofline's bound holds whichever it was.
NamedDevice find_named_device(const Catalog& catalog, std::string_view name);

}  // namespace ridge::predict
