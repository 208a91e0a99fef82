"""The GPU conformance suite as data (issue 5).

A `Case` is (kernel, grid, argument specs, constexprs, num_warps, reference,
tolerance). `build(case, backend)` makes its arguments either

* `backend="torch"`: torch tensors on the generator's device (`device()`: CUDA,
  or the CPU when the interpreter runs the suite) with fresh random data; outputs are
  poisoned (NaN for floats, a sentinel for integers) and surrounded by guard
  bands that must survive the launch; or
* `backend="fake"`: `FakeArray`s with the same dtype, shape, strides and
  pointer alignment (what specialization looks at), so that `compile_only`
  compiles exactly the kernels the GPU run launches, on a machine without a
  GPU (test/python/test_conformance_compiles.py).

Nothing here imports torch: the reference and init functions receive it as an
argument.
"""
from __future__ import annotations

import importlib.util
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import tile
import tile.interpreter
import tile.language as tl

import conformance_kernels as K
import philox_reference

REPO = Path(__file__).resolve().parents[2]

# Guard band before and after every array, in bytes: a multiple of 16, so the
# pointer alignment seen by specialization is the same as in fake mode.
GUARD_BYTES = 256
FAKE_BASE = 1 << 32
INT_POISON = -0x5A5A5A5A

ITEMSIZE = {"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8, "int8": 1,
            "int16": 2, "int32": 4, "int64": 8, "uint8": 1, "bool": 1}


def device(torch: Any) -> str:
    """Where the arrays live: CUDA, or the CPU when kernels are interpreted
    (TILE_INTERPRET=1) and there is no GPU."""
    if tile.interpreter.enabled() and not torch.cuda.is_available():
        return "cpu"
    return "cuda"


def shrink(gpu: Any, cpu: Any) -> Any:
    """A size for the GPU, and a smaller one of the same kind (the same remainders
    against the tiles) for the interpreter on the CPU, which runs one program at
    a time: used where the GPU size would take the interpreter minutes."""
    return cpu if tile.interpreter.enabled() else gpu


def is_float(dtype: str) -> bool:
    return dtype.startswith(("float", "bfloat"))


# ----------------------------------------------------------------------------
# Specs
# ----------------------------------------------------------------------------

Init = Callable[[Any, Any, tuple], Any]  # (torch, generator, shape) -> tensor on g.device


@dataclass
class Arr:
    """An array argument. `init` fills an input (None: an output, poisoned);
    `order` "C" (row-major) or "F" (column-major: a transposed view through its
    strides); `offset` in elements from the (16-byte aligned) allocation start.
    `updated`: an input the kernel changes in place (the target of atomics),
    checked like an output against the reference's final values."""
    shape: tuple
    dtype: str = "float32"
    init: Init | None = None
    order: str = "C"
    offset: int = 0
    updated: bool = False

    @property
    def is_output(self) -> bool:
        return self.init is None

    def strides(self) -> tuple:
        dims = list(self.shape)
        strides, step = [0] * len(dims), 1
        order = range(len(dims) - 1, -1, -1) if self.order == "C" else range(len(dims))
        for axis in order:
            strides[axis] = step
            step *= dims[axis]
        return tuple(strides)

    def numel(self) -> int:
        return math.prod(self.shape)


def out(shape: Any, dtype: str = "float32", **kw: Any) -> Arr:
    return Arr(tuple(shape) if isinstance(shape, (tuple, list)) else (shape,), dtype, None, **kw)


def inp(shape: Any, dtype: str = "float32", init: Init | None = None, **kw: Any) -> Arr:
    return Arr(tuple(shape) if isinstance(shape, (tuple, list)) else (shape,), dtype,
               init or randn(), **kw)


def updated(shape: Any, dtype: str, init: Init) -> Arr:
    """An input the kernel updates in place (see Arr.updated)."""
    return inp(shape, dtype, init, updated=True)


# Initializers (run only with torch).

def randn(scale: float = 1.0) -> Init:
    return lambda torch, g, shape: torch.randn(shape, generator=g, device=g.device,
                                               dtype=torch.float64) * scale


def uniform(lo: float, hi: float) -> Init:
    return lambda torch, g, shape: torch.rand(shape, generator=g, device=g.device,
                                              dtype=torch.float64) * (hi - lo) + lo


def randint(lo: int, hi: int, avoid_zero: bool = False) -> Init:
    def init(torch: Any, g: Any, shape: tuple) -> Any:
        x = torch.randint(lo, hi, shape, generator=g, device=g.device, dtype=torch.int64)
        if avoid_zero:
            x = torch.where(x == 0, torch.full_like(x, 7), x)
        return x
    return init


