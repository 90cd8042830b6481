#!/usr/bin/env bash
# What the expected time adds to the 1,000-point Llama 2 70B sweep, in instructions: the two
# benchmarks of bench/ridge_bench.cc (the sweep with its expected times, and the same sweep under
# an id no calibration lists) counted by callgrind in one run, one sweep each. A shared machine's
# wall clock can swing the ratio by half (docs/predict.md, the benchmark paragraph); the count
# does not move. The limit is 20%.
# Usage: bench/expected_overhead.sh [BUILD_DIR]   (run by `make bench-overhead`, which installs
# valgrind)
set -euo pipefail
build=${1:-build/release}
bench="$build/bench/ridge_bench"
command -v valgrind >/dev/null ||
  { echo "expected_overhead.sh: no valgrind on PATH (make bench-overhead installs it)" >&2; exit 2; }
[ -x "$bench" ] || { echo "expected_overhead.sh: no benchmark binary at $bench" >&2; exit 2; }
log=$(mktemp)
trap 'rm -f "$log" "$log.out"' EXIT

instructions() {  # callgrind's count for one benchmark, the harness's own start-up included
  valgrind --tool=callgrind --callgrind-out-file="$log.out" "$bench" \
    --benchmark_filter="^$1\$" --benchmark_min_time=0.000001 >/dev/null 2>"$log"
  local count
  count=$(awk '/Collected/ {print $NF}' "$log")
  [ -n "$count" ] || { echo "expected_overhead.sh: callgrind counted nothing for $1" >&2; exit 2; }
  echo "$count"
}

start=$(instructions NoSuchBenchmark)
with=$(($(instructions BM_ModelSweep70B) - start))
without=$(($(instructions BM_ModelSweep70BBoundOnly) - start))
awk -v w="$with" -v wo="$without" 'BEGIN {
  printf "sweep with expected times   %8.1f M instructions\n", w / 1e6
  printf "sweep with the bounds only  %8.1f M instructions\n", wo / 1e6
  printf "the expected time adds      %8.1f%% (limit 20%%)\n", 100 * (w / wo - 1)
}'
