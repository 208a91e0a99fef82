"""int8 dots on Hopper's tensor cores: wgmma's s8 form (m64nNk32, exact s32
sums) on sm_90a, with K-major rings for K-contiguous operands and K-major
staging for row-major ones; the FMA dot elsewhere. Values against torch:
test/gpu/test_dot_kinds_and_fp_fusion.py."""
from __future__ import annotations

import pytest

from conftest import requires_library

import tile
import tile.language as tl

SIGNATURE = "*i8,*i8,*i32,i32"
# The launcher's facts for aligned tensors and a K that is a multiple of 16.
ALIGNED = tile.Specialization(divisible_by_16=frozenset({"a_ptr", "b_ptr", "c_ptr", "K"}))


@tile.jit
def int8_dot(a_ptr, b_ptr, c_ptr, K, B_K_MAJOR: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, 64)
    rk = tl.arange(0, BK)
    acc = tl.zeros((64, 64), dtype=tl.int32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :])
        if B_K_MAJOR:
            b = tl.load(b_ptr + (k0 + rk)[:, None] + rm[None, :] * K)
        else:
            b = tl.load(b_ptr + (k0 + rk)[:, None] * 64 + rm[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * 64 + rm[None, :], acc)


WGMMA_S8 = "wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8"


@requires_library
@pytest.mark.parametrize("k_major", [True, False])
def test_int8_dots_run_on_wgmma(k_major: bool) -> None:
    kernel = tile.compile(int8_dot, SIGNATURE, {"B_K_MAJOR": k_major, "BK": 64},
                          target="sm_90a", num_stages=3, specialization=ALIGNED)
    ptx = kernel.asm["ptx"]
    # Two 32-deep instructions per 64-deep step, the integer form without
    # the float forms' scale immediates.
    assert ptx.count(WGMMA_S8) == 2
    assert "p, 1, 1;" not in ptx
    # A K-major B streams through a ring; a row-major one is loaded into
    # 16-byte K runs and stored K-major from registers.
    if k_major:
        assert "cp.async.cg.shared.global" in ptx
    else:
        assert "cp.async" not in ptx and "st.shared.v4.b32" in ptx


@requires_library
@pytest.mark.parametrize("target,bk", [("sm_80", 64), ("sm_90a", 16)])
def test_int8_dots_elsewhere_stay_on_fma(target: str, bk: int) -> None:
    # Before Hopper there is no wgmma; a 16-deep K step is below its depth.
    kernel = tile.compile(int8_dot, SIGNATURE, {"B_K_MAJOR": True, "BK": bk}, target=target)
    ptx = kernel.asm["ptx"]
    assert "wgmma" not in ptx
    assert "mad.lo.s32" in ptx or "mul.lo.s32" in ptx


@tile.jit
def int8_dot_masked(a_ptr, b_ptr, c_ptr, K, BK: tl.constexpr):
    rm = tl.arange(0, 64)
    rk = tl.arange(0, BK)
    acc = tl.zeros((64, 64), dtype=tl.int32)
    for k0 in range(0, K, BK):
        # Tutorial 03's masks along K, with an integer `other`.
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :],
                    mask=(k0 + rk)[None, :] < K, other=0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] + rm[None, :] * K,
                    mask=(k0 + rk)[:, None] < K, other=0)
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)
    tl.store(c_ptr + rm[:, None] * 64 + rm[None, :], acc)


@requires_library
def test_int8_loads_with_an_integer_zero_other_stream_through_rings() -> None:
    # `other=0` is an integer zero here: the copies write zeros where masked
    # off just as for a float 0.0, so the loads still become cp.async copies.
    kernel = tile.compile(int8_dot_masked, SIGNATURE, {"BK": 64}, target="sm_90a",
                          num_stages=3, specialization=ALIGNED)
    ptx = kernel.asm["ptx"]
    assert ptx.count(WGMMA_S8) == 2
    assert "cp.async.cg.shared.global" in ptx and "ld.global" not in ptx
