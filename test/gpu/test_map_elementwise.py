"""`tl.map_elementwise` against torch: a branching scalar function (Triton's
compare), several results (divmod), `pack=2`, a float function whose
branches differ in cost, a scalar operand broadcast over a block, odd extents
and 2-D blocks. Compiled on the GPU and interpreted (TILE_INTERPRET=1)."""
from __future__ import annotations

import pytest

import tile
import tile.language as tl
from conformance_cases import device

pytestmark = [pytest.mark.gpu, pytest.mark.interpretable]


@tile.jit
def compare(x, y):
    if x < y:
        return -1
    elif x == y:
        return 0
    else:
        return 1


@tile.jit
def compare_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(z_ptr + offs, tl.map_elementwise(compare, x, y), mask=mask)


@pytest.mark.parametrize("n, block", [(128, 128), (100, 128), (1000, 1024)])
def test_compare(n: int, block: int) -> None:
    import torch
    dev = device(torch)
    gen = torch.Generator().manual_seed(17)
    x = torch.randint(-3, 4, (n,), generator=gen, dtype=torch.int32)
    y = torch.randint(-3, 4, (n,), generator=gen, dtype=torch.int32)
    z = torch.full((n,), 7, dtype=torch.int32, device=dev)
    compare_kernel[(1,)](x.to(dev), y.to(dev), z, n, BLOCK=block)
    assert torch.equal(z.cpu(), torch.sign(x - y).to(torch.int32))


@tile.jit
def divmod_scalar(a, b):
    return a // b, a % b


@tile.jit
def divmod_pair(a0, a1, b0, b1):
    return a0 // b0, a1 // b1, a0 % b0, a1 % b1


@tile.jit
def divmod_kernel(a_ptr, b_ptr, c_ptr, d_ptr, PACK: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    if PACK == 1:
        c, d = tl.map_elementwise(divmod_scalar, a, b)
    else:
        c, d = tl.map_elementwise(divmod_pair, a, b, pack=2)
    tl.store(c_ptr + offs, c)
    tl.store(d_ptr + offs, d)


@pytest.mark.parametrize("pack", [1, 2])
def test_several_results(pack: int) -> None:
    import torch
    dev = device(torch)
    gen = torch.Generator().manual_seed(3)
    a = torch.randint(0, 1 << 30, (512,), generator=gen, dtype=torch.int64)
    b = torch.randint(1, 1 << 16, (512,), generator=gen, dtype=torch.int64)
    a32, b32 = a.to(torch.uint32), b.to(torch.uint32)
    c = torch.zeros(512, dtype=torch.uint32, device=dev)
    d = torch.zeros(512, dtype=torch.uint32, device=dev)
    divmod_kernel[(1,)](a32.to(dev), b32.to(dev), c, d, PACK=pack, BLOCK=512)
    assert torch.equal(c.cpu().to(torch.int64), a // b)
    assert torch.equal(d.cpu().to(torch.int64), a % b)


@tile.jit
def selu_scalar(x, alpha):
    if x > 0:
        return x
    else:
        return alpha * (tl.exp(x) - 1)


@tile.jit
def selu_kernel(x_ptr, y_ptr, alpha, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    x = tl.load(x_ptr + rm * N + rn, mask=mask, other=0.0)
    tl.store(y_ptr + rm * N + rn, tl.map_elementwise(selu_scalar, x, alpha), mask=mask)


def test_float_function_with_a_scalar_operand() -> None:
    import torch
    dev = device(torch)
    x = torch.randn((13, 37), generator=torch.Generator().manual_seed(5))
    y = torch.zeros((13, 37), device=dev)
    selu_kernel[(1,)](x.to(dev), y, 1.5, 13, 37, BM=16, BN=64)
    expected = torch.where(x > 0, x, 1.5 * (torch.exp(x) - 1))
    torch.testing.assert_close(y.cpu(), expected, rtol=1e-5, atol=1e-6)
