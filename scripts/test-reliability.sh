#!/usr/bin/env bash
# Reliability checks that run without a GPU (see docs/reliability.md):
#  1. the lit suite under AddressSanitizer + UndefinedBehaviorSanitizer
#     (build dir build-asan);
#  2. the libFuzzer targets of fuzz/ (build dir build-fuzz): first the saved
#     regression inputs of fuzz/regressions/, then a bounded run of each
#     target from the seed corpus (tests and examples).
# Exits non-zero on any failing test, sanitizer report or fuzzer finding.
#   bash scripts/test-reliability.sh
#   FUZZ_SECONDS=600 bash scripts/test-reliability.sh      # longer fuzzing
#   SKIP_ASAN=1 / SKIP_FUZZ=1                               # one half only
#   FUZZ_TARGETS="tile-fuzz-tritonc"                        # some targets only
#   FUZZ_SEED=0                                             # libFuzzer picks the seed
# The fuzzing seed is fixed (FUZZ_SEED, default 1), so that a run of a given
# checkout mutates the same inputs in the same order wherever it runs: a
# finding reproduces, and a test run does not fail by luck. The long runs
# (scripts/fuzz-long.sh) take a fresh seed each time.
# scripts/fuzz-long.sh runs the fuzzers for longer (nightly).
# Expects the packages of scripts/setup.sh (clang-22, libclang-rt-22-dev).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
JOBS="${JOBS:-2}"
FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
FUZZ_SEED="${FUZZ_SEED:-1}"
ASAN_DIR="${ASAN_BUILD_DIR:-build-asan}"
FUZZ_DIR="${FUZZ_BUILD_DIR:-build-fuzz}"
LIT=/usr/lib/llvm-22/bin/lit

# libMLIR/libLLVM are not instrumented, but their allocators' inline code
# (BumpPtrAllocator) is compiled into our instrumented objects too: our
# copies poison fresh slabs by hand, theirs never unpoison what they hand
# out, so every MLIR type allocation reads as use-after-poison. Turning off
# the manual poisoning keeps every other check (heap, stack, globals,
# use-after-free, leaks).
export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$ROOT/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

# TILE_ENABLE_SANITIZERS adds the flags; LLVM_USE_SANITIZER makes LLVM's
# HandleLLVMOptions drop -Wl,-z,defs, without which libTileCAPI.so (whose
# sanitizer runtime comes from the process that loads it) does not link.
cmake_args=(-G Ninja -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
  -DCMAKE_BUILD_TYPE=Release -DTILE_ENABLE_SANITIZERS=ON
  "-DLLVM_USE_SANITIZER=Address;Undefined"
  -DCMAKE_SHARED_LINKER_FLAGS=-shared-libsan -DCMAKE_MODULE_LINKER_FLAGS=-shared-libsan)

failures=()
step() { echo "== $* ($(date +%T))"; }
timed() { local t0=$SECONDS; "$@"; local rc=$?; echo "   ($((SECONDS - t0)) s)"; return $rc; }

if [[ -z "${SKIP_ASAN:-}" ]]; then
  step "ASan+UBSan build in $ASAN_DIR"
  if timed cmake -S . -B "$ASAN_DIR" "${cmake_args[@]}" >/dev/null &&
     timed ninja -C "$ASAN_DIR" -j "$JOBS"; then
    step "lit under ASan+UBSan"
    # (embedding/plugin.mlir is UNSUPPORTED there: stock mlir-opt, not
    # instrumented, cannot load our instrumented plugin.)
    timed "$LIT" -sv "$ASAN_DIR/test" ||
      failures+=("lit under ASan+UBSan")
  else
    failures+=("ASan build")
  fi
fi

