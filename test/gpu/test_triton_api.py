"""This session's Triton API on the GPU: `tl.const` pointers read, a pointer
chosen by a runtime flag and returned from a runtime `if`, u64 and i64 int
arguments, `@jit(repr=)` names of launched kernels, `tl.extra.cuda.smid()`
and `globaltimer()`, `arch=` (a Hopper device runs what it compiles for
sm_90a), tuple arguments with None, constexpr and @jit elements and
NamedTuple ones with their fields, and `extern_libs={"libdevice": path}`
(tutorial 07's asin). Compiled on the GPU; the interpretable ones also
interpreted."""
from __future__ import annotations

from typing import Any, NamedTuple

import pytest

import tile
import tile.language as tl
from conformance_cases import device

pytestmark = [pytest.mark.gpu]


@tile.jit
def choose(a, b, use_b):
    if use_b:
        return b
    return a


@tile.jit
def scaled_copy(src: tl.const, dst_a, dst_b, use_b, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(choose(dst_a, dst_b, use_b) + offs, tl.load(src + offs, mask=mask) * 2, mask=mask)


@pytest.mark.interpretable
@pytest.mark.parametrize("use_b", [0, 3])
def test_const_source_and_a_pointer_returned_from_a_runtime_if(use_b):
    import torch
    n = 1000
    src = torch.randn(n, device=device(torch))
    a, b = torch.zeros_like(src), torch.zeros_like(src)
    scaled_copy[(tile.cdiv(n, 256),)](src, a, b, use_b, n, BLOCK=256)
    written, untouched = (b, a) if use_b else (a, b)
    assert torch.equal(written, src * 2) and not untouched.any()


@tile.jit
def store_int(out, value):
    tl.store(out, value)


@pytest.mark.interpretable
@pytest.mark.parametrize("value", [-5, 2**40, -2**63, 2**63, 2**64 - 1])
def test_wide_int_arguments_arrive_bit_exact(value):
    import torch
    out = torch.zeros(1, dtype=torch.int64, device=device(torch))
    store_int[(1,)](out, value)
    assert int(out.item()) & (2**64 - 1) == value & (2**64 - 1)


def _named(specialization) -> str:
    return "store_" + specialization.signature["value"]


@tile.jit(repr=_named)
def store_named(out, value):
    tl.store(out, value)


def test_repr_named_kernels_launch():
    import torch
    out = torch.zeros(1, dtype=torch.int64, device="cuda")
    compiled = store_named.warmup(out, 2**40, grid=(1,))
    assert compiled.name == "store_i64"
    store_named[(1,)](out, 2**40)
    assert out.item() == 2**40


@tile.jit
def sm_and_time(sm_ptr, time_ptr, ITERS: tl.constexpr):
    start = tl.extra.cuda.globaltimer()
    acc = tl.program_id(0).to(tl.float32)
    for _ in range(ITERS):
        acc = acc * 1.0001 + 1.0
    tl.store(sm_ptr + tl.program_id(0), tl.extra.cuda.smid() + (acc < 0).to(tl.int32))
    tl.store(time_ptr + tl.program_id(0), tl.extra.cuda.globaltimer() - start)


def test_smid_and_globaltimer_read_the_hardware():
    import torch
    programs = 1024
    sm = torch.full((programs,), -1, dtype=torch.int32, device="cuda")
    elapsed = torch.zeros(programs, dtype=torch.int64, device="cuda")
    sm_and_time[(programs,)](sm, elapsed, ITERS=2000)
    count = torch.cuda.get_device_properties(0).multi_processor_count
    assert int(sm.min()) >= 0 and int(sm.max()) < count
    assert len(torch.unique(sm)) > 1  # 1024 programs spread over the SMs
    assert int(elapsed.min()) >= 0 and int(elapsed.max()) > 0


def test_arch_option_on_this_device():
    import torch
    out = torch.zeros(1, dtype=torch.int64, device="cuda")
    capability = torch.cuda.get_device_capability()
    arch = f"sm{capability[0]}{capability[1]}"
    store_int[(1,)](out, 7, arch=arch)
    assert out.item() == 7


@tile.jit
def add_one(v):
    return v + 1


@tile.jit
def tuple_assign(x_ptrs, y_ptrs, values):
    # Triton's test_assign, with a @jit element and a constexpr one besides None.
    x0_ptr, x1_ptr = x_ptrs
    x0, x1, nothing = values
    tl.static_assert(nothing is None)
    y0_ptr, y1_ptr, (fn, step) = y_ptrs
    tl.store(x0_ptr, x0)
    tl.store(x1_ptr, x1)
    tl.store(y0_ptr, fn(x0) * step)
    tl.store(y1_ptr, x1 + 10)


@pytest.mark.interpretable
def test_tuple_arguments_with_compile_time_elements():
    import torch
    dev = device(torch)
    x = tuple(torch.zeros(1, device=dev) for _ in range(2))
    y = tuple(torch.zeros(1, device=dev) for _ in range(2))
    for step in (2, 3):  # another constexpr: another compile
        tuple_assign[(1,)](x, (*y, (add_one, tl.constexpr(step))), (2.0, 3.0, None))
        assert [t.item() for t in x + y] == [2.0, 3.0, 3.0 * step, 13.0]


@tile.jit
def asin_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.extra.cuda.libdevice.asin(x), mask=offs < n)


