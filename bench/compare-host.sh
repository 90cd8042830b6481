#!/usr/bin/env bash
# ridge's measured ceilings side by side with likwid-bench and numpy, in one run on this machine:
#   fp64 / fp32 peak      ridge measure       vs likwid-bench peakflops(_sp)_<isa>_fma, all cores
#   DRAM bandwidth        ridge measure       vs likwid-bench stream_mem_<isa> and stream_<isa>_fma
#   GEMV and GEMM GFLOP/s ridge lab (OpenBLAS) vs numpy on the same 2048x2048 fp32 weights
# Usage: bench/compare-host.sh [BUILD_DIR]   (run by `make bench-host`, which installs likwid
# and python3-numpy)
set -euo pipefail
build=${1:-build/release}
ridge="$build/apps/ridge/ridge"
out="$build/bench"
mkdir -p "$out"
python=${PYTHON:-/usr/bin/python3}
cores=$(nproc)
isa=$(grep -q avx512f /proc/cpuinfo && echo avx512 || echo avx)

echo "ridge measure (full suite) ..." >&2
"$ridge" measure --out "$out/host.json" --format json >/dev/null
echo "ridge lab ..." >&2
"$ridge" lab --format json >"$out/lab.json" || true   # exit 1 only reports a failed verdict

likwid() {  # prints the figure likwid-bench reports for a test, in its unit (MFlop/s or MByte/s)
  likwid-bench -t "$1" -W "N:$2:$cores" 2>/dev/null | grep "^$3" | awk '{print $2}' | tail -1
}
lk_fp64=$(likwid "peakflops_${isa}_fma" 32kB "MFlops/s")
lk_fp32=$(likwid "peakflops_sp_${isa}_fma" 32kB "MFlops/s")
# STREAM-sized: several times the last-level cache.
llc_kb=$(lscpu -B 2>/dev/null | awk '/L3 cache/ {print int($3 / 1024)}')
size_kb=$(( ${llc_kb:-32768} * 4 ))
lk_stream_nt=$(likwid "stream_mem_${isa}" "${size_kb}kB" "MByte/s")
lk_stream=$(likwid "stream_${isa}_fma" "${size_kb}kB" "MByte/s")

"$python" - "$out/host.json" "$out/lab.json" "$lk_fp64" "$lk_fp32" "$lk_stream_nt" "$lk_stream" <<'PY'
import json, sys, time
import numpy as np

host = json.load(open(sys.argv[1]))
lab = json.load(open(sys.argv[2]))
lk_fp64, lk_fp32, lk_nt, lk_stream = (float(x) * 1e6 if x else float("nan") for x in sys.argv[3:7])

def numpy_gflops(batch, reps=7):
    w = np.random.default_rng(0).standard_normal((2048, 2048), dtype=np.float32)
    x = np.random.default_rng(1).standard_normal((2048, batch), dtype=np.float32)
    w @ x
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        w @ x
        times.append(time.perf_counter() - t0)
    times.sort()
    return 2 * 2048 * 2048 * batch / times[len(times) // 2]

dram = [p for p in host["bandwidth"] if p["level"] == "DRAM"]
best = lambda kernels: max((p["bytes_per_s"] for p in dram if p["kernel"] in kernels), default=float("nan"))
peak, clock = host["peak_flops"], host["clock_hz"]
theory = {p["precision"]: p["theoretical_flops_per_s"] for p in host["peaks"]}
kernels = {k["batch"]: k["flops_per_s"] for k in lab["cpu"]["kernels"]}
rows = [
    ("fp64 peak (FLOP/s)", peak["fp64"], "likwid peakflops", lk_fp64),
    ("fp32 peak (FLOP/s)", peak["fp32"], "likwid peakflops_sp", lk_fp32),
    ("fp64 peak vs cores x FLOP/cycle x clock", peak["fp64"], "theory", theory.get("fp64", float("nan"))),
    ("DRAM triad, streaming stores (B/s)", best({"triad_nt"}), "likwid stream_mem", lk_nt),
    ("DRAM best kernel (B/s)", best({"triad", "triad_nt", "copy", "copy_nt", "read"}), "likwid best stream",
     max(lk_nt, lk_stream)),
    ("GEMV 2048, batch 1 (FLOP/s)", kernels[1], "numpy", numpy_gflops(1)),
    ("GEMM 2048, batch 64 (FLOP/s)", kernels[64], "numpy", numpy_gflops(64)),
]
print(f"{'figure':42} {'ridge':>12} {'reference':>20} {'value':>12} {'ratio':>7}")
for name, mine, who, theirs in rows:
    print(f"{name:42} {mine:12.4g} {who:>20} {theirs:12.4g} {mine / theirs:7.3f}")
print(f"\nsustained clock {clock / 1e9:.3f} GHz (integer add chain); medians of repeated samples")
PY
