"""Triton's random numbers: `tl.randint4x`, `randint`, `rand`, `randn` (and
`rand4x`, `randn4x`), `philox`, `philox_impl`, `uint_to_uniform_float`,
`pair_uniform_to_normal`.

They are Philox 4x32 (Salmon et al., "Parallel random numbers: as easy as
1, 2, 3", SC'11; Random123's philox4x32), counter-based: the numbers for an
offset depend only on the seed and that offset, and are Triton's bit for bit.
The key is the 64-bit seed split into two 32-bit words (low first); the
counter is the offset's low 32 bits, its high 32 bits (0 for 32-bit offsets)
and two zero words. Ten rounds unless `n_rounds` says otherwise.

Each builtin checks its arguments at the call (`core.library_builtin`) and
inlines the @jit function below of the same name, written with tl builtins;
the interpreter runs the same functions with tl bound to NumPy.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable

from ..errors import TileError
from ..runtime.jit import jit
from .. import language as tl
from . import math
from .core import _constexpr_int, library_builtin
from .semantic import tensor

N_ROUNDS_DEFAULT = 10

# Philox's round multipliers (M0, M1) and key increments (the Weyl
# constants W0, W1) for 32- and 64-bit words (Random123's PHILOX_M4x32_0,
# PHILOX_M4x32_1, PHILOX_W32_0, PHILOX_W32_1, and their 64-bit versions).
PHILOX_4X32 = (0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85)
PHILOX_4X64 = (0xD2E7470EE14C6C93, 0xCA5A826395121157, 0x9E3779B97F4A7C15,
               0xBB67AE8584CAA73B)

ToValue = Callable[[Any], tensor]


# ----------------------------------------------------------------------------
# The generator, in tl builtins
# ----------------------------------------------------------------------------

@jit
def _philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: tl.constexpr):
    if c0.dtype == tl.uint32:
        m0, m1, w0, w1 = PHILOX_4X32
    else:
        m0, m1, w0, w1 = PHILOX_4X64
    for _ in tl.static_range(n_rounds):
        # One round: two widening products, their halves mixed with the key.
        x0 = c0
        x2 = c2
        c0 = math.umulhi(m1, x2) ^ c1 ^ k0
        c2 = math.umulhi(m0, x0) ^ c3 ^ k1
        c1 = x2 * m1
        c3 = x0 * m0
        k0 = k0 + w0
        k1 = k1 + w1
    return c0, c1, c2, c3


@jit
def _philox(seed, c0, c1, c2, c3, n_rounds: tl.constexpr):
    seed = seed.to(tl.uint64)
    if c0.dtype.primitive_bitwidth == 32:
        word = tl.uint32
        key_lo = seed.to(tl.uint32)
        key_hi = (seed >> 32).to(tl.uint32)
    else:
        # Philox 4x64 keyed by the seed alone; its second key word is a
        # block of one zero, as Triton's (so scalar counters give [1] blocks).
        word = tl.uint64
        key_lo = seed
        key_hi = tl.full((1,), 0, tl.uint64)
    return _philox_impl(c0.to(word, bitcast=True), c1.to(word, bitcast=True),
                        c2.to(word, bitcast=True), c3.to(word, bitcast=True), key_lo, key_hi,
                        n_rounds)


@jit
def _randint4x(seed, offset, n_rounds: tl.constexpr):
    low = offset.to(tl.uint32)
    zero = low * 0
    if offset.dtype.primitive_bitwidth > 32:
        high = (offset >> 32).to(tl.uint32)
    else:
        high = zero
    return _philox(seed, low, high, zero, zero, n_rounds)


@jit
def _randint(seed, offset, n_rounds: tl.constexpr):
    first, _, _, _ = _randint4x(seed, offset, n_rounds)
    return first


@jit
def _uint_to_uniform_float(x):
    # Signed, folded to non-negative (-x - 1 for x < 0), times the largest
    # scale that keeps the maximum below 1.0 after f32 rounding.
    if x.dtype.primitive_bitwidth == 32:
        x = x.to(tl.int32, bitcast=True)
        scale = 4.6566127342e-10
    else:
        x = x.to(tl.int64, bitcast=True)
        scale = 1.0842020432385337e-19
    x = tl.where(x < 0, -x - 1, x)
    return x * scale


@jit
def _rand(seed, offset, n_rounds: tl.constexpr):
    return _uint_to_uniform_float(_randint(seed, offset, n_rounds))


@jit
def _rand4x(seed, offsets, n_rounds: tl.constexpr):
    i0, i1, i2, i3 = _randint4x(seed, offsets, n_rounds)
    return (_uint_to_uniform_float(i0), _uint_to_uniform_float(i1),
            _uint_to_uniform_float(i2), _uint_to_uniform_float(i3))


@jit
def _pair_uniform_to_normal(u1, u2):
    # Box-Muller; u1 is kept off 0 so that the logarithm stays finite.
    u1 = tl.maximum(1.0e-7, u1)
    theta = 6.283185307179586 * u2
    radius = math.sqrt(-2.0 * math.log(u1))
    return radius * math.cos(theta), radius * math.sin(theta)


@jit
def _randn(seed, offset, n_rounds: tl.constexpr):
    i0, i1, _, _ = _randint4x(seed, offset, n_rounds)
    n0, _ = _pair_uniform_to_normal(_uint_to_uniform_float(i0), _uint_to_uniform_float(i1))
    return n0


@jit
def _randn4x(seed, offset, n_rounds: tl.constexpr):
    u0, u1, u2, u3 = _rand4x(seed, offset, n_rounds)
    n0, n1 = _pair_uniform_to_normal(u0, u1)
    n2, n3 = _pair_uniform_to_normal(u2, u3)
    return n0, n1, n2, n3


# ----------------------------------------------------------------------------
# Argument checks (at the user's call)
# ----------------------------------------------------------------------------

def _integer(to_value: ToValue, value: Any, what: str, role: str) -> tensor:
    x = to_value(value)
    if not x.dtype.is_int():
        raise TileError(f"{what}: {role} must be an integer or a block of integers, got "
                        f"{x.dtype}")
    return x


def _rounds(n_rounds: Any, what: str) -> int:
    rounds = _constexpr_int(n_rounds, f"{what}'s n_rounds")
    if rounds < 0:
        raise TileError(f"{what}: n_rounds must not be negative, got {rounds}")
    return rounds


def _seeded(to_value: ToValue, seed: Any, offset: Any, n_rounds: Any, what: str) -> list[Any]:
    """seed: an integer (its 64 bits are the key); offset: integers (their
    low and high 32 bits are the counter). Float offsets are an error here
    (Triton would convert them to uint32 silently)."""
    return [_integer(to_value, seed, what, "the seed"),
            _integer(to_value, offset, what, "the offsets"), _rounds(n_rounds, what)]


def _seeded_builtin(impl: Any, name: str, doc: str, offset: str = "offset") -> Any:
    """The builtin tl.<name>(seed, <offset>, n_rounds=10) of `impl`."""
    def prepare(to_value: ToValue, seed: Any, offset: Any,
                n_rounds: Any = N_ROUNDS_DEFAULT) -> list[Any]:
        return _seeded(to_value, seed, offset, n_rounds, f"tl.{name}")
    signature = inspect.signature(prepare)
    parameters = [p.replace(name=offset) if p.name == "offset" else p
                  for p in signature.parameters.values()]
    prepare.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    prepare.__name__ = prepare.__qualname__ = name
    prepare.__doc__ = doc
    return library_builtin(impl)(prepare)


randint4x = _seeded_builtin(_randint4x, "randint4x", """Four blocks of random uint32 for
    `seed` (an integer) and the `offset` block: Philox's four output words. The fastest
    entry point.""")
randint = _seeded_builtin(_randint, "randint", """A block of random uint32: the first block
    of `tl.randint4x`.""")
rand = _seeded_builtin(_rand, "rand", """A block of random float32, uniform in [0, 1):
    `tl.randint` through `tl.uint_to_uniform_float`.""")
rand4x = _seeded_builtin(_rand4x, "rand4x", """Four blocks of random float32 in [0, 1), one
    per block of `tl.randint4x`.""", offset="offsets")
randn = _seeded_builtin(_randn, "randn", """A block of random float32 from N(0, 1):
    Box-Muller on the first two blocks of `tl.randint4x`, the cosine half.""")
randn4x = _seeded_builtin(_randn4x, "randn4x", """Four blocks of random float32 from N(0, 1):
    Box-Muller on the pairs of `tl.rand4x`'s blocks.""")


