"""Typed emission of tile IR: casts, broadcasting, type promotion, arithmetic.

Scalars use upstream `arith`/`math` ops on builtin types; blocks use tile ops.
Every function takes the IR builder `b` first and returns `tensor`s.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from ..compiler.ir import Builder, Value, int_range
from ..errors import TileError
from . import types as T
from .types import block_type, dtype


class tensor:
    """A value of a kernel: a scalar, a pointer, or a block (Triton's `tl.tensor`)."""

    def __init__(self, handle: Value) -> None:
        self.handle = handle
        self.type = handle.type

    @property
    def name(self) -> str:
        return self.handle.name

    @property
    def dtype(self) -> dtype:
        return self.type.scalar

    @property
    def shape(self) -> tuple[int, ...]:
        """The block's extents, a tuple as Triton's (() for a scalar)."""
        return T.shape_tuple(self.type.shape if isinstance(self.type, block_type) else ())

    @property
    def numel(self) -> int:
        return self.type.numel if isinstance(self.type, block_type) else 1

    def is_block(self) -> bool:
        return isinstance(self.type, block_type)

    def __repr__(self) -> str:
        return f"tensor({self.name}: {self.type!r})"

    def __bool__(self) -> bool:
        raise TileError("the truth value of a runtime value is not known at compile time; "
                        "use it in an `if`/`while` condition, or tl.where for blocks")


# ----------------------------------------------------------------------------
# Constants
# ----------------------------------------------------------------------------

def scalar_constant(b: Builder, value: Any, ty: dtype) -> tensor:
    return tensor(b.constant(value, ty))


def block_constant(b: Builder, value: Any, ty: block_type) -> tensor:
    return tensor(b.constant(value, ty))


def literal_type(value: Any) -> dtype:
    """Type of a Python literal standing alone: bool -> i1, int -> i32 unless it
    does not fit (then i64, or u64), float -> f32."""
    if isinstance(value, bool):
        return T.int1
    if isinstance(value, int):
        if -2**31 <= value < 2**31:
            return T.int32
        if -2**63 <= value < 2**63:
            return T.int64
        if 0 <= value < 2**64:
            return T.uint64
        raise TileError(f"integer literal {value} does not fit in 64 bits")
    if isinstance(value, float):
        return T.float32
    raise TileError(f"cannot use a value of Python type {type(value).__name__} ({value!r}) "
                    "in a kernel computation")


def literal_type_next_to(value: Any, other: dtype) -> dtype:
    """Triton's weak typing: a literal takes the other operand's type when it
    is of the same kind and fits (so `x_fp16 * 2.0` stays fp16)."""
    if isinstance(value, bool):
        return T.int1
    if isinstance(value, int) and other.is_int() and not other.is_bool():
        lo, hi = int_range(other)
        return other if lo <= value <= hi else literal_type(value)
    if isinstance(value, int) and other.is_floating():
        return other
    if isinstance(value, float) and other.is_floating():
        return other
    return literal_type(value)


def to_tensor(b: Builder, value: Any, like: tensor | None = None) -> tensor:
    """A runtime value from a tensor or a Python literal; a literal next to
    `like` takes its type when of the same kind (see literal_type_next_to)."""
    return to_tensor_of(b, value, like.dtype if like is not None else None)


def to_tensor_of(b: Builder, value: Any, near: dtype | None) -> tensor:
    """As to_tensor, with the element type a literal should adopt."""
    value = T.unwrap(value)
    if isinstance(value, tensor):
        return value
    if isinstance(value, (bool, int, float)):
        ty = literal_type_next_to(value, near) if near is not None and not near.is_ptr() \
            else literal_type(value)
        return scalar_constant(b, value, ty)
    raise TileError(f"expected a value, got {value!r} of Python type {type(value).__name__}")


# ----------------------------------------------------------------------------
# Shapes
# ----------------------------------------------------------------------------

def splat(b: Builder, x: tensor, shape: Sequence[int]) -> tensor:
    return tensor(b.splat(x.handle, shape))


def expand_dims(b: Builder, x: tensor, axis: int) -> tensor:
    if not x.is_block():
        return splat(b, x, [1])
    shape = x.shape
    if axis < 0:
        axis += len(shape) + 1
    if not 0 <= axis <= len(shape):
        raise TileError(f"expand_dims axis {axis} is out of range for a block of rank {len(shape)}")
    return tensor(b.expand_dims(x.handle, axis))


_shape_text = T.shape_text


def broadcast_shapes(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """NumPy's rule: align right; equal extents stay, extent 1 stretches."""
    rank = max(len(a), len(b))
    a_full = [1] * (rank - len(a)) + list(a)
    b_full = [1] * (rank - len(b)) + list(b)
    result = []
    for dim, (x, y) in enumerate(zip(a_full, b_full)):
        if x == y or y == 1:
            result.append(x)
        elif x == 1:
            result.append(y)
        else:
            raise TileError(f"cannot broadcast shapes {_shape_text(a)} and {_shape_text(b)}: "
                            f"dimension {dim} (aligned right) is {x} in one and {y} in the "
                            "other, and neither is 1")
    return result


def broadcast_to(b: Builder, x: tensor, shape: Sequence[int]) -> tensor:
    shape = list(shape)
    if not x.is_block():
        return splat(b, x, shape) if shape else x
    if list(x.shape) == shape:
        return x
    if len(x.shape) > len(shape) or broadcast_shapes(x.shape, shape) != shape:
        raise TileError(f"cannot broadcast a block of shape {_shape_text(x.shape)} "
                        f"to {_shape_text(shape)}")
    while len(x.shape) < len(shape):
        x = expand_dims(b, x, 0)
    if list(x.shape) == shape:
        return x
    return tensor(b.broadcast(x.handle, shape))


def broadcast_together(b: Builder, *values: tensor) -> list[tensor]:
    shape: list[int] = []
    for v in values:
        shape = broadcast_shapes(shape, v.shape)
    if not shape:
        return list(values)
    return [broadcast_to(b, v, shape) for v in values]


def reshape(b: Builder, x: tensor, shape: Sequence[int]) -> tensor:
    shape = [int(s) for s in shape]
    if -1 in shape:
        known = math.prod(s for s in shape if s != -1)
        shape[shape.index(-1)] = x.numel // max(known, 1)
    if math.prod(shape) != x.numel:
        raise TileError(f"cannot reshape a block of shape {_shape_text(x.shape)} "
                        f"({x.numel} elements) to {_shape_text(shape)}")
    if not x.is_block():
        return splat(b, x, shape)
    if not shape:
        raise TileError("cannot reshape a block to a scalar; use a reduction")
    if shape == list(x.shape):
        return x
    return tensor(b.reshape(x.handle, shape))


def trans_order(shape: Sequence[int], order: Sequence[int] | None) -> list[int]:
    """The permutation of tl.trans / tl.permute, checked: `order`, or, as in
    Triton, the last two dimensions swapped (a batched 2-D transpose)."""
    rank = len(shape)
    if not order:
        if rank < 2:
            raise TileError("tl.trans invoked with a 0- or 1-dimensional tensor")
        return list(range(rank - 2)) + [rank - 1, rank - 2]
    perm = list(order)
    if sorted(perm) != list(range(rank)):
        raise TileError(f"trans order {perm} is not a permutation of the {rank} dimensions")
    return perm


def trans(b: Builder, x: tensor, order: Sequence[int] | None) -> tensor:
    if not x.is_block():
        raise TileError("trans needs a block")
    return tensor(b.trans(x.handle, trans_order(x.shape, order)))


# ----------------------------------------------------------------------------
# Casts and type promotion
# ----------------------------------------------------------------------------

_ROUNDINGS = (None, "rtne", "rtz")


def cast(b: Builder, x: tensor, to: dtype, rounding: str | None = None) -> tensor:
    """Triton's value cast (`x.to(dtype)`), pointers included: a pointer to
    another pointer type, a pointer to int64 (its address) or int1 (non-null),
    an integer to a pointer. `rounding` ("rtne" or "rtz") rounds float
    downcasts (Triton's fp_downcast_rounding)."""
    src = x.dtype
    check_rounding(src, to, rounding)
    if src == to:
        return x
    if src.is_ptr() and to.is_ptr():
        return tensor(b.bitcast(x.handle, to))
    if src.is_ptr():
        if to.is_bool():
            return compare(b, "ne", tensor(b.ptr_to_int(x.handle)), 0)
        if not to.is_int() or to.primitive_bitwidth != 64:
            raise TileError(f"cannot cast a pointer to {to}: pointers become int64 (their "
                            "address) or int1 (not null)")
        return cast(b, tensor(b.ptr_to_int(x.handle)), to)
    if to.is_ptr():
        if not src.is_int():
            raise TileError(f"cannot cast {src} to a pointer: only integers become pointers")
        wide = cast(b, x, T.uint64 if src.is_int_unsigned() else T.int64)
        return tensor(b.int_to_ptr(wide.handle, to))
    if src.mlir == to.mlir and not to.is_bool():
        # Only the signedness differs: same bits, new interpretation.
        return tensor(b.retype(x.handle, to))
    return tensor(b.cast(x.handle, to, toward_zero=rounding == "rtz"))


def check_rounding(src: dtype, to: dtype, rounding: str | None) -> None:
    """Triton's fp_downcast_rounding: "rtne" or "rtz", on float downcasts only;
    and what 8-bit floats convert from and to (the checks of a value cast)."""
    if rounding not in _ROUNDINGS:
        raise TileError(f"fp_downcast_rounding must be 'rtne' or 'rtz', got {rounding!r}")
    if rounding is not None and not (src.is_floating() and to.is_floating()
                                     and to.primitive_bitwidth < src.primitive_bitwidth):
        raise TileError(f"fp_downcast_rounding applies to float downcasts, not {src} to {to}")
    if (src.is_fp8() or to.is_fp8()) and not (src.is_floating() and to.is_floating()):
        raise TileError(f"cannot cast {src} to {to}: 8-bit floats convert to and from "
                        "floats only (go through a float, or bitcast for the bits)")
    if rounding == "rtz" and to.is_fp8e4nv():
        raise TileError("fp_downcast_rounding='rtz' to fp8e4nv is not supported: GPUs round "
                        "to it to nearest even only (fp8e5 has 'rtz')")


def check_bitcast(src: dtype, to: dtype, rounding: str | None = None) -> None:
    """What `x.to(dtype, bitcast=True)` allows: the same width, pointers to
    pointers, no rounding mode."""
    if rounding is not None:
        raise TileError("fp_downcast_rounding does not apply to a bitcast")
    if src == to:
        return
    if src.is_ptr() != to.is_ptr():
        raise TileError(f"cannot bitcast {src} to {to}; use .to() (without bitcast) between "
                        "integers and pointers")
    if src.primitive_bitwidth != to.primitive_bitwidth or src.is_bool() or to.is_bool():
        raise TileError(f"cannot bitcast {src} ({src.primitive_bitwidth} bits) to {to} "
                        f"({to.primitive_bitwidth} bits): the widths must agree")


def bitcast(b: Builder, x: tensor, to: dtype, rounding: str | None = None) -> tensor:
    """Triton's `x.to(dtype, bitcast=True)`: the same bits as a type of the
    same width (a pointer as another pointer)."""
    src = x.dtype
    check_bitcast(src, to, rounding)
    if src == to:
        return x
    if src.mlir == to.mlir:
        return tensor(b.retype(x.handle, to))
    return tensor(b.bitcast(x.handle, to))


# The compiler's and the interpreter's words for what blocks do not do.
NO_ELEMENT_ACCESS = ("blocks can only be indexed with `:` and `None` (e.g. x[:, None]); "
                     "there is no element access")
NOT_ASSIGNABLE = ("only names, tuples of names and tuple elements can be assigned in a kernel "
                  "(blocks are values: there is no x[i] = ... or x.attr = ...)")


Overload = tuple[tuple[dtype, ...], str, dtype]


def pick_overload(name: str, values: Sequence[Any], overloads: Sequence[Overload],
                  dtype_of: Callable[[Any], dtype | None]) -> Overload:
    """The overload of a libdevice function for `values`: runtime values
    (those `dtype_of` types) must have its argument types, Python numbers fit
    them. One rule for compiled and interpreted kernels."""
    candidates = [o for o in overloads if len(o[0]) == len(values)]
    if not candidates:
        counts = sorted({len(o[0]) for o in overloads})
        raise TileError(f"{name} takes {' or '.join(map(str, counts))} argument(s), "
                        f"got {len(values)}")

    def fits(value: Any, ty: dtype) -> bool:
        runtime = dtype_of(value)
        if runtime is not None:
            return runtime == ty
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        if isinstance(value, float):
            return ty.is_floating()
        lo, hi = int_range(ty) if ty.is_int() else (-math.inf, math.inf)
        return lo <= value <= hi

    matches = [o for o in candidates if all(fits(v, t) for v, t in zip(values, o[0]))]
    if not matches:
        given = ", ".join(type(v).__name__ if dtype_of(v) is None else str(dtype_of(v))
                          for v in values)
        options = "; ".join("(" + ", ".join(map(str, o[0])) + ")" for o in candidates)
        raise TileError(f"{name} has no overload for ({given}); it takes {options}"
                        + (" (cast fp16/bf16 to fp32 first)" if any(
                            dtype_of(v) in (T.float16, T.bfloat16) for v in values) else ""))
    # Python numbers alone: prefer the overload of their literal types
    # (0.5 is fp32, 7 is int32), as they would be typed on their own.
    preferred = [o for o in matches if all(
        dtype_of(v) is not None or literal_type(v) == t for v, t in zip(values, o[0]))]
    return (preferred or matches)[0]


def extern_elementwise(b: Builder, name: str, args: Sequence[Any],
                       overloads: Sequence[Overload]) -> tensor:
    """A call of a libdevice function: the overload whose argument types are
    those of the runtime arguments (Python numbers take the overload's type),
    on arguments broadcast to one shape."""
    values = [T.unwrap(a) for a in args]
    arg_types, symbol, result = pick_overload(
        name, values, overloads, lambda v: v.dtype if isinstance(v, tensor) else None)
    operands = [v if isinstance(v, tensor) else scalar_constant(b, v, t)
                for v, t in zip(values, arg_types)]
    operands = broadcast_together(b, *operands)
    return tensor(b.extern(symbol, [o.handle for o in operands], result))


def _with_element(ty: Any, element: dtype) -> Any:
    return block_type(element, ty.shape) if isinstance(ty, block_type) else element


def computation_type(a: dtype, b_: dtype, div_or_mod: bool) -> dtype:
    """Triton's promotion of two operand element types."""
    if a.is_ptr() or b_.is_ptr():
        raise TileError(f"cannot compute on pointers {a} and {b_} with this operator")
    if a.is_fp64() or b_.is_fp64():
        return T.float64
    if a.is_fp32() or b_.is_fp32():
        return T.float32
    for half in (T.float16, T.bfloat16):
        if a == half or b_ == half:
            # PTX has no half-precision division or remainder.
            return T.float32 if div_or_mod else half
    if a.is_fp8() and b_.is_fp8():  # Triton's: one fp8 type stays, two give f16
        return a if a == b_ else T.float16
    if a.is_fp8() or b_.is_fp8():
        raise TileError(f"cannot compute on {a} and {b_}: convert the integer to a float, "
                        "or the fp8 value to a wider float, first")
    if div_or_mod and a.is_int_signed() != b_.is_int_signed() \
            and not a.is_bool() and not b_.is_bool():
        raise TileError(f"cannot use /, // or % with {a} and {b_}: the signedness differs; "
                        "cast one operand first")
    return integer_promote(a, b_)


def check_subscript(kept: int, shape: Sequence[int] | None) -> None:
    """`x[...]` with `kept` `:` entries of a block of `shape` (None: a
    scalar): as NumPy, dimensions past the entries are kept; as Triton, a
    scalar takes `:` entries too (`z_ptr[None, None, :]` of a pointer)."""
    if shape is not None and kept > len(shape):
        raise TileError(f"index has {kept} `:` entries but the block has rank {len(shape)}")


def check_item(shape: Sequence[int], element: dtype) -> None:
    """What `x.item()` takes: a block of one element, not of pointers."""
    count = 1
    for extent in shape:
        count *= extent
    if count != 1:
        raise TileError(f"item() needs a block of one element, got shape {list(shape)}")
    if element.is_ptr():
        raise TileError("item() of a block of pointers is not supported")


def check_reduction_type(kind: str, element: dtype) -> None:
    """What a builtin reduction (`tl.sum`, `tl.max`, ...) takes."""
    if element.is_fp8():
        raise TileError(f"tl.{kind} of {element}: 8-bit floats are storage types; convert "
                        "the block to a wider float first (x.to(tl.float32))")


def integer_promote(a: dtype, b_: dtype) -> dtype:
    if a == b_:
        return a
    if a.is_int_signed() == b_.is_int_signed():
        return a if a.primitive_bitwidth >= b_.primitive_bitwidth else b_
    unsigned, signed = (a, b_) if a.is_int_unsigned() else (b_, a)
    if unsigned.is_bool():
        return signed
    return unsigned if unsigned.primitive_bitwidth >= signed.primitive_bitwidth else signed


def operands(b: Builder, x: Any, y: Any) -> tuple[tensor, tensor]:
    """Two runtime operands; a literal takes its type from the other side."""
    x, y = T.unwrap(x), T.unwrap(y)
    if isinstance(x, tensor) and not isinstance(y, tensor):
        return x, to_tensor(b, y, like=x)
    if isinstance(y, tensor) and not isinstance(x, tensor):
        return to_tensor(b, x, like=y), y
    return to_tensor(b, x), to_tensor(b, y)


def promote_and_broadcast(b: Builder, x: tensor, y: tensor, ty: dtype) -> tuple[tensor, tensor]:
    x, y = cast(b, x, ty), cast(b, y, ty)
    x, y = broadcast_together(b, x, y)
    return x, y


# ----------------------------------------------------------------------------
# Elementwise operations
# ----------------------------------------------------------------------------

def binary(b: Builder, op: str, x: tensor, y: tensor) -> tensor:
    """`tile.<op>` on blocks or `arith.<op>` on scalars, same-typed operands.
    8-bit floats are computed in f32 and rounded back (exact for +, -, * and
    min/max, and correctly rounded for /: f32 has more than twice their bits)."""
    if x.dtype.is_fp8():
        wide = binary(b, op, cast(b, x, T.float32), cast(b, y, T.float32))
        return cast(b, wide, x.dtype)
    return tensor(b.binary(op, x.handle, y.handle))


def unary(b: Builder, op: str, x: tensor) -> tensor:
    """`tile.<op>` on blocks; on scalars the `math` (or `arith`) op of that name.
    8-bit floats as in `binary`."""
    if x.dtype.is_fp8():
        return cast(b, unary(b, op, cast(b, x, T.float32)), x.dtype)
    return tensor(b.unary(op, x.handle))


def add(b: Builder, x: Any, y: Any) -> tensor:
    x, y = operands(b, x, y)
    if y.dtype.is_ptr() and not x.dtype.is_ptr():
        x, y = y, x
    if x.dtype.is_ptr():
        return addptr(b, x, y)
    x, y = promote_and_broadcast(b, x, y, computation_type(x.dtype, y.dtype, False))
    return binary(b, "addf" if x.dtype.is_floating() else "addi", x, y)


def addptr(b: Builder, ptr: tensor, offset: tensor) -> tensor:
    if offset.dtype.is_ptr():
        raise TileError("cannot add two pointers")
    if offset.dtype.is_floating():
        raise TileError(f"pointer offsets must be integers, not {offset.dtype}")
    if offset.dtype.is_bool():
        offset = cast(b, offset, T.int32)
    ptr, offset = broadcast_together(b, ptr, offset)
    return tensor(b.addptr(ptr.handle, offset.handle))


def sub(b: Builder, x: Any, y: Any) -> tensor:
    x, y = operands(b, x, y)
    if x.dtype.is_ptr():
        return addptr(b, x, minus(b, y))
    x, y = promote_and_broadcast(b, x, y, computation_type(x.dtype, y.dtype, False))
    return binary(b, "subf" if x.dtype.is_floating() else "subi", x, y)


def mul(b: Builder, x: Any, y: Any) -> tensor:
    x, y = operands(b, x, y)
    x, y = promote_and_broadcast(b, x, y, computation_type(x.dtype, y.dtype, False))
    return binary(b, "mulf" if x.dtype.is_floating() else "muli", x, y)


def truediv(b: Builder, x: Any, y: Any) -> tensor:
    x, y = operands(b, x, y)
    ty = computation_type(x.dtype, y.dtype, True)
    if ty.is_int():
        ty = T.float32  # int / int is a float32 division, as Triton
    x, y = promote_and_broadcast(b, x, y, ty)
    return binary(b, "divf", x, y)


def floordiv(b: Builder, x: Any, y: Any) -> tensor:
    x, y = operands(b, x, y)
    ty = computation_type(x.dtype, y.dtype, True)
    if not ty.is_int():
        raise TileError(f"// is only defined on integers (got {x.dtype} and {y.dtype}); "
                        "use / and tl.floor for floats")
    x, y = promote_and_broadcast(b, x, y, ty)
    # Truncates toward zero, as C and Triton (not Python's floor).
    return binary(b, "divui" if ty.is_int_unsigned() else "divsi", x, y)


def mod(b: Builder, x: Any, y: Any) -> tensor:
    x, y = operands(b, x, y)
    ty = computation_type(x.dtype, y.dtype, True)
    x, y = promote_and_broadcast(b, x, y, ty)
    if ty.is_floating():
        return binary(b, "remf", x, y)
    return binary(b, "remui" if ty.is_int_unsigned() else "remsi", x, y)


def power(b: Builder, x: Any, y: Any) -> tensor:
    exponent = T.unwrap(y)
    if isinstance(exponent, int) and not isinstance(exponent, bool) and 0 < exponent <= 8 \
            and isinstance(x, tensor):
        result = x  # small integer powers: repeated products keep the type exact
        for _ in range(exponent - 1):
            result = mul(b, result, x)
        return result
    x, y = operands(b, x, y)
    ty = computation_type(x.dtype, y.dtype, False)
    if ty.is_int():
        ty = T.float32
    x, y = promote_and_broadcast(b, x, y, ty)
    return binary(b, "powf", x, y)


def _bitwise_type(x: tensor, y: tensor, what: str) -> dtype:
    if not x.dtype.is_int() or not y.dtype.is_int():
        raise TileError(f"{what} needs integer or boolean operands, got {x.dtype} and {y.dtype}")
    return integer_promote(x.dtype, y.dtype)


def bitwise(b: Builder, op: str, x: Any, y: Any) -> tensor:
    """op: "andi", "ori", "xori", "shli", "shr"."""
    x, y = operands(b, x, y)
    ty = _bitwise_type(x, y, {"andi": "&", "ori": "|", "xori": "^"}.get(op, "a shift"))
    x, y = promote_and_broadcast(b, x, y, ty)
    if op == "shr":
        op = "shrui" if ty.is_int_unsigned() else "shrsi"
    return binary(b, op, x, y)


_INT_PREDICATES = {"lt": "lt", "le": "le", "gt": "gt", "ge": "ge"}
_FLOAT_PREDICATES = {"lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge", "eq": "oeq", "ne": "une"}


def compare(b: Builder, pred: str, x: Any, y: Any) -> tensor:
    """pred: lt, le, gt, ge, eq, ne."""
    x, y = operands(b, x, y)
    ty = computation_type(x.dtype, y.dtype, False)
    x, y = promote_and_broadcast(b, x, y, ty)
    if ty.is_floating():
        predicate = _FLOAT_PREDICATES[pred]
    else:
        predicate = pred if pred in ("eq", "ne") else \
            ("u" if ty.is_int_unsigned() else "s") + _INT_PREDICATES[pred]
    if ty.is_fp8():  # exact in f32
        x, y = cast(b, x, T.float32), cast(b, y, T.float32)
    return tensor(b.compare(predicate, x.handle, y.handle))


def minus(b: Builder, x: Any) -> tensor:
    x = to_tensor(b, x)
    if x.dtype.is_floating():
        return unary(b, "negf", x)
    if x.dtype.is_ptr():
        raise TileError("cannot negate a pointer")
    return sub(b, 0, x)  # integer negation is 0 - x


def invert(b: Builder, x: Any) -> tensor:
    x = to_tensor(b, x)
    if not x.dtype.is_int():
        raise TileError(f"~ needs an integer or boolean operand, got {x.dtype}")
    return unary(b, "noti", x)


def logical_not(b: Builder, x: Any) -> tensor:
    x = to_tensor(b, x)
    return compare(b, "eq", x, 0) if not x.dtype.is_bool() else invert(b, x)


def to_bool(b: Builder, x: tensor) -> tensor:
    return x if x.dtype.is_bool() else cast(b, x, T.int1)


def where(b: Builder, cond: Any, x: Any, y: Any) -> tensor:
    cond = to_bool(b, to_tensor(b, cond))
    x, y = operands(b, x, y)
    ty = x.dtype if x.dtype == y.dtype else computation_type(x.dtype, y.dtype, False)
    x, y = cast(b, x, ty), cast(b, y, ty)
    cond, x, y = broadcast_together(b, cond, x, y)
    return tensor(b.select(cond.handle, x.handle, y.handle))


def minmax(b: Builder, which: str, x: Any, y: Any, propagate_nan: bool = False) -> tensor:
    """which: "min" or "max". Floats ignore a NaN operand (the other one is the
    result: maxnumf, Triton's default) unless `propagate_nan` (maximumf)."""
    x, y = operands(b, x, y)
    ty = computation_type(x.dtype, y.dtype, False)
    x, y = promote_and_broadcast(b, x, y, ty)
    if ty.is_floating():
        op = f"{which}imumf" if propagate_nan else f"{which}numf"
    else:
        op = f"{which}{'ui' if ty.is_int_unsigned() else 'si'}"
    return binary(b, op, x, y)


def extreme_kind(which: str, element: dtype) -> str:
    """The combine kind of tl.max/tl.min/cummax ("max"/"min") over `element`:
    for floats the NaN-ignoring maxnum/minnum, as Triton's reductions (a NaN
    only where the whole line is NaN); umax/umin for unsigned integers."""
    if element.is_floating():
        return f"{which}num"
    return f"u{which}" if element.is_int_unsigned() else which


def float_unary(b: Builder, op: str, x: Any) -> tensor:
    """A float math op; integers are computed in float32."""
    x = to_tensor(b, x)
    if not x.dtype.is_floating():
        x = cast(b, x, T.float32)
    return unary(b, op, x)


def fma(b: Builder, x: Any, y: Any, z: Any) -> tensor:
    x, y, z = (to_tensor(b, v) for v in (x, y, z))
    ty = computation_type(computation_type(x.dtype, y.dtype, False), z.dtype, False)
    if not ty.is_floating():
        ty = T.float32
    x, y, z = broadcast_together(b, *(cast(b, v, ty) for v in (x, y, z)))
    return tensor(b.fma(x.handle, y.handle, z.handle))

