#!/usr/bin/env bash
# An A/B of tile builds on one GPU machine: the same command under each
# wheel, the wheels taking turns round by round (A B, B A, ...) so that the
# card's drift falls on all of them. Each wheel is installed into a folder of
# its own (gpu/install-wheel.sh) with its own kernel cache, kept over the
# rounds, so that every kernel is compiled by that wheel, once. Compare what each process measured against
# Triton in the same process (bench/paired.py's ratios), not raw times
# across processes. From the repository root, with the wheels carried:
#   bash gpu/ab_wheels.sh [-r ROUNDS] WHEEL... -- COMMAND...
#   bash gpu/ab_wheels.sh .wheel_a/tile-*.whl dist/tile-*.whl -- \
#       python3 bench/profile_tutorial03.py 4096 float16 1 128x256x64
# Logs: $OUT/ab-<n>-<round>.log (n: the wheel's place in the list, from 1),
# and $OUT/ab.txt saying which wheel each n is.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-/tmp/tile-ab}"
mkdir -p "$out"
rounds=1
if [[ ${1:-} == -r ]]; then
  rounds=$2
  shift 2
fi
wheels=()
while (($#)) && [[ $1 != -- ]]; do
  wheels+=("$1")
  shift
done
[[ ${1:-} == -- ]] && shift
if ((${#wheels[@]} < 1 || $# < 1)); then
  echo "usage: bash gpu/ab_wheels.sh [-r ROUNDS] WHEEL... -- COMMAND..." >&2
  exit 2
fi

sites=()
for i in "${!wheels[@]}"; do
  # install-wheel.sh exits on a missing wheel: a subshell, so that it stops here.
  site=$(TILE_SITE= TILE_WHEEL="${wheels[$i]}" bash -c 'source gpu/install-wheel.sh >&2 && echo "$site"') ||
    exit 2
  sites+=("$site")
  echo "$((i + 1)): ${wheels[$i]} ($(stat -c %s "${wheels[$i]}") bytes), installed in $site" |
    tee -a "$out/ab.txt"
done

status=0
count=${#wheels[@]}
for ((round = 1; round <= rounds; round++)); do
  for ((k = 0; k < count; k++)); do
    # Odd rounds in list order, even rounds reversed.
    i=$(((round % 2) ? k : count - 1 - k))
    log="$out/ab-$((i + 1))-$round.log"
    echo "== round $round, wheel $((i + 1)): $*"
    (TILE_SITE="${sites[$i]}" && source gpu/install-wheel.sh && "$@") >"$log" 2>&1
    rc=$?
    tail -n 20 "$log"
    echo "== round $round, wheel $((i + 1)): exit $rc"
    ((rc == 0)) || status=1
  done
done
exit $status
