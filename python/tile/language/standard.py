"""Triton's standard-library builtins written with the others: `tl.cumprod`,
`tl.xor_sum`, `tl.swizzle2d`, `tl.flip`, `tl.join`, `tl.split`,
`tl.interleave`, `tl.cat`, `tl.sort`, `tl.topk`, `tl.bitonic_merge`,
`tl.softmax`, `tl.reduce_or`, and the tensor methods `x.logical_and(y)`,
`x.logical_or(y)` (tile.language registers the tensor methods). As in
`random.py`, each checks its arguments at the call and
inlines the @jit function of the same name, which compiled and interpreted
kernels share."""
from __future__ import annotations

from typing import Any, Callable

from ..errors import ConstantRequired, TileError
from ..runtime.jit import jit
from .. import language as tl
from . import types as T
from .core import _axis, library_builtin
from .semantic import broadcast_shapes, tensor

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


@jit
def _flip(input, halves: tl.constexpr, dim: tl.constexpr, steps: tl.constexpr,
          bits: tl.constexpr):
    # The flipped axis as `steps` axes of two: reversing it reverses each.
    # Along an axis of two holding (a, b), y ^ (a ^ b) is (b, a); on the
    # elements' bits, so every value (NaNs, -0.0) moves unchanged.
    y = tl.reshape(input.to(bits, bitcast=True), halves)
    for i in tl.static_range(steps):
        y = y ^ tl.xor_sum(y, dim + i, True)
    return tl.reshape(y, input.shape).to(input.dtype, bitcast=True)


_BITS = {1: tl.int1, 8: tl.int8, 16: tl.int16, 32: tl.int32, 64: tl.int64}


@jit
def _bitonic_merge(y, index, downward, rounds: tl.constexpr, last: tl.constexpr,
                   steps: tl.constexpr, bits: tl.constexpr):
    # Merges runs of 2^rounds along the axes of two that follow `last`
    # (`steps` of them, the first the index's top bit), descending where
    # `downward`: each round pairs every element with the one whose index
    # differs in one bit (y ^ xor over that axis of two) and keeps the
    # smaller on the left of an ascending run.
    for round in tl.static_range(rounds):
        bit: tl.constexpr = rounds - 1 - round
        y_bits = y.to(bits, bitcast=True)
        partner = (y_bits ^ tl.xor_sum(y_bits, last + steps - 1 - bit, True)).to(
            y.dtype, bitcast=True)
        right = ((index >> bit) & 1) != 0
        y = tl.where((y > partner) != (downward ^ right), partner, y)
    return y


@jit
def _sort(x, halves: tl.constexpr, twos: tl.constexpr, n: tl.constexpr,
          last: tl.constexpr, steps: tl.constexpr, descending: tl.constexpr,
          bits: tl.constexpr):
    # Bitonic sort of the last dimension, split into `steps` axes of two
    # (the first the index's top bit). Stage s merges runs of 2^s, ascending
    # where bit s of the index is 0 and descending where it is 1, the last
    # stage in the order asked (_bitonic_merge).
    y = tl.reshape(x, halves)
    index = tl.reshape(tl.arange(0, n), twos)
    for stage in tl.static_range(1, steps + 1):
        if stage < steps:
            downward = ((index >> stage) & 1) != 0
        else:
            downward = descending
        y = _bitonic_merge(y, index, downward, stage, last, steps, bits)
    return tl.reshape(y, x.shape)


