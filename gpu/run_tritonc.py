#!/usr/bin/env python3
"""Run the compiled Triton-C examples on the GPU and check them against torch.

Compiles nothing. Reads, from gpu/artifacts (made on the build machine):

    tile-cc examples/triton-c/vector_add.tc --emit=cubin -o gpu/artifacts/tc_vector_add.cubin
    tile-cc examples/triton-c/transpose.tc  --emit=cubin -o gpu/artifacts/tc_transpose.cubin
    tile-cc examples/triton-c/matmul.tc     --emit=cubin -o gpu/artifacts/tc_matmul.cubin
    tile-cc examples/triton-c/matmul.tc -DTYPE=half --emit=cubin -o gpu/artifacts/tc_matmul_half.cubin
    tile-cc examples/triton-c/vector_add.tc "-DSIZE=[128, 256, 512, 1024, 2048]" \
        --emit=cubin -o gpu/artifacts/tc_vector_add_tuned.cubin

and checks each kernel with run_examples.py's helpers (random inputs whose
shapes are not multiples of the tiles, NaN-poisoned outputs with a guard
region); the tuned vector add goes through tile.tritonc, which times every
variant per input size and keeps the fastest.

    PYTHONPATH=python python3 gpu/run_tritonc.py [--artifacts DIR]

Prints PASS/FAIL per kernel and `N passed, M failed`; exits 1 on a failure.
"""
from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "python"))
sys.path.insert(0, str(HERE))

from tile import driver, tritonc  # noqa: E402
from run_examples import Output, Report, cdiv, rand, run  # noqa: E402


def check_vector_add(kernel: driver.Kernel, rep: Report) -> None:
    for n in (98_765, 1024, 1, 3 * 1024 + 17):
        x, y = rand((n,)), rand((n,))
        out = Output.new((n,))
        run(kernel, (cdiv(n, 1024),), [x, y, out.view, n])
        rep.compare(f"n={n}", out, x.double() + y.double())


def check_transpose(kernel: driver.Kernel, rep: Report) -> None:
    for m, n, ldx, ldy in ((100, 70, 70, 100), (33, 65, 80, 40), (32, 32, 32, 32), (1, 5, 5, 1)):
        x = rand((m, n), ld=ldx)
        y = Output.new((n, m), ld=ldy)
        run(kernel, (cdiv(m, 32), cdiv(n, 32)), [x, y.view, m, n, ldx, ldy])
        rep.compare(f"{m}x{n}", y, x.double().t())


def _matmul(kernel: driver.Kernel, rep: Report, dtype: Any, tol: float) -> None:
    for m, n, k in ((100, 150, 70), (33, 65, 17), (32, 32, 16), (1, 1, 1), (64, 96, 256)):
        a, b = rand((m, k), dtype=dtype), rand((k, n), dtype=dtype)
        c = Output.new((m, n))
        run(kernel, (cdiv(m, 32), cdiv(n, 32)), [a, b, c.view, m, n, k, k, n, n])
        rep.compare(f"{m}x{n}x{k}", c, a.double() @ b.double(), tol=tol)


def check_matmul(kernel: driver.Kernel, rep: Report) -> None:
    import torch
    _matmul(kernel, rep, torch.float32, 1e-5)


def check_matmul_half(kernel: driver.Kernel, rep: Report) -> None:
    import torch
    _matmul(kernel, rep, torch.float16, 1e-4)


CASES: dict[str, Callable[[driver.Kernel, Report], None]] = {
    "tc_vector_add": check_vector_add,
    "tc_transpose": check_transpose,
    "tc_matmul": check_matmul,
    "tc_matmul_half": check_matmul_half,
}


def check_tuned(index: Path, rep: Report) -> None:
    tuned = tritonc.load(index)
    for n in (1 << 20, 5000, 1 << 20):
        x, y = rand((n,)), rand((n,))
        out = Output.new((n,))
        tuned(lambda p: (cdiv(n, p["SIZE"]),), [x, y, out.view, n], key=(n,))
        driver.synchronize()
        rep.compare(f"n={n} SIZE={tuned.best((n,))['SIZE']}", out, x.double() + y.double())
    timings = tuned.timings[(1 << 20,)]
    rep.notes.append("times " + ", ".join(f"{p['SIZE']}: {ms * 1e3:.1f}us" for p, ms in timings))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", type=Path, default=HERE / "artifacts")
    args = parser.parse_args()
    import torch
    torch.manual_seed(0)
    passed = failed = 0
    jobs: list[tuple[str, Callable[[Report], None]]] = []
    for name, check in CASES.items():
        cubin = args.artifacts / f"{name}.cubin"
        jobs.append((name, lambda rep, cubin=cubin, check=check:
                     check(driver.load_module(cubin).kernel(), rep)))
    index = args.artifacts / "tc_vector_add_tuned.variants.json"
    jobs.append(("tc_vector_add_tuned", lambda rep: check_tuned(index, rep)))
    for name, job in jobs:
        rep = Report()
        try:
            job(rep)
            ok, details = not rep.failed, "; ".join(rep.notes)
        except Exception as exc:  # noqa: BLE001  (reported as a failure)
            last = traceback.extract_tb(exc.__traceback__)[-1]
            ok, details = False, f"{type(exc).__name__}: {exc} [{Path(last.filename).name}:{last.lineno}]"
        print(f"{'PASS' if ok else 'FAIL'} {name} ({details})", flush=True)
        passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
