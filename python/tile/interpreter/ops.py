"""The semantic layer in NumPy: casts, broadcasting, promotion, operators.

Each function mirrors the function of the same name in
`tile.language.semantic` and takes its typing rules from there
(`computation_type`, `integer_promote`, `literal_type_next_to`,
`broadcast_shapes`...): the interpreter computes what the compiled kernel
computes, in the types the compiled kernel uses.
"""
from __future__ import annotations

import functools
import math
from typing import Any, Callable, Sequence

import numpy as np

from ..errors import TileError
from ..language import semantic as S
from ..language import types as T
from ..language.types import dtype
from .values import Tensor, compute_dtype, constant, convert_to_fp8, literal, make, python_value


# ----------------------------------------------------------------------------
# Values from Python literals
# ----------------------------------------------------------------------------

def to_value(value: Any, near: dtype | None = None) -> Tensor:
    """A runtime value from a Tensor or a Python literal; a literal next to a
    value of type `near` takes that type when of the same kind (weak typing)."""
    if type(value) is Tensor:
        return value
    value = python_value(value)
    if isinstance(value, Tensor):
        return value
    if literal(value):
        ty = S.literal_type_next_to(value, near) if near is not None and not near.is_ptr() \
            else S.literal_type(value)
        return constant(value, ty)
    raise TileError(f"expected a value, got {value!r} of Python type {type(value).__name__}")


def operands(x: Any, y: Any) -> tuple[Tensor, Tensor]:
    """Two runtime operands; a literal takes its type from the other side."""
    if type(x) is Tensor and type(y) is Tensor:
        return x, y
    x, y = python_value(x), python_value(y)
    if isinstance(x, Tensor) and not isinstance(y, Tensor):
        return x, to_value(y, x.dtype)
    if isinstance(y, Tensor) and not isinstance(x, Tensor):
        return to_value(x, y.dtype), y
    return to_value(x), to_value(y)


# ----------------------------------------------------------------------------
# Shapes
# ----------------------------------------------------------------------------

def _shape_text(shape: Sequence[int]) -> str:
    return "x".join(str(s) for s in shape) if shape else "scalar"


def _like(x: Tensor, data: np.ndarray) -> Tensor:
    """New data of x's type (and, for pointers, region)."""
    return Tensor(data, x.dtype, x.region)


def splat(x: Tensor, shape: Sequence[int]) -> Tensor:
    return _like(x, np.broadcast_to(x.data, tuple(shape)))


def expand_dims(x: Tensor, axis: int) -> Tensor:
    if not x.is_block():
        return splat(x, [1])
    rank = len(x.shape)
    if axis < 0:
        axis += rank + 1
    if not 0 <= axis <= rank:
        raise TileError(f"expand_dims axis {axis} is out of range for a block of rank {rank}")
    return _like(x, np.expand_dims(x.data, axis))


def broadcast_to(x: Tensor, shape: Sequence[int]) -> Tensor:
    if x.data.shape == tuple(shape):
        return x
    shape = list(shape)
    if not x.is_block():
        return splat(x, shape) if shape else x
    if list(x.shape) == shape:
        return x
    if len(x.shape) > len(shape) or S.broadcast_shapes(x.shape, shape) != shape:
        raise TileError(f"cannot broadcast a block of shape {_shape_text(x.shape)} "
                        f"to {_shape_text(shape)}")
    return _like(x, np.broadcast_to(x.data, tuple(shape)))


def broadcast_together(*values: Tensor) -> list[Tensor]:
    if all(v.data.shape == values[0].data.shape for v in values):
        return list(values)
    shape: list[int] = []
    for v in values:
        shape = S.broadcast_shapes(shape, v.shape)
    if not shape:
        return list(values)
    return [broadcast_to(v, shape) for v in values]


def reshape(x: Tensor, shape: Sequence[int]) -> Tensor:
    shape = [int(s) for s in shape]
    if -1 in shape:
        known = math.prod(s for s in shape if s != -1)
        shape[shape.index(-1)] = x.numel // max(known, 1)
    if math.prod(shape) != x.numel:
        raise TileError(f"cannot reshape a block of shape {_shape_text(x.shape)} "
                        f"({x.numel} elements) to {_shape_text(shape)}")
    if not x.is_block():
        return splat(x, shape)
    if not shape:
        raise TileError("cannot reshape a block to a scalar; use a reduction")
    return _like(x, x.data.reshape(shape))