@jit
def _topk(x, halves: tl.constexpr, twos: tl.constexpr, n: tl.constexpr,
          last: tl.constexpr, steps: tl.constexpr, log_k: tl.constexpr,
          bits: tl.constexpr, shape: tl.constexpr, descending: tl.constexpr):
    # Bitonic top-k (Triton's; https://www.doc.ic.ac.uk/~hlgr/pdfs/MassivelyParallelTopK.pdf):
    # the first log_k stages of _sort's network leave runs of k sorted in
    # alternating directions; then each round keeps the larger of the pairs
    # one run apart along the lowest bit above the runs (a max over its axis
    # of two, kept as an axis of one, and the index with it) and merges the
    # runs again, descending in the last round (the smaller of the pairs and
    # ascending for the smallest k).
    y = tl.reshape(x, halves)
    index = tl.reshape(tl.arange(0, n), twos)
    for stage in tl.static_range(1, log_k + 1):
        if stage < steps:
            downward = ((index >> stage) & 1) != 0
        else:
            downward = descending
        y = _bitonic_merge(y, index, downward, stage, last, steps, bits)
    for reduced in tl.static_range(log_k, steps):
        if descending:
            y = tl.max(y, last + steps - 1 - reduced, keep_dims=True)
        else:
            y = tl.min(y, last + steps - 1 - reduced, keep_dims=True)
        index = tl.min(index, steps - 1 - reduced, keep_dims=True)
        if reduced + 1 < steps:
            downward = ((index >> (reduced + 1)) & 1) != 0
        else:
            downward = descending
        y = _bitonic_merge(y, index, downward, log_k, last, steps, bits)
    return tl.reshape(y, shape)


@jit
def _join(a, b, scalars: tl.constexpr):
    # A new minor dimension of two: a where its index is 0, b where it is 1
    # (a selection: every value keeps its bits).
    if scalars:
        a = tl.broadcast_to(a, [1])
        b = tl.broadcast_to(b, [1])
    a, b = tl.broadcast(a, b)
    second = tl.arange(0, 2) == 1
    joined = tl.where(second, tl.expand_dims(b, len(b.shape)),
                      tl.expand_dims(a, len(a.shape)))
    if scalars:
        joined = tl.reshape(joined, [2])
    return joined


@jit
def _split(x, bits: tl.constexpr):
    # Each half is the xor over the minor axis of two with the other half's
    # bits zeroed: exactly its own bits.
    last: tl.constexpr = len(x.shape) - 1
    y = x.to(bits, bitcast=True)
    second = tl.arange(0, 2) == 1
    first_half = tl.xor_sum(tl.where(second, 0, y).to(bits), last)
    second_half = tl.xor_sum(tl.where(second, y, 0).to(bits), last)
    return first_half.to(x.dtype, bitcast=True), second_half.to(x.dtype, bitcast=True)


@jit
def _interleave(a, b, scalars: tl.constexpr, shape: tl.constexpr):
    return tl.reshape(_join(a, b, scalars), shape)


@jit
def _cat(a, b, order: tl.constexpr, shape: tl.constexpr):
    # (..., d, ..., 2) -> (..., 2, d, ...) -> (..., 2 * d, ...): a's elements, then b's.
    return tl.reshape(tl.permute(_join(a, b, False), order), shape)


@jit
def _reshape_to(x, shape: tl.constexpr):
    return tl.reshape(x, shape)


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


def _same_type(to_value: ToValue, a: Any, b: Any, what: str) -> tuple[tensor, tensor]:
    """Two values of one element type (Triton's join does not promote), whose
    shapes broadcast together."""
    x, y = to_value(a), to_value(b)
    if x.dtype != y.dtype:
        raise TileError(f"{what} needs two values of one type, got {x.dtype} and {y.dtype}")
    return x, y


@library_builtin(_join)
def join(to_value: ToValue, a: Any, b: Any) -> list[Any]:
    """a and b (broadcast to one shape) side by side in a new minor dimension
    of two: shape (..., 2); two scalars give a block of 2."""
    x, y = _same_type(to_value, a, b, "tl.join")
    return [x, y, not (x.is_block() or y.is_block())]


