"""`tl.dot_scaled` against torch: microscaled operands (e4m3, e5m2, e2m1 packed
two per byte along K or along M/N, bf16 and fp16) with e8m0 scales per 32
elements of K, a K loop with `acc=`, masked odd M and N, a NaN scale byte and
`fast_math`. The reference decodes the formats with torch and rounds as
Triton does: operands and scales in the 16-bit compute type (fp16 when a side
is fp16, else bf16), their product there, the sum in fp32."""
from __future__ import annotations

import pytest

import tile
import tile.language as tl
from conformance_cases import device

pytestmark = [pytest.mark.gpu]

E2M1 = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)


@tile.jit
def scaled_matmul(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr, M, N, K,
                  FA: tl.constexpr, FB: tl.constexpr, A_K_PACK: tl.constexpr,
                  B_K_PACK: tl.constexpr, FAST: tl.constexpr, BM: tl.constexpr,
                  BN: tl.constexpr, BK: tl.constexpr):
    # a: (M, K) elements, e2m1 packed as (M, K // 2) bytes (or (M // 2, K)
    # without A_K_PACK); b: (K, N), e2m1 as (K // 2, N) (or (K, N // 2)).
    # Scales: (M, K // 32) and (N, K // 32).
    PA: tl.constexpr = 2 if FA == "e2m1" and A_K_PACK else 1
    PAM: tl.constexpr = 2 if FA == "e2m1" and not A_K_PACK else 1
    PB: tl.constexpr = 2 if FB == "e2m1" and B_K_PACK else 1
    PBN: tl.constexpr = 2 if FB == "e2m1" and not B_K_PACK else 1
    G: tl.constexpr = BK // 32
    ra = tl.program_id(0) * (BM // PAM) + tl.arange(0, BM // PAM)
    rb = tl.program_id(1) * (BN // PBN) + tl.arange(0, BN // PBN)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rka = k0 // PA + tl.arange(0, BK // PA)
        rkb = k0 // PB + tl.arange(0, BK // PB)
        a = tl.load(a_ptr + ra[:, None] * (K // PA) + rka[None, :],
                    mask=ra[:, None] < M // PAM, other=0)
        b = tl.load(b_ptr + rkb[:, None] * (N // PBN) + rb[None, :],
                    mask=rb[None, :] < N // PBN, other=0)
        rg = k0 // 32 + tl.arange(0, G)
        sa = tl.load(sa_ptr + rm[:, None] * (K // 32) + rg[None, :], mask=rm[:, None] < M,
                     other=127)
        sb = tl.load(sb_ptr + rn[:, None] * (K // 32) + rg[None, :], mask=rn[:, None] < N,
                     other=127)
        acc = tl.dot_scaled(a, sa, FA, b, sb, FB, acc, fast_math=FAST, lhs_k_pack=A_K_PACK,
                            rhs_k_pack=B_K_PACK)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def make_data(torch, gen, fmt: str, rows: int, cols: int, pack_axis: int):
    """Random bits of `fmt` for a rows x cols operand (e2m1 halved along
    pack_axis), avoiding the fp8 NaN/inf encodings."""
    if fmt in ("bf16", "fp16"):
        kind = torch.bfloat16 if fmt == "bf16" else torch.float16
        return torch.randn((rows, cols), generator=gen).to(kind)
    shape = [rows, cols]
    if fmt == "e2m1":
        shape[pack_axis] //= 2
    bits = torch.randint(0, 256, shape, dtype=torch.uint8, generator=gen)
    if fmt == "e4m3":
        bits = torch.where((bits & 0x7F) == 0x7F, bits & 0xF0, bits)
    if fmt == "e5m2":
        bits = torch.where((bits & 0x7C) == 0x7C, bits & 0x83, bits)
    return bits


def decode(torch, data, fmt: str, pack_axis: int):
    """The operand's values in fp32."""
    if fmt == "e4m3":
        return data.view(torch.float8_e4m3fn).float()
    if fmt == "e5m2":
        return data.view(torch.float8_e5m2).float()
    if fmt in ("bf16", "fp16"):
        return data.float()
    table = torch.tensor(E2M1 + tuple(-v for v in E2M1))
    low, high = table[(data & 15).long()], table[(data >> 4).long()]
    return torch.stack([low, high], dim=pack_axis + 1).flatten(pack_axis, pack_axis + 1)


def reference(torch, a, sa, fa, b, sb, fb, a_axis, b_axis, fast):
    compute = torch.float16 if "fp16" in (fa, fb) else torch.bfloat16

    def factors(s):
        f = torch.where(s == 0, 0.0, torch.exp2(s.double() - 127)).float()
        if not fast:
            f = torch.where(s == 255, float("nan"), f)
        return f.to(compute).repeat_interleave(32, dim=1)

    x = (decode(torch, a, fa, a_axis).to(compute) * factors(sa)).float()
    y = (decode(torch, b, fb, b_axis).to(compute) * factors(sb).T).float()
    # fp32 sums in another order differ by up to about k ulps of the sum of
    # the terms' magnitudes.
    return x @ y, (x.abs() @ y.abs()) * (x.shape[1] * 2.0**-23)


@pytest.mark.interpretable
@pytest.mark.parametrize("fa,fb,m,n,k,a_pack,b_pack,fast", [
    ("e4m3", "e4m3", 64, 64, 128, True, True, False),
    ("e5m2", "e5m2", 100, 72, 64, True, True, False),
    ("e2m1", "e4m3", 64, 48, 128, True, True, False),
    ("e5m2", "e2m1", 64, 64, 64, True, True, True),
    ("bf16", "e2m1", 32, 64, 96, True, False, False),
    ("e2m1", "fp16", 64, 32, 64, False, True, False),
    ("e2m1", "e2m1", 128, 128, 128, True, True, False),
])
def test_dot_scaled_matches_torch(fa, fb, m, n, k, a_pack, b_pack, fast):
    import torch
    gen = torch.Generator().manual_seed(m * 7 + n * 3 + k)
    a_axis = 1 if a_pack else 0
    b_axis = 0 if b_pack else 1
    a = make_data(torch, gen, fa, m, k, a_axis)
    b = make_data(torch, gen, fb, k, n, b_axis)
    sa = torch.randint(118, 136, (m, k // 32), dtype=torch.uint8, generator=gen)
    sb = torch.randint(118, 136, (n, k // 32), dtype=torch.uint8, generator=gen)
    sa[1, 0] = 255  # NaN unless fast_math (then 2^128, infinite in bf16)
    sb[2, k // 32 - 1] = 0  # 0.0
    want, slack = reference(torch, a, sa, fa, b, sb, fb, a_axis, b_axis, fast)
    dev = device(torch)
    c = torch.full((m, n), -1.0, device=dev)
    bm, bn, bk = 32, 32, 32 if k % 64 else 64
    scaled_matmul[(tile.cdiv(m, bm), tile.cdiv(n, bn))](
        a.to(dev), sa.to(dev), b.to(dev), sb.to(dev), c, m, n, k, FA=fa, FB=fb,
        A_K_PACK=a_pack, B_K_PACK=b_pack, FAST=fast, BM=bm, BN=bn, BK=bk)
    got = c.cpu()
    finite = torch.isfinite(want)
    assert torch.equal(torch.isfinite(got), finite)
    assert torch.equal(got.isnan(), want.isnan())
    assert torch.equal(got[~finite & ~want.isnan()], want[~finite & ~want.isnan()])
    error = (got - want).abs()[finite]
    assert (error <= slack[finite] + 1e-6).all(), error.max()
    # Scale byte 0xFF is NaN: row 1 is NaN throughout; with fast_math it is
    # 2^128, infinite, and the row is infinite or NaN (inf - inf).
    assert got[1].isnan().all() if not fast else not torch.isfinite(got[1]).any()
    assert torch.isfinite(got[3]).all() and got[3].abs().sum() > 0
