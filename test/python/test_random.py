"""tl.randint4x / randint / rand / randn / rand4x / randn4x / philox / philox_impl
(Triton's Philox), tl.cumprod, xor_sum, swizzle2d, flip, join, split, interleave, cat
and sort: interpreted runs
checked bit for bit against a plain-Python reference (test/gpu/philox_reference.py,
itself checked against Random123's known answers), the compiled IR and PTX,
and misuse as located errors, compiled and interpreted."""
from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pytest

from conftest import REPO, assert_error_at_case, requires_library

import tile
import tile.language as tl

sys.path.insert(0, str(REPO / "test" / "gpu"))
import philox_reference as ref  # noqa: E402

THIS_FILE = Path(__file__).resolve()
M32, M64 = ref.M32, ref.M64

# Random123's examples/kat_vectors (Philox 4x32 with 7 and 10 rounds, 4x64
# with 10): word width, rounds, counter, key, the expected output.
_PI32 = ([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0])
_PI64 = ([0x243f6a8885a308d3, 0x13198a2e03707344, 0xa4093822299f31d0, 0x082efa98ec4e6c89],
         [0x452821e638d01377, 0xbe5466cf34e90c6c])
KNOWN_ANSWERS = [
    (32, 10, [0] * 4, [0] * 2, [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]),
    (32, 10, [M32] * 4, [M32] * 2, [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]),
    (32, 10, *_PI32, [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]),
    (32, 7, [0] * 4, [0] * 2, [0x5f6fb709, 0x0d893f64, 0x4f121f81, 0x4f730a48]),
    (32, 7, [M32] * 4, [M32] * 2, [0x5207ddc2, 0x45165e59, 0x4d8ee751, 0x8c52f662]),
    (32, 7, *_PI32, [0x4dfccaba, 0x190a87f0, 0xc47362ba, 0xb6b5242a]),
    (64, 10, [0] * 4, [0] * 2,
     [0x16554d9eca36314c, 0xdb20fe9d672d0fdc, 0xd7e772cee186176b, 0x7e68b68aec7ba23b]),
    (64, 10, [M64] * 4, [M64] * 2,
     [0x87b092c3013fe90b, 0x438c3c67be8d0224, 0x9cc7d7c69cd777b6, 0xa09caebf594f0ba0]),
    (64, 10, *_PI64,
     [0xa528f45403e61d95, 0x38c72dbd566e9788, 0xa5a1610e72fd18b5, 0x57bd43b5e52b7fe6]),
]


def _numpy():
    return pytest.importorskip("numpy", reason="the interpreter needs NumPy")


def test_the_reference_gives_random123s_known_answers() -> None:
    for bits, rounds, counter, key, expected in KNOWN_ANSWERS:
        assert list(ref.philox(counter, key, rounds, bits)) == expected, (bits, rounds, counter)


def test_signatures_are_tritons() -> None:
    def names(fn):
        return [(p.name, p.default) for p in inspect.signature(fn).parameters.values()
                if p.name != "_builder"]
    empty = inspect.Parameter.empty
    seeded = [("seed", empty), ("offset", empty), ("n_rounds", 10)]
    for fn in (tl.randint4x, tl.randint, tl.rand, tl.randn, tl.randn4x):
        assert names(fn) == seeded, fn.__name__
    assert names(tl.rand4x) == [("seed", empty), ("offsets", empty), ("n_rounds", 10)]
    assert names(tl.philox) == [("seed", empty)] + [(f"c{i}", empty) for i in range(4)] + [
        ("n_rounds", 10)]
    assert names(tl.philox_impl) == [(f"c{i}", empty) for i in range(4)] + [
        ("k0", empty), ("k1", empty), ("n_rounds", 10)]
    assert names(tl.cumprod) == [("input", empty), ("axis", 0), ("reverse", False)]
    assert names(tl.xor_sum) == [("input", empty), ("axis", None), ("keep_dims", False)]
    assert names(tl.swizzle2d) == [(n, empty) for n in ("i", "j", "size_i", "size_j", "size_g")]


# ----------------------------------------------------------------------------
# philox_impl: the known answers through a kernel
# ----------------------------------------------------------------------------

@tile.jit
def philox_rounds(c_ptr, k_ptr, out_ptr, ROUNDS: tl.constexpr):
    lane = tl.arange(0, 4)
    r0, r1, r2, r3 = tl.philox_impl(
        tl.load(c_ptr + lane * 4), tl.load(c_ptr + lane * 4 + 1), tl.load(c_ptr + lane * 4 + 2),
        tl.load(c_ptr + lane * 4 + 3), tl.load(k_ptr + lane * 2), tl.load(k_ptr + lane * 2 + 1),
        ROUNDS)
    tl.store(out_ptr + lane * 4, r0)
    tl.store(out_ptr + lane * 4 + 1, r1)
    tl.store(out_ptr + lane * 4 + 2, r2)
    tl.store(out_ptr + lane * 4 + 3, r3)


