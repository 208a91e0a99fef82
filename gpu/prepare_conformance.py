#!/usr/bin/env python3
"""Compile (and export) every kernel the GPU conformance suite (test/gpu) launches.

Run on the machine with the compiler, from the repository root:

    TILE_EXPORT_DIR=.gpu/prebuilt PYTHONPATH=python python3 gpu/prepare_conformance.py

Each case of test/gpu/conformance_cases.py is launched through `kernel[grid](...)` exactly
as on the GPU, but with fake arrays (same dtypes, strides and pointer
alignment; no torch needed) and `tile.driver.launch` replaced by a no-op, so the
specializations compiled here are the ones the GPU run will look up in
$TILE_PREBUILT_DIR. Exits 1 if any case fails to compile.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "test" / "gpu"))

import tile.driver  # noqa: E402
from tile.compiler import capi  # noqa: E402

import conformance_cases as cases  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-k", default="", help="only cases whose id contains this")
    parser.add_argument("-v", action="store_true", help="print every case")
    options = parser.parse_args()
    if not capi.available():
        print(f"error: the compile library is not available ({capi.library_path()})",
              file=sys.stderr)
        return 2
    if not os.environ.get("TILE_EXPORT_DIR"):
        print("warning: TILE_EXPORT_DIR is not set: kernels are compiled but not exported",
              file=sys.stderr)

    launched: list[tuple] = []
    tile.driver.launch = lambda compiled, grid, args, stream=None: launched.append(  # type: ignore
        (compiled.name, grid))

    failures = []
    start = time.time()
    selected = [c for c in cases.CASES if options.k in c.id]
    for case in selected:
        t0 = time.time()
        try:
            cases.launch(case, cases.build(case, "fake"))
        except Exception as exc:  # noqa: BLE001 - report every failing case
            failures.append((case.id, exc))
            print(f"FAIL {case.id}: {type(exc).__name__}: {exc}", file=sys.stderr)
            if options.v:
                traceback.print_exc()
            continue
        if options.v:
            print(f"ok   {case.id} ({time.time() - t0:.1f}s) grid {launched[-1][1]}")
    print(f"{len(selected) - len(failures)} of {len(selected)} cases compiled in "
          f"{time.time() - start:.0f}s"
          + (f", exported to {os.environ['TILE_EXPORT_DIR']}"
             if os.environ.get("TILE_EXPORT_DIR") else ""))
    for name, exc in failures:
        print(f"  failed: {name}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
