"""tl.device_print / print, tl.device_assert / assert (with debugging on:
@tile.jit(debug=True) or TILE_DEBUG=1) and tl.debug_barrier: the IR they
make, the PTX, and the errors for misuse."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import requires_library

import tile
import tile.language as tl

THIS_FILE = Path(__file__).resolve()


@tile.jit
def prints(x_ptr, n, WHAT: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    if WHAT == "call":
        tl.device_print("x", x, n)
    if WHAT == "builtin":
        print("x", x, n)
    if WHAT == "hex":
        tl.device_print("bits: ", x, hex=True)
    if WHAT == "bare":
        tl.device_print("here")
    if WHAT == "unsigned":
        tl.device_print("u", n.to(tl.uint32))
    if WHAT == "no_prefix":
        print(x)  # ERR-prefix
    if WHAT == "not_ascii":
        tl.device_print("größe", x)  # ERR-ascii


def print_ops(what: str) -> list[str]:
    ir = tile.generate_ir(prints, "*fp32,i32", {"WHAT": what})
    return [line.strip() for line in ir.splitlines() if "tile.print" in line]


def test_device_print_and_print_make_one_print_op_with_triton_prefix_rules() -> None:
    # Triton's prefix rules: a leading space, ": " before the values.
    call = print_ops("call")
    assert len(call) == 1
    assert call[0].startswith('tile.print " x: " %')
    assert "{is_signed = array<i1: true, true>} : !tile.block<16xf32>, i32" in call[0]
    assert [op.split(" loc(")[0] for op in print_ops("builtin")] == \
        [op.split(" loc(")[0] for op in call]
    assert print_ops("hex")[0].startswith('tile.print " bits: " hex %')
    assert print_ops("bare")[0].startswith('tile.print " here" {is_signed = array<i1>}')
    assert "array<i1: false>" in print_ops("unsigned")[0]


@pytest.mark.parametrize("what, snippet, message", [
    ("no_prefix", "print(x)", "takes a string prefix first"),
    ("not_ascii", 'tl.device_print("größe", x)', "is not an ASCII string"),
])
def test_print_misuse_is_located(what: str, snippet: str, message: str) -> None:
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(prints, "*fp32,i32", {"WHAT": what})
    error = info.value
    marker = "ERR-prefix" if what == "no_prefix" else "ERR-ascii"
    line = next(i for i, text in enumerate(THIS_FILE.read_text().splitlines(), 1)
                if marker in text)
    assert (error.filename, error.line) == (str(THIS_FILE), line)
    source_line = THIS_FILE.read_text().splitlines()[line - 1]
    assert error.col == source_line.index(snippet) + 1
    assert message in error.message


def make_checks(debug: bool | None) -> tile.JITFunction:
    def checks(x_ptr, STATEMENT: tl.constexpr):
        offs = tl.arange(0, 16)
        x = tl.load(x_ptr + offs)
        if STATEMENT:
            assert x < 100, "x is too big"
        else:
            tl.device_assert(x < 100, "x is too big", mask=offs < 8)
    return tile.jit(checks, debug=debug)


@pytest.mark.parametrize("statement", [False, True])
def test_device_assert_is_emitted_only_with_debugging_on(statement: bool,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def asserts(debug: bool | None) -> list[str]:
        ir = tile.generate_ir(make_checks(debug), "*fp32", {"STATEMENT": statement})
        return [line.strip() for line in ir.splitlines() if "tile.assert" in line]
    monkeypatch.delenv("TILE_DEBUG", raising=False)
    assert asserts(None) == [] and asserts(False) == []
    emitted = asserts(True)
    assert len(emitted) == 1 and '"x is too big" : !tile.block<16xi1>' in emitted[0]
    monkeypatch.setenv("TILE_DEBUG", "1")
    assert len(asserts(None)) == 1
    assert asserts(False) == []  # the decorator's choice wins
    monkeypatch.setenv("TILE_DEBUG", "0")
    assert asserts(None) == []


def test_a_false_compile_time_assert_is_an_error_either_way() -> None:
    @tile.jit(debug=True)
    def constant_assert(x_ptr, N: tl.constexpr):
        assert N > 4, "N must exceed 4"
        tl.store(x_ptr, 1.0)
    tile.generate_ir(constant_assert, "*fp32", {"N": 8})
    with pytest.raises(tile.CompilationError, match="assertion failed: N must exceed 4"):
        tile.generate_ir(constant_assert, "*fp32", {"N": 2})


def test_debug_barrier_is_a_barrier() -> None:
    @tile.jit
    def barrier(x_ptr):
        tl.store(x_ptr + tl.arange(0, 16), 1.0)
        tl.debug_barrier()
        tl.store(x_ptr, tl.sum(tl.load(x_ptr + tl.arange(0, 16)), 0))
    assert "tile.barrier" in tile.generate_ir(barrier, "*fp32")


@requires_library
def test_debug_ptx_calls_vprintf_and_assertfail() -> None:
    kernel = make_checks(True)
    ptx = tile.compile(kernel, "*fp32", {"STATEMENT": False}, emit_cubin=False).asm["ptx"]
    assert "call.uni __assertfail" in ptx
    plain = tile.compile(make_checks(False), "*fp32", {"STATEMENT": False},
                         emit_cubin=False).asm["ptx"]
    assert "__assertfail" not in plain
    printed = tile.compile(prints, "*fp32,i32", {"WHAT": "call"}, emit_cubin=False).asm["ptx"]
    assert "vprintf" in printed
