#!/usr/bin/env python3
"""Run every compiled example kernel on the GPU and check it against torch.

Reads gpu/artifacts/X.cubin + X.json (from `tile-translate --tile-to-cubin
examples/X.mlir -o gpu/artifacts/X.cubin`), builds random inputs whose shapes
are not multiples of the tiles (so the masks matter), fills the outputs with NaN
(the whole allocation, including padding and a guard region after the end),
launches through tile.driver and compares with a float64 torch reference:
relative error ||out - ref|| / ||ref||, and nothing written outside the output.

    PYTHONPATH=python python3 gpu/run_examples.py [NAME ...] [--artifacts DIR] [--isolate]

Prints `PASS name (details)` / `FAIL name (details)` per example and a final
`N passed, M failed`; exits 1 on any failure. After a CUDA error (which may
leave the context unusable) the remaining examples run in fresh processes.
"""
from __future__ import annotations

import argparse
import math
import subprocess
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "python"))

from tile import driver  # noqa: E402

F32_TOL = 1e-5
GUARD = 256  # poisoned elements after the end of every output allocation


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


# ---------------------------------------------------------------------------
# Buffers and checks
# ---------------------------------------------------------------------------


def _torch() -> Any:
    import torch
    return torch


def strided(shape: tuple[int, ...], strides: tuple[int, ...], dtype: Any,
            fill: str = "randn", guard: int = 0) -> tuple[Any, Any]:
    """A (view, buffer) pair: the view has `shape` and element `strides` over a
    flat CUDA buffer with `guard` extra elements. fill is "randn" or "nan"."""
    torch = _torch()
    extent = 1 + sum((d - 1) * s for d, s in zip(shape, strides)) if all(shape) else 0
    total = extent + guard
    if fill == "nan":
        buf = torch.full((total,), float("nan"), dtype=dtype, device="cuda")
    else:
        buf = torch.randn(total, dtype=torch.float32, device="cuda").to(dtype)
    return buf.as_strided(shape, strides), buf


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= d
    return tuple(reversed(strides))


def rand(shape: tuple[int, ...], dtype: Any = None, ld: int | None = None) -> Any:
    """Random input; for 2-D, `ld` is the row stride (>= the column count)."""
    torch = _torch()
    dtype = dtype or torch.float32
    strides = contiguous_strides(shape) if ld is None else (ld, 1)
    return strided(shape, strides, dtype)[0]


@dataclass
class Output:
    """A NaN-poisoned output; `untouched()` checks everything outside `view`."""
    view: Any
    buf: Any

    @staticmethod
    def new(shape: tuple[int, ...], dtype: Any = None, ld: int | None = None) -> "Output":
        torch = _torch()
        strides = contiguous_strides(shape) if ld is None else (ld, 1)
        view, buf = strided(shape, strides, dtype or torch.float32, fill="nan", guard=GUARD)
        return Output(view, buf)

    def outside_written(self) -> int:
        """How many elements outside the view were overwritten (should be 0)."""
        torch = _torch()
        index = torch.arange(self.buf.numel(), device=self.buf.device)
        inside = index.as_strided(self.view.shape, self.view.stride(),
                                  self.view.storage_offset()).flatten()
        outside = torch.ones(self.buf.numel(), dtype=torch.bool, device=self.buf.device)
        outside[inside] = False
        return int((~torch.isnan(self.buf[outside])).sum().item())


@dataclass
class Report:
    """The checks of one example: a list of labelled results."""
    notes: list[str] = field(default_factory=list)
    failed: bool = False

    def compare(self, label: str, out: Output, ref: Any, tol: float = F32_TOL) -> None:
        torch = _torch()
        got = out.view.double()
        ref = ref.double()
        nans = int(torch.isnan(got).sum().item())
        denom = float(torch.linalg.vector_norm(ref))
        diff = got - ref
        # Matching infinities (e.g. max of -inf) count as equal.
        diff = torch.where(torch.isinf(ref) & (got == ref), torch.zeros_like(diff), diff)
        err = float(torch.linalg.vector_norm(diff)) / (denom if denom > 0 else 1.0)
        stray = out.outside_written()
        ok = nans == 0 and stray == 0 and math.isfinite(err) and err < tol
        note = f"{label}: err {err:.1e}"
        if nans:
            note += f", {nans} NaN (unwritten?)"
        if stray:
            note += f", {stray} elements written outside the output"
        if not ok:
            note += f" > tol {tol:.0e}" if nans == 0 and stray == 0 else ""
            note = "BAD " + note
            self.failed = True
        self.notes.append(note)


def run(kernel: driver.Kernel, grid: tuple[int, ...], args: list[Any]) -> None:
    kernel.launch(grid, args)
    driver.synchronize()


# ---------------------------------------------------------------------------
# The examples
# ---------------------------------------------------------------------------


