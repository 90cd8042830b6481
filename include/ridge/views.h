#pragma once
// Documents for the CLI's answers. Each takes computed results and lays them out; none computes
// a figure of its own beyond simple ratios between the results it is given.

#include <optional>
#include <string>
#include <vector>

#include "ridge/analysis.h"
#include "ridge/catalog.h"
#include "ridge/collective.h"
#include "ridge/collective_measurement.h"
#include "ridge/document.h"
#include "ridge/expected.h"
#include "ridge/occupancy.h"
#include "ridge/profile.h"
#include "ridge/training.h"

namespace ridge::report {

// The bound, and beside it the expected time with its calibration ("bound only" without one).
Document op_document(const OpAnalysis& analysis, const Device& device,
                     const std::optional<Expectation>& expected);

// ID, name, year, main-memory bandwidth, fp16/bf16 peak and ridge of each device.
// The devices in the order given (Catalog::select orders them).
Document devices_document(const std::vector<Device>& devices);

// One device with every figure and its provenance.
Document device_document(const Device& device);

// Bandwidth, peak and ridge side by side at one precision, each part's growth over the first.
// At `precision`, or at each device's 16-bit rate (fp16, else bf16) when none is given.
Document compare_document(const std::vector<const Device*>& devices,
                          std::optional<Precision> precision);

Document occupancy_document(const Occupancy& occupancy, const Device& device);

// What NCCL is expected to take for a collective on one node, beside the alpha-beta model's
// time: one expected time a size, and the calibration they rest on; or why there are none.
struct CollectiveExpectation {
  std::optional<Calibration> calibration;
  std::vector<ExpectedTime> times;  // in the order of the sizes; empty without a calibration
  std::string why_none;             // where there is no calibration
};

// One collective with the algorithm chosen, and every algorithm that applies beside it.
Document collective_document(const CollectiveEstimate& estimate,
                             const std::vector<CollectiveEstimate>& alternatives,
                             const CollectiveExpectation& expected, const Device& device);
// One row a size, each with its expected time (`expected.times` in the order of `sweep`).
Document collective_sweep_document(const std::vector<CollectiveEstimate>& sweep,
                                   const CollectiveExpectation& expected, const Device& device);
Document training_document(const TrainingAnalysis& analysis, const ModelConfig& model,
                           const Device& device);
// Silent on every MPI rank but 0.
Document collective_measurement_document(const CollectiveMeasurement& measurement);

}  // namespace ridge::report

#include <string>

#include "ridge/inference.h"

namespace ridge::report {

// The calibration an expected time rests on: its id, how it applies, and the figures used at
// `precision`, each with its provenance and source (the JSON "calibration" object).
Section calibration_section(const Calibration& calibration, Precision precision, bool extrapolated);
// The same for a collective: the link's share and NCCL's latencies in place of a precision's.
Section collective_calibration_section(const Calibration& calibration, bool extrapolated);

// A model's inference: summary, then prefill and decode op by op, and where the time goes.
Document model_document(const ModelAnalysis& analysis, const Device& device);

// One row per value of the swept workload parameter (`key`: batch, prompt, gen or tp).
Document model_sweep_document(const std::string& key, const std::vector<ModelAnalysis>& rows,
                              const Device& device);

}  // namespace ridge::report

namespace ridge::report {

// The model presets: shape and parameter count of each.
Document models_document(const std::vector<ModelConfig>& models);

}  // namespace ridge::report

#include "ridge/validation.h"

namespace ridge::report {

// Every set: count, median and 90th-percentile error, bias, shares within 10% and 25%, broken
// bounds; then, unless `summary`, every point (measured, bound, expected, error). check_failed
// when a bound is above a measurement.
Document validation_document(const std::vector<ValidationSet>& sets, bool summary = false);

}  // namespace ridge::report

#include "ridge/backend.h"

namespace ridge::report {

// The backends: what needs each, whether this build has it, where its plugin is and whether it
// loads; check_failed when one that was built does not.
// `ridge profile`: the grouped kernels on the roofline, the families, the top recoverable.
Document profile_document(const ProfileAnalysis& analysis, const std::vector<Profile>& profiles,
                          const Device& device);

Document doctor_document(const std::vector<BackendStatus>& backends);

}  // namespace ridge::report

#include "ridge/lab.h"
#include "ridge/measurement.h"

namespace ridge::report {

// The measured roofline: ceilings per precision and per memory level with their spread, the
// sweep, GEMV against GEMM, and the machine. Its JSON is the measurement file itself.
Document measurement_document(const Measurement& measurement);

// The lab's two parts; check_failed when GEMM does not beat GEMV by more than 2x.
Document lab_document(const LabResult& lab);

}  // namespace ridge::report
