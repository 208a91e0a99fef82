"""Runtime values of an interpreted kernel: NumPy data with a tile type.

A `Tensor` is a scalar (0-d data) or a block, of the element types of
`tile.language.types`. bf16 and fp8 values are held as float32 data rounded
to their type (NumPy has neither); in memory they are their bit patterns. A pointer's data is
element offsets into the `Region` (an argument's array) it came from.
"""
from __future__ import annotations

import dis
import sys
import types
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import TileError
from ..language import float8
from ..language import semantic as S
from ..language import types as T
from ..language.types import block_type, dtype

if TYPE_CHECKING:
    from .memory import Region

# The NumPy type that holds values of each element type while computing...
_COMPUTE = {
    "int1": np.bool_, "int8": np.int8, "int16": np.int16, "int32": np.int32,
    "int64": np.int64, "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32,
    "uint64": np.uint64, "fp16": np.float16, "bf16": np.float32, "fp32": np.float32,
    "fp64": np.float64,
}
_COMPUTE.update({name: np.float32 for name in float8.FORMATS})
# ...and in memory (bf16 and fp8 as their bits; i1 as one byte, as torch and
# NumPy bools).
_STORAGE = {**_COMPUTE, "bf16": np.uint16, **{name: np.uint8 for name in float8.FORMATS}}


def compute_dtype(ty: dtype) -> np.dtype:
    if ty.is_ptr():
        return np.dtype(np.int64)
    return np.dtype(_COMPUTE[ty.name])


def storage_dtype(ty: dtype) -> np.dtype:
    return np.dtype(_STORAGE[ty.name])


# ----------------------------------------------------------------------------
# bf16
# ----------------------------------------------------------------------------

def _round_to_odd_f32(x: np.ndarray) -> np.ndarray:
    """float64 -> float32 rounding to odd: a second rounding (to bf16) of the
    result is then the correctly rounded bf16 of x (no double rounding)."""
    with np.errstate(over="ignore"):  # beyond the f32 range: inf, as intended
        f = x.astype(np.float32)
    wide = f.astype(np.float64)
    inexact = np.isfinite(x) & (wide != x)
    # Truncate toward zero, then set the lowest bit when anything was dropped.
    too_far = inexact & (np.abs(wide) > np.abs(x))
    f = np.where(too_far, np.nextafter(f, np.float32(0)), f)
    bits = f.view(np.uint32) | inexact.astype(np.uint32)
    return bits.view(np.float32)


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 or float64 data -> bf16 bit patterns (uint16), round to nearest even,
    in the data's shape."""
    x = np.asarray(x)
    if x.dtype == np.float64:
        x = _round_to_odd_f32(x)
    # (ascontiguousarray makes a 0-d array 1-d: the shape is restored.)
    x = np.ascontiguousarray(x, dtype=np.float32).reshape(x.shape)
    bits = x.view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) \
        >> np.uint32(16)
    quiet_nan = (bits >> np.uint32(16)) | np.uint32(0x0040)
    return np.where(np.isnan(x), quiet_nan, rounded).astype(np.uint16)


def bf16_values(bits: np.ndarray) -> np.ndarray:
    """bf16 bit patterns -> float32 data."""
    return (np.asarray(bits).astype(np.uint32) << np.uint32(16)).view(np.float32)


def round_bf16(x: np.ndarray) -> np.ndarray:
    return bf16_values(bf16_bits(x))


def to_bits(data: np.ndarray, ty: dtype) -> np.ndarray:
    """Float data as the bit patterns of bf16 or an fp8 type (rounded to it;
    an infinity stays one where the type has it)."""
    if ty.is_fp8():
        return float8.encode_array(data, float8.FORMATS[ty.name], keep_infinity=True)
    return bf16_bits(data)


def from_bits(bits: np.ndarray, ty: dtype) -> np.ndarray:
    """Bit patterns of bf16 or an fp8 type as their values (float32)."""
    if ty.is_fp8():
        return float8.decode_array(bits, float8.FORMATS[ty.name])
    return bf16_values(bits)


def held_as_bits(ty: dtype) -> bool:
    """Whether NumPy has no type for `ty`, so memory holds its bits."""
    return ty.is_bf16() or ty.is_fp8()


# ----------------------------------------------------------------------------
# Values
# ----------------------------------------------------------------------------

class BlockTruthError(TileError):
    """A block used where Python needs one truth value (`if block:`)."""


_ASSERTS: dict[tuple[types.CodeType, int], bool] = {}


def _asked_by_assert(frame: types.FrameType) -> bool:
    """Whether `frame` asks for a truth value for an `assert` statement: one of
    the next instructions loads AssertionError, as only `assert` does."""
    key = (frame.f_code, frame.f_lasti)
    if key not in _ASSERTS:
        following = [i for i in dis.get_instructions(frame.f_code) if i.offset > frame.f_lasti]
        _ASSERTS[key] = any(i.opname == "LOAD_ASSERTION_ERROR" for i in following[:3])
    return _ASSERTS[key]


