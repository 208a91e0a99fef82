"""`tl.math`: Triton's math functions. The core ones (`exp`, `log`, `sqrt`,
...) are tile ops; the precise and fast variants (`div_rn`, `sqrt_rn`, `erf`,
`rint`, `umulhi`, `fast_expf`, ...) are calls of libdevice functions
(`tile.extern_elementwise`), linked at compile time, but for f32 `div_rn` and
`sqrt_rn`, which are PTX instructions as in Triton."""
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
# name: (arity, f32 symbol, f64 symbol, doc)
FLOAT_FUNCTIONS = {
    "div_rn": (2, "__nv_fdiv_rn", "__nv_ddiv_rn", "x / y, correctly rounded (IEEE), elementwise"),
    "sqrt_rn": (1, "__nv_fsqrt_rn", "__nv_dsqrt_rn", "square root, correctly rounded (IEEE)"),
    "erf": (1, "__nv_erff", "__nv_erf", "the error function, elementwise"),
    "rint": (1, "__nv_rintf", "__nv_rint", "round to the nearest integer (ties to even)"),
    "fma_rn": (3, "__nv_fmaf_rn", "__nv_fma_rn", "x * y + z rounded once, to nearest even"),
    "rcp_rn": (1, "__nv_frcp_rn", "__nv_drcp_rn", "1 / x, correctly rounded"),
}


# Triton computes these two in f32 with PTX's own instructions, not
# libdevice: they keep subnormals where libdevice's versions flush them under
# enable_reflect_ftz.
F32_INSTRUCTIONS = {
    "div_rn": ("div.rn.f32 $0, $1, $2;", "=f,f,f"),
    "sqrt_rn": ("sqrt.rn.f32 $0, $1;", "=f,f"),
}


def float_function_types(name: str, operands: list[dtype]) -> tuple[dtype, dtype]:
    """The result and computation types of a libdevice float function of
    `operands` (also the interpreter's rule)."""
    common = operands[0]
    for operand in operands[1:]:
        common = S.computation_type(common, operand, False)
    if common.is_ptr():
        raise TileError(f"tl.math.{name} needs numbers, not pointers")
    result_type = common if common.is_floating() else T.float32
    return result_type, T.float64 if result_type == T.float64 else T.float32


def _libdevice_float(b: Builder, name: str, args: tuple[Any, ...]) -> tensor:
    values = [unwrap(a) for a in args]
    like = next((v for v in values if isinstance(v, tensor)), None)
    operands = [S.to_tensor(b, v, like=like) for v in values]
    result_type, compute = float_function_types(name, [o.dtype for o in operands])
    operands = S.broadcast_together(b, *(S.cast(b, o, compute) for o in operands))
    handles = [o.handle for o in operands]
    if compute == T.float32 and name in F32_INSTRUCTIONS:
        asm, constraints = F32_INSTRUCTIONS[name]
        value, = b.inline_asm(asm, constraints, handles, [handles[0].type], pure=True, pack=1)
        return S.cast(b, tensor(value), result_type)
    _, fp32_symbol, fp64_symbol, _ = FLOAT_FUNCTIONS[name]
    symbol = fp64_symbol if compute == T.float64 else fp32_symbol
    result = tensor(b.extern(symbol, handles, compute))
    return S.cast(b, result, result_type)


def check_arity(name: str, arity: int, args: tuple[Any, ...]) -> None:
    if len(args) != arity:
        raise TileError(f"tl.math.{name} takes {arity} argument(s), got {len(args)}")


def _float_function(name: str) -> Any:
    arity, _, _, doc = FLOAT_FUNCTIONS[name]

    def fn(*args: Any, _builder: Builder | None = None) -> tensor:
        check_arity(name, arity, args)
        return _libdevice_float(_builder, name, args)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return builtin(fn)


div_rn = _float_function("div_rn")
sqrt_rn = _float_function("sqrt_rn")
erf = _float_function("erf")
rint = _float_function("rint")
fma_rn = _float_function("fma_rn")
rcp_rn = _float_function("rcp_rn")


@builtin
def fdiv(x: Any, y: Any, ieee_rounding: Any = False, _builder: Builder | None = None) -> tensor:
    """x / y: IEEE-rounded with `ieee_rounding`, else the fast division of `/`."""
    if unwrap(ieee_rounding):
        return _libdevice_float(_builder, "div_rn", (x, y))
    return S.truediv(_builder, x, y)


def umulhi_type(x: dtype, y: dtype) -> dtype:
    """The type umulhi computes in: 32- or 64-bit integers, promoted."""
    if not x.is_int() or not y.is_int() or x.is_bool() or y.is_bool():
        raise TileError(f"umulhi needs 32- or 64-bit integers, got {x} and {y}")
    common = S.integer_promote(x, y)
    if common.primitive_bitwidth not in (32, 64):
        raise TileError(f"umulhi needs 32- or 64-bit integers, got {common}")
    return common


@builtin
def umulhi(x: Any, y: Any, _builder: Builder | None = None) -> tensor:
    """The high half of the 2N-bit unsigned product of two N-bit integers."""
    b = _builder
    x, y = S.operands(b, x, y)
    common = umulhi_type(x.dtype, y.dtype)
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
