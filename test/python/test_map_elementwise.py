"""tl.map_elementwise: the region op the frontend builds (the scalar function
inlined once, on `pack` scalars of each operand), its PTX (a branch per
element, not a select), the errors for misuse, in the compiler and the
interpreter alike, and the verifier's checks of hand-written IR."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import assert_error_at_case, requires_library, verify

import tile
import tile.language as tl

THIS_FILE = Path(__file__).resolve()


@tile.jit
def clamp_or_divide(x, y):
    if y == 0:
        return x
    return x // y


@tile.jit
def swap_pair(a0, a1):
    return a1, a0


@tile.jit
def mapped(x_ptr, y_ptr, out_ptr, PACK: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x, y = tl.load(x_ptr + offs), tl.load(y_ptr + offs)
    if PACK == 1:
        z = tl.map_elementwise(clamp_or_divide, x, y)
    else:
        z, = tl.map_elementwise(swap_pair, x, pack=PACK)  # a tuple in, a tuple out
    tl.store(out_ptr + offs, z)


def test_the_region_takes_scalars_and_branches() -> None:
    ir = verify(tile.generate_ir(mapped, "*i32,*i32,*i32", {"PACK": 1, "BLOCK": 256}))
    line = next(line for line in ir.splitlines() if "tile.map_elementwise" in line)
    # (-> (T) as the frontend writes it, -> T as tile-opt prints it back.)
    assert re.search(r"\{pack = 1 : i32\} : \(!tile.block<256xi32>, !tile.block<256xi32>\) -> "
                     r"\(?!tile.block<256xi32>\)?", line)
    region = ir[ir.index("tile.map_elementwise"):]
    assert "^bb0(" in region and ": i32, " in region.splitlines()[1]
    assert "scf.if" in region.split("tile.yield")[0]


def test_pack_gives_the_region_pack_scalars_of_each_operand() -> None:
    ir = verify(tile.generate_ir(mapped, "*i32,*i32,*i32", {"PACK": 2, "BLOCK": 256}))
    region = ir[ir.index("tile.map_elementwise"):]
    assert "{pack = 2 : i32}" in region.splitlines()[0]
    header = region.splitlines()[1]
    assert header.count(": i32") == 2
    yields = next(line for line in region.splitlines() if "tile.yield" in line)
    assert yields.strip().startswith("tile.yield") and ": i32, i32" in yields


@requires_library
def test_each_element_runs_only_its_branch() -> None:
    ptx = tile.compile(mapped, "*i32,*i32,*i32", {"PACK": 1, "BLOCK": 256},
                       emit_cubin=False).asm["ptx"]
    # 256 elements over 128 threads: two per thread, each its own division
    # behind its own branch on y == 0.
    assert ptx.count("div.s32") == 2
    assert ptx.count("setp.eq.b32") == 2
    assert len([line for line in ptx.splitlines() if " bra" in line]) == 2


@tile.jit
def returns_a_block(x):
    return tl.full((4,), 1, tl.int32) + x


@tile.jit
def mixed_types(a0, a1):
    return a0, a1.to(tl.float32)


@tile.jit
def one_value(a0, a1):
    return a0


def plain_python(x):
    return x


@tile.jit
def misuse(x_ptr, WHAT: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    if WHAT == "not_jit":
        tl.map_elementwise(plain_python, x)
    if WHAT == "no_input":
        tl.map_elementwise(one_value)
    if WHAT == "pack":
        tl.map_elementwise(one_value, x, pack=0)
    if WHAT == "scalar_pack":
        tl.map_elementwise(swap_pair, tl.load(x_ptr), pack=2)
    if WHAT == "block_result":
        tl.map_elementwise(returns_a_block, x)
    if WHAT == "pack_types":
        tl.map_elementwise(mixed_types, x, pack=2)
    if WHAT == "pack_count":
        tl.map_elementwise(one_value, x, pack=2)
    if WHAT == "pointers":
        tl.map_elementwise(clamp_or_divide, x_ptr + tl.arange(0, 16), x)


MISUSES = [
    ("not_jit", "tl.map_elementwise: the scalar function must be a @tile.jit function"),
    ("no_input", "tl.map_elementwise needs at least one input tensor"),
    ("pack", "tl.map_elementwise: pack must be a positive int, got 0"),
    ("scalar_pack", "scalars are one element: pack must be 1, got 2"),
    ("block_result", "tl.map_elementwise: returns_a_block must return scalars"),
    ("pack_types", "with pack=2 the 2 values of each result must have one type"),
    ("pack_count", "one_value returns 1 value; with pack=2 it must return 2 per result"),
    ("pointers", "tl.map_elementwise takes and gives numbers, not *int32"),
]


@pytest.mark.parametrize("what, message", MISUSES, ids=[m[0] for m in MISUSES])
def test_misuse_is_a_located_error(what: str, message: str) -> None:
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(misuse, "*i32", {"WHAT": what})
    assert_error_at_case(info.value, THIS_FILE, what, message)


# The interpreter runs the same builtin checks; block_result fails there at
# the block the scalar function makes from a scalar argument, and
# scalar_pack at its load of a scalar.
INTERPRETED_MISUSES = [m for m in MISUSES if m[0] not in ("block_result",)]


@pytest.mark.parametrize("what, message", INTERPRETED_MISUSES,
                         ids=[m[0] for m in INTERPRETED_MISUSES])
def test_the_interpreter_reports_misuse_alike(monkeypatch: pytest.MonkeyPatch, what: str,
                                              message: str) -> None:
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    from tile.interpreter import InterpreterError
    monkeypatch.setenv("TILE_INTERPRET", "1")
    with pytest.raises(InterpreterError) as info:
        misuse[(1,)](np.ones(16, np.int32), WHAT=what)
    assert_error_at_case(info.value, THIS_FILE, what, message)


def test_the_interpreter_maps_per_element(monkeypatch: pytest.MonkeyPatch) -> None:
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    monkeypatch.setenv("TILE_INTERPRET", "1")
    x = np.arange(-8, 8, dtype=np.int32) * 7
    y = np.array([0, 3] * 8, dtype=np.int32)
    out = np.zeros(16, np.int32)
    mapped[(1,)](x, y, out, PACK=1, BLOCK=16)
    expected = np.where(y == 0, x, np.floor_divide(np.abs(x), np.maximum(y, 1)) * np.sign(x))
    assert np.array_equal(out, expected)
    mapped[(1,)](x, y, out, PACK=2, BLOCK=16)
    assert np.array_equal(out, x.reshape(8, 2)[:, ::-1].reshape(16))
