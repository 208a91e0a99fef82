"""Types, casts and math (issue 14, items 5 and 6): Python constants' .to()
and .dtype, unsigned types, int64 address arithmetic, bitcasts, int<->pointer
casts, fp_downcast_rounding, tl.math's precise and fast variants, and
tl.extra.cuda.libdevice. PTX checks where the PTX is the point."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import assert_error_at, check_order, requires_library, verify

import tile
import tile.language as tl
from tile.language.extra.cuda import libdevice
from tile.language.extra.cuda.libdevice_functions import FUNCTIONS

THIS_FILE = Path(__file__).resolve()


def ir_of(kernel, signature, constexprs=None) -> str:
    ir = tile.generate_ir(kernel, signature, constexprs or {})
    verify(ir)
    return ir


def ptx_of(kernel, signature, constexprs=None) -> str:
    return tile.compile(kernel, signature, constexprs or {}, target="sm_90",
                        emit_cubin=False).asm["ptx"]


def error_of(kernel, signature, constexprs=None) -> tile.CompilationError:
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(kernel, signature, constexprs or {})
    return info.value


# -- Python constants ----------------------------------------------------------

@tile.jit
def constants(out_ptr):
    half = 0.5
    tl.static_assert(half.dtype == tl.float32)
    tl.static_assert((3).dtype == tl.int32 and (2**40).dtype == tl.int64)
    tl.store(out_ptr, (3).to(tl.int8).to(tl.float32) + half.to(tl.float16))


def test_to_and_dtype_on_python_constants():
    ir = ir_of(constants, "*fp32")
    check_order(ir, "arith.constant 3 : i32", "arith.trunci", "arith.sitofp",
                "arith.constant 0.5 : f32", "arith.truncf")


# -- unsigned types ------------------------------------------------------------

@tile.jit
def unsigned(x_ptr, u8_ptr, out_ptr, s_ptr, n):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    b = tl.load(u8_ptr + offs)
    u = x.to(tl.uint32)
    w = b.to(tl.int32)
    tl.store(out_ptr + offs, tl.minimum(u, w.to(tl.uint32)) >> 1)
    tl.store(s_ptr, (n.to(tl.float32) * 1.5).to(tl.uint32))


def test_unsigned_casts_and_ops():
    ir = ir_of(unsigned, "*fp32,*u8,*u32,*u32,i32")
    assert "{unsigned_dst} : !tile.block<16xf32> to !tile.block<16xi32>" in ir
    assert "{unsigned_src} : !tile.block<16xi8> to !tile.block<16xi32>" in ir
    assert "tile.minui" in ir and "tile.shrui" in ir and "arith.fptoui" in ir


@requires_library
def test_unsigned_casts_in_ptx():
    ptx = ptx_of(unsigned, "*fp32,*u8,*u32,*u32,i32")
    assert "cvt.rzi.u32.f32" in ptx and "min.u32" in ptx and "shr.u32" in ptx


# -- 64-bit offsets ------------------------------------------------------------

@tile.jit
def big_offsets(x_ptr, out_ptr, WIDE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if WIDE:
        pid = pid.to(tl.int64)
    offs = pid * BLOCK * 4096 + tl.arange(0, BLOCK)  # past 2^31 elements when WIDE
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))


def test_int64_offsets_stay_64_bit():
    ir = ir_of(big_offsets, "*fp32,*fp32", {"WIDE": True, "BLOCK": 1024})
    assert "tile.addptr %" in ir and "!tile.block<1024xi64>\n" in ir.replace(" loc", "\n")


@requires_library
def test_int64_offsets_in_ptx():
    # 64-bit: the program id is widened before any multiply (pid * 2^22
    # elements * 4 bytes in one mul.wide); 32-bit: the product wraps first.
    wide = ptx_of(big_offsets, "*fp32,*fp32", {"WIDE": True, "BLOCK": 1024})
    assert re.search(r"mul\.wide\.[us]32\s+%rd\d+, %r\d+, 16777216;", wide), wide
    narrow = ptx_of(big_offsets, "*fp32,*fp32", {"WIDE": False, "BLOCK": 1024})
    assert re.search(r"(shl\.b32|mul\.lo\.s32)", narrow), narrow


# -- bitcasts and pointer casts ------------------------------------------------

@tile.jit
def bitcasts(x_ptr, out_ptr, s):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    bits = x.to(tl.int32, bitcast=True)
    back = tl.cast(bits ^ 1, tl.float32, bitcast=True)
    tl.store(out_ptr + offs, back + s.to(tl.uint32, bitcast=True).to(tl.float32))


def test_bitcasts():
    ir = ir_of(bitcasts, "*fp32,*fp32,fp32")
    check_order(ir, "tile.bitcast %", ": !tile.block<16xf32> to !tile.block<16xi32>",
                "tile.xori", "tile.bitcast", "to !tile.block<16xf32>")
    assert "arith.bitcast %arg2 : f32 to i32" in ir


@tile.jit
def bad_bitcast(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, x.to(tl.int16, bitcast=True).to(tl.float32))  # ERR-bitcast


@tile.jit
def bad_pointer_cast(x_ptr):
    tl.store(x_ptr, x_ptr.to(tl.float32))  # ERR-ptr-float


def test_bitcast_errors_are_located():
    error = error_of(bad_bitcast, "*fp32")
    assert_error_at(error, THIS_FILE, "ERR-bitcast", "x.to(tl.int16, bitcast=True)")
    assert "cannot bitcast fp32 (32 bits) to int16 (16 bits)" in error.message
    error = error_of(bad_pointer_cast, "*fp32")
    assert_error_at(error, THIS_FILE, "ERR-ptr-float", "x_ptr.to(tl.float32)")
    assert "pointers become int64" in error.message


@tile.jit
def pointer_casts(x_ptr, table_ptr, out_ptr):
    addr = x_ptr.to(tl.int64)
    base = (addr + 16).to(tl.pointer_type(tl.float32))
    bytes_ptr = x_ptr.to(tl.pointer_type(tl.int8))
    rows = tl.load(table_ptr + tl.arange(0, 4))  # int64 addresses
    ptrs = rows.to(tl.pointer_type(tl.float32))
    tl.store(out_ptr + tl.arange(0, 4), tl.load(ptrs) + tl.load(base))
    tl.store(bytes_ptr, (x_ptr.to(tl.int1)).to(tl.int8))


def test_int_pointer_casts():
    ir = ir_of(pointer_casts, "*fp32,*i64,*fp32")
    check_order(ir, "tile.ptr_to_int %arg0 : !tile.ptr<f32> to i64", "arith.addi",
                "tile.int_to_ptr", ": i64 to !tile.ptr<f32>",
                "tile.bitcast %arg0 : !tile.ptr<f32> to !tile.ptr<i8>",
                "tile.int_to_ptr", ": !tile.block<4xi64> to !tile.block<4x!tile.ptr<f32>>",
                "tile.ptr_to_int %arg0", "arith.cmpi ne")


@requires_library
def test_pointer_casts_compile():
    assert ".entry pointer_casts" in ptx_of(pointer_casts, "*fp32,*i64,*fp32")


# -- fp_downcast_rounding --------------------------------------------------------

@tile.jit
def rounding(x_ptr, h_ptr, b_ptr, MODE: tl.constexpr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    tl.store(h_ptr + offs, x.to(tl.float16, fp_downcast_rounding=MODE))
    tl.store(b_ptr, tl.load(x_ptr).to(tl.bfloat16, fp_downcast_rounding=MODE))


@tile.jit
def rounding_upcast(x_ptr, d_ptr):
    tl.store(d_ptr, tl.load(x_ptr).to(tl.float64, fp_downcast_rounding="rtz"))  # ERR-upcast


def test_fp_downcast_rounding():
    rtz = ir_of(rounding, "*fp32,*fp16,*bf16", {"MODE": "rtz"})
    assert "{rtz} : !tile.block<16xf32> to !tile.block<16xf16>" in rtz
    assert "{rtz} : f32 to bf16" in rtz
    rtne = ir_of(rounding, "*fp32,*fp16,*bf16", {"MODE": "rtne"})
    assert "rtz" not in rtne and "arith.truncf" in rtne
    with pytest.raises(tile.CompilationError, match="must be 'rtne' or 'rtz'"):
        tile.generate_ir(rounding, "*fp32,*fp16,*bf16", {"MODE": "up"})
    error = error_of(rounding_upcast, "*fp32,*fp64")
    assert_error_at(error, THIS_FILE, "ERR-upcast")
    assert "applies to float downcasts" in error.message


@requires_library
def test_round_toward_zero_in_ptx():
    ptx = ptx_of(rounding, "*fp32,*fp16,*bf16", {"MODE": "rtz"})
    assert "cvt.rz.f16.f32" in ptx and "cvt.rz.bf16.f32" in ptx
    ptx = ptx_of(rounding, "*fp32,*fp16,*bf16", {"MODE": "rtne"})
    assert "cvt.rz" not in ptx and "cvt.rn.f16.f32" in ptx


# -- tl.math ---------------------------------------------------------------------

@tile.jit
def precise_math(x_ptr, y_ptr, h_ptr, i_ptr, out_ptr, hout_ptr, iout_ptr):
    offs = tl.arange(0, 32)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    h = tl.load(h_ptr + offs)
    i = tl.load(i_ptr + offs)
    r = tl.math.div_rn(x, y) + tl.math.sqrt_rn(x) + tl.math.erf(x) + tl.math.rint(y)
    r += tl.math.fdiv(x, y, ieee_rounding=True) + tl.math.fdiv(x, y) + tl.math.fast_expf(x)
    r += tl.math.exp(x) + tl.math.rsqrt(x) + tl.math.fma(x, y, x) + tl.math.fast_dividef(x, y)
    tl.store(out_ptr + offs, r)
    tl.store(hout_ptr + offs, tl.math.erf(h))
    tl.store(iout_ptr + offs, tl.math.umulhi(i, i) + tl.umulhi(i, 3))


def test_precise_and_fast_math_are_libdevice_calls():
    ir = ir_of(precise_math, "*fp32,*fp32,*fp16,*u32,*fp32,*fp16,*u32")
    for symbol in ("__nv_erff", "__nv_rintf", "__nv_fast_expf", "__nv_fast_fdividef",
                   "__nv_umulhi"):
        assert f'tile.extern_elementwise "{symbol}"' in ir, symbol
    # f32 div_rn and sqrt_rn are PTX's instructions, as Triton's: libdevice's
    # would flush subnormals under enable_reflect_ftz.
    assert "__nv_fdiv_rn" not in ir and "__nv_fsqrt_rn" not in ir
    assert ir.count('"div.rn.f32 $0, $1, $2;"') == 2  # div_rn and fdiv(ieee_rounding=True)
    assert ir.count('"sqrt.rn.f32 $0, $1;"') == 1
    # fp16 erf is computed in fp32 and rounded back.
    check_order(ir, "!tile.block<32xf16> to !tile.block<32xf32>", '"__nv_erff"',
                "!tile.block<32xf32> to !tile.block<32xf16>")


@requires_library
def test_precise_math_in_ptx():
    ptx = ptx_of(precise_math, "*fp32,*fp32,*fp16,*u32,*fp32,*fp16,*u32")
    assert "div.rn.f32" in ptx and "sqrt.rn.f32" in ptx and "mul.hi.u32" in ptx
    assert "cvt.rni.f32.f32" in ptx and "div.full.f32" in ptx and "ex2.approx" in ptx
    assert "__nv_" not in ptx  # libdevice is linked and inlined


@tile.jit
def umulhi_of_floats(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, tl.math.umulhi(x, x))  # ERR-umulhi


def test_umulhi_needs_integers():
    error = error_of(umulhi_of_floats, "*fp32")
    assert_error_at(error, THIS_FILE, "ERR-umulhi", "tl.math.umulhi(x, x)")


# -- libdevice -------------------------------------------------------------------

@tile.jit
def uses_libdevice(x_ptr, d_ptr, u_ptr, out_ptr, dout_ptr, uout_ptr, iout_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    d = tl.load(d_ptr + offs)
    u = tl.load(u_ptr + offs)
    tl.store(out_ptr + offs, libdevice.erf(x) + libdevice.ldexp(x, 3) + libdevice.pow(x, 2.0)
             + tl.extra.libdevice.tanh(x))
    tl.store(dout_ptr + offs, libdevice.erf(d) + libdevice.fma_rn(d, d, 1.0))
    tl.store(uout_ptr + offs, libdevice.umulhi(u, u) + libdevice.min(u, 7))
    tl.store(iout_ptr + offs, libdevice.isnan(x) + libdevice.clz(u.to(tl.int32)))


def test_libdevice_picks_overloads_by_argument_types():
    ir = ir_of(uses_libdevice, "*fp32,*fp64,*u32,*fp32,*fp64,*u32,*i32")
    for symbol, types in [("__nv_erff", "(!tile.block<16xf32>) -> !tile.block<16xf32>"),
                          ("__nv_ldexpf", "(!tile.block<16xf32>, !tile.block<16xi32>)"),
                          ("__nv_powf", None), ("__nv_tanhf", None),
                          ("__nv_erf", "(!tile.block<16xf64>) -> !tile.block<16xf64>"),
                          ("__nv_fma_rn", None), ("__nv_umulhi", None), ("__nv_umin", None),
                          ("__nv_isnanf", "-> !tile.block<16xi32>"), ("__nv_clz", None)]:
        text = f'tile.extern_elementwise "{symbol}"'
        assert text in ir, symbol
        if types:
            line = next(l for l in ir.splitlines() if text + "(" in l)
            assert types in line, (symbol, line)


@requires_library
def test_libdevice_compiles_and_links():
    ptx = ptx_of(uses_libdevice, "*fp32,*fp64,*u32,*fp32,*fp64,*u32,*i32")
    assert "__nv_" not in ptx and "min.u32" in ptx and "clz.b32" in ptx


@tile.jit
def libdevice_wrong_type(h_ptr):
    h = tl.load(h_ptr)
    tl.store(h_ptr, libdevice.erf(h))  # ERR-libdevice


def test_libdevice_type_errors_are_located():
    error = error_of(libdevice_wrong_type, "*fp16")
    assert_error_at(error, THIS_FILE, "ERR-libdevice", "libdevice.erf(h)")
    assert "libdevice.erf has no overload for (fp16); it takes (fp64); (fp32)" in error.message
    assert "cast fp16/bf16 to fp32 first" in error.message


@tile.jit
def generic_extern(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    y = tl.extern_elementwise("libdevice", "", [x, x], {
        (tl.float32, tl.float32): ("__nv_hypotf", tl.float32),
        (tl.float64, tl.float64): ("__nv_hypot", tl.float64)}, is_pure=True)
    tl.store(x_ptr + tl.arange(0, 8), y)


def test_generic_extern_elementwise():
    assert 'tile.extern_elementwise "__nv_hypotf"' in ir_of(generic_extern, "*fp32")


def test_every_libdevice_function_builds_ir():
    from tile.compiler.ir import Builder
    from tile.language import semantic as S
    from tile.language.types import block_type
    b = Builder()
    for name in FUNCTIONS:
        for args, symbol, result in libdevice.overloads(name):
            values = [S.tensor(b.constant(1, block_type(t, [4]))) for t in args]
            value = getattr(libdevice, name)(*values, _builder=b)
            assert value.dtype == result and value.shape == [4], name
    assert len(FUNCTIONS) > 190


LIBDEVICE = Path("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc")
LLVM_DIS = Path("/usr/lib/llvm-22/bin/llvm-dis")


@pytest.mark.skipif(not LIBDEVICE.is_file() or not LLVM_DIS.is_file(),
                    reason=f"needs {LIBDEVICE} and {LLVM_DIS}")
def test_the_libdevice_table_matches_libdevice():
    text = subprocess.run([str(LLVM_DIS), str(LIBDEVICE), "-o", "-"], check=True,
                          capture_output=True, text=True).stdout
    defined = set(re.findall(r"^define [^@]*@(__nv_\w+)\(", text, re.M))
    symbols = {symbol for overloads in FUNCTIONS.values() for _, symbol, _ in overloads}
    assert symbols <= defined, sorted(symbols - defined)


# -- cache modifiers, eviction policies, volatile ----------------------------------

@tile.jit
def cache_hints(x_ptr, y_ptr, b_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, cache_modifier=".cg")
    w = tl.load(x_ptr + 2 * offs, mask=offs < n, eviction_policy="evict_last")
    flag = tl.load(b_ptr, volatile=True)
    tl.store(y_ptr + offs, v + w + flag.to(tl.float32), cache_modifier=".cs")
    tl.store(y_ptr + 2 * offs, v, mask=offs < n, eviction_policy="evict_first")
    tl.store(b_ptr, flag + 1, volatile=True)


def test_cache_hints_reach_the_ir():
    ir = ir_of(cache_hints, "*fp32,*fp32,*i8,i32", {"BLOCK": 256})
    for text in ('{cache = "cg"}', '{evict = "evict_last"}', "{is_volatile}",
                 '{cache = "cs"}', '{evict = "evict_first"}'):
        assert text in ir, text


@requires_library
def test_cache_hints_reach_the_ptx():
    spec = tile.Specialization(divisible_by_16=frozenset({"x_ptr", "y_ptr"}))
    ptx = tile.compile(cache_hints, "*fp32,*fp32,*i8,i32", {"BLOCK": 512}, target="sm_90",
                       specialization=spec, emit_cubin=False).asm["ptx"]
    for text in ("ld.global.cg.v4.b32", "ld.global.L1::evict_last.b32", "ld.volatile.global",
                 "st.global.cs.v4.b32", "st.global.L1::evict_first.b32", "st.volatile.global"):
        assert text in ptx, text


@tile.jit
def bad_hints(x_ptr, CACHE: tl.constexpr, EVICT: tl.constexpr, VOLATILE: tl.constexpr):
    tl.store(x_ptr, tl.load(x_ptr, cache_modifier=CACHE, eviction_policy=EVICT,  # ERR-hints
                            volatile=VOLATILE))


@tile.jit
def block_pointer_options(x_ptr):
    tl.store(x_ptr, tl.load(x_ptr, boundary_check=(0,)))  # ERR-boundary


@pytest.mark.parametrize("cache, evict, volatile, message", [
    (".cs", "", False, "cache_modifier must be '' or one of '.ca', '.cg', '.cv', got '.cs'"),
    ("", "evict_soon", False, "eviction_policy must be"),
    (".cg", "evict_last", False, "PTX cannot combine cache_modifier '.cg' with eviction_policy"),
    (".cg", "", True, "a volatile access takes no cache_modifier"),
])
def test_bad_cache_hints_are_located(cache, evict, volatile, message):
    error = error_of(bad_hints, "*fp32", {"CACHE": cache, "EVICT": evict, "VOLATILE": volatile})
    assert_error_at(error, THIS_FILE, "ERR-hints", "tl.load")
    assert message in error.message


def test_block_pointer_options_are_refused():
    error = error_of(block_pointer_options, "*fp32")
    assert_error_at(error, THIS_FILE, "ERR-boundary", "tl.load")
    assert "block pointers" in error.message


@tile.jit
def arg_ties(x_ptr, out_ptr, LEFT: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    tl.store(out_ptr, tl.argmax(x, 0, tie_break_left=LEFT))
    tl.store(out_ptr + 1, tl.min(x, 0, return_indices=True,
                                  return_indices_tie_break_left=LEFT)[1])


def test_arg_reductions_break_ties_as_asked():
    # The first index among the equal extremes (min over the indices), or the
    # last (max over them, -1 elsewhere): not a silently ignored option.
    left = ir_of(arg_ties, "*fp32,*i32", {"LEFT": True})
    right = ir_of(arg_ties, "*fp32,*i32", {"LEFT": False})
    assert left.count("tile.reduce min") == 4 and left.count("tile.reduce max") == 1
    assert right.count("tile.reduce max") == 3 and "arith.constant -1 : i32" in right


@tile.jit
def nan_modes(x_ptr, u_ptr, out_ptr, uout_ptr, MODE: tl.constexpr):
    offs = tl.arange(0, 32)
    x = tl.load(x_ptr + offs)
    y = tl.maximum(x, 1.0, propagate_nan=MODE) + tl.minimum(x, 2.0, MODE)
    y += tl.clamp(x, 0.0, 1.0, propagate_nan=MODE) + tl.max(x, 0) + tl.min(x, 0)
    tl.store(out_ptr + offs, y + tl.cummax(x, 0))
    u = tl.load(u_ptr + offs)
    tl.store(uout_ptr + offs, tl.cummax(u, 0) + tl.max(u, 0) + tl.min(u, 0))


@tile.jit
def bad_nan_mode(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, tl.maximum(x, 1.0, propagate_nan=True))  # ERR-nan-mode


def test_nan_modes_and_unsigned_extremes():
    # Triton's default (NONE) ignores NaN: maxnumf, as Triton's maxnumf, and
    # reductions/scans of floats maxnum/minnum; ALL is maximumf/minimumf.
    none = ir_of(nan_modes, "*fp32,*u32,*fp32,*u32", {"MODE": tl.PropagateNan.NONE})
    assert none.count("tile.maxnumf") == 2 and none.count("tile.minnumf") == 2, none
    assert "maximumf" not in none and "minimumf" not in none
    for op in ("reduce maxnum", "reduce minnum", "scan maxnum", "reduce umax", "reduce umin",
               "scan umax"):
        assert f"tile.{op} %" in none, op
    assert "tile.maxsi" not in none and "reduce max %" not in none
    every = ir_of(nan_modes, "*fp32,*u32,*fp32,*u32", {"MODE": tl.PropagateNan.ALL})
    assert every.count("tile.maximumf") == 2 and every.count("tile.minimumf") == 2, every
    assert "tile.reduce maxnum" in every  # tl.max has no propagate_nan, as Triton's
    error = error_of(bad_nan_mode, "*fp32")
    assert_error_at(error, THIS_FILE, "ERR-nan-mode")
    assert "propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL, got True" \
        in error.message


@requires_library
def test_nan_ignoring_extremes_in_ptx():
    ptx = ptx_of(nan_modes, "*fp32,*u32,*fp32,*u32", {"MODE": tl.PropagateNan.NONE})
    assert "max.f32" in ptx and "min.f32" in ptx and "max.NaN" not in ptx
    assert "max.u32" in ptx and "min.u32" in ptx
    ptx = ptx_of(nan_modes, "*fp32,*u32,*fp32,*u32", {"MODE": tl.PropagateNan.ALL})
    assert "max.NaN.f32" in ptx and "min.NaN.f32" in ptx


@tile.jit(interpret=True)
def interpreted_libdevice(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    y = libdevice.tanh(x) + tl.extra.libdevice.ldexp(x, 2) + tl.math.erf(x)
    tl.store(out_ptr + offs, y.to(tl.float16, fp_downcast_rounding="rtz").to(tl.float32),
             mask=offs < n)


def test_libdevice_and_rounding_in_the_interpreter():
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    import math
    x = np.linspace(-2, 2, 37, dtype=np.float32)
    out = np.zeros_like(x)
    interpreted_libdevice[(1,)](x, out, x.size, BLOCK=64)
    exact = np.tanh(x.astype(np.float64)) + x * 4.0 + np.vectorize(math.erf)(x)
    f32 = exact.astype(np.float32)
    # f16 rounded toward zero: never larger in magnitude than the f32 value.
    assert np.all(np.abs(out) <= np.abs(f32) + 1e-6)
    assert np.allclose(out, f32, rtol=2e-3, atol=2e-3)


def test_dtypes_by_name_and_their_float_formats():
    names = tl.dtype.SINT_TYPES + tl.dtype.UINT_TYPES + tl.dtype.FP_TYPES
    assert [tl.dtype(name) for name in names] == [
        tl.int8, tl.int16, tl.int32, tl.int64, tl.int1, tl.uint8, tl.uint16, tl.uint32,
        tl.uint64, tl.float8e4nv, tl.float8e5, tl.float16, tl.bfloat16, tl.float32, tl.float64]
    formats = {d.name: (d.fp_mantissa_width, d.exponent_bias)
               for d in map(tl.dtype, tl.dtype.FP_TYPES)}
    assert formats == {"fp8e4nv": (3, 7), "fp8e5": (2, 15), "fp16": (10, 15),
                       "bf16": (7, 127), "fp32": (23, 127), "fp64": (52, 1023)}
    with pytest.raises(AttributeError, match="int32 is not a floating-point type"):
        tl.int32.fp_mantissa_width
    with pytest.raises(tile.errors.TileError, match="tile has no dtype 'fp8e4b15'"):
        tl.dtype("fp8e4b15")
