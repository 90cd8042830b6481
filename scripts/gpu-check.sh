#!/usr/bin/env bash
# The GPU check, in one run on a machine with an NVIDIA GPU: the CUDA tests, the full GPU
# measurement, the measured device in ridge's own views, and PyTorch's copy and bf16 GEMM on the
# same GPU for comparison (where PyTorch is installed): its copy, its bf16 GEMM, every shape of
# ridge's GEMM shape sweep as a framework runs it, and an empty kernel's time. Everything lands in
# OUTDIR; a summary table is printed last. Takes about two minutes on an H200.
#
# Usage: scripts/gpu-check.sh OUTDIR
# Binaries, first found: build/gpu-bundle (scripts/gpu-bundle.sh, made on a machine with the
# build dependencies), build/cuda, else the cuda preset is built here.
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
log() { echo "[gpu-check $(date +%H:%M:%S)] $*"; }

if [ -x "$root/build/gpu-bundle/bin/ridge" ]; then
  bin=$root/build/gpu-bundle/bin
  plugin=$root/build/gpu-bundle/lib/ridge/libridge-cuda.so
  export LD_LIBRARY_PATH=$root/build/gpu-bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
elif [ -x "$root/build/cuda/apps/ridge/ridge" ]; then
  bin=$root/build/cuda/bin-links
  plugin=$root/build/cuda/lib/ridge/libridge-cuda.so
  mkdir -p "$bin"
  ln -sf "$root/build/cuda/apps/ridge/ridge" "$root/build/cuda/tests/ridge_cuda_tests" "$bin/"
else
  log "building the cuda preset"
  (cd "$root" && cmake --preset cuda && cmake --build --preset cuda --target ridge ridge_cuda_tests) ||
    exit 1
  bin=$root/build/cuda/bin-links
  plugin=$root/build/cuda/lib/ridge/libridge-cuda.so
  mkdir -p "$bin"
  ln -sf "$root/build/cuda/apps/ridge/ridge" "$root/build/cuda/tests/ridge_cuda_tests" "$bin/"
fi

# cuBLAS (the CUDA tests and the backend's plugin link it): from the loader's cache, else
# from a CUDA installation or a Python wheel.
missing=$(ldd "$bin/ridge" "$bin/ridge_cuda_tests" "$plugin" | awk '/not found/ { print $1 }' | sort -u)
for soname in $missing; do
  found=$(find /usr/local /opt /usr/lib -name "$soname" -print -quit 2>/dev/null)
  if [ -z "$found" ]; then
    log "no $soname on this machine: install the CUDA toolkit's cuBLAS"
    exit 1
  fi
  export LD_LIBRARY_PATH=$(dirname "$found")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
done
ldd "$bin/ridge" >"$out/ldd.txt"

status=0
log "GPU"
nvidia-smi >"$out/nvidia-smi.txt" 2>&1 && head -20 "$out/nvidia-smi.txt"

log "CUDA tests"
timeout 240 "$bin/ridge_cuda_tests" --gtest_output="json:$out/cuda-tests.json" >"$out/cuda-tests.txt" 2>&1 ||
  status=1
tail -n 20 "$out/cuda-tests.txt"

log "full GPU measurement"
timeout 300 "$bin/ridge" measure --backend cuda --out "$out/gpu.json" >"$out/measure.txt" 2>"$out/measure.err" ||
  { status=1; cat "$out/measure.err"; }
cat "$out/measure.txt"

if [ -s "$out/gpu.json" ]; then
  log "the measured GPU as a device"
  "$bin/ridge" device show gpu --device-file "$out/gpu.json" >"$out/device.txt" 2>&1 || status=1
  "$bin/ridge" op gemm --m 8192 --n 8192 --k 8192 --dtype bf16 --device gpu \
    --device-file "$out/gpu.json" >"$out/op-gemm.txt" 2>&1 || status=1
fi

if python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
  log "PyTorch on the same GPU"
  timeout 240 python3 "$root/scripts/torch_reference.py" "$out/gpu.json" >"$out/torch.json" \
    2>"$out/torch.err" ||
    cat "$out/torch.err"
fi

if command -v python3 >/dev/null && [ -s "$out/gpu.json" ]; then
  python3 "$root/scripts/gpu_summary.py" "$out" "$bin/ridge" | tee "$out/summary.md"
fi
log "done (status $status); results in $out"
exit $status
