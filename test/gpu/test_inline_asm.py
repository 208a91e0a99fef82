"""tl.inline_asm_elementwise on the GPU (the interpreter cannot run PTX): one
element per asm (a funnel shift), bytes and halves packed into 32-bit
registers, several outputs, scalars, and asm with side effects."""
from __future__ import annotations

import pytest

import tile
import tile.language as tl

pytestmark = pytest.mark.gpu


@tile.jit
def funnel_shift(x_ptr, y_ptr, s_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x, y, s = tl.load(x_ptr + offs), tl.load(y_ptr + offs), tl.load(s_ptr + offs)
    z = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r, r, r", [x, y, s],
                                  dtype=tl.uint32, is_pure=True, pack=1)
    tl.store(out_ptr + offs, z)


@tile.jit
def packed_bytes(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("and.b32 $0, $1, 0x1F1F1F1F;", "=r,r", [x],
                                  dtype=tl.uint8, is_pure=True, pack=4)
    tl.store(out_ptr + offs, y)


@tile.jit
def halves_and_pairs(a_ptr, b_ptr, h_ptr, c_ptr, d_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a, b = tl.load(a_ptr + offs), tl.load(b_ptr + offs)  # f16
    h = tl.inline_asm_elementwise("add.rn.f16x2 $0, $1, $2;", "=r,r,r", [a, b],
                                  dtype=tl.float16, is_pure=True, pack=2)
    tl.store(h_ptr + offs, h)
    ia, ib = a.to(tl.int32), b.to(tl.int32)
    c, d = tl.inline_asm_elementwise("sub.s32 $0, $2, $3;\n\tadd.s32 $1, $2, $3;",
                                     "=r,=r,r,r", [ia, ib], dtype=(tl.int32, tl.int32),
                                     is_pure=True, pack=1)
    tl.store(c_ptr + offs, c)
    tl.store(d_ptr + offs, d)
    # A scalar operand, broadcast with a block; and a scalar result.
    e = tl.inline_asm_elementwise("mul.lo.s32 $0, $1, $2;", "=r,r,r", [ia, n],
                                  dtype=tl.int32, is_pure=True, pack=1)
    tl.store(c_ptr + BLOCK + offs, e)
    f = tl.inline_asm_elementwise("mul.lo.s32 $0, $1, 3;", "=r,r", [n], dtype=tl.int32,
                                  is_pure=False, pack=1)
    tl.store(d_ptr + BLOCK, f)


def test_funnel_shift_one_element_per_asm() -> None:
    import torch
    g = torch.Generator().manual_seed(0)
    x = torch.randint(0, 2**31, (128,), generator=g, dtype=torch.int64)
    y = torch.randint(0, 2**31, (128,), generator=g, dtype=torch.int64)
    s = torch.randint(1, 32, (128,), generator=g, dtype=torch.int64)
    out = torch.zeros(128, dtype=torch.uint32, device="cuda")
    funnel_shift[(1,)](x.to(torch.uint32).cuda(), y.to(torch.uint32).cuda(),
                       s.to(torch.uint32).cuda(), out, BLOCK=128)
    expected = [((yy << ss) | (xx >> (32 - ss))) % 2**32
                for xx, yy, ss in zip(x.tolist(), y.tolist(), s.tolist())]
    assert out.cpu().to(torch.int64).tolist() == expected


def test_bytes_packed_four_to_a_register() -> None:
    import torch
    x = torch.arange(256, dtype=torch.uint8)
    out = torch.zeros(256, dtype=torch.uint8, device="cuda")
    packed_bytes[(1,)](x.cuda(), out, BLOCK=256)
    assert out.cpu().tolist() == [v & 0x1F for v in range(256)]


def test_halves_several_outputs_and_scalars() -> None:
    import torch
    g = torch.Generator().manual_seed(1)
    a = (torch.randn(64, generator=g) * 10).to(torch.float16)
    b = (torch.randn(64, generator=g) * 10).to(torch.float16)
    h = torch.zeros(64, dtype=torch.float16, device="cuda")
    c = torch.zeros(128, dtype=torch.int32, device="cuda")
    d = torch.zeros(65, dtype=torch.int32, device="cuda")
    halves_and_pairs[(1,)](a.cuda(), b.cuda(), h, c, d, 7, BLOCK=64)
    assert torch.equal(h.cpu(), a + b)
    ia, ib = a.to(torch.int32), b.to(torch.int32)
    assert torch.equal(c.cpu()[:64], ia - ib)
    assert torch.equal(d.cpu()[:64], ia + ib)
    assert torch.equal(c.cpu()[64:], ia * 7)
    assert d[64].item() == 21
