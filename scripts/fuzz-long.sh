#!/usr/bin/env bash
# Nightly-style fuzzing (docs/reliability.md): each libFuzzer target of fuzz/
# for SECONDS (default 3600), after replaying fuzz/regressions/, from the
# seeds plus the corpus that earlier runs grew (build-fuzz/fuzz-work/
# corpus-<target>, kept between runs). The targets run in parallel. Exits
# non-zero on any finding; reproducers go to build-fuzz/fuzz-work/artifacts/.
#   bash scripts/fuzz-long.sh              # an hour per target
#   bash scripts/fuzz-long.sh 600          # ten minutes per target
#   bash scripts/fuzz-long.sh 1800 tile-fuzz-tritonc tile-fuzz-compile
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-3600}
if [[ ! $seconds =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [SECONDS per target] [TARGET...]" >&2
  exit 2
fi
shift $(($# > 0 ? 1 : 0))
FUZZ_SECONDS=$seconds SKIP_ASAN=1 FUZZ_TARGETS="$*" FUZZ_SEED=${FUZZ_SEED:-0} \
  exec bash scripts/test-reliability.sh
