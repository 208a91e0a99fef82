"""`tl.range(..., num_stages=, loop_unroll_factor=)` change how a loop is
compiled (pipelined, unrolled with a remainder loop), never what it computes:
a tensor-core K loop and a runtime-bound sum, over trip counts the factor
divides and does not, and empty ones (upper bound below the lower)."""
from __future__ import annotations

import pytest

import tile
import tile.language as tl
from conformance_cases import device

pytestmark = [pytest.mark.gpu, pytest.mark.interpretable]


@tile.jit
def k_loop(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
           BK: tl.constexpr, STAGES: tl.constexpr, UNROLL: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), num_stages=STAGES, loop_unroll_factor=UNROLL):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BK), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < K - k * BK) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@pytest.mark.parametrize("stages,unroll", [(None, 2), (1, 3), (2, 2), (4, None), (3, 4)])
@pytest.mark.parametrize("K", [64, 224, 352])  # 2, 7 and 11 K steps of 32
def test_hinted_k_loop_matches_torch(K: int, stages, unroll) -> None:
    import torch
    g = torch.Generator(device=device(torch)).manual_seed(K)
    M, N = 96, 80
    a = torch.randn((M, K), device=device(torch), dtype=torch.float16, generator=g)
    b = torch.randn((K, N), device=device(torch), dtype=torch.float16, generator=g)
    c = torch.empty((M, N), device=device(torch), dtype=torch.float32)
    k_loop[(-(-M // 64), -(-N // 64))](
        a, b, c, M, N, K, BM=64, BN=64, BK=32, STAGES=stages, UNROLL=unroll)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-3)


@tile.jit
def strided_sum(x_ptr, out_ptr, start, end, STEP: tl.constexpr, UNROLL: tl.constexpr):
    offs = tl.arange(0, 128)
    acc = tl.zeros((128,), dtype=tl.float32)
    for i in tl.range(start, end, STEP, loop_unroll_factor=UNROLL):
        acc += tl.load(x_ptr + i * 128 + offs)
    tl.store(out_ptr + offs, acc)


@pytest.mark.parametrize("start,end", [(0, 9), (1, 12), (0, 0), (3, -7), (0, -5)])
@pytest.mark.parametrize("step,unroll", [(1, 2), (2, 4), (3, 3)])
def test_unrolled_runtime_loop_runs_each_trip_once(start: int, end: int, step: int,
                                                   unroll: int) -> None:
    import torch
    x = torch.arange(16 * 128, device=device(torch), dtype=torch.float32).reshape(16, 128)
    out = torch.full((128,), -1.0, device=device(torch))
    strided_sum[(1,)](x, out, start, end, STEP=step, UNROLL=unroll)
    expected = torch.zeros(128, device=device(torch))
    for i in range(start, end, step):
        expected += x[i]
    torch.testing.assert_close(out, expected)
