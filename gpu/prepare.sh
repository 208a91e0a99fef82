#!/usr/bin/env bash
# Ahead of time, with the tools (tile-translate, tile-cc): cubins and JSON
# launch facts of the tile IR examples (examples/*.mlir) and of the Triton-C
# examples (tc_*) into gpu/artifacts/, for gpu/run_gpu.sh's example checks
# and compute-sanitizer runs on a GPU machine (carry gpu/artifacts). Python
# kernels need nothing prepared: the wheel JIT-compiles them there
# (gpu/run_wheel.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p gpu/artifacts

echo "== tile IR examples"
for f in examples/*.mlir; do
  build/bin/tile-translate --tile-to-cubin "$f" -o "gpu/artifacts/$(basename "$f" .mlir).cubin"
done

echo "== Triton-C examples"
cc=build/bin/tile-cc
$cc examples/triton-c/vector_add.tc --emit=cubin -o gpu/artifacts/tc_vector_add.cubin
$cc examples/triton-c/transpose.tc --emit=cubin -o gpu/artifacts/tc_transpose.cubin
$cc examples/triton-c/matmul.tc --emit=cubin -o gpu/artifacts/tc_matmul.cubin
$cc examples/triton-c/matmul.tc -DTYPE=half --emit=cubin -o gpu/artifacts/tc_matmul_half.cubin
$cc examples/triton-c/vector_add.tc "-DSIZE=[128, 256, 512, 1024, 2048]" \
  --emit=cubin -o gpu/artifacts/tc_vector_add_tuned.cubin

du -sh gpu/artifacts
