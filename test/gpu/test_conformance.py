"""GPU conformance (issue 5): every case of conformance_cases.py launched through
`kernel[grid](...)` with torch CUDA tensors and checked against PyTorch.

Inputs are fresh random data each run (the seed is printed on failure; set
TILE_GPU_SEED to replay). Outputs are poisoned (NaN / a sentinel) before the
launch and live between guard bands: every element must be written, nothing
outside may be.
"""
from __future__ import annotations

import os
import random

import pytest

from conformance_cases import CASES, Case, build, device, launch

pytestmark = [pytest.mark.gpu, pytest.mark.interpretable]


def _seed() -> int:
    return int(os.environ.get("TILE_GPU_SEED", random.SystemRandom().randrange(2**31)))


def _check(case: Case, name: str, got, ref, torch, seed: int) -> None:
    where = f"{case.id}: output {name!r} (seed {seed})"
    assert tuple(got.shape) == tuple(ref.shape), f"{where}: reference shape {tuple(ref.shape)}"
    ref = ref.to(device=got.device)
    if not got.dtype.is_floating_point:
        bad = got.to(torch.int64) != ref.to(torch.int64)
        if bad.any():
            index = bad.nonzero()[0].tolist()
            raise AssertionError(
                f"{where}: {int(bad.sum())} of {bad.numel()} elements differ; first at "
                f"{index}: got {got[tuple(index)].item()}, expected {ref[tuple(index)].item()}"
                f" (the poison is {-0x5A5A5A5A}: an unwritten element)")
        return
    g, r = got.double(), ref.double()
    gnan, rnan = torch.isnan(g), torch.isnan(r)
    unwritten = gnan & ~rnan
    assert not unwritten.any(), (
        f"{where}: {int(unwritten.sum())} of {g.numel()} elements are NaN (poison: never "
        f"written?) where the reference is not; first at {unwritten.nonzero()[0].tolist()}")
    extra = rnan & ~gnan
    assert not extra.any(), (
        f"{where}: {int(extra.sum())} elements should be NaN but are not; first at "
        f"{extra.nonzero()[0].tolist()}: got {g[tuple(extra.nonzero()[0].tolist())].item()}")
    finite = ~rnan
    g, r = g[finite], r[finite]
    rinf = torch.isinf(r)
    bad_inf = rinf & (g != r)
    assert not bad_inf.any(), f"{where}: {int(bad_inf.sum())} infinities differ"
    g, r = g[~rinf], r[~rinf]
    if case.tol is None:
        bad = g != r
        if bad.any():
            i = int(bad.nonzero()[0])
            raise AssertionError(f"{where}: {int(bad.sum())} of {g.numel()} elements are not "
                                 f"bit-exact; e.g. got {g[i].item()!r}, expected {r[i].item()!r}")
    else:
        norm = torch.linalg.vector_norm(r).item()
        err = torch.linalg.vector_norm(g - r).item()
        rel = err / norm if norm > 0 else err
        assert rel < case.tol, (f"{where}: relative error {rel:.3e} >= {case.tol:g} "
                                f"(max abs error {(g - r).abs().max().item():.3e})")


def verify(case: Case, built, inputs, torch, seed: int) -> None:
    """Checks the outputs of a launch of `case` against its reference."""
    expected = case.ref(inputs, torch)
    assert set(expected) == set(built.bases), f"{case.id}: reference names {sorted(expected)}"
    for name, ref in expected.items():
        flat, start, end = built.bases[name]
        _check(case, name, built.named[name], ref, torch, seed)
        poison = torch.isnan(flat) if flat.dtype.is_floating_point else flat == -0x5A5A5A5A
        assert poison[:start].all() and poison[end:].all(), (
            f"{case.id}: output {name!r} (seed {seed}): the kernel wrote outside the array")
        if case.check_zero_sign:
            got = built.named[name]
            zeros = (ref == 0) & (got == 0)
            differ = zeros & (torch.signbit(got) != torch.signbit(ref.to(got.dtype)))
            if differ.any():
                i = differ.nonzero()[0]
                raise AssertionError(
                    f"{case.id}: {int(differ.sum())} zeros have another sign than the reference "
                    f"(e.g. input {inputs['x'][i].item()!r} gives {got[i].item()!r}, "
                    f"the reference gives {ref.to(got.dtype)[i].item()!r})")
    for k, v in inputs.items():  # inputs are unchanged
        if isinstance(v, torch.Tensor) and k not in built.bases:
            assert torch.equal(torch.nan_to_num(built.named[k]), torch.nan_to_num(v)), \
                f"{case.id}: input {k!r} was modified"


def prepare(case: Case, torch):
    seed = _seed()
    generator = torch.Generator(device=device(torch))
    generator.manual_seed(seed)
    built = build(case, "torch", torch, generator)
    inputs = {k: (v.clone() if isinstance(v, torch.Tensor) else v)
              for k, v in built.named.items()}
    return built, inputs, seed


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case: Case) -> None:
    import torch

    built, inputs, seed = prepare(case, torch)
    launch(case, built)
    if device(torch) == "cuda":
        torch.cuda.synchronize()
    verify(case, built, inputs, torch, seed)


# -- the checks themselves catch what they should (no kernel launched) ------------

def _vec_add_case() -> Case:
    return next(c for c in CASES if c.id.startswith("vec_add-float32-n1000003"))


def test_harness_catches_unwritten_output() -> None:
    import torch

    case = _vec_add_case()
    built, inputs, seed = prepare(case, torch)
    out = built.named["out"]
    out.copy_(inputs["x"] + inputs["y"])
    out[-1] = float("nan")  # one element "not written"
    with pytest.raises(AssertionError, match="never written"):
        verify(case, built, inputs, torch, seed)


def test_harness_catches_write_outside() -> None:
    import torch

    case = _vec_add_case()
    built, inputs, seed = prepare(case, torch)
    built.named["out"].copy_(inputs["x"] + inputs["y"])
    flat, start, end = built.bases["out"]
    flat[end] = 0.0
    with pytest.raises(AssertionError, match="outside the array"):
        verify(case, built, inputs, torch, seed)


def test_harness_catches_wrong_values() -> None:
    import torch

    case = _vec_add_case()
    built, inputs, seed = prepare(case, torch)
    built.named["out"].copy_(inputs["x"] + inputs["y"] * 1.001)
    with pytest.raises(AssertionError, match="relative error"):
        verify(case, built, inputs, torch, seed)
    int_case = next(c for c in CASES if c.id == "int_ops-int32")
    built, inputs, seed = prepare(int_case, torch)
    a, b = inputs["a"], inputs["b"]
    for name, value in int_case.ref(inputs, torch).items():
        built.named[name].copy_(value)
    verify(int_case, built, inputs, torch, seed)  # the exact reference passes
    built.named["div"].copy_(torch.div(a, b, rounding_mode="floor"))  # Python's //
    with pytest.raises(AssertionError, match="elements differ"):
        verify(int_case, built, inputs, torch, seed)