def test_extern_libs_links_that_libdevice(tmp_path):
    import torch
    from tile.compiler import toolchain
    found = toolchain.toolchain().libdevice
    assert found is not None, "the wheel ships libdevice"
    copy = tmp_path / "libdevice.10.bc"
    copy.write_bytes(found.read_bytes())
    x = torch.rand(98432, device="cuda") * 2 - 1
    y = torch.empty_like(x)
    asin_kernel[(97,)](x, y, x.numel(), BLOCK=1024, extern_libs={"libdevice": str(copy)})
    torch.testing.assert_close(y, torch.asin(x))
    h = asin_kernel.warmup(x, y, x.numel(), BLOCK=1024, grid=(97,),
                           extern_libs={"libdevice": str(copy)})
    assert h.metadata["libdevice"] == str(copy)


class Closure(NamedTuple):
    fn: Any
    captured: tuple


class Strided(NamedTuple):
    ptr: Any
    shape: tuple
    stride: tuple


@tile.jit
def scaled_by(x, a_ptr):
    return x * tl.load(a_ptr)


@tile.jit
def strided_mask(t, BM: tl.constexpr, BN: tl.constexpr):
    rm, rn = tl.arange(0, BM), tl.arange(0, BN)
    return (rm[:, None] < t.shape[0]) & (rn[None, :] < t.shape[1])


@tile.jit
def apply_closure(closure, src, dst, BM: tl.constexpr, BN: tl.constexpr):
    # Triton's test_namedtuple: NamedTuple arguments keep their fields, a @jit
    # function among them is a compile-time element.
    rm, rn = tl.arange(0, BM), tl.arange(0, BN)
    x = tl.load(src.ptr + rm[:, None] * src.stride[0] + rn[None, :] * src.stride[1],
                mask=strided_mask(src, BM, BN), other=0)
    y = closure.fn(x, *closure.captured)
    tl.store(dst.ptr + rm[:, None] * dst.stride[0] + rn[None, :] * dst.stride[1], y,
             mask=strided_mask(dst, BM, BN))


@pytest.mark.interpretable
def test_named_tuple_arguments_keep_their_fields():
    import torch
    dev = device(torch)
    x = torch.randn((32, 32), device=dev)
    y = torch.zeros((16, 16), device=dev)
    a = torch.tensor([5.25], device=dev)
    apply_closure[(1,)](Closure(scaled_by, (a,)), Strided(x, x.shape, x.stride()),
                        Strided(y, y.shape, y.stride()), 64, 64)
    torch.testing.assert_close(y, x[:16, :16] * a)

