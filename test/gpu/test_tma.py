"""TMA (tile.knobs.compilation.tma, on by default): tensor descriptors whose blocks
reach wgmma through rings that `cp.async.bulk.tensor` fills (the launcher
encodes each descriptor's map with cuTensorMapEncodeTiled), against torch.
Shapes that are not multiples of the blocks check TMA's zero fill outside
the tensor, K-loops of one and of many iterations the ring's phases,
`x @ w.T` the transposed box, and Triton's tutorial 06 all of it with a
ring of one slot (q) and two K loops (causal). Descriptors and block
pointers made in the kernel have maps the launcher encodes from the
launch's arguments (hidden parameters); where alignment rules TMA out, the
same kernels load through pointers."""
from __future__ import annotations

import sys
from types import ModuleType
from typing import Iterator

import pytest

import tile
import tile.language as tl
from conftest import REPO
from conformance_cases import device
from tile.tools.tensor_descriptor import TensorDescriptor

pytestmark = [pytest.mark.gpu]


@pytest.fixture(autouse=True, params=[True, False], ids=["tma", "no_tma"])
def tma(request: pytest.FixtureRequest) -> Iterator[None]:
    # Every case with TMA (the default) and without (cp.async copies and
    # masked loads and stores of the same blocks).
    with tile.knobs.compilation.scope():
        tile.knobs.compilation.tma = request.param
        yield


def _kernels() -> ModuleType:
    """bench/kernels.py with tile as its `triton`, loaded as bench/run.py loads it."""
    sys.path.insert(0, str(REPO / "bench"))
    from run import load_kernels
    return load_kernels("tile")


def _capability() -> tuple[int, int]:
    import torch
    return torch.cuda.get_device_capability()


@pytest.mark.parametrize("dtype_name", ["float16", "bfloat16"])
@pytest.mark.parametrize("transposed_b", [False, True], ids=["b", "b_t"])
@pytest.mark.parametrize("shape", [(200, 136, 104), (128, 128, 64), (64, 256, 1000)],
                         ids=lambda s: "x".join(map(str, s)))
def test_descriptor_matmul_matches_torch(shape: tuple[int, int, int], transposed_b: bool,
                                         dtype_name: str) -> None:
    import torch
    if _capability() < (9, 0):
        pytest.skip("TMA needs sm_90")
    m, n, k = shape
    dtype = getattr(torch, dtype_name)
    g = torch.Generator(device=device(torch)).manual_seed(m + n + k)
    a = torch.randn(m, k, generator=g, device=device(torch), dtype=dtype)
    b = torch.randn(n, k, generator=g, device=device(torch), dtype=dtype) if transposed_b \
        else torch.randn(k, n, generator=g, device=device(torch), dtype=dtype)
    c = torch.empty(m, n, device=device(torch), dtype=torch.float32)
    bm, bn, bk = 128, 128, 64
    a_desc = TensorDescriptor.from_tensor(a, [bm, bk])
    b_desc = TensorDescriptor.from_tensor(b, [bn, bk] if transposed_b else [bk, bn])
    grid = (triton_cdiv(m, bm), triton_cdiv(n, bn))
    kernel = _kernels().descriptor_matmul[grid]
    kernel(a_desc, b_desc, c, m, n, k, TRANSPOSED_B=transposed_b, BM=bm, BN=bn, BK=bk,
           num_warps=8, num_stages=3)
    ref = a.float() @ (b.float().T if transposed_b else b.float())
    torch.testing.assert_close(c, ref, atol=1e-2 * k ** 0.5, rtol=1e-2)
    # Again with other tensors of the same shapes: the launcher encodes new maps.
    a2, b2 = a.flip(0).contiguous(), b.flip(0).contiguous()
    kernel(TensorDescriptor.from_tensor(a2, [bm, bk]),
           TensorDescriptor.from_tensor(b2, [bn, bk] if transposed_b else [bk, bn]),
           c, m, n, k, TRANSPOSED_B=transposed_b, BM=bm, BN=bn, BK=bk, num_warps=8,
           num_stages=3)
    ref2 = a2.float() @ (b2.float().T if transposed_b else b2.float())
    torch.testing.assert_close(c, ref2, atol=1e-2 * k ** 0.5, rtol=1e-2)


@pytest.mark.parametrize("kernel,b_column_major", [
    ("in_kernel_descriptor_matmul", False), ("block_pointer_matmul", False),
    ("block_pointer_matmul", True)], ids=["descriptors", "block_pointers", "block_pointers_b_t"])
@pytest.mark.parametrize("shape", [(256, 128, 192), (200, 136, 104), (64, 256, 1000),
                                   (384, 256, 64)], ids=lambda s: "x".join(map(str, s)))
