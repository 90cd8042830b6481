#!/usr/bin/env bash
# The ridge executable links none of the backends' libraries (CUDA, cuBLAS, MPI, OpenBLAS, hwloc,
# OpenMP): they are the plugins' (lib/ridge/), loaded by the commands that need them. The CPU
# plugin is checked to need OpenBLAS, so that the check is seen to see the libraries where they
# are. Usage: no_backend_libraries.sh RIDGE CPU_PLUGIN
set -euo pipefail
ridge=$1
plugin=$2
backend_libraries='libcuda|libcudart|libcublas|libmpi|libopen-|libopenblas|libhwloc|libgomp'
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
if needed "$ridge" | grep -E "$backend_libraries"; then
  echo "FAIL: $ridge links a backend's library (above)"
  exit 1
fi
if ! needed "$plugin" | grep -q libopenblas; then
  echo "FAIL: $plugin does not list libopenblas: the check is not reading NEEDED entries"
  exit 1
fi
echo "ok: $(needed "$ridge" | tr '\n' ' ')"
