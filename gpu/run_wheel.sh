#!/usr/bin/env bash
# The GPU test path as a user's: install the tile wheel built on the build
# machine (scripts/build-wheel.sh writes dist/; carry it) with no registry,
# no LLVM and no CUDA toolkit path configured, then, with kernels
# JIT-compiled on this machine:
#   1. python -m tile.info       what the wheel found (assembler, libdevice, GPUs)
#   2. pytest test/gpu           the conformance suite and the launcher tests
#   3. bench/run.py --cases launch_overhead   host launch overhead vs Triton, torch
#   4. bench/run.py              every benchmark (skipped with SKIP_BENCH=1)
# Logs go to $OUT (default /tmp/tile-gpu). Run from the repository root:
#   bash gpu/run_wheel.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-/tmp/tile-gpu}"
mkdir -p "$out"
source gpu/install-wheel.sh

source gpu/run-step.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
echo "wheel: $wheel ($(stat -c %s "$wheel") bytes), installed in $site"
run info python3 -m tile.info
run conformance python3 -m pytest -q -rs -p no:cacheprovider test/gpu
run launch-overhead python3 bench/run.py --cases launch_overhead
if [[ -z "${SKIP_BENCH:-}" ]]; then
  OUT="$out/bench" run bench python3 bench/run.py
fi
exit $status
