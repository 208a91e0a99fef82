"""`tile.language` for interpreted kernels: the builtins with Triton's names and
signatures, computed with NumPy on the current program.

Each builtin mirrors the one of the same name in `tile.language.core` (its
argument checks are those functions' helpers, reused). `namespace` is the
module an interpreted kernel sees as `tl`; every builtin of `tile.language`
must have a counterpart here (test_interpreter.py checks): a new builtin is
one function below.
"""
from __future__ import annotations

import builtins
import math
import sys
import types
from typing import Any, Callable, Iterator

import numpy as np

from .. import language as _tl
from ..errors import TileError
from ..language import core as C
from ..language import descriptors as D
from ..language import semantic as S
from ..language import math as M
from ..language import types as T
from ..language.core import (LOAD_CACHE_OPERATORS, STORE_CACHE_OPERATORS, _axis, _cache_hints,
                             _constexpr_int, _dtype, _no_block_pointer, _shape)
from ..language.types import unwrap
from . import libdevice, memory
from . import ops as O
from .program import current
from .values import (BlockTruthError, Tensor, bf16_bits, bf16_values, compute_dtype, constant,
                     convert_to_fp8, from_bits, held_as_bits, make, storage_dtype, to_bits, wrap_int)

_IMPLEMENTED: dict[str, Callable[..., Any]] = {}


