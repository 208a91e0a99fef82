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
grep -m2 "ld.global" "$out/vector_add.ptx"
ls -l "$out/vector_add.ptx" "$out/vector_add.cubin" "$out/vector_add.json"

echo "== @tile.jit: examples/python/vector_add.py -> PTX, cubin and a C launch header"
PYTHONPATH=python .venv/bin/python -m tile.aot examples/python/vector_add.py:vector_add \
  --signature "*fp32,*fp32,*fp32,i32" --constexpr BLOCK=1024 \
  --divisible-by-16 x_ptr,y_ptr,out_ptr,n -o "$out/python"
PYTHONPATH=python .venv/bin/python - "$out/python" <<'PY'
import sys, tile
sys.path.insert(0, "examples/python")
from vector_add import vector_add
# Pointers and n known to be multiples of 16, as a launch specializes them:
# the compiler vectorizes the loads and stores to 128 bits.
aligned = tile.Specialization(divisible_by_16=frozenset({"x_ptr", "y_ptr", "out_ptr", "n"}))
kernel = tile.compile(vector_add, "*fp32,*fp32,*fp32,i32", {"BLOCK": 1024},
                      specialization=aligned)
out = sys.argv[1]
open(f"{out}/vector_add.ptx", "w").write(kernel.asm["ptx"])
loads = [l.strip() for l in kernel.asm["ptx"].splitlines() if "ld.global" in l]
print(f"{len(kernel.asm['cubin'])}-byte cubin; loads: {loads[:2]}")
print("launch facts:", kernel.metadata)
PY
ls -l "$out/python"
