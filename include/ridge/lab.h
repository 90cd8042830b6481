#pragma once
// The lab: decode intensity by batch on a device's published spec, then GEMV against GEMM on the
// same weights on this CPU, each beside the time the measured roofline predicts.

#include <string>
#include <vector>

#include "ridge/device.h"
#include "ridge/measurement.h"

namespace ridge {

struct LabBatch {
  int batch = 1;
  double intensity = 0;  // FLOP per weight byte of one decode step
  Bound bound = Bound::memory;
};

struct LabKernel {
  BlasPoint point;
  double bytes = 0;  // weights, inputs and outputs once
  double predicted_s = 0;
  double measured_s = 0;  // median
  double error = 0;       // (measured - predicted) / predicted
  // The expected time from a calibration this kernel played no part in: the measured ceilings
  // and the rate of the batch-512 sgemm (the achievable GEMM ceiling), through ridge's model.
  double expected_s = 0;
  double expected_error = 0;  // (measured - expected) / expected
  std::string expected_detail;
};

struct LabResult {
  std::string device_id;
  Precision precision = Precision::fp16;
  double ridge = 0;
  double crossover_batch = 0;  // decode_crossover_batch of the spec's ridge
  std::vector<LabBatch> batches;
  MachineInfo machine;
  int threads = 1;
  int n = 2048;
  double measured_fp32_peak = 0;
  double measured_bandwidth = 0;  // read bandwidth at the weights' working set
  std::string bandwidth_level;
  LabKernel gemv;
  LabKernel gemm;
  BlasPoint ceiling_gemm;         // batch 512: the achievable GEMM rate the expected times use
  double gemm_share_of_peak = 0;  // its rate over the measured FMA peak
  double ratio = 0;               // GEMM over GEMV FLOP/s
  bool passed = false;            // GEMM beats GEMV by more than 2x, as the reference asserts
};

LabResult run_lab(const Device& device, int threads);

}  // namespace ridge
