"""Tensor descriptors' row gathers and scatters (`desc.gather`, `desc.scatter`),
their atomics (`desc.atomic_add`, ...) and `tl.load_tensor_descriptor` /
`tl.store_tensor_descriptor`, compiled on the GPU and interpreted
(TILE_INTERPRET=1), against torch: rows and columns outside the shape read 0
and are not written."""
from __future__ import annotations

import pytest

import tile
import tile.language as tl
from conformance_cases import device

pytestmark = [pytest.mark.gpu, pytest.mark.interpretable]


@tile.jit
def rows_kernel(src_ptr, dst_ptr, idx_ptr, M, N, column, R: tl.constexpr, C: tl.constexpr):
    src = tl.make_tensor_descriptor(src_ptr, [M, N], [N, 1], [1, C])
    dst = tl.make_tensor_descriptor(dst_ptr, [M, N], [N, 1], [1, C])
    rows = tl.load(idx_ptr + tl.arange(0, R))
    block = src.gather(rows, column)
    dst.scatter(block * 2, rows, column)


@tile.jit
def atomics_kernel(acc_ptr, bits_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    acc = tl.make_tensor_descriptor(acc_ptr, [M, N], [N, 1], [BM, BN])
    bits = tl.make_tensor_descriptor(bits_ptr, [M, N], [N, 1], [BM, BN])
    ones = tl.full((BM, BN), 1.0, tl.float32)
    for i in range(2):  # blocks that overlap and cross the shape's edge
        acc.atomic_add([i * (BM // 2), 1], ones)
    r = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    # Barriers: another thread of the program may hold an element's next update.
    bits.atomic_or([0, 0], r)
    tl.debug_barrier()
    bits.atomic_max([1, 0], r)
    tl.debug_barrier()
    tl.store_tensor_descriptor(bits, [M - 1, 0], tl.load_tensor_descriptor(bits, [0, 0]) + 1)


def test_row_gather_and_scatter() -> None:
    import torch
    dev = device(torch)
    M, N, R, C, column = 40, 70, 16, 32, 50  # columns 50..81: past N = 70 from 70 on
    src = torch.randn(M, N)
    rows = torch.tensor([3, 0, 39, 40, -1, 7, 7, 12, 38, 1, 2, 5, 6, 9, 10, 11],
                        dtype=torch.int32)
    dst = torch.zeros(M, N, device=dev)
    rows_kernel[(1,)](src.to(dev), dst, rows.to(dev), M, N, column, R=R, C=C)
    got = dst.cpu()
    expected = torch.zeros(M, N)
    for r in rows.tolist():
        if 0 <= r < M:
            expected[r, column:] = src[r, column:] * 2
    assert torch.equal(got, expected)


def test_descriptor_atomics_and_function_forms() -> None:
    import torch
    dev = device(torch)
    M, N, BM, BN = 24, 20, 16, 16
    acc = torch.zeros(M, N, device=dev)
    bits = torch.zeros(M, N, dtype=torch.int32, device=dev)
    atomics_kernel[(1,)](acc, bits, M, N, BM=BM, BN=BN)
    expected = torch.zeros(M, N)
    for i in range(2):
        expected[i * (BM // 2):i * (BM // 2) + BM, 1:1 + BN] += 1
    assert torch.equal(acc.cpu(), expected)
    r = (torch.arange(BM)[:, None] * BN + torch.arange(BN)[None, :]).to(torch.int32)
    want = torch.zeros(M, N, dtype=torch.int32)
    want[:BM, :BN] |= r
    want[1:1 + BM, :BN] = torch.maximum(want[1:1 + BM, :BN], r[:min(BM, M - 1)])
    last = want[:BM, :BN].clone() + 1
    want[M - 1, :BN] = last[0]
    assert torch.equal(bits.cpu(), want)