def _implements(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Registers the interpreted version of the builtin of the same name."""
    _IMPLEMENTED[fn.__name__] = fn
    return fn


# ----------------------------------------------------------------------------
# Program identity and block creation
# ----------------------------------------------------------------------------

def _grid_axis(axis: Any, name: str, possessive: str) -> int:
    axis = _constexpr_int(axis, f"{possessive} axis")
    if axis not in (0, 1, 2):
        raise TileError(f"{name} axis must be 0, 1 or 2, got {axis}")
    return axis


@_implements
def add(x: Any, y: Any, sanitize_overflow: Any = True) -> Tensor:
    C._sanitize_overflow(sanitize_overflow, "tl.add")
    return O.add(x, y)


@_implements
def sub(x: Any, y: Any, sanitize_overflow: Any = True) -> Tensor:
    C._sanitize_overflow(sanitize_overflow, "tl.sub")
    return O.sub(x, y)


@_implements
def mul(x: Any, y: Any, sanitize_overflow: Any = True) -> Tensor:
    C._sanitize_overflow(sanitize_overflow, "tl.mul")
    return O.mul(x, y)


@_implements
def program_id(axis: Any = 0) -> Tensor:
    return constant(current().program[_grid_axis(axis, "program_id", "program_id's")], T.int32)


@_implements
def num_programs(axis: Any = 0) -> Tensor:
    return constant(current().grid[_grid_axis(axis, "num_programs", "num_programs'")], T.int32)


@_implements
def arange(start: Any, end: Any) -> Tensor:
    start = _constexpr_int(start, "arange's start")
    end = _constexpr_int(end, "arange's end")
    if end <= start:
        raise TileError(f"arange({start}, {end}) is empty: end must be greater than start")
    return make(np.arange(start, end), T.int32)


@_implements
def full(shape: Any, value: Any, dtype: Any) -> Tensor:
    shape, element = _shape(shape), _dtype(dtype)
    value = unwrap(value)
    scalar = O.cast(value, element) if isinstance(value, Tensor) else constant(value, element)
    return O.broadcast_to(scalar, shape) if shape else scalar


@_implements
def item(input: Any) -> Tensor:
    x = O.to_value(input)
    if not x.is_block():
        return x
    S.check_item(x.shape, x.dtype)
    return make(x.data.reshape(()), x.dtype)


@_implements
def zeros(shape: Any, dtype: Any = T.float32) -> Tensor:
    return full(shape, 0, dtype)


@_implements
def zeros_like(input: Tensor) -> Tensor:
    return full(input.shape, 0, input.dtype)


@_implements
def full_like(input: Tensor, value: Any) -> Tensor:
    return full(input.shape, value, input.dtype)


# ----------------------------------------------------------------------------
# Memory
# ----------------------------------------------------------------------------

def _pointer(pointer: Any, what: str) -> Tensor:
    ptr = O.to_value(pointer)
    if not ptr.dtype.is_ptr():
        raise TileError(f"tl.{what} needs a pointer or a block of pointers, got {ptr.dtype}")
    return ptr


def _mask(ptr: Tensor, mask: Any) -> tuple[Tensor, Tensor | None]:
    if unwrap(mask) is None:
        return ptr, None
    ptr, mask_value = O.broadcast_together(ptr, O.to_bool(O.to_value(mask)))
    return ptr, mask_value


@_implements
def load(pointer: Any, mask: Any = None, other: Any = None, boundary_check: Any = (),
         padding_option: Any = "", cache_modifier: Any = "", eviction_policy: Any = "",
         volatile: Any = False) -> Tensor:
    if isinstance(pointer, D.block_pointer):  # as compiled: the same @jit load
        C._no_mask_for_block_pointer(mask, other, "tl.load")
        _cache_hints(cache_modifier, eviction_policy, volatile, "tl.load", LOAD_CACHE_OPERATORS)
        return D.load_block_pointer(O.to_value, None, pointer, boundary_check, padding_option)
    ptr = _pointer(pointer, "load")
    # Checked as compiled; the CPU has no caches to steer.
    _no_block_pointer(boundary_check, padding_option, "tl.load")
    _cache_hints(cache_modifier, eviction_policy, volatile, "tl.load", LOAD_CACHE_OPERATORS)
    element = ptr.dtype.element_ty
    ptr, mask_value = _mask(ptr, mask)
    other_value = None
    if mask_value is not None and unwrap(other) is not None:
        other_value = O.broadcast_to(O.cast(O.to_value(other, element), element), ptr.shape)
    return memory.load(ptr, mask_value, other_value)


@_implements
def store(pointer: Any, value: Any, mask: Any = None, boundary_check: Any = (),
          cache_modifier: Any = "", eviction_policy: Any = "", volatile: Any = False) -> None:
    if isinstance(pointer, D.block_pointer):
        C._no_mask_for_block_pointer(mask, None, "tl.store")
        _cache_hints(cache_modifier, eviction_policy, volatile, "tl.store", STORE_CACHE_OPERATORS)
        D.store_block_pointer(O.to_value, None, pointer, value, boundary_check)
        return
    ptr = _pointer(pointer, "store")
    C.check_writable(ptr.dtype, "tl.store")
    _no_block_pointer(boundary_check, "", "tl.store")
    _cache_hints(cache_modifier, eviction_policy, volatile, "tl.store", STORE_CACHE_OPERATORS)
    element = ptr.dtype.element_ty
    value = O.cast(O.to_value(value, element), element)
    ptr, mask_value = _mask(ptr, mask)
    memory.store(ptr, O.broadcast_to(value, ptr.shape), mask_value)


# The combine of each atomic_rmw kind: the new value from the old one and the
# operand (both of the pointee type).
_ATOMIC_UPDATES: dict[str, Callable[[Tensor, Tensor], Tensor]] = {
    "add": O.add,
    "max": lambda old, v: O.minmax("max", old, v),
    "min": lambda old, v: O.minmax("min", old, v),
    "and": lambda old, v: O.bitwise("andi", old, v),
    "or": lambda old, v: O.bitwise("ori", old, v),
    "xor": lambda old, v: O.bitwise("xori", old, v),
    "xchg": lambda old, v: v,
}


def _atomic_operands(op: str, pointer: Any, operands: list[Any], mask: Any, sem: Any,
                     scope: Any) -> tuple[Tensor, list[Tensor], Tensor | None]:
    """The pointers, operands (of the pointee type) and mask of an atomic,
    checked as compiled and broadcast to the pointers' shape."""
    what = f"tl.atomic_{op}"
    ptr = O.to_value(pointer)
    C.atomic_pointee(ptr.dtype, op)
    C.atomic_order(sem, scope, what)
    return _pointee_operands(ptr, operands, mask, what)


def _atomic(op: str) -> Callable[..., Tensor]:
    def fn(pointer: Any, val: Any, mask: Any = None, sem: Any = None,
           scope: Any = None) -> Tensor:
        ptr, (value,), mask_value = _atomic_operands(op, pointer, [val], mask, sem, scope)
        return memory.read_modify_write(ptr, value, mask_value, _ATOMIC_UPDATES[op],
                                        f"atomic_{op}")
    fn.__name__ = fn.__qualname__ = f"atomic_{op}"
    return _implements(fn)


atomic_add = _atomic("add")
atomic_max = _atomic("max")
atomic_min = _atomic("min")
atomic_and = _atomic("and")
atomic_or = _atomic("or")
atomic_xor = _atomic("xor")
atomic_xchg = _atomic("xchg")


@_implements
def atomic_cas(pointer: Any, cmp: Any, val: Any, sem: Any = None, scope: Any = None) -> Tensor:
    ptr, (cmp_value, value), _ = _atomic_operands("cas", pointer, [cmp, val], None, sem, scope)
    return memory.compare_and_swap(ptr, cmp_value, value)


@_implements
def atomic_load(pointer: Any, mask: Any = None, sem: Any = None, scope: Any = None) -> Tensor:
    """A load (programs run one at a time: every order holds); 0 where masked off."""
    what = "tl.atomic_load"
    ptr = O.to_value(pointer)
    C.ordered_access(ptr, sem, scope, C.ORDERED_LOAD_SEMANTICS, what)
    _, (), mask_value = _pointee_operands(ptr, [], mask, what)
    return memory.load(ptr, mask_value, None)


@_implements
def atomic_store(pointer: Any, val: Any, mask: Any = None, sem: Any = None,
                 scope: Any = None) -> None:
    what = "tl.atomic_store"
    ptr = O.to_value(pointer)
    C.ordered_access(ptr, sem, scope, C.ORDERED_STORE_SEMANTICS, what)
    C.check_writable(ptr.dtype, what)
    ptr, (value,), mask_value = _pointee_operands(ptr, [val], mask, what)
    memory.store(ptr, value, mask_value)


def _pointee_operands(ptr: Tensor, operands: list[Any], mask: Any, what: str
                      ) -> tuple[Tensor, list[Tensor], Tensor | None]:
    """The operands (of the pointee type) and mask of an atomic, broadcast to
    the pointers' shape, as compiled."""
    element = ptr.dtype.element_ty
    values = [O.cast(O.to_value(v, element), element) for v in operands]
    mask_value = None
    if unwrap(mask) is not None:
        mask_value = O.to_value(mask)
        if not mask_value.dtype.is_bool():
            raise TileError(f"{what}'s mask must be boolean (tl.int1), got {mask_value.dtype}; "
                            "write a comparison such as offs < n")
    shape = C.atomic_shapes(ptr.shape, [*values, mask_value], what)
    values = [O.broadcast_to(v, shape) for v in values]
    if mask_value is not None:
        mask_value = O.broadcast_to(mask_value, shape)
    return ptr, values, mask_value


# ----------------------------------------------------------------------------
# Elementwise math
# ----------------------------------------------------------------------------

@_implements
def where(condition: Any, x: Any, y: Any) -> Tensor:
    return O.where(condition, x, y)


@_implements
def maximum(x: Any, y: Any, propagate_nan: Any = C.PropagateNan.NONE) -> Tensor:
    return O.minmax("max", x, y, C.propagates_nan(propagate_nan))


@_implements
def minimum(x: Any, y: Any, propagate_nan: Any = C.PropagateNan.NONE) -> Tensor:
    return O.minmax("min", x, y, C.propagates_nan(propagate_nan))


@_implements
def clamp(x: Any, min: Any, max: Any, propagate_nan: Any = C.PropagateNan.NONE) -> Tensor:
    propagate = C.propagates_nan(propagate_nan)
    return O.minmax("min", O.minmax("max", x, min, propagate), max, propagate)


def _float_math(op: str) -> Callable[..., Tensor]:
    def fn(x: Any) -> Tensor:
        return O.float_unary(op, x)
    fn.__name__ = fn.__qualname__ = op
    return _implements(fn)


for _op in ("exp", "exp2", "log", "log2", "sqrt", "rsqrt", "floor", "ceil", "sin", "cos"):
    _float_math(_op)


@_implements
def abs(x: Any) -> Tensor:
    x = O.to_value(x)
    if x.dtype.is_int_unsigned():
        return x
    return O.float_unary("absf", x) if x.dtype.is_floating() else O.abs_int(x)


@_implements
def fma(x: Any, y: Any, z: Any) -> Tensor:
    return O.fma(x, y, z)


@_implements
def sigmoid(x: Any) -> Tensor:
    x = O.to_value(x)
    if not x.dtype.is_floating():
        x = O.cast(x, T.float32)
    return O.truediv(1.0, O.add(1.0, O.float_unary("exp", O.minus(x))))


# tl.math's precise variants: libdevice calls when compiled (language/math.py),
# NumPy here, with the compiled typing (integers computed in f32, f16/bf16 in
# f32 and rounded back, f64 in f64). NumPy's f32 and f64 division and square
# root are correctly rounded, as libdevice's `_rn` functions.
def _libdevice_float(name: str, args: tuple[Any, ...], fn: Callable[..., np.ndarray]) -> Tensor:
    M.check_arity(name, M.FLOAT_FUNCTIONS[name][0], args)
    values = [unwrap(a) for a in args]
    like = next((v for v in values if isinstance(v, Tensor)), None)
    xs = [O.to_value(v, like.dtype if like is not None else None) for v in values]
    result, compute = M.float_function_types(name, [x.dtype for x in xs])
    xs = [O.cast(x, compute) for x in xs]
    O.check_broadcast(*xs)
    return O.cast(make(fn(*(x.data for x in xs)), compute), result)


def _fma_rn(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    # As tl.fma here: the f32 product is exact in f64, rounded once to f32
    # (ties aside); f64 is not fused.
    return x.astype(np.float64) * y + z


_MATH_FLOAT: dict[str, Callable[..., np.ndarray]] = {
    "div_rn": np.true_divide, "sqrt_rn": np.sqrt, "rint": np.rint, "fma_rn": _fma_rn,
    "erf": np.vectorize(math.erf, otypes=[np.float64]),
    "rcp_rn": np.reciprocal,
}
assert set(_MATH_FLOAT) == set(M.FLOAT_FUNCTIONS), "every tl.math float function, interpreted"
for _name, _fn in _MATH_FLOAT.items():
    def _precise(*args: Any, _name: str = _name,
                 _fn: Callable[..., np.ndarray] = _fn) -> Tensor:
        return _libdevice_float(_name, args, _fn)
    _precise.__name__ = _precise.__qualname__ = _name
    _implements(_precise)


@_implements
def fdiv(x: Any, y: Any, ieee_rounding: Any = False) -> Tensor:
    if unwrap(ieee_rounding):
        return _libdevice_float("div_rn", (x, y), np.true_divide)
    return O.truediv(x, y)


@_implements
def fast_expf(x: Any) -> Tensor:
    return O.float_unary("exp", O.cast(O.to_value(x), T.float32))


@_implements
def fast_dividef(x: Any, y: Any) -> Tensor:
    return O.truediv(O.cast(O.to_value(x), T.float32), O.cast(O.to_value(y), T.float32))


@_implements
def umulhi(x: Any, y: Any) -> Tensor:
    x, y = O.operands(x, y)
    common = M.umulhi_type(x.dtype, y.dtype)
    x, y = O.promote(x, y, common)
    bits = common.primitive_bitwidth
    # The high half of the unsigned 2N-bit product, as the type's bits: in
    # uint64 for 32-bit operands (exact), in Python integers for 64-bit ones.
    if bits == 32:
        wide = x.data.astype(np.uint32).astype(np.uint64) * y.data.astype(np.uint32)
        return make((wide >> np.uint64(32)).astype(np.uint32).view(compute_dtype(common)),
                    common)
    high = np.frompyfunc(
        lambda a, b: wrap_int((int(a) % 2**bits) * (int(b) % 2**bits) >> bits, common), 2, 1)
    return make(high(x.data, y.data), common)


@_implements
def extern_elementwise(lib_name: Any, lib_path: Any, args: Any, arg_type_symbol_dict: Any,
                       is_pure: Any = True) -> Tensor:
    raise TileError("tl.extern_elementwise calls a libdevice function, which the interpreter "
                    "has no version of; run the kernel compiled")


@_implements
def cdiv(x: Any, div: Any) -> Any:
    x, div = unwrap(x), unwrap(div)
    if not isinstance(x, Tensor) and not isinstance(div, Tensor):
        return (x + div - 1) // div
    return O.floordiv(O.sub(O.add(x, div), 1), div)


@_implements
def cast(input: Any, dtype: Any, fp_downcast_rounding: Any = None,
         bitcast: Any = False) -> Tensor:
    value, to = O.to_value(input), _dtype(dtype)
    src, rounding = value.dtype, unwrap(fp_downcast_rounding)
    if unwrap(bitcast):
        S.check_bitcast(src, to, rounding)
    else:
        S.check_rounding(src, to, rounding)
    if src == to:
        return value
    if src.is_ptr() or to.is_ptr():
        raise TileError(f"the interpreter does not cast {src} to {to} (its pointers are "
                        "offsets into their arrays); run the kernel compiled")
    if unwrap(bitcast):
        return _bitcast(value, to)
    if rounding == "rtz" and to.is_fp8():
        return convert_to_fp8(value.data, to, toward_zero=True)
    result = O.cast(value, to)
    return _toward_zero(value, result) if rounding == "rtz" else result


def _bits(x: Tensor) -> np.ndarray:
    """The element bits of `x` as unsigned integers of its width, in its
    shape (np.ascontiguousarray makes a scalar's 0-d data 1-d)."""
    if held_as_bits(x.dtype):
        return to_bits(x.data, x.dtype)
    data = np.ascontiguousarray(x.data.astype(storage_dtype(x.dtype)))
    return data.view(np.dtype(f"u{data.dtype.itemsize}")).reshape(x.data.shape)


def _bitcast(x: Tensor, to: Any) -> Tensor:
    """The same bits read as `to` (of the same width), as tile.bitcast."""
    bits = _bits(x)
    if held_as_bits(to):
        return make(from_bits(bits, to), to)
    return make(bits.view(storage_dtype(to)), to)


def _toward_zero(src: Tensor, rounded: Tensor) -> Tensor:
    """`rounded` (src rounded to nearest) moved one step toward zero where
    it rounded away from zero: cvt.rz."""
    exact = src.data.astype(np.float64)
    over = np.abs(rounded.data.astype(np.float64)) > np.abs(exact)
    if rounded.dtype.is_bf16():
        bits = bf16_bits(rounded.data).astype(np.uint32)
        stepped = bf16_values((bits & 0x8000) | ((bits & 0x7FFF) - 1))
    else:
        stepped = np.nextafter(rounded.data, np.zeros_like(rounded.data))
    return make(np.where(over, stepped, rounded.data), rounded.dtype)


# ----------------------------------------------------------------------------
# Shapes
# ----------------------------------------------------------------------------

def _dims(args: tuple[Any, ...]) -> list[int]:
    return _shape(args[0]) if len(args) == 1 else _shape(args)


@_implements
def reshape(input: Tensor, *shape: Any, can_reorder: Any = False) -> Tensor:
    return O.reshape(O.to_value(input), _dims(shape))


@_implements
def view(input: Tensor, *shape: Any, can_reorder: Any = False) -> Tensor:
    return reshape(input, *shape, can_reorder=can_reorder)


@_implements
def ravel(x: Tensor, can_reorder: Any = False) -> Tensor:
    x = O.to_value(x)
    return O.reshape(x, [x.numel])


@_implements
def trans(input: Tensor, *dims: Any) -> Tensor:
    order = _shape(dims[0]) if len(dims) == 1 else (
        [_constexpr_int(d, "dim") for d in dims] if dims else None)
    return O.trans(input, order)


@_implements
def permute(input: Tensor, *dims: Any) -> Tensor:
    return trans(input, *dims)


@_implements
def broadcast_to(input: Any, *shape: Any) -> Tensor:
    return O.broadcast_to(O.to_value(input), _dims(shape))


@_implements
def broadcast(input: Any, other: Any) -> tuple[Tensor, Tensor]:
    return tuple(O.broadcast_together(O.to_value(input), O.to_value(other)))  # type: ignore


@_implements
def expand_dims(input: Any, axis: Any) -> Tensor:
    x = O.to_value(input)
    axes = unwrap(axis)
    axes = list(axes) if isinstance(axes, (list, tuple)) else [axes]
    rank = len(x.shape) + len(axes)
    for a in sorted(_constexpr_int(a, "axis") % rank for a in axes):
        x = O.expand_dims(x, a)
    return x


# ----------------------------------------------------------------------------
# Reductions and scans
# ----------------------------------------------------------------------------

# A combine of groups of blocks (one per reduced or scanned operand): the
# earlier elements, the later ones, and the combined ones.
Combine = Callable[[list[Tensor], list[Tensor]], list[Tensor]]


def _builtin_combine(kind: str) -> Combine:
    """The combine of a built-in reduction, as the compiled kernel (i1: xor,
    or, and; floats: max/min propagate NaN, maxnum/minnum ignore it; umax/umin
    for unsigned integers)."""
    if kind == "sum":
        return lambda a, b: [O.add(a[0], b[0])]
    which = kind.removeprefix("u").removesuffix("num")  # minmax orders unsigned as unsigned
    return lambda a, b: [O.minmax(which, a[0], b[0], propagate_nan=not kind.endswith("num"))]


def _custom_combine(combine_fn: Any, elements: list[T.dtype]) -> Combine:
    """A @jit combine function applied to blocks of operands at once; where it
    branches on its operands (`if a < b:`), one element at a time."""
    from .runner import callable_jit
    fn = callable_jit(combine_fn)
    if fn is None:
        raise TileError(f"the combine function must be a @tile.jit function, got {combine_fn!r}")

    def scalar_results(result: Any, like: list[Tensor]) -> list[Tensor]:
        results = list(result) if isinstance(result, (tuple, list)) else [result]
        if len(results) != len(elements):
            raise TileError(f"the combine function {combine_fn.__name__} returns "
                            f"{len(results)} value{'s' if len(results) != 1 else ''}; "
                            f"combining {len(elements)} block"
                            f"{'s' if len(elements) != 1 else ''} it must return "
                            f"{len(elements)}")
        return [O.cast(O.to_value(r, x.dtype), element)
                for r, x, element in zip(results, like, elements)]

    def combine(a: list[Tensor], b: list[Tensor]) -> list[Tensor]:
        try:
            return [O.broadcast_to(r, a[0].shape) for r in scalar_results(fn(*a, *b), a)]
        except BlockTruthError:
            pass
        outs = [np.empty(x.data.shape, dtype=x.data.dtype) for x in a]
        for index in np.ndindex(*a[0].data.shape):
            earlier = [Tensor(x.data[index], x.dtype) for x in a]
            later = [Tensor(x.data[index], x.dtype) for x in b]
            for out, r in zip(outs, scalar_results(fn(*earlier, *later), earlier)):
                out[index] = r.data
        return [make(out, element) for out, element in zip(outs, elements)]
    return combine


def _take(x: Tensor, axis: int, index: Any) -> Tensor:
    selector = [slice(None)] * x.data.ndim
    selector[axis] = index
    return Tensor(x.data[tuple(selector)], x.dtype)


def _concat(first: list[Tensor], rest: list[Tensor], axis: int) -> list[Tensor]:
    return [Tensor(np.concatenate([f.data, r.data], axis=axis), r.dtype)
            for f, r in zip(first, rest)]


def _reduce_axis(xs: list[Tensor], axis: int, combine: Combine) -> list[Tensor]:
    """Combines neighbours pairwise, in order, until one element is left along
    `axis` (a tree, as the GPU reduces; associativity is all it needs)."""
    while xs[0].shape[axis] > 1:
        n = xs[0].shape[axis]
        pairs = combine([_take(x, axis, slice(0, n - 1, 2)) for x in xs],
                        [_take(x, axis, slice(1, n, 2)) for x in xs])
        if n % 2:
            pairs = _concat(pairs, [_take(x, axis, slice(n - 1, n)) for x in xs], axis)
        xs = pairs
    return [_take(x, axis, 0) for x in xs]


def _reduce_blocks(kind: str, xs: list[Tensor], axis: Any, keep_dims: Any,
                   combine_fn: Any = None) -> list[Tensor]:
    if unwrap(axis) is None:  # reduce everything: flatten first
        keep_rank = len(xs[0].shape) if unwrap(keep_dims) else 0
        xs, axis = [O.reshape(x, [x.numel]) for x in xs], 0
    else:
        keep_rank = 0
    axis = _axis(axis, len(xs[0].shape))
    combine = _custom_combine(combine_fn, [x.dtype for x in xs]) if kind == "custom" \
        else _builtin_combine(kind)
    results = _reduce_axis(xs, axis, combine)
    if unwrap(keep_dims):
        if keep_rank:
            return [O.reshape(r, [1] * keep_rank) for r in results]
        results = [O.expand_dims(r, axis) for r in results]
    return results


def _reduce(kind: str, input: Any, axis: Any, keep_dims: Any) -> Tensor:
    """A builtin reduction (`sum`, `max`, ...) of one block."""
    x = O.to_value(input)
    if not x.is_block():
        return x
    S.check_reduction_type(kind, x.dtype)
    if kind == "sum" and x.dtype.is_int() and x.dtype.primitive_bitwidth < 32:
        x = O.cast(x, T.int32)  # Triton sums narrow integers in int32
    if kind in ("max", "min"):
        kind = S.extreme_kind(kind, x.dtype)
    return _reduce_blocks(kind, [x], axis, keep_dims)[0]


def _custom_blocks(input: Any, what: str) -> tuple[list[Tensor], bool]:
    inputs, is_tuple = C.combine_operands(input, what)
    xs = [O.to_value(x) for x in inputs]
    if not all(x.is_block() for x in xs):
        raise TileError(f"{what} needs blocks, got a scalar")
    if any(x.shape != xs[0].shape for x in xs):
        raise TileError(f"{what}: the blocks must have one shape, got "
                        f"{', '.join(str(list(x.shape)) for x in xs)}")
    return xs, is_tuple


@_implements
def sum(input: Any, axis: Any = None, keep_dims: Any = False, dtype: Any = None) -> Tensor:
    if unwrap(dtype) is not None:
        input = O.cast(O.to_value(input), _dtype(dtype))
    return _reduce("sum", input, axis, keep_dims)


def _extreme_reduction(kind: str) -> None:
    def extreme(input: Any, axis: Any = None, return_indices: Any = False,
                return_indices_tie_break_left: Any = True, keep_dims: Any = False) -> Any:
        if unwrap(return_indices):
            return (_reduce(kind, input, axis, keep_dims),
                    _arg_reduce(kind, input, axis, keep_dims, return_indices_tie_break_left))
        return _reduce(kind, input, axis, keep_dims)
    extreme.__name__ = extreme.__qualname__ = kind
    _implements(extreme)


_extreme_reduction("max")
_extreme_reduction("min")


def _arg_reduce(kind: str, input: Any, axis: Any, keep_dims: Any,
                tie_break_left: Any = True) -> Tensor:
    """As the frontend: reduce, compare with the broadcast extreme, and take the
    smallest index where it is reached (the largest without `tie_break_left`)."""
    x = O.to_value(input)
    if unwrap(axis) is None:
        x, axis = O.reshape(x, [x.numel]), 0
    axis = _axis(axis, len(x.shape))
    extreme = _reduce_axis([x], axis, _builtin_combine(S.extreme_kind(kind, x.dtype)))[0]
    hit = O.compare("eq", x, O.broadcast_to(O.expand_dims(extreme, axis), x.shape))
    if x.dtype.is_floating():  # a line of NaNs: every element is the extreme
        all_nan = O.compare("ne", extreme, extreme)
        hit = O.bitwise("ori", hit, O.broadcast_to(O.expand_dims(all_nan, axis), x.shape))
    shape = [1] * len(x.shape)
    shape[axis] = x.shape[axis]
    index = O.broadcast_to(O.reshape(arange(0, x.shape[axis]), shape), x.shape)
    if unwrap(tie_break_left):
        result = _reduce_axis([O.where(hit, index, x.shape[axis])], axis,
                              _builtin_combine("min"))[0]
    else:
        result = _reduce_axis([O.where(hit, index, -1)], axis, _builtin_combine("max"))[0]
    return O.expand_dims(result, axis) if unwrap(keep_dims) else result


@_implements
def argmax(input: Any, axis: Any, tie_break_left: Any = True, keep_dims: Any = False) -> Tensor:
    return _arg_reduce("max", input, axis, keep_dims, tie_break_left)


@_implements
def argmin(input: Any, axis: Any, tie_break_left: Any = True, keep_dims: Any = False) -> Tensor:
    return _arg_reduce("min", input, axis, keep_dims, tie_break_left)


@_implements
def reduce(input: Any, axis: Any, combine_fn: Any, keep_dims: Any = False) -> Any:
    xs, is_tuple = _custom_blocks(input, "tl.reduce")
    results = _reduce_blocks("custom", xs, axis, keep_dims, combine_fn)
    return tuple(results) if is_tuple else results[0]


def _scan_axis(xs: list[Tensor], axis: int, combine: Combine, reverse: bool) -> list[Tensor]:
    """Inclusive scan by doubling strides (Hillis-Steele): log2(n) combines of
    whole blocks, each combining an earlier partial result with a later one."""
    if reverse:
        # Triton's reverse scan: the forward scan of the flipped line, flipped
        # back, so the combine takes what is accumulated from the end first.
        flipped = _scan_axis([Tensor(np.flip(x.data, axis), x.dtype) for x in xs], axis,
                             combine, False)
        return [Tensor(np.flip(f.data, axis).copy(), f.dtype) for f in flipped]
    n, stride = xs[0].shape[axis], 1
    while stride < n:
        later = combine([_take(x, axis, slice(0, n - stride)) for x in xs],
                        [_take(x, axis, slice(stride, n)) for x in xs])
        xs = _concat([_take(x, axis, slice(0, stride)) for x in xs], later, axis)
        stride *= 2
    return xs


def _scan(kind: str, input: Any, axis: Any, reverse: Any) -> Tensor:
    """A builtin scan (`cumsum`, ...) of one block."""
    x = O.to_value(input)
    if not x.is_block():
        raise TileError("a scan needs a block")
    axis = _axis(axis, len(x.shape))
    if kind == "sum" and x.dtype.is_int() and x.dtype.primitive_bitwidth < 32:
        x = O.cast(x, T.int32)
    if kind in ("max", "min"):
        kind = S.extreme_kind(kind, x.dtype)
    return _scan_axis([x], axis, _builtin_combine(kind), bool(unwrap(reverse)))[0]


@_implements
def cumsum(input: Any, axis: Any = 0, reverse: Any = False) -> Tensor:
    return _scan("sum", input, axis, reverse)


@_implements
def cummax(input: Any, axis: Any = 0, reverse: Any = False) -> Tensor:
    return _scan("max", input, axis, reverse)


@_implements
def associative_scan(input: Any, axis: Any, combine_fn: Any, reverse: Any = False) -> Any:
    xs, is_tuple = _custom_blocks(input, "tl.associative_scan")
    axis = _axis(axis, len(xs[0].shape))
    results = _scan_axis(xs, axis, _custom_combine(combine_fn, [x.dtype for x in xs]),
                         bool(unwrap(reverse)))
    return tuple(results) if is_tuple else results[0]


@_implements
def inline_asm_elementwise(asm: Any, constraints: Any, args: Any, dtype: Any, is_pure: Any,
                           pack: Any) -> Any:
    raise TileError("tl.inline_asm_elementwise runs PTX on the GPU: the interpreter cannot "
                    "run it (compile the kernel, or write the operation with tl builtins)")


@_implements
def map_elementwise(scalar_fn: Any, *args: Any, pack: Any = 1) -> Any:
    """The scalar function called on `pack` elements of each argument at a
    time, in row-major order (a short last group repeats its last element;
    those results are dropped)."""
    from .runner import callable_jit
    what = "tl.map_elementwise"
    fn = callable_jit(scalar_fn)
    if fn is None:
        raise TileError(f"{what}: the scalar function must be a @tile.jit function, "
                        f"got {scalar_fn!r}")
    if not args:
        raise TileError(f"{what} needs at least one input tensor")
    values = O.broadcast_together(*[O.to_value(a) for a in args])
    C.check_numbers([v.dtype for v in values], what)
    shape = list(values[0].shape)
    pack = C.map_pack(pack, shape, what)
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    flat = [v.data.reshape(-1) for v in values]
    single, types, outs = True, None, []
    for first in builtins.range(0, count, pack):
        group = [builtins.min(first + i, count - 1) for i in builtins.range(pack)]
        scalars = [Tensor(data[i], v.dtype) for v, data in zip(values, flat) for i in group]
        result = fn(*scalars)
        single = not isinstance(result, (tuple, list))
        results = [O.to_value(r) for r in ([result] if single else result)]
        if any(r.is_block() for r in results):
            raise TileError(f"{what}: {scalar_fn.__name__} must return scalars, got "
                            f"{', '.join(str(r.dtype) for r in results)}")
        got = C.mapped_result_types(scalar_fn.__name__, [r.dtype for r in results], pack)
        C.check_numbers(got, what)
        if types is None:
            types = got
            outs = [np.empty(count, dtype=r.data.dtype) for r in results[::pack]]
        elif got != types:
            raise TileError(f"{what}: {scalar_fn.__name__} returns "
                            f"{', '.join(str(t) for t in got)} here but "
                            f"{', '.join(str(t) for t in types)} for earlier elements")
        for index, out in enumerate(outs):
            for i in builtins.range(pack):
                if first + i < count:
                    out[first + i] = results[index * pack + i].data
    results = [make(out.reshape(shape) if shape else out[0], t) for out, t in zip(outs, types)]
    return results[0] if single else tuple(results)


# ----------------------------------------------------------------------------
# gather, histogram
# ----------------------------------------------------------------------------

@_implements
def gather(src: Any, index: Any, axis: Any) -> Tensor:
    """As compiled, with an index outside the source an error (compiled, it
    reads some element of the source)."""
    x, idx = O.to_value(src), O.to_value(index)
    if not x.is_block() or not idx.is_block():
        raise TileError("tl.gather needs blocks")
    if not idx.dtype.is_int():
        raise TileError(f"tl.gather: the index must be integers, got {idx.dtype}")
    if len(idx.shape) != len(x.shape):
        raise TileError(f"tl.gather: the index has rank {len(idx.shape)} but the source "
                        f"has rank {len(x.shape)}; they must have the same rank")
    axis = _axis(axis, len(x.shape))
    for d, (i, e) in enumerate(zip(idx.shape, x.shape)):
        if d != axis and i != e:
            raise TileError(f"tl.gather: the index's shape {list(idx.shape)} and the "
                            f"source's {list(x.shape)} may differ only along axis {axis}")
    positions = np.asarray(idx.data).astype(np.int64)
    outside = (positions < 0) | (positions >= x.shape[axis])
    if outside.any():
        at = tuple(int(i) for i in np.argwhere(outside)[0])
        raise TileError(f"tl.gather: index {int(positions[at])} at {at} is outside the "
                        f"source's extent {x.shape[axis]} along axis {axis}")
    return make(np.take_along_axis(np.asarray(x.data), positions, axis), x.dtype)


@_implements
def histogram(input: Any, num_bins: Any, mask: Any = None) -> Tensor:
    x = O.to_value(input)
    if not x.is_block() or len(x.shape) != 1:
        raise TileError(f"tl.histogram takes a rank-1 block, got shape {list(x.shape)}")
    if x.dtype != T.int32:
        raise TileError(f"tl.histogram takes int32 values, got {x.dtype}")
    bins = unwrap(num_bins)
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 1:
        raise TileError(f"tl.histogram: num_bins must be a positive compile-time int, "
                        f"got {bins!r}")
    values = np.asarray(x.data).astype(np.int64)
    keep = (values >= 0) & (values < bins)
    if unwrap(mask) is not None:
        m = O.broadcast_to(O.to_value(mask), x.shape)
        if not m.dtype.is_bool():
            raise TileError(f"tl.histogram: the mask must be boolean, got {m.dtype}")
        keep &= np.asarray(m.data).astype(bool)
    return make(np.bincount(values[keep], minlength=bins).astype(np.int32), T.int32)


# ----------------------------------------------------------------------------
# dot
# ----------------------------------------------------------------------------

@_implements
def dot(input: Any, other: Any, acc: Any = None, input_precision: Any = None,
        allow_tf32: Any = None, max_num_imprecise_acc: Any = None,
        out_dtype: Any = T.float32) -> Tensor:
    """The compiler's typing (core.dot_operand_types): float operands with
    products and sums in f32 (as the compiled kernel's f32 FMA loop; the
    order of the sums differs), int8 ones exactly in int32, fp64 in fp64;
    rank-3 blocks are a batch of products. tf32 is not modelled: f32
    operands keep their bits (python/tile/README.md)."""
    C.dot_reads_tf32(input_precision, allow_tf32)  # the compiler's checks
    a, b = O.to_value(input), O.to_value(other)
    result_shape = C.check_dot_shapes(list(a.shape), list(b.shape))
    operand, accumulator_type = C.dot_operand_types(a.dtype, b.dtype)
    a, b = O.cast(a, operand), O.cast(b, operand)
    if unwrap(acc) is None:
        out = C.dot_result_type(operand, accumulator_type, None, out_dtype)
        accumulator = full(result_shape, 0, accumulator_type)
    else:
        accumulator = O.to_value(acc)
        if list(accumulator.shape) != result_shape:
            raise TileError(f"tl.dot accumulator has shape {list(accumulator.shape)}, "
                            f"expected {result_shape}")
        C.check_dot_accumulator(accumulator_type, accumulator.dtype)
        out = C.dot_result_type(operand, accumulator_type, accumulator.dtype, out_dtype)
        accumulator = O.cast(accumulator, accumulator_type)
    wide = {T.int32: np.int32, T.float64: np.float64}.get(accumulator_type, np.float32)
    # int32 products of int8s and their sums wrap as the compiled i32 ones do.
    with np.errstate(over="ignore"):
        products = np.matmul(a.data.astype(wide), b.data.astype(wide))
        total = accumulator.data + products
    return O.cast(make(total.astype(wide), accumulator_type), out)


# ----------------------------------------------------------------------------
# Compile-time helpers and hints
# ----------------------------------------------------------------------------

# Builtins that never touch the IR builder: the frontend's own functions.
for _name in ("static_assert",):
    _implements(getattr(C, _name).__wrapped__)


@_implements
def debug_barrier() -> None:
    """Nothing to wait for: a program's elements run together, in order."""


def format_element(value: Any, dtype: T.dtype, hex: bool) -> str:
    """One value as the compiled tile.print prints it (lib/Conversion/TileToGPU/
    Debug.cpp): integers decimal (i1 as 0/1) or zero-padded hexadecimal of
    their width, floats %f or the hexadecimal of their bits, pointers %p."""
    if dtype.is_ptr():
        return f"0x{int(value):x}"
    bits = dtype.primitive_bitwidth
    if hex:
        if held_as_bits(dtype):  # bf16, fp8
            raw = int(to_bits(np.asarray(value), dtype))
        elif dtype.is_floating():
            raw = int(np.asarray(value).view(f"u{bits // 8}"))
        else:
            raw = int(value) % (1 << bits)
        return f"0x{raw:0{max(1, bits // 4)}x}"
    if dtype.is_floating():
        return f"{float(value):f}"
    return str(int(value))


@_implements
def device_print(prefix: Any, *args: Any, hex: Any = False) -> None:
    """Prints as the compiled kernel does, one line per element (and one per
    scalar): `pid (x, y, z) idx (i, j) prefix value`."""
    values = [O.to_value(a) for a in args]
    prefix = C.print_prefix(prefix, bool(values))
    pid = "pid ({}, {}, {})".format(*current().program)
    hex = bool(unwrap(hex))
    if not values:
        print(pid + prefix)
    for index, value in enumerate(values):
        operand = f"(operand {index}) " if len(values) > 1 else ""
        if not value.is_block():
            print(f"{pid}{prefix}{operand}{format_element(value.data, value.dtype, hex)}")
            continue
        for at in np.ndindex(*value.shape):
            where = ", ".join(str(i) for i in at)
            print(f"{pid} idx ({where}){prefix}{operand}"
                  f"{format_element(value.data[at], value.dtype, hex)}")


@_implements
def device_assert(cond: Any, msg: Any = "", mask: Any = None) -> None:
    """With debugging on, a false element (where `mask` holds) is an error at
    the assertion's line."""
    message = unwrap(msg)
    if not isinstance(message, str):
        raise TileError(f"tl.device_assert: the message must be a string, got {message!r}")
    if not current().debug:
        return
    holds = np.asarray(O.to_value(cond).data).astype(bool)
    if unwrap(mask) is not None:
        holds = holds | ~np.asarray(O.to_value(mask).data).astype(bool)
    if not holds.all():
        failed = tuple(int(i) for i in np.argwhere(~holds)[0])
        where = f" at index {failed}" if failed else ""
        raise TileError(f"device assertion failed{where}: {message}" if message
                        else f"device assertion failed{where}")


def _hinted(input: Any, values: Any, what: str) -> Any:
    """The hints are facts for the compiler's analysis: checked for Triton's
    argument rules as the compiler checks them, the value unchanged."""
    x = unwrap(input)
    if isinstance(x, int) and not isinstance(x, bool):
        C._hint_values([], values, what)
        return input
    if not isinstance(x, Tensor) or not (x.dtype.is_int() or x.dtype.is_ptr()):
        kind = x.dtype if isinstance(x, Tensor) else repr(x)
        raise TileError(f"tl.{what} applies to integer and pointer values, not {kind}")
    C._hint_values(x.shape, values, what)
    return input


@_implements
def multiple_of(input: Any, values: Any) -> Any:
    return _hinted(input, values, "multiple_of")


@_implements
def max_contiguous(input: Any, values: Any) -> Any:
    return _hinted(input, values, "max_contiguous")


@_implements
def max_constancy(input: Any, values: Any) -> Any:
    return _hinted(input, values, "max_constancy")


@_implements
def assume(cond: Any) -> None:
    """The compiled kernel takes the condition as given (a false one is
    undefined behaviour); the interpreter checks it."""
    c = unwrap(cond)
    if isinstance(c, Tensor):
        if c.is_block():
            raise TileError(f"tl.assume needs a scalar condition, not a block of shape "
                            f"{list(c.shape)}")
        if not c.dtype.is_bool():
            raise TileError(f"tl.assume needs a boolean condition, not {c.dtype}")
        c = bool(c.data)
    if not c:
        raise TileError("tl.assume: the condition is false")
    return None


@_implements
def static_print(*values: Any) -> None:
    """Prints once per launch and call site, as the compiler prints once."""
    caller = sys._getframe(1)
    if current().first_time(("static_print", caller.f_code, caller.f_lasti)):
        print(*(unwrap(v) for v in values))


# ----------------------------------------------------------------------------
# Builtins written as @jit functions (tl.rand, tl.cumprod, ...)
# ----------------------------------------------------------------------------

def _library(name: str, impl: Any, prepare: Callable[..., list[Any]]) -> None:
    """The compiled builtin's @jit function, run interpreted on the
    arguments its `prepare` checked (as compiled)."""
    def fn(*args: Any, **kwargs: Any) -> Any:
        from .runner import callable_jit
        values = C.library_arguments(prepare, name, args, kwargs, O.to_value)
        return callable_jit(impl)(*values)
    fn.__name__ = fn.__qualname__ = name
    _implements(fn)


for _name, (_impl, _prepare) in C.LIBRARY.items():
    _library(_name, _impl, _prepare)

# Tensor descriptors and block pointers: their builtins serve both (no builder: here).
_IMPLEMENTED.update(D.BUILTINS)


# ----------------------------------------------------------------------------
# Loops
# ----------------------------------------------------------------------------

class static_range(C.static_range):
    """`tl.static_range`: the compiler unrolls it; here, a loop over Python ints."""

    def __iter__(self) -> Iterator[int]:
        for bound in (self.start, self.end, self.step):
            if not isinstance(bound, int):
                raise TileError("tl.static_range bounds must be compile-time integers, "
                                f"got {bound!r}")
        return iter(builtins.range(self.start, self.end, self.step))


class range(C.range):  # noqa: A001 - Triton's name
    """`range(...)`/`tl.range(...)` in a kernel: a loop whose index is an i32 (i64
    if a bound is 64-bit) runtime value, as the compiler's `scf.for`."""

    def __iter__(self) -> Iterator[Tensor]:
        bounds = [O.to_value(v) for v in (self.start, self.end, self.step)]
        for bound in bounds:
            if bound.is_block() or not bound.dtype.is_int():
                raise TileError(f"range bounds must be integer scalars, got {bound.type}")
        iv_type = T.int64 if any(v.dtype.primitive_bitwidth == 64 for v in bounds) \
            else T.int32
        lower, upper, step = (O.cast(v, iv_type).python_scalar() for v in bounds)
        if step == 0 or (step < 0 and isinstance(self.step, Tensor)):
            raise TileError(f"range step must be positive or a negative constant, got {step} "
                            "(a runtime step counts up while the index is below the end)")
        return (constant(i, iv_type) for i in builtins.range(lower, upper, step))


def _python_extreme(which: str) -> Callable[..., Any]:
    """Python's min/max in a kernel: on runtime values, tl.minimum/maximum
    (ignoring NaN), as the compiler treats them."""
    python = getattr(builtins, which)

    def extreme(*args: Any, **kwargs: Any) -> Any:
        if any(isinstance(unwrap(a), Tensor) for a in args):
            result = args[0]
            for other in args[1:]:
                result = O.minmax(which, result, other)
            return result
        return python(*args, **kwargs)
    extreme.__name__ = which
    return extreme


# Names a kernel finds in builtins that mean something else in a kernel.
PYTHON_BUILTINS = {"range": range, "min": _python_extreme("min"),
                   "max": _python_extreme("max")}


# ----------------------------------------------------------------------------
# Tensor methods and operators; the namespace
# ----------------------------------------------------------------------------

def _to(self: Tensor, dtype: Any, fp_downcast_rounding: Any = None, bitcast: Any = False
        ) -> Tensor:
    return cast(self, dtype, fp_downcast_rounding, bitcast)


def _setitem(self: Tensor, index: Any, value: Any) -> None:
    raise TileError(S.NOT_ASSIGNABLE)


def _getitem(self: Tensor, index: Any) -> Tensor:
    """`x[:, None]`: only `:` and `None` entries, as the compiler allows."""
    entries = list(index) if isinstance(index, tuple) else [index]
    result, axis = self, 0
    for entry in entries:
        if unwrap(entry) is None:
            result = O.expand_dims(result, axis) if result.is_block() else \
                O.broadcast_to(result, [1])
        elif not (isinstance(entry, slice) and all(
                unwrap(part) is None for part in (entry.start, entry.stop, entry.step))):
            raise TileError(S.NO_ELEMENT_ACCESS)
        axis += 1
    S.check_subscript(builtins.sum(1 for e in entries if isinstance(e, slice)),
                      self.shape if self.is_block() else None)
    return result


def _unsupported(name: str) -> Callable[..., Any]:
    def missing(*args: Any, **kwargs: Any) -> Any:
        raise TileError(f"tl.{name} is not supported by the interpreter yet")
    missing.__name__ = name
    missing.__tile_interpreter_missing__ = True  # type: ignore[attr-defined]
    return missing


def _operators() -> dict[str, Any]:
    def binary(fn: Callable[[Any, Any], Tensor]) -> tuple[Any, Any]:
        return (lambda self, other: fn(self, other)), (lambda self, other: fn(other, self))

    table: dict[str, Any] = {}
    for name, fn in {"add": O.add, "sub": O.sub, "mul": O.mul, "truediv": O.truediv,
                     "floordiv": O.floordiv, "mod": O.mod, "pow": O.power,
                     "and": lambda x, y: O.bitwise("andi", x, y),
                     "or": lambda x, y: O.bitwise("ori", x, y),
                     "xor": lambda x, y: O.bitwise("xori", x, y),
                     "lshift": lambda x, y: O.bitwise("shli", x, y),
                     "rshift": lambda x, y: O.bitwise("shr", x, y)}.items():
        table[f"__{name}__"], table[f"__r{name}__"] = binary(fn)
    for name in ("lt", "le", "gt", "ge", "eq", "ne"):
        table[f"__{name}__"] = (lambda pred: lambda self, other: O.compare(pred, self, other))(
            name)
    table["__neg__"] = O.minus
    table["__pos__"] = lambda self: self
    table["__invert__"] = O.invert
    table["__getitem__"] = _getitem
    table["__setitem__"] = _setitem
    table["T"] = property(lambda self: O.trans(self, None))
    return table


# Each compiled builtin (by identity) -> its interpreted counterpart.
_COUNTERPARTS: dict[int, Callable[..., Any]] = {}


def _interpreted_module(source: types.ModuleType, name: str,
                        implementations: Callable[[str], Callable[..., Any] | None]
                        ) -> types.ModuleType:
    """`source` for interpreted kernels: its builtins replaced by
    `implementations(name)` (a located error where there is none), the rest kept."""
    module = types.ModuleType(name, f"{name}, interpreted (NumPy)")
    for attr in dir(source):
        if attr.startswith("_"):
            continue
        value = getattr(source, attr)
        if C.is_builtin(value):
            compiled, value = value, implementations(attr) or _unsupported(attr)
            _COUNTERPARTS.setdefault(id(compiled), value)
        setattr(module, attr, value)
    return module


def _build_namespace() -> types.ModuleType:
    module = _interpreted_module(_tl, "tile.language", _IMPLEMENTED.get)
    module.tensor = Tensor
    module.range = range
    module.static_range = static_range
    module.core = module
    module.math = _interpreted_module(_tl.math, "tile.language.math", _IMPLEMENTED.get)
    module.extra = libdevice.extra_module(_interpreted_module)
    return module


def modules() -> list[types.ModuleType]:
    """The modules interpreted kernels see as `tl`, `tl.math` and libdevice."""
    return [namespace, namespace.math, namespace.extra.cuda, namespace.extra.libdevice]


def counterpart(builtin: Any) -> Callable[..., Any]:
    """The interpreted version of a compiled builtin (however the kernel named it)."""
    found = _COUNTERPARTS.get(id(builtin))
    return found if found is not None else _unsupported(builtin.__name__)


namespace = _build_namespace()

for _name, _value in _operators().items():
    setattr(Tensor, _name, _value)
# The tensor methods (x.to, x.sum, ...): those `tile.language.tensor` has.
for _name in dir(C.tensor):
    if C.is_builtin(getattr(C.tensor, _name)):
        setattr(Tensor, _name, _to if _name == "to" else
                (_IMPLEMENTED.get(_name) or _unsupported(_name)))
