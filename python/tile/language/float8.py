"""The 8-bit float formats (Triton's `float8e4nv` and `float8e5`): their
values and how a wider float rounds to them, in one place for the compiler's
constants and the interpreter's arithmetic.

A conversion to them rounds to nearest even and saturates, as the GPU's
`cvt.rn.satfinite` does: a finite value or an infinity beyond the largest
finite one becomes that one, and NaN stays NaN. The source is rounded to
f32 first (an f64 is, on the GPU too); values of the formats are exact in
f32. Rounding toward zero (only to e5m2, as on the GPU) keeps infinities;
it composes, so an f64 source rounds in one step.
"""
from __future__ import annotations

import bisect
import math
import struct
from dataclasses import dataclass, field
from typing import Any

# The code every NaN converts to (the GPU's canonical one, of either format).
NAN_CODE = 0x7F


@dataclass(frozen=True)
class Float8Format:
    name: str            # Triton's dtype name: "fp8e4nv"
    exponent_bits: int
    mantissa_bits: int
    bias: int
    has_infinity: bool   # e5m2 is IEEE-like; e4m3fn has NaN only (S.1111.111)
    # The value of each code 0..255, and the finite non-negative ones in code
    # order (they increase with the code).
    values: tuple[float, ...] = field(init=False, repr=False, compare=False)
    finite: tuple[float, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        values = tuple(self._decode(code) for code in range(256))
        finite = tuple(v for v in values[:128] if math.isfinite(v))
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "finite", finite)

    def _decode(self, code: int) -> float:
        sign = -1.0 if code & 0x80 else 1.0
        top = (1 << self.exponent_bits) - 1
        exponent = (code >> self.mantissa_bits) & top
        fraction = code & ((1 << self.mantissa_bits) - 1)
        if self.has_infinity and exponent == top:
            return sign * math.inf if fraction == 0 else math.nan
        if not self.has_infinity and exponent == top and \
                fraction == (1 << self.mantissa_bits) - 1:
            return math.nan
        if exponent == 0:
            return sign * math.ldexp(fraction, 1 - self.bias - self.mantissa_bits)
        return sign * math.ldexp((1 << self.mantissa_bits) + fraction,
                                 exponent - self.bias - self.mantissa_bits)

    @property
    def max_code(self) -> int:
        return len(self.finite) - 1

    @property
    def infinity_code(self) -> int:
        return self.max_code + 1  # e5m2's 0x7C

    @property
    def max(self) -> float:
        return self.finite[-1]


FORMATS = {
    "fp8e4nv": Float8Format("fp8e4nv", 4, 3, 7, has_infinity=False),
    "fp8e5": Float8Format("fp8e5", 5, 2, 15, has_infinity=True),
}


def _f32(value: float) -> float:
    try:
        return struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def encode(value: float, fmt: Float8Format, toward_zero: bool = False) -> int:
    """The code `value` converts to (rounded to nearest f32 first)."""
    value = float(value) if toward_zero else _f32(float(value))
    if math.isnan(value):
        return NAN_CODE
    sign = 0x80 if math.copysign(1.0, value) < 0 else 0
    magnitude = abs(value)
    if toward_zero and fmt.has_infinity and math.isinf(magnitude):
        return sign | fmt.infinity_code
    if magnitude >= fmt.max:
        return sign | fmt.max_code
    below = bisect.bisect_right(fmt.finite, magnitude) - 1
    if toward_zero:
        return sign | below
    low, high = fmt.finite[below], fmt.finite[below + 1]
    up = magnitude - low > high - magnitude or \
        (magnitude - low == high - magnitude and below % 2 == 1)
    return sign | (below + up)


def round_to(value: float, fmt: Float8Format) -> float:
    """`value` as the nearest value of `fmt` (see encode)."""
    return fmt.values[encode(value, fmt)]


def encode_array(data: Any, fmt: Float8Format, toward_zero: bool = False,
                 keep_infinity: bool = False) -> Any:
    """encode for a NumPy array of floats: the codes as uint8, in its shape.
    `keep_infinity` gives an infinity its own code (fp8e5 has one) instead of
    saturating: the bits of values that are already fp8."""
    import numpy as np
    x = np.asarray(data)
    if not toward_zero:
        with np.errstate(over="ignore"):  # beyond the f32 range: inf, as intended
            x = x.astype(np.float32)
    x = x.astype(np.float64)
    finite = np.array(fmt.finite)
    magnitude = np.abs(x)
    below = np.clip(np.searchsorted(finite, magnitude, side="right") - 1, 0, fmt.max_code)
    if toward_zero:
        code = below
    else:
        low, high = finite[below], finite[np.minimum(below + 1, fmt.max_code)]
        up = (magnitude - low > high - magnitude) | \
            ((magnitude - low == high - magnitude) & (below % 2 == 1))
        code = below + up
    code = np.where(magnitude >= fmt.max, fmt.max_code, code)
    if (toward_zero or keep_infinity) and fmt.has_infinity:
        code = np.where(np.isinf(magnitude), fmt.infinity_code, code)
    code = code | np.where(np.signbit(x), 0x80, 0)
    return np.where(np.isnan(x), NAN_CODE, code).astype(np.uint8)


def decode_array(codes: Any, fmt: Float8Format) -> Any:
    """The values (float32) of a NumPy array of codes."""
    import numpy as np
    return np.array(fmt.values, dtype=np.float32)[np.asarray(codes).astype(np.intp)]
