"""The differential check of generated kernels (kernelgen.py --differential):
each valid kernel runs in the interpreter and compiled on a GPU, on the same
seeded inputs, and every output buffer is compared as the generator's
analysis says it can be (`Case.outputs`: EXACT bit for bit, APPROX within a
tolerance, WILD not at all; see docs/reliability.md).

Undefined behaviour is not compared: while the interpreter runs the kernel,
`watch_undefined()` records every integer division or remainder by zero (or
of the minimum by -1), every float-to-integer conversion of a value out of
the integer's range or NaN (LLVM's fptosi/fptoui give poison), and every
bitcast of a NaN to an integer (NaN payloads differ). A kernel with any such
event, on any lane, is counted and not compared.

Needs NumPy; the compiled half needs torch with a CUDA GPU.
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any, Iterator

import numpy as np

from kernelgen import EXACT, WILD

# Unwritten elements keep these on both sides (NaN would hide among NaNs).
POISON_FLOAT = -7777.0
POISON_INT = -0x5A5A5A5A
GRID = (1,)  # every program stores to the same addresses: one program


def tolerance(eps: float) -> float:
    """The relative L2 error allowed for APPROX values whose narrowest float
    type has unit roundoff `eps` (the conformance suite's: 1e-5 for one f32
    operation, 1e-2 for f16; chains of approximate operations need more)."""
    return 1e-4 if eps <= 2.0**-24 else 1e-2 if eps <= 2.0**-11 else 5e-2


def cuda_unavailable() -> str | None:
    """Why compiled kernels cannot be launched here, or None when they can
    (test/gpu/conftest.py's rule)."""
    try:
        import torch
    except Exception as exc:  # ImportError, or a broken install
        return f"torch is not importable ({exc.__class__.__name__}: {exc})"
    try:
        if not torch.cuda.is_available():
            return "torch.cuda.is_available() is False (no CUDA GPU or driver)"
    except Exception as exc:
        return f"torch.cuda.is_available() failed ({exc})"
    return None


# -- inputs -------------------------------------------------------------------

@dataclass
class Inputs:
    arrays: dict[str, np.ndarray]  # x, h, i (read), out, iout (written; poisoned)
    n: int
    m: int

    def fresh(self) -> dict[str, np.ndarray]:
        return {name: array.copy() for name, array in self.arrays.items()}


def _floats(rng: np.random.Generator, size: int) -> np.ndarray:
    """Magnitudes in [1, 8) in steps of 1/8 (exact in f16; truncated to an
    integer they are not 0), one in 20 in [100, 3000); random signs."""
    magnitude = np.round(rng.uniform(1.0, 8.0, size) * 8) / 8
    large = rng.random(size) < 0.05
    magnitude[large] = np.round(rng.uniform(100.0, 3000.0, int(large.sum())))
    return magnitude * rng.choice([-1.0, 1.0], size)


def make_inputs(seed: int, extents: dict[str, int]) -> Inputs:
    """The arguments of the kernel of `seed` (its M and N in `extents`), from
    `seed`: no zeros in the data (masked-off lanes still read 0 or 1), so
    that divisors derived from it are rarely 0; `n` (the loads' bound and a
    loop bound) at most 64 so nested loops stay short in the interpreter."""
    rng = np.random.default_rng(seed)
    M, N = extents["M"], extents["N"]
    ints = rng.integers(1, 10, M) * rng.choice([-1, 1], M)
    wide = rng.random(M) < 0.2
    ints[wide] = rng.integers(-2**31, 2**31, int(wide.sum()))
    ints[ints == 0] = 1
    limit = min(M * N, 64)
    n = limit if rng.random() < 0.5 else int(rng.integers(-1, limit + 1))
    arrays = {
        "x": _floats(rng, M * N).astype(np.float32),
        "h": _floats(rng, N).astype(np.float16),
        "i": ints.astype(np.int32),
        "out": np.full(M * N, POISON_FLOAT, np.float32),
        "iout": np.full(M, POISON_INT, np.int64),
    }
    return Inputs(arrays, n, int(rng.integers(0, M + 2)))


# -- undefined behaviour, seen by the interpreter ------------------------------

@contextlib.contextmanager
def watch_undefined() -> Iterator[list[str]]:
    """Records (in the list it yields) the operations with undefined results
    that interpreted kernels perform, by wrapping the interpreter's integer
    division and remainder, float-to-integer conversion and bitcast."""
    from tile.interpreter import language as L
    from tile.interpreter import ops as O
    from tile.interpreter.values import Tensor
    from tile.language import semantic as S

    events: list[str] = []

    def note(event: str) -> None:
        if event not in events:
            events.append(event)

    def check_division(ty: Any, a: np.ndarray, b: np.ndarray, op: str) -> None:
        if np.any(b == 0):
            note(f"integer {op} by zero")
        if not ty.is_int_unsigned() and not ty.is_bool():
            lo, _ = S.int_range(ty)
            if np.any((a == lo) & (b == -1)):
                note(f"integer {op} of {lo} by -1")

    division, float_to_int, bitcast = O._int_division, O._float_to_int, L._bitcast
    mod, rmod = Tensor.__mod__, Tensor.__rmod__

    def int_division(ty: Any) -> Any:
        divide = division(ty)

        def checked(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            check_division(ty, a, b, "division")
            return divide(a, b)
        return checked

    def checked_mod(x: Any, y: Any) -> Any:
        a, b = O.operands(x, y)
        ty = S.computation_type(a.dtype, b.dtype, True)
        if ty.is_int():
            a, b = O.promote(a, b, ty)
            check_division(ty, a.data, b.data, "remainder")
        return mod(x, y) if isinstance(x, Tensor) else rmod(y, x)

    def checked_float_to_int(data: np.ndarray, to: Any) -> np.ndarray:
        lo, hi = S.int_range(to)
        wide = np.trunc(data.astype(np.float64))
        if np.any(np.isnan(wide) | (wide < lo) | (wide >= float(hi) + 1.0)):
            note(f"float -> {to} conversion out of range or of NaN")
        return float_to_int(data, to)

    def checked_bitcast(x: Any, to: Any) -> Any:
        if x.dtype.is_floating() and np.any(np.isnan(x.data.astype(np.float32))):
            note("bitcast of a NaN to an integer (NaN bits differ)")
        return bitcast(x, to)

    O._int_division, O._float_to_int, L._bitcast = (int_division, checked_float_to_int,
                                                     checked_bitcast)
    Tensor.__mod__ = lambda self, other: checked_mod(self, other)
    Tensor.__rmod__ = lambda self, other: checked_mod(other, self)
    try:
        yield events
    finally:
        O._int_division, O._float_to_int, L._bitcast = division, float_to_int, bitcast
        Tensor.__mod__, Tensor.__rmod__ = mod, rmod


# -- the two runs ---------------------------------------------------------------

OUTPUTS = ("out", "iout")


def _arguments(arrays: dict[str, Any], inputs: Inputs) -> tuple[Any, ...]:
    return (arrays["x"], arrays["h"], arrays["i"], arrays["out"], arrays["iout"], inputs.n,
            inputs.m)


def interpret(kernel: Any, extents: dict[str, int], num_warps: int,
              inputs: Inputs) -> tuple[dict[str, np.ndarray], list[str]]:
    """The outputs of the kernel run by the interpreter, and the undefined
    behaviour it saw."""
    from tile import interpreter

    arrays = inputs.fresh()
    with watch_undefined() as events:
        interpreter.launch(kernel, GRID, *_arguments(arrays, inputs), num_warps=num_warps,
                           **extents)
    return {name: arrays[name] for name in OUTPUTS}, events


def run_compiled(kernel: Any, extents: dict[str, int], num_warps: int,
                 inputs: Inputs) -> dict[str, np.ndarray]:
    """The outputs of the kernel compiled and launched on the GPU."""
    import torch
    from tile import interpreter

    if interpreter.enabled(kernel):
        raise RuntimeError("TILE_INTERPRET is set: unset it, or launches are interpreted")
    arrays = {name: torch.from_numpy(a).cuda() for name, a in inputs.fresh().items()}
    kernel[GRID](*_arguments(arrays, inputs), num_warps=num_warps, **extents)
    torch.cuda.synchronize()
    return {name: arrays[name].cpu().numpy() for name in OUTPUTS}


# -- the comparison ---------------------------------------------------------------

def _first(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def compare_one(name: str, cls: int, eps: float, want: np.ndarray,
                got: np.ndarray) -> str | None:
    """None when `got` (compiled) matches `want` (interpreted) as `cls` asks,
    else what differs."""
    if cls == WILD:
        return None
    where = f"output {name!r}"
    if not np.issubdtype(want.dtype, np.floating):
        bad = want != got
        if bad.any():
            i = _first(bad)
            return (f"{where}: {int(bad.sum())} of {bad.size} elements differ; first at {i}: "
                    f"interpreted {want[i]}, compiled {got[i]} (unwritten: {POISON_INT})")
        return None
    w, g = want.astype(np.float64), got.astype(np.float64)
    wnan, gnan = np.isnan(w), np.isnan(g)
    if (wnan != gnan).any():
        i = _first(wnan != gnan)
        return (f"{where}: NaN at different places ({int((wnan != gnan).sum())} elements); "
                f"first at {i}: interpreted {w[i]!r}, compiled {g[i]!r}")
    w, g = w[~wnan], g[~wnan]
    if cls == EXACT:
        bad = w != g
        if bad.any():
            i = _first(bad)
            return (f"{where}: {int(bad.sum())} of {bad.size} elements differ (compared "
                    f"exactly); e.g. interpreted {w[i]!r}, compiled {g[i]!r} (unwritten: "
                    f"{POISON_FLOAT})")
        return None
    winf = np.isinf(w) | np.isinf(g)
    if (w[winf] != g[winf]).any():
        i = _first(winf & (w != g))
        return f"{where}: infinities differ: interpreted {w[i]!r}, compiled {g[i]!r}"
    w, g = w[~winf], g[~winf]
    norm = float(np.linalg.norm(w))
    error = float(np.linalg.norm(g - w))
    rel = error / norm if norm > 0 else error
    tol = tolerance(eps)
    if rel >= tol:
        i = int(np.argmax(np.abs(g - w)))
        return (f"{where}: relative error {rel:.3e} >= {tol:g} (approximate values); "
                f"largest at {i} of the finite ones: interpreted {w[i]!r}, compiled {g[i]!r}")
    return None


def compare(outputs: dict[str, tuple[int, float]], interpreted: dict[str, np.ndarray],
            compiled: dict[str, np.ndarray]) -> list[str]:
    """The differences between the two runs' outputs, each a sentence."""
    found = []
    for name, (cls, eps) in outputs.items():
        difference = compare_one(name, cls, eps, interpreted[name], compiled[name])
        if difference is not None:
            found.append(difference)
    return found