class Tensor(S.tensor):
    """A runtime value of an interpreted kernel (the interpreter's `tl.tensor`).

    It is a `tile.language.tensor`, so the frontend's checks of runtime values
    (a shape extent that must be a constexpr, ...) apply to it unchanged.
    """

    def __init__(self, data: np.ndarray, ty: dtype, region: "Region | None" = None) -> None:
        self.handle = None
        self.data = data
        self.element = ty
        self.region = region  # pointers: the argument array they point into

    # The frontend's tensor API, from the data (cheaper than a block_type per value).
    @property
    def type(self) -> Any:  # type: ignore[override]
        return block_type(self.element, self.data.shape) if self.data.ndim else self.element

    @property
    def dtype(self) -> dtype:
        return self.element

    @property
    def shape(self) -> tuple[int, ...]:
        """The block's extents, a tuple as Triton's (() for a scalar)."""
        return T.shape_tuple(self.data.shape)

    @property
    def numel(self) -> int:
        return int(self.data.size)

    def is_block(self) -> bool:
        return self.data.ndim > 0

    @property
    def name(self) -> str:
        return "<interpreted>"

    def python_scalar(self) -> Any:
        """The Python value of a scalar (`x.item()` is the kernel's tl.item)."""
        if self.is_block() and self.data.size != 1:  # one element: Triton's unsplat
            raise BlockTruthError(f"a block of shape {list(self.shape)} is not one value")
        value = self.data.item()
        return value

    # Python needs plain values for `if`, `while`, `range`, indexing and formatting.
    def __bool__(self) -> bool:
        if _asked_by_assert(sys._getframe(1)):
            # `assert x` is tl.device_assert, as compiled: checked (every element
            # of a block) only with debugging on.
            from .program import current
            return not current().debug or bool(np.all(self.data))
        if self.is_block() and self.data.size != 1:  # one element: Triton's unsplat
            raise BlockTruthError(
                f"the truth value of a block of shape {list(self.shape)} is ambiguous; an `if` or "
                "`while` condition must be a scalar (use tl.where to select elementwise)")
        return bool(self.data)

    def __index__(self) -> int:
        if not self.dtype.is_int():
            raise TileError(f"a {self.dtype} value cannot be used as an integer index")
        return int(self.python_scalar())

    def __int__(self) -> int:
        return int(self.python_scalar())

    def __float__(self) -> float:
        return float(self.python_scalar())

    def __format__(self, spec: str) -> str:
        if spec and not self.is_block():
            return format(self.python_scalar(), spec)
        return str(self)

    def values(self) -> np.ndarray:
        """The data as NumPy shows it (bf16 as float32; pointers as offsets)."""
        return self.data

    def __str__(self) -> str:
        if self.dtype.is_ptr():
            name = self.region.name if self.region is not None else "?"
            return f"{name} + {self.data - self.region.base_elements(self.dtype.element_ty)}" \
                if self.region is not None else f"<pointer {self.data}>"
        return str(self.data)

    def __repr__(self) -> str:
        return f"tensor({self}, {self.type!r})" if self.is_block() \
            else f"tensor({self}, {self.dtype})"

    __hash__ = None  # type: ignore[assignment]  # == is elementwise


def make(data: Any, ty: dtype, region: "Region | None" = None) -> Tensor:
    """A value of element type `ty` from NumPy data (converted, and rounded for
    bf16 and fp8; an infinity stays one in fp8e5: a conversion to fp8, which
    saturates, is convert_to_fp8)."""
    data = np.asarray(data)
    if held_as_bits(ty):
        data = from_bits(to_bits(data, ty), ty)
    else:
        data = data.astype(compute_dtype(ty), copy=False)
    return Tensor(data, ty, region)


def convert_to_fp8(data: np.ndarray, ty: dtype, toward_zero: bool = False) -> Tensor:
    """Float data converted to an fp8 type as the GPU converts (float8.py)."""
    fmt = float8.FORMATS[ty.name]
    return Tensor(float8.decode_array(float8.encode_array(data, fmt, toward_zero), fmt), ty)


def wrap_int(value: int, ty: dtype) -> int:
    """An integer as the element type's bit pattern reads it (modulo 2**bits)."""
    bits = ty.primitive_bitwidth
    value &= (1 << bits) - 1
    if ty.is_int_signed() and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def constant(value: Any, ty: dtype) -> Tensor:
    """A scalar constant of type `ty`, as the frontend emits `arith.constant`
    (integers wrap into the type's bits; bools are their truth value)."""
    if ty.is_bool():
        return make(np.array(bool(value)), ty)
    if ty.is_floating():
        return make(np.array(float(value), dtype=np.float64), ty)
    return make(np.array(wrap_int(int(value), ty)), ty)


def literal(value: Any) -> bool:
    return isinstance(value, (bool, int, float))


def python_value(value: Any) -> Any:
    """Unwraps constexprs and NumPy scalars passed from the host."""
    value = T.unwrap(value)
    if isinstance(value, np.generic):
        return value.item()
    return value
