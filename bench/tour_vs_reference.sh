#!/usr/bin/env bash
# `ridge tour` against the Python reference it reproduces, side by side in one hyperfine run:
# both print the same walk-through, so the ratio is the whole-program speed-up a user sees; and
# `ridge --version` beside them, the start-up of a command that needs no backend. Then each one's
# peak memory (median of 10 runs, /usr/bin/time's maximum resident set).
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
  --command-name "ridge --version" "$build/apps/ridge/ridge --version" \
  --command-name "ridge tour" "$build/apps/ridge/ridge tour" \
  --command-name "python3 gpu_from_scratch.py" "$python $reference"
peak_kib() {
  for _ in $(seq 10); do /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; done | sort -n | sed -n 5p
}
"$build/apps/ridge/ridge" --version | sed -n 2p
"$python" - "$out/tour_vs_reference.json" "$(peak_kib "$build/apps/ridge/ridge" --version)" \
  "$(peak_kib "$build/apps/ridge/ridge" tour)" "$(peak_kib "$python" "$reference")" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
peaks = dict(zip(["ridge --version", "ridge tour", "python3 gpu_from_scratch.py"], sys.argv[2:]))
seed = results["python3 gpu_from_scratch.py"]["median"]
print(f"{'command':30} {'median':>10} {'min':>10} {'max':>10} {'of the seed':>12} {'peak memory':>12}")
for name, r in results.items():
    print(f"{name:30} {r['median']*1e3:8.2f}ms {r['min']*1e3:8.2f}ms {r['max']*1e3:8.2f}ms "
          f"{r['median']/seed:11.1%} {int(peaks[name])/1024:9.1f} MiB")
PY
