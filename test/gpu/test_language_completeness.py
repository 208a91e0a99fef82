"""Issue 14's remaining language gaps, computed: `while True:` loops ended by
`break` or `return`, `tl.softmax`, Triton's tensor methods (`x.rsqrt()`,
`x.erf()`, `x.softmax()`, `x.logical_and(y)`, `x.reduce_or()`, `ptr.store()`,
`bp.advance()`, ...), `tl.bitonic_merge`, `tl.ravel(can_reorder=)`,
`tl.add/sub/mul`, `x.shape` as a tuple, `tl.extra.cuda.num_warps()`: compiled
on the GPU and interpreted (TILE_INTERPRET=1), against torch."""
from __future__ import annotations

import math

import pytest

import tile
import tile.language as tl
from conformance_cases import device

pytestmark = [pytest.mark.gpu, pytest.mark.interpretable]


@tile.jit
def while_true(x_ptr, out_ptr, n, LIMIT: tl.constexpr):
    # The first index whose element is negative (break), or n.
    i = 0
    while True:
        if i >= n:
            break
        if tl.load(x_ptr + i) < 0:
            break
        i += 1
    tl.store(out_ptr, i)
    # The same search ended by a return, with `while 1`.
    j = 0
    while 1:
        if j == LIMIT:
            tl.store(out_ptr + 1, -1)
            return
        if tl.load(x_ptr + j) < 0:
            tl.store(out_ptr + 1, j)
            return
        j += 1


@pytest.mark.parametrize("negative_at", [0, 5, None])
def test_while_true_loops_end_at_a_break_or_a_return(negative_at) -> None:
    import torch
    x = torch.ones(16)
    if negative_at is not None:
        x[negative_at] = -1.0
    x = x.to(device(torch))
    out = torch.zeros(2, dtype=torch.int32, device=device(torch))
    while_true[(1,)](x, out, 16, LIMIT=16)
    expected = 16 if negative_at is None else negative_at
    assert out.tolist() == [expected, -1 if negative_at is None else negative_at]


@tile.jit
def softmax_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, DIM: tl.constexpr,
                   KEEP: tl.constexpr, IEEE: tl.constexpr, METHOD: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    if METHOD:
        y = x.softmax(DIM, KEEP, IEEE)
    else:
        y = tl.softmax(x, dim=DIM, keep_dims=KEEP, ieee_rounding=IEEE)
    tl.store(out_ptr + offs, y)


@pytest.mark.parametrize("dim, keep, m, n", [(None, False, 8, 16), (0, True, 8, 16),
                                             (1, True, 8, 16), (1, False, 16, 16)])
@pytest.mark.parametrize("ieee, method", [(False, False), (True, True)])
def test_softmax(dim, keep, m, n, ieee, method) -> None:
    import torch
    x = torch.randn(m, n, generator=torch.Generator().manual_seed(m + n))
    out = torch.empty(m, n, device=device(torch))
    softmax_kernel[(1,)](x.to(device(torch)), out, M=m, N=n, DIM=dim, KEEP=keep, IEEE=ieee,
                         METHOD=method)
    axis = 0 if dim is None else dim
    # Triton's formula, keep_dims and all (dim 1 without keep_dims subtracts
    # a row's max and divides by a row's sum where the columns line up).
    top = x.amax(axis, keepdim=keep)
    num = torch.exp(x - top)
    expected = num / num.sum(axis, keepdim=keep)
    torch.testing.assert_close(out.cpu(), expected, rtol=1e-5, atol=1e-6)


@tile.jit
def methods(x_ptr, out_ptr, flags_ptr, ints_ptr, bp_ptr):
    r = tl.arange(0, 16)
    x = tl.load(x_ptr + r)
    ys = (x.rsqrt(), x.sin(), x.cos(), x.floor(), x.ceil(), x.erf(), x.sqrt_rn(),
          x.softmax(), x.exp2(), tl.add(x, 1.0), tl.sub(x, 1.0, sanitize_overflow=False),
          tl.mul(x, 3.0))
    for k in tl.static_range(len(ys)):
        (out_ptr + k * 16 + r).store(ys[k])
    flags = (x > 1.5).logical_and(x < 3.0).logical_or(x > 3.5)
    tl.store(flags_ptr + r, flags.to(tl.int32))
    v = tl.load(ints_ptr + r)
    tl.store(ints_ptr + 16, v.reduce_or(0))
    tl.store(ints_ptr + 17 + r, v.cdiv(3))
    grid = tl.reshape(v, (4, 4))
    tl.store(ints_ptr + 33 + tl.arange(0, 4), grid.reduce_or(1))
    tl.store(ints_ptr + 37 + r, tl.ravel(grid, can_reorder=True))
    tl.static_assert(grid.shape == (4, 4) and grid.shape == [4, 4])
    tl.static_assert(grid.shape + (1,) == [4, 4, 1] and len(grid.shape[1:]) == 1)
    tl.store(ints_ptr + 53, tl.extra.cuda.num_warps() * 1000 + tl.extra.cuda.num_threads())
    p = tl.make_block_ptr(bp_ptr, (32,), (1,), (0,), (16,), (0,))
    p = p.advance((16,))
    tl.store(p, x)