def with_specials(base: Init, specials: Sequence[float]) -> Init:
    """`base`, with the first elements replaced by `specials` and the specials
    also scattered at random positions."""
    def init(torch: Any, g: Any, shape: tuple) -> Any:
        x = base(torch, g, shape).reshape(-1)
        s = torch.tensor(list(specials), dtype=x.dtype, device=x.device)
        x[:len(s)] = s
        where = torch.randint(0, x.numel(), (x.numel() // 8,), generator=g, device=g.device)
        x[where] = s[torch.randint(0, len(s), (where.numel(),), generator=g,
                                   device=g.device)]
        return x.reshape(shape)
    return init


def pm_thousand(torch: Any, g: Any, shape: tuple) -> Any:
    """Rows of +-1000 values (plus a little noise)."""
    sign = torch.randint(0, 2, shape, generator=g, device=g.device).double() * 2 - 1
    return sign * 1000 + torch.randn(shape, generator=g, device=g.device, dtype=torch.float64)


@dataclass
class Stride:
    """A scalar argument: the stride of array argument `name` along `axis`."""
    name: str
    axis: int


@dataclass
class Case:
    id: str
    kernel: Any
    grid: Any
    args: Sequence[tuple[str, Any]]  # (name, Arr | Stride | int | float | bool)
    ref: Callable[[Mapping[str, Any], Any], Mapping[str, Any]]  # (args by name, torch)
    constexprs: Mapping[str, Any] = field(default_factory=dict)
    num_warps: int | None = None
    tol: float | None = 1e-5       # relative L2 error; None: bit-exact (NaNs at the same places)
    check_zero_sign: bool = False  # also compare the sign of zero results

    def launch_kwargs(self) -> dict[str, Any]:
        kw = dict(self.constexprs)
        if self.num_warps is not None:
            kw["num_warps"] = self.num_warps
        return kw


# ----------------------------------------------------------------------------
# Building arguments
# ----------------------------------------------------------------------------

class FakeDtype:
    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return f"torch.{self.name}"

    __repr__ = __str__


class FakeArray:
    """Looks like a CUDA torch tensor to `tile.runtime.launch`: `data_ptr()`
    (a 256-aligned fake address plus the view's byte offset) and `dtype`."""

    _next = FAKE_BASE

    def __init__(self, spec: Arr) -> None:
        self.shape = tuple(spec.shape)
        self.dtype = FakeDtype(spec.dtype)
        self._strides = spec.strides()
        size = (spec.numel() + spec.offset) * ITEMSIZE[spec.dtype] + 2 * GUARD_BYTES
        base = FakeArray._next
        FakeArray._next += (size + 255) // 256 * 256 + 256
        self._ptr = base + GUARD_BYTES + spec.offset * ITEMSIZE[spec.dtype]

    def data_ptr(self) -> int:
        return self._ptr

    def stride(self, axis: int | None = None) -> Any:
        return self._strides if axis is None else self._strides[axis]

    def numel(self) -> int:
        return math.prod(self.shape)

    def element_size(self) -> int:
        return ITEMSIZE[self.dtype.name]

    def __repr__(self) -> str:
        return f"FakeArray({self.shape}, {self.dtype}, ptr={self._ptr:#x})"


@dataclass
class Built:
    args: list                      # positional kernel arguments
    named: dict                     # name -> array / scalar
    bases: dict = field(default_factory=dict)  # output name -> (flat allocation, start, end)


def _poison(torch: Any, dtype: Any) -> Any:
    """NaN, or INT_POISON's low bits as a value of the (maybe narrow) type."""
    if dtype.is_floating_point:
        return float("nan")
    if dtype == torch.bool:
        return True
    info = torch.iinfo(dtype)
    value = INT_POISON & ((1 << info.bits) - 1)
    return value - (1 << info.bits) if info.min < 0 and value > info.max else value


def build(case: Case, backend: str, torch: Any = None, generator: Any = None) -> Built:
    named: dict[str, Any] = {}
    bases: dict[str, Any] = {}
    for name, spec in case.args:
        if not isinstance(spec, Arr):
            continue
        if backend == "fake":
            named[name] = FakeArray(spec)
            continue
        dtype = getattr(torch, spec.dtype)
        guard = GUARD_BYTES // ITEMSIZE[spec.dtype]
        start = guard + spec.offset
        end = start + spec.numel()
        flat = torch.empty(end + guard, dtype=dtype, device=generator.device)
        flat.fill_(_poison(torch, dtype))
        view = flat.as_strided(spec.shape, spec.strides(), start)
        if spec.is_output or spec.updated:
            bases[name] = (flat, start, end)
        if not spec.is_output:
            view.copy_(spec.init(torch, generator, tuple(spec.shape)).to(dtype))
        named[name] = view
    args = []
    for name, spec in case.args:
        if isinstance(spec, Stride):
            named[name] = named[spec.name].stride(spec.axis)
        elif not isinstance(spec, Arr):
            named[name] = spec
        args.append(named[name])
    return Built(args, named, bases)


def launch(case: Case, built: Built) -> None:
    case.kernel[case.grid](*built.args, **case.launch_kwargs())


def compile_only(case: Case, built: Built) -> Any:
    """Compiles what `launch` would launch, for a target (no GPU needed): the
    artifact, or a list of them for an autotuned kernel (one per config)."""
    return case.kernel.warmup(*built.args, **case.launch_kwargs(), target="sm_90a")


# ----------------------------------------------------------------------------
# The cases
# ----------------------------------------------------------------------------

def _example(relative: str, name: str) -> Any:
    path = REPO / "examples" / "python" / relative
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


T01 = _example("tutorials/01_vector_add.py", "conformance_tutorial_01")
T02 = _example("tutorials/02_fused_softmax.py", "conformance_tutorial_02")
T03 = _example("tutorials/03_matmul.py", "conformance_tutorial_03")
T05 = _example("tutorials/05_layer_norm.py", "conformance_tutorial_05")

cdiv = tile.cdiv
CASES: list[Case] = []


def case(*a: Any, **kw: Any) -> None:
    CASES.append(Case(*a, **kw))


def _d(t: Any) -> Any:
    return t.double()


# -- elementwise ---------------------------------------------------------------

for n, dt, block in [(98_432, "float32", 1024), (1_000_003, "float32", 1024), (1, "float32", 128),
                     (4097, "float16", 512), (4097, "bfloat16", 256)]:
    case(f"vec_add-{dt}-n{n}-B{block}", K.vec_add, (cdiv(n, block),),
         [("x", inp(n, dt)), ("y", inp(n, dt)), ("out", out(n, dt)), ("n", n)],
         lambda A, torch: {"out": A["x"] + A["y"]},  # torch rounds the f32 sum, as f16 add does
         {"BLOCK": block}, tol=1e-5 if dt == "float32" else None)

for n, dt, offset in [(100_000, "float32", 0), (1001, "float16", 0), (777, "int32", 0),
                      (1000, "float32", 1), (513, "int64", 3)]:
    init = randint(-2**30, 2**30) if dt.startswith("int") else randn()
    case(f"copy-{dt}-n{n}-off{offset}", K.copy, (cdiv(n, 256),),
         [("src", inp(n, dt, init, offset=offset)), ("dst", out(n, dt)), ("n", n)],
         lambda A, torch: {"dst": A["src"].clone()}, {"BLOCK": 256}, tol=None)

_RELU_SPECIALS = [float("nan"), 0.0, -0.0, float("inf"), -float("inf"), 1e-30, -1e-30]


def _relu(x: Any, torch: Any) -> Any:
    """The kernel's tl.maximum(x, 0.0) as Triton computes it (PTX max.f32):
    +0.0 for -0.0, and 0.0 for NaN (the default PropagateNan.NONE returns the
    number; torch.relu would keep the NaN)."""
    return torch.where(x > 0, x, torch.zeros_like(x))



for dt in ("float32", "float16"):
    case(f"relu-{dt}", K.relu, (cdiv(4099, 512),),
         [("x", inp(4099, dt, with_specials(randn(), _RELU_SPECIALS))), ("out", out(4099, dt)),
          ("n", 4099)],
         lambda A, torch: {"out": _relu(A["x"], torch)}, {"BLOCK": 512}, tol=None)
# The same kernel (same specialization) on zeros only: the sign of zero as torch.relu on CUDA.
case("relu-zero_sign", K.relu, (cdiv(4099, 512),),
     [("x", inp(4099, "float32", with_specials(lambda torch, g, s: torch.zeros(
         s, device=g.device, dtype=torch.float64), [0.0, -0.0, float("nan")]))),
      ("out", out(4099)), ("n", 4099)],
     lambda A, torch: {"out": _relu(A["x"], torch)}, {"BLOCK": 512}, tol=None,
     check_zero_sign=True)

for alpha in (0.1, -2.5):
    case(f"leaky_relu-alpha{alpha}", K.leaky_relu, (cdiv(10_001, 1024),),
         [("x", inp(10_001)), ("out", out(10_001)), ("n", 10_001), ("alpha", alpha)],
         lambda A, torch: {"out": torch.where(_d(A["x"]) >= 0, _d(A["x"]),
                                              A["alpha"] * _d(A["x"]))},
         {"BLOCK": 1024})

for kernel in (K.sigmoid, K.sigmoid_explicit):
    case(f"{kernel.__name__}", kernel, (cdiv(10_000, 1024),),
         [("x", inp(10_000, init=with_specials(randn(4.0), [100.0, -100.0, 0.0, 20.0, -20.0]))),
          ("out", out(10_000)), ("n", 10_000)],
         lambda A, torch: {"out": torch.sigmoid(_d(A["x"]))}, {"BLOCK": 1024})

_F16_SPECIALS = [65504.0, 65519.0, 65520.0, -70000.0, 1e-8, -3e-5, 6.1e-5, 0.1, 1.0 / 3,
                 float("inf"), -float("inf"), -0.0]
for src, dst, tdt in [("float32", "float16", tl.float16), ("float16", "float32", tl.float32),
                      ("float32", "bfloat16", tl.bfloat16), ("bfloat16", "float32", tl.float32),
                      ("float16", "bfloat16", tl.bfloat16)]:
    init = with_specials(randn(100.0), _F16_SPECIALS) if src == "float32" else randn(100.0)
    case(f"cast-{src}-to-{dst}", K.cast, (cdiv(5000, 1024),),
         [("src", inp(5000, src, init)), ("dst", out(5000, dst)), ("n", 5000)],
         lambda A, torch, d=dst: {"dst": A["src"].to(getattr(torch, d))},
         {"DTYPE": tdt, "BLOCK": 1024}, tol=None)


def _int_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    a, b, s = A["a"], A["b"], A["s"]
    return {"div": torch.div(a, b, rounding_mode="trunc"), "mod": torch.fmod(a, b),
            "and_": a & b, "or_": a | b, "xor": a ^ b, "shl": a << s, "shr": a >> s,
            "min": torch.minimum(a, b), "max": torch.maximum(a, b)}


for dt in ("int32", "int64"):
    n = 10_007
    case(f"int_ops-{dt}", K.int_ops, (cdiv(n, 1024),),
         [("a", inp(n, dt, randint(-1000, 1001))), ("b", inp(n, dt, randint(-50, 51, True))),
          ("s", inp(n, dt, randint(0, 21)))]
         + [(o, out(n, dt)) for o in ("div", "mod", "and_", "or_", "xor", "shl", "shr",
                                      "min", "max")] + [("n", n)],
         _int_ref, {"BLOCK": 1024}, tol=None)


def _nan_rows(torch: Any, g: Any, shape: tuple) -> Any:
    """Normal values with NaNs: row 0 all NaN, row 1 one NaN, row 2 all but
    one, the rest about one in eight; infinities and signed zeros too."""
    x = with_specials(randn(), [float("inf"), -float("inf"), 0.0, -0.0])(torch, g, shape)
    x[torch.rand(shape, generator=g, device=g.device) < 0.125] = float("nan")
    x[0] = float("nan")
    x[1] = torch.randn(shape[1], generator=g, device=g.device, dtype=x.dtype)
    x[1, 3] = float("nan")
    x[2] = float("nan")
    x[2, 5] = 1.5
    return x


def _nan_ignoring_extreme(x: Any, torch: Any, which: str) -> tuple[Any, Any]:
    """Row max (min) ignoring NaN (NaN where the whole row is) and the first
    index reaching it (0 for a row of NaNs)."""
    nan = torch.isnan(x)
    fill = -float("inf") if which == "max" else float("inf")
    v = torch.where(nan, torch.full_like(x, fill), x)
    ext = v.amax(1) if which == "max" else v.amin(1)
    all_nan = nan.all(1)
    hit = ((v == ext[:, None]) & ~nan) | all_nan[:, None]
    first = hit.int().argmax(1)  # the first 1 in each row
    return torch.where(all_nan, torch.full_like(ext, float("nan")), ext), first.to(torch.int32)


def _nan_min_max_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    x, y = A["x"], A["y"]
    rmax, amax = _nan_ignoring_extreme(x, torch, "max")
    rmin, amin = _nan_ignoring_extreme(x, torch, "min")
    lo, hi = torch.full_like(x, -0.5), torch.full_like(x, 0.5)
    return {"mx": torch.fmax(x, y), "mn": torch.fmin(x, y),
            "mxa": torch.maximum(x, y), "mna": torch.minimum(x, y),
            "cl": torch.fmin(torch.fmax(x, lo), hi),
            "cla": torch.minimum(torch.maximum(x, lo), hi),
            "rmax": rmax, "rmin": rmin, "amax": amax, "amin": amin,
            "best": rmax[~torch.isnan(rmax)].max().reshape(1)}


for dt in ("float32", "float16"):
    m, n = 16, 64
    case(f"nan_min_max-{dt}-{m}x{n}", K.nan_min_max, (1,),
         [("x", inp((m, n), dt, _nan_rows)), ("y", inp((m, n), dt, _nan_rows))]
         + [(o, out((m, n), dt)) for o in ("mx", "mn", "mxa", "mna", "cl", "cla")]
         + [("rmax", out(m, dt)), ("rmin", out(m, dt)), ("amax", out(m, "int32")),
            ("amin", out(m, "int32")), ("best", out(1, dt))],
         _nan_min_max_ref, {"M": m, "N": n}, tol=None)

# -- 2-D tiles -----------------------------------------------------------------

for (m, n) in [shrink((1000, 1001), (232, 201)), (37, 5)]:
    for (tm, tn) in [(16, 32), (1, 8), (4, 1), (24, 40)]:
        case(f"matrix_add-{m}x{n}-tile{tm}x{tn}", K.matrix_add, (cdiv(m, tm), cdiv(n, tn)),
             [("a", inp((m, n))), ("b", inp((m, n))), ("c", out((m, n))), ("M", m), ("N", n),
              ("stride_m", Stride("a", 0))],
             lambda A, torch: {"c": _d(A["a"]) + _d(A["b"])}, {"TILE_M": tm, "TILE_N": tn})

# Rows padded to an odd stride (1025) with a 16-divisible width: the masks
# are constant over 16 columns but a row may start anywhere, so accesses must
# stay scalar (128-bit ones were emitted and would fault on the GPU).
_PAD_M, _PAD_N = 100, 1024


def _padded_add_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    c = _d(A["a"]) + _d(A["b"])
    c[:, _PAD_N:] = float("nan")  # the padding is never written
    return {"c": c}


case("matrix_add-padded_rows", K.matrix_add, (cdiv(_PAD_M, 16), cdiv(_PAD_N, 32)),
     [("a", inp((_PAD_M, _PAD_N + 1))), ("b", inp((_PAD_M, _PAD_N + 1))),
      ("c", out((_PAD_M, _PAD_N + 1))), ("M", _PAD_M), ("N", _PAD_N),
      ("stride_m", Stride("a", 0))],
     _padded_add_ref, {"TILE_M": 16, "TILE_N": 32})

_REDUCE = {"sum": lambda x, d: x.sum(d), "max": lambda x, d: x.amax(d),
           "min": lambda x, d: x.amin(d)}
for (rows, cols, block) in [(123, 781, 1024), (64, 16, 16)]:
    for op in ("sum", "max", "min"):
        case(f"row_{op}-{rows}x{cols}", K.row_reduce, (rows,),
             [("x", inp((rows, cols))), ("out", out(rows)), ("n_cols", cols),
              ("stride", Stride("x", 0))],
             lambda A, torch, op=op: {"out": _REDUCE[op](_d(A["x"]), 1)},
             {"OP": op, "BLOCK": block})

for (m, n) in [(13, 29), (16, 32)]:
    for op in ("sum", "max", "min"):
        for axis in (0, 1):
            case(f"tile_{op}-axis{axis}-{m}x{n}", K.tile_reduce, (1,),
                 [("x", inp((m, n))), ("out", out(n if axis == 0 else m)), ("M", m), ("N", n),
                  ("stride", Stride("x", 0))],
                 lambda A, torch, op=op, axis=axis: {"out": _REDUCE[op](_d(A["x"]), axis)},
                 {"AXIS": axis, "OP": op, "BM": 16, "BN": 32})

for (rows, cols, block, init, tag) in [(97, 781, 1024, randn(3.0), "randn"),
                                       (64, 96, 128, randn(), "randn"),
                                       (50, 300, 512, pm_thousand, "pm1000")]:
    case(f"softmax-{tag}-{rows}x{cols}", K.softmax, (rows,),
         [("out", out((rows, cols))), ("x", inp((rows, cols), init=init)), ("n_cols", cols),
          ("in_stride", Stride("x", 0)), ("out_stride", Stride("out", 0))],
         lambda A, torch: {"out": torch.softmax(_d(A["x"]), dim=1)}, {"BLOCK": block})

case("cumsum-rows-f32", K.cumsum_rows, (50,),
     [("x", inp((50, 300))), ("out", out((50, 300))), ("n_cols", 300), ("stride", 300)],
     lambda A, torch: {"out": torch.cumsum(_d(A["x"]), dim=1)}, {"BLOCK": 512})
case("cumsum-rows-i32", K.cumsum_rows, (20,),
     [("x", inp((20, 100), "int32", randint(-100, 101))), ("out", out((20, 100), "int32")),
      ("n_cols", 100), ("stride", 100)],
     lambda A, torch: {"out": torch.cumsum(A["x"], dim=1).to(torch.int32)}, {"BLOCK": 128},
     tol=None)
for axis in (0, 1):
    case(f"cumsum-2d-axis{axis}", K.cumsum_2d, (1,),
         [("x", inp((13, 29))), ("out", out((13, 29))), ("M", 13), ("N", 29), ("stride", 29)],
         lambda A, torch, axis=axis: {"out": torch.cumsum(_d(A["x"]), dim=axis)},
         {"AXIS": axis, "BM": 16, "BN": 32})

for (d0, d1, d2, programs) in [(2, 4, 8, 1), (4, 8, 16, 5)]:
    case(f"rank3-{d0}x{d1}x{d2}-p{programs}", K.rank3, (programs,),
         [("x", inp((programs, d0, d1, d2))), ("y", out((programs, d0, d1, d2))),
          ("s", out((programs, d0, d2))), ("scale", 1.5)],
         lambda A, torch: {"y": _d(A["x"]) * 1.5, "s": _d(A["x"]).sum(2)},
         {"D0": d0, "D1": d1, "D2": d2})

# -- matmul --------------------------------------------------------------------


def _mm_ref(c: str = "c") -> Callable[[Mapping[str, Any], Any], dict[str, Any]]:
    return lambda A, torch: {c: _d(A["a"]) @ _d(A["b"])}


_MM_STRIDES = [("stride_am", Stride("a", 0)), ("stride_ak", Stride("a", 1)),
               ("stride_bk", Stride("b", 0)), ("stride_bn", Stride("b", 1))]

for (m, n, k, a_order) in [(37, 45, 8, "C"), (64, 64, 8, "F")]:
    case(f"matmul_static_k-{m}x{n}x{k}-a{a_order}", K.matmul_static_k,
         (cdiv(m, 16), cdiv(n, 16)),
         [("a", inp((m, k), order=a_order)), ("b", inp((k, n))), ("c", out((m, n))),
          ("M", m), ("N", n), *_MM_STRIDES, ("stride_cm", Stride("c", 0))],
         _mm_ref(), {"K": k, "BLOCK_M": 16, "BLOCK_N": 16})

for (m, n, k, a_order, b_order) in [(37, 45, 67, "C", "C"), (100, 75, 53, "F", "F")]:
    case(f"matmul_loop_k-{m}x{n}x{k}-a{a_order}b{b_order}", K.matmul_loop_k,
         (cdiv(m, 32), cdiv(n, 32)),
         [("a", inp((m, k), order=a_order)), ("b", inp((k, n), order=b_order)),
          ("c", out((m, n))), ("M", m), ("N", n), ("K", k), *_MM_STRIDES,
          ("stride_cm", Stride("c", 0))],
         _mm_ref(), {"BLOCK_M": 32, "BLOCK_N": 32})

_DOT = [
    # (dtype, M, N, K, tiles, a order, b order, c order, warps)
    ("float16", 128, 128, 64, (64, 64, 32), "C", "C", "C", 4),
    ("float16", 100, 75, 53, (32, 32, 16), "C", "C", "C", 4),
    ("float16", 100, 75, 53, (32, 32, 16), "F", "F", "C", 4),
    ("float16", 256, 192, 96, (128, 128, 32), "C", "F", "C", 8),
    ("bfloat16", 100, 75, 53, (32, 32, 16), "C", "C", "C", 4),
    ("bfloat16", 64, 48, 40, (16, 16, 16), "F", "C", "F", 4),
    # f32 inputs read as tf32 (Triton's default) on mma.sync m16n8k8: both
    # operands staged K-major whatever their order.
    ("float32", 100, 75, 53, (32, 32, 16), "C", "C", "C", 4),
    ("float32", 100, 75, 53, (32, 32, 16), "F", "F", "F", 4),
    # wgmma on sm_90a (f16/bf16, M tiles of 64 rows per warpgroup): odd extents,
    # transposed operands, one and two warpgroups, N split between warps.
    ("float16", 129, 65, 33, (64, 64, 32), "C", "C", "C", 4),
    ("bfloat16", 129, 65, 33, (64, 32, 16), "F", "C", "C", 4),
    ("float16", 300, 260, 200, (128, 128, 64), "C", "C", "C", 8),
    ("bfloat16", 256, 256, 128, (128, 256, 64), "C", "F", "C", 8),
    ("float16", 64, 128, 64, (64, 128, 32), "F", "F", "F", 8),
    # mma.sync (m16n8k16) where wgmma does not take the tiles (fewer than 64
    # rows), as before Hopper: warps along N alone, over both dimensions,
    # and more warps than 16 x 8 tiles (repeated).
    ("float16", 77, 90, 70, (16, 32, 32), "C", "C", "C", 4),
    ("bfloat16", 100, 100, 100, (32, 64, 64), "F", "C", "C", 8),
    ("float16", 40, 40, 40, (16, 16, 16), "C", "F", "C", 8),
    # Tiles that are multiples of wgmma's steps but not powers of two: FMA.
    ("float16", 200, 100, 70, (192, 64, 32), "C", "C", "C", 4),
]
for (dt, m, n, k, (bm, bn, bk), ao, bo, co, warps) in _DOT:
    case(f"dot-{dt}-{m}x{n}x{k}-tile{bm}x{bn}x{bk}-a{ao}b{bo}c{co}-w{warps}", K.dot_matmul,
         (cdiv(m, bm), cdiv(n, bn)),
         [("a", inp((m, k), dt, order=ao)), ("b", inp((k, n), dt, order=bo)),
          ("c", out((m, n), order=co)), ("M", m), ("N", n), ("K", k), *_MM_STRIDES,
          ("stride_cm", Stride("c", 0)), ("stride_cn", Stride("c", 1))],
         _mm_ref(), {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk}, num_warps=warps,
         tol=5e-3 if dt == "float32" else 1e-2)

# f32 inputs on sm_90a wgmma are read as tf32 (Triton's default input_precision,
# about 1e-3 relative error): B N-major (staged K-major from registers), K-major
# (copied into rings), two warpgroups; "ieee" keeps the exact FMA dot.
for (m, n, k, (bm, bn, bk), ao, bo, warps, precision) in [
        (64, 64, 64, (64, 64, 32), "C", "C", 4, "tf32"),
        (256, 128, 200, (128, 128, 32), "C", "F", 4, "tf32"),
        (129, 65, 33, (128, 64, 32), "C", "F", 8, "tf32"),
        (64, 64, 64, (64, 64, 32), "C", "C", 4, "ieee"),
        (100, 75, 53, (32, 32, 16), "F", "F", 4, "ieee")]:
    case(f"dot-float32-{m}x{n}x{k}-tile{bm}x{bn}x{bk}-a{ao}b{bo}-w{warps}-{precision}",
         K.dot_matmul, (cdiv(m, bm), cdiv(n, bn)),
         [("a", inp((m, k), order=ao)), ("b", inp((k, n), order=bo)),
          ("c", out((m, n))), ("M", m), ("N", n), ("K", k), *_MM_STRIDES,
          ("stride_cm", Stride("c", 0)), ("stride_cn", Stride("c", 1))],
         _mm_ref(), {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk,
                     "INPUT_PRECISION": precision},
         num_warps=warps, tol=5e-3 if precision == "tf32" else 1e-5)


# K loops whose wgmma operands go through cp.async rings (tile-async-dot-operands):
# one iteration (the prologue's second copy masked off), more iterations than
# slots, two and four stages, masked K and M tails, a transposed operand (whose
# 2-byte runs are copied synchronously into the ring).
for (dt, m, n, k, (bm, bn, bk), ao, bo, warps, stages) in [
        ("float16", 96, 64, 16, (64, 64, 32), "C", "C", 4, 3),
        ("float16", 256, 128, 520, (128, 128, 64), "C", "C", 8, 4),
        ("bfloat16", 128, 192, 256, (64, 64, 64), "C", "C", 4, 2),
        ("float16", 130, 128, 200, (64, 128, 32), "C", "F", 4, 3)]:
    case(f"dot_ring-{dt}-{m}x{n}x{k}-tile{bm}x{bn}x{bk}-a{ao}b{bo}-w{warps}-s{stages}",
         K.dot_matmul, (cdiv(m, bm), cdiv(n, bn)),
         [("a", inp((m, k), dt, order=ao)), ("b", inp((k, n), dt, order=bo)),
          ("c", out((m, n))), ("M", m), ("N", n), ("K", k), *_MM_STRIDES,
          ("stride_cm", Stride("c", 0)), ("stride_cn", Stride("c", 1))],
         _mm_ref(), {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "num_stages": stages},
         num_warps=warps, tol=1e-2)


def _acc_epilogue_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    acc = _d(A["d"]) + _d(A["a"]) @ _d(A["b"])
    return {"c": torch.where(acc > 0, acc, acc * 0.01)}


for (dt, m, n, k, (bm, bn, bk), warps) in [("float16", 129, 65, 33, (64, 64, 32), 4),
                                           ("bfloat16", 200, 136, 96, (128, 64, 32), 8),
                                           ("float32", 70, 40, 24, (32, 32, 16), 4)]:
    case(f"dot_acc_epilogue-{dt}-{m}x{n}x{k}-tile{bm}x{bn}x{bk}-w{warps}", K.dot_acc_epilogue,
         (cdiv(m, bm), cdiv(n, bn)),
         [("a", inp((m, k), dt)), ("b", inp((k, n), dt)), ("d", inp((m, n))),
          ("c", out((m, n), "float16")), ("M", m), ("N", n), ("K", k)],
         _acc_epilogue_ref, {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk}, num_warps=warps,
         tol=1e-2)

def _attention_ref(causal: bool) -> Callable[[Mapping[str, Any], Any], dict[str, Any]]:
    def ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
        q, k, v = _d(A["q"]), _d(A["k"]), _d(A["v"])
        scores = q @ k.transpose(-1, -2) * q.shape[-1] ** -0.5
        if causal:
            n = q.shape[-2]
            future = torch.ones(n, n, dtype=torch.bool, device=scores.device).triu(1)
            scores = scores.masked_fill(future, float("-inf"))
        return {"out": torch.softmax(scores, -1) @ v}
    return ref


# Attention forward: two dots chained through registers, reductions of an MMA
# accumulator, masked sequence tails, causal masking.
for (dt, heads, n_ctx, d, bm, bn, causal, warps, stages) in [
        ("float16", 3, 200, 64, 64, 32, False, 4, 3),
        ("float16", 2, 200, 64, 64, 32, True, 4, 3),
        ("bfloat16", 2, 256, 128, 128, 64, False, 8, 3),
        ("float16", 2, 130, 64, 128, 64, True, 8, 2)]:
    case(f"attention_fwd-{dt}-h{heads}-n{n_ctx}-d{d}-tile{bm}x{bn}-"
         f"{'causal' if causal else 'full'}-w{warps}-s{stages}", K.attention_fwd,
         (cdiv(n_ctx, bm), heads),
         [("q", inp((heads, n_ctx, d), dt)), ("k", inp((heads, n_ctx, d), dt)),
          ("v", inp((heads, n_ctx, d), dt)), ("out", out((heads, n_ctx, d), dt)),
          ("sm_scale", d ** -0.5), ("N_CTX", n_ctx)],
         _attention_ref(causal),
         {"HEAD_DIM": d, "BLOCK_M": bm, "BLOCK_N": bn, "CAUSAL": causal,
          "num_stages": stages}, num_warps=warps, tol=2e-2)

# -- control flow on runtime values ----------------------------------------------


def _while_if_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    x, counts = _d(A["x"]), A["counts"].tolist()
    rows = []
    for c in counts:
        s = x[:c].sum(0) if c > 0 else torch.zeros_like(x[0])
        rows.append(s * 2 if c > 3 else -s)
    return {"out": torch.stack(rows)}


case("while_if", K.while_if, (20,),
     [("counts", inp(20, "int32", randint(0, 9))), ("x", inp((8, 300))), ("out", out((20, 300))),
      ("n", 300)],
     _while_if_ref, {"BLOCK": 512})


def _early_exit_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    ref = _d(A["x"]) * 3
    ref[A["limit"] * 256:] = float("nan")  # never written: stays poisoned
    return {"out": ref}


case("early_exit", K.early_exit, (cdiv(5000, 256),),
     [("x", inp(5000)), ("out", out(5000)), ("n", 5000), ("limit", 13)],
     _early_exit_ref, {"BLOCK": 256})

def _hinted_copy_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    dst = A["src"].clone()
    dst[:A["start"]] = float("nan")  # below start: never written
    return {"dst": dst}


case("hinted_copy", K.hinted_copy, (cdiv(10_000 - 40, 1024),),
     [("src", inp(10_000)), ("dst", out(10_000)), ("start", 40), ("n", 10_000)],
     _hinted_copy_ref, {"BLOCK": 1024}, tol=None)

# -- Triton's tutorials ------------------------------------------------------------

case("tutorial01-vector_add", T01.add_kernel, lambda meta: (cdiv(98_432, meta["BLOCK_SIZE"]),),
     [("x", inp(98_432)), ("y", inp(98_432)), ("output", out(98_432)), ("n", 98_432)],
     lambda A, torch: {"output": _d(A["x"]) + _d(A["y"])}, {"BLOCK_SIZE": 1024})

for (rows, cols, programs, warps) in [(1823, 781, 132, 8), (9, 100, 4, 4)]:
    case(f"tutorial02-softmax-{rows}x{cols}", T02.softmax_kernel, (programs,),
         [("y", out((rows, cols))), ("x", inp((rows, cols), init=randn(3.0))),
          ("in_stride", Stride("x", 0)), ("out_stride", Stride("y", 0)), ("n_rows", rows),
          ("n_cols", cols)],
         lambda A, torch: {"y": torch.softmax(_d(A["x"]), dim=1)},
         {"BLOCK_SIZE": tile.next_power_of_2(cols), "num_stages": 4}, num_warps=warps)


def _t03_ref(activation: str) -> Callable[[Mapping[str, Any], Any], dict[str, Any]]:
    def ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
        c = _d(A["a"]) @ _d(A["b"])
        if activation == "leaky_relu":
            c = torch.where(c >= 0, c, 0.01 * c)
        return {"c": c}
    return ref


# The autotuner times the four configs on the GPU; interpreted, it takes the first
# (128 x 256 x 64, GROUP_SIZE_M 8, 8 warps).
for (m, n, k, activation) in [(512, 512, 256, ""), (300, 500, 200, "leaky_relu")]:
    case(f"tutorial03-matmul-{m}x{n}x{k}-{activation or 'none'}", T03.matmul_kernel,
         lambda meta, m=m, n=n: (cdiv(m, meta["BLOCK_SIZE_M"]) * cdiv(n, meta["BLOCK_SIZE_N"]),),
         [("a", inp((m, k), "float16")), ("b", inp((k, n), "float16")),
          ("c", out((m, n), "float16")), ("M", m), ("N", n), ("K", k),
          ("stride_am", Stride("a", 0)), ("stride_ak", Stride("a", 1)),
          ("stride_bk", Stride("b", 0)), ("stride_bn", Stride("b", 1)),
          ("stride_cm", Stride("c", 0)), ("stride_cn", Stride("c", 1))],
         _t03_ref(activation), {"ACTIVATION": activation}, tol=1e-2)



def _t05_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    x, w, b = _d(A["X"]), _d(A["W"]), _d(A["B"])
    mean = x.mean(1)
    var = ((x - mean[:, None]) ** 2).mean(1)
    rstd = 1 / torch.sqrt(var + A["eps"])
    return {"Y": (x - mean[:, None]) * rstd[:, None] * w + b, "Mean": mean, "Rstd": rstd}


# Tutorial 05's host code: BLOCK_SIZE = next_power_of_2(N) up to 64 KB of
# halves, num_warps = min(max(BLOCK_SIZE // 256, 1), 8); also a BLOCK_SIZE
# below N (the loops run several times) and an N not divisible by 16.
for (m, n, block) in [(64, 1024, 1024), (16, 4096, 4096), (8, 8192, 4096), (33, 3000, 1024)]:
    case(f"tutorial05-layer_norm-{m}x{n}-B{block}", T05._layer_norm_fwd_fused, (m,),
         [("X", inp((m, n), "float16")), ("Y", out((m, n), "float16")),
          ("W", inp(n, "float16")), ("B", inp(n, "float16")), ("Mean", out(m)),
          ("Rstd", out(m)), ("stride", Stride("X", 0)), ("N", n), ("eps", 1e-5)],
         _t05_ref, {"BLOCK_SIZE": block}, num_warps=min(max(block // 256, 1), 8), tol=5e-3)

CASE_IDS = [c.id for c in CASES]
assert len(set(CASE_IDS)) == len(CASE_IDS), "case ids must be unique"

# -- early exits, casts, libdevice and cache hints (issue 14) --------------------


def _first_above_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    above = A["x"] > A["threshold"]
    first = torch.where(above.any(1), above.int().argmax(1),
                        torch.full_like(above[:, 0], -1, dtype=torch.int64))
    return {"out": first.to(torch.int32)}


case("find_first_above-break", K.find_first_above, (40,),
     [("x", inp((40, 300))), ("out", out(40, "int32")), ("n_cols", 300), ("threshold", 2.0)],
     _first_above_ref, tol=None)


def _skip_and_return_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    x = _d(A["x"])
    negative = x < 0
    first = torch.where(negative.any(1), negative.int().argmax(1),
                        torch.full_like(x[:, 0], x.shape[1], dtype=torch.int64))
    return {"sum": x.clamp(min=0).sum(1), "first": first.to(torch.int32)}


case("skip_and_return-continue-return", K.skip_and_return, (30,),
     [("x", inp((30, 50), init=uniform(-0.2, 3.0))), ("sum", out(30)),
      ("first", out(30, "int32")), ("n_cols", 50)],
     _skip_and_return_ref, tol=1e-6)


case("erf-libdevice", K.erf, (cdiv(5000, 512),),
     [("x", inp(5000, init=randn(2.0))), ("out", out(5000)), ("n", 5000)],
     lambda A, torch: {"out": torch.erf(_d(A["x"]))}, {"BLOCK": 512}, tol=1e-6)


def _precise_math_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    # Correctly rounded f32: computed in f64 and rounded once (f64 has more
    # than twice f32's precision, so that is exact), not by torch's CPU f32
    # sqrt (within 0.5001 ulp).
    x, y = A["x"], A["y"]
    return {"rint": torch.round(x * 4.0), "sqrt": torch.sqrt(_d(x).abs()).float(),
            "div": (_d(x) / _d(y)).float()}


case("precise_math-rint-sqrt_rn-div_rn", K.precise_math, (cdiv(5000, 512),),
     [("x", inp(5000, init=randn(3.0))), ("y", inp(5000, init=uniform(0.5, 4.0))),
      ("rint", out(5000)), ("sqrt", out(5000)), ("div", out(5000)), ("n", 5000)],
     _precise_math_ref, {"BLOCK": 512}, tol=None)


def _bits_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    x, a = A["x"], A["a"].to(torch.int64)
    h = x.half()
    bits = h.view(torch.int16).to(torch.int32)
    over = h.float().abs() > x.abs()  # rounded away from zero: step back
    stepped = (bits & 0x8000) | ((bits & 0x7FFF) - 1)
    rtz = torch.where(over, stepped, bits).to(torch.int16).view(torch.float16)
    # f32 arithmetic as the kernel's (|x| < 2 keeps it below 2^32).
    big = torch.trunc(x.abs() * 2.0**30 + 2.0**31).to(torch.int64)
    return {"bits": x.view(torch.int32), "hi": ((a * a) >> 32).to(torch.int32),
            "rtz": rtz, "big": big}


case("bits_and_casts-bitcast-umulhi-rtz-uint", K.bits_and_casts, (cdiv(3000, 256),),
     [("x", inp(3000, init=uniform(-1.9, 1.9))),
      ("a", inp(3000, "int32", randint(0, 2**31 - 1))),
      ("bits", out(3000, "int32")), ("hi", out(3000, "int32")), ("rtz", out(3000, "float16")),
      ("big", out(3000, "int64")), ("n", 3000)],
     _bits_ref, {"BLOCK": 256}, tol=None)

case("copy_with_hints-cg-evict-volatile", K.copy_with_hints, (cdiv(7000, 1024),),
     [("src", inp(7000)), ("dst", out(21000)), ("n", 7000)],
     lambda A, torch: {"dst": torch.cat([A["src"] * 2, A["src"], A["src"]])},
     {"BLOCK": 1024}, tol=None)


# -- atomics -------------------------------------------------------------------
# The updated arrays start from random values; the references are computed on
# the CPU in int64/float64 from the inputs as they were before the launch.

def _zeros(torch: Any, g: Any, shape: tuple) -> Any:
    return torch.zeros(shape, dtype=torch.int64, device=g.device)


def _cpu(t: Any) -> Any:
    return t.cpu()


def _histogram_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    bins = A["bins"]
    counts = torch.bincount(_cpu(A["x"]).long(), minlength=bins.numel())
    return {"bins": (_cpu(bins).double() + counts.double()).to(bins.dtype)}


_HIST_N = 10_007
for dt in ("int32", "int64"):
    case(f"atomic_add-histogram-{dt}", K.histogram, (cdiv(_HIST_N, 1024),),
         [("x", inp(_HIST_N, "int32", randint(0, 64))),
          ("bins", updated(64, dt, randint(-1000, 1000))), ("n", _HIST_N)],
         _histogram_ref, {"BLOCK": 1024}, tol=None)

# Float counts stay exact (below 256 per bin for bf16): any order of the adds
# gives the same sums.
for dt in ("float32", "float64", "float16", "bfloat16"):
    case(f"atomic_add-histogram-{dt}", K.float_histogram, (cdiv(4000, 512),),
         [("x", inp(4000, "int32", randint(0, 32))), ("bins", updated(32, dt, _zeros)),
          ("n", 4000)],
         _histogram_ref, {"BLOCK": 512}, tol=None)


def _masked_add_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    t, v = _cpu(A["t"]), _cpu(A["v"])
    on = v > 0
    return {"t": torch.where(on, t + v, t), "old": torch.where(on, t, torch.zeros_like(t))}


case("atomic_add-masked-old-values", K.masked_add_old, (cdiv(3001, 256),),
     [("t", updated(3001, "float32", randn())), ("v", inp(3001)), ("old", out(3001)),
      ("n", 3001)],
     _masked_add_ref, {"BLOCK": 256}, tol=None)


def _replicated_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    t, v = _cpu(A["t"]), _cpu(A["v"])
    return {"t": t + v, "out": t[:, None].expand(t.numel(), 32).contiguous()}


for block, warps in [(16, 4), (8, 8), (64, 1)]:
    case(f"atomic_add-replicated-block{block}-warps{warps}", K.replicated_old, (1,),
         [("t", updated(block, "int32", randint(-100, 100))),
          ("v", inp(block, "int32", randint(-100, 100))), ("out", out((block, 32), "int32"))],
         _replicated_ref, {"BLOCK": block, "WIDTH": 32}, num_warps=warps, tol=None)

for programs in (1, 300):
    case(f"atomic_add-scalar-counter-{programs}-programs", K.counter, (programs,),
         [("count", updated(1, "int32", _zeros)), ("seen", out((programs, 4), "int32"))],
         lambda A, torch, p=programs: {
             "count": torch.tensor([p], dtype=torch.int32),
             "seen": torch.ones((p, 4), dtype=torch.int32)},
         {"WIDTH": 4}, tol=None)


def _extremes_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    x, mx, mn = _cpu(A["x"]), _cpu(A["mx"]), _cpu(A["mn"])
    index = torch.arange(x.numel()) % mx.numel()
    return {"mx": mx.scatter_reduce(0, index, x, "amax"),
            "mn": mn.scatter_reduce(0, index, x, "amin")}


for dt, init in [("int32", randint(-10**9, 10**9)), ("int64", randint(-10**15, 10**15)),
                 ("float32", randn(100.0)), ("float64", randn(100.0))]:
    case(f"atomic_max_min-{dt}", K.extremes, (cdiv(5000, 512),),
         [("x", inp(5000, dt, init)), ("mx", updated(37, dt, init)),
          ("mn", updated(37, dt, init)), ("n", 5000)],
         _extremes_ref, {"BINS": 37, "BLOCK": 512}, tol=None)


def _bitwise_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    x = _cpu(A["x"])
    result = {}
    for name, combine in (("a", torch.bitwise_and), ("o", torch.bitwise_or),
                          ("e", torch.bitwise_xor)):
        target = _cpu(A[name]).clone()
        bins = target.numel()
        for i in range(bins):
            for value in x[i::bins]:
                target[i] = combine(target[i], value)
        result[name] = target
    return result


for dt in ("int32", "int64"):
    bits = randint(-2**31, 2**31 - 1)
    case(f"atomic_and_or_xor-{dt}", K.bitwise_atomics, (cdiv(1000, 128),),
         [("x", inp(1000, dt, bits)), ("a", updated(13, dt, bits)), ("o", updated(13, dt, bits)),
          ("e", updated(13, dt, bits)), ("n", 1000)],
         _bitwise_ref, {"BINS": 13, "BLOCK": 128}, tol=None)

for dt, init in [("int32", randint(-10**9, 10**9)), ("float32", randn()),
                 ("int64", randint(-10**15, 10**15)), ("float64", randn())]:
    case(f"atomic_xchg-{dt}", K.exchange, (cdiv(2000, 256),),
         [("t", updated(2000, dt, init)), ("v", inp(2000, dt, init)), ("old", out(2000, dt)),
          ("n", 2000)],
         lambda A, torch: {"t": _cpu(A["v"]), "old": _cpu(A["t"])}, {"BLOCK": 256}, tol=None)


def _cas_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    t, cmp, v = _cpu(A["t"]), _cpu(A["cmp"]), _cpu(A["v"])
    return {"t": torch.where(t == cmp, v, t), "old": t}


# Values in {0, 1}: about half the slots match.
for dt in ("int32", "int64", "float32", "float16"):
    coin = randint(0, 2)
    case(f"atomic_cas-slots-{dt}", K.cas_slots, (8,),
         [("t", updated(1024, dt, coin)), ("cmp", inp(1024, dt, coin)),
          ("v", inp(1024, dt, randint(2, 100))), ("old", out(1024, dt))],
         _cas_ref, {"BLOCK": 128}, tol=None)
    case(f"atomic_cas-program-slot-{dt}", K.cas_program_slot, (200,),
         [("t", updated(200, dt, coin)), ("cmp", inp(200, dt, coin)),
          ("v", inp(200, dt, randint(2, 100))), ("old", out(200, dt))],
         _cas_ref, tol=None)

for dt in ("int32", "int64", "float16"):
    case(f"atomic_cas-one-winner-{dt}", K.cas_one_winner, (500,),
         [("lock", updated(1, dt, _zeros)), ("wins", updated(1, "int32", _zeros)),
          ("losses", updated(1, "int32", _zeros))],
         lambda A, torch, d=dt: {"lock": torch.ones(1, dtype=getattr(torch, d)),
                                 "wins": torch.ones(1, dtype=torch.int32),
                                 "losses": torch.full((1,), 499, dtype=torch.int32)},
         tol=None)


# -- random numbers --------------------------------------------------------------
# Against test/gpu/philox_reference.py (plain Python; test_random.py checks it
# with Random123's known answers). test_random_triton.py also compares with
# Triton's own tl.rand where Triton is installed.

def _signed32(words: Sequence[int]) -> list[int]:
    return [w - (1 << 32) if w >> 31 else w for w in words]


def _offsets(A: Mapping[str, Any]) -> tuple[list[int], bool]:
    base = A["base"]
    return [base + i for i in range(A["n"])], not -2**31 <= base < 2**31


def _philox_streams_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    offsets, wide = _offsets(A)
    words = philox_reference.randint4x(A["seed"], offsets, wide)
    result = {f"i{k}": torch.tensor(_signed32(w), dtype=torch.int32) for k, w in enumerate(words)}
    result["u"] = torch.tensor(philox_reference.uniform(words[0]), dtype=torch.float32)
    return result


def _philox_normal_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    offsets, wide = _offsets(A)
    return {"z": torch.tensor(philox_reference.randn(A["seed"], offsets, wide),
                              dtype=torch.float64),
            "k": torch.tensor(_signed32(philox_reference.randint4x(
                A["seed"], offsets, wide, rounds=7)[0]), dtype=torch.int32)}


# (seed, base): int32 seeds and offsets (negative ones too); an int64 seed;
# int64 offsets across 2^32.
for seed, base in [(1234, 0), (-7, -3000), (2**40 + 3, 2**32 - 2500)]:
    n = 5000
    kind = f"seed{seed}-base{base}"
    case(f"philox-randint4x-rand-{kind}", K.philox_streams, (cdiv(n, 1024),),
         [("seed", seed), ("base", base)] + [(f"i{k}", out(n, "int32")) for k in range(4)]
         + [("u", out(n)), ("n", n)],
         _philox_streams_ref, {"BLOCK": 1024}, tol=None)
    case(f"philox-randn-randint7-{kind}", K.philox_normal, (cdiv(n, 512),),
         [("seed", seed), ("base", base), ("z", out(n)), ("k", out(n, "int32")), ("n", n)],
         _philox_normal_ref, {"BLOCK": 512}, tol=1e-6)


for dt in ("float32", "float16", "int8"):
    case(f"flip-{dt}-32x64", K.flip_both, (1,),
         [("x", inp((32, 64), dt, randint(-100, 100) if dt == "int8" else None)),
          ("rows", out((32, 64), dt)), ("cols", out((32, 64), dt))],
         lambda A, torch: {"rows": torch.flip(A["x"], [0]), "cols": torch.flip(A["x"], [1])},
         {"M": 32, "N": 64}, tol=None)


def _join_split_cat_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    x, y = A["x"], A["y"]
    joined = torch.stack([x, y], -1)
    return {"j": joined, "s": y, "i": joined.reshape(x.shape[0], -1), "c": torch.cat([x, y])}


for dt in ("float32", "float16"):
    case(f"join_split_cat-{dt}-16x32", K.join_split_cat, (1,),
         [("x", inp((16, 32), dt)), ("y", inp((16, 32), dt)), ("j", out((16, 32, 2), dt)),
          ("s", out((16, 32), dt)), ("i", out((16, 64), dt)), ("c", out((32, 32), dt))],
         _join_split_cat_ref, {"M": 16, "N": 32}, tol=None)


for dt, m, n in (("float32", 8, 128), ("float16", 16, 64), ("int32", 4, 256)):
    case(f"sort-{dt}-{m}x{n}", K.sort_rows, (1,),
         [("x", inp((m, n), dt, randint(-1000, 1000) if dt == "int32" else None)),
          ("up", out((m, n), dt)), ("down", out((m, n), dt))],
         lambda A, torch: {"up": torch.sort(A["x"], -1).values,
                           "down": torch.sort(A["x"], -1, descending=True).values},
         {"M": m, "N": n}, tol=None)


for dt, m, n, k in (("float32", 8, 128, 16), ("float16", 16, 64, 1), ("int32", 4, 256, 256)):
    case(f"topk-{dt}-{m}x{n}-k{k}", K.topk_rows, (1,),
         [("x", inp((m, n), dt, randint(-1000, 1000) if dt == "int32" else None)),
          ("top", out((m, k), dt))],
         lambda A, torch, k=k: {"top": torch.topk(A["x"], k, -1).values},
         {"M": m, "N": n, "K": k}, tol=None)


def _prod_and_xor_ref(A: Mapping[str, Any], torch: Any) -> dict[str, Any]:
    x = _cpu(A["x"])
    prod = torch.cumprod(x, 1)  # int32: torch's CPU products wrap as the kernel's
    rprod = torch.flip(torch.cumprod(torch.flip(x, [0]), 0), [0])
    xor = x[:, 0].clone()
    for j in range(1, x.shape[1]):
        xor = torch.bitwise_xor(xor, x[:, j])
    return {"prod": prod.to(x.dtype), "rprod": rprod.to(x.dtype), "xor": xor}


case("cumprod-xor_sum-int32", K.prod_and_xor, (1,),
     [("x", inp((16, 32), "int32", randint(-9, 10, avoid_zero=True))), ("prod", out((16, 32), "int32")),
      ("rprod", out((16, 32), "int32")), ("xor", out(16, "int32"))],
     _prod_and_xor_ref, {"M": 16, "N": 32}, tol=None)
