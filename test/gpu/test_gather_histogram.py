"""tl.gather and tl.histogram, compiled on the GPU and interpreted
(TILE_INTERPRET=1), against torch.gather and torch.bincount: both axes,
extents that are not powers of two, several warps, int64 indices, masks and
values outside the bins."""
from __future__ import annotations

import pytest

import tile
import tile.language as tl
from conformance_cases import device

pytestmark = [pytest.mark.gpu, pytest.mark.interpretable]


@tile.jit
def gather_kernel(src_ptr, index_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                  IM: tl.constexpr, IN: tl.constexpr, AXIS: tl.constexpr):
    src = tl.load(src_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    at = tl.arange(0, IM)[:, None] * IN + tl.arange(0, IN)[None, :]
    index = tl.load(index_ptr + at)
    tl.store(out_ptr + at, src.gather(index, AXIS) if AXIS == 0 else tl.gather(src, index, AXIS))


@tile.jit
def histogram_kernel(x_ptr, out_ptr, n, N: tl.constexpr, BINS: tl.constexpr,
                     MASKED: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    counts = tl.histogram(x, BINS, mask=offs < n) if MASKED else x.histogram(BINS)
    tl.store(out_ptr + tl.arange(0, BINS), counts)


@pytest.mark.parametrize("src_shape, index_shape, axis, dtype, index_dtype, warps", [
    ((16, 32), (16, 8), 1, "float32", "int32", 4),
    ((64, 8), (100, 8), 0, "float16", "int32", 4),
    ((24, 10), (24, 7), 1, "int32", "int64", 2),
    ((5, 3), (9, 3), 0, "float32", "int32", 1),
])
def test_gather_matches_torch(src_shape: tuple[int, int], index_shape: tuple[int, int],
                              axis: int, dtype: str, index_dtype: str, warps: int) -> None:
    import torch
    dev = device(torch)
    g = torch.Generator().manual_seed(sum(src_shape) + axis)
    src = (torch.randn(src_shape, generator=g) * 100).to(getattr(torch, dtype))
    index = torch.randint(0, src_shape[axis], index_shape, generator=g,
                          dtype=getattr(torch, index_dtype))
    out = torch.zeros(index_shape, dtype=src.dtype, device=dev)
    gather_kernel[(1,)](src.to(dev), index.to(dev), out, M=src_shape[0], N=src_shape[1],
                        IM=index_shape[0], IN=index_shape[1], AXIS=axis, num_warps=warps)
    assert torch.equal(out.cpu(), torch.gather(src, axis, index.long()))


@pytest.mark.parametrize("n_values, valid, bins, warps, masked", [
    (1024, 1000, 64, 4, True), (2048, 2048, 5, 8, False), (96, 60, 33, 1, True),
])
def test_histogram_matches_bincount(n_values: int, valid: int, bins: int, warps: int,
                                    masked: bool) -> None:
    import torch
    dev = device(torch)
    g = torch.Generator().manual_seed(bins)
    # Values below 0 and past the last bin are not counted.
    x = torch.randint(-5, bins + 6, (n_values,), generator=g, dtype=torch.int32)
    out = torch.full((bins,), -1, dtype=torch.int32, device=dev)
    histogram_kernel[(1,)](x.to(dev), out, valid, N=n_values, BINS=bins, MASKED=masked,
                           num_warps=warps)
    counted = x[:valid] if masked else x
    counted = counted[(counted >= 0) & (counted < bins)].long()
    assert out.cpu().tolist() == torch.bincount(counted, minlength=bins).tolist()
