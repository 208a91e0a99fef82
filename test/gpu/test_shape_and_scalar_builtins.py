"""Triton 3.9's `tl.cat(dim=)` (can_reorder=False), `tl.topk(descending=)`,
`tl.squeeze`/`tl.unsqueeze`, `x.item()`, `x.cast()`, `tl.full(())` as a
scalar and `tl.range(num_stages=0)`: compiled on the GPU and interpreted
(TILE_INTERPRET=1), against NumPy."""
from __future__ import annotations

import pytest

import tile
import tile.language as tl
from conformance_cases import device

pytestmark = [pytest.mark.gpu, pytest.mark.interpretable]


@tile.jit
def shape_and_scalars(x_ptr, out_ptr, DIM: tl.constexpr, DESCENDING: tl.constexpr):
    r = tl.arange(0, 4)
    a = tl.load(x_ptr + r[:, None] * 4 + r[None, :])
    c = tl.cat(a, a + 100, dim=DIM)  # 8x4 or 4x8, in order
    rows = tl.arange(0, 8 if DIM == 0 else 4)
    cols = tl.arange(0, 4 if DIM == 0 else 8)
    tl.store(out_ptr + rows[:, None] * (4 if DIM == 0 else 8) + cols[None, :], c)
    top = tl.topk(tl.load(x_ptr + tl.arange(0, 16)), 4, descending=DESCENDING)
    tl.store(out_ptr + 32 + tl.arange(0, 4), top)
    same = tl.squeeze(tl.unsqueeze(top, 0), 0)
    tl.store(out_ptr + 36 + tl.arange(0, 4), same * 2)
    one = tl.load(x_ptr + 5 + tl.arange(0, 1)).item()
    tl.store(out_ptr + 40, one + tl.full((), 1000, tl.float32))
    tl.store(out_ptr + 41, one.cast(tl.int32).to(tl.float32) + 0.5)
    for i in tl.range(0, 2, num_stages=0):
        tl.store(out_ptr + 42 + i, i * 1.0)


@pytest.mark.parametrize("descending", [True, False])
@pytest.mark.parametrize("dim", [0, 1])
def test_shape_and_scalar_builtins(dim: int, descending: bool) -> None:
    import torch
    x = torch.randperm(16, generator=torch.Generator().manual_seed(dim)).float() - 3.5
    out = torch.zeros(48)
    xd, od = x.to(device(torch)), out.to(device(torch))
    shape_and_scalars[(1,)](xd, od, DIM=dim, DESCENDING=descending)
    got, a = od.cpu(), x.reshape(4, 4)
    assert torch.equal(got[:32], torch.cat([a, a + 100], dim=dim).flatten())
    top = torch.topk(x, 4, largest=descending).values
    assert torch.equal(got[32:36], top) and torch.equal(got[36:40], 2 * top)
    assert got[40] == x[5] + 1000 and got[41] == int(x[5]) + 0.5
    assert got[42:44].tolist() == [0.0, 1.0]


@tile.jit
def unsplat(x_ptr, EXPLICIT: tl.constexpr):
    # Triton's test_unsplat: a block of one element as an `if` condition is
    # its element, as `.item()` gives it.
    condition = tl.load(x_ptr + tl.arange(0, 1)) > 42
    if EXPLICIT:
        condition = condition.item()
    if condition:
        tl.store(x_ptr, 42)
    i = tl.zeros((1, 1), tl.int32)
    while i < 3:  # and a `while` condition likewise
        i += 1
    tl.store(x_ptr + 1, tl.sum(tl.sum(i, 1), 0))


@pytest.mark.parametrize("explicit", [False, True])
@pytest.mark.parametrize("value, expected", [(41, 41), (43, 42)])
def test_one_element_block_as_a_condition(explicit: bool, value: int, expected: int) -> None:
    import torch
    x = torch.tensor([value, 0], dtype=torch.int32, device=device(torch))
    unsplat[(1,)](x, explicit, num_warps=1)
    assert x.tolist() == [expected, 3]
