"""`tl.dot` of int8 blocks: int32 accumulation in the IR and the PTX (integer
multiply-adds, no float conversion), Triton's typing rules and the errors
for mixing int8 with floats. Values: test/gpu/test_int8_dot_and_fp_fusion.py."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import assert_error_at_case, requires_library, verify

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
def test_int8_dot_ptx_multiplies_integers():
    ptx = tile.compile(int8_dot, "*i8,*i8,*i32", {"OUT": tl.int32, "ACC": True},
                       target="sm_90").asm["ptx"]
    body = ptx.split(".section")[0]
    # i8 x i8 products: LLVM widens them (mul.wide.s16) or multiplies in i32.
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


@pytest.mark.parametrize("what,message", [
    ("float_acc", "tl.dot of int8 blocks accumulates in int32; acc= is fp32"),
    ("int_acc", "tl.dot of float blocks accumulates in float32; acc= is int32"),
    ("mixed", "tl.dot supports fp16, bf16 and fp32 operands, two fp8 ones, and two int8 ones "
              "(int32 result), got int8 and fp16"),
])
def test_int8_dot_misuse_is_located(what, message):
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(bad_dot, "*i8,*i8", {"WHAT": what})
    assert_error_at_case(info.value, THIS_FILE, what, message)
