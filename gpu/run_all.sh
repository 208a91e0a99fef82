#!/usr/bin/env bash
# Check every compiled example on the GPU (run from the repository root on the GPU machine):
#     bash gpu/run_all.sh [NAME ...] [--isolate]
# Expects gpu/artifacts/X.cubin + X.json, made on the build machine with
#     build/bin/tile-translate --tile-to-cubin examples/X.mlir -o gpu/artifacts/X.cubin
# When OUT is set, the output is also written to $OUT/examples.log.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH="python${PYTHONPATH:+:$PYTHONPATH}"
PY="${PYTHON:-python3}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
if [[ -n "${OUT:-}" ]]; then
  mkdir -p "$OUT"
  "$PY" gpu/run_examples.py "$@" 2>&1 | tee "$OUT/examples.log"
  exit "${PIPESTATUS[0]}"
else
  exec "$PY" gpu/run_examples.py "$@"
fi