def _counters(to_value: ToValue, counters: tuple[Any, ...], what: str) -> list[tensor]:
    values = [to_value(c) for c in counters]
    widths = [None if v.dtype.is_ptr() else v.dtype.primitive_bitwidth for v in values]
    for index, (value, width) in enumerate(zip(values, widths)):
        if width not in (32, 64) or width != widths[0]:
            raise TileError(f"{what}: the counters c0..c3 must be 32-bit or 64-bit values of "
                            f"one width, but c{index} is {value.dtype}")
    return values


@library_builtin(_philox)
def philox(to_value: ToValue, seed: Any, c0: Any, c1: Any, c2: Any, c3: Any,
           n_rounds: Any = N_ROUNDS_DEFAULT) -> list[Any]:
    """`n_rounds` of Philox on the counter (c0, c1, c2, c3), keyed by `seed`:
    32-bit counters (their bits, whatever their type) are Philox 4x32 with the
    seed's low and high words as the key; 64-bit ones are Philox 4x64 with the
    key (seed, 0). Returns the four words as uint32 (uint64) values."""
    what = "tl.philox"
    return [_integer(to_value, seed, what, "the seed"),
            *_counters(to_value, (c0, c1, c2, c3), what), _rounds(n_rounds, what)]


@library_builtin(_philox_impl)
def philox_impl(to_value: ToValue, c0: Any, c1: Any, c2: Any, c3: Any, k0: Any, k1: Any,
                n_rounds: Any = N_ROUNDS_DEFAULT) -> list[Any]:
    """`n_rounds` Philox rounds on the counter (c0, c1, c2, c3) with the key
    (k0, k1): uint32 counters are Philox 4x32, uint64 ones Philox 4x64."""
    what = "tl.philox_impl"
    counters = _counters(to_value, (c0, c1, c2, c3), what)
    word = counters[0].dtype
    if not word.is_int_unsigned() or any(c.dtype != word for c in counters):
        raise TileError(f"{what}: the counters c0..c3 must all be uint32 or all uint64, got "
                        f"{', '.join(str(c.dtype) for c in counters)}")
    keys = [_integer(to_value, k, what, f"the key word k{i}") for i, k in enumerate((k0, k1))]
    return [*counters, *keys, _rounds(n_rounds, what)]


@library_builtin(_uint_to_uniform_float)
def uint_to_uniform_float(to_value: ToValue, x: Any) -> list[Any]:
    """Random 32- or 64-bit integers (their bits) -> float32 uniform in [0, 1)."""
    value = to_value(x)
    if value.dtype not in (tl.int32, tl.uint32, tl.int64, tl.uint64):
        raise TileError("tl.uint_to_uniform_float needs int32, uint32, int64 or uint64 "
                        f"values, got {value.dtype}")
    return [value]


@library_builtin(_pair_uniform_to_normal)
def pair_uniform_to_normal(to_value: ToValue, u1: Any, u2: Any) -> list[Any]:
    """Two uniform samples in [0, 1) -> two N(0, 1) samples (Box-Muller)."""
    values = [to_value(u) for u in (u1, u2)]
    for name, value in zip(("u1", "u2"), values):
        if not value.dtype.is_floating():
            raise TileError(f"tl.pair_uniform_to_normal: {name} must be floating-point, got "
                            f"{value.dtype}")
    return values


__all__ = ["randint4x", "randint", "rand", "rand4x", "randn", "randn4x", "philox",
           "philox_impl", "uint_to_uniform_float", "pair_uniform_to_normal"]