@library_builtin(_split)
def split(to_value: ToValue, a: Any) -> list[Any]:
    """The two halves of `a` along its last dimension, which must be 2:
    (..., 2) -> two (...) values (scalars for a block of 2)."""
    x = _block(to_value, a, "tl.split")
    if x.shape[-1] != 2:
        raise TileError(f"tl.split needs a last dimension of 2, got shape {list(x.shape)}")
    return [x, _BITS[x.dtype.primitive_bitwidth]]


@library_builtin(_interleave)
def interleave(to_value: ToValue, a: Any, b: Any) -> list[Any]:
    """a and b alternating along their last dimension: (..., n) -> (..., 2n);
    two scalars give a block of 2."""
    x, y = _same_type(to_value, a, b, "tl.interleave")
    both = broadcast_shapes(list(x.shape), list(y.shape))
    shape = both[:-1] + [2 * both[-1]] if both else [2]
    return [x, y, not both, shape]


@library_builtin(_cat)
def cat(to_value: ToValue, input: Any, other: Any, can_reorder: Any = False,
        dim: Any = 0) -> list[Any]:
    """`input` then `other` along `dim` (blocks of one shape and type), as
    Triton's: a join, its new minor axis moved before `dim`, merged into it.
    tile keeps the order with can_reorder=True too (Triton may reorder then)."""
    x, y = _block(to_value, input, "tl.cat"), _block(to_value, other, "tl.cat")
    if x.dtype != y.dtype or x.shape != y.shape:
        raise TileError(f"tl.cat needs two blocks of one shape and type, got "
                        f"{list(x.shape)} {x.dtype} and {list(y.shape)} {y.dtype}")
    _flag(can_reorder, "tl.cat's can_reorder")  # an order kept is one Triton may give
    rank = len(x.shape)
    axis = _axis(dim, rank)
    order = list(range(rank))
    order.insert(axis, rank)
    shape = list(x.shape)
    shape[axis] *= 2
    return [x, y, order, shape]


@library_builtin(_reshape_to)
def squeeze(to_value: ToValue, x: Any, dim: Any) -> list[Any]:
    """`x` without its dimension `dim`, which must have extent 1."""
    block = to_value(x)
    if not block.is_block():
        raise TileError(f"tl.squeeze needs a block, got a scalar ({block.dtype})")
    shape = list(block.shape)
    axis = _axis(dim, len(shape))
    if shape[axis] != 1:
        raise TileError(f"tl.squeeze: dimension {axis} of {shape} has extent {shape[axis]}, "
                        "not 1")
    if len(shape) == 1:
        raise TileError("tl.squeeze of a rank-1 block would leave no dimension; use "
                        "x.item() for its scalar")
    return [block, shape[:axis] + shape[axis + 1:]]


@library_builtin(_reshape_to)
def unsqueeze(to_value: ToValue, x: Any, dim: Any) -> list[Any]:
    """`x` with a new dimension of extent 1 at `dim` (`tl.expand_dims`)."""
    block = to_value(x)
    shape = list(block.shape) if block.is_block() else []
    axis = _axis(dim, len(shape) + 1)
    return [block, shape[:axis] + [1] + shape[axis:]]


@library_builtin(_sort)
def sort(to_value: ToValue, x: Any, dim: Any = None, descending: Any = False) -> list[Any]:
    """`x` sorted along its last dimension (the only one Triton sorts
    along), whose extent must be a power of two; ascending unless
    `descending`."""
    block = _block(to_value, x, "tl.sort")
    rank = len(block.shape)
    last = rank - 1
    if T.unwrap(dim) is not None and _axis(dim, rank) != last:
        raise TileError(f"tl.sort sorts along the last dimension ({last}) only, "
                        f"not {T.unwrap(dim)}")
    n = block.shape[last]
    if n & (n - 1):
        raise TileError(f"tl.sort needs a power-of-two extent along dim {last}, got {n}")
    steps = n.bit_length() - 1
    twos = [2] * steps
    return [block, list(block.shape[:last]) + twos, twos or [1], n, last, steps,
            _flag(descending, "tl.sort's descending"), _BITS[block.dtype.primitive_bitwidth]]


