#pragma once
// FLOPs from the SASS thread-instruction counters that Nsight Compute and CUPTI's range profiler
// both report (smsp__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum): an FMA is
// two FLOPs, an add or a multiply one; the widest precision with any instructions names the
// total.

#include <optional>
#include <string_view>

#include "ridge/precision.h"

namespace ridge::profile_input {

struct SassCounterFlops {
  double flops = 0;
  std::optional<Precision> precision;
  bool any = false;  // a counter was seen (its value may be 0: zero FLOPs, not unknown)

  // Takes a metric; any other name is ignored.
  void add(std::string_view metric, double value) {
    constexpr std::string_view prefix = "smsp__sass_thread_inst_executed_op_";
    if (!metric.starts_with(prefix) || !metric.ends_with("_pred_on.sum")) return;
    const std::string_view op = metric.substr(prefix.size(), 4);  // "ffma", "hadd", ...
    const std::string_view kind = op.substr(1);
    if (op.size() < 4 || (kind != "add" && kind != "mul" && kind != "fma")) return;
    const Precision p = op[0] == 'd'   ? Precision::fp64
                        : op[0] == 'h' ? Precision::fp16
                                       : Precision::fp32;
    if (op[0] != 'd' && op[0] != 'f' && op[0] != 'h') return;
    any = true;
    const double counted = value * (kind == "fma" ? 2 : 1);
    flops += counted;
    if (counted > 0 && (!precision || bytes_per_element(p) > bytes_per_element(*precision)))
      precision = p;
  }
};

}  // namespace ridge::profile_input
