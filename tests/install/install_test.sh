#!/usr/bin/env bash
# Installs the built ridge into a temporary prefix, builds a consumer against it with
# find_package(ridge) and runs it. Usage: install_test.sh BUILD_DIR
set -euo pipefail
build=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$here/consumer" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
output=$("$work/build/consumer")
echo "$output"
[ "$output" = "h100-sxm ridge 295.5 bound memory" ]
"$work/prefix/bin/ridge" op add --n 8 --format csv >/dev/null
# The installed ridge opens the installed plugins (lib/ridge/ beside bin/), not the build tree's.
"$work/prefix/bin/ridge" doctor --format csv | grep -q "$work/prefix/lib/ridge/libridge-cpu.so"
# The Python module, where it was built: installed where the system's python3 looks under the
# prefix it was configured for, and importable from the installed tree.
site=$(sed -n 's/^RIDGE_PYTHON_INSTALL_DIR:STRING=//p' "$build/CMakeCache.txt")
python=$(sed -n 's/^RIDGE_PYTHON:FILEPATH=//p' "$build/CMakeCache.txt")
if [ -n "$site" ] && [ -d "$build/python/ridge" ]; then
  prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
  "$python" -c "import sys; assert '$prefix/$site' in sys.path, sys.path"
  PYTHONPATH="$work/prefix/$site" "$python" -c "
import ridge
assert ridge.__file__.startswith('$work/prefix/'), ridge.__file__
assert ridge.op('gemm', m=64, n=64, k=64).bound == 'memory'"
fi
