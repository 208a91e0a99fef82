"""Triton's tutorial 06 backward pass (bench/kernels.py attention06_backward:
its kernel and host code) against torch's autograd of scaled dot-product
attention. Its dK/dV loop reads each q^T and do tile in two dots (one of them
through tl.trans): they share one shared-memory ring."""
from __future__ import annotations

import sys
from types import ModuleType

import pytest

from conftest import REPO
from conformance_cases import device

pytestmark = [pytest.mark.gpu]


def _kernels() -> ModuleType:
    """bench/kernels.py with tile as its `triton`, loaded as bench/run.py loads it."""
    sys.path.insert(0, str(REPO / "bench"))
    from run import load_kernels
    return load_kernels("tile")


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("head_dim", [64, 128])
def test_attention06_backward_matches_autograd(head_dim: int, causal: bool, dtype: str) -> None:
    """bf16 inputs too (the tutorial's kernels cast their probabilities to
    f16; tile computes the mixed products in their common type)."""
    import torch
    g = torch.Generator(device=device(torch)).manual_seed(head_dim * 2 + causal)
    q, k, v, do = (torch.randn(2, 4, 512, head_dim, generator=g, device=device(torch),
                               dtype=getattr(torch, dtype)) for _ in range(4))
    scale = head_dim ** -0.5
    kernels = _kernels()
    o, m = kernels.attention06(q, k, v, causal, scale)
    dq, dk, dv = kernels.attention06_backward(q, k, v, o, m, do, causal, scale)
    torch.cuda.synchronize()
    # The tutorial's reference: fp16 products, an f32 softmax.
    q32, k32, v32 = (t.float().requires_grad_() for t in (q, k, v))
    out = torch.nn.functional.scaled_dot_product_attention(q32, k32, v32, is_causal=causal,
                                                           scale=scale)
    out.backward(do.float())
    for got, ref in ((dq, q32.grad), (dk, k32.grad), (dv, v32.grad)):
        torch.testing.assert_close(got.float(), ref, atol=2e-2, rtol=2e-2)
