"""Attention written as Triton's tutorial 06 (3.6) writes its forward pass
(bench/kernels.py `attention06`: tensor descriptors from the host or made in
the kernel, the two-stage causal loop, the autotuner's pre_hook), against
torch's scaled_dot_product_attention. On the GPU compiled; with
TILE_INTERPRET=1 interpreted on smaller shapes."""
from __future__ import annotations

import sys
from types import ModuleType

import pytest

import tile
from conftest import REPO
from conformance_cases import device, shrink

pytestmark = [pytest.mark.gpu, pytest.mark.interpretable]


def _kernels() -> ModuleType:
    """bench/kernels.py with tile as its `triton`, loaded as bench/run.py loads it."""
    sys.path.insert(0, str(REPO / "bench"))
    from run import load_kernels
    return load_kernels("tile")


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("host_descriptors", [True, False], ids=["host_desc", "kernel_desc"])
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("head_dim", [64, 128])
def test_attention06_matches_sdpa(head_dim: int, causal: bool, host_descriptors: bool,
                                  dtype: str) -> None:
    """bf16 inputs too: the tutorial's kernel multiplies its f16 probabilities
    by bf16 values (Triton 3.6 refuses the mixed dot; tile computes it in
    their common type) and stores f16 results into the bf16 output."""
    import torch
    z, h, n_ctx = shrink((2, 4, 1024), (1, 2, 256))
    g = torch.Generator(device=device(torch)).manual_seed(head_dim + causal)
    q, k, v = (torch.randn(z, h, n_ctx, head_dim, generator=g, device=device(torch),
                           dtype=getattr(torch, dtype)) for _ in range(3))
    o, m = _kernels().attention06(q, k, v, causal, head_dim ** -0.5, host_descriptors)
    if not tile.interpreter.enabled():
        torch.cuda.synchronize()
    ref = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                                           is_causal=causal)
    torch.testing.assert_close(o.float(), ref, atol=2e-2, rtol=1e-2)
    # M is each row's log2 of its softmax denominator (scores in base 2).
    scores = (q.float() @ k.float().transpose(-1, -2)) * (head_dim ** -0.5) * 1.44269504
    if causal:
        scores = scores.masked_fill(torch.ones(n_ctx, n_ctx, device=q.device).triu(1).bool(),
                                    float("-inf"))
    torch.testing.assert_close(m, torch.logsumexp(scores * 0.69314718, -1) * 1.44269504,
                               atol=2e-2, rtol=1e-3)
