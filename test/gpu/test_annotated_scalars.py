"""Scalar parameters annotated with a type (Triton's `v: tl.float16`, and
"tl.uint8" strings under `from __future__ import annotations`): a Python
number passed there has that type in the kernel and is packed as it, f16/bf16
and 8/16-bit integers included. Compiled on the GPU and interpreted
(TILE_INTERPRET=1)."""
from __future__ import annotations

import math

import pytest

import tile
import tile.language as tl
from conformance_cases import device

pytestmark = [pytest.mark.gpu, pytest.mark.interpretable]


def _annotated(**types):
    def decorate(fn):
        fn.__annotations__ = dict(types)
        return fn
    return decorate


FLOATS = [tl.float16, tl.bfloat16, tl.float32, tl.float64]


@pytest.mark.parametrize("value", [0.0, 42.0, 1.0, math.inf, math.nan])
@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_float_annotation(dtype, value: float) -> None:
    import torch

    @tile.jit
    @_annotated(val=dtype)
    def store_value(ptr, val):
        tl.static_assert(val.dtype == dtype)
        tl.store(ptr, val)

    out = torch.zeros(1, dtype=torch.float32, device=device(torch))
    store_value[(1,)](out, value)
    got = out.item()
    assert (math.isnan(got) and math.isnan(value)) or got == value
    # Again, as the launcher's cached path takes it (an int too).
    for again in (2.5, 3):
        store_value[(1,)](out, again)
        assert out.item() == again


@pytest.mark.parametrize("annotation, value", [("tl.uint8", 200), ("tl.int8", -3),
                                               ("tl.int16", -30000), ("tl.uint16", 60000),
                                               ("tl.uint32", 4000000000),
                                               ("tl.int64", -(1 << 40))])
def test_int_annotation(annotation: str, value: int) -> None:
    import torch

    @tile.jit
    @_annotated(v=annotation)
    def store_int(ptr, v):
        tl.static_assert(v.dtype == getattr(tl, annotation.split(".")[1]))
        tl.store(ptr, v.to(tl.int64))

    out = torch.zeros(1, dtype=torch.int64, device=device(torch))
    for again in (value, value // 2, 1, 16):  # then the launcher's cached path
        store_int[(1,)](out, again)
        assert out.item() == again
