"""`tl.math`: Triton's math functions. The core ones (`exp`, `log`, `sqrt`,
...) are tile ops; the precise and fast variants (`div_rn`, `sqrt_rn`, `erf`,
`rint`, `umulhi`, `fast_expf`, ...) are calls of libdevice functions
(`tile.extern_elementwise`), linked at compile time."""
from __future__ import annotations

from typing import Any, Mapping

from ..compiler.ir import Builder
from ..errors import TileError
from . import semantic as S
from . import types as T
from .core import (  # noqa: F401 - Triton's tl.math names
    abs, builtin, cdiv, ceil, clamp, cos, exp, exp2, floor, fma, log, log2, maximum, minimum,
    rsqrt, sigmoid, sin, sqrt)
from .semantic import tensor
from .types import dtype, unwrap

# libdevice has f32 and f64 versions: f16/bf16 (and integers) are computed in
# f32 and the result is cast back (integers give f32), as Triton's math ops.
_FLOAT_SYMBOLS = {
    "div_rn": ("__nv_fdiv_rn", "__nv_ddiv_rn"),
    "sqrt_rn": ("__nv_fsqrt_rn", "__nv_dsqrt_rn"),
    "erf": ("__nv_erff", "__nv_erf"),
    "rint": ("__nv_rintf", "__nv_rint"),
    "fma_rn": ("__nv_fmaf_rn", "__nv_fma_rn"),
    "rcp_rn": ("__nv_frcp_rn", "__nv_drcp_rn"),
}


def _libdevice_float(b: Builder, name: str, args: tuple[Any, ...]) -> tensor:
    values = [unwrap(a) for a in args]
    like = next((v for v in values if isinstance(v, tensor)), None)
    operands = [S.to_tensor(b, v, like=like) for v in values]
    common = operands[0].dtype
    for operand in operands[1:]:
        common = S.computation_type(common, operand.dtype, False)
    if common.is_ptr():
        raise TileError(f"tl.math.{name} needs numbers, not pointers")
    result_type = common if common.is_floating() else T.float32
    compute = T.float64 if result_type == T.float64 else T.float32
    operands = S.broadcast_together(b, *(S.cast(b, o, compute) for o in operands))
    fp32_symbol, fp64_symbol = _FLOAT_SYMBOLS[name]
    symbol = fp64_symbol if compute == T.float64 else fp32_symbol
    result = tensor(b.extern(symbol, [o.handle for o in operands], compute))
    return S.cast(b, result, result_type)


def _float_function(name: str, arity: int, doc: str) -> Any:
    def fn(*args: Any, _builder: Builder | None = None) -> tensor:
        if len(args) != arity:
            raise TileError(f"tl.math.{name} takes {arity} argument(s), got {len(args)}")
        return _libdevice_float(_builder, name, args)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return builtin(fn)


div_rn = _float_function("div_rn", 2, "x / y, correctly rounded (IEEE), elementwise")
sqrt_rn = _float_function("sqrt_rn", 1, "square root, correctly rounded (IEEE)")
erf = _float_function("erf", 1, "the error function, elementwise")
rint = _float_function("rint", 1, "round to the nearest integer (ties to even)")
fma_rn = _float_function("fma_rn", 3, "x * y + z rounded once, to nearest even")
rcp_rn = _float_function("rcp_rn", 1, "1 / x, correctly rounded")


@builtin
def fdiv(x: Any, y: Any, ieee_rounding: Any = False, _builder: Builder | None = None) -> tensor:
    """x / y: IEEE-rounded with `ieee_rounding`, else the fast division of `/`."""
    if unwrap(ieee_rounding):
        return _libdevice_float(_builder, "div_rn", (x, y))
    return S.truediv(_builder, x, y)


@builtin
def umulhi(x: Any, y: Any, _builder: Builder | None = None) -> tensor:
    """The high half of the 2N-bit unsigned product of two N-bit integers."""
    b = _builder
    x, y = S.operands(b, x, y)
    if not x.dtype.is_int() or not y.dtype.is_int() or x.dtype.is_bool() or y.dtype.is_bool():
        raise TileError(f"umulhi needs 32- or 64-bit integers, got {x.dtype} and {y.dtype}")
    common = S.integer_promote(x.dtype, y.dtype)
    if common.primitive_bitwidth not in (32, 64):
        raise TileError(f"umulhi needs 32- or 64-bit integers, got {common}")
    x, y = S.promote_and_broadcast(b, x, y, common)
    symbol = "__nv_umulhi" if common.primitive_bitwidth == 32 else "__nv_umul64hi"
    return tensor(b.extern(symbol, [x.handle, y.handle], common))


@builtin
def fast_expf(x: Any, _builder: Builder | None = None) -> tensor:
    """e**x with the hardware's approximate ex2 (f32)."""
    return S.extern_elementwise(_builder, "tl.math.fast_expf", (S.cast(
        _builder, S.to_tensor(_builder, x), T.float32),), [((T.float32,), "__nv_fast_expf",
                                                          T.float32)])


@builtin
def fast_dividef(x: Any, y: Any, _builder: Builder | None = None) -> tensor:
    """x / y, approximate (f32)."""
    b = _builder
    x, y = (S.cast(b, S.to_tensor(b, v), T.float32) for v in (x, y))
    return S.extern_elementwise(b, "tl.math.fast_dividef", (x, y), [
        ((T.float32, T.float32), "__nv_fast_fdividef", T.float32)])


@builtin
def extern_elementwise(lib_name: Any, lib_path: Any, args: Any,
                       arg_type_symbol_dict: Mapping[tuple[dtype, ...], tuple[str, dtype]],
                       is_pure: Any = True, _builder: Builder | None = None) -> tensor:
    """Triton's `tl.extern_elementwise`: a call of a device function chosen by
    the argument types. tile links libdevice only (any `lib_path` names it)."""
    if not unwrap(is_pure):
        raise TileError("extern_elementwise with is_pure=False is not supported: tile calls "
                        "libdevice's pure functions")
    overloads = []
    for arg_types, (symbol, result) in dict(unwrap(arg_type_symbol_dict)).items():
        if not str(symbol).startswith("__nv_"):
            raise TileError(f"extern_elementwise: {symbol!r} is not a libdevice function "
                            "(__nv_...); tile links libdevice only")
        overloads.append((tuple(unwrap(t) for t in arg_types), str(symbol), unwrap(result)))
    return S.extern_elementwise(_builder, f"extern_elementwise({unwrap(lib_name)!r})",
                                tuple(args), overloads)
