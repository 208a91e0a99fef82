"""The interpreter (TILE_INTERPRET=1): kernels run on the CPU with NumPy, with the
frontend's semantics; located errors for out-of-bounds accesses."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the interpreter needs NumPy (pip install numpy)")

import tile  # noqa: E402
import tile.language as tl  # noqa: E402
from tile.language.extra.cuda import libdevice  # noqa: E402
from tile.interpreter import InterpreterError  # noqa: E402
from tile.interpreter import language as L  # noqa: E402
from tile.interpreter.memory import Allocation, Region, read_modify_write  # noqa: E402
from tile.interpreter.values import bf16_bits, bf16_values, make  # noqa: E402

HERE = __file__.rstrip("c")


@pytest.fixture(autouse=True)
def interpret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILE_INTERPRET", "1")


def line_of(text: str) -> int:
    """The line of this file that contains `text` (for located errors)."""
    with open(HERE) as f:
        for number, line in enumerate(f, 1):
            if text in line and "line_of(" not in line:
                return number
    raise AssertionError(f"{text!r} is not in this file")


# -- running kernels ----------------------------------------------------------------

@tile.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + tl.load(y_ptr + offs, mask=mask), mask=mask)


def test_numpy_arrays_one_program_at_a_time() -> None:
    x = np.arange(1000, dtype=np.float32)
    y = np.full(1000, 0.5, dtype=np.float32)
    out = np.full(1000, np.nan, dtype=np.float32)
    add_kernel[(tile.cdiv(1000, 128),)](x, y, out, 1000, BLOCK=128)
    np.testing.assert_array_equal(out, x + y)


def test_without_the_c_launcher(tmp_path: Path) -> None:
    """A checkout not built has no tile._launcher: JITFunction's base is then
    the Python one, whose `kernel[grid]` is `_subscript(grid)`, and
    interpreted launches run as with the C one."""
    import shutil
    import subprocess
    shutil.copytree(Path(tile.__file__).parent, tmp_path / "python" / "tile",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    script = """
import numpy as np
import tile, tile.language as tl
from tile.runtime.jit import JITFunction
assert JITFunction.__mro__[1].__name__ == "_PythonJITFunctionBase", JITFunction.__mro__

@tile.jit
def add_one(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)

x = np.arange(100, dtype=np.float32)
for _ in range(2):
    add_one[(1,)](x, 100, BLOCK=128)
assert (x == np.arange(100) + 2).all(), x
print("ok")
"""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path / "python"),
           "TILE_INTERPRET": "1", "TILE_CACHE_DIR": str(tmp_path / "cache")}
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, cwd=tmp_path)
    assert ran.returncode == 0 and ran.stdout.strip() == "ok", ran.stdout + ran.stderr


def test_a_stale_c_launcher_is_a_clear_import_error() -> None:
    """A launcher built before JITFunctionBase existed (a stale build folder)
    stops `import tile` with what to do, not an AttributeError."""
    import subprocess
    script = """
import sys, types
stale = types.ModuleType("tile._launcher")
stale.__file__ = "/stale/_launcher.abi3.so"
sys.modules["tile._launcher"] = stale
try:
    import tile
except ImportError as exc:
    print(exc)
