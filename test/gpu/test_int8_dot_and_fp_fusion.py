"""`tl.dot` of int8 blocks (exact int32 sums, masked odd shapes, `acc=`
chains) against torch, and `enable_fp_fusion=False`: every multiply and
add rounded on its own, bit-equal to torch's separate `a * b + c`, where the
default fuses them into fmas."""
from __future__ import annotations

import pytest

import tile
import tile.language as tl
from conformance_cases import device

pytestmark = [pytest.mark.gpu]


@tile.jit
def int8_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                BK: tl.constexpr, CHAIN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :],
                    mask=(rm[:, None] < M) & (rk[None, :] < K), other=0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :],
                    mask=(rk[:, None] < K) & (rn[None, :] < N), other=0)
        if CHAIN:
            acc = tl.dot(a, b, acc)
        else:
            acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@pytest.mark.interpretable
@pytest.mark.parametrize("m,n,k,bm,bn,bk,chain", [
    (64, 64, 64, 32, 32, 32, True),
    (129, 65, 33, 64, 32, 16, True),
    (48, 80, 200, 16, 16, 64, False),
])
def test_int8_dot_matches_torch_exactly(m, n, k, bm, bn, bk, chain):
    import torch
    gen = torch.Generator().manual_seed(m * n + k)
    a = torch.randint(-128, 128, (m, k), dtype=torch.int8, generator=gen)
    b = torch.randint(-128, 128, (k, n), dtype=torch.int8, generator=gen)
    want = (a.to(torch.int64) @ b.to(torch.int64)).to(torch.int32)
    dev = device(torch)
    c = torch.zeros((m, n), dtype=torch.int32, device=dev)
    int8_matmul[(tile.cdiv(m, bm), tile.cdiv(n, bn))](
        a.to(dev), b.to(dev), c, m, n, k, BM=bm, BN=bn, BK=bk, CHAIN=chain)
    assert torch.equal(c.cpu(), want)


@tile.jit
def mul_add(x_ptr, y_ptr, z_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    z = tl.load(z_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * y + z, mask=mask)


def test_fp_fusion_off_rounds_each_operation_and_on_fuses():
    import torch
    n = 1 << 16
    dev = device(torch)
    gen = torch.Generator().manual_seed(3)
    x, y, z = (torch.randn(n, generator=gen).to(dev) for _ in range(3))
    separate, fused = torch.empty_like(x), torch.empty_like(x)
    mul_add[(tile.cdiv(n, 1024),)](x, y, z, separate, n, BLOCK=1024, enable_fp_fusion=False)
    mul_add[(tile.cdiv(n, 1024),)](x, y, z, fused, n, BLOCK=1024)
    assert torch.equal(separate, x * y + z)  # torch's are two kernels: two roundings
    exact = (x.double() * y.double() + z.double())
    assert not torch.equal(fused, separate), "fusion changed no result: no fma?"
    # One rounding is never worse than two.
    assert ((fused.double() - exact).abs() <= (separate.double() - exact).abs()).all()
