"""f32 dots read as tf32: Triton's default `input_precision` ("tf32"), its
`allow_tf32=` spelling, "ieee" (and the finer splits, computed exactly) keeping
the f32 FMA dot; wgmma's k8 tf32 form on sm_90a; the errors for bad values.
Values against torch: test/gpu/conformance_cases.py's dot-float32 cases."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import assert_error_at_case, requires_library

import tile
import tile.language as tl

THIS_FILE = Path(__file__).resolve()


@tile.jit
def f32_dot(a_ptr, b_ptr, c_ptr, PRECISION: tl.constexpr, ALLOW: tl.constexpr):
    r = tl.arange(0, 64)
    a = tl.load(a_ptr + r[:, None] * 64 + r[None, :])
    b = tl.load(b_ptr + r[:, None] + r[None, :] * 64)  # K-major
    if ALLOW is None:
        c = tl.dot(a, b, input_precision=PRECISION)
    else:
        c = tl.dot(a, b, allow_tf32=ALLOW)
    tl.store(c_ptr + r[:, None] * 64 + r[None, :], c)


@pytest.mark.parametrize("precision,allow,tf32", [
    (None, None, True),       # Triton's default
    ("tf32", None, True),
    ("TF32", None, True),     # Triton lowers the name
    ("ieee", None, False),
    ("tf32x3", None, False),  # more precise than tf32: exact here
    ("bf16x3", None, False),
    (None, True, True),
    (None, False, False),
])
def test_input_precision_picks_tf32(precision, allow, tf32) -> None:
    ir = tile.generate_ir(f32_dot, "*fp32,*fp32,*fp32", {"PRECISION": precision, "ALLOW": allow})
    assert ("{tf32}" in ir) == tf32


def test_sixteen_bit_dots_ignore_input_precision() -> None:
    ir = tile.generate_ir(f32_dot, "*fp16,*fp16,*fp32", {"PRECISION": "tf32", "ALLOW": None})
    assert "tile.dot" in ir and "{tf32}" not in ir


@requires_library
@pytest.mark.parametrize("precision,wgmma", [("tf32", True), ("ieee", False)])
def test_tf32_dots_run_on_wgmma(precision, wgmma) -> None:
    kernel = tile.compile(f32_dot, "*fp32,*fp32,*fp32", {"PRECISION": precision, "ALLOW": None},
                          target="sm_90a")
    ptx = kernel.asm["ptx"]
    assert ("wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32" in ptx) == wgmma
    assert ("fma.rn.f32" in ptx) != wgmma


@tile.jit
def bad_precision(a_ptr, WHAT: tl.constexpr):
    r = tl.arange(0, 16)
    a = tl.load(a_ptr + r[:, None] * 16 + r[None, :])
    if WHAT == "name":
        tl.dot(a, a, input_precision="fp64")
    elif WHAT == "both":
        tl.dot(a, a, input_precision="tf32", allow_tf32=True)


@pytest.mark.parametrize("what,message", [
    ("name", "input_precision must be one of ('tf32', 'tf32x3', 'ieee', 'bf16x3', 'bf16x6'). "
             "Got fp64"),
    ("both", "Only one of input_precision and allow_tf32 can be specified"),
])
def test_bad_input_precision_is_located(what, message) -> None:
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(bad_precision, "*fp32", {"WHAT": what})
    assert_error_at_case(info.value, THIS_FILE, what, message)


@tile.jit
def f32_k_loop(a_ptr, b_ptr, c_ptr, K, N):
    rm, rn, rk = tl.arange(0, 64), tl.arange(0, 64), tl.arange(0, 32)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]  # row-major B: N contiguous
    acc = tl.zeros((64, 64), tl.float32)
    for _ in range(0, K, 32):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += 32
        b_ptrs += 32 * N
    tl.store(c_ptr + rm[:, None] * 64 + rn[None, :], acc)


@requires_library
def test_row_major_tf32_b_is_copied_k_major_element_by_element() -> None:
    """wgmma reads tf32 K-major only: a row-major B is loaded into runs along K
    (lanes along N, so still coalesced) and copied into its ring 4 bytes at a
    time with cp.async, A 16 bytes at a time."""
    spec = tile.Specialization(divisible_by_16=frozenset({"a_ptr", "b_ptr", "c_ptr", "K", "N"}))
    kernel = tile.compile(f32_k_loop, "*fp32,*fp32,*fp32,i32,i32", target="sm_90a",
                          num_stages=3, specialization=spec)
    ptx = kernel.asm["ptx"]
    assert "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32" in ptx
    assert re.search(r"cp\.async\.ca\.shared\.global \[[^\]]*\], \[[^\]]*\], 4", ptx)
    assert re.search(r"cp\.async\.cg\.shared\.global \[[^\]]*\], \[[^\]]*\], 16", ptx)
    assert "st.shared.b32" not in ptx
