"""tl.atomic_*: the IR they emit, the PTX it becomes, their located errors, and
their interpreted counterparts."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import assert_error_at_case, marked_line, requires_library, verify

import tile
import tile.language as tl

THIS_FILE = Path(__file__).resolve()


@tile.jit
def every_kind(p, q, u, f, h, s, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < 100
    a = tl.atomic_add(p + offs, 1, mask=m)
    b = tl.atomic_max(p + offs, a, sem="relaxed", scope="cta")
    c = tl.atomic_min(q, 5, sem="acquire", scope="sys")
    d = tl.atomic_max(u + offs, 7)
    e = tl.atomic_min(u + offs, d)
    g = tl.atomic_and(p + offs, b, sem="release")
    i = tl.atomic_or(q, c)
    j = tl.atomic_xor(p + offs, g)
    k = tl.atomic_xchg(f + offs, 2.5)
    n = tl.atomic_max(f + offs, k)
    o = tl.atomic_add(h + offs, k.to(tl.float16))
    r = tl.atomic_cas(s + offs, 0, offs.to(tl.int16))
    t = tl.atomic_cas(q, i, 3)
    v = (p + offs).atomic_add(j)  # a method of pointers, as in Triton
    tl.store(f + offs, n + o + r + t + e + v)


def test_each_builtin_emits_its_atomic():
    ir = verify(tile.generate_ir(every_kind, "*i32,*i64,*u32,*fp32,*fp16,*i16",
                                 {"BLOCK": 128}))
    ir = "\n".join(" ".join(line.split()) for line in ir.splitlines())
    for text in ["tile.atomic_rmw add acq_rel gpu", "tile.atomic_rmw max relaxed cta",
                 "tile.atomic_rmw min acquire sys", "tile.atomic_rmw umax acq_rel gpu",
                 "tile.atomic_rmw umin acq_rel gpu", "tile.atomic_rmw and release gpu",
                 "tile.atomic_rmw or acq_rel gpu", "tile.atomic_rmw xor acq_rel gpu",
                 "tile.atomic_rmw xchg acq_rel gpu", "tile.atomic_cas acq_rel gpu"]:
        assert text in ir, text
    assert ir.count("tile.atomic_rmw add") == 3
    assert ir.count("tile.atomic_cas") == 2
    # The mask stays; the i64 scalar atomics take scalars.
    assert "mask" in ir.split("tile.atomic_rmw add acq_rel gpu")[1].split("\n")[0]
    assert "tile.atomic_rmw min acquire sys %" in ir and ": !tile.ptr<i64>" in ir


@tile.jit
def ordered(p, f, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    flag = tl.atomic_load(p)
    x = tl.atomic_load(f + offs, mask=offs < flag, sem="relaxed", scope="cta")
    tl.atomic_store(f + offs, x + 1, mask=offs < flag, scope="sys")
    tl.atomic_store(p, flag + 1, sem="relaxed")


def test_atomic_load_and_store_are_ordered_loads_and_stores():
    ir = verify(tile.generate_ir(ordered, "*i32,*fp32", {"BLOCK": 128}))
    assert ir.count("{scope = #tile<scope gpu>, sem = #tile<sem acquire>}") == 1
    assert ir.count("{scope = #tile<scope cta>, sem = #tile<sem relaxed>}") == 1
    assert ir.count("{scope = #tile<scope sys>, sem = #tile<sem release>}") == 1
    assert ir.count("{scope = #tile<scope gpu>, sem = #tile<sem relaxed>}") == 1


@requires_library
def test_atomic_load_and_store_reach_the_ptx():
    ptx = tile.compile(ordered, "*i32,*fp32", {"BLOCK": 128}, emit_cubin=False).asm["ptx"]
    for text in ["ld.acquire.gpu.global.b32", "ld.relaxed.cta.global.b32",
                 "st.release.sys.global.b32", "st.relaxed.gpu.global.b32"]:
        assert text in ptx, text
    assert "ld.global.v" not in ptx and "st.global.v" not in ptx


@requires_library
def test_atomics_reach_the_ptx():
    ptx = tile.compile(every_kind, "*i32,*i64,*u32,*fp32,*fp16,*i16", {"BLOCK": 128},
                       emit_cubin=False).asm["ptx"]
    for text in ["atom.global.acq_rel.gpu.add.u32", "atom.global.relaxed.cta.max.s32",
                 "atom.global.acquire.sys.min.s64", "atom.global.acq_rel.gpu.max.u32",
                 "atom.global.acq_rel.gpu.min.u32", "atom.global.release.gpu.and.b32",
                 "atom.global.acq_rel.gpu.or.b64", "atom.global.acq_rel.gpu.xor.b32",
                 "atom.global.acq_rel.gpu.exch.b32", "atom.global.acq_rel.gpu.add.noftz.f16",
                 "atom.global.acq_rel.gpu.cas.b16", "atom.global.acq_rel.gpu.cas.b64"]:
        assert text in ptx, text


@tile.jit
def bf16_add(p):
    tl.atomic_add(p, 1.0)  # bf16 add


@requires_library
def test_bf16_add_needs_sm_90():
    assert "atom.global.acq_rel.gpu.add.noftz.bf16" in tile.compile(
        bf16_add, "*bf16", target="sm_90", emit_cubin=False).asm["ptx"]
    with pytest.raises(tile.CompilationError) as info:
        tile.compile(bf16_add, "*bf16", target="sm_80", emit_cubin=False)
    assert "adds bf16, which needs sm_90 or later" in str(info.value)
    assert (info.value.filename, info.value.line) == (str(THIS_FILE),
                                                      marked_line(THIS_FILE, "bf16 add"))


@tile.jit
def misuse(p, f, b, g, WHAT: tl.constexpr):
    offs = tl.arange(0, 4)
    if WHAT == "not_pointer":
        tl.atomic_add(offs, 1)
    if WHAT == "sem":
        tl.atomic_add(p, 1, sem="seq_cst")
    if WHAT == "scope":
        tl.atomic_xchg(p, 1, scope="cluster")
    if WHAT == "bytes":
        tl.atomic_add(b, 1)
    if WHAT == "half_max":
        tl.atomic_max(f, 1.0)
    if WHAT == "float_and":
        tl.atomic_and(g, 1.0)
    if WHAT == "cas_bytes":
        tl.atomic_cas(b, 0, 1)
    if WHAT == "scalar_pointer_block_value":
        tl.atomic_add(p, offs)
    if WHAT == "shape":
        tl.atomic_add(p + offs, tl.arange(0, 8))
    if WHAT == "pointer_broadcast":
        tl.atomic_add(p + offs[None, :], offs[:, None])
    if WHAT == "mask_type":
        tl.atomic_add(p + offs, 1, mask=offs)
    if WHAT == "load_sem":
        tl.atomic_load(p, sem="release")
    if WHAT == "store_sem":
        tl.atomic_store(p, 1, sem="acq_rel")
    if WHAT == "load_scope":
        tl.atomic_load(p + offs, scope="cluster")
    if WHAT == "load_pointer":
        tl.atomic_load(offs)
    if WHAT == "store_value_shape":
        tl.atomic_store(p, offs)


MISUSES = [
    ("not_pointer", "tl.atomic_add needs a pointer or a block of pointers, got int32"),
    ("sem", "tl.atomic_add: sem must be one of 'acq_rel', 'acquire', 'release', 'relaxed', "
            "got 'seq_cst'"),
    ("scope", "tl.atomic_xchg: scope must be one of 'gpu', 'cta', 'sys', got 'cluster'"),
    ("bytes", "tl.atomic_add does not support int8 elements"),
    ("half_max", "tl.atomic_max does not support fp16 elements, only int32, uint32, int64, "
                 "uint64, fp32, fp64"),
    ("float_and", "tl.atomic_and does not support fp32 elements"),
    ("cas_bytes", "tl.atomic_cas does not support int8 elements"),
    ("scalar_pointer_block_value", "tl.atomic_add: the pointer is a scalar, so its operands "
                                   "must be scalars too, got a block of shape [4]"),
    ("shape", "cannot broadcast shapes"),
    ("pointer_broadcast", "tl.atomic_add: an operand of shape [4, 1] does not broadcast to the "
                          "pointers' shape [1, 4]"),
    ("mask_type", "tl.atomic_add's mask must be boolean (tl.int1), got int32"),
    ("load_sem", "tl.atomic_load: sem must be 'acquire' or 'relaxed', got 'release'"),
    ("store_sem", "tl.atomic_store: sem must be 'release' or 'relaxed', got 'acq_rel'"),
    ("load_scope", "tl.atomic_load: scope must be one of 'gpu', 'cta', 'sys', got 'cluster'"),
    ("load_pointer", "tl.atomic_load needs a pointer or a block of pointers, got int32"),
    ("store_value_shape", "tl.atomic_store: the pointer is a scalar, so its operands must be "
                          "scalars too, got a block of shape [4]"),
]


@pytest.mark.parametrize("what, message", MISUSES, ids=[m[0] for m in MISUSES])
def test_misuse_is_a_located_error(what: str, message: str) -> None:
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(misuse, "*i32,*fp16,*i8,*fp32", {"WHAT": what})
    assert_error_at_case(info.value, THIS_FILE, what, message)


@pytest.mark.parametrize("what, message", MISUSES, ids=[m[0] for m in MISUSES])
def test_interpreted_misuse_is_the_same_located_error(what: str, message: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    from tile.interpreter import InterpreterError
    monkeypatch.setenv("TILE_INTERPRET", "1")
    with pytest.raises(InterpreterError) as info:
        misuse[(1,)](np.zeros(8, np.int32), np.zeros(8, np.float16), np.zeros(8, np.int8),
                     np.zeros(8, np.float32), WHAT=what)
    assert_error_at_case(info.value, THIS_FILE, what, message)


# ----------------------------------------------------------------------------
# Interpreted results (the GPU conformance cases in test/gpu check the same
# kernels compiled)
# ----------------------------------------------------------------------------

@tile.jit
def histogram(x, bins, old, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    prev = tl.atomic_add(bins + tl.load(x + offs, mask=m), 1, mask=m)
    tl.store(old + offs, prev, mask=m)


def test_interpreted_histogram_counts_and_returns_old_values(monkeypatch):
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    monkeypatch.setenv("TILE_INTERPRET", "1")
    x = np.array([3, 1, 3, 3, 0, 1, 7, 3, 2, 9], np.int32)
    bins = np.zeros(10, np.int32)
    old = np.full(16, -1, np.int32)
    histogram[(2,)](x, bins, old, 10, BLOCK=8)
    assert bins.tolist() == np.bincount(x, minlength=10).tolist()
    # Lanes and programs in order: each old value counts the earlier equal ones.
    assert old[:10].tolist() == [0, 0, 1, 2, 0, 1, 0, 3, 0, 0]
    assert (old[10:] == -1).all()


@tile.jit
def cas_claim(lock, winner, old):
    pid = tl.program_id(0)
    prev = tl.atomic_cas(lock, 0, pid + 1)
    tl.store(old + pid, prev)
    if prev == 0:
        tl.store(winner, pid)


def test_interpreted_cas_lets_one_program_win(monkeypatch):
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    monkeypatch.setenv("TILE_INTERPRET", "1")
    lock, winner, old = np.zeros(1, np.int32), np.full(1, -1, np.int32), np.zeros(6, np.int32)
    cas_claim[(6,)](lock, winner, old)
    assert lock[0] == winner[0] + 1 and (old == 0).sum() == 1
    assert (old[old != 0] == lock[0]).all()


@tile.jit
def float_extremes(p, v, BLOCK: tl.constexpr):
    x = tl.load(v + tl.arange(0, BLOCK))
    tl.atomic_max(p + tl.arange(0, BLOCK) % 2, x)
    tl.atomic_min(p + 2 + tl.arange(0, BLOCK) % 2, x)


def test_interpreted_float_max_min(monkeypatch):
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    monkeypatch.setenv("TILE_INTERPRET", "1")
    v = np.array([-3.5, -1.0, -0.25, -7.0, 2.0, -9.0, 0.5, -2.0], np.float32)
    p = np.array([-np.inf, -np.inf, np.inf, np.inf], np.float32)
    float_extremes[(1,)](p, v, BLOCK=8)
    assert p.tolist() == [2.0, -1.0, -3.5, -9.0]
