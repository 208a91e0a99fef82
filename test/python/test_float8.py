"""The 8-bit floats (tl.float8e4nv, tl.float8e5): the format tables and
rounding of tile.language.float8, constants, the PTX of conversions, dot of
fp8 blocks on tensor cores, and the located errors for what they do not do.
Values on the GPU: test/gpu/test_float8.py."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from conftest import assert_error_at_case, requires_library

import tile
import tile.language as tl
from tile.language import float8 as F

THIS_FILE = Path(__file__).resolve()


@pytest.mark.parametrize("name", list(F.FORMATS))
def test_format_tables(name: str) -> None:
    fmt = F.FORMATS[name]
    assert fmt.max == {"fp8e4nv": 448.0, "fp8e5": 57344.0}[name]
    assert list(fmt.finite) == sorted(fmt.finite)
    assert math.isnan(fmt.values[F.NAN_CODE]) and math.isnan(fmt.values[0xFF])
    assert fmt.values[0x80] == 0.0 and math.copysign(1.0, fmt.values[0x80]) < 0
    if name == "fp8e5":
        assert fmt.values[0x7C] == math.inf and fmt.values[0xFC] == -math.inf
    else:
        assert not any(math.isinf(v) for v in fmt.values)
    torch = pytest.importorskip("torch")
    theirs = torch.arange(256, dtype=torch.uint8).view(
        {"fp8e4nv": torch.float8_e4m3fn, "fp8e5": torch.float8_e5m2}[name]).double().tolist()
    assert all((math.isnan(a) and math.isnan(b)) or a == b for a, b in zip(fmt.values, theirs))


@pytest.mark.parametrize("name", list(F.FORMATS))
def test_rounding_ties_to_even_saturates_and_agrees_with_the_array_form(name: str) -> None:
    np = pytest.importorskip("numpy")
    fmt = F.FORMATS[name]
    one = fmt.finite.index(1.0)
    step = fmt.finite[one + 1] - 1.0
    assert F.round_to(1.0 + step / 2, fmt) == 1.0              # tie: to the even code
    assert F.round_to(1.0 + 1.5 * step, fmt) == 1.0 + 2 * step  # tie: up to the even code
    assert F.round_to(1.0 + step / 2 + 1e-6, fmt) == 1.0 + step
    assert F.round_to(1e9, fmt) == fmt.max and F.round_to(-math.inf, fmt) == -fmt.max
    assert math.isnan(F.round_to(math.nan, fmt))
    assert F.encode(-1e-30, fmt) == 0x80                       # -0
    values = [0.0, -0.0, math.inf, -math.inf, math.nan, 1e-30, 3.3, -7.77, fmt.max * 1.5,
              *fmt.finite, *((a + b) / 2 for a, b in zip(fmt.finite, fmt.finite[1:]))]
    for toward_zero in ([False, True] if fmt.has_infinity else [False]):
        array = F.encode_array(np.array(values), fmt, toward_zero).tolist()
        assert array == [F.encode(v, fmt, toward_zero) for v in values]
    # Toward zero keeps infinities and truncates.
    if fmt.has_infinity:
        assert F.encode(math.inf, fmt, toward_zero=True) == fmt.infinity_code
        assert fmt.values[F.encode(1.0 + 0.99 * step, fmt, toward_zero=True)] == 1.0


@tile.jit
def cases(x_ptr, q_ptr, WHAT: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    q = tl.load(q_ptr + tl.arange(0, 16))
    if WHAT == "int":
        tl.store(x_ptr, q.to(tl.int32).to(tl.float32))
    if WHAT == "rtz_e4nv":
        tl.store(q_ptr + tl.arange(0, 16), x.to(tl.float8e4nv, fp_downcast_rounding="rtz"))
    if WHAT == "sum":
        tl.store(x_ptr, tl.sum(q).to(tl.float32))
    if WHAT == "int_operand":
        tl.store(q_ptr + tl.arange(0, 16), q + tl.arange(0, 16))


CASES = [
    ("int", "cannot cast fp8e4nv to int32: 8-bit floats convert to and from floats only"),
    ("rtz_e4nv", "fp_downcast_rounding='rtz' to fp8e4nv is not supported"),
    ("sum", "tl.sum of fp8e4nv: 8-bit floats are storage types"),
    ("int_operand", "cannot compute on fp8e4nv and int32"),
]


@pytest.mark.parametrize("what, message", CASES, ids=[c[0] for c in CASES])
def test_misuse_is_a_located_error(what: str, message: str) -> None:
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(cases, "*fp32,*fp8e4nv", {"WHAT": what})
    assert_error_at_case(info.value, THIS_FILE, what, message)


@pytest.mark.parametrize("what, message", CASES, ids=[c[0] for c in CASES])
def test_misuse_is_a_located_error_interpreted(what: str, message: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    np = pytest.importorskip("numpy")
    torch = pytest.importorskip("torch")
    from tile.interpreter import InterpreterError
    monkeypatch.setenv("TILE_INTERPRET", "1")
    x = np.zeros(16, np.float32)
    q = torch.zeros(16, dtype=torch.float8_e4m3fn)
    with pytest.raises(InterpreterError) as info:
        cases[(1,)](x, q, WHAT=what)
    assert_error_at_case(info.value, THIS_FILE, what, message)


@tile.jit
def constants(out_ptr):
    offs = tl.arange(0, 16)
    tl.store(out_ptr + offs, tl.full((16,), 1000.0, tl.float8e4nv))  # saturates
    tl.store(out_ptr + 16 + offs, tl.zeros((16,), tl.float8e4nv) + 0.3)


def test_constants_are_rounded_as_the_gpu_converts() -> None:
    ir = tile.generate_ir(constants, "*fp8e4nv")
    assert "tile.constant dense<448.0> : !tile.block<16xf8E4M3FN>" in ir
    # 0.3 next to an fp8 block is an fp8 constant: the nearest value, exactly.
    assert "arith.constant 0.3125 : f8E4M3FN" in ir


@tile.jit
def fp8_dot(a_ptr, b_ptr, c_ptr):
    r = tl.arange(0, 64)
    a = tl.load(a_ptr + r[:, None] * 64 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 64 + r[None, :])
    tl.store(c_ptr + r[:, None] * 64 + r[None, :], tl.dot(a, b))


@requires_library
def test_fp8_dot_runs_on_fp8_tensor_cores() -> None:
    """wgmma takes the 8-bit floats themselves, each operand its own kind, 32
    deep; nothing widens them (B runs along N here: it is staged K-major)."""
    kernel = tile.compile(fp8_dot, "*fp8e4nv,*fp8e5,*fp32", target="sm_90a")
    ptx = kernel.asm["ptx"]
    assert "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2" in ptx
    assert "cvt.rn.f16x2" not in ptx


@requires_library
def test_fp8_dot_without_wgmma_widens_to_f16() -> None:
    kernel = tile.compile(fp8_dot, "*fp8e4nv,*fp8e5,*fp32", target="sm_90")
    ptx = kernel.asm["ptx"]
    assert "wgmma" not in ptx
    assert "cvt.rn.f16x2.e4m3x2" in ptx and "cvt.rn.f16x2.e5m2x2" in ptx


@tile.jit
def fp8_k_loop(a_ptr, b_ptr, c_ptr, K):
    r = tl.arange(0, 64)
    a_ptrs = a_ptr + r[:, None] * K + r[None, :]
    b_ptrs = b_ptr + r[:, None] + r[None, :] * K  # K-major, as tutorial 03's fp8 B
    acc = tl.zeros((64, 64), tl.float32)
    for _ in range(0, K, 64):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += 64
        b_ptrs += 64
    tl.store(c_ptr + r[:, None] * 64 + r[None, :], acc)


@requires_library
def test_fp8_k_major_operands_are_copied_asynchronously() -> None:
    spec = tile.Specialization(divisible_by_16=frozenset({"a_ptr", "b_ptr", "c_ptr", "K"}))
    kernel = tile.compile(fp8_k_loop, "*fp8e5,*fp8e5,*fp32,i32", target="sm_90a",
                          num_stages=3, specialization=spec)
    ptx = kernel.asm["ptx"]
    assert "wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e5m2" in ptx
    assert "cp.async.cg.shared.global" in ptx and "st.shared.b8" not in ptx


@requires_library
def test_conversions_need_sm89() -> None:
    with pytest.raises(tile.CompilationError, match="8-bit float conversions need sm_89 or "
                       "later .* the chip is sm_80"):
        tile.compile(fp8_dot, "*fp8e4nv,*fp8e5,*fp32", target="sm_80")


def test_reinterpret_checks_the_width_and_tritons_error_base() -> None:
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError, match="cannot reinterpret torch.float32 \\(32 bits\\) as fp8e5"):
        tile.reinterpret(torch.zeros(4), tl.float8e5)
    with pytest.raises(TypeError, match="cannot reinterpret a list"):
        tile.reinterpret([1, 2], tl.float8e5)
    assert issubclass(tile.CompilationError, tile.TritonError)
    from tile.errors import TileError
    assert issubclass(TileError, tile.TritonError)
