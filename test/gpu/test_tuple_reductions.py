"""tl.reduce and tl.associative_scan over tuples of blocks (Triton's multi-operand
reductions and scans): argmax written as a combine function, a three-block
reduction with f16, int64 and bool blocks, and a linear recurrence as a scan,
forward and reverse. Extents that are not powers of two and blocks split over
warps along the axis take the paths through validity flags and shared memory.
Compiled on the GPU and interpreted (TILE_INTERPRET=1), against Python."""
from __future__ import annotations

from typing import Any, Callable

import pytest

import tile
import tile.language as tl
from conformance_cases import device

pytestmark = [pytest.mark.gpu, pytest.mark.interpretable]


@tile.jit
def _argmax_combine(value_a, index_a, value_b, index_b):
    take_a = (value_a > value_b) | ((value_a == value_b) & (index_a < index_b))
    return tl.where(take_a, value_a, value_b), tl.where(take_a, index_a, index_b)


@tile.jit
def argmax_rows(x_ptr, value_ptr, index_ptr, M: tl.constexpr, N: tl.constexpr,
                AXIS: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    index = tl.broadcast_to(cols if AXIS == 1 else rows, (M, N))
    value, at = tl.reduce((x, index), AXIS, _argmax_combine)
    out = tl.arange(0, M if AXIS == 1 else N)
    tl.store(value_ptr + out, value)
    tl.store(index_ptr + out, at)


@tile.jit
def _max_at_all_positive(v_a, i_a, p_a, v_b, i_b, p_b):
    take_a = (v_a > v_b) | ((v_a == v_b) & (i_a < i_b))
    return tl.where(take_a, v_a, v_b), tl.where(take_a, i_a, i_b), p_a & p_b


@tile.jit
def max_at_all_positive(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)  # f16
    value, at, positive = tl.reduce((x, offs.to(tl.int64), x > 0), None,
                                    _max_at_all_positive, keep_dims=True)
    tl.static_assert(value.shape == [1])
    tl.store(out_ptr + tl.arange(0, 1), value.to(tl.float32))
    tl.store(out_ptr + 1 + tl.arange(0, 1), at.to(tl.float32))
    tl.store(out_ptr + 2 + tl.arange(0, 1), positive.to(tl.float32))


@tile.jit
def _recurrence(a_1, b_1, a_2, b_2):
    return a_1 * a_2, b_1 * a_2 + b_2


@tile.jit
def linear_recurrence(a_ptr, b_ptr, h_ptr, M: tl.constexpr, N: tl.constexpr,
                      REVERSE: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    _, h = tl.associative_scan((a, b), 1, _recurrence, reverse=REVERSE)
    tl.store(h_ptr + offs, h)


def _combined(rows: list[list[Any]], combine: Callable[..., tuple], reverse: bool = False
              ) -> list[list[tuple]]:
    """The inclusive scan of each row of tuples; reversed as Triton reverses
    it: the forward scan of the reversed row, reversed back (the combine takes
    what is accumulated from the end first)."""
    out = []
    for row in rows:
        order = list(reversed(row)) if reverse else list(row)
        acc, line = order[0], [order[0]]
        for item in order[1:]:
            acc = combine(*acc, *item)
            line.append(acc)
        out.append(list(reversed(line)) if reverse else line)
    return out


@pytest.mark.parametrize("shape, axis, warps", [((4, 1000), 1, 4), ((300, 8), 0, 4),
                                                 ((16, 64), 1, 1)],
                         ids=["rows-4x1000-w4", "columns-300x8-w4", "rows-16x64-w1"])
def test_argmax_as_a_tuple_reduction(shape: tuple[int, int], axis: int, warps: int) -> None:
    import torch
    dev = device(torch)
    g = torch.Generator().manual_seed(3)
    m, n = shape
    x = torch.randint(-50, 50, shape, generator=g).to(torch.float32)  # ties
    lines = m if axis == 1 else n
    value = torch.zeros(lines, device=dev)
    index = torch.zeros(lines, dtype=torch.int32, device=dev)
    argmax_rows[(1,)](x.to(dev), value, index, M=m, N=n, AXIS=axis, num_warps=warps)
    expected_value, _ = x.max(dim=axis)
    # The first index of the maximum (ties break to the left).
    hits = x == expected_value.unsqueeze(axis)
    positions = torch.arange(x.shape[axis]).unsqueeze(1 - axis).expand(shape)
    expected_index = torch.where(hits, positions, x.shape[axis]).min(dim=axis).values
    assert value.cpu().tolist() == expected_value.tolist()
    assert index.cpu().tolist() == expected_index.tolist()


@pytest.mark.parametrize("n, warps", [(1000, 4), (96, 2)])
@pytest.mark.parametrize("negative", [False, True])
def test_three_blocks_of_f16_int64_and_bool(n: int, warps: int, negative: bool) -> None:
    import torch
    dev = device(torch)
    g = torch.Generator().manual_seed(n)
    x = (torch.rand(n, generator=g) * 100 + 1).to(torch.float16)
    x[n // 3] = x.max() + 1  # a tie: the first index wins
    x[n // 2] = x[n // 3]
    if negative:
        x[n - 1] = -1.0
    out = torch.zeros(3, device=dev)
    max_at_all_positive[(1,)](x.to(dev), out, N=n, num_warps=warps)
    expected = [float(x.max()), float(int(torch.argmax(x.float()))), float(not negative)]
    assert expected[1] == n // 3
    assert out.cpu().tolist() == expected


@pytest.mark.parametrize("shape, warps", [((2, 1024), 4), ((8, 100), 1), ((3, 40), 2)])
@pytest.mark.parametrize("reverse", [False, True])
def test_linear_recurrence_as_a_tuple_scan(shape: tuple[int, int], warps: int,
                                           reverse: bool) -> None:
    import torch
    dev = device(torch)
    g = torch.Generator().manual_seed(shape[1])
    a = torch.rand(shape, generator=g) * 0.5 + 0.5
    b = torch.rand(shape, generator=g) * 2 - 1
    h = torch.zeros(shape, device=dev)
    linear_recurrence[(1,)](a.to(dev), b.to(dev), h, M=shape[0], N=shape[1],
                            REVERSE=reverse, num_warps=warps)
    rows = [list(zip(ra, rb)) for ra, rb in zip(a.double().tolist(), b.double().tolist())]
    scanned = _combined(rows, lambda a1, b1, a2, b2: (a1 * a2, b1 * a2 + b2), reverse)
    expected = torch.tensor([[hb for _, hb in line] for line in scanned], dtype=torch.float32)
    torch.testing.assert_close(h.cpu(), expected, rtol=1e-4, atol=1e-4)
