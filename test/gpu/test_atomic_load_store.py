"""tl.atomic_load / tl.atomic_store (Triton 3.6's ordered loads and stores):
blocks and scalars, masks, every element type and order, and a message passed
between two programs (a release store of a flag, an acquire spin on it).
Compiled on the GPU and interpreted (TILE_INTERPRET=1)."""
from __future__ import annotations

import pytest

import tile
import tile.language as tl
from conformance_cases import device

pytestmark = [pytest.mark.gpu, pytest.mark.interpretable]


@tile.jit
def copy_ordered(src_ptr, dst_ptr, n, BLOCK: tl.constexpr, LOAD_SEM: tl.constexpr,
                 STORE_SEM: tl.constexpr, SCOPE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.atomic_load(src_ptr + offs, mask=offs < n, sem=LOAD_SEM, scope=SCOPE)
    tl.atomic_store(dst_ptr + offs, x, mask=offs < n, sem=STORE_SEM, scope=SCOPE)
    first = (src_ptr + 1).atomic_load()  # a scalar, with the defaults
    tl.atomic_store(dst_ptr + BLOCK, first)


@tile.jit
def message(data_ptr, flag_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    if tl.program_id(0) == 0:
        tl.store(data_ptr + offs, offs * 3 + 1)
        # Every thread's data before the flag: the barrier orders them before
        # the one thread's release store.
        tl.debug_barrier()
        tl.atomic_store(flag_ptr, 1)
    else:
        while tl.atomic_load(flag_ptr) == 0:  # acquire
            pass
        tl.store(out_ptr + offs, tl.load(data_ptr + offs))


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "int8", "int64",
                                   "float64"])
@pytest.mark.parametrize("load_sem, store_sem, scope", [("acquire", "release", "gpu"),
                                                        ("relaxed", "relaxed", "cta"),
                                                        ("acquire", "relaxed", "sys")])
def test_ordered_copy(dtype: str, load_sem: str, store_sem: str, scope: str) -> None:
    import torch
    dev = device(torch)
    src = (torch.arange(64) * 2 - 30).to(getattr(torch, dtype))
    dst = torch.full((65,), -1, dtype=src.dtype, device=dev)
    copy_ordered[(1,)](src.to(dev), dst, 50, BLOCK=64, LOAD_SEM=load_sem,
                       STORE_SEM=store_sem, SCOPE=scope)
    expected = torch.cat([src[:50], torch.full((14,), -1, dtype=src.dtype), src[1:2]])
    assert torch.equal(dst.cpu(), expected)


def test_release_store_and_acquire_load_pass_a_message() -> None:
    import torch
    dev = device(torch)
    data = torch.zeros(128, dtype=torch.int32, device=dev)
    flag = torch.zeros(1, dtype=torch.int32, device=dev)
    out = torch.zeros(128, dtype=torch.int32, device=dev)
    message[(2,)](data, flag, out, BLOCK=128)
    assert out.cpu().tolist() == [i * 3 + 1 for i in range(128)]
    assert flag.item() == 1
