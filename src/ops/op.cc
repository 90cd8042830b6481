#include "ridge/op.h"

#include <fmt/format.h>

#include "ridge/units.h"

namespace ridge {

using units::count;
using units::plain;

Op elementwise_add(double n, double element_bytes) {
  return {"add", fmt::format("add n={}", plain(n)), n, 3 * n * element_bytes};
}

Op gemv(double m, double n, double element_bytes) {
  return {"gemv", fmt::format("gemv {}x{}", plain(m), plain(n)), 2 * m * n,
          (m * n + n + m) * element_bytes};
}

Op gemm(double m, double n, double k, double element_bytes, double batch) {
  std::string label = fmt::format("gemm {}x{}x{}", plain(m), plain(n), plain(k));
  if (batch != 1) label += fmt::format(" batch={}", plain(batch));
  return {"gemm", std::move(label), 2 * m * n * k * batch,
          (m * k + k * n + m * n) * element_bytes * batch};
}

Op attention(const AttentionShape& s, double element_bytes) {
  const double instances = s.heads * s.batch;
  const double flops = 4 * s.seq * s.seq * s.d_head * instances;
  const double qkvo_bytes = 4 * s.seq * s.d_head * element_bytes;
  // Unfused: QK^T writes the scores, softmax reads and rewrites them, PV reads them.
  const double score_bytes = s.fused ? 0 : 4 * s.seq * s.seq * element_bytes;
  std::string label = fmt::format("attention seq={} d_head={}", plain(s.seq), plain(s.d_head));
  if (s.heads != 1) label += fmt::format(" heads={}", plain(s.heads));
  if (s.batch != 1) label += fmt::format(" batch={}", plain(s.batch));
  if (!s.fused) label += " unfused";
  return {"attention", std::move(label), flops, (qkvo_bytes + score_bytes) * instances};
}

Op decode_step(double params, double batch, double element_bytes) {
  return {"decode", fmt::format("decode {} params batch={}", count(params), plain(batch)),
          2 * params * batch, params * element_bytes};
}

}  // namespace ridge
