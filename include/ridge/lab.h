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
  double ratio = 0;     // GEMM over GEMV FLOP/s
  bool passed = false;  // GEMM beats GEMV by more than 2x, as the reference asserts
};

LabResult run_lab(const Device& device, int threads);

}  // namespace ridge
