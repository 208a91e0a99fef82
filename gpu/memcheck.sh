#!/usr/bin/env bash
# Runs the GPU conformance suite (test/gpu) and the example checks
# (gpu/run_examples.py), both on shapes that are not
# multiples of the tiles, so the masks matter) under NVIDIA compute-sanitizer:
# every example under --tool memcheck (out-of-bounds and misaligned global and
# shared accesses, CUDA API errors), and the examples whose kernels use shared
# memory (shared_bytes > 0 in their JSON) also under --tool racecheck
# (shared-memory hazards: a missing barrier). Run on the GPU machine, from the
# repository root, after the artifacts are in gpu/artifacts (see gpu/run_all.sh):
#     bash gpu/memcheck.sh [NAME ...]
# Ends with one summary line
#     memcheck: N runs, E errors; racecheck: M runs, H hazards (R errors); F example failures
# and exits 1 if any count but N and M is non-zero. With OUT set, the logs go
# to $OUT/memcheck/.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH="python${PYTHONPATH:+:$PYTHONPATH}"
# One cudaMalloc per tensor, so that an access past an output's end (and its
# guard region) leaves the allocation, where memcheck sees it.
export PYTORCH_NO_CUDA_MEMORY_CACHING=1
PY="${PYTHON:-python3}"
CS="${COMPUTE_SANITIZER:-}"
if [[ -z "$CS" ]]; then
  for c in "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" "$(command -v compute-sanitizer)"; do
    [[ -n "$c" && -x "$c" ]] && { CS=$c; break; }
  done
fi
[[ -n "$CS" ]] || { echo "compute-sanitizer not found: set CUDA_HOME or COMPUTE_SANITIZER"; exit 2; }
LOGS="${OUT:+$OUT/memcheck}"
LOGS="${LOGS:-$(mktemp -d)}"
mkdir -p "$LOGS"
"$CS" --version | tail -n 1

if (($#)); then names=("$@"); else
  # The tile IR examples that gpu/run_examples.py checks (the Triton-C
  # artifacts tc_* have their own checker).
  names=(); for f in examples/*.mlir; do names+=("$(basename "$f" .mlir)"); done
fi

uses_shared() {  # whether any kernel of artifact $1 has shared_bytes > 0
  "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if any(k.get("shared_bytes",0)>0 for k in d["kernels"]) else 1)' "gpu/artifacts/$1.json"
}
# "========= ERROR SUMMARY: 3 errors" -> 3 (missing: the run died: count 1)
# racecheck instead ends "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
errors_in() {
  local n
  n=$(grep -o 'ERROR SUMMARY: [0-9]*' "$1" | tail -n 1 | grep -o '[0-9]*$')
  [[ -n "$n" ]] || n=$(grep -o 'RACECHECK SUMMARY: .*(\([0-9]*\) error' "$1" | tail -n 1 | sed 's/.*(\([0-9]*\) error/\1/')
  echo "${n:-1}"
}
hazards_in() { local n; n=$(grep -o 'RACECHECK SUMMARY: [0-9]* hazard' "$1" | tail -n 1 | grep -o '[0-9]\+'); echo "${n:-0}"; }

mem_runs=0 mem_errors=0 race_runs=0 race_hazards=0 race_errors=0 failures=0
for name in "${names[@]}"; do
  [[ -f "gpu/artifacts/$name.cubin" ]] || { echo "FAIL $name (no gpu/artifacts/$name.cubin)"; failures=$((failures + 1)); continue; }
  tools=(memcheck)
  uses_shared "$name" && tools+=(racecheck)
  for tool in "${tools[@]}"; do
    log="$LOGS/$name.$tool.log"
    extra=()
    [[ $tool == memcheck ]] && extra=(--leak-check no --check-device-heap yes)
    [[ $tool == racecheck ]] && extra=(--racecheck-report all)
    "$CS" --tool "$tool" "${extra[@]}" --print-limit 50 "$PY" gpu/run_examples.py "$name" >"$log" 2>&1
    grep -q "^PASS $name" "$log" || { failures=$((failures + 1)); grep -E "^(FAIL|PASS) " "$log"; }
    e=$(errors_in "$log")
    if [[ $tool == memcheck ]]; then
      mem_runs=$((mem_runs + 1)); mem_errors=$((mem_errors + e))
    else
      h=$(hazards_in "$log")
      race_runs=$((race_runs + 1)); race_errors=$((race_errors + e)); race_hazards=$((race_hazards + h))
    fi
    echo "$name $tool: $e errors$([[ $tool == racecheck ]] && echo ", $h hazards") (log: $log)"
  done
done
# The conformance suite (test/gpu: every case on shapes that are not
# multiples of the tile, JIT-compiled and launched through kernel[grid](...))
# under memcheck, in one process. Skipped when names were given.
if ((! $#)) && [[ -d test/gpu && -z "${SKIP_CONFORMANCE:-}" ]]; then
  log="$LOGS/conformance.memcheck.log"
  "$CS" --tool memcheck --leak-check no --print-limit 50 \
    "$PY" -m pytest -q -p no:cacheprovider test/gpu >"$log" 2>&1
  e=$(errors_in "$log")
  mem_runs=$((mem_runs + 1)); mem_errors=$((mem_errors + e))
  summary=$(grep -E '^[0-9]+ (passed|failed)' "$log" | tail -n 1)
  grep -qE '^[0-9]+ passed' "$log" && ! grep -qE '[0-9]+ failed' "$log" ||
    { failures=$((failures + 1)); tail -n 30 "$log"; }
  echo "conformance suite memcheck: $e errors; pytest: ${summary:-no summary} (log: $log)"
fi
echo "memcheck: $mem_runs runs, $mem_errors errors; racecheck: $race_runs runs, $race_hazards hazards ($race_errors errors); $failures example failures"
((mem_errors + race_errors + race_hazards + failures == 0))
