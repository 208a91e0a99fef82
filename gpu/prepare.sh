#!/usr/bin/env bash
# On the build machine (which has the compiler but no GPU): compile
# everything the GPU machine (which has a GPU but no LLVM) will run.
#   gpu/artifacts/  cubins + JSON launch facts of examples/*.mlir and of the
#                   Triton-C examples (tc_*)
#   .gpu/prebuilt/  Python kernels of the conformance suite and the
#                   benchmarks, exported by tile.compile (TILE_EXPORT_DIR)
#   .gpu/bench-tile-compile.json  tile's compile times, measured here
# Then carry both folders (the device tool's `carry`: gpu/artifacts, .gpu)
# and run gpu/run_gpu.sh there.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p gpu/artifacts .gpu/prebuilt
export PYTHONPATH=python

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

export TILE_EXPORT_DIR=$PWD/.gpu/prebuilt
if [[ -f gpu/prepare_conformance.py ]]; then
  echo "== conformance suite kernels"
  .venv/bin/python gpu/prepare_conformance.py
fi
if [[ -f bench/run.py ]]; then
  echo "== benchmark kernels (and tile's compile times)"
  TILE_CACHE_DIR=$(mktemp -d) .venv/bin/python bench/run.py --prepare
fi
du -sh gpu/artifacts .gpu
