#pragma once
// The guided tour: eight short demonstrations of the roofline on one device, then a summary.
// Every figure is computed by the library from the catalog.

#include <string>
#include <utility>
#include <vector>

#include "ridge/catalog.h"
#include "ridge/chart.h"
#include "ridge/document.h"
#include "ridge/op.h"

namespace ridge {

report::Document tour(const Catalog& catalog, const Device& device);

// The operations of the tour's roofline demo (demo 2), at `element_bytes` per element.
std::vector<Op> tour_roofline_ops(double element_bytes);

// The tour's charts as (file name, SVG): demo 2's operations on the device's roofline, and demo
// 3's generations on one chart.
std::vector<std::pair<std::string, std::string>> tour_charts(const Catalog& catalog,
                                                             const Device& device,
                                                             chart::Theme theme);

}  // namespace ridge
