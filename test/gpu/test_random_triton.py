"""tile's tl.randint4x / rand / randn against Triton's own, on the GPU: the same
Triton program (triton_random_kernels.py) compiled by Triton and by tile.
Skipped, saying so, where Triton is not installed in the test's Python."""
from __future__ import annotations

import importlib.metadata
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import tile

pytestmark = pytest.mark.gpu

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "triton_random_kernels.py"


def _load(name: str, with_tile: bool) -> ModuleType:
    """triton_random_kernels.py as a module; `with_tile`: its `import triton`
    (and triton.language) give tile (and tile.language)."""
    spec = importlib.util.spec_from_file_location(name, SOURCE)
    module = importlib.util.module_from_spec(spec)
    if not with_tile:
        spec.loader.exec_module(module)
        return module
    saved = {key: sys.modules.get(key) for key in ("triton", "triton.language")}
    sys.modules["triton"], sys.modules["triton.language"] = tile, tile.language
    try:
        spec.loader.exec_module(module)
    finally:
        for key, value in saved.items():
            if value is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = value
    return module


def _both(builtin: str, checked_by: str) -> tuple[ModuleType, ModuleType]:
    """The program compiled by Triton and by tile; skipped, saying so, where
    Triton is not installed."""
    if importlib.util.find_spec("triton") is None:
        pytest.skip(f"Triton is not installed in this Python, so there is no {builtin} of "
                    f"Triton's to compare with ({checked_by})")
    return _load("program_by_triton", with_tile=False), _load("program_by_tile", with_tile=True)


@pytest.mark.parametrize("seed, base", [(1234, 0), (-7, -3000), (2**40 + 3, 2**32 - 2500)])
def test_tile_matches_tritons_own_random_numbers(seed: int, base: int) -> None:
    by_triton, by_tile = _both("tl.rand", "test_conformance's philox cases check tile against "
                                          "the reference")
    import torch
    n, block = 10_000, 1024
    results = []
    for module in (by_triton, by_tile):
        words = torch.empty(4 * n, dtype=torch.int32, device="cuda")
        uniform = torch.empty(n, dtype=torch.float32, device="cuda")
        normal = torch.empty(n, dtype=torch.float32, device="cuda")
        module.random_streams[((n + block - 1) // block,)](seed, base, words, uniform, normal, n,
                                                          BLOCK=block)
        torch.cuda.synchronize()
        results.append((words.cpu(), uniform.cpu(), normal.cpu()))
    (tw, tu, tn), (gw, gu, gn) = results
    assert torch.equal(gw, tw), f"randint4x: {int((gw != tw).sum())} of {4 * n} words differ"
    assert torch.equal(gu.view(torch.int32), tu.view(torch.int32)), \
        f"rand: {int((gu != tu).sum())} of {n} values differ"
    difference = (gn.double() - tn.double()).abs().max().item()
    exact = int((gn.view(torch.int32) == tn.view(torch.int32)).sum())
    print(f"randn seed {seed} base {base}: {exact} of {n} bit-exact, max |difference| "
          f"{difference:.3e}")
    assert difference < 1e-5


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32"])
def test_tile_sorts_as_triton_does(dtype: str) -> None:
    """tl.sort compiled by both, on the GPU, bit for bit (NaNs included for
    floats: both networks move a NaN's neighbours alike)."""
    by_triton, by_tile = _both("tl.sort", "test_conformance's sort cases check tile against "
                                          "torch.sort")
    import torch
    g = torch.Generator(device="cuda").manual_seed(3)
    x = (torch.randn(16, 128, generator=g, device="cuda") * 100).to(getattr(torch, dtype))
    if x.is_floating_point():
        x[torch.rand(16, 128, generator=g, device="cuda") < 0.05] = float("nan")
    results = []
    for module in (by_triton, by_tile):
        up, down = torch.empty_like(x), torch.empty_like(x)
        module.sort_rows[(1,)](x, up, down, M=16, N=128)
        torch.cuda.synchronize()
        results.append(torch.cat([up, down]).cpu())
    bits = {2: torch.int16, 4: torch.int32}[x.element_size()]
    assert torch.equal(results[0].view(bits), results[1].view(bits))


@pytest.mark.parametrize("dtype, k", [("float32", 8), ("float16", 1), ("int32", 128)])
def test_tile_topk_as_triton_does(dtype: str, k: int) -> None:
    """tl.topk compiled by both, on the GPU, bit for bit (inputs without NaNs:
    the rounds' max reductions treat them differently)."""
    by_triton, by_tile = _both("tl.topk", "test_conformance's topk cases check tile against "
                                          "torch.topk")
    import triton.language
    if not hasattr(triton.language, "topk"):
        pytest.skip(f"this Triton ({importlib.metadata.version('triton')}) has no tl.topk to "
                    f"compare with (test_conformance's topk cases check tile against torch.topk)")
    import torch
    g = torch.Generator(device="cuda").manual_seed(5)
    x = (torch.randn(16, 128, generator=g, device="cuda") * 100).to(getattr(torch, dtype))
    results = []
    for module in (by_triton, by_tile):
        top = torch.empty(16, k, dtype=x.dtype, device="cuda")
        module.topk_rows[(1,)](x, top, M=16, N=128, K=k)
        torch.cuda.synchronize()
        results.append(top.cpu())
    bits = {2: torch.int16, 4: torch.int32}[x.element_size()]
    assert torch.equal(results[0].view(bits), results[1].view(bits))


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_tile_min_max_treat_nan_as_triton_does(dtype: str) -> None:
    """tl.maximum/minimum (default and PropagateNan.ALL), tl.clamp and the
    tl.max/tl.min row reductions compiled by both, on rows with NaNs (one row
    all NaN): the same values, NaN at the same places."""
    by_triton, by_tile = _both("tl.maximum", "test_conformance's nan_min_max cases check tile "
                                             "against torch.fmax and torch.maximum")
    import torch
    g = torch.Generator(device="cuda").manual_seed(11)
    m, n = 16, 64
    x, y = (torch.randn(m, n, generator=g, device="cuda").to(getattr(torch, dtype))
            for _ in range(2))
    for t in (x, y):
        t[torch.rand(m, n, generator=g, device="cuda") < 0.1] = float("nan")
    x[0] = float("nan")
    results = []
    for module in (by_triton, by_tile):
        out = torch.empty(5 * m * n + 2 * m, dtype=x.dtype, device="cuda")
        module.min_max_nan[(1,)](x, y, out, M=m, N=n)
        torch.cuda.synchronize()
        results.append(out.cpu())
    assert int(torch.isnan(results[0][5 * m * n:]).sum()) == 2  # only the row of NaNs
    torch.testing.assert_close(results[1], results[0], rtol=0, atol=0, equal_nan=True)
