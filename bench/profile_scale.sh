#!/usr/bin/env bash
# `ridge profile` on a large PyTorch profiler trace made on the spot (bench/make_large_trace.py,
# never committed): the 1 GB trace streams through at 100 MB/s or more in memory far below its
# size (the target); beside it, on a 256 MB trace, the way Python tools read traces (json.load,
# the whole file as objects, as Holistic Trace Analysis does), in the same run. Three runs each:
# median and spread of the time, peak memory (/usr/bin/time's maximum resident set).
# Usage: bench/profile_scale.sh BUILD_DIR   (make bench-profile)
set -euo pipefail
build=${1:-build/release}
python=${PYTHON:-/usr/bin/python3}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" "$here/make_large_trace.py" "$work/large.json" 1024
"$python" "$here/make_large_trace.py" "$work/medium.json" 256
runs() {  # label file command...: three runs, then the median, the spread and the peak memory
  local label=$1 file=$2; shift 2
  local size; size=$(stat -c %s "$file")
  for _ in 1 2 3; do /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1; done |
    sort -n | awk -v label="$label" -v size="$size" '
      { t[NR] = $1; m[NR] = $2 }
      END { med = t[2]; printf "%-44s %6.0f MB in %6.2f s (spread %3.0f%%): %6.0f MB/s, peak %6.0f MB\n",
            label, size / 1e6, med, 100 * (t[3] - t[1]) / med, size / 1e6 / med, m[2] / 1024 }'
}
runs "ridge profile (1 GB)" "$work/large.json" \
  "$build/apps/ridge/ridge" profile "$work/large.json" --format json
runs "ridge profile (256 MB)" "$work/medium.json" \
  "$build/apps/ridge/ridge" profile "$work/medium.json" --format json
runs "python3 json.load (256 MB)" "$work/medium.json" \
  "$python" -c "import json, sys; json.load(open(sys.argv[1]))" "$work/medium.json"
