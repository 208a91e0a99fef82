#!/usr/bin/env bash
# The differential check of randomized Python kernels on the GPU machine:
# each valid kernel of fuzz/python/kernelgen.py runs in the interpreter and
# compiled (JIT, through the installed wheel), and the outputs are compared
# (docs/reliability.md, "The differential check").
#   1. pytest test/gpu/test_kernelgen_differential.py   fixed seeds 0..39
#   2. kernelgen.py --differential for KERNELGEN_SECONDS (default 240) from
#      KERNELGEN_SEED (default: from the clock)
# Installs dist/tile-*.whl as gpu/run_wheel.sh does (carry dist). Logs go to
# $OUT (default /tmp/tile-gpu); the kernels of findings to
# $OUT/kernelgen-findings/. Run from the repository root:
#   bash gpu/kernelgen_differential.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-/tmp/tile-gpu}"
mkdir -p "$out"
source gpu/install-wheel.sh

source gpu/run-step.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "wheel: $wheel, installed in $site"
run kernelgen-differential-seeds python3 -m pytest -q -rs -p no:cacheprovider \
  test/gpu/test_kernelgen_differential.py
kernels=$(mktemp -d "${TMPDIR:-/tmp}/tile-kernelgen.XXXXXX")
seed_args=()
[[ -n "${KERNELGEN_SEED:-}" ]] && seed_args=(--seed "$KERNELGEN_SEED")
run kernelgen-differential python3 fuzz/python/kernelgen.py --differential \
  --seconds "${KERNELGEN_SECONDS:-240}" "${seed_args[@]}" --dir "$kernels"
# Keep the kernels the findings name (and their interpreter spelling).
mkdir -p "$out/kernelgen-findings"
for kernel in $(sed -n 's/^  kernel: //p' "$out/kernelgen-differential.log"); do
  cp "$kernel" "${kernel%.py}_interpretable.py" "$out/kernelgen-findings/" 2>/dev/null
done
exit $status
