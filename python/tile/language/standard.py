"""Triton's standard-library builtins written with the others: `tl.cumprod`,
`tl.xor_sum`, `tl.swizzle2d` (and the tensor methods `x.cumprod()`,
`x.xor_sum()`). As in `random.py`, each checks its arguments at the call and
inlines the @jit function of the same name, which compiled and interpreted
kernels share."""
from __future__ import annotations

from typing import Any, Callable

from ..errors import ConstantRequired, TileError
from ..runtime.jit import jit
from .. import language as tl
from . import types as T
from .core import _axis, library_builtin
from .semantic import tensor

ToValue = Callable[[Any], tensor]


@jit
def _multiply(a, b):
    return a * b


@jit
def _exclusive_or(a, b):
    return a ^ b


@jit
def _cumprod(input, axis: tl.constexpr, reverse: tl.constexpr):
    if input.dtype == tl.bfloat16:
        input = input.to(tl.float32)
    return tl.associative_scan(input, axis, _multiply, reverse)


@jit
def _xor_sum(input, axis: tl.constexpr, keep_dims: tl.constexpr):
    return tl.reduce(input, axis, _exclusive_or, keep_dims)


@jit
def _swizzle2d(i, j, size_i, size_j, size_g):
    # Row-major index, then its group of size_g rows (the last may be short),
    # then column-major within the group.
    linear = i * size_j + j
    group_size = size_g * size_j
    first_row = (linear // group_size) * size_g
    rows = tl.minimum(size_i - first_row, size_g)
    within = linear % group_size
    return first_row + within % rows, within // rows


def _block(to_value: ToValue, input: Any, what: str) -> tensor:
    x = to_value(input)
    if not x.is_block():
        raise TileError(f"{what} needs a block, got a scalar ({x.dtype})")
    if x.dtype.is_ptr():
        raise TileError(f"{what} needs numbers, not pointers ({x.dtype})")
    return x


def _flag(value: Any, what: str) -> bool:
    flag = T.unwrap(value)
    if isinstance(flag, tensor):
        raise ConstantRequired(f"{what} must be a compile-time constant, not a runtime value")
    return bool(flag)


@library_builtin(_cumprod)
def cumprod(to_value: ToValue, input: Any, axis: Any = 0, reverse: Any = False) -> list[Any]:
    """The cumulative product along `axis` (from the end with `reverse`), in
    the element type (bf16 in fp32, as Triton): integers wrap."""
    x = _block(to_value, input, "tl.cumprod")
    return [x, _axis(axis, len(x.shape)), _flag(reverse, "tl.cumprod's reverse")]


@library_builtin(_xor_sum)
def xor_sum(to_value: ToValue, input: Any, axis: Any = None,
            keep_dims: Any = False) -> list[Any]:
    """The bitwise xor of the elements along `axis` (all of them when None)."""
    x = _block(to_value, input, "tl.xor_sum")
    if not x.dtype.is_int():
        raise TileError(f"tl.xor_sum needs integers, got {x.dtype}")
    axis = None if T.unwrap(axis) is None else _axis(axis, len(x.shape))
    return [x, axis, _flag(keep_dims, "tl.xor_sum's keep_dims")]


@library_builtin(_swizzle2d)
def swizzle2d(to_value: ToValue, i: Any, j: Any, size_i: Any, size_j: Any,
              size_g: Any) -> list[Any]:
    """(i, j) of a row-major size_i x size_j grid -> its position when each
    group of size_g rows is walked column by column (tutorial 03's grouped
    ordering): returns (new_i, new_j)."""
    values = [to_value(v) for v in (i, j, size_i, size_j, size_g)]
    for name, value in zip(("i", "j", "size_i", "size_j", "size_g"), values):
        if not value.dtype.is_int() or value.dtype.is_bool():
            raise TileError(f"tl.swizzle2d: {name} must be an integer or a block of integers, "
                            f"got {value.dtype}")
    return values


for _name, _method in (("cumprod", cumprod), ("xor_sum", xor_sum)):
    setattr(tensor, _name, _method)

__all__ = ["cumprod", "xor_sum", "swizzle2d"]
