#!/usr/bin/env bash
# Runs every libFuzzer target (tests/fuzz) for SECONDS each (default 60), starting from the seeds
# the replay tests use, under AddressSanitizer and UndefinedBehaviorSanitizer. A crash, a
# sanitizer report, a timeout (10 s per input) or a memory blow-up (2 GiB) is a finding: its input
# is left in build/fuzz/findings/TARGET/, to be fixed and then committed under
# tests/fuzz-regressions/TARGET/, where every build replays it.
#
# Usage: scripts/fuzz.sh [SECONDS]
set -uo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cmake --preset fuzz >/dev/null || exit 1
cmake --build --preset fuzz || exit 1

status=0
for target in device_toml measurement_json model_config cluster_toml validation_tsv calibration_toml profile \
  cli_args; do
  binary=build/fuzz/tests/fuzz/fuzz_$target
  corpus=build/fuzz/corpus/$target
  findings=build/fuzz/findings/$target
  log=build/fuzz/$target.log
  mkdir -p "$corpus" "$findings"
  mapfile -t seeds <"build/fuzz/tests/fuzz/fuzz_$target.seeds"
  if ! "$binary" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$findings/" -print_final_stats=1 \
    >"$log" 2>&1; then
    echo "fuzz_$target: FINDING (inputs in $findings, log $log)"
    grep -m 5 -E "ERROR|SUMMARY|Test unit written" "$log"
    status=1
  fi
  runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
  echo "fuzz_$target: ${runs:-?} executions in ${seconds} s, corpus of $(find "$corpus" -type f | wc -l) inputs"
done
exit $status
