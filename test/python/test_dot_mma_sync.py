"""Dots on mma.sync where wgmma does not take them: every chip before Hopper,
and tiles of fewer than 64 rows (or not in warpgroups) on sm_90a. f16 and bf16
on m16n8k16, f32 read as tf32 on m16n8k8, int8 on m16n8k32 (s32 sums), 8-bit
floats widened to f16 on m16n8k16. Values against torch: test/gpu's
conformance cases (dot-*-tile16x32x32, 32x64x64, 16x16x16, float32 32x32x16),
test_dot_kinds_and_fp_fusion.py (int8) and test_float8.py (two warps)."""
from __future__ import annotations

import pytest

from conftest import requires_library

import tile
import tile.language as tl

MMA_SYNC = "mma.sync.aligned.m16n8k16.row.col.f32"


@tile.jit
def small_dot(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
              PRECISION: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], tl.dot(a, b, input_precision=PRECISION))


def ptx_of(dtype: str, m: int, n: int, k: int, target: str, num_warps: int = 4,
           b_dtype: str = "", precision: str = "tf32") -> str:
    out = "i32" if dtype == "i8" else "fp32"
    signature = f"*{dtype},*{b_dtype or dtype},*{out}"
    return tile.compile(small_dot, signature, {"M": m, "N": n, "K": k, "PRECISION": precision},
                        target=target, num_warps=num_warps).asm["ptx"]


@requires_library
@pytest.mark.parametrize("target", ["sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"])
@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
def test_small_dots_run_on_mma_sync(target: str, dtype: str) -> None:
    ptx = ptx_of(dtype, 32, 32, 32, target)
    name = "f16" if dtype == "fp16" else "bf16"
    # 2 x 2 warps over 32 x 32: two 16 x 8 tiles each, two 16-deep steps.
    assert ptx.count(f"{MMA_SYNC}.{name}.{name}.f32") == 4
    assert "ldmatrix.sync.aligned.m8n8.x4.shared.b16" in ptx
    assert "wgmma" not in ptx and "fma.rn.f32" not in ptx


@requires_library
def test_warpgroup_tiles_stay_on_wgmma_on_sm_90a() -> None:
    ptx = ptx_of("fp16", 64, 64, 32, "sm_90a")
    assert "wgmma.mma_async" in ptx and "mma.sync" not in ptx
    # The same tiles before Hopper: mma.sync.
    assert MMA_SYNC in ptx_of("fp16", 64, 64, 32, "sm_80")


@requires_library
@pytest.mark.parametrize("target", ["sm_80", "sm_90a"])
@pytest.mark.parametrize("dtype,b_dtype,instruction,count", [
    # 2 x 2 warps over 32 x 32, two 16 x 8 tiles each; 32 deep: four 8-deep
    # tf32 steps, one 32-deep int8 step.
    ("fp32", "", "m16n8k8.row.col.f32.tf32.tf32.f32", 8),
    ("i8", "", "m16n8k32.row.col.s32.s8.s8.s32", 2),
])
def test_tf32_and_int8_dots_run_on_mma_sync(target: str, dtype: str, b_dtype: str,
                                            instruction: str, count: int) -> None:
    ptx = ptx_of(dtype, 32, 32, 32, target)
    assert ptx.count(f"mma.sync.aligned.{instruction}") == count
    # ldmatrix moves 16-bit elements: these operands are stored K-major and
    # read without .trans.
    assert "ldmatrix.sync.aligned.m8n8.x4.shared.b16" in ptx and ".trans" not in ptx
    assert "wgmma" not in ptx and "fma.rn.f32" not in ptx


@requires_library
@pytest.mark.parametrize("target", ["sm_89", "sm_90a"])
def test_fp8_dots_run_on_mma_sync_widened_to_f16(target: str) -> None:
    ptx = ptx_of("fp8e4nv", 32, 32, 32, target, b_dtype="fp8e5")
    assert "cvt.rn.f16x2.e4m3x2" in ptx and "cvt.rn.f16x2.e5m2x2" in ptx
    assert ptx.count(f"{MMA_SYNC}.f16.f16.f32") == 4
    assert "wgmma" not in ptx and "fma.rn.f32" not in ptx


@requires_library
@pytest.mark.parametrize("dtype,m,n,k,precision", [
    ("fp32", 32, 32, 32, "ieee"),  # exact f32 products: FMA
    ("fp16", 16, 8, 16, "tf32"),   # 8 columns: below mma.sync's 16
    ("fp16", 24, 32, 32, "tf32"),  # not a power of two
    ("i8", 32, 32, 16, "tf32"),    # below one 32-deep int8 step
])
def test_other_dots_stay_on_fma(dtype: str, m: int, n: int, k: int, precision: str) -> None:
    ptx = ptx_of(dtype, m, n, k, "sm_80", precision=precision)
    assert "mma.sync" not in ptx


@requires_library
@pytest.mark.parametrize("m,n,k", [(192, 64, 32), (64, 96, 32), (64, 64, 48)])
def test_tiles_of_other_extents_run_on_fma(m: int, n: int, k: int) -> None:
    # Multiples of wgmma's steps but not powers of two: the tensor cores'
    # staging takes powers of two, so these run on FMA (they were a compile
    # error, "on tensor cores needs power-of-two extents").
    ptx = ptx_of("fp16", m, n, k, "sm_90a")
    assert "wgmma" not in ptx and "mma.sync" not in ptx and "fma.rn.f32" in ptx
