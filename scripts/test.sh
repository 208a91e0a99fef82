#!/usr/bin/env bash
# Installs, builds and runs every test that runs without a GPU.
#   bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

echo "== lit"
/usr/lib/llvm-22/bin/lit -sv build/test

echo "== embedding: installed package, downstream CMake project, C API, mlir-opt plugin"
bash scripts/test-embedding.sh

echo "== dialect reference is up to date"
ninja -C build mlir-doc >/dev/null
for doc in TileDialect TilePasses TileConversionPasses; do
  generated=$(find build/docs -name "$doc.md" | head -1)
  diff -u "docs/reference/$doc.md" "$generated" ||
    { echo "docs/reference/$doc.md is stale: run scripts/update-docs.sh"; exit 1; }
done

echo "== reliability: lit under ASan+UBSan, fuzzers (about a minute each)"
bash scripts/test-reliability.sh

echo "== the wheel: build, install into a fresh virtualenv, test the installed package"
bash scripts/build-wheel.sh
bash scripts/test-wheel.sh

echo "== the interpreter (TILE_INTERPRET=1): its tests, and the GPU conformance suite on the CPU"
# NumPy and torch in the checkout's .venv: PyPI's Linux torch wheels bring CUDA
# libraries (about 5 GB, up to 10 minutes the first time); torch runs on the CPU.
.venv/bin/python -c "import numpy, torch" 2>/dev/null || .venv/bin/pip install -q numpy torch
# Every test/python file with tests that skip without NumPy or torch (importorskip,
# find_spec, `numpy is None`): test-wheel.sh's fresh virtualenv has neither, so
# they run here (the files' other tests run in both). -rs: whatever still skips
# says why.
mapfile -t needs_numpy < <(grep -lE 'importorskip|find_spec|numpy is None' test/python/test_*.py)
PYTHONPATH=python .venv/bin/pytest -q -p no:cacheprovider -rs "${needs_numpy[@]}"
TILE_INTERPRET=1 PYTHONPATH=python .venv/bin/pytest -q -p no:cacheprovider test/gpu

echo "== randomized Python kernels, compiled and interpreted (fuzz/python/kernelgen.py, ${KERNELGEN_SECONDS:-60} s)"
# After the interpreter's NumPy is installed: valid kernels also run interpreted.
# From a fixed first seed (KERNELGEN_SEED), as the fuzzers' seed is fixed: a
# test run checks the same kernels wherever it runs.
PYTHONPATH=python .venv/bin/python fuzz/python/kernelgen.py --seconds "${KERNELGEN_SECONDS:-60}" \
  --seed "${KERNELGEN_SEED:-1}"