@library_builtin(_topk)
def topk(to_value: ToValue, x: Any, k: Any, dim: Any = None,
         descending: Any = True) -> list[Any]:
    """The `k` largest elements of `x` along its last dimension, largest
    first (the smallest, smallest first, unless `descending`):
    (..., n) -> (..., k); `n` and `k` powers of two, k <= n."""
    block = _block(to_value, x, "tl.topk")
    rank = len(block.shape)
    last = rank - 1
    if T.unwrap(dim) is not None and _axis(dim, rank) != last:
        raise TileError(f"tl.topk selects along the last dimension ({last}) only, "
                        f"not {T.unwrap(dim)}")
    n = block.shape[last]
    if n & (n - 1):
        raise TileError(f"tl.topk needs a power-of-two extent along dim {last}, got {n}")
    count = T.unwrap(k)
    if isinstance(count, tensor) or not isinstance(count, int) or isinstance(count, bool):
        raise ConstantRequired(f"tl.topk's k must be a compile-time integer, not {count!r}")
    if count <= 0 or count & (count - 1) or count > n:
        raise TileError(f"tl.topk's k must be a power of two from 1 to {n} (the extent of "
                        f"dim {last}), got {count}")
    steps = n.bit_length() - 1
    twos = [2] * steps
    return [block, list(block.shape[:last]) + twos, twos or [1], n, last, steps,
            count.bit_length() - 1, _BITS[block.dtype.primitive_bitwidth],
            list(block.shape[:last]) + [count], _flag(descending, "tl.topk's descending")]


@library_builtin(_flip)
def flip(to_value: ToValue, x: Any, dim: Any = None) -> list[Any]:
    """`x` reversed along `dim` (the last dimension when None), whose extent
    must be a power of two."""
    block = _block(to_value, x, "tl.flip")
    rank = len(block.shape)
    axis = rank - 1 if T.unwrap(dim) is None else _axis(dim, rank)
    extent = block.shape[axis]
    if extent & (extent - 1):
        raise TileError(f"tl.flip needs a power-of-two extent along dim {axis}, got {extent}")
    steps = extent.bit_length() - 1
    halves = list(block.shape[:axis]) + [2] * steps + list(block.shape[axis + 1:])
    return [block, halves, axis, steps, _BITS[block.dtype.primitive_bitwidth]]


@jit
def _bitonic_merge_last(x, halves: tl.constexpr, twos: tl.constexpr, n: tl.constexpr,
                        last: tl.constexpr, steps: tl.constexpr, descending: tl.constexpr,
                        bits: tl.constexpr):
    # The last stage of _sort's network alone: sorts each line that is a
    # bitonic sequence (an ascending run then a descending one, or the reverse).
    y = tl.reshape(x, halves)
    index = tl.reshape(tl.arange(0, n), twos)
    return tl.reshape(_bitonic_merge(y, index, descending, steps, last, steps, bits), x.shape)


@library_builtin(_bitonic_merge_last)
def bitonic_merge(to_value: ToValue, x: Any, dim: Any = None, descending: Any = 0) -> list[Any]:
    """Triton's `tl.bitonic_merge`: the last merge stage of a bitonic sort along
    the last dimension (a power of two): compare-and-swap at distances n/2, n/4,
    ..., 1, in ascending order (descending with `descending`)."""
    block = _block(to_value, x, "tl.bitonic_merge")
    rank = len(block.shape)
    last = rank - 1
    if T.unwrap(dim) is not None and _axis(dim, rank) != last:
        raise TileError(f"tl.bitonic_merge merges along the last dimension ({last}) only, "
                        f"not {T.unwrap(dim)}")
    n = block.shape[last]
    if n & (n - 1):
        raise TileError(f"tl.bitonic_merge needs a power-of-two extent along dim {last}, "
                        f"got {n}")
    steps = n.bit_length() - 1
    twos = [2] * steps
    return [block, list(block.shape[:last]) + twos, twos or [1], n, last, steps,
            _flag(descending, "tl.bitonic_merge's descending"),
            _BITS[block.dtype.primitive_bitwidth]]


