"""`tl.dot_scaled`: a product of microscaled operands (OCP MX formats and
fp16/bf16), as Triton computes it on Hopper: each operand is upcast to a
16-bit compute type (fp16 when either side is fp16, bf16 otherwise), scaled
by its per-group power of two (an e8m0 byte, 2^(s-127), for each 32 elements
along K; an fp8 e4m3 factor for each 16 with nvfp4), then multiplied on the
dot path with an fp32 accumulator. A scale byte of 0xFF is NaN unless
`fast_math`. Written as a @jit function (core.library_builtin), so compiled
and interpreted kernels share it."""
from __future__ import annotations

from typing import Any, Callable, Optional

from ..errors import ConstantRequired, TileError
from ..runtime.jit import jit
from .. import language as tl
from . import types as T
from .core import _dtype, library_builtin
from .semantic import tensor

ToValue = Callable[[Any], tensor]

# The element type each format's data may arrive in: the float type itself,
# or an unsigned integer holding its bits (Triton's `_bitcast_to_fp_type`).
# e2m1 comes only as bytes of two values.
_FORMATS = {
    "e2m1": (None, T.uint8), "e4m3": (T.float8e4nv, T.uint8), "e5m2": (T.float8e5, T.uint8),
    "bf16": (T.bfloat16, T.uint16), "fp16": (T.float16, T.uint16),
}


@jit
def _e2m1_to_float32(nibble):
    # Bits s e1 e0 m, exponent bias 1: magnitudes 0, 0.5 (the one subnormal),
    # then 1, 1.5, 2, 3, 4, 6. A normal one's e1 e0 m land in fp32's low
    # exponent bits and top mantissa bit; the bias moves from 1 to 127.
    magnitude = (nibble & 7).to(tl.uint32)
    normal = (magnitude << 22) + (126 << 23)
    subnormal = tl.where(magnitude == 1, 0x3F000000, 0).to(tl.uint32)
    bits = tl.where(magnitude >= 2, normal, subnormal)
    bits = bits | ((nibble & 8).to(tl.uint32) << 28)
    return bits.to(tl.float32, bitcast=True)


@jit
def _unpack_e2m1(x, order: tl.constexpr, shape: tl.constexpr):
    # Two values per byte, the low nibble first along the packed axis: a new
    # minor axis of two, moved behind the packed one and merged into it.
    pair = tl.join(_e2m1_to_float32(x & 15), _e2m1_to_float32(x >> 4))
    return tl.reshape(tl.permute(pair, order), shape)


@jit
def _scale_factor(scale, fast_math: tl.constexpr):
    # An e8m0 byte s is 2^(s-127): s in fp32's exponent field (0 gives 0.0,
    # as Triton's shift does); 0xFF is NaN. Float scales are factors.
    if scale.dtype == tl.uint8:
        factor = (scale.to(tl.uint32) << 23).to(tl.float32, bitcast=True)
        if not fast_math:
            factor = tl.where(scale == 0xFF, float("nan"), factor)
    else:
        factor = scale.to(tl.float32)
    return factor


@jit
def _scaled_operand(x, scale, data_type: tl.constexpr, unpack_order: tl.constexpr,
                    shape: tl.constexpr, compute: tl.constexpr, fast_math: tl.constexpr,
                    groups: tl.constexpr, grouped: tl.constexpr, scale_order: tl.constexpr,
                    rank: tl.constexpr):
    # x upcast to the compute type, then times its scale there (Triton's
    # order of rounding); the scale, one per group of K, repeated over its
    # group (`groups`: the scale's shape with the group's extent behind it,
    # `grouped`: that merged into K) and, for the rhs, transposed to (K, N).
    if data_type is None:  # e2m1, two values per byte
        value = _unpack_e2m1(x, unpack_order, shape).to(compute)
    else:
        if x.dtype != data_type:  # the format's bits in an unsigned integer
            x = x.to(data_type, bitcast=True)
        value = x.to(compute)
    if scale is not None:
        factor = _scale_factor(scale, fast_math).to(compute)
        factor = tl.reshape(tl.broadcast_to(tl.expand_dims(factor, rank), groups),
                            grouped)
        value = value * tl.permute(factor, scale_order)
    return value