def check_vector_add(kernel: driver.Kernel, rep: Report) -> None:
    for n in (98_765, 1024, 1, 3 * 1024 + 17):
        x, y = rand((n,)), rand((n,))
        out = Output.new((n,))
        run(kernel, (cdiv(n, 1024),), [x, y, out.view, n])
        rep.compare(f"n={n}", out, x.double() + y.double())


def _matrix_add(kernel: driver.Kernel, rep: Report, bm: int, bn: int,
                configs: list[tuple[int, int, int, int, int]]) -> None:
    for m, n, ldx, ldy, ldo in configs:
        x, y = rand((m, n), ld=ldx), rand((m, n), ld=ldy)
        out = Output.new((m, n), ld=ldo)
        run(kernel, (cdiv(m, bm), cdiv(n, bn)), [x, y, out.view, m, n, ldx, ldy, ldo])
        rep.compare(f"{m}x{n} ld {ldx}/{ldy}/{ldo}", out, x.double() + y.double())


def check_matrix_add_16x32(kernel: driver.Kernel, rep: Report) -> None:
    # Row strides must be multiples of 16 (the kernel declares tile.divisibility).
    _matrix_add(kernel, rep, 16, 32, [(1000, 1001, 1008, 1024, 1008), (33, 17, 32, 32, 48),
                                      (16, 32, 32, 32, 32)])


def check_matrix_add_24x40(kernel: driver.Kernel, rep: Report) -> None:
    _matrix_add(kernel, rep, 24, 40, [(1000, 1001, 1001, 1003, 1001), (25, 41, 41, 41, 41),
                                      (7, 3, 5, 3, 4)])


def check_matmul_naive(kernel: driver.Kernel, rep: Report) -> None:
    k = 128
    for m, n, lda, ldb, ldc in ((300, 200, k, 200, 200), (33, 65, 131, 70, 67), (32, 64, k, 64, 64)):
        a, b = rand((m, k), ld=lda), rand((k, n), ld=ldb)
        c = Output.new((m, n), ld=ldc)
        run(kernel, (cdiv(m, 32), cdiv(n, 64)), [a, b, c.view, m, n, lda, ldb, ldc])
        rep.compare(f"{m}x{n}x{k}", c, a.double() @ b.double())


def _rowwise(kernel: driver.Kernel, rep: Report, ref: Callable[[Any], Any],
             scale: float) -> None:
    for rows, cols, ld in ((37, 1000, 1000), (5, 1024, 1030), (3, 1, 1), (64, 781, 800)):
        x = rand((rows, cols), ld=ld)
        x.mul_(scale)
        out = Output.new((rows, cols), ld=cols + 3)
        run(kernel, (rows,), [out.view, x, cols + 3, ld, cols])
        rep.compare(f"{rows}x{cols}", out, ref(x.double()))


def check_softmax(kernel: driver.Kernel, rep: Report) -> None:
    _rowwise(kernel, rep, lambda x: _torch().softmax(x, dim=1), scale=10.0)


def check_cumsum(kernel: driver.Kernel, rep: Report) -> None:
    _rowwise(kernel, rep, lambda x: _torch().cumsum(x, dim=1), scale=1.0)


def check_reduce_2d(kernel: driver.Kernel, rep: Report) -> None:
    torch = _torch()
    for m, n, ld in ((70, 150, 150), (32, 64, 64), (5, 3, 7)):
        tm, tn = cdiv(m, 32), cdiv(n, 64)
        x = rand((m, n), ld=ld)
        outs0 = [Output.new((tm, n)) for _ in range(3)]
        outs1 = [Output.new((m, tn)) for _ in range(3)]
        run(kernel, (tm, tn), [x] + [o.view for o in outs0 + outs1] + [m, n, ld])

        def padded(fill: float) -> Any:
            p = torch.full((tm * 32, tn * 64), fill, dtype=torch.float64, device="cuda")
            p[:m, :n] = x.double()
            return p

        p0, pmax, pmin = padded(0.0), padded(-math.inf), padded(math.inf)
        refs0 = [p0.view(tm, 32, tn * 64).sum(1), pmax.view(tm, 32, tn * 64).amax(1),
                 pmin.view(tm, 32, tn * 64).amin(1)]
        refs1 = [p0.view(tm * 32, tn, 64).sum(2), pmax.view(tm * 32, tn, 64).amax(2),
                 pmin.view(tm * 32, tn, 64).amin(2)]
        for label, out, ref in zip(("sum0", "max0", "min0"), outs0, refs0):
            rep.compare(f"{m}x{n} {label}", out, ref[:, :n])
        for label, out, ref in zip(("sum1", "max1", "min1"), outs1, refs1):
            rep.compare(f"{m}x{n} {label}", out, ref[:m, :])