@jit
def _softmax(x, dim: tl.constexpr, keep_dims: tl.constexpr, ieee_rounding: tl.constexpr):
    # Triton's formula, keep_dims and all.
    z = x - tl.max(x, dim, keep_dims=keep_dims)
    num = tl.exp(z)
    den = tl.sum(num, dim, keep_dims=keep_dims)
    return tl.math.fdiv(num, den, ieee_rounding)


@library_builtin(_softmax)
def softmax(to_value: ToValue, x: Any, dim: Any = None, keep_dims: Any = False,
            ieee_rounding: Any = False) -> list[Any]:
    """exp(x - max) / sum(exp(x - max)) along `dim` (0 when None, as Triton's),
    the max and the sum taken with `keep_dims`; the division IEEE-rounded with
    `ieee_rounding` (tl.math.fdiv)."""
    block = _block(to_value, x, "tl.softmax")
    if not block.dtype.is_floating():
        raise TileError(f"tl.softmax needs floats, got {block.dtype}")
    rank = len(block.shape)
    axis = 0 if T.unwrap(dim) is None else _axis(dim, rank)
    keep = _flag(keep_dims, "tl.softmax's keep_dims")
    if not keep:
        reduced = list(block.shape[:axis]) + list(block.shape[axis + 1:])
        try:
            broadcast_shapes(reduced, list(block.shape))
        except TileError:
            raise TileError(f"tl.softmax(dim={axis}) of shape {list(block.shape)}: the max "
                            f"along dim {axis}, of shape {reduced}, does not broadcast against "
                            "the input (Triton subtracts it as is); pass keep_dims=True") from None
    return [block, axis, keep, _flag(ieee_rounding, "tl.softmax's ieee_rounding")]


@jit
def _and_values(a, b):
    return a & b


@jit
def _or_values(a, b):
    return a | b


@jit
def _reduce_or(input, axis: tl.constexpr, keep_dims: tl.constexpr):
    return tl.reduce(input, axis, _or_values, keep_dims)


@library_builtin(_reduce_or)
def reduce_or(to_value: ToValue, input: Any, axis: Any, keep_dims: Any = False) -> list[Any]:
    """The bitwise or of the elements along `axis` (all of them when None)."""
    x = _block(to_value, input, "tl.reduce_or")
    if not x.dtype.is_int():
        raise TileError(f"reduce_or only supported for integers, got {x.dtype}")
    axis = None if T.unwrap(axis) is None else _axis(axis, len(x.shape))
    return [x, axis, _flag(keep_dims, "tl.reduce_or's keep_dims")]


def _booleans(to_value: ToValue, input: Any, other: Any, what: str) -> list[Any]:
    x, y = to_value(input), to_value(other)
    for value in (x, y):
        if not value.dtype.is_bool():
            raise TileError(f"x.{what}(y) takes booleans (tl.int1), got {x.dtype} and "
                            f"{y.dtype}; compare with 0 first (x != 0)")
    return [x, y]


@library_builtin(_and_values)
def logical_and(to_value: ToValue, input: Any, other: Any) -> list[Any]:
    """`x.logical_and(y)` (a tensor method in Triton): elementwise and of booleans."""
    return _booleans(to_value, input, other, "logical_and")


@library_builtin(_or_values)
def logical_or(to_value: ToValue, input: Any, other: Any) -> list[Any]:
    """`x.logical_or(y)` (a tensor method in Triton): elementwise or of booleans."""
    return _booleans(to_value, input, other, "logical_or")


__all__ = ["cumprod", "xor_sum", "swizzle2d", "flip", "join", "split", "interleave", "cat",
           "sort", "topk", "bitonic_merge", "softmax", "reduce_or"]
