#!/usr/bin/env bash
# The wheel as a user gets it: install dist/tile-*.whl (scripts/build-wheel.sh)
# into a fresh virtual environment and run the Python suites against the
# installed package (TILE_TEST_INSTALLED=1: not the checkout's python/); then
# compile kernels through it with LLVM and the CUDA toolkit hidden (a mount
# namespace binds empty folders over /usr/lib/llvm-22 and /usr/local/cuda-*),
# assembling with NVIDIA's nvJitLink wheel and linking the wheel's libdevice.
#   bash scripts/test-wheel.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
wheel=$(ls dist/tile-*.whl)
work=$(mktemp -d "${TMPDIR:-/tmp}/tile-wheel-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
venv="$work/venv"

echo "== fresh virtualenv with $(basename "$wheel")"
python3 -m venv "$venv"
"$venv/bin/pip" install -q --no-deps "$wheel"
"$venv/bin/pip" install -q pytest
export TILE_TEST_INSTALLED=1 TILE_CACHE_DIR="$work/cache"
"$venv/bin/python" -c "import tile, tile._launcher; print('tile from', tile.__file__)"

echo "== CUDA driver launcher against a fake libcuda (argument packing, JIT launch cache, devices)"
(cd "$work" && "$venv/bin/python" "$root/gpu/tests/test_driver_cpu.py")

echo "== pytest, installed package"
(cd "$work" && "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/test/python")

echo "== compile through the wheel with no LLVM and no CUDA toolkit"
if ! "$venv/bin/pip" install -q nvidia-nvjitlink; then
  echo "SKIPPED: NVIDIA's nvidia-nvjitlink wheel could not be installed from PyPI"
  exit 0
fi
if ! unshare -m true 2>/dev/null; then
  echo "SKIPPED: no mount namespace here (unshare -m) to hide LLVM and the toolkit"
  exit 0
fi
empty="$work/empty"
mkdir -p "$empty"
hide="mount --bind $empty /usr/lib/llvm-22"
for toolkit in /usr/local/cuda-*; do
  [[ -d "$toolkit" ]] && hide+=" && mount --bind $empty $toolkit"
done
unshare -m bash -c "$hide && exec env -u CUDA_HOME -u CUDA_PATH LD_LIBRARY_PATH= \
  PATH=/usr/bin:/bin '$venv/bin/python' '$root/scripts/wheel-smoke.py'"
