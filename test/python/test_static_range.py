"""Long tl.static_range loops (more than 128 trips) become constant-bound
loops (eight body copies per iteration, the remainder unrolled) when the
index need not be a compile-time constant; otherwise they are unrolled."""
from __future__ import annotations

import tile
import tile.language as tl


@tile.jit
def strided_sum(x_ptr, out_ptr):
    acc = tl.zeros((16,), dtype=tl.float32)
    for i in tl.static_range(3, 600, 3):  # 199 trips: 24 x 8 in a loop, 7 more
        acc += tl.load(x_ptr + i + tl.arange(0, 16))
    tl.store(out_ptr + tl.arange(0, 16), acc)


@tile.jit
def short_loop(x_ptr, out_ptr):
    acc = tl.zeros((16,), dtype=tl.float32)
    for i in tl.static_range(100):
        acc += tl.load(x_ptr + i + tl.arange(0, 16))
    tl.store(out_ptr + tl.arange(0, 16), acc)


@tile.jit
def index_as_shape(out_ptr):
    for i in tl.static_range(1, 200):
        tl.static_assert(i < 200)  # needs i at compile time
        tl.store(out_ptr + tl.arange(0, 32), tl.arange(0, 32) + i)


def test_long_loop_is_rolled_with_unrolled_remainder() -> None:
    ir = tile.generate_ir(strided_sum, "*fp32,*fp32", {})
    assert ir.count("scf.for") == 1
    assert "step %" in ir
    # 8 copies in the loop body + 7 remaining trips.
    assert ir.count("tile.load") == 15
    # The copies advance the index by one step (3) each.
    assert "arith.constant 6 : i32" in ir and "arith.constant 9 : i32" in ir


def test_short_loop_is_unrolled() -> None:
    ir = tile.generate_ir(short_loop, "*fp32,*fp32", {})
    assert "scf.for" not in ir
    assert ir.count("tile.load") == 100


def test_loop_whose_index_must_be_constant_is_unrolled() -> None:
    ir = tile.generate_ir(index_as_shape, "*i32", {})
    assert ir.count("tile.store") == 199
