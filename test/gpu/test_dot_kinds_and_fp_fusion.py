"""`tl.dot` of int8 blocks (exact int32 sums, masked odd shapes, `acc=`
chains), of fp64 ones, of rank-3 ones (Triton's test_dot3d kernel) and of
rank 4 to 6 ones with transposes (its test_dot_multidim kernel) against
torch, and `enable_fp_fusion=False`: every multiply and
add rounded on its own, bit-equal to torch's separate `a * b + c`, where the
default fuses them into fmas."""
from __future__ import annotations

import pytest

import tile
import tile.language as tl
from conformance_cases import device

pytestmark = [pytest.mark.gpu]


@tile.jit
def int8_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_bk, stride_bn, BM: tl.constexpr,
                BN: tl.constexpr, BK: tl.constexpr, CHAIN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :],
                    mask=(rm[:, None] < M) & (rk[None, :] < K), other=0)
        b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=(rk[:, None] < K) & (rn[None, :] < N), other=0)
        if CHAIN:
            acc = tl.dot(a, b, acc)
        else:
            acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


# On sm_90a the blocks of 64 rows and 32-deep K steps with four or more warps
# run on wgmma's s8 form (m64nNk32, s32 sums): K-major B (b = w.T, as
# tutorial 03 takes it) through the pipelined loop's rings when aligned,
# row-major B staged K-major from registers; smaller tiles with 32-deep K
# steps on mma.sync m16n8k32 (s32 sums); 16-deep K steps on the FMA dot.
@pytest.mark.interpretable
@pytest.mark.parametrize("m,n,k,bm,bn,bk,chain,b_major,num_warps", [
    (64, 64, 64, 32, 32, 32, True, "n", 4),
    (129, 65, 33, 64, 32, 16, True, "n", 4),
    (48, 80, 200, 16, 16, 64, False, "n", 4),
    (256, 256, 512, 128, 128, 64, True, "k", 8),
    (256, 256, 512, 128, 128, 64, False, "n", 8),
    (129, 65, 100, 64, 64, 32, True, "k", 4),
    (129, 65, 100, 64, 64, 32, True, "n", 4),
])
def test_int8_dot_matches_torch_exactly(m, n, k, bm, bn, bk, chain, b_major, num_warps):
    import torch
    gen = torch.Generator().manual_seed(m * n + k)
    a = torch.randint(-128, 128, (m, k), dtype=torch.int8, generator=gen)
    if b_major == "k":
        b = torch.randint(-128, 128, (n, k), dtype=torch.int8, generator=gen).T
    else:
        b = torch.randint(-128, 128, (k, n), dtype=torch.int8, generator=gen)
    want = (a.to(torch.int64) @ b.to(torch.int64)).to(torch.int32)
    dev = device(torch)
    c = torch.zeros((m, n), dtype=torch.int32, device=dev)
    bd = b.to(dev)
    int8_matmul[(tile.cdiv(m, bm), tile.cdiv(n, bn))](
        a.to(dev), bd, c, m, n, k, bd.stride(0), bd.stride(1), BM=bm, BN=bn, BK=bk,
        CHAIN=chain, num_warps=num_warps)
    assert torch.equal(c.cpu(), want)


@tile.jit
def dot3d(q_ptr, k_ptr, o_ptr, stride_qb, stride_qm, stride_qk, stride_kb, stride_kk, stride_kn,
          stride_ob, stride_om, stride_on, BLOCK_B: tl.constexpr, BLOCK_M: tl.constexpr,
          BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, out_dtype: tl.constexpr = tl.float32):
    startm = tl.program_id(0) * BLOCK_M
    startn = tl.program_id(1) * BLOCK_N
    offs_b = tl.arange(0, BLOCK_B)
    offs_m = startm + tl.arange(0, BLOCK_M)
    offs_n = startn + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    q = tl.load(q_ptr + offs_b[:, None, None] * stride_qb + offs_m[None, :, None] * stride_qm
                + offs_k[None, None, :] * stride_qk)
    k = tl.load(k_ptr + offs_b[:, None, None] * stride_kb + offs_k[None, :, None] * stride_kk
                + offs_n[None, None, :] * stride_kn)
    qk = tl.dot(q, k, out_dtype=out_dtype)
    tl.store(o_ptr + offs_b[:, None, None] * stride_ob + offs_m[None, :, None] * stride_om
             + offs_n[None, None, :] * stride_on, qk)


@pytest.mark.interpretable
@pytest.mark.parametrize("b,warps,dtype", [
    (2, 4, "float16"), (4, 4, "float32"), (8, 4, "int8"), (2, 8, "float64")])
def test_dot3d_matches_torch(b, warps, dtype):
    import torch
    m = n = k = 64
    bm = bn = 32
    gen = torch.Generator().manual_seed(b * warps)
    kind = getattr(torch, dtype)
    if dtype == "int8":
        q = torch.randint(-128, 128, (b, m, k), dtype=kind, generator=gen)
        kk = torch.randint(-128, 128, (b, k, n), dtype=kind, generator=gen)
        want = (q.to(torch.int64) @ kk.to(torch.int64)).to(torch.int32)
    else:
        q = torch.randn((b, m, k), generator=gen).to(kind)
        kk = torch.randn((b, k, n), generator=gen).to(kind)
        want = torch.matmul(q.double(), kk.double())
    out_dtype = {"int8": tl.int32, "float64": tl.float64}.get(dtype, tl.float32)
    dev = device(torch)
    out = torch.zeros((b, m, n), dtype=want.dtype if dtype == "int8" else
                      (torch.float64 if dtype == "float64" else torch.float32), device=dev)
    q, kk = q.to(dev), kk.to(dev)
    dot3d[(m // bm, n // bn)](q, kk, out, *q.stride(), *kk.stride(), *out.stride(),
                              BLOCK_B=b, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=k,
                              out_dtype=out_dtype, num_warps=warps)
    if dtype == "int8":
        assert torch.equal(out.cpu(), want)
    else:
        tol = {"float16": 1e-2, "float32": 1e-4, "float64": 1e-10}[dtype]
        torch.testing.assert_close(out.cpu().double(), want, rtol=tol, atol=tol * k)


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


@pytest.mark.interpretable
@pytest.mark.parametrize("rank", [2, 3, 4, 6])
@pytest.mark.parametrize("trans_a, trans_b", [(False, False), (True, False), (False, True)])
def test_multidim_dot_matches_torch(rank: int, trans_a: bool, trans_b: bool) -> None:
    import torch
    from conformance_kernels import multidim_dot
    dev = device(torch)
    shape = (2,) * (rank - 2) + (32, 32)
    gen = torch.Generator().manual_seed(rank)
    a = torch.randint(-4, 5, shape, generator=gen).to(torch.bfloat16)
    b = torch.randint(-4, 5, shape, generator=gen).to(torch.bfloat16)
    c = torch.empty(shape, dtype=torch.float32, device=dev)
    multidim_dot[(1,)](a.to(dev), b.to(dev), c, rank, trans_a, trans_b)
    a = a.transpose(-1, -2) if trans_a else a
    b = b.transpose(-1, -2) if trans_b else b
    # Small integers: every product and sum is exact in fp32.
    assert torch.equal(c.cpu(), a.float() @ b.float())

