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
