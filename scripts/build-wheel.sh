#!/usr/bin/env bash
# Builds the wheel into dist/:
#   tile-<version>-cp311-abi3-manylinux_<glibc>_x86_64.whl
# holding the Python package, the self-contained compile library
# (libTileCompiler.so, linked from Debian's static LLVM/MLIR archives), the C
# launcher and libdevice. The build reuses the CMake tree $BUILD_DIR
# (default build/, made by scripts/setup.sh), so only the compile library and
# the launcher are linked on top of it; then auditwheel gives the wheel the
# manylinux tag its glibc symbols allow.
#   bash scripts/build-wheel.sh
#   BUILD_DIR=build/wheel bash scripts/build-wheel.sh   # a tree of its own
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${VENV:-.venv}
build_dir=${BUILD_DIR:-build}
raw=$(mktemp -d "${TMPDIR:-/tmp}/tile-wheel.XXXXXX")
trap 'rm -rf "$raw"' EXIT

echo "== building the wheel (CMake tree $build_dir)"
"$venv/bin/python" -m pip wheel . --no-build-isolation --no-deps -q \
  -Cbuild-dir="$build_dir" -w "$raw"
wheel=$(ls "$raw"/tile-*.whl)

# The tag auditwheel finds the wheel consistent with (manylinux_2_36 on Debian 12).
tag=$(PATH="$venv/bin:$PATH" auditwheel show "$wheel" 2>/dev/null |
      tr '\n' ' ' | grep -o 'platform tag: *"[a-z0-9_]*"' | head -1 |
      grep -o '"[a-z0-9_]*"' | tr -d '"')
[[ -n "$tag" ]] || { echo "auditwheel found no manylinux tag for $wheel"; exit 1; }
mkdir -p dist
rm -f dist/tile-*.whl
PATH="$venv/bin:$PATH" auditwheel repair --plat "$tag" -w dist "$wheel" 2>&1 | grep -v "^INFO" || true
out=$(ls dist/tile-*.whl)
echo "== $out: $(du -h "$out" | cut -f1) ($(stat -c %s "$out") bytes)"
