#pragma once
// The guided tour: eight short demonstrations of the roofline on one device, then a summary.
// Every figure is computed by the library from the catalog.

#include "ridge/catalog.h"
#include "ridge/document.h"

namespace ridge {

report::Document tour(const Catalog& catalog, const Device& device);

}  // namespace ridge
