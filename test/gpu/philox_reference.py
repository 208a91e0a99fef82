"""A reference for tl.randint4x / randint / rand / randn (Triton's Philox), in
plain Python integers: what the kernels must produce, element by element.

Philox 4xW-R (Salmon et al., SC'11; Random123's philox4x32 and philox4x64):
each round multiplies counter words 0 and 2 by M0 and M1 into double-width
products, xors their high halves with the other words and the key, and bumps
the key by the Weyl constants W0, W1. test/python/test_random.py checks this
module against Random123's known-answer vectors.

Triton's use of it: the key is the seed's 64 bits (sign-extended from its
type) split into (low word, high word); the counter is (offset's low 32 bits,
its high 32 bits or 0 for a 32-bit offset type, 0, 0); the first output word
is `randint`; `rand` folds it to a non-negative int32 and scales it in f32;
`randn` is Box-Muller on the first two words' uniforms.
"""
from __future__ import annotations

import math
import struct
from typing import Sequence

M32 = (1 << 32) - 1
M64 = (1 << 64) - 1
# (M0, M1, W0, W1) by word width.
CONSTANTS = {32: (0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85),
             64: (0xD2E7470EE14C6C93, 0xCA5A826395121157, 0x9E3779B97F4A7C15,
                  0xBB67AE8584CAA73B)}
UNIFORM_SCALE_32 = 4.6566127342e-10  # Triton's: the largest keeping the maximum below 1.0
UNIFORM_SCALE_64 = 1.0842020432385337e-19


def philox(counter: Sequence[int], key: Sequence[int], rounds: int = 10,
           bits: int = 32) -> tuple[int, int, int, int]:
    """Philox 4x`bits` with `rounds` rounds on a counter of four words and a
    key of two (as unsigned `bits`-bit integers)."""
    mask = (1 << bits) - 1
    m0, m1, w0, w1 = CONSTANTS[bits]
    c0, c1, c2, c3 = (c & mask for c in counter)
    k0, k1 = (k & mask for k in key)
    for _ in range(rounds):
        p0, p1 = m0 * c0, m1 * c2
        c0, c1, c2, c3 = ((p1 >> bits) ^ c1 ^ k0, p1 & mask, (p0 >> bits) ^ c3 ^ k1, p0 & mask)
        k0, k1 = (k0 + w0) & mask, (k1 + w1) & mask
    return c0, c1, c2, c3


def randint4x(seed: int, offsets: Sequence[int], wide_offsets: bool = False,
              rounds: int = 10) -> list[list[int]]:
    """The four uint32 blocks of tl.randint4x(seed, offsets) for offsets of a
    64-bit type (`wide_offsets`) or a narrower one, as lists."""
    key = (seed & M32, (seed & M64) >> 32)
    words = [philox((o & M32, (o >> 32) & M32 if wide_offsets else 0, 0, 0), key, rounds)
             for o in offsets]
    return [[w[i] for w in words] for i in range(4)]


def to_f32(x: float) -> float:
    """`x` rounded to the nearest float32 (ties to even)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def int_to_f32(value: int) -> float:
    """An integer converted to float32 with one rounding (as cvt.rn.f32.s64;
    float(value) would round to f64 first)."""
    magnitude = abs(value)
    shift = max(magnitude.bit_length() - 24, 0)
    quotient, remainder = divmod(magnitude, 1 << shift)
    half = (1 << shift) >> 1
    if shift and (remainder > half or (remainder == half and quotient & 1)):
        quotient += 1
    return math.copysign(float(quotient << shift), value) if value else 0.0


def uniform(words: Sequence[int], bits: int = 32) -> list[float]:
    """tl.uint_to_uniform_float of `bits`-bit words: float32 in [0, 1)."""
    scale = to_f32(UNIFORM_SCALE_32 if bits == 32 else UNIFORM_SCALE_64)
    result = []
    for word in words:
        signed = word - (1 << bits) if word >> (bits - 1) else word
        folded = -signed - 1 if signed < 0 else signed
        result.append(to_f32(int_to_f32(folded) * scale))  # the f32 product is exact in f64
    return result


def rand(seed: int, offsets: Sequence[int], wide_offsets: bool = False,
         rounds: int = 10) -> list[float]:
    return uniform(randint4x(seed, offsets, wide_offsets, rounds)[0])


def normal_pair(u1: float, u2: float) -> tuple[float, float]:
    """Box-Muller as tl.pair_uniform_to_normal (in f64: the kernels' f32
    math functions are a few ulp from it)."""
    u1 = max(to_f32(1.0e-7), u1)
    theta = to_f32(to_f32(6.283185307179586) * u2)
    radius = math.sqrt(-2.0 * math.log(u1))
    return radius * math.cos(theta), radius * math.sin(theta)


def randn(seed: int, offsets: Sequence[int], wide_offsets: bool = False,
          rounds: int = 10) -> list[float]:
    first, second, _, _ = randint4x(seed, offsets, wide_offsets, rounds)
    return [normal_pair(a, b)[0] for a, b in zip(uniform(first), uniform(second))]
