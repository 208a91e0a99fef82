"""`tl.const` pointer parameters (issue 14): reads only; a store or atomic
through one is a located error, and a const and a plain pointer are
different types where a runtime `if`, a ternary or a function's returns
would merge them (Triton's rules and the words its errors begin with)."""
from __future__ import annotations

import pytest

from conftest import verify

import tile
import tile.language as tl
from tile.errors import CompilationError

SIGNATURE = {"src": "*fp32", "dst": "*fp32", "ro": "*fp32", "flag": "i32"}


@tile.jit
def pick(a, b, choose_b):
    if choose_b:
        return b
    return a


@tile.jit
def store_direct(src: tl.const, dst, ro: tl.const, flag, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(ro + offs, tl.load(src + offs))


@tile.jit
def store_ternary(src: tl.const, dst, ro: tl.const, flag, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    target = ro if flag else dst
    tl.store(target + offs, tl.load(src + offs))


@tile.jit
def store_if(src: tl.const, dst, ro: tl.const, flag, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    if flag:
        target = ro
    else:
        target = dst
    tl.store(target + offs, tl.load(src + offs))


@tile.jit
def store_call(src: tl.const, dst, ro: tl.const, flag, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(pick(dst, ro, flag) + offs, tl.load(src + offs))


@tile.jit
def atomic_on_const(src: tl.const, dst, ro: tl.const, flag, BLOCK: tl.constexpr):
    tl.atomic_add(src + tl.arange(0, BLOCK), 1.0)


@pytest.mark.parametrize("kernel, line, message", [
    (store_direct, "tl.store(ro + offs", "Cannot store to a constant pointer: tl.store writes "
     "through *kfp32"),
    (store_ternary, "target = ro if flag else dst", "Ternary expression with dynamic condition "
     "has inconsistent type: *kfp32 and *fp32"),
    (store_if, "if flag:", "Mismatched type for target: 'target' has type *kfp32 in the then "
     "branch and *fp32 in the else branch"),
    (store_call, "if choose_b:", "Return type mismatch: the function returns *fp32 on one "
     "path and *kfp32 on another"),
    (atomic_on_const, "tl.atomic_add(src", "Cannot store to a constant pointer: "
     "tl.atomic_add writes through *kfp32"),
])
def test_writes_through_const_pointers_are_located_errors(kernel, line, message):
    with pytest.raises(CompilationError) as info:
        tile.generate_ir(kernel, SIGNATURE, {"BLOCK": 16})
    error = info.value
    assert message in error.message
    assert error.filename == __file__ and line in (error.source_line or "")


@tile.jit
def copy(src: tl.const, dst, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)


def test_reading_through_const_pointers_compiles():
    # The annotation makes the pointer const whatever the signature says,
    # and "*kfp32" (Triton's spelling) says it too.
    for signature in ("*fp32,*fp32,i32", "*kfp32,*fp32,i32"):
        ir = verify(tile.generate_ir(copy, signature, {"BLOCK": 64}))
        assert "tile.store" in ir


def test_the_compile_time_choice_of_a_const_pointer_is_checked_too():
    # A constexpr flag picks `ro` at compile time: the store is then an error,
    # and picking `dst` is fine.
    @tile.jit
    def pick_static(src: tl.const, dst, ro: tl.const, FLAG: tl.constexpr):
        offs = tl.arange(0, 16)
        tl.store(pick(dst, ro, FLAG) + offs, tl.load(src + offs))

    signature = {"src": "*fp32", "dst": "*fp32", "ro": "*fp32"}
    verify(tile.generate_ir(pick_static, signature, {"FLAG": False}))
    with pytest.raises(CompilationError, match="Cannot store to a constant pointer"):
        tile.generate_ir(pick_static, signature, {"FLAG": True})


def test_const_marks_pointers_only():
    @tile.jit
    def scalar_const(n: tl.const, dst):
        tl.store(dst, n)

    with pytest.raises(CompilationError, match="annotated tl.const, which marks pointers"):
        tile.generate_ir(scalar_const, "i32,*fp32")


def test_pointers_return_from_runtime_control_flow():
    # (Needed for the call above: `pick` returns a pointer from a runtime if.)
    @tile.jit
    def choose(dst, other, flag):
        tl.store(pick(dst, other, flag) + tl.arange(0, 16), 1.0)

    ir = verify(tile.generate_ir(choose, "*fp32,*fp32,i32"))
    assert "scf.if" in ir and "tile.int_to_ptr" in ir


def test_the_interpreter_refuses_stores_through_const_pointers(monkeypatch):
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    monkeypatch.setenv("TILE_INTERPRET", "1")
    x, y = np.arange(64, dtype=np.float32), np.zeros(64, np.float32)
    copy[(1,)](x, y, 64, BLOCK=64)
    assert np.array_equal(x, y)

    @tile.jit
    def write_src(src: tl.const, BLOCK: tl.constexpr):
        tl.store(src + tl.arange(0, BLOCK), 0.0)

    with pytest.raises(CompilationError, match="Cannot store to a constant pointer"):
        write_src[(1,)](x, BLOCK=64)
    assert np.array_equal(x, np.arange(64, dtype=np.float32))
