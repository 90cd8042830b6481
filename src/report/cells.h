#pragma once
// Cells for the figures views show often, so one kind of figure always reads the same way.

#include <string>

#include "ridge/device.h"
#include "ridge/document.h"

namespace ridge::report {

Cell flops_cell(double flops);                         // "137.4 GFLOP"
Cell flops_rate_cell(double flops_per_s);              // "990 TFLOP/s"
Cell bytes_cell(double bytes);                         // "100.7 MB"
Cell capacity_cell(double bytes);                      // "80 GiB"
Cell bandwidth_cell(double bytes_per_s);               // "3.35 TB/s"
Cell intensity_cell(double flops_per_byte);            // "295.5 FLOP/B"
Cell time_cell(double seconds);                        // "27.2 ms"
Cell ratio_cell(double ratio);                         // "7.9x"
Cell percent_cell(double fraction, int decimals = 1);  // "56.0%"

// A figure's value in the unit of its kind ("capacity", "bandwidth", "latency", "flops", "count").
Cell figure_cell(const Figure& figure, std::string_view unit_kind);

}  // namespace ridge::report
