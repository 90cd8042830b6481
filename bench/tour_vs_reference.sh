#!/usr/bin/env bash
# `ridge tour` against the Python reference it reproduces, side by side in one hyperfine run:
# both print the same walk-through, so the ratio is the whole-program speed-up a user sees.
# Usage: bench/tour_vs_reference.sh BUILD_DIR   (run by `make bench`)
set -euo pipefail
build=${1:-build/release}
# Debian's interpreter, which has python3-numpy (a python3 earlier on PATH may not).
python=${PYTHON:-/usr/bin/python3}
root=$(cd "$(dirname "$0")/.." && pwd)
reference="$root/../shared/seeds/gpu_from_scratch.py"
if [ ! -f "$reference" ]; then
  echo "tour_vs_reference: $reference not found (it lives in shared/seeds beside the checkout)" >&2
  exit 2
fi
out="$build/bench"
mkdir -p "$out"
"$build/bench/ridge_bench" --benchmark_repetitions=10 --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/ridge_bench.json" --benchmark_out_format=json
hyperfine --warmup 3 --runs 30 -N --export-json "$out/tour_vs_reference.json" \
  --command-name "ridge tour" "$build/apps/ridge/ridge tour" \
  --command-name "python3 gpu_from_scratch.py" "$python $reference"