def test_tensor_methods_and_builtins() -> None:
    import torch
    gen = torch.Generator().manual_seed(3)
    x = torch.rand(16, generator=gen) * 4 + 0.25
    ints = torch.randint(0, 1 << 20, (64,), dtype=torch.int32, generator=gen)
    ints[53:] = 0
    out = torch.zeros(12 * 16, device=device(torch))
    flags = torch.zeros(16, dtype=torch.int32, device=device(torch))
    bp = torch.zeros(32, device=device(torch))
    ints_d = ints.to(device(torch))
    methods[(1,)](x.to(device(torch)), out, flags, ints_d, bp, num_warps=2)
    got = out.cpu().reshape(12, 16)
    expected = [torch.rsqrt(x), torch.sin(x), torch.cos(x), torch.floor(x), torch.ceil(x),
                torch.erf(x), torch.sqrt(x), torch.softmax(x, 0), torch.exp2(x), x + 1,
                x - 1, x * 3]
    for row, want in zip(got, expected):
        torch.testing.assert_close(row, want, rtol=2e-6, atol=1e-6)
    # floor is exact and sqrt_rn correctly rounded (as f64's sqrt rounded to f32).
    assert torch.equal(got[3], torch.floor(x))
    assert torch.equal(got[6], torch.sqrt(x.double()).float())
    assert flags.cpu().tolist() == (((x > 1.5) & (x < 3.0)) | (x > 3.5)).int().tolist()
    v, result = ints[:16], ints_d.cpu()
    ored = 0
    for value in v.tolist():
        ored |= value
    assert result[16] == ored
    assert result[17:33].tolist() == [(a + 2) // 3 for a in v.tolist()]
    rows = [0, 0, 0, 0]
    for i, value in enumerate(v.tolist()):
        rows[i // 4] |= value
    assert result[33:37].tolist() == rows
    assert torch.equal(result[37:53], v)
    assert result[53] == 2 * 1000 + 64
    assert torch.equal(bp.cpu()[16:], x) and not bp.cpu()[:16].any()


@tile.jit
def merge(x_ptr, out_ptr, N: tl.constexpr, DESCENDING: tl.constexpr):
    offs = tl.arange(0, 4)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out_ptr + offs, tl.bitonic_merge(tl.load(x_ptr + offs), descending=DESCENDING))


def merge_network(line: list[int], descending: bool) -> list[int]:
    """The half-cleaners at n/2, n/4, ..., 1: the last stage of a bitonic sort."""
    line, n = list(line), len(line)
    step = n // 2
    while step:
        for i in range(n):
            if i & step == 0:
                a, b = line[i], line[i + step]
                if (a > b) != descending:
                    line[i], line[i + step] = b, a
        step //= 2
    return line


@pytest.mark.parametrize("descending", [False, True])
def test_bitonic_merge(descending: bool) -> None:
    import torch
    n = 32
    gen = torch.Generator().manual_seed(7)
    rows = []
    for r in range(4):
        values = torch.randperm(1000, generator=gen)[:n].tolist()
        if r < 2:  # bitonic: up then down (or down then up): merged, it is sorted
            half = sorted(values[: n // 2])
            values = half + sorted(values[n // 2:], reverse=True)
            if r == 1:
                values = values[::-1]
        rows.append(values)
    x = torch.tensor(rows, dtype=torch.int32)
    out = torch.zeros_like(x, device=device(torch))
    merge[(1,)](x.to(device(torch)), out, N=n, DESCENDING=descending)
    got = out.cpu().tolist()
    assert got == [merge_network(row, descending) for row in rows]
    assert got[:2] == [sorted(row, reverse=descending) for row in rows[:2]]


@tile.jit
def scaled_rsqrt(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs).rsqrt() * math.sqrt(2.0))


def test_a_method_in_an_expression() -> None:
    import torch
    x = torch.arange(1, 65, dtype=torch.float32)
    out = torch.zeros(64, device=device(torch))
    scaled_rsqrt[(1,)](x.to(device(torch)), out, BLOCK=64)
    torch.testing.assert_close(out.cpu(), torch.rsqrt(x) * math.sqrt(2.0))
