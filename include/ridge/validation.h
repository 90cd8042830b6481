#pragma once
// ridge's predictions held against real timings that others published (data/validation/): for
// each point the measured time, the roofline bound and the expected time; for each set the
// error of the expected time and whether any bound broke its promise (was above a measurement).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ridge/catalog.h"

namespace ridge {

// Whether a set's points were used to set any figure of the model. Errors on "fit" sets prove
// nothing; only "held-out" sets count.
enum class ValidationRole { held_out, fit };
std::string_view to_string(ValidationRole role);

struct ValidationPoint {
  std::string label;     // "gemm 64x12288x12288 fp16 on a100-sxm-80gb"
  std::string quantity;  // "time", "time per output token", "request latency", ...
  std::string device_id;
  int line = 0;  // in the set's file
  double measured_s = 0;
  double bound_s = 0;
  std::optional<double> expected_s;  // none: bound only (no calibration for the device)
  std::string calibration;
  bool excluded = false;  // kept out of the statistics and the bound check, with the reason
  std::string reason;
  std::string remark;  // what set the expected time where the kernels did not (a harness floor)
  // (expected - measured) / measured; positive when ridge expects longer than was measured.
  std::optional<double> error() const;
  bool bound_broken() const { return !excluded && bound_s > measured_s * (1 + 1e-9); }
};

struct ValidationStats {
  int count = 0;  // points with an expected time, not excluded
  double median_abs_error = 0;
  double p90_abs_error = 0;
  double bias = 0;                      // median signed error
  double within_10 = 0, within_25 = 0;  // shares of points
  double median_bound_ratio = 0;        // measured / bound, median
  int bound_broken = 0;
};

struct ValidationSet {
  std::string name;  // file stem, and the metric for model sets
  std::string file;
  std::string source;  // the file's '# Source' lines
  std::string kind;    // "kernel" or "model"
  ValidationRole role = ValidationRole::held_out;
  std::vector<ValidationPoint> points;
  std::vector<std::string> skipped;  // rows ridge cannot price, each with its reason
  // How names the file leaves open were read: a GPU name that fits several parts, priced on
  // the fastest of them (each said once).
  std::vector<std::string> presumptions;
  ValidationStats stats;
};

// What a held-out set must show for the expected time to count as calibrated (issue 12's
// targets, docs/predict.md): a kernel set's median absolute error at most 10% and its 90th
// percentile at most 25%; a whole-model set's median at most 15%; either, no bound above a
// measurement. Fit sets prove nothing and are not judged.
struct ValidationTarget {
  double median_abs_error = 0;
  std::optional<double> p90_abs_error;  // none: not judged (whole models)
};
ValidationTarget target_for(const ValidationSet& set);

// "met", what missed it ("median 13.4% > 10%; p90 34.3% > 25%"), "fit set (not judged)", or "no
// expected times" where the set has none.
std::string target_verdict(const ValidationSet& set);
bool meets_target(const ValidationSet& set);

// One published file (tab-separated, '#' header lines naming its source, then a header row):
// GEMM timings (columns m, n, k, dtype, device and a time or TFLOP/s), whole-model runs
// (model, gpu, tp, precision, batch, isl, osl, metric, value, unit) or achievable matmul
// ceilings (mamf_tflops). Bad input naming the file, line and column for what it cannot read.
std::vector<ValidationSet> run_validation_file(std::string_view text, const std::string& origin,
                                               const Catalog& catalog);

// The files bundled in data/validation/.
std::vector<ValidationSet> run_bundled_validation(const Catalog& catalog);

// The sets whose name holds any of `names`, in any case; all of them where `names` is empty.
// Bad input where a name picks no set, so that a typo is an error rather than an empty run.
std::vector<ValidationSet> validation_sets_named(std::vector<ValidationSet> sets,
                                                 const std::vector<std::string>& names);

}  // namespace ridge