@jit
def _dot_scaled(lhs, lhs_scale, rhs, rhs_scale, acc, lhs_type: tl.constexpr,
                lhs_unpack: tl.constexpr, lhs_shape: tl.constexpr, lhs_groups: tl.constexpr,
                lhs_grouped: tl.constexpr, lhs_order: tl.constexpr, rhs_type: tl.constexpr,
                rhs_unpack: tl.constexpr, rhs_shape: tl.constexpr, rhs_groups: tl.constexpr,
                rhs_grouped: tl.constexpr, rhs_order: tl.constexpr, compute: tl.constexpr,
                fast_math: tl.constexpr, rank: tl.constexpr, result_shape: tl.constexpr,
                out_dtype: tl.constexpr):
    a = _scaled_operand(lhs, lhs_scale, lhs_type, lhs_unpack, lhs_shape, compute, fast_math,
                        lhs_groups, lhs_grouped, lhs_order, rank)
    b = _scaled_operand(rhs, rhs_scale, rhs_type, rhs_unpack, rhs_shape, compute, fast_math,
                        rhs_groups, rhs_grouped, rhs_order, rank)
    if acc is None:
        acc = tl.zeros(result_shape, out_dtype)
    return tl.dot(a, b, acc)


def _format(value: Any, side: str) -> str:
    name = T.unwrap(value)
    if isinstance(name, tensor):
        raise ConstantRequired(f"tl.dot_scaled's {side}_format must be a compile-time string")
    if name not in _FORMATS:
        raise TileError(f"tl.dot_scaled: {side}_format must be one of "
                        f"{', '.join(sorted(_FORMATS))}, got {name!r}")
    return name


def _data(to_value: ToValue, value: Any, name: str, side: str) -> tensor:
    x = to_value(value)
    if not x.is_block() or len(x.shape) not in (2, 3):
        raise TileError(f"tl.dot_scaled's {side} must be a rank-2 or rank-3 block, got "
                        f"{list(x.shape) if x.is_block() else x.dtype}")
    float_type, bits_type = _FORMATS[name]
    if x.dtype != float_type and x.dtype != bits_type:
        held = f"{float_type} or {bits_type}" if float_type else f"{bits_type} (two per byte)"
        raise TileError(f"tl.dot_scaled's {side} in format {name} must hold {held}, got "
                        f"{x.dtype}")
    return x


def _scale(to_value: ToValue, value: Any, side: str) -> Optional[tensor]:
    if T.unwrap(value) is None:
        return None
    scale = to_value(value)
    if scale.dtype not in (T.uint8, T.float8e4nv):
        raise TileError(f"tl.dot_scaled's {side}_scale must hold uint8 (e8m0 exponents) or "
                        f"float8e4nv factors, got {scale.dtype}")
    if not scale.is_block():
        raise TileError(f"tl.dot_scaled's {side}_scale must be a block, one scale per group "
                        "of K")
    return scale


def _group_size(scale: Optional[tensor], k: int) -> int:
    """Triton's deduction from the shapes: K over the scale's last extent,
    16 or 32; 0 where there is no scale to deduce it from."""
    if scale is None:
        return 0
    size = k // scale.shape[-1]
    if size not in (16, 32):
        raise TileError(f"scale factor must be 16 or 32. Got {size}")
    return size


def _plan(x: tensor, fp4: bool, k_pack: bool, k_axis: int) -> tuple[list[int], list[int]]:
    """The permutation and shape that unpack an e2m1 operand along its
    packed axis (K, or M/N without k_pack)."""
    rank = len(x.shape)
    axis = k_axis if k_pack else (rank - 2 if k_axis == rank - 1 else rank - 1)
    order = list(range(rank))
    order.insert(axis + 1, rank)
    shape = list(x.shape)
    if fp4:
        shape[axis] *= 2
    return order, shape


