"""`enable_reflect_ftz=` on the GPU, as Triton: on (the default) libdevice's
functions flush subnormal inputs to zero, off they keep them; `tl.math.div_rn`,
`sqrt_rn`, `tl.abs` and `tl.fma` keep subnormals either way. Compiled only:
the interpreter computes with NumPy, which never flushes."""
from __future__ import annotations

import pytest

import tile
import tile.language as tl
from conformance_cases import device

pytestmark = pytest.mark.gpu

SUBNORMAL = 1e-40  # below float32's smallest normal, 1.18e-38


@tile.jit
def flushing_and_exact(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.sqrt(x))  # libdevice's __nv_sqrtf
    tl.store(out_ptr + BLOCK + offs, tl.math.sqrt_rn(x))
    tl.store(out_ptr + 2 * BLOCK + offs, tl.math.div_rn(x, 1.0))
    tl.store(out_ptr + 3 * BLOCK + offs, tl.abs(-x))
    tl.store(out_ptr + 4 * BLOCK + offs, tl.fma(x, 2.0, x))


@pytest.mark.parametrize("enable_reflect_ftz", [True, False])
def test_reflect_ftz_flushes_only_libdevice_subnormals(enable_reflect_ftz: bool) -> None:
    import torch
    dev = device(torch)
    x = torch.full((16,), SUBNORMAL, dtype=torch.float32, device=dev)
    out = torch.full((5 * 16,), -1.0, dtype=torch.float32, device=dev)
    flushing_and_exact[(1,)](x, out, BLOCK=16, enable_reflect_ftz=enable_reflect_ftz)
    sqrt, sqrt_rn, div_rn, abs_, fma = out.view(5, 16).cpu()
    exact = torch.full((16,), SUBNORMAL, dtype=torch.float32)
    root = exact.double().sqrt().float()  # 1e-20, a normal number
    if enable_reflect_ftz:
        assert torch.equal(sqrt, torch.zeros(16)), sqrt
    else:
        torch.testing.assert_close(sqrt, root, rtol=1e-6, atol=0)
    torch.testing.assert_close(sqrt_rn, root, rtol=0, atol=0)
    for name, got, want in (("div_rn", div_rn, exact), ("abs", abs_, exact),
                            ("fma", fma, exact * 3)):  # subnormal sums are exact
        assert torch.equal(got, want), (name, got)
