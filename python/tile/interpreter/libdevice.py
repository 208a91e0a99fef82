"""`tl.extra.cuda.libdevice` interpreted: the functions NumPy (or Python's
math) computes, with the compiled overloads' typing and choice
(tile/language/extra/cuda/libdevice_functions.py, semantic.pick_overload).
The others raise a located error naming the function."""
from __future__ import annotations

import math
import types
from typing import Any, Callable

import numpy as np

from ..errors import TileError
from ..language import semantic as S
from ..language.extra import cuda as compiled_cuda
from ..language.extra.cuda import libdevice as compiled
from ..language.types import unwrap
from . import ops as O
from .values import Tensor, make


def _round_half_away(x: np.ndarray) -> np.ndarray:
    """C's round: to nearest, halves away from zero (x - trunc(x) is exact)."""
    whole = np.trunc(x)
    return np.where(np.abs(x - whole) >= 0.5, whole + np.sign(x), whole)


def _unsigned(x: np.ndarray) -> tuple[np.ndarray, int]:
    """x's bits as unsigned integers of its width (int32 -> uint32), and the width."""
    return x.astype(np.dtype(f"u{x.dtype.itemsize}")), 8 * x.dtype.itemsize


def _popc(x: np.ndarray) -> np.ndarray:
    """__nv_popc(ll): the set bits."""
    return np.bitwise_count(_unsigned(x)[0])


def _clz(x: np.ndarray) -> np.ndarray:
    """__nv_clz(ll): the zero bits above the highest set one (the width for 0),
    by halving the span that holds the highest bit."""
    u, width = _unsigned(x)
    count = np.full(u.shape, width, dtype=np.int64)
    shift = width // 2
    while shift:
        high = u >> u.dtype.type(shift)
        above = high != 0
        count = np.where(above, count - shift, count)
        u = np.where(above, high, u)
        shift //= 2
    return count - (u != 0)


def _brev(x: np.ndarray) -> np.ndarray:
    """__nv_brev(ll): the bits in reverse order, back in x's type."""
    u, width = _unsigned(x)
    one = u.dtype.type(1)
    reversed_ = np.zeros_like(u)
    for bit in range(width):
        reversed_ |= ((u >> u.dtype.type(bit)) & one) << u.dtype.type(width - 1 - bit)
    return reversed_.astype(x.dtype)


def _ffs(x: np.ndarray) -> np.ndarray:
    """__nv_ffs(ll): the 1-based position of the lowest set bit; 0 for 0."""
    u, _ = _unsigned(x)
    lowest = u & (~u + u.dtype.type(1))  # two's complement: u & -u
    return np.where(u == 0, 0, np.bitwise_count(lowest - (lowest != 0)) + 1)


# libdevice name -> the NumPy function of the same meaning (the `fast_`
# approximations too: more precise here than on the GPU; README's table).
_NUMPY: dict[str, Callable[..., Any]] = {
    name: getattr(np, name) for name in (
        "abs", "cbrt", "ceil", "copysign", "cos", "cosh", "exp", "exp2", "expm1", "floor",
        "fmod", "hypot", "ldexp", "log", "log10", "log1p", "log2", "nextafter", "rint",
        "sin", "sinh", "sqrt", "tan", "tanh", "trunc", "isnan", "isinf", "signbit")}
_NUMPY.update(acos=np.arccos, asin=np.arcsin, atan=np.arctan, atan2=np.arctan2,
              acosh=np.arccosh, asinh=np.arcsinh, atanh=np.arctanh, pow=np.power,
              min=np.fmin, max=np.fmax,  # fminf/fmaxf: a NaN operand gives the other
              round=_round_half_away, nearbyint=np.rint,
              fdim=lambda x, y: np.where(x <= y, np.zeros_like(x), x - y),  # NaN: NaN
              exp10=lambda x: np.power(x.dtype.type(10), x), rsqrt=lambda x: 1 / np.sqrt(x),
              # IEEE's operations, correctly rounded as NumPy's.
              add_rn=np.add, sub_rn=np.subtract, mul_rn=np.multiply, div_rn=np.true_divide,
              sqrt_rn=np.sqrt, rcp_rn=np.reciprocal,
              erf=np.vectorize(math.erf, otypes=[np.float64]),
              fast_expf=np.exp, fast_exp10f=lambda x: np.power(np.float32(10), x),
              fast_logf=np.log, fast_log2f=np.log2, fast_log10f=np.log10, fast_sinf=np.sin,
              fast_cosf=np.cos, fast_tanf=np.tan, fast_tanhf=np.tanh, fast_powf=np.power,
              fast_dividef=np.true_divide,
              erfc=np.vectorize(math.erfc, otypes=[np.float64]),
              lgamma=np.vectorize(math.lgamma, otypes=[np.float64]),
              tgamma=np.vectorize(math.gamma, otypes=[np.float64]),
              popc=_popc, clz=_clz, brev=_brev, ffs=_ffs)


def _function(name: str) -> Callable[..., Tensor]:
    overloads = compiled.overloads(name)
    fn = _NUMPY.get(name)

    def interpreted(*args: Any, **_unused: Any) -> Tensor:
        if fn is None:
            raise TileError(f"libdevice.{name} has no interpreted version; run the kernel "
                            "compiled")
        values = [unwrap(a) for a in args]
        arg_types, _, result = S.pick_overload(
            f"libdevice.{name}", values, overloads,
            lambda v: v.dtype if isinstance(v, Tensor) else None)
        operands = [O.cast(O.to_value(v, t), t) for v, t in zip(values, arg_types)]
        O.check_broadcast(*operands)
        return make(fn(*(o.data for o in operands)), result)

    interpreted.__name__ = interpreted.__qualname__ = name
    return interpreted


def extra_module(interpreted_module: Callable[..., types.ModuleType]) -> types.ModuleType:
    """`tl.extra` for interpreted kernels: `extra.cuda.libdevice` and
    `extra.libdevice`, made by `interpreted_module(source, name, implementations)`."""
    library = interpreted_module(compiled, "tile.language.extra.cuda.libdevice",
                                 lambda name: _function(name) if name in compiled.FUNCTIONS
                                 else None)
    # tl.extra.cuda's other builtins: num_warps()/num_threads() the launch's;
    # the special registers (smid, globaltimer) are PTX, which is not run here.
    from .program import current
    registers = {"num_warps": lambda: current().num_warps,
                 "num_threads": lambda: 32 * current().num_warps}
    cuda = interpreted_module(compiled_cuda, "tile.language.extra.cuda", registers.get)
    cuda.libdevice = library  # type: ignore[attr-defined]
    extra = types.ModuleType("tile.language.extra")
    extra.cuda = cuda  # type: ignore[attr-defined]
    extra.libdevice = library  # type: ignore[attr-defined]
    return extra

