#!/usr/bin/env bash
# Builds ridge with the CUDA backend on this machine and packs what a GPU machine without a
# package registry needs to run scripts/gpu-check.sh: the CLI, its CUDA backend's plugin (where
# the CLI looks for it as installed, lib/ridge beside bin), the CUDA tests, and the shared
# libraries a bare system lacks (hwloc, fmt, ...). The CUDA runtime is linked statically; cuBLAS
# stays behind (hundreds of MB, and part of every CUDA installation).
#
# Usage: scripts/gpu-bundle.sh [BUNDLE_DIR]     (default build/gpu-bundle)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundle=${1:-$root/build/gpu-bundle}
cd "$root"

cmake --preset cuda >/dev/null
cmake --build --preset cuda --target ridge ridge_cuda_tests

rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/lib/ridge"
cp build/cuda/apps/ridge/ridge build/cuda/tests/ridge_cuda_tests "$bundle/bin/"
cp build/cuda/lib/ridge/libridge-cuda.so "$bundle/lib/ridge/"
strip --strip-unneeded "$bundle"/bin/* "$bundle"/lib/ridge/*

# Every library the loader resolves here, but the C and C++ runtimes (the GPU machine has its
# own, as new or newer), the driver and cuBLAS.
ldd "$bundle"/bin/* "$bundle"/lib/ridge/* | awk '/=> \// { print $3 }' | sort -u | while read -r lib; do
  case $(basename "$lib") in
    libc.so* | libm.so* | libstdc++.so* | libgcc_s.so* | ld-linux* | libdl.so* | libpthread.so* | \
      librt.so* | libcuda.so* | libcublas*) ;;
    *) cp -L "$lib" "$bundle/lib/" ;;
  esac
done
du -sh "$bundle"
echo "bundle ready: $bundle (carry it to the GPU machine; run scripts/gpu-check.sh OUTDIR there)"
