"""The dots beyond fp16/bf16/fp32 matrices: int8 blocks (int32 accumulation in
the IR and the PTX: integer multiply-adds, no float conversion), fp64 ones
(fp64 throughout), rank-3 blocks (a batch of products); Triton's typing rules
and the errors for misuse. Values: test/gpu/test_dot_kinds_and_fp_fusion.py."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from conftest import REPO, assert_error_at_case, requires_library, verify

import tile
import tile.language as tl

THIS_FILE = Path(__file__).resolve()

@tile.jit
def int8_dot(a_ptr, b_ptr, c_ptr, OUT: tl.constexpr, ACC: tl.constexpr):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 32 + r[None, :])
    if ACC:
        c = tl.dot(a, b, acc=tl.zeros((32, 32), dtype=tl.int32), out_dtype=OUT)
    else:
        c = tl.dot(a, b, out_dtype=OUT)
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], c)


def test_int8_dot_accumulates_in_int32():
    ir = tile.generate_ir(int8_dot, "*i8,*i8,*i32", {"OUT": tl.float32, "ACC": False})
    assert "tile.dot" in ir and "xi8>, !tile.block<32x32xi8> -> !tile.block<32x32xi32>" in ir
    # Triton's rule: an int8 dot gives int32 whatever out_dtype says.
    assert "sitofp" not in ir and "tile.cast" not in ir.split("tile.dot")[1]
    verify(ir)


@requires_library
@pytest.mark.parametrize("target", ["sm_80", "sm_90"])
def test_int8_dot_ptx_runs_on_mma_sync_in_s32(target):
    # 32-deep K steps: mma.sync m16n8k32 (no wgmma: sm_90 without the "a").
    ptx = tile.compile(int8_dot, "*i8,*i8,*i32", {"OUT": tl.int32, "ACC": True},
                       target=target).asm["ptx"]
    body = ptx.split(".section")[0]
    assert "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32" in body, body
    assert "fma.rn.f32" not in body and "cvt.rn.f32.s" not in body


@tile.jit
def int8_dot_16_deep(a_ptr, b_ptr, c_ptr):
    r = tl.arange(0, 32)
    k = tl.arange(0, 16)
    a = tl.load(a_ptr + r[:, None] * 16 + k[None, :])
    b = tl.load(b_ptr + k[:, None] * 32 + r[None, :])
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], tl.dot(a, b))


@requires_library
def test_int8_dot_below_a_tensor_core_step_multiplies_integers():
    ptx = tile.compile(int8_dot_16_deep, "*i8,*i8,*i32", {}, target="sm_90").asm["ptx"]
    body = ptx.split(".section")[0]
    # i8 x i8 products: LLVM widens them (mul.wide.s16) or multiplies in i32.
    assert "mma.sync" not in body
    assert re.search(r"\b(mul|mad)\.(wide|lo)\.s(16|32)\b", body), body
    assert "fma.rn.f32" not in body and "cvt.rn.f32.s" not in body


@tile.jit
def bad_dot(a_ptr, b_ptr, WHAT: tl.constexpr):
    r = tl.arange(0, 16)
    a = tl.load(a_ptr + r[:, None] * 16 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 16 + r[None, :])
    if WHAT == "float_acc":
        tl.dot(a, b, acc=tl.zeros((16, 16), dtype=tl.float32))
    elif WHAT == "int_acc":
        tl.dot(a.to(tl.float16), b.to(tl.float16), acc=tl.zeros((16, 16), dtype=tl.int32))
    elif WHAT == "mixed":
        tl.dot(a, b.to(tl.float16))
    elif WHAT == "batch":
        tl.dot(tl.reshape(a, (2, 8, 16)), tl.reshape(b, (4, 16, 4)))
    elif WHAT == "batch_shape":
        tl.dot(tl.reshape(a, (2, 2, 4, 16)), tl.reshape(b, (4, 1, 16, 4)))
    elif WHAT == "ranks":
        tl.dot(tl.reshape(a, (2, 8, 16)), b)
    elif WHAT == "bf16_out":
        tl.dot(a.to(tl.float16), b.to(tl.float16), out_dtype=tl.bfloat16)


@pytest.mark.parametrize("what,message", [
    ("float_acc", "tl.dot of int8 blocks accumulates in int32; acc= is fp32"),
    ("int_acc", "tl.dot of float blocks accumulates in fp32; acc= is int32"),
    ("mixed", "tl.dot supports fp16, bf16 and fp32 operands, two fp8 ones, two int8 ones "
              "(int32 result) and two fp64 ones, got int8 and fp16"),
    ("batch", "tl.dot batch shapes differ: [2] and [4] (shapes [2, 8, 16] and [4, 16, 4])"),
    ("batch_shape", "tl.dot batch shapes differ: [2, 2] and [4, 1]"),
    ("ranks", "tl.dot needs two blocks of one rank, at least 2 (more: a batch), got shapes "
              "[2, 8, 16] and [16, 16]"),
    ("bf16_out", "out_dtype=bfloat16 is unsupported"),
])
def test_int8_dot_misuse_is_located(what, message):
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(bad_dot, "*i8,*i8", {"WHAT": what})
    assert_error_at_case(info.value, THIS_FILE, what, message)


@tile.jit
def batched_dot(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                K: tl.constexpr):
    rb, rm, rn, rk = tl.arange(0, B), tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rb[:, None, None] * M * K + rm[None, :, None] * K + rk[None, None, :])
    b = tl.load(b_ptr + rb[:, None, None] * K * N + rk[None, :, None] * N + rn[None, None, :])
    c = tl.dot(a, b, out_dtype=tl.float16)
    tl.store(c_ptr + rb[:, None, None] * M * N + rm[None, :, None] * N + rn[None, None, :], c)


@pytest.mark.parametrize("types,result", [
    ("*fp16,*fp16,*fp16", "f16"),   # fp16 inputs give out_dtype
    ("*fp32,*fp32,*fp32", "f32"),   # fp32 ones fp32, whatever out_dtype says
    ("*fp64,*fp64,*fp64", "f64"),
])
def test_batched_dot_ir(types, result):
    ir = tile.generate_ir(batched_dot, types, {"B": 4, "M": 16, "N": 8, "K": 32})
    element = {"f16": "f32", "f32": "f32", "f64": "f64"}[result]
    assert f"-> !tile.block<4x16x8x{element}>" in ir
    assert f"tile.store" in ir and f"!tile.block<4x16x8x!tile.ptr<" in ir
    verify(ir)


@requires_library
def test_batched_f64_dot_ptx_runs_in_f64():
    ptx = tile.compile(batched_dot, "*fp64,*fp64,*fp64", {"B": 2, "M": 16, "N": 16, "K": 16},
                       target="sm_90a").asm["ptx"].split(".section")[0]
    assert "fma.rn.f64" in ptx and "wgmma" not in ptx and "cvt.rn.f32.f64" not in ptx


def test_batch_dimensions_become_one_and_trans_swaps_the_last_two():
    sys.path.insert(0, str(REPO / "test" / "gpu"))
    from conformance_kernels import multidim_dot
    ir = verify(tile.generate_ir(multidim_dot, "*bf16,*bf16,*fp32",
                                 {"RANK": 5, "TRANS_A": True, "TRANS_B": False}))
    # tl.trans of a rank-5 block swaps its last two dimensions only.
    assert "tile.trans %" in ir and "{order = array<i32: 0, 1, 2, 4, 3>}" in ir
    # The 2x2x2 batch is one of 8 for the product, and back after it.
    assert "tile.dot" in ir and "!tile.block<8x32x32xf32>" in ir
    assert "!tile.block<8x32x32xf32> -> !tile.block<2x2x2x32x32xf32>" in ir


def test_trans_of_fewer_than_two_dimensions_is_an_error():
    @tile.jit
    def k(x_ptr):
        tl.store(x_ptr + tl.arange(0, 8), tl.trans(tl.load(x_ptr + tl.arange(0, 8))))

    with pytest.raises(tile.CompilationError, match="tl.trans invoked with a 0- or "
                                                    "1-dimensional tensor"):
        tile.generate_ir(k, "*fp32")