def trans(x: Tensor, order: Sequence[int] | None) -> Tensor:
    if not x.is_block():
        raise TileError("trans needs a block")
    return _like(x, np.transpose(x.data, S.trans_order(x.shape, order)))


# ----------------------------------------------------------------------------
# Casts
# ----------------------------------------------------------------------------

def cast(x: Tensor, to: dtype) -> Tensor:
    src = x.dtype
    if src == to:
        return x
    if src.is_ptr() or to.is_ptr():
        raise TileError(f"cannot cast {src} to {to}: pointer casts are not supported")
    data = x.data
    if to.is_bool():
        return make(data != 0, to)  # floats: `une 0`, so NaN is true
    if src.mlir == to.mlir:
        # Only the signedness differs: the same bits, read another way.
        return make(data.view(compute_dtype(to)), to)
    if src.is_floating() and to.is_int():
        return make(_float_to_int(data, to), to)
    if src.is_int() and to.is_bf16():
        return make(data.astype(np.float64), to)  # one rounding, to bf16
    if to.is_fp8():
        return convert_to_fp8(data, to)
    return make(data, to)  # int<->int wraps or extends by signedness; float<->float rounds


def _float_to_int(data: np.ndarray, to: dtype) -> np.ndarray:
    """fptosi/fptoui as the GPU's cvt.rzi: toward zero, saturating, NaN -> 0."""
    lo, hi = S.int_range(to)
    wide = np.trunc(data.astype(np.float64))
    wide = np.where(np.isnan(wide), 0.0, np.clip(wide, float(lo), float(hi)))
    result = wide.astype(compute_dtype(to))
    # float64 rounds 2**63 - 1 (and 2**64 - 1) up to a value past the range.
    return np.where(wide >= float(hi), np.array(hi).astype(compute_dtype(to)), result)


def to_bool(x: Tensor) -> Tensor:
    return x if x.dtype.is_bool() else cast(x, T.int1)


def check_broadcast(*values: Tensor) -> None:
    """Raises unless the values broadcast together. Elementwise operations
    leave the broadcasting itself to NumPy, whose rule is the frontend's."""
    first = values[0].data.shape
    if any(v.data.shape != first for v in values):
        shape: tuple[int, ...] = ()
        for v in values:
            shape = _broadcast_shapes(shape, v.data.shape)