@library_builtin(_dot_scaled)
def dot_scaled(to_value: ToValue, lhs: Any, lhs_scale: Any, lhs_format: Any, rhs: Any,
               rhs_scale: Any, rhs_format: Any, acc: Any = None, fast_math: Any = False,
               lhs_k_pack: Any = True, rhs_k_pack: Any = True,
               out_dtype: Any = T.float32) -> list[Any]:
    """`lhs @ rhs` of microscaled operands: lhs (M, K) with lhs_scale
    (M, K // group), rhs (K, N) with rhs_scale (N, K // group), rank-3 with a
    leading batch; e2m1 data packs two values per byte along K (along M or N
    without `*_k_pack`). A scale may be None (no scaling)."""
    formats = (_format(lhs_format, "lhs"), _format(rhs_format, "rhs"))
    a = _data(to_value, lhs, formats[0], "lhs")
    b = _data(to_value, rhs, formats[1], "rhs")
    if len(a.shape) != len(b.shape):
        raise TileError(f"tl.dot_scaled's operands must both be rank 2 or both rank 3, got "
                        f"{list(a.shape)} and {list(b.shape)}")
    packs = (bool(T.unwrap(lhs_k_pack)), bool(T.unwrap(rhs_k_pack)))
    for name, pack, side in zip(formats, packs, ("lhs", "rhs")):
        if not pack and name != "e2m1":
            raise TileError(f"tl.dot_scaled: only e2m1 data can be packed along a dimension "
                            f"other than K ({side}_k_pack=False with {name})")
    rank = len(a.shape)
    fp4 = (formats[0] == "e2m1", formats[1] == "e2m1")
    a_order, a_shape = _plan(a, fp4[0], packs[0], rank - 1)
    b_order, b_shape = _plan(b, fp4[1], packs[1], rank - 2)
    if a_shape[-1] != b_shape[-2]:
        raise TileError(f"tl.dot_scaled: the reduction dimension should pack the same number "
                        f"of elements; (lhs: {list(a.shape)} vs rhs: {list(b.shape)})")
    if rank == 3 and a_shape[0] != b_shape[0]:
        raise TileError(f"tl.dot_scaled batch sizes differ: {a_shape[0]} and {b_shape[0]}")
    m, k, n = a_shape[-2], a_shape[-1], b_shape[-1]
    scales = (_scale(to_value, lhs_scale, "lhs"), _scale(to_value, rhs_scale, "rhs"))
    sizes = (_group_size(scales[0], k), _group_size(scales[1], k))
    if sizes[0] and sizes[1] and sizes[0] != sizes[1]:
        raise TileError(f"Operands must have the same scale factor; (lhs: {sizes[0]} vs rhs: "
                        f"{sizes[1]})")
    group = sizes[0] or sizes[1] or 32
    batch = a_shape[:-2]
    plans = []
    for scale, rows, side in zip(scales, (m, n), ("lhs", "rhs")):
        expected = batch + [rows, k // group]
        if scale is not None and list(scale.shape) != expected:
            raise TileError(f"{side}_scale must be a tensor of shape [..., {rows}, "
                            f"{k // group}]. Got {list(scale.shape)}")
        groups = expected + [group]
        grouped = expected[:-1] + [k]
        order = list(range(rank))
        if side == "rhs":  # the scale comes as (N, K // group)
            order[-2:] = [rank - 1, rank - 2]
        plans.append((groups, grouped, order))
    out = _dtype(out_dtype)
    if not out.is_floating():
        raise TileError(f"tl.dot_scaled's out_dtype must be a float type, got {out}")
    accumulator = None
    if T.unwrap(acc) is not None:
        accumulator = to_value(acc)
        if list(accumulator.shape) != batch + [m, n] or accumulator.dtype != out:
            raise TileError(f"tl.dot_scaled's acc must be a {batch + [m, n]} block of "
                            f"{out}, got {list(accumulator.shape)} {accumulator.dtype}")
    compute = T.float16 if "fp16" in formats else T.bfloat16
    data_types = [_FORMATS[name][0] for name in formats]
    return [a, scales[0], b, scales[1], accumulator, data_types[0], a_order, a_shape, *plans[0],
            data_types[1], b_order, b_shape, *plans[1], compute, bool(T.unwrap(fast_math)), rank,
            batch + [m, n], out]


__all__ = ["dot_scaled"]
