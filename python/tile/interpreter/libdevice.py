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
from ..language.extra.cuda import libdevice as compiled
from ..language.types import unwrap
from . import ops as O
from .values import Tensor, make


def _round_half_away(x: np.ndarray) -> np.ndarray:
    """C's round: to nearest, halves away from zero (x - trunc(x) is exact)."""
    whole = np.trunc(x)
    return np.where(np.abs(x - whole) >= 0.5, whole + np.sign(x), whole)


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
              tgamma=np.vectorize(math.gamma, otypes=[np.float64]))


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
    cuda = types.ModuleType("tile.language.extra.cuda")
    cuda.libdevice = library  # type: ignore[attr-defined]
    extra = types.ModuleType("tile.language.extra")
    extra.cuda = cuda  # type: ignore[attr-defined]
    extra.libdevice = library  # type: ignore[attr-defined]
    return extra