@functools.lru_cache(maxsize=4096)
def _broadcast_shapes(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(S.broadcast_shapes(a, b))


def promote(x: Tensor, y: Tensor, ty: dtype) -> tuple[Tensor, Tensor]:
    """Both operands in the computation type, checked to broadcast together."""
    x, y = cast(x, ty), cast(y, ty)
    check_broadcast(x, y)
    return x, y


# ----------------------------------------------------------------------------
# Arithmetic
# ----------------------------------------------------------------------------

def _compute(ty: dtype, fn: Callable[..., np.ndarray], *values: Tensor) -> Tensor:
    """fn on the data of same-typed values, as the element type computes:
    i1 arithmetic is modulo 2 (addi on i1 is xor); f16/bf16 math functions are
    evaluated in f32 and rounded, as the compiled kernel does; fp8 is computed
    in f32 and converted back (saturating, as compiled)."""
    if ty.is_bool():
        result = fn(*(v.data.astype(np.uint8) for v in values)) & np.uint8(1)
        return make(result.astype(np.bool_), ty)
    if ty.is_fp8():
        return convert_to_fp8(fn(*(v.data for v in values)), ty)
    return make(fn(*(v.data for v in values)), ty)


def _float_math(ty: dtype, fn: Callable[..., np.ndarray], *values: Tensor) -> Tensor:
    if ty.is_fp8():
        return _compute(ty, fn, *values)
    if ty in (T.float16, T.bfloat16):
        return make(fn(*(v.data.astype(np.float32) for v in values)), ty)
    return make(fn(*(v.data for v in values)), ty)


def _arith(x: Any, y: Any, fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Tensor:
    x, y = operands(x, y)
    ty = S.computation_type(x.dtype, y.dtype, False)
    x, y = promote(x, y, ty)
    return _compute(ty, fn, x, y)


def add(x: Any, y: Any) -> Tensor:
    x, y = operands(x, y)
    if y.dtype.is_ptr() and not x.dtype.is_ptr():
        x, y = y, x
    if x.dtype.is_ptr():
        return addptr(x, y)
    return _arith(x, y, np.add)


def addptr(ptr: Tensor, offset: Tensor) -> Tensor:
    if offset.dtype.is_ptr():
        raise TileError("cannot add two pointers")
    if offset.dtype.is_floating():
        raise TileError(f"pointer offsets must be integers, not {offset.dtype}")
    if offset.dtype.is_bool():
        offset = cast(offset, T.int32)
    check_broadcast(ptr, offset)
    # Offsets are in elements and sign-extended, as the GEP the compiler emits.
    return _like(ptr, ptr.data + offset.data.astype(np.int64))


def sub(x: Any, y: Any) -> Tensor:
    x, y = operands(x, y)
    if x.dtype.is_ptr():
        return addptr(x, minus(y))
    return _arith(x, y, np.subtract)


def mul(x: Any, y: Any) -> Tensor:
    return _arith(x, y, np.multiply)


def truediv(x: Any, y: Any) -> Tensor:
    x, y = operands(x, y)
    ty = S.computation_type(x.dtype, y.dtype, True)
    if ty.is_int():
        ty = T.float32  # int / int is a float32 division, as Triton
    x, y = promote(x, y, ty)
    return _compute(ty, np.true_divide, x, y)


def _int_division(ty: dtype) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """Quotient truncated toward zero (C, not Python); by zero gives 0."""
    def divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        safe = np.where(b == 0, 1, b).astype(a.dtype)
        if ty.is_int_unsigned():
            q = a // safe
        else:
            q = a // safe
            q = np.where((a % safe != 0) & ((a < 0) != (safe < 0)), q + 1, q).astype(a.dtype)
        return np.where(b == 0, 0, q).astype(a.dtype)
    return divide


def floordiv(x: Any, y: Any) -> Tensor:
    x, y = operands(x, y)
    ty = S.computation_type(x.dtype, y.dtype, True)
    if not ty.is_int():
        raise TileError(f"// is only defined on integers (got {x.dtype} and {y.dtype}); "
                        "use / and tl.floor for floats")
    x, y = promote(x, y, ty)
    return _compute(ty, _int_division(ty), x, y)


def mod(x: Any, y: Any) -> Tensor:
    x, y = operands(x, y)
    ty = S.computation_type(x.dtype, y.dtype, True)
    x, y = promote(x, y, ty)
    if ty.is_floating():
        return _float_math(ty, np.fmod, x, y)  # the sign of the dividend, as C's fmod
    # Remainder of the truncated quotient (the sign of the dividend); by zero gives 0.
    return _compute(ty, lambda a, b: np.where(b == 0, 0, np.fmod(a, np.where(b == 0, 1, b)))
                    .astype(a.dtype), x, y)


def power(x: Any, y: Any) -> Tensor:
    exponent = python_value(y)
    if isinstance(exponent, int) and not isinstance(exponent, bool) and 0 < exponent <= 8 \
            and isinstance(python_value(x), Tensor):
        result = python_value(x)  # small integer powers: repeated products keep the type
        for _ in range(exponent - 1):
            result = mul(result, x)
        return result
    x, y = operands(x, y)
    ty = S.computation_type(x.dtype, y.dtype, False)
    if ty.is_int():
        ty = T.float32
    x, y = promote(x, y, ty)
    return _float_math(ty, np.power, x, y)


_BITWISE = {"andi": np.bitwise_and, "ori": np.bitwise_or, "xori": np.bitwise_xor,
            "shli": np.left_shift, "shr": np.right_shift}


def bitwise(op: str, x: Any, y: Any) -> Tensor:
    """op: "andi", "ori", "xori", "shli", "shr" (arithmetic for signed types).
    Shifts by the bit width or more give 0 (or the sign), as PTX's clamped shifts."""
    x, y = operands(x, y)
    if not x.dtype.is_int() or not y.dtype.is_int():
        what = {"andi": "&", "ori": "|", "xori": "^"}.get(op, "a shift")
        raise TileError(f"{what} needs integer or boolean operands, got {x.dtype} and {y.dtype}")
    ty = S.integer_promote(x.dtype, y.dtype)
    x, y = promote(x, y, ty)
    return _compute(ty, _BITWISE[op], x, y)


_COMPARE = {"lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
            "eq": np.equal, "ne": np.not_equal}


def compare(pred: str, x: Any, y: Any) -> Tensor:
    """pred: lt, le, gt, ge, eq, ne. Floats compare ordered (NaN is false)
    except `ne`, which is unordered (NaN != x is true), as the frontend emits."""
    x, y = operands(x, y)
    ty = S.computation_type(x.dtype, y.dtype, False)
    x, y = promote(x, y, ty)
    return make(_COMPARE[pred](x.data, y.data), T.int1)


def minus(x: Any) -> Tensor:
    x = to_value(x)
    if x.dtype.is_floating():
        return make(np.negative(x.data), x.dtype)
    if x.dtype.is_ptr():
        raise TileError("cannot negate a pointer")
    return sub(0, x)


def invert(x: Any) -> Tensor:
    x = to_value(x)
    if not x.dtype.is_int():
        raise TileError(f"~ needs an integer or boolean operand, got {x.dtype}")
    return make(np.invert(x.data), x.dtype)


def logical_not(x: Any) -> Tensor:
    x = to_value(x)
    return compare("eq", x, 0) if not x.dtype.is_bool() else invert(x)


def where(cond: Any, x: Any, y: Any) -> Tensor:
    cond = to_bool(to_value(cond))
    x, y = operands(x, y)
    ty = x.dtype if x.dtype == y.dtype else S.computation_type(x.dtype, y.dtype, False)
    x, y = cast(x, ty), cast(y, ty)
    check_broadcast(cond, x, y)
    region = x.region
    if ty.is_ptr() and x.region is not y.region:
        if not np.all(cond.data) and not np.all(~cond.data):
            raise TileError("tl.where between pointers into different arrays is not "
                            "supported by the interpreter")
        region = x.region if np.all(cond.data) else y.region
    return Tensor(np.where(cond.data, x.data, y.data), ty, region)


def _float_extreme(which: str, propagate_nan: bool
                   ) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """IEEE 754-2019 maximum/minimum with -0 < +0: with `propagate_nan`
    LLVM's maximumf (NaN if either is NaN), without it maxnumf (the other
    operand when one is NaN, as PTX's max.f32)."""
    def fn(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        pick_a = (a > b) if which == "max" else (a < b)
        equal = a == b
        # On a tie (only +-0 can differ) prefer +0 for max and -0 for min.
        sign_a = np.signbit(a)
        tie_a = ~sign_a if which == "max" else sign_a
        result = np.where(pick_a | (equal & tie_a), a, b)
        if not propagate_nan:
            return np.where(np.isnan(a), b, np.where(np.isnan(b), a, result))
        return np.where(np.isnan(a) | np.isnan(b), np.asarray(np.nan, dtype=result.dtype),
                        result)
    return fn


def minmax(which: str, x: Any, y: Any, propagate_nan: bool = False) -> Tensor:
    """which: "min" or "max"; floats ignore a NaN operand unless
    `propagate_nan`, as the frontend's minmax."""
    x, y = operands(x, y)
    ty = S.computation_type(x.dtype, y.dtype, False)
    x, y = promote(x, y, ty)
    if ty.is_floating():
        return _compute(ty, _float_extreme(which, propagate_nan), x, y)
    return _compute(ty, np.maximum if which == "max" else np.minimum, x, y)


def _rsqrt(a: np.ndarray) -> np.ndarray:
    return np.reciprocal(np.sqrt(a))


_FLOAT_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "sqrt": np.sqrt,
    "rsqrt": _rsqrt, "floor": np.floor, "ceil": np.ceil, "sin": np.sin, "cos": np.cos,
    "absf": np.abs,
}


def float_unary(op: str, x: Any) -> Tensor:
    """A float math function (the frontend's op name); integers are computed in float32."""
    x = to_value(x)
    if not x.dtype.is_floating():
        x = cast(x, T.float32)
    return _float_math(x.dtype, _FLOAT_UNARY[op], x)


def abs_int(x: Tensor) -> Tensor:
    """max(x, -x) in the type, as the compiled kernel (INT_MIN stays INT_MIN)."""
    return make(np.maximum(x.data, np.negative(x.data)), x.dtype)


def fma(x: Any, y: Any, z: Any) -> Tensor:
    """x * y + z rounded once (for f64, computed as x * y + z: two roundings)."""
    x, y, z = (to_value(v) for v in (x, y, z))
    ty = S.computation_type(S.computation_type(x.dtype, y.dtype, False), z.dtype, False)
    if not ty.is_floating():
        ty = T.float32
    x, y, z = (cast(v, ty) for v in (x, y, z))
    check_broadcast(x, y, z)
    if ty.is_fp64():
        return make(x.data * y.data + z.data, ty)
    # The product of two f32 (or narrower) values is exact in f64.
    wide = x.data.astype(np.float64) * y.data.astype(np.float64) + z.data.astype(np.float64)
    return make(wide, ty)
