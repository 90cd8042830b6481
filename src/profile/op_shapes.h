#pragma once
// A framework op's FLOPs and bytes from the shapes the PyTorch profiler recorded
// (record_shapes=True: "Input Dims" and "Input type"), through ridge's own op models.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "ridge/op.h"
#include "ridge/precision.h"

namespace ridge::profile_input {

struct OpFigures {
  double flops = 0;
  double bytes = 0;
  std::optional<GemmShape> gemm_shape;
  std::optional<Precision> precision;
};

// nullopt for an op ridge has no model of, or shapes it cannot read.
std::optional<OpFigures> figures_from_shapes(const std::string& op, const nlohmann::json& dims,
                                             const nlohmann::json& types);

// The precision of a profiler type name ("float", "c10::Half", "c10::BFloat16", "double").
std::optional<Precision> precision_of_type(const std::string& type);

}  // namespace ridge::profile_input
