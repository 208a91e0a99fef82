"""The IR emitted for each language feature; everything emitted must verify."""
from __future__ import annotations

import pytest

from conftest import check_order, verify

import tile
import tile.language as tl
from kernels import helpers


def ir_of(kernel, signature, constexprs=None, specialization=None) -> str:
    ir = tile.generate_ir(kernel, signature, constexprs or {}, specialization)
    verify(ir)
    return ir


@tile.jit
def binary_ops(x_ptr, y_ptr, i_ptr, j_ptr, out_ptr, iout_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    i = tl.load(i_ptr + offs)
    j = tl.load(j_ptr + offs)
    f = x + y - x * y / y
    f = f % y + x ** 2 + (-x)
    k = i + j - i * j
    k = (k // j) + (k % j) + (i & j) + (i | j) + (i ^ j) + (~i) + (i << 2) + (i >> 1) + (-i)
    tl.store(out_ptr + offs, f)
    tl.store(iout_ptr + offs, k)


def test_arithmetic_operators_on_blocks():
    ir = ir_of(binary_ops, "*fp32,*fp32,*i32,*i32,*fp32,*i32", {"BLOCK": 64})
    for op in ("tile.addf", "tile.subf", "tile.mulf", "tile.divf", "tile.remf", "tile.negf",
               "tile.addi", "tile.subi", "tile.muli", "tile.divsi", "tile.remsi", "tile.andi",
               "tile.ori", "tile.xori", "tile.noti", "tile.shli", "tile.shrsi"):
        assert f"= {op} " in ir, op
    # x ** 2 is a product, integer negation is 0 - x
    assert "tile.powf" not in ir
    check_order(ir, "arith.constant 0 : i32", "tile.splat", "tile.subi")


@tile.jit
def unsigned_ops(a_ptr, b_ptr, out_ptr):
    offs = tl.arange(0, 16)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(out_ptr + offs, (a // b) + (a % b) + (a >> 1) + tl.where(a < b, a, b))


def test_unsigned_integers_use_unsigned_ops():
    ir = ir_of(unsigned_ops, "*u32,*u32,*u32")
    for op in ("tile.divui", "tile.remui", "tile.shrui", "tile.cmpi ult"):
        assert op in ir, op


@tile.jit
def promotion(i_ptr, h_ptr, f_ptr, out_ptr, hout_ptr):
    offs = tl.arange(0, 32)
    i = tl.load(i_ptr + offs)
    h = tl.load(h_ptr + offs)
    f = tl.load(f_ptr + offs)
    tl.store(out_ptr + offs, i / i + (i + f) + (h + f))
    tl.store(hout_ptr + offs, h * 2.0 + h)


def test_type_promotion():
    ir = ir_of(promotion, "*i32,*fp16,*fp32,*fp32,*fp16")
    # int / int is a float32 division
    check_order(ir, "tile.cast", "!tile.block<32xi32> to !tile.block<32xf32>", "tile.divf")
    # f16 + f32 -> f32
    assert "!tile.block<32xf16> to !tile.block<32xf32>" in ir
    # a Python float next to an f16 block stays f16 (Triton's weak literal typing)
    assert ": f16" in ir and "tile.mulf" in ir
    assert "tile.mulf %" in ir and "!tile.block<32xf16>\n" in ir.replace(" loc", "\n loc")


@tile.jit
def literals(out_ptr, big_ptr):
    tl.store(out_ptr, 3 + tl.program_id(0))
    tl.store(big_ptr, tl.program_id(0) + 2**40)


def test_literal_types():
    ir = ir_of(literals, "*i32,*i64")
    assert "arith.constant 3 : i32" in ir
    assert "arith.constant 1099511627776 : i64" in ir
    assert "arith.extsi" in ir  # i32 program id widened to i64


@tile.jit
def compares(x_ptr, i_ptr, out_ptr, n):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    i = tl.load(i_ptr + offs)
    m = (x < 1.0) & (x <= 2.0) | (x > 3.0) ^ (x >= 4.0)
    m = m & (x == 5.0) & (x != 6.0) & (i < n) & (i != 0)
    tl.store(out_ptr + offs, x, mask=m)


def test_comparisons():
    ir = ir_of(compares, "*fp32,*i32,*fp32,i32")
    for pred in ("olt", "ole", "ogt", "oge", "oeq", "une"):
        assert f"tile.cmpf {pred}," in ir, pred
    assert "tile.cmpi slt," in ir and "tile.cmpi ne," in ir
    assert "tile.andi" in ir and "tile.ori" in ir and "tile.xori" in ir


@tile.jit
def scalar_math(out_ptr, a, b):
    c = a * b + a // b - a % b
    d = tl.maximum(a, b) + tl.minimum(a, b)
    f = tl.exp(a.to(tl.float32)) + tl.sqrt(b.to(tl.float32))
    tl.store(out_ptr, c + d + f)


def test_scalars_use_arith_and_math():
    ir = ir_of(scalar_math, "*fp32,i32,i32")
    for op in ("arith.muli", "arith.divsi", "arith.remsi", "arith.maxsi", "arith.minsi",
               "arith.sitofp", "math.exp", "math.sqrt", "arith.addf"):
        assert op in ir, op
    assert "tile." not in ir.split("tile.store")[0].replace("tile.ptr", "").replace(
        "tile.divisibility", "").replace("tile.splat", "")


@tile.jit
def math_fns(x_ptr, out_ptr):
    offs = tl.arange(0, 8)
    x = tl.load(x_ptr + offs)
    y = tl.exp(x) + tl.exp2(x) + tl.log(x) + tl.log2(x) + tl.sqrt(x) + tl.rsqrt(x)
    y += tl.abs(x) + tl.floor(x) + tl.ceil(x) + tl.sin(x) + tl.cos(x) + tl.sigmoid(x)
    y += tl.fma(x, x, x) + tl.maximum(x, 0.0) + tl.minimum(x, 1.0) + tl.where(x > 0, x, 0.0)
    y += tl.clamp(x, 0.0, 1.0)
    tl.store(out_ptr + offs, y)


def test_math_functions():
    ir = ir_of(math_fns, "*fp32,*fp32")
    for op in ("exp", "exp2", "log", "log2", "sqrt", "rsqrt", "absf", "floor", "ceil", "sin",
               "cos", "fma", "maxnumf", "minnumf", "select"):
        assert f"= tile.{op} " in ir, op


@tile.jit
def casts(x_ptr, out16_ptr, outi_ptr, outb_ptr):
    offs = tl.arange(0, 8)
    x = tl.load(x_ptr + offs)
    tl.store(out16_ptr + offs, x.to(tl.float16))
    tl.store(outi_ptr + offs, x.to(tl.int32))
    tl.store(outb_ptr + offs, tl.cast(x, tl.bfloat16))


def test_casts_and_element_ty():
    ir = ir_of(casts, "*fp32,*fp16,*i32,*bf16")
    assert "!tile.block<8xf32> to !tile.block<8xf16>" in ir
    assert "!tile.block<8xf32> to !tile.block<8xi32>" in ir
    assert "!tile.block<8xf32> to !tile.block<8xbf16>" in ir


@tile.jit
def element_ty(x_ptr, out_ptr):
    offs = tl.arange(0, 8)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(out_ptr.dtype.element_ty))


def test_pointer_element_ty():
    ir = ir_of(element_ty, "*fp32,*fp16")
    assert "tile.cast" in ir and "to !tile.block<8xf16>" in ir


@tile.jit
def broadcasting(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs)
    col = tl.sum(x, axis=1)[:, None]       # M x 1
    y = x + col + cols + 1.0              # M x N + M x 1 + N + scalar
    tl.store(out_ptr + offs, y)


def test_numpy_broadcasting():
    ir = ir_of(broadcasting, "*fp32,*fp32", {"M": 16, "N": 32})
    assert "tile.expand_dims %" in ir and "{axis = 1 : i32} : !tile.block<16xi32> -> " \
        "!tile.block<16x1xi32>" in ir
    assert "!tile.block<16x1xi32> -> !tile.block<16x32xi32>" in ir
    assert "tile.broadcast" in ir
    # N-element row aligned right: expand at 0, then broadcast 1x32 -> 16x32
    assert "{axis = 0 : i32} : !tile.block<32xf32> -> !tile.block<1x32xf32>" in ir
    assert "!tile.block<1x32xf32> -> !tile.block<16x32xf32>" in ir
    assert "tile.splat" in ir


@tile.jit
def rank3_indexing(x_ptr, out_ptr):
    i = tl.arange(0, 2)[:, None, None]
    j = tl.arange(0, 3)[None, :, None]
    k = tl.arange(0, 4)[None, None, :]
    x = tl.load(x_ptr + i * 12 + j * 4 + k)
    tl.store(out_ptr + tl.arange(0, 2)[:, None] * 4 + tl.arange(0, 4)[None, :], tl.max(x, axis=1))


def test_rank3_indexing_and_reduce():
    ir = ir_of(rank3_indexing, "*fp32,*fp32")
    assert "!tile.block<2x3x4x!tile.ptr<f32>>" in ir
    assert "tile.reduce max" in ir and "!tile.block<2x3x4xf32> -> !tile.block<2x4xf32>" in ir


@tile.jit
def shapes(x_ptr, out_ptr):
    offs = tl.arange(0, 32)
    x = tl.load(x_ptr + offs)
    m = tl.reshape(x, (4, 8))
    t = tl.trans(m)
    p = tl.trans(tl.reshape(x, (2, 4, 4)), 1, 0, 2)
    e = tl.expand_dims(x, 0)
    b = tl.broadcast_to(e, (3, 32))
    z = tl.zeros_like(b) + tl.full((3, 32), 2, tl.float32) + tl.zeros((3, 32), dtype=tl.float32)
    tl.store(out_ptr + offs, tl.sum(b + z, axis=0) + tl.sum(tl.reshape(t, (32,)), axis=0)
             + tl.sum(tl.reshape(p, (32,)), axis=0) + x.reshape(32))


def test_shape_operations():
    ir = ir_of(shapes, "*fp32,*fp32")
    assert "tile.reshape %" in ir and "!tile.block<32xf32> -> !tile.block<4x8xf32>" in ir
    assert "tile.trans %" in ir and "!tile.block<4x8xf32> -> !tile.block<8x4xf32>" in ir
    assert "{order = array<i32: 1, 0, 2>} : !tile.block<2x4x4xf32>" in ir
    assert "tile.constant dense<0.0> : !tile.block<3x32xf32>" in ir
    assert "tile.constant dense<2.0> : !tile.block<3x32xf32>" in ir


@tile.jit
def reductions(x_ptr, out_ptr, idx_ptr):
    offs = tl.arange(0, 16)[:, None] * 8 + tl.arange(0, 8)[None, :]
    x = tl.load(x_ptr + offs)
    s = tl.sum(x, axis=0) + tl.max(x, axis=0) + tl.min(x, axis=0)
    r = tl.sum(x, axis=1) + x.max(axis=1) + tl.min(x, 1)
    tl.store(out_ptr + tl.arange(0, 8), s)
    tl.store(out_ptr + tl.arange(0, 16), r)
    tl.store(idx_ptr + tl.arange(0, 8), tl.argmax(x, axis=0) + tl.argmin(x, axis=0))
    tl.store(out_ptr, tl.sum(x))
    v, i = tl.max(x, axis=1, return_indices=True)
    tl.store(idx_ptr + tl.arange(0, 16), i)
    tl.store(out_ptr + tl.arange(0, 16)[:, None], tl.sum(x, axis=1, keep_dims=True) + v[:, None])


def test_reductions_and_argmax():
    ir = ir_of(reductions, "*fp32,*fp32,*i32")
    for kind in ("sum", "maxnum", "minnum"):  # float max/min skip NaNs, as Triton's
        assert f"tile.reduce {kind} %" in ir
    assert "{axis = 0 : i32} : !tile.block<16x8xf32> -> !tile.block<8xf32>" in ir
    assert "{axis = 1 : i32} : !tile.block<16x8xf32> -> !tile.block<16xf32>" in ir
    # argmax: max, compare, select index, min over the indices
    check_order(ir, "tile.reduce max", "tile.cmpf oeq", "tile.select", "tile.reduce min",
                "!tile.block<16x8xi32> -> !tile.block<8xi32>")
    # full reduction flattens then reduces to a scalar
    assert "!tile.block<16x8xf32> -> !tile.block<128xf32>" in ir
    assert "!tile.block<128xf32> -> f32" in ir


@tile.jit
def custom_reduce(x_ptr, out_ptr, scan_ptr):
    x = tl.load(x_ptr + tl.arange(0, 32))
    tl.store(out_ptr, tl.reduce(x, 0, helpers.multiply))
    tl.store(scan_ptr + tl.arange(0, 32), tl.cumsum(x, 0) + tl.associative_scan(
        x, 0, helpers.max_combine) + tl.cumsum(x, axis=0, reverse=True))


def test_custom_reduce_and_scans():
    ir = ir_of(custom_reduce, "*fp32,*fp32,*fp32")
    check_order(ir, "tile.reduce custom", "-> f32 {", "^bb0(", ": f32, ", "arith.mulf",
                "tile.yield")
    assert "tile.scan sum %" in ir
    check_order(ir, "tile.scan custom", "^bb0(", "arith.maxnumf", "tile.yield")
    assert "{axis = 0 : i32, reverse}" in ir


@tile.jit
def dots(a_ptr, b_ptr, c_ptr):
    offs = tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    acc = tl.dot(a, b)
    acc = tl.dot(a, b, acc)
    tl.store(c_ptr + offs, tl.dot(a, tl.trans(b), acc=acc).to(tl.float16))


def test_dot():
    ir = ir_of(dots, "*fp16,*fp16,*fp16")
    assert ir.count("= tile.dot ") == 3
    assert "!tile.block<16x16xf16>, !tile.block<16x16xf16> -> !tile.block<16x16xf32>" in ir


@tile.jit
def scalar_load_store(x_ptr, out_ptr, n):
    v = tl.load(x_ptr + n)
    m = tl.load(x_ptr, mask=n > 0, other=0.0)
    tl.store(out_ptr, v + m, mask=n > 1)


def test_scalar_pointers():
    ir = ir_of(scalar_load_store, "*fp32,*fp32,i32")
    assert "tile.addptr %arg0, %arg2 : !tile.ptr<f32>, i32" in ir
    assert "tile.load %arg0 mask" in ir and ": !tile.ptr<f32>" in ir
    assert "tile.store %arg1, " in ir


@tile.jit
def masked_other(x_ptr, out_ptr, n):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr + offs, mask=offs < n, other=-float("inf"))
    tl.store(out_ptr + offs, x, mask=offs < n)


def test_load_other_negative_infinity():
    ir = ir_of(masked_other, "*fp32,*fp32,i32")
    assert "arith.constant 0xFF800000 : f32" in ir
    assert "mask %" in ir and "other %" in ir


@tile.jit
def grid_info(out_ptr):
    tl.store(out_ptr + tl.program_id(1) * tl.num_programs(0) + tl.program_id(axis=0), 1.0)


def test_program_id_and_num_programs():
    ir = ir_of(grid_info, "*fp32")
    assert "tile.program_id 1 : i32" in ir and "tile.num_programs 0 : i32" in ir


@tile.jit
def hints(x_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK % 16 == 0, "BLOCK must be a multiple of 16")
    offs = tl.max_contiguous(tl.multiple_of(tl.arange(0, BLOCK), BLOCK), BLOCK)
    count = tl.cdiv(n, BLOCK) + tl.cdiv(BLOCK, 16)
    tl.store(x_ptr + offs, count)


def test_hints_cdiv_static_assert():
    ir = ir_of(hints, "*i32,i32", {"BLOCK": 32})
    assert "arith.divsi" in ir
    assert ": !tile.block<32xi32>" in ir and "tile.hint %0 divisibility [32]" in ir
    assert "contiguity [32] : !tile.block<32xi32>" in ir


@tile.jit
def hint_forms(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    rows = tl.arange(0, 4)[:, None] * n + tl.arange(0, BLOCK)[None, :]
    rows = tl.multiple_of(rows, [8, 24])       # powers of two: 24 -> 8
    rows = tl.max_contiguous(rows, (1, 4096))  # at most the extent
    rows = tl.max_constancy(rows, [4, 1])
    base = tl.multiple_of(x_ptr, 16)           # pointers and scalars too
    count = tl.multiple_of(n, 16) + tl.multiple_of(3, 16)  # constants stay
    tl.store(base + rows, tl.load(y_ptr + rows) + count)


@tile.jit
def assumptions(x_ptr, n, stride):
    tl.assume(n >= 0)
    tl.assume(stride > 0)
    tl.assume(True)
    tl.store(x_ptr + n * stride, 1)


def test_assume_emits_llvm_assume():
    ir = ir_of(assumptions, "*i32,i32,i32")
    assert ir.count("llvm.intr.assume") == 2
    assert "arith.cmpi sge, %arg1" in ir and "arith.cmpi sgt, %arg2" in ir


def test_hint_forms():
    ir = ir_of(hint_forms, "*i32,*i32,i32", {"BLOCK": 64})
    assert "divisibility [8, 8] : !tile.block<4x64xi32>" in ir
    assert "contiguity [1, 64] : !tile.block<4x64xi32>" in ir
    assert "constancy [4, 1] : !tile.block<4x64xi32>" in ir
    assert "tile.hint %arg0 divisibility [16] : !tile.ptr<i32>" in ir
    assert "tile.hint %arg2 divisibility [16] : i32" in ir
    assert ir.count("tile.hint") == 5


def test_dtypes_and_aliases():
    assert tl.float32.is_floating() and tl.int8.is_int_signed() and tl.uint8.is_int_unsigned()
    assert tl.float.name == "fp32" and tl.half == tl.float16 and tl.bool_ == tl.int1
    assert tl.pointer_type(tl.float16).element_ty == tl.float16
    assert {t.name for t in (tl.int1, tl.int16, tl.int64, tl.bfloat16, tl.float64)} == {
        "int1", "int16", "int64", "bf16", "fp64"}
    assert tile.cdiv(10, 4) == 3 and tile.next_power_of_2(781) == 1024
    assert tile.next_power_of_2(1) == 1 and tile.next_power_of_2(64) == 64


def test_builtins_outside_a_kernel_raise():
    with pytest.raises(Exception, match="inside a @tile.jit function"):
        tl.arange(0, 16)


@tile.jit
def unsigned_signature(a_ptr, b):
    tl.store(a_ptr, b)


@pytest.mark.parametrize("text,expected", [
    ("*i1", "!tile.ptr<i1>"), ("*i8", "!tile.ptr<i8>"), ("*i16", "!tile.ptr<i16>"),
    ("*i64", "!tile.ptr<i64>"), ("*fp64", "!tile.ptr<f64>"), ("*bf16", "!tile.ptr<bf16>"),
    ("*u8", "!tile.ptr<i8>")])
def test_signature_types(text, expected):
    ir = ir_of(unsigned_signature, {"a_ptr": text, "b": "i32"})
    assert f"%arg0: {expected}" in ir


@tile.jit
def none_indexing(out, XBLOCK: tl.constexpr):
    # Triton's test_slice: slices whose bounds are None are `:`, trailing
    # dimensions are kept (NumPy's rule), and a scalar indexed with None
    # (and `:`, as Triton allows) becomes a block of ones.
    data = tl.arange(0, XBLOCK)
    tl.static_assert(data[None, None:].shape == [1, XBLOCK])
    tl.static_assert(data[None, :None].shape == [1, XBLOCK])
    tl.static_assert(data[None, None:None:None, None].shape == [1, XBLOCK, 1])
    tl.static_assert(data[None].shape == [1, XBLOCK])
    one = tl.full([], 1, tl.int32)[None, None]
    tl.static_assert(one.shape == [1, 1])
    ptrs = out[None, None, :]
    tl.static_assert(ptrs.shape == [1, 1])
    tl.store(ptrs, one)


def test_none_slices_and_scalar_indexing(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "tile.store" in verify(tile.generate_ir(none_indexing, "*i32", {"XBLOCK": 32}))
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    monkeypatch.setenv("TILE_INTERPRET", "1")
    out = np.zeros(1, np.int32)
    none_indexing[(1,)](out, XBLOCK=32)
    assert out.tolist() == [1]


@tile.jit
def too_many_slices(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    tl.store(x_ptr + tl.arange(0, 8), x[:, :])


def test_more_slices_than_dimensions_is_an_error() -> None:
    with pytest.raises(tile.CompilationError, match="index has 2 `:` entries but the block "
                                                    "has rank 1"):
        tile.generate_ir(too_many_slices, "*i32")


@tile.jit
def shape_tuples(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8)[:, None] * 4 + tl.arange(0, 4)[None, :])
    # As Triton's: a tuple of ints that also equals, and concatenates with, a list.
    tl.static_assert(x.shape == (8, 4) and x.shape == [8, 4] and x.shape != [4, 8])
    tl.static_assert(x.shape + [1] == (8, 4, 1) and [2] + x.shape == [2, 8, 4])
    tl.static_assert(x.shape[1:] == (4,) and x.shape[::-1] == [4, 8] and len(x.shape) == 2)
    t = (x, x + 1, x + 2)
    a, b = t[1:]
    tl.store(out_ptr + tl.arange(0, 8)[:, None] * 4 + tl.arange(0, 4)[None, :], a + b)


def test_shapes_are_tuples_that_meet_lists():
    ir = tile.generate_ir(shape_tuples, "*fp32,*fp32")
    assert ir.count("tile.addf") == 3


def test_a_runtime_slice_bound_of_a_tuple_is_a_located_error():
    @tile.jit
    def k(x_ptr, n):
        t = (1, 2, 3)
        tl.store(x_ptr, t[n:][0])

    with pytest.raises(tile.CompilationError, match="slice bounds of a tuple must be "
                                                    "compile-time ints"):
        tile.generate_ir(k, "*i32,i32")
