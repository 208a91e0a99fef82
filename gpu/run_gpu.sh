#!/usr/bin/env bash
# On the GPU machine, from the repository root, with tile importable (the
# wheel installed: gpu/run_wheel.sh installs it and runs the conformance
# suite and the benchmarks) and, for the example checks, gpu/artifacts made
# by gpu/prepare.sh (ahead-of-time cubins of the tile IR and Triton-C examples):
#   bash gpu/run_gpu.sh checks   # examples, Triton-C examples, conformance suite, memcheck
#   bash gpu/run_gpu.sh bench    # benchmarks side by side with Triton and PyTorch
# Logs go to $OUT when it is set (the device tool's output folder).
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
python3 -c "import tile" 2>/dev/null || export PYTHONPATH=python  # a checkout's build
out="${OUT:-/tmp/tile-gpu}"
mkdir -p "$out"
source gpu/run-step.sh
case "${1:-checks}" in
  checks)
    nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
    run examples python3 gpu/run_examples.py --isolate
    run tritonc python3 gpu/run_tritonc.py
    run conformance python3 -m pytest -q -rs test/gpu
    run memcheck bash gpu/memcheck.sh
    ;;
  bench)
    run bench python3 bench/run.py
    ;;
  *) echo "usage: $0 checks|bench"; exit 2 ;;
esac
exit $status
