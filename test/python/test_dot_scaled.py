"""`tl.dot_scaled`: the IR (operands upcast to the 16-bit compute type, one
`tile.dot` with an fp32 accumulator), wgmma in the PTX for a Hopper-sized
product, and Triton's errors for misuse, located at the call. Values:
test/gpu/test_dot_scaled.py (compiled on the H200, interpreted in CI)."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import assert_error_at_case, requires_library, verify

import tile
import tile.language as tl

THIS_FILE = Path(__file__).resolve()


@tile.jit
def mx_dot(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
           K: tl.constexpr, FA: tl.constexpr, FB: tl.constexpr):
    PA: tl.constexpr = 2 if FA == "e2m1" else 1
    PB: tl.constexpr = 2 if FB == "e2m1" else 1
    G: tl.constexpr = K // 32
    rm, rn = tl.arange(0, M), tl.arange(0, N)
    a = tl.load(a_ptr + rm[:, None] * (K // PA) + tl.arange(0, K // PA)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K // PB)[:, None] * N + rn[None, :])
    sa = tl.load(sa_ptr + rm[:, None] * G + tl.arange(0, G)[None, :])
    sb = tl.load(sb_ptr + rn[:, None] * G + tl.arange(0, G)[None, :])
    c = tl.dot_scaled(a, sa, FA, b, sb, FB)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@pytest.mark.parametrize("fa,fb,types,compute", [
    ("e4m3", "e5m2", "*u8,*u8,*u8,*u8,*fp32", "bf16"),
    ("e2m1", "e4m3", "*u8,*u8,*u8,*u8,*fp32", "bf16"),
    ("fp16", "e2m1", "*fp16,*u8,*u8,*u8,*fp32", "f16"),
    ("bf16", "bf16", "*u16,*u8,*u16,*u8,*fp32", "bf16"),
])
def test_dot_scaled_ir_upcasts_to_the_compute_type(fa, fb, types, compute):
    ir = tile.generate_ir(mx_dot, types, {"M": 32, "N": 16, "K": 64, "FA": fa, "FB": fb})
    dots = [line for line in ir.splitlines() if "tile.dot " in line]
    assert len(dots) == 1, dots
    assert (f"!tile.block<32x64x{compute}>, !tile.block<64x16x{compute}> -> "
            "!tile.block<32x16xf32>") in dots[0]
    verify(ir)


@requires_library
def test_dot_scaled_runs_on_wgmma_for_hopper_tiles():
    ptx = tile.compile(mx_dot, "*u8,*u8,*u8,*u8,*fp32",
                       {"M": 128, "N": 128, "K": 128, "FA": "e2m1", "FB": "e5m2"},
                       target="sm_90a", num_warps=4).asm["ptx"]
    assert "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16" in ptx


@tile.jit
def bad_scaled(a_ptr, WHAT: tl.constexpr):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 64 + tl.arange(0, 64)[None, :])
    b = tl.load(a_ptr + tl.arange(0, 64)[:, None] * 32 + r[None, :])
    s2 = tl.full((32, 2), 127, tl.uint8)
    if WHAT == "factor_mismatch":
        tl.dot_scaled(a, tl.full((32, 4), 127, tl.uint8), "e5m2", b, s2, "e5m2")
    elif WHAT == "format":
        tl.dot_scaled(a, s2, "e3m4", b, s2, "e5m2")
    elif WHAT == "data_type":
        tl.dot_scaled(a.to(tl.float16), s2, "e4m3", b, s2, "e4m3")
    elif WHAT == "k_pack":
        tl.dot_scaled(a, s2, "e4m3", b, s2, "e4m3", lhs_k_pack=False)
    elif WHAT == "scale_shape":
        tl.dot_scaled(a, tl.full((16, 2), 127, tl.uint8), "e4m3", b, s2, "e4m3")
    elif WHAT == "reduction":
        tl.dot_scaled(a, s2, "e2m1", b, s2, "e4m3")
    elif WHAT == "scale_type":
        tl.dot_scaled(a, s2.to(tl.int32), "e4m3", b, s2, "e4m3")
    elif WHAT == "group":
        tl.dot_scaled(a, tl.full((32, 1), 127, tl.uint8), "e4m3", b, None, "e4m3")
    elif WHAT == "acc":
        tl.dot_scaled(a, s2, "e4m3", b, s2, "e4m3", tl.zeros((32, 32), tl.float16))


@pytest.mark.parametrize("what,message", [
    # Triton's message, word for word (its test_dot_scaled_shape_verification).
    ("factor_mismatch", "Operands must have the same scale factor; (lhs: 16 vs rhs: 32)"),
    ("format", "lhs_format must be one of bf16, e2m1, e4m3, e5m2, fp16, got 'e3m4'"),
    ("data_type", "lhs in format e4m3 must hold fp8e4nv or uint8, got fp16"),
    ("k_pack", "only e2m1 data can be packed along a dimension other than K"),
    ("scale_shape", "lhs_scale must be a tensor of shape [..., 32, 2]. Got [16, 2]"),
    ("reduction", "the reduction dimension should pack the same number of elements"),
    ("scale_type", "lhs_scale must hold uint8 (e8m0 exponents) or float8e4nv factors, got "
                   "int32"),
    ("group", "scale factor must be 16 or 32. Got 64"),
    ("acc", "acc must be a [32, 32] block of fp32, got [32, 32] fp16"),
])
def test_dot_scaled_misuse_is_located(what, message):
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(bad_scaled, "*u8", {"WHAT": what})
    assert_error_at_case(info.value, THIS_FILE, what, message)