if [[ -z "${SKIP_FUZZ:-}" ]]; then
  all_fuzzers=(tile-fuzz-ir tile-fuzz-compile tile-fuzz-tritonc)
  read -r -a fuzzers <<<"${FUZZ_TARGETS:-${all_fuzzers[*]}}"
  for f in "${fuzzers[@]}"; do
    [[ " ${all_fuzzers[*]} " == *" $f "* ]] ||
      { echo "unknown fuzz target '$f' (targets: ${all_fuzzers[*]})"; exit 2; }
  done
  step "fuzzer build in $FUZZ_DIR"
  if timed cmake -S . -B "$FUZZ_DIR" "${cmake_args[@]}" -DTILE_ENABLE_FUZZERS=ON \
         -DLLVM_USE_SANITIZE_COVERAGE=ON >/dev/null &&
     timed ninja -C "$FUZZ_DIR" -j "$JOBS" tile-fuzzers; then
    work="$FUZZ_DIR/fuzz-work"
    rm -rf "$work/seeds" && mkdir -p "$work/artifacts"
    python3 fuzz/make-corpus.py "$work/seeds" --dict "$work/tile.dict"
    # The Triton-C frontend's seeds are the Triton-C tests and examples.
    rm -rf "$work/seeds-tritonc" && mkdir -p "$work/seeds-tritonc"
    for seed in test/TritonC/*.tc examples/triton-c/*.tc; do
      cp "$seed" "$work/seeds-tritonc/$(basename "$(dirname "$seed")")-$(basename "$seed")"
    done
    opts=(-dict="$work/tile.dict" -max_len=16384 -timeout=25 -rss_limit_mb=3072
          -print_final_stats=1)

    step "fuzz regressions (fuzz/regressions)"
    for f in "${fuzzers[@]}"; do
      inputs=(fuzz/regressions/$f/*)
      [[ -e "${inputs[0]}" ]] || continue
      # Given files, libFuzzer runs each once and stops at the first failure.
      if ! "$FUZZ_DIR/bin/$f" "${opts[@]}" "${inputs[@]}" >"$work/$f-regressions.log" 2>&1; then
        tail -n 60 "$work/$f-regressions.log"
        failures+=("$f on fuzz/regressions/$f (log: $work/$f-regressions.log)")
      else
        echo "   $f: ${#inputs[@]} inputs pass"
      fi
    done

    step "fuzzing ${FUZZ_SECONDS} s per target, ${#fuzzers[@]} targets in parallel (seed $FUZZ_SEED)"
    pids=()
    for f in "${fuzzers[@]}"; do
      mkdir -p "$work/corpus-$f"
      seeds="$work/seeds"
      [[ $f == tile-fuzz-tritonc ]] && seeds="$work/seeds-tritonc"
      timeout $((FUZZ_SECONDS + 300)) "$FUZZ_DIR/bin/$f" "${opts[@]}" \
        -max_total_time="$FUZZ_SECONDS" -seed="$FUZZ_SEED" \
        -artifact_prefix="$work/artifacts/$f-" \
        "$work/corpus-$f" "$seeds" >"$work/$f.log" 2>&1 &
      pids+=($!)
    done
    for i in "${!fuzzers[@]}"; do
      f=${fuzzers[$i]}
      if wait "${pids[$i]}"; then
        echo "   $f: $(grep -m1 -o 'Done [0-9]* runs in [0-9]* second(s)' "$work/$f.log"), $(grep -o 'cov: [0-9]*' "$work/$f.log" | tail -n 1)"
      else
        echo "   $f FOUND SOMETHING; the end of $work/$f.log:"
        tail -n 60 "$work/$f.log"
        ls "$work/artifacts/$f-"* 2>/dev/null | sed 's/^/   reproducer: /'
        failures+=("$f (log: $work/$f.log)")
      fi
    done
    echo "   reproduce: $FUZZ_DIR/bin/<target> <reproducer>; keep it: copy it to fuzz/regressions/<target>/"
  else
    failures+=("fuzzer build")
  fi
fi

if ((${#failures[@]})); then
  echo "== reliability: FAILED: ${failures[*]}"
  exit 1
fi
echo "== reliability: all passed"