def _known_answer_groups():
    groups = {}
    for bits, rounds, counter, key, expected in KNOWN_ANSWERS:
        groups.setdefault((bits, rounds), []).append((counter, key, expected))
    return sorted(groups.items())


@pytest.mark.parametrize("bits, rounds", [g[0] for g in _known_answer_groups()])
def test_philox_impl_gives_the_known_answers_interpreted(bits: int, rounds: int,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    np = _numpy()
    monkeypatch.setenv("TILE_INTERPRET", "1")
    vectors = dict(_known_answer_groups())[(bits, rounds)]
    vectors = (vectors + vectors)[:4]  # four lanes
    word = np.uint32 if bits == 32 else np.uint64
    counters = np.array([v[0] for v in vectors], word)
    keys = np.array([v[1] for v in vectors], word)
    out = np.zeros((4, 4), word)
    philox_rounds[(1,)](counters, keys, out, ROUNDS=rounds)
    assert out.tolist() == [v[2] for v in vectors]


@requires_library
@pytest.mark.parametrize("bits", [32, 64])
def test_philox_impl_compiles_to_widening_multiplies(bits: int) -> None:
    word = "u32" if bits == 32 else "u64"
    ir = tile.generate_ir(philox_rounds, f"*{word},*{word},*{word}", {"ROUNDS": 10})
    symbol = "__nv_umulhi" if bits == 32 else "__nv_umul64hi"
    assert ir.count(f'"{symbol}"') == 20  # two per round
    ptx = tile.compile(philox_rounds, {"c_ptr": f"*{word}", "k_ptr": f"*{word}",
                                       "out_ptr": f"*{word}"},
                       constexprs={"ROUNDS": 10}, target="sm_90a").asm["ptx"]
    assert f"mul.hi.u{bits}" in ptx


# ----------------------------------------------------------------------------
# randint4x, randint, rand, randn and the 4x variants against the reference
# ----------------------------------------------------------------------------

@tile.jit
def streams(out_ptr, seed, base, N: tl.constexpr, WHAT: tl.constexpr, ROUNDS: tl.constexpr):
    offs = base + tl.arange(0, N)
    lane = tl.arange(0, N)
    if WHAT == "randint4x":
        blocks = tl.randint4x(seed, offs, ROUNDS)
    if WHAT == "randint":
        blocks = (tl.randint(seed, offs, n_rounds=ROUNDS),)
    if WHAT == "rand":
        blocks = (tl.rand(seed, offs, ROUNDS),)
    if WHAT == "randn":
        blocks = (tl.randn(seed, offs, ROUNDS),)
    if WHAT == "rand4x":
        blocks = tl.rand4x(seed, offsets=offs, n_rounds=ROUNDS)
    if WHAT == "randn4x":
        blocks = tl.randn4x(seed, offs, ROUNDS)
    for k in tl.static_range(len(blocks)):
        tl.store(out_ptr + k * N + lane, blocks[k])


# (seed, base of the offsets): int32 and int64 seeds (negative ones sign-extend
# to 64 bits), int32 offsets (negative ones too) and int64 offsets across 2^32.
SEEDS_AND_OFFSETS = [(0, 0), (42, 1000), (-1, -64), (2**31 - 1, 2**31 - 40),
                     (-2**31, 0), (2**40 + 7, 0), (0x123456789, 2**32 - 37),
                     (-(2**50) - 3, -(2**33) - 5), (12345, 2**40 + 2**32 - 30)]
N = 64


def _run_streams(what: str, seed: int, base: int, rounds: int = 10):
    np = _numpy()
    dtype = np.uint32 if what.startswith("randint") else np.float32
    rows = 4 if what.endswith("4x") else 1
    out = np.zeros(rows * N, dtype)
    streams[(1,)](out, seed, base, N=N, WHAT=what, ROUNDS=rounds)
    offsets = [base + i for i in range(N)]
    wide = not -2**31 <= base < 2**31  # base's type: i32 if it fits, else i64
    return out.reshape(rows, N), offsets, wide


@pytest.mark.parametrize("seed, base", SEEDS_AND_OFFSETS)
def test_randint4x_and_rand_are_bit_exact_interpreted(seed: int, base: int,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILE_INTERPRET", "1")
    got, offsets, wide = _run_streams("randint4x", seed, base)
    expected = ref.randint4x(seed, offsets, wide)
    assert got.tolist() == expected
    got, _, _ = _run_streams("randint", seed, base)
    assert got.tolist() == expected[:1]
    got, _, _ = _run_streams("rand", seed, base)
    assert got.tolist() == [ref.uniform(expected[0])]
    assert ((0 <= got) & (got < 1)).all()
    got, _, _ = _run_streams("rand4x", seed, base)
    assert got.tolist() == [ref.uniform(words) for words in expected]


@pytest.mark.parametrize("seed, base", SEEDS_AND_OFFSETS[:4])
def test_randn_is_box_muller_of_the_first_two_words(seed: int, base: int,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    np = _numpy()
    monkeypatch.setenv("TILE_INTERPRET", "1")
    got, offsets, wide = _run_streams("randn", seed, base)
    expected = ref.randn(seed, offsets, wide)
    # f32 log/sqrt/cos/sin (NumPy's here, libdevice's compiled) against f64.
    np.testing.assert_allclose(got[0], expected, rtol=2e-6, atol=2e-6)
    got4, _, _ = _run_streams("randn4x", seed, base)
    words = [ref.uniform(w) for w in ref.randint4x(seed, offsets, wide)]
    pairs = [ref.normal_pair(a, b) for a, b in zip(words[0], words[1])] + [
        ref.normal_pair(a, b) for a, b in zip(words[2], words[3])]
    expected4 = [[p[0] for p in pairs[:N]], [p[1] for p in pairs[:N]],
                 [p[0] for p in pairs[N:]], [p[1] for p in pairs[N:]]]
    np.testing.assert_allclose(got4, expected4, rtol=2e-6, atol=2e-6)
    assert got4[0].tolist() == got[0].tolist()  # randn is randn4x's first block


def test_n_rounds_is_the_number_of_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILE_INTERPRET", "1")
    for rounds in (0, 1, 7):
        got, offsets, wide = _run_streams("randint4x", 99, 5, rounds)
        assert got.tolist() == ref.randint4x(99, offsets, wide, rounds), rounds


@tile.jit
def constant_seed(out_ptr, N: tl.constexpr, SEED: tl.constexpr):
    lane = tl.arange(0, N)
    tl.store(out_ptr + lane, tl.randint(SEED, lane))
    tl.store(out_ptr + N + lane, tl.randint(SEED, 7))  # a scalar offset


@pytest.mark.parametrize("seed", [5, -3, 2**32 + 1, 2**63 + 5])
def test_constexpr_seeds_and_scalar_offsets(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    np = _numpy()
    monkeypatch.setenv("TILE_INTERPRET", "1")
    out = np.zeros(2 * 8, np.uint32)
    constant_seed[(1,)](out, N=8, SEED=seed)
    assert out[:8].tolist() == ref.randint4x(seed, range(8))[0]
    assert out[8:].tolist() == ref.randint4x(seed, [7])[0] * 8


@tile.jit
def wide_words(x_ptr, philox_ptr, uniform_ptr, seed, N: tl.constexpr):
    lane = tl.arange(0, N)
    x = tl.load(x_ptr + lane)
    r0, r1, r2, r3 = tl.philox(seed, x, x + 1, x * 0, x * 0)
    tl.store(philox_ptr + lane, r0)
    tl.store(philox_ptr + N + lane, r3)
    tl.store(uniform_ptr + lane, tl.uint_to_uniform_float(x))


def test_philox_on_64_bit_counters_and_64_bit_uniforms(monkeypatch: pytest.MonkeyPatch) -> None:
    """64-bit counters are Philox 4x64 keyed (seed, 0); uint_to_uniform_float of
    64-bit words uses the 64-bit scale."""
    np = _numpy()
    monkeypatch.setenv("TILE_INTERPRET", "1")
    x = np.array([0, 1, 2**40 + 3, M64, 2**63, 12345, 2**63 - 1, 99], np.uint64)
    words, uniforms = np.zeros(16, np.uint64), np.zeros(8, np.float32)
    wide_words[(1,)](x, words, uniforms, 77, N=8)
    expected = [ref.philox((int(v), int(v) + 1, 0, 0), (77, 0), 10, 64) for v in x]
    assert words[:8].tolist() == [e[0] for e in expected]
    assert words[8:].tolist() == [e[3] for e in expected]
    assert uniforms.tolist() == ref.uniform([int(v) for v in x], bits=64)


@requires_library
@pytest.mark.parametrize("what", ["randint4x", "randint", "rand", "randn", "rand4x", "randn4x"])
def test_streams_compile_for_sm90a(what: str) -> None:
    signature = {"out_ptr": "*u32" if what.startswith("randint") else "*fp32",
                 "seed": "i64", "base": "i64"}
    kernel = tile.compile(streams, signature, constexprs={"N": 128, "WHAT": what, "ROUNDS": 10},
                          target="sm_90a")
    ir, ptx = kernel.asm["tile"], kernel.asm["ptx"]
    # Four Philox words per offset: one generator (20 widening multiplies) per call.
    assert ir.count('"__nv_umulhi"') == 20 and "mul.hi.u32" in ptx
    # The seed's and the offsets' high words: logical and arithmetic 64-bit shifts.
    assert "arith.shrui" in ir and "tile.shrsi" in ir
    if what.startswith("rand") and not what.startswith("randint"):
        assert "cvt.rn.f32.s32" in ptx  # the folded int32 to float32
    if what.startswith("randn"):
        assert "tile.log" in ir and "tile.cos" in ir


# ----------------------------------------------------------------------------
# cumprod, xor_sum, swizzle2d
# ----------------------------------------------------------------------------

@tile.jit
def standard(x_ptr, prod_ptr, rprod_ptr, xor_ptr, xor0_ptr, xor1_ptr, si_ptr, sj_ptr,
             M: tl.constexpr, K: tl.constexpr, G: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, K)[None, :]
    x = tl.load(x_ptr + rows * K + cols)
    tl.store(prod_ptr + rows * K + cols, tl.cumprod(x, 1))
    tl.store(rprod_ptr + rows * K + cols, x.cumprod(axis=0, reverse=True))
    if x.dtype.is_int():
        tl.store(xor_ptr, tl.xor_sum(x))
        tl.store(xor0_ptr + cols, tl.xor_sum(x, 0, keep_dims=True))
        tl.store(xor1_ptr + tl.arange(0, M), x.xor_sum(1))
    i, j = tl.swizzle2d(rows, cols, M, K, G)
    tl.store(si_ptr + rows * K + cols, i)
    tl.store(sj_ptr + rows * K + cols, j)


def _swizzle_reference(i: int, j: int, size_i: int, size_j: int, size_g: int) -> tuple:
    """Grouped ordering written out directly: row-major index -> its group of
    size_g rows (the last one may be shorter) -> column-major inside it."""
    index = i * size_j + j
    group, within = divmod(index, size_g * size_j)
    first = group * size_g
    rows = min(size_i - first, size_g)
    return first + within % rows, within // rows


@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "float16"])
def test_cumprod_xor_sum_swizzle2d_interpreted(dtype: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    np = _numpy()
    monkeypatch.setenv("TILE_INTERPRET", "1")
    M, K, G = 4, 8, 3
    rng = np.random.default_rng(5)
    if dtype.startswith(("int", "uint")):
        x = rng.integers(0, 250, (M, K)).astype(dtype)  # int32 products wrap; uint8 too
    else:
        x = rng.uniform(0.5, 1.5, (M, K)).astype(dtype)
    outs = {name: np.zeros(shape, dtype) for name, shape in
            [("prod", (M, K)), ("rprod", (M, K)), ("xor", 1), ("xor0", K), ("xor1", M)]}
    si, sj = np.zeros((M, K), np.int32), np.zeros((M, K), np.int32)
    standard[(1,)](x, outs["prod"], outs["rprod"], outs["xor"], outs["xor0"], outs["xor1"],
                   si, sj, M=M, K=K, G=G)
    with np.errstate(over="ignore"):
        prod = np.cumprod(x, axis=1, dtype=x.dtype)
        rprod = np.flip(np.cumprod(np.flip(x, 0), axis=0, dtype=x.dtype), 0)
    if dtype.startswith("float"):
        np.testing.assert_allclose(outs["prod"], prod, rtol=2e-3)
        np.testing.assert_allclose(outs["rprod"], rprod, rtol=2e-3)
    else:
        assert outs["prod"].tolist() == prod.tolist()
        assert outs["rprod"].tolist() == rprod.tolist()
        assert outs["xor"].tolist() == [np.bitwise_xor.reduce(x, axis=None)]
        assert outs["xor0"].tolist() == np.bitwise_xor.reduce(x, axis=0).tolist()
        assert outs["xor1"].tolist() == np.bitwise_xor.reduce(x, axis=1).tolist()
    expected = [[_swizzle_reference(i, j, M, K, G) for j in range(K)] for i in range(M)]
    assert [[(int(a), int(b)) for a, b in zip(r, s)] for r, s in zip(si, sj)] == expected


@tile.jit
def flips(x_ptr, rows_ptr, cols_ptr, last_ptr, M: tl.constexpr, K: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, K)[None, :]
    x = tl.load(x_ptr + rows * K + cols)
    tl.store(rows_ptr + rows * K + cols, tl.flip(x, 0))
    tl.store(cols_ptr + rows * K + cols, tl.flip(x, -1))
    tl.store(last_ptr + rows * K + cols, x.flip())


@pytest.mark.parametrize("dtype", ["float32", "float16", "int8", "int64", "bool"])
def test_flip_interpreted(dtype: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """tl.flip moves bits, so NaNs and -0.0 come out as they went in."""
    np = _numpy()
    monkeypatch.setenv("TILE_INTERPRET", "1")
    M, K = 4, 16
    rng = np.random.default_rng(7)
    x = (rng.normal(0, 50, (M, K)) > 0 if dtype == "bool"
         else rng.normal(0, 50, (M, K)).astype(dtype))
    if dtype.startswith("float"):
        x[0, :3] = [np.nan, -0.0, np.inf]
    outs = [np.zeros((M, K), x.dtype) for _ in range(3)]
    flips[(1,)](x, *outs, M=M, K=K)
    for got, want in zip(outs, (np.flip(x, 0), np.flip(x, 1), np.flip(x, 1))):
        assert got.tobytes() == np.ascontiguousarray(want).tobytes()


@tile.jit
def joins(x_ptr, y_ptr, j_ptr, s0_ptr, s1_ptr, i_ptr, c_ptr, pair_ptr, M: tl.constexpr,
          N: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    y = tl.load(y_ptr + rows)  # one column: broadcast along the rows
    j = tl.join(x, y)
    tl.store(j_ptr + (rows * N + cols)[:, :, None] * 2 + tl.arange(0, 2)[None, None, :], j)
    first, second = j.split()
    tl.store(s0_ptr + rows * N + cols, first)
    tl.store(s1_ptr + rows * N + cols, second)
    tl.store(i_ptr + rows * 2 * N + tl.arange(0, 2 * N)[None, :], tl.interleave(x, y))
    tl.store(c_ptr + tl.arange(0, 2 * M)[:, None] * N + cols, tl.cat(x, x + 1, can_reorder=True))
    low, high = tl.split(tl.join(tl.min(x), tl.max(x)))  # scalars: a block of 2 and back
    tl.store(pair_ptr + tl.arange(0, 2), tl.join(high, low))


@pytest.mark.parametrize("dtype", ["float32", "float16", "int8", "int64"])
def test_join_split_interleave_cat_interpreted(dtype: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    np = _numpy()
    monkeypatch.setenv("TILE_INTERPRET", "1")
    M, N = 4, 8
    rng = np.random.default_rng(11)
    x = rng.normal(0, 30, (M, N)).astype(dtype)
    y = rng.normal(0, 30, (M, 1)).astype(dtype)
    if dtype.startswith("float"):
        x[0, :2] = [np.nan, -0.0]
    outs = {name: np.zeros(shape, x.dtype) for name, shape in
            [("j", (M, N, 2)), ("s0", (M, N)), ("s1", (M, N)), ("i", (M, 2 * N)),
             ("c", (2 * M, N)), ("pair", 2)]}
    joins[(1,)](x, y, *outs.values(), M=M, N=N)
    joined = np.stack([x, np.broadcast_to(y, (M, N))], -1)
    for name, want in (("j", joined), ("s0", x), ("s1", np.broadcast_to(y, (M, N))),
                       ("i", joined.reshape(M, 2 * N)), ("c", np.concatenate([x, x + 1], 0))):
        assert outs[name].tobytes() == np.ascontiguousarray(want).tobytes(), name
    # x may hold a NaN, which tl.max and tl.min skip (as compiled Triton)
    assert outs["pair"].tolist() == [np.nanmax(x), np.nanmin(x)]


@tile.jit
def sorts(x_ptr, up_ptr, down_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(up_ptr + offs, tl.sort(x))
    tl.store(down_ptr + offs, x.sort(dim=1, descending=True))


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32", "uint8", "int64"])
@pytest.mark.parametrize("shape", [(4, 16), (3, 2), (2, 1), (1, 64)])
def test_sort_interpreted(dtype: str, shape: tuple, monkeypatch: pytest.MonkeyPatch) -> None:
    np = _numpy()
    monkeypatch.setenv("TILE_INTERPRET", "1")
    rng = np.random.default_rng(13)
    x = (rng.normal(0, 100, shape) if dtype.startswith("float")
         else rng.integers(0, 200, shape)).astype(dtype)
    x[..., 0] = x[..., -1]  # a tie in every row
    up, down = np.zeros_like(x), np.zeros_like(x)
    sorts[(1,)](x, up, down, M=shape[0], N=shape[1])
    assert up.tolist() == np.sort(x, -1).tolist()
    assert down.tolist() == np.flip(np.sort(x, -1), -1).tolist()


def test_sort_compiles_to_a_bitonic_network() -> None:
    """A 16-wide sort is 4 stages of 1 + 2 + 3 + 4 rounds, each one xor
    reduction to find the partners; both sorts in the kernel: 20."""
    ir = tile.generate_ir(sorts, "*fp32,*fp32,*fp32", {"M": 4, "N": 16})
    assert ir.count("tile.reduce") == 2 * (1 + 2 + 3 + 4), ir
    ptx = tile.compile(sorts, "*i32,*i32,*i32", {"M": 4, "N": 16}, target="sm_90a").asm["ptx"]
    assert ".entry sorts" in ptx


@tile.jit
def topks(x_ptr, top_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    top = tl.topk(x, K) if K > 1 else x.topk(K, dim=1)
    tl.store(top_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], top)


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32", "uint8"])
@pytest.mark.parametrize("shape, k", [((4, 16), 4), ((3, 64), 1), ((2, 8), 8), ((1, 32), 2)])
def test_topk_interpreted(dtype: str, shape: tuple, k: int,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The k largest of each row, largest first (ties included)."""
    np = _numpy()
    monkeypatch.setenv("TILE_INTERPRET", "1")
    rng = np.random.default_rng(17)
    x = (rng.normal(0, 100, shape) if dtype.startswith("float")
         else rng.integers(0, 200, shape)).astype(dtype)
    x[..., 1] = x[..., -2]
    top = np.zeros((shape[0], k), dtype)
    topks[(1,)](x, top, M=shape[0], N=shape[1], K=k)
    assert top.tolist() == np.flip(np.sort(x, -1), -1)[:, :k].tolist()


def test_topk_compiles_to_a_partial_network() -> None:
    """Top 4 of 16: two sort stages (1 + 2 xor reductions), then two rounds
    of a max over an axis of two and a 2-round merge; PTX for sm_90a."""
    ir = tile.generate_ir(topks, "*fp32,*fp32", {"M": 4, "N": 16, "K": 4})
    assert ir.count("tile.reduce custom") == (1 + 2) + 2 * 2, ir
    assert ir.count("tile.reduce max") == 2, ir
    ptx = tile.compile(topks, "*i32,*i32", {"M": 4, "N": 16, "K": 4}, target="sm_90a").asm["ptx"]
    assert ".entry topks" in ptx


@pytest.mark.parametrize("dtype", ["fp16", "i8", "fp64"])
def test_join_split_interleave_cat_compile(dtype: str) -> None:
    """Selections, an xor reduction per half for split, a permute and
    reshapes: all ops the lowering has; PTX for sm_90a."""
    ir = tile.generate_ir(joins, ",".join([f"*{dtype}"] * 8), {"M": 4, "N": 8})
    assert "tile.select" in ir and "tile.trans" in ir and "tile.reshape" in ir, ir
    ptx = tile.compile(joins, ",".join([f"*{dtype}"] * 8), {"M": 4, "N": 8},
                       target="sm_90a").asm["ptx"]
    assert ".entry joins" in ptx


def test_flip_compiles_to_xor_reductions() -> None:
    """Each of the log2(extent) axes of two is one xor reduction (a flip of 4
    rows two, of 16 columns four), on the elements' bits (a bitcast in and
    one out per flip)."""
    ir = tile.generate_ir(flips, "*fp32,*fp32,*fp32,*fp32", {"M": 4, "K": 16})
    assert ir.count("tile.reduce") == 2 + 4 + 4, ir
    assert ir.count("tile.bitcast") == 3 * 2, ir
    ptx = tile.compile(flips, "*fp16,*fp16,*fp16,*fp16", {"M": 4, "K": 16},
                       target="sm_90a").asm["ptx"]
    assert ".entry flips" in ptx


def test_cumprod_of_bf16_is_computed_in_fp32() -> None:
    @tile.jit
    def bf16_cumprod(x_ptr, out_ptr):
        lane = tl.arange(0, 8)
        y = tl.cumprod(tl.load(x_ptr + lane))
        tl.static_assert(y.dtype == tl.float32)
        tl.store(out_ptr + lane, y)
    ir = tile.generate_ir(bf16_cumprod, "*bf16,*bf16")
    assert "tile.scan custom" in ir and "arith.mulf" in ir and "f32" in ir


@requires_library
def test_cumprod_and_xor_sum_compile_to_custom_scans_and_reductions() -> None:
    kernel = tile.compile(standard, {f"{n}_ptr": "*i32" for n in (
        "x", "prod", "rprod", "xor", "xor0", "xor1", "si", "sj")},
        constexprs={"M": 4, "K": 8, "G": 3}, target="sm_90a")
    ir = kernel.asm["tile"]
    assert ir.count("tile.scan custom") == 2 and "reverse" in ir
    assert ir.count("tile.reduce custom") == 3 and "arith.xori" in ir and "arith.muli" in ir
    assert "divsi" in ir and "minsi" in ir  # swizzle2d's arithmetic


# ----------------------------------------------------------------------------
# Misuse: located errors, compiled and interpreted
# ----------------------------------------------------------------------------

@tile.jit
def misuse(p, n, WHAT: tl.constexpr):
    offs = tl.arange(0, 4)
    x = tl.load(p + offs)
    if WHAT == "float_seed":
        tl.rand(1.5, offs)
    if WHAT == "float_offsets":
        tl.rand(3, x)
    if WHAT == "pointer_offsets":
        tl.randint(3, p + offs)
    if WHAT == "runtime_rounds":
        tl.randint4x(3, offs, n)
    if WHAT == "negative_rounds":
        tl.randn(3, offs, -1)
    if WHAT == "missing_offset":
        tl.rand(3)
    if WHAT == "philox_widths":
        tl.philox(3, offs, offs.to(tl.int64), offs, offs)
    if WHAT == "philox_impl_signed":
        tl.philox_impl(offs, offs, offs, offs, 1, 2)
    if WHAT == "uniform_of_floats":
        tl.uint_to_uniform_float(x)
    if WHAT == "normal_of_ints":
        tl.pair_uniform_to_normal(offs, offs)
    if WHAT == "xor_sum_of_floats":
        tl.xor_sum(x)
    if WHAT == "cumprod_of_scalar":
        tl.cumprod(n)
    if WHAT == "cumprod_axis":
        tl.cumprod(x, 1)
    if WHAT == "swizzle_of_floats":
        tl.swizzle2d(x, offs, 4, 4, 2)
    if WHAT == "flip_of_six":
        tl.flip(tl.zeros([6], tl.float32))
    if WHAT == "flip_dim":
        tl.flip(x, 1)
    if WHAT == "flip_of_scalar":
        tl.flip(n)
    if WHAT == "join_types":
        tl.join(x, offs)
    if WHAT == "split_of_four":
        tl.split(x)
    if WHAT == "split_of_scalar":
        tl.split(n)
    if WHAT == "cat_dim":
        tl.cat(x, x, dim=1)
    if WHAT == "cat_shapes":
        tl.cat(x, tl.zeros([8], tl.float32), can_reorder=True)
    if WHAT == "interleave_types":
        tl.interleave(offs, x)
    if WHAT == "sort_dim":
        tl.sort(tl.zeros([4, 4], tl.float32), 0)
    if WHAT == "sort_of_six":
        tl.sort(tl.zeros([6], tl.float32))
    if WHAT == "topk_of_three":
        tl.topk(tl.zeros([8], tl.float32), 3)
    if WHAT == "topk_too_many":
        tl.topk(tl.zeros([8], tl.float32), 16)
    if WHAT == "topk_runtime_k":
        tl.topk(x, n)
    if WHAT == "topk_dim":
        tl.topk(tl.zeros([4, 4], tl.float32), 2, dim=0)


MISUSES = [
    ("float_seed", "tl.rand: the seed must be an integer or a block of integers, got fp32"),
    ("float_offsets", "tl.rand: the offsets must be an integer or a block of integers, got fp32"),
    ("pointer_offsets", "tl.randint: the offsets must be an integer or a block of integers, "
                        "got *fp32"),
    ("runtime_rounds", "tl.randint4x's n_rounds must be a compile-time constant"),
    ("negative_rounds", "tl.randn: n_rounds must not be negative, got -1"),
    ("missing_offset", "tl.rand(): missing a required argument: 'offset'"),
    ("philox_widths", "tl.philox: the counters c0..c3 must be 32-bit or 64-bit values of one "
                      "width, but c1 is int64"),
    ("philox_impl_signed", "tl.philox_impl: the counters c0..c3 must all be uint32 or all "
                           "uint64, got int32, int32, int32, int32"),
    ("uniform_of_floats", "tl.uint_to_uniform_float needs int32, uint32, int64 or uint64 "
                          "values, got fp32"),
    ("normal_of_ints", "tl.pair_uniform_to_normal: u1 must be floating-point, got int32"),
    ("xor_sum_of_floats", "tl.xor_sum needs integers, got fp32"),
    ("cumprod_of_scalar", "tl.cumprod needs a block, got a scalar (int32)"),
    ("cumprod_axis", "axis 1 is out of range for a block of rank 1"),
    ("swizzle_of_floats", "tl.swizzle2d: i must be an integer or a block of integers, got fp32"),
    ("flip_of_six", "tl.flip needs a power-of-two extent along dim 0, got 6"),
    ("flip_dim", "axis 1 is out of range for a block of rank 1"),
    ("flip_of_scalar", "tl.flip needs a block, got a scalar (int32)"),
    ("join_types", "tl.join needs two values of one type, got fp32 and int32"),
    ("split_of_four", "tl.split needs a last dimension of 2, got shape [4]"),
    ("split_of_scalar", "tl.split needs a block, got a scalar (int32)"),
    ("cat_dim", "axis 1 is out of range for a block of rank 1"),
    ("cat_shapes", "tl.cat needs two blocks of one shape and type, got [4] fp32 and [8] fp32"),
    ("interleave_types", "tl.interleave needs two values of one type, got int32 and fp32"),
    ("sort_dim", "tl.sort sorts along the last dimension (1) only, not 0"),
    ("sort_of_six", "tl.sort needs a power-of-two extent along dim 0, got 6"),
    ("topk_of_three", "tl.topk's k must be a power of two from 1 to 8 (the extent of dim 0), "
                      "got 3"),
    ("topk_too_many", "tl.topk's k must be a power of two from 1 to 8 (the extent of dim 0), "
                      "got 16"),
    ("topk_runtime_k", "tl.topk's k must be a compile-time integer"),
    ("topk_dim", "tl.topk selects along the last dimension (1) only, not 0"),
]


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize("what, message", MISUSES, ids=[m[0] for m in MISUSES])
def test_misuse_is_a_located_error(what: str, message: str, mode: str,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    if mode == "compiled":
        with pytest.raises(tile.CompilationError) as info:
            tile.generate_ir(misuse, "*fp32,i32", {"WHAT": what})
    else:
        np = _numpy()
        from tile.interpreter import InterpreterError
        monkeypatch.setenv("TILE_INTERPRET", "1")
        with pytest.raises(InterpreterError) as info:
            misuse[(1,)](np.zeros(4, np.float32), 3, WHAT=what)
    assert_error_at_case(info.value, THIS_FILE, what, message)


# ----------------------------------------------------------------------------
# Triton's own interpreter, where Triton is installed
# ----------------------------------------------------------------------------

_BOTH_INTERPRETERS = r"""
import os, sys
os.environ["TRITON_INTERPRET"] = "1"
os.environ["TILE_INTERPRET"] = "1"
sys.path[:0] = [sys.argv[1]]
import torch
import philox_reference as ref
from test_random_triton import _load
by_triton = _load("by_triton", with_tile=False)
by_tile = _load("by_tile", with_tile=True)
for seed, base in [(1234, 0), (-7, -3000), (2**40 + 3, 2**32 - 2500), (-2**31, 2**31 - 10)]:
    n = 200
    offsets = [base + i for i in range(n)]
    wide = not -2**31 <= base < 2**31
    words = ref.randint4x(seed, offsets, wide)
    for module in (by_triton, by_tile):
        w, u, z = torch.empty(4 * n, dtype=torch.int32), torch.empty(n), torch.empty(n)
        module.random_streams[(1,)](seed, base, w, u, z, n, BLOCK=256)
        name = module.__name__
        assert [x & 0xFFFFFFFF for x in w.tolist()] == [x for t in zip(*words) for x in t], name
        assert u.tolist() == ref.uniform(words[0]), name
        error = max(abs(a - b) for a, b in zip(z.tolist(), ref.randn(seed, offsets, wide)))
        assert error < 2e-6, (name, error)
    print("seed", seed, "base", base, "agree")
# tl.sort, NaNs included: Triton's network moves a NaN's neighbours as tile's does.
g = torch.Generator().manual_seed(0)
x = torch.randn(8, 64, generator=g)
x[torch.rand(8, 64, generator=g) < 0.1] = float("nan")
results = []
for module in (by_triton, by_tile):
    up, down = torch.empty_like(x), torch.empty_like(x)
    module.sort_rows[(1,)](x, up, down, M=8, N=64)
    results.append(torch.cat([up, down]).view(torch.int32))
assert torch.equal(*results), "the sorts differ"
print("sorts agree")
"""


def test_tritons_interpreter_agrees_with_the_reference_and_tile() -> None:
    """The same Triton program, run by Triton's interpreter (TRITON_INTERPRET=1)
    and by tile's, gives the reference's words and uniforms bit for bit, and
    the same sorted rows (NaNs included)."""
    import importlib.util
    import subprocess
    from conftest import python_env
    for module in ("triton", "torch", "numpy"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed here: Triton's interpreter cannot run "
                        "(test/gpu/test_random_triton.py compares on the GPU)")
    result = subprocess.run([sys.executable, "-c", _BOTH_INTERPRETERS, str(REPO / "test" / "gpu")],
                            capture_output=True, text=True, timeout=600, env=python_env())
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.count("agree") == 5, result.stdout