def check_rank3(kernel: driver.Kernel, rep: Report) -> None:
    torch = _torch()
    for a, b, c in ((10, 13, 37), (4, 8, 16), (1, 1, 1)):
        tb = cdiv(b, 8)
        x = rand((a, b, c))
        y = Output.new((a, b, c))
        r = Output.new((tb, a, c))
        run(kernel, (cdiv(a, 4), tb, cdiv(c, 16)), [x, y.view, r.view, a, b, c])
        rep.compare(f"{a}x{b}x{c} y", y, x.double() * 2 + 1)
        p = torch.zeros((a, tb * 8, c), dtype=torch.float64, device="cuda")
        p[:, :b, :] = x.double()
        rep.compare(f"{a}x{b}x{c} r", r, p.view(a, tb, 8, c).sum(2).permute(1, 0, 2))


def check_dot(kernel: driver.Kernel, rep: Report) -> None:
    torch = _torch()
    for m, n, k in ((100, 150, 16), (33, 65, 13), (32, 64, 16), (1, 1, 1)):
        a = rand((m, k), dtype=torch.float16)
        b = rand((k, n), dtype=torch.float16)
        c = Output.new((m, n))
        run(kernel, (cdiv(m, 32), cdiv(n, 64)), [a, b, c.view, m, n, k, k, n, n])
        # f16 products are exact in f32; only the f32 sums round.
        rep.compare(f"{m}x{n}x{k}", c, a.double() @ b.double(), tol=1e-4)


CASES: dict[str, Callable[[driver.Kernel, Report], None]] = {
    "vector_add": check_vector_add,
    "matrix_add_16x32": check_matrix_add_16x32,
    "matrix_add_24x40": check_matrix_add_24x40,
    "matmul_naive": check_matmul_naive,
    "softmax": check_softmax,
    "reduce_2d": check_reduce_2d,
    "rank3": check_rank3,
    "cumsum": check_cumsum,
    "dot": check_dot,
}


# ---------------------------------------------------------------------------
# Driver loop
# ---------------------------------------------------------------------------


def run_one(name: str, artifacts: Path) -> tuple[bool, str]:
    """Run one example in this process: (passed, details)."""
    cubin = artifacts / f"{name}.cubin"
    if not cubin.exists():
        return False, f"no artifact {cubin} (did it compile?)"
    torch = _torch()
    torch.manual_seed(0)
    module = driver.load_module(cubin)
    names = module.kernel_names
    kernel = module.kernel(names[0] if len(names) == 1 else name)
    rep = Report()
    CASES[name](kernel, rep)
    return not rep.failed, "; ".join(rep.notes)


def run_isolated(name: str, args: argparse.Namespace) -> tuple[bool, str]:
    """Run one example in a fresh process (a CUDA error can poison a context)."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", name,
           "--artifacts", str(args.artifacts)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    for line in reversed(proc.stdout.splitlines()):
        for word, ok in (("PASS ", True), ("FAIL ", False)):
            if line.startswith(word + name + " "):
                details = line[len(word + name):].strip()
                if details.startswith("(") and details.endswith(")"):
                    details = details[1:-1]
                return ok, details
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
    return False, f"child exited {proc.returncode}: " + " | ".join(tail)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="examples to run (default: all)")
    parser.add_argument("--artifacts", type=Path, default=HERE / "artifacts")
    parser.add_argument("--isolate", action="store_true",
                        help="run each example in its own process")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child:
        try:
            ok, details = run_one(args.child, args.artifacts)
        except Exception as exc:  # noqa: BLE001  (reported as a failure)
            ok, details = False, f"{type(exc).__name__}: {exc}"
        print(f"{'PASS' if ok else 'FAIL'} {args.child} ({details})", flush=True)
        return 0 if ok else 1

    unknown = [n for n in args.names if n not in CASES]
    extra = sorted(p.stem for p in args.artifacts.glob("*.cubin") if p.stem not in CASES)
    names = args.names or list(CASES)
    for stem in extra:
        print(f"SKIP {stem} (artifact without a test case in run_examples.py)")
    passed = failed = 0
    isolate = args.isolate
    for name in unknown:
        print(f"FAIL {name} (no such example; known: {', '.join(CASES)})")
        failed += 1
    for name in [n for n in names if n in CASES]:
        if isolate:
            ok, details = run_isolated(name, args)
        else:
            try:
                ok, details = run_one(name, args.artifacts)
            except driver.CudaError as exc:
                ok, details = False, f"{exc} (later examples run in fresh processes)"
                isolate = True
            except Exception as exc:  # noqa: BLE001  (reported as a failure)
                last = traceback.extract_tb(exc.__traceback__)[-1]
                ok, details = False, (f"{type(exc).__name__}: {exc} "
                                      f"[{Path(last.filename).name}:{last.lineno}]")
        print(f"{'PASS' if ok else 'FAIL'} {name} ({details})", flush=True)
        passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
