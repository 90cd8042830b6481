"""ridge.op in a notebook's loop: 10,000 in-process calls (the target: under a second on the
2-core development VM), beside the reference a notebook had before the module, a subprocess of
the binary per call with its JSON parsed. Medians and spreads over repetitions, one run.

Usage: PYTHONPATH=BUILD/python /usr/bin/python3 bench/python_calls.py BUILD   (make bench-python)
"""
import json
import statistics
import subprocess
import sys
import time

import ridge

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build/release"
BINARY = f"{BUILD}/apps/ridge/ridge"
CALLS = 10_000
REPEATS = 7
SUBPROCESS_CALLS = 200  # per repeat: a subprocess costs milliseconds


def loop():
    start = time.perf_counter()
    for i in range(CALLS):
        ridge.op("gemm", m=4096, n=4096, k=4096 + i % 8, dtype="fp16", device="h100-sxm")
    return time.perf_counter() - start


def shell_out():
    start = time.perf_counter()
    for i in range(SUBPROCESS_CALLS):
        out = subprocess.run([BINARY, "--format", "json", "op", "gemm", "--m", "4096", "--n", "4096",
                              "--k", str(4096 + i % 8), "--dtype", "fp16", "--device", "h100-sxm"],
                             capture_output=True, check=True).stdout
        json.loads(out)
    return (time.perf_counter() - start) / SUBPROCESS_CALLS * CALLS


def summary(name, seconds):
    median = statistics.median(seconds)
    spread = (max(seconds) - min(seconds)) / median
    print(f"{name:44s} {median:8.3f} s per {CALLS} calls  ({median / CALLS * 1e6:7.1f} us a call,"
          f" spread {100 * spread:.0f}% over {len(seconds)} runs)")
    return median


loop()  # warm: the catalog and calibration profiles are parsed once per process
in_process = summary("ridge.op, in process", [loop() for _ in range(REPEATS)])
reference = summary("subprocess `ridge op ... --format json`", [shell_out() for _ in range(3)])
print(f"in process is {reference / in_process:.0f}x faster; target: {CALLS} calls under 1 s:"
      f" {'met' if in_process < 1 else 'NOT met'}")
