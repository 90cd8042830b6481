#!/usr/bin/env bash
# Installs, through apt, the Debian 12 packages ridge builds and tests with, and only those
# that are missing, so that `make run` and `make test` are the whole set-up on a fresh machine.
set -euo pipefail

packages=(
  g++ cmake ninja-build make pkg-config
  libcli11-dev libtomlplusplus-dev nlohmann-json3-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev libtinyxml2-dev
  libopenblas-dev libhwloc-dev
  libopenmpi-dev openmpi-bin
  zlib1g-dev libcsv-dev libsimdjson-dev
  python3-dev pybind11-dev python3-pybind11
)
if [ "$#" -gt 0 ]; then packages+=("$@"); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ "${#missing[@]}" -eq 0 ] && exit 0

echo "ridge: installing missing packages: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