"""
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert "the C launcher /stale/_launcher.abi3.so is older than this tile: rebuild it" \
        in ran.stdout, ran.stdout + ran.stderr


def test_torch_cpu_tensors_and_grid_lambda() -> None:
    torch = pytest.importorskip("torch", reason="torch tensors need torch")
    x, y = torch.randn(777), torch.randn(777)
    out = torch.empty(777)
    add_kernel[lambda meta: (tile.cdiv(777, meta["BLOCK"]),)](x, y, out, 777, BLOCK=64)
    assert torch.equal(out, x + y)


def test_interpret_option_without_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TILE_INTERPRET")

    @tile.jit(interpret=True)
    def double(x_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)

    x = np.arange(8, dtype=np.int32)
    double[(1,)](x, BLOCK=8)
    np.testing.assert_array_equal(x, np.arange(8) * 2)
    assert tile.interpreter.enabled(double) and not tile.interpreter.enabled(add_kernel)


def test_autotuned_kernel_takes_its_first_config() -> None:
    @tile.autotune(configs=[tile.Config({"BLOCK": 32}), tile.Config({"BLOCK": 64})], key=["n"])
    @tile.jit
    def fill(out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.zeros((BLOCK,), dtype=tl.int32) + BLOCK, mask=offs < n)

    out = np.zeros(100, dtype=np.int32)
    fill[lambda meta: (tile.cdiv(100, meta["BLOCK"]),)](out, 100)
    assert (out == 32).all()


# -- the frontend's typing rules: the same in both paths ------------------------------

@tile.jit
def typing_rules(f16_ptr, bf16_ptr, i8_ptr, u32_ptr, i64_ptr, out_ptr, n, scale):
    offs = tl.arange(0, 16)
    h = tl.load(f16_ptr + offs)
    b = tl.load(bf16_ptr + offs)
    c = tl.load(i8_ptr + offs)
    u = tl.load(u32_ptr + offs)
    w = tl.load(i64_ptr + offs)
    tl.static_assert((h * 2.0).dtype == tl.float16)         # weak float literal
    tl.static_assert((h * 2).dtype == tl.float16)           # int literal next to a float
    tl.static_assert((h / h).dtype == tl.float32)           # no half-precision division
    tl.static_assert((h + b).dtype == tl.float16)
    tl.static_assert((h * scale).dtype == tl.float32)       # a runtime f32 scalar is strong
    tl.static_assert((c + 1).dtype == tl.int8)
    tl.static_assert((c + 300).dtype == tl.int32)           # the literal does not fit in i8
    tl.static_assert((c + n).dtype == tl.int32)
    tl.static_assert((u + n).dtype == tl.uint32)            # unsigned wins at equal width
    tl.static_assert((u + w).dtype == tl.int64)
    tl.static_assert((c / c).dtype == tl.float32)           # int / int is f32
    tl.static_assert((c // c).dtype == tl.int8)
    tl.static_assert((offs < n).dtype == tl.int1)
    tl.static_assert(tl.sum(c, axis=0).dtype == tl.int32)  # narrow sums in i32
    tl.static_assert(tl.exp(c).dtype == tl.float32)
    tl.static_assert(tl.where(offs < n, c, w).dtype == tl.int64)
    tl.static_assert(tl.dot(tl.reshape(h, (4, 4)), tl.reshape(h, (4, 4))).dtype == tl.float32)
    tl.static_assert((offs[:, None] + offs[None, :]).shape == [16, 16])
    tl.store(out_ptr + offs, h + b)


def test_typing_agrees_with_the_compiler() -> None:
    torch = pytest.importorskip("torch", reason="bf16 arrays need torch")
    signature = "*fp16,*bf16,*i8,*u32,*i64,*fp16,i32,fp32"
    tile.generate_ir(typing_rules, signature)  # static_asserts hold when compiling...
    arrays = [torch.full((16,), 1.5, dtype=t) for t in (torch.float16, torch.bfloat16)] + \
        [torch.ones(16, dtype=t) for t in (torch.int8, torch.uint32, torch.int64)]
    out = torch.zeros(16, dtype=torch.float16)
    typing_rules[(1,)](*arrays, out, 3, 0.5)  # ...and when interpreting
    assert (out == 3.0).all()


def test_static_assert_fails_located() -> None:
    @tile.jit
    def check(x_ptr):
        tl.static_assert(tl.load(x_ptr).dtype == tl.float16, "not half")  # the assertion

    with pytest.raises(InterpreterError, match="static_assert failed: not half") as info:
        check[(1,)](np.zeros(1, dtype=np.float32))
    assert info.value.line == line_of("# the assertion")


# -- arithmetic -------------------------------------------------------------------------

@tile.jit
def int_ops(a_ptr, b_ptr, div_ptr, mod_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(div_ptr + offs, a // b)
    tl.store(mod_ptr + offs, a % b)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32, np.int8])
def test_integer_division_truncates_toward_zero(dtype) -> None:
    signed = np.issubdtype(dtype, np.signedinteger)
    values = [7, -7, 7, -7, 0, 5, 100, -100] if signed else [7, 8, 100, 0, 5, 9, 3, 250]
    divisors = [2, 2, -2, -2, 3, -5, 7, 7] if signed else [2, 3, 7, 1, 5, 2, 3, 7]
    a, b = np.array(values, dtype=dtype), np.array(divisors, dtype=dtype)
    div, mod = np.zeros_like(a), np.zeros_like(a)
    int_ops[(1,)](a, b, div, mod, BLOCK=8)
    expected = [int(x / y) for x, y in zip(values, divisors)]  # C's truncation
    np.testing.assert_array_equal(div, expected)
    np.testing.assert_array_equal(mod, [x - q * y for x, y, q in zip(values, divisors, expected)])


@tile.jit
def extremes(x_ptr, y_ptr, lo_ptr, hi_ptr, lo_all_ptr, hi_all_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(lo_ptr + offs, tl.minimum(x, y))
    tl.store(hi_ptr + offs, max(x, y))  # Python's max on blocks is tl.maximum
    tl.store(lo_all_ptr + offs, tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL))
    tl.store(hi_all_ptr + offs, tl.maximum(x, y, tl.PropagateNan.ALL))


def test_min_max_ignore_nan_unless_asked_and_order_signed_zeros() -> None:
    # As compiled Triton (PTX min.f32/max.f32): a NaN operand gives the other
    # one by default, NaN with PropagateNan.ALL; -0 < +0 both ways.
    x = np.array([np.nan, 1.0, 0.0, -0.0, 2.0, -np.inf, 3.0, np.nan], dtype=np.float32)
    y = np.array([1.0, np.nan, -0.0, 0.0, 1.0, 5.0, 3.0, np.nan], dtype=np.float32)
    lo, hi, lo_all, hi_all = (np.zeros(8, np.float32) for _ in range(4))
    extremes[(1,)](x, y, lo, hi, lo_all, hi_all, BLOCK=8)
    np.testing.assert_array_equal(lo, [1.0, 1.0, -0.0, -0.0, 1.0, -np.inf, 3.0, np.nan])
    np.testing.assert_array_equal(hi, [1.0, 1.0, 0.0, 0.0, 2.0, 5.0, 3.0, np.nan])
    np.testing.assert_array_equal(lo_all, [np.nan, np.nan, -0.0, -0.0, 1.0, -np.inf, 3.0, np.nan])
    np.testing.assert_array_equal(hi_all, [np.nan, np.nan, 0.0, 0.0, 2.0, 5.0, 3.0, np.nan])
    assert np.signbit(lo[2:4]).all() and not np.signbit(hi[2:4]).any()
    assert np.signbit(lo_all[2:4]).all() and not np.signbit(hi_all[2:4]).any()


@tile.jit
def row_extremes(x_ptr, u_ptr, out_ptr, index_ptr, uout_ptr, N: tl.constexpr):
    rows = tl.arange(0, 4)
    x = tl.load(x_ptr + rows[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(out_ptr + rows, tl.max(x, 1))
    tl.store(out_ptr + 4 + rows, tl.min(x, 1))
    tl.store(index_ptr + rows, tl.argmax(x, 1))
    tl.store(index_ptr + 4 + rows, tl.argmin(x, 1, tie_break_left=False))
    u = tl.load(u_ptr + tl.arange(0, N))
    tl.store(uout_ptr, tl.max(u))
    tl.store(uout_ptr + 1, tl.min(u))


def test_reductions_skip_nan_and_compare_unsigned_as_unsigned() -> None:
    nan = np.nan
    x = np.array([[nan, nan, nan, nan],      # all NaN: NaN, index 0 (or the last)
                  [1.0, nan, 3.0, -2.0],
                  [nan, 2.0, 2.0, nan],
                  [-0.0, 0.0, 5.0, -5.0]], dtype=np.float32)
    u = np.array([1, 0x80000000, 0xFFFFFFFF, 7], dtype=np.uint32)
    out, index = np.zeros(8, np.float32), np.zeros(8, np.int32)
    uout = np.zeros(2, np.uint32)
    row_extremes[(1,)](x, u, out, index, uout, N=4)
    np.testing.assert_array_equal(out, [nan, 3.0, 2.0, 5.0, nan, -2.0, 2.0, -5.0])
    np.testing.assert_array_equal(index, [0, 2, 1, 2, 3, 3, 2, 3])
    assert uout.tolist() == [0xFFFFFFFF, 1]


@tile.jit
def wrapping(out_ptr, n):
    big = n * 65536            # i32 * i32 wraps, as on the GPU
    tl.store(out_ptr, big * 65536)
    tl.store(out_ptr + 1, (n + 2147483647) >> 1)  # arithmetic shift of a wrapped sum
    tl.store(out_ptr + 2, -n // 2)


def test_int32_arithmetic_wraps() -> None:
    out = np.zeros(3, dtype=np.int32)
    wrapping[(1,)](out, 3)
    assert out.tolist() == [0, (-2147483646) >> 1, -1]


@tile.jit
def masked(x_ptr, out_ptr, zero_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n, other=-1.5))
    tl.store(zero_ptr + offs, tl.load(x_ptr + offs, mask=offs < n))


def test_masked_lanes_read_other_or_zero() -> None:
    x = np.arange(1, 6, dtype=np.float32)  # 5 elements: lanes 5..7 would be out of bounds
    out, zero = np.full(8, np.nan, np.float32), np.full(8, np.nan, np.float32)
    masked[(1,)](x, out, zero, 5, BLOCK=8)
    np.testing.assert_array_equal(out, [1, 2, 3, 4, 5, -1.5, -1.5, -1.5])
    np.testing.assert_array_equal(zero, [1, 2, 3, 4, 5, 0, 0, 0])


@tile.jit
def casts(x_ptr, i_ptr, u_ptr, h_ptr, b_ptr, flag_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(i_ptr + offs, x.to(tl.int8))
    tl.store(u_ptr + offs, x.to(tl.int32).to(tl.uint32))
    tl.store(h_ptr + offs, x.to(tl.float16))
    tl.store(b_ptr + offs, x.to(tl.bfloat16))
    tl.store(flag_ptr + offs, x.to(tl.int1))


def test_casts_saturate_round_and_reinterpret() -> None:
    torch = pytest.importorskip("torch", reason="bf16 arrays need torch")
    x = np.array([1000.0, -1000.0, np.nan, -2.7, 2.7, 65520.0, 1.00390625, 0.0],
                 dtype=np.float32)
    i8, u32 = np.zeros(8, np.int8), np.zeros(8, np.uint32)
    f16, bf16, flag = np.zeros(8, np.float16), torch.zeros(8, dtype=torch.bfloat16), \
        np.zeros(8, np.bool_)
    casts[(1,)](x, i8, u32, f16, bf16, flag, BLOCK=8)
    b16 = bf16.view(torch.int16).numpy().view(np.uint16)
    assert i8.tolist() == [127, -128, 0, -2, 2, 127, 1, 0]  # cvt.rzi: saturate, NaN -> 0
    assert u32[1] == 2**32 - 1000 and u32[3] == 2**32 - 2
    assert np.isinf(f16[5]) and f16[4] == np.float16(2.7)
    # 1 + 2**-8 is a tie between bf16 neighbours 1 and 1 + 2**-7: to even (1.0).
    assert bf16_values(b16).tolist()[6] == 1.0 and b16[0] == 0x447A
    assert flag.tolist() == [True, True, True, True, True, True, True, False]


def test_bf16_rounding_from_float64_is_single() -> None:
    # 1 + 2**-8 + 2**-30 rounds up to 1 + 2**-7 in bf16; through float32 first
    # (1 + 2**-8, a tie) it would round to 1.0.
    value = np.array([1 + 2**-8 + 2**-30, np.nan, 3.5e38, -0.0])
    bits = bf16_bits(value)
    assert bf16_values(bits)[0] == 1 + 2**-7
    assert np.isnan(bf16_values(bits)[1]) and np.isinf(bf16_values(bits)[2])
    assert bits[3] == 0x8000


@tile.jit
def math_fns(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    row = out_ptr + offs
    tl.store(row, tl.exp(x))
    tl.store(row + BLOCK, tl.log(x))
    tl.store(row + 2 * BLOCK, tl.sqrt(x))
    tl.store(row + 3 * BLOCK, tl.rsqrt(x))
    tl.store(row + 4 * BLOCK, tl.sin(x) + tl.cos(x))
    tl.store(row + 5 * BLOCK, tl.floor(x) + tl.ceil(-x))
    tl.store(row + 6 * BLOCK, tl.sigmoid(x))
    tl.store(row + 7 * BLOCK, tl.fma(x, x, -x))
    tl.store(row + 8 * BLOCK, tl.abs(-x) + x ** 3)
    tl.store(row + 9 * BLOCK, tl.exp2(x) + tl.log2(x))


def test_math_functions() -> None:
    x = np.linspace(0.25, 4.0, 16, dtype=np.float32)
    out = np.zeros(10 * 16, np.float32)
    math_fns[(1,)](x, out, BLOCK=16)
    got = out.reshape(10, 16)
    d = x.astype(np.float64)
    expected = [np.exp(d), np.log(d), np.sqrt(d), 1 / np.sqrt(d), np.sin(d) + np.cos(d),
                np.floor(d) + np.ceil(-d), 1 / (1 + np.exp(-d)), d * d - d, d + d ** 3,
                np.exp2(d) + np.log2(d)]
    for index, row in enumerate(expected):
        np.testing.assert_allclose(got[index], row, rtol=2e-6, err_msg=f"row {index}")


# -- shapes, reductions, scans, dot -----------------------------------------------------

@tile.jit
def reductions(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    tl.store(out_ptr + cols, tl.sum(x, axis=0))
    tl.store(out_ptr + N + rows, tl.max(x, 1))
    tl.store(out_ptr + N + M + rows, tl.min(x, axis=-1, keep_dims=True).reshape(M))
    tl.store(out_ptr + N + 2 * M, tl.sum(x))
    tl.store(out_ptr + N + 2 * M + 1 + rows, tl.argmax(x, axis=1).to(tl.float32))
    tl.store(out_ptr + N + 3 * M + 1 + cols, tl.cumsum(x, axis=0, reverse=True).sum(0))


def test_reductions_and_scans() -> None:
    m, n = 4, 8
    x = np.random.default_rng(1).standard_normal((m, n)).astype(np.float32)
    x[2, 5] = x[2, 1] = 9.0  # a tie: argmax takes the first
    out = np.zeros(n + 3 * m + 1 + n, np.float32)
    reductions[(1,)](x, out, M=m, N=n)
    np.testing.assert_allclose(out[:n], x.sum(0), rtol=1e-6)
    np.testing.assert_array_equal(out[n:n + m], x.max(1))
    np.testing.assert_array_equal(out[n + m:n + 2 * m], x.min(1))
    np.testing.assert_allclose(out[n + 2 * m], x.sum(), rtol=1e-5)
    np.testing.assert_array_equal(out[n + 2 * m + 1:n + 3 * m + 1], x.argmax(1))
    assert out[n + 2 * m + 1 + 2] == 1
    reverse = np.flip(np.cumsum(np.flip(x, 0), 0), 0)
    np.testing.assert_allclose(out[n + 3 * m + 1:], reverse.sum(0), rtol=1e-5)


@tile.jit
def narrow_sum(x_ptr, out_ptr, BLOCK: tl.constexpr):
    tl.store(out_ptr, tl.sum(tl.load(x_ptr + tl.arange(0, BLOCK)), axis=0))


def test_narrow_integer_sums_do_not_wrap() -> None:
    x = np.full(64, 100, dtype=np.int8)
    out = np.zeros(1, np.int32)
    narrow_sum[(1,)](x, out, BLOCK=64)
    assert out[0] == 6400


@tile.jit
def add_combine(a, b):
    return a + b


@tile.jit
def pick_larger(a, b):
    if a > b:  # branches on its operands: evaluated one element at a time
        return a
    return b


@tile.jit
def last_nonzero(a, b):
    return tl.where(b != 0, b, a)  # associative, not commutative


@tile.jit
def custom_combines(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr, tl.reduce(x, 0, add_combine))
    tl.store(out_ptr + 1, tl.reduce(x, 0, pick_larger))
    tl.store(out_ptr + 2 + offs, tl.associative_scan(x, 0, last_nonzero))
    tl.store(out_ptr + 2 + BLOCK + offs, tl.associative_scan(x, 0, add_combine, reverse=True))


def test_custom_reduce_and_scan() -> None:
    x = np.array([0, 3, 0, 0, 7, 1, 0, 2, 0, 0, 5], dtype=np.int32)
    out = np.zeros(2 + 2 * 11, np.int32)
    custom_combines[(1,)](x, out, BLOCK=11)
    assert out[0] == x.sum() and out[1] == x.max()
    assert out[2:13].tolist() == [0, 3, 3, 3, 7, 1, 1, 2, 2, 2, 5]
    assert out[13:].tolist() == np.flip(np.cumsum(np.flip(x))).tolist()


@tile.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n[None, :])
    acc = tl.full((M, N), 1.0, tl.float32)
    tl.store(c_ptr + m[:, None] * N + n[None, :], tl.dot(a, b, acc))


def test_dot_upcasts_half_inputs_and_accumulates_in_f32() -> None:
    rng = np.random.default_rng(2)
    a = rng.standard_normal((16, 32)).astype(np.float16)
    b = rng.standard_normal((32, 8)).astype(np.float16)
    c = np.zeros((16, 8), np.float32)
    dot_kernel[(1,)](a, b, c, M=16, N=8, K=32)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64) + 1, rtol=1e-5,
                               atol=1e-5)


# -- control flow and calls ---------------------------------------------------------------

@tile.jit
def scaled(x, FACTOR: tl.constexpr = 3):
    return x * FACTOR


@tile.jit
def control(counts_ptr, out_ptr, n):
    pid = tl.program_id(0)
    count = tl.load(counts_ptr + pid)
    total = 0
    for i in range(0, count):
        total += i
    j = 0
    while j < count:
        j += 2
    acc = 0
    for k in tl.static_range(4):
        acc += scaled(k) + scaled(k, FACTOR=1)
    if count > 3:
        total = -total
    tl.store(out_ptr + pid * 3, total)
    tl.store(out_ptr + pid * 3 + 1, j)
    tl.store(out_ptr + pid * 3 + 2, acc)


def test_loops_branches_and_calls() -> None:
    counts = np.array([0, 3, 5], np.int32)
    out = np.zeros(9, np.int32)
    control[(3,)](counts, out, 3)
    assert out.reshape(3, 3).tolist() == [[0, 0, 24], [3, 4, 24], [-10, 6, 24]]


@tile.jit
def loop_index_is_int32(out_ptr):
    for i in range(3, 4):
        tl.store(out_ptr, i * 1073741824)  # 3 * 2**30 wraps in i32


@tile.jit
def descending(out_ptr, start, step):
    k = 0
    for i in range(start, 0, -2):  # a negative constant step counts down
        tl.store(out_ptr + k, i)
        k += 1
    for i in range(0, 3, step):  # a runtime step must be positive
        k += 1


def test_descending_loops_and_runtime_steps() -> None:
    out = np.zeros(4, np.int32)
    descending[(1,)](out, 5, 1)
    assert out.tolist() == [5, 3, 1, 0]
    with pytest.raises(InterpreterError, match="range step must be positive or a negative "
                                               "constant, got -1"):
        descending[(1,)](out, 5, -1)


def test_loop_index_is_a_runtime_int32() -> None:
    out = np.zeros(1, np.int64)
    loop_index_is_int32[(1,)](out)
    assert out[0] == 3 * 2**30 - 2**32


@tile.jit
def takes_constexpr(x, N: tl.constexpr):
    return x + N


@tile.jit
def passes_runtime(out_ptr, n):
    tl.store(out_ptr, takes_constexpr(1, n))


def test_runtime_value_for_a_constexpr_parameter_is_taken() -> None:
    # As compiled and as Triton: a callee's tl.constexpr annotation does not
    # force a constant.
    out = np.zeros(1, np.int32)
    passes_runtime[(1,)](out, 4)
    assert out.tolist() == [5]


@tile.jit
def early_return(out_ptr, limit):
    pid = tl.program_id(0)
    if pid >= limit:
        return
    tl.store(out_ptr + pid, pid + 1)


def test_early_return_and_program_ids() -> None:
    out = np.zeros(6, np.int32)
    early_return[(6,)](out, 4)
    assert out.tolist() == [1, 2, 3, 4, 0, 0]


@tile.jit
def grid_3d(out_ptr):
    x, y, z = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    index = (z * tl.num_programs(1) + y) * tl.num_programs(0) + x
    tl.store(out_ptr + index, x * 100 + y * 10 + z)


def test_three_dimensional_grid() -> None:
    out = np.full(24, -1, np.int32)
    grid_3d[(4, 3, 2)](out)
    expected = [x * 100 + y * 10 + z for z in range(2) for y in range(3) for x in range(4)]
    assert out.tolist() == expected


# -- debugging: print, breakpoint, located errors --------------------------------------------

@tile.jit
def chatty(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    print("program", tl.program_id(0), "x =", x, f"sum={tl.sum(x, 0):.1f}")
    breakpoint()
    tl.store(x_ptr + offs, x + 1)


def test_print_and_breakpoint_inside_a_kernel(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []

    def hook(*args, **kwargs) -> None:
        frame = sys._getframe(1)
        seen.append((frame.f_code.co_name, frame.f_locals["x"].values().tolist()))

    monkeypatch.setattr(sys, "breakpointhook", hook)
    x = np.arange(4, dtype=np.float32)
    chatty[(2,)](x, BLOCK=4)
    assert capsys.readouterr().out.splitlines() == [
        "program 0 x = [0. 1. 2. 3.] sum=6.0", "program 1 x = [1. 2. 3. 4.] sum=10.0"]
    assert seen == [("chatty", [0, 1, 2, 3]), ("chatty", [1, 2, 3, 4])]


@tile.jit
def reads_past_the_end(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1)  # reads 16 of 10


def test_unmasked_out_of_bounds_load_is_located() -> None:
    x = np.zeros(10, np.float32)
    with pytest.raises(InterpreterError) as info:
        reads_past_the_end[(1,)](x, BLOCK=16)
    error = info.value
    assert (error.filename, error.line) == (HERE, line_of("# reads 16 of 10"))
    text = str(error)
    assert "out-of-bounds load through 'x_ptr'" in text
    assert "element offset 10 at block index [10] (an unmasked access)" in text
    assert "fp32 elements 0..9" in text and "6 of 16 lanes" in text
    assert "program (0, 0, 0)" in text
    assert f"{HERE}:{error.line}:" in text and "tl.load(x_ptr + offs)" in text
    assert not x.any()  # nothing was written


@tile.jit
def store_helper(ptr, offs, value, mask):
    tl.store(ptr + offs, value, mask=mask)  # the store in the helper


@tile.jit
def masked_store_off_by_one(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK) - 1
    store_helper(out_ptr, offs, offs, offs <= n)  # the call of the helper


def test_masked_on_out_of_bounds_store_names_the_callers() -> None:
    out = np.zeros(32, np.int32)
    with pytest.raises(InterpreterError) as info:
        masked_store_off_by_one[(2,)](out, 32, BLOCK=16)
    error = info.value
    assert error.line == line_of("# the store in the helper")
    assert error.callers == [f"{HERE}:{line_of('# the call of the helper')}:5"]
    text = str(error)
    assert "out-of-bounds store through 'out_ptr': element offset -1 at block index [0] " \
           "(a lane the mask enables)" in text
    assert f"called from {HERE}:{line_of('# the call of the helper')}:5" in text


def test_masked_off_lanes_may_point_anywhere() -> None:
    x = np.arange(5, dtype=np.float32)
    out, zero = np.zeros(8, np.float32), np.zeros(8, np.float32)
    masked[(1,)](x, out, zero, 5, BLOCK=8)  # lanes 5..7 point past the end, masked off
    assert out[:5].tolist() == x.tolist()


@tile.jit
def shifted_view(x_ptr, out_ptr, shift):
    tl.store(out_ptr, tl.load(x_ptr + shift))


def test_bounds_are_those_of_the_allocation_a_view_lives_in() -> None:
    base = np.arange(20, dtype=np.float32)
    view = base[10:15]
    out = np.zeros(1, np.float32)
    shifted_view[(1,)](view, out, -10)  # before the view, inside its allocation: as on a GPU
    assert out[0] == 0.0
    shifted_view[(1,)](view, out, 9)
    assert out[0] == 19.0
    with pytest.raises(InterpreterError, match=r"element offset 10 .* elements -10..9 "
                                               r"relative to 'x_ptr'"):
        shifted_view[(1,)](view, out, 10)


def test_aliasing_arguments_share_memory() -> None:
    torch = pytest.importorskip("torch", reason="torch tensors need torch")
    x = torch.arange(16, dtype=torch.float32)
    add_kernel[(1,)](x[:8], x[8:], x[4:12], 8, BLOCK=8)  # out overlaps both inputs
    expected = torch.arange(16, dtype=torch.float32)
    expected[4:12] = torch.arange(8.0) + torch.arange(8.0, 16.0)
    assert torch.equal(x, expected)


def test_store_into_a_read_only_array_is_an_error() -> None:
    x = np.zeros(8, np.float32)
    y = np.zeros(8, np.float32)
    out = np.zeros(8, np.float32)
    out.flags.writeable = False
    with pytest.raises(InterpreterError, match="store through 'out_ptr' into a read-only"):
        add_kernel[(1,)](x, y, out, 8, BLOCK=8)


@tile.jit
def bad_broadcast(x_ptr):
    a = tl.arange(0, 4)
    b = tl.arange(0, 8)
    tl.store(x_ptr + a, a + b)  # 4 + 8


def test_semantic_errors_are_located_as_the_compiler_locates_them() -> None:
    with pytest.raises(InterpreterError, match="cannot broadcast shapes 4 and 8") as info:
        bad_broadcast[(1,)](np.zeros(8, np.int32))
    assert info.value.line == line_of("# 4 + 8")
    with pytest.raises(tile.CompilationError, match="cannot broadcast shapes 4 and 8") as info:
        tile.generate_ir(bad_broadcast, "*i32")
    assert info.value.line == line_of("# 4 + 8")


@tile.jit
def branch_on_block(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4))
    if x > 0:
        tl.store(x_ptr, 1)


def test_branching_on_a_block_is_an_error() -> None:
    with pytest.raises(InterpreterError, match="truth value of a block of shape"):
        branch_on_block[(1,)](np.zeros(4, np.int32))


def test_bad_arguments_are_located_at_the_kernel() -> None:
    with pytest.raises(tile.CompilationError, match="argument 'y_ptr': cannot pass str"):
        add_kernel[(1,)](np.zeros(4, np.float32), "y", np.zeros(4, np.float32), 4, BLOCK=4)
    # None is a compile-time None (Triton's rule): an error where it is used.
    with pytest.raises(tile.CompilationError, match="expected a value, got None") as info:
        add_kernel[(1,)](np.zeros(4, np.float32), None, np.zeros(4, np.float32), 4, BLOCK=4)
    assert info.value.filename == str(Path(__file__).resolve())


@tile.jit
def scalar_args(out_ptr, big, x):
    tl.store(out_ptr, big + 1)
    tl.store(out_ptr + 1, (x * 3.0).to(tl.int64))


def test_scalar_arguments_take_the_launch_types() -> None:
    out = np.zeros(2, np.int64)
    scalar_args[(1,)](out, 2**40, 16777217.0)  # i64; the float is rounded to f32
    assert out.tolist() == [2**40 + 1, 3 * 16777216]


# -- bits, rounding, tl.math and libdevice, cache hints, ties ------------------------------------

@tile.jit
def bits_and_math(x_ptr, i_ptr, h_ptr, f_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, cache_modifier=".cg")
    tl.store(i_ptr + offs, x.to(tl.int32, bitcast=True), eviction_policy="evict_last")
    tl.store(h_ptr + offs, x.to(tl.float16, fp_downcast_rounding="rtz"))
    tl.store(f_ptr + offs, tl.cast(x.to(tl.int32, bitcast=True) + 1, tl.float32, bitcast=True))
    tl.store(f_ptr + BLOCK + offs, tl.math.fma_rn(x, x, 1.0) + tl.math.rcp_rn(x + 8.0))
    tl.store(f_ptr + 2 * BLOCK + offs, tl.math.div_rn(x, 3.0) - tl.math.sqrt_rn(x * x))
    tl.store(f_ptr + 3 * BLOCK + offs, tl.math.fast_expf(x) + tl.math.fast_dividef(x, 2.0))
    tl.store(f_ptr + 4 * BLOCK + offs, libdevice.round(x) + libdevice.rsqrt(x * x + 1.0))
    tl.store(i_ptr + BLOCK + offs, tl.math.umulhi(x.to(tl.int32, bitcast=True), -1))


@tile.jit
def libdevice_nan(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, libdevice.max(x, 1.0))
    tl.store(out_ptr + BLOCK + offs, libdevice.fdim(x, 1.0))


def test_libdevice_min_max_and_fdim_treat_nan_as_libdevice() -> None:
    x = np.array([np.nan, 3.0, -2.0, 1.0], np.float32)
    out = np.zeros(8, np.float32)
    libdevice_nan[(1,)](x, out, BLOCK=4)
    # fmaxf returns the number beside a NaN; fdimf of a NaN is NaN, else max(x - y, +0).
    np.testing.assert_array_equal(out[:4], [1.0, 3.0, 1.0, 1.0])
    np.testing.assert_array_equal(out[4:], [np.nan, 2.0, 0.0, 0.0])
    assert not np.signbit(out[6])


def test_bitcasts_rounding_and_precise_math() -> None:
    x = np.array([1.5, -2.5, 0.1, 3.0, -0.49999997, 65519.0, 1e-8, 7.25], np.float32)
    i, h, f = np.zeros(16, np.int32), np.zeros(8, np.float16), np.zeros(40, np.float32)
    bits_and_math[(1,)](x, i, h, f, BLOCK=8)
    bits = x.view(np.int32)
    assert i[:8].tolist() == bits.tolist()
    np.testing.assert_array_equal(f[:8], (bits + 1).view(np.float32))
    # Toward zero: never larger in magnitude, and 65519 (rounds up to 65520,
    # then inf at rtne) stays finite.
    nearest = x.astype(np.float16)
    assert np.all(np.abs(h.astype(np.float32)) <= np.abs(x)) and np.isfinite(h[5])
    assert np.all((h == nearest) | (np.abs(nearest.astype(np.float32)) > np.abs(x)))
    d = x.astype(np.float64)
    np.testing.assert_array_equal(f[8:16], ((d * d + 1).astype(np.float32)
                                            + (1 / (d + 8)).astype(np.float32)))
    np.testing.assert_array_equal(f[16:24], (d / 3).astype(np.float32) - np.abs(x))
    with np.errstate(over="ignore"):  # exp(65519) is inf in f32 too
        np.testing.assert_allclose(f[24:32], np.exp(d) + d / 2, rtol=1e-6)
    rounded = np.array([2.0, -3.0, 0.0, 3.0, -0.0, 65519.0, 0.0, 7.0])  # halves away from 0
    np.testing.assert_allclose(f[32:40], rounded + 1 / np.sqrt(d * d + 1), rtol=1e-6)
    unsigned = bits.astype(np.int64) % 2**32
    assert i[8:].tolist() == ((unsigned * (2**32 - 1)) >> 32).astype(np.int32).tolist()


@tile.jit
def ties(x_ptr, out_ptr, LEFT: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    tl.store(out_ptr, tl.argmax(x, 0, tie_break_left=LEFT))
    tl.store(out_ptr + 1, tl.argmin(x, 0, tie_break_left=LEFT))
    tl.store(out_ptr + 2, tl.max(x, 0, return_indices=True,
                                  return_indices_tie_break_left=LEFT)[1])


@pytest.mark.parametrize("left, expected", [(True, [1, 0, 1]), (False, [6, 7, 6])])
def test_arg_reductions_break_ties_as_asked(left, expected) -> None:
    out = np.zeros(3, np.int32)
    ties[(1,)](np.array([0, 5, 2, 5, 1, 3, 5, 0], np.float32), out, LEFT=left)
    assert out.tolist() == expected


@tile.jit
def misused(x_ptr, WHAT: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 4))
    if WHAT == "width":
        x.to(tl.float16, bitcast=True)  # bad cast
    if WHAT == "rounding":
        x.to(tl.float64, fp_downcast_rounding="rtz")  # bad cast
    if WHAT == "pointer":
        x.to(tl.int64).to(tl.pointer_type(tl.float32))  # bad cast
    if WHAT == "cache":
        tl.load(x_ptr, cache_modifier=".wt")  # bad cast
    if WHAT == "combined":
        tl.store(x_ptr, 1.0, cache_modifier=".cs", eviction_policy="evict_first")  # bad cast
    if WHAT == "libdevice":
        libdevice.j0(x)  # bad cast
    if WHAT == "extern":
        tl.extern_elementwise("", "", [x], {(tl.float32,): ("__nv_j0f", tl.float32)})  # bad cast
    if WHAT == "overload":
        libdevice.tanh(x.to(tl.int32))  # bad cast
    if WHAT == "number":
        (3).to(tl.int8)  # bad cast


@pytest.mark.parametrize("what, message", [
    ("width", r"cannot bitcast fp32 \(32 bits\) to fp16 \(16 bits\)"),
    ("rounding", "fp_downcast_rounding applies to float downcasts, not fp32 to fp64"),
    ("pointer", r"the interpreter does not cast int64 to \*fp32 \(its pointers are offsets"),
    ("cache", "tl.load: cache_modifier must be '' or one of"),
    ("combined", "PTX cannot combine cache_modifier '.cs' with eviction_policy"),
    ("libdevice", "libdevice.j0 has no interpreted version; run the kernel compiled"),
    ("extern", "tl.extern_elementwise calls a libdevice function, which the interpreter"),
    ("overload", r"libdevice.tanh has no overload for \(int32\)"),
    ("number", r"\(3\).to works compiled only: .* write tl.cast\(3, dtype\)"),
])
def test_misused_casts_hints_and_libdevice_are_located(what, message) -> None:
    with pytest.raises(InterpreterError, match=message) as info:
        misused[(1,)](np.zeros(4, np.float32), WHAT=what)
    assert info.value.line == line_of(f'WHAT == "{what}"') + 1


# -- the interpreter keeps in step with the language --------------------------------------------

def test_every_builtin_and_tensor_method_is_interpreted() -> None:
    from tile.language import core
    missing = [name for name in dir(tl) if core.is_builtin(getattr(tl, name))
               and getattr(getattr(L.namespace, name), "__tile_interpreter_missing__", False)]
    methods = [name for name in dir(core.tensor) if core.is_builtin(getattr(core.tensor, name))
               and getattr(getattr(L.Tensor, name), "__tile_interpreter_missing__", False)]
    assert not missing, f"tile.language builtins without an interpreter version: {missing}"
    assert not methods, f"tensor methods without an interpreter version: {methods}"
    for name in dir(core.tensor):
        if core.is_builtin(getattr(core.tensor, name)):
            assert name in L.Tensor.__dict__, name
    # tl.math and libdevice: a NumPy version or a located "run it compiled"
    # error (libdevice's functions NumPy lacks), never an AttributeError.
    from tile.language import math
    from tile.language.extra.cuda import libdevice as compiled
    interpreted = vars(L.namespace.math)
    math_missing = [name for name in dir(math) if core.is_builtin(getattr(math, name))
                    and (name not in interpreted
                         or getattr(interpreted[name], "__tile_interpreter_missing__", False))]
    assert not math_missing, f"tl.math builtins without an interpreter version: {math_missing}"
    assert all(callable(getattr(L.namespace.extra.libdevice, name, None))
               for name in compiled.__all__)


def test_read_modify_write_applies_lanes_in_order() -> None:
    """The helper behind atomics: lanes hitting one address see each other."""
    memory = np.zeros(4, np.int32)
    region = Region("counts", Allocation(memory.view(np.uint8), None), 0)
    base = region.pointer(tl.int32)
    ptr = L.Tensor(base.data + np.array([0, 1, 0, 0, 3]), base.dtype, region)
    values = make(np.array([1, 2, 3, 4, 5]), tl.int32)
    mask = make(np.array([True, True, True, False, True]), tl.int1)
    old = read_modify_write(ptr, values, mask, lambda a, b: make(a.data + b.data, tl.int32),
                            "atomic_add")
    assert memory.tolist() == [4, 2, 0, 5]
    assert old.data.tolist() == [0, 0, 1, 0, 5 - 5]
