#!/usr/bin/env bash
# The main job: install, build, and compile example kernels from source to
# PTX and cubin: a hand-written tile IR kernel through tile-opt and
# tile-translate, and a Python (Triton-API) kernel through @tile.jit.
#   bash scripts/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
out=build/demo
mkdir -p "$out"

echo "== tile-opt: examples/vector_add.mlir after layout assignment"
build/bin/tile-opt --tile-assign-layouts examples/vector_add.mlir | grep -m3 "tile.blocked"

echo "== tile-translate: examples/vector_add.mlir -> PTX and cubin"
build/bin/tile-translate --tile-to-ptx examples/vector_add.mlir -o "$out/vector_add.ptx"
build/bin/tile-translate --tile-to-cubin examples/vector_add.mlir -o "$out/vector_add.cubin"
grep -m2 "ld.global.v4" "$out/vector_add.ptx"
ls -l "$out/vector_add.ptx" "$out/vector_add.cubin" "$out/vector_add.json"

if [[ -f examples/python/vector_add.py ]]; then
  echo "== @tile.jit: examples/python/vector_add.py -> PTX and cubin"
  PYTHONPATH=python .venv/bin/python examples/python/vector_add.py --compile-only --out "$out"
fi