def test_kernel_made_maps_match_torch(shape: tuple[int, int, int], kernel: str,
                                      b_column_major: bool) -> None:
    # 256x128x192 and 384x256x64: every map a parameter (TMA loads and
    # stores); 200x136x104 and 64x256x1000: extents or row strides that are
    # not multiples of 16 (not specialized), so some maps fall back to
    # pointers and TMA fills and clips only the rest. A second launch with
    # other tensors makes the launcher encode new maps.
    import torch
    if _capability() < (9, 0):
        pytest.skip("TMA needs sm_90")
    m, n, k = shape
    g = torch.Generator(device=device(torch)).manual_seed(m + n + k)
    matmul = getattr(_kernels(), kernel)
    grid = (triton_cdiv(m, 128), triton_cdiv(n, 128))
    for attempt in range(2):
        a = torch.randn(m, k, generator=g, device=device(torch), dtype=torch.float16)
        b = torch.randn(n, k, generator=g, device=device(torch), dtype=torch.float16).T \
            if b_column_major else \
            torch.randn(k, n, generator=g, device=device(torch), dtype=torch.float16)
        c = torch.full((m, n), float("nan"), device=device(torch), dtype=torch.float16)
        if kernel == "in_kernel_descriptor_matmul":
            matmul[grid](a, b, c, m, n, k, BM=128, BN=128, BK=64, num_warps=8, num_stages=3)
        else:
            matmul[grid](a, b, c, m, n, k, *a.stride(), *b.stride(), *c.stride(), BM=128,
                         BN=128, BK=64, num_warps=8, num_stages=3)
        torch.testing.assert_close(c.float(), a.float() @ b.float(), atol=1e-2 * k ** 0.5,
                                   rtol=1e-2, msg=lambda text: f"launch {attempt}: {text}")


@tile.jit
def scale_tiles(x_desc, y_desc, z_desc, BM: tl.constexpr, BN: tl.constexpr):
    row = tl.program_id(0) * BM
    col = tl.program_id(1) * BN
    y_desc.store([row, col], x_desc.load([row, col]) * 2)
    # Read back what the TMA store wrote (other threads' elements): its
    # writes must be complete and visible first.
    z_desc.store([row, col], y_desc.load([row, col]) + 1)


@pytest.mark.parametrize("dtype_name", ["float16", "float32"])
def test_descriptor_stores_clip_to_the_tensor(dtype_name: str) -> None:
    # TMA stores (staged in shared memory) write the blocks' elements inside
    # the descriptor's 200 x 136 shape and nothing outside it: the rest of
    # the 256 x 256 buffer under it keeps its -1. The kernel reads its first
    # store back for the second.
    import torch
    if _capability() < (9, 0):
        pytest.skip("TMA needs sm_90")
    dtype = getattr(torch, dtype_name)
    x = torch.randn(200, 136, device=device(torch), dtype=dtype)
    out = torch.full((256, 256), -1.0, device=device(torch), dtype=dtype)
    z = torch.empty(200, 136, device=device(torch), dtype=dtype)
    y = TensorDescriptor(out, [200, 136], [256, 1], [64, 32])
    scale_tiles[(4, 5)](TensorDescriptor.from_tensor(x, [64, 32]), y,
                        TensorDescriptor.from_tensor(z, [64, 32]), BM=64, BN=32)
    expected = torch.full((256, 256), -1.0, device=device(torch), dtype=dtype)
    expected[:200, :136] = x * 2
    torch.testing.assert_close(out, expected, atol=0, rtol=0)
    torch.testing.assert_close(z, x * 2 + 1, atol=0, rtol=0)


@pytest.mark.parametrize("host_descriptors", [True, False], ids=["host", "in_kernel"])
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("head_dim", [64, 128])
def test_tutorial06_with_tma_matches_sdpa(head_dim: int, causal: bool,
                                          host_descriptors: bool) -> None:
    import torch
    if _capability() < (9, 0):
        pytest.skip("TMA needs sm_90")
    g = torch.Generator(device=device(torch)).manual_seed(head_dim + causal)
    q, k, v = (torch.randn(2, 4, 1024, head_dim, generator=g, device=device(torch),
                           dtype=torch.float16) for _ in range(3))
    o, _ = _kernels().attention06(q, k, v, causal, head_dim ** -0.5, host_descriptors)
    ref = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                                           is_causal=causal)
    torch.testing.assert_close(o.float(), ref, atol=2e-2, rtol=1e-2)


def triton_cdiv(x: int, y: int) -> int:
    return (x + y - 1) // y
