#pragma once
// How many keys causal queries reach under each attention span, in closed form: a prompt may be
// two billion tokens long, too many to add up one by one.

#include <algorithm>
#include <cmath>

#include "ridge/model.h"

namespace ridge {

struct AttendedKeys {
  double scores = 0;     // query-key pairs of one head of one sequence
  double keys_read = 0;  // distinct keys (and values) those queries read
};

// `queries` new tokens at positions past, past + 1, ...; each sees itself and what its span
// allows before it. `window` is the sliding window or the chunk (unused for full attention).
inline AttendedKeys attended_keys(AttentionSpan span, double window, double past, double queries) {
  const double n = queries;
  switch (span) {
    case AttentionSpan::sliding: {
      // The first m queries still see everything before them; the rest see `window` keys.
      const double m = std::clamp(std::floor(window - past), 0.0, n);
      return {m * (past + 1) + m * (m - 1) / 2 + (n - m) * window, n + std::min(past, window - 1)};
    }
    case AttentionSpan::chunked: {
      // Position p sees (p mod window) + 1 keys; S(N) sums that over p < N.
      const auto sum_to = [window](double positions) {
        const double chunks = std::floor(positions / window);
        const double rest = positions - chunks * window;
        return chunks * window * (window + 1) / 2 + rest * (rest + 1) / 2;
      };
      return {sum_to(past + n) - sum_to(past), n + std::fmod(past, window)};
    }
    case AttentionSpan::full:
      break;
  }
  return {n * past + n * (n + 1) / 2, past + n};
}

// Tokens a layer of this span keeps in its KV cache at this context: vLLM's hybrid cache
// manager frees what a sliding or chunked layer can no longer reach.
inline double cached_tokens(AttentionSpan span, double window, double context) {
  return span == AttentionSpan::full ? context : std::min(context, window);
}

}  // namespace ridge
