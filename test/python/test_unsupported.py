"""What of Triton's language tile does not support fails as python/tile/README.md's
"Not supported yet" table says: located errors, compiled and interpreted."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import assert_error_at_case

import tile
import tile.language as tl

THIS_FILE = Path(__file__).resolve()


@tile.jit
def uses(p, WHAT: tl.constexpr):
    x = tl.load(p + tl.arange(0, 4))
    if WHAT == "fp8e4b15":
        x.to(tl.float8e4b15)
    if WHAT == "boundary_check":
        tl.load(p + tl.arange(0, 4), boundary_check=(0,))
    if WHAT == "element":
        tl.store(p, x[0])
    if WHAT == "element_store":
        x[0] = 1.0
    if WHAT == "step":
        for i in range(0, 4, 0):
            tl.store(p + i, 1.0)
    if WHAT == "condition":
        tl.condition(tl.sum(x) > 0, disable_licm=True)
    if WHAT == "asm_pointer":
        tl.inline_asm_elementwise("mov.b64 $0, $1;", "=l,l", [p + tl.arange(0, 4)],
                                  dtype=tl.pointer_type(tl.uint8), is_pure=True, pack=1)
    if WHAT == "atomic_poll":
        tl.atomic_poll(p, 0)
    if WHAT == "cache_and_eviction":
        tl.load(p + tl.arange(0, 4), cache_modifier=".cg", eviction_policy="evict_last")
    if WHAT == "gdc_wait":
        tl.extra.cuda.gdc_wait()
    if WHAT == "slice":
        tl.slice(0, 4, 1)
    if WHAT == "descriptor_min":
        tl.make_tensor_descriptor(p.to(tl.pointer_type(tl.float16)), [8, 8], [8, 1],
                                  [8, 8]).atomic_min([0, 0], tl.zeros([8, 8], tl.float16))


NO_ATTRIBUTE = "AttributeError: module 'tile.language' has no attribute"
CASES = [
    ("fp8e4b15", f"{NO_ATTRIBUTE} 'float8e4b15'"),
    ("boundary_check", "tl.load: boundary_check and padding_option are for block pointers "
                       "(tl.make_block_ptr), not for pointers"),
    ("element", "blocks can only be indexed with `:` and `None`"),
    ("element_store", "only names, tuples of names and tuple elements can be assigned"),
    ("step", "a range step must not be zero"),
    ("condition", f"{NO_ATTRIBUTE} 'condition'"),
    ("atomic_poll", f"{NO_ATTRIBUTE} 'atomic_poll'"),
    ("cache_and_eviction", "tl.load: PTX cannot combine cache_modifier '.cg' with "
                           "eviction_policy 'evict_last'; give one"),
    ("gdc_wait", "AttributeError: module 'tile.language.extra.cuda' has no attribute "
                 "'gdc_wait'"),
    ("slice", f"{NO_ATTRIBUTE} 'slice'"),
    ("asm_pointer", "tl.inline_asm_elementwise takes and gives numbers, not *uint8"),
    ("descriptor_min", "desc.atomic_min does not support fp16 elements, only uint32, int32, "
                       "uint64, int64"),
]


@pytest.mark.parametrize("what, message", CASES, ids=[c[0] for c in CASES])
def test_compiled_error_is_located_at_the_use(what: str, message: str) -> None:
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(uses, "*fp32", {"WHAT": what})
    assert_error_at_case(info.value, THIS_FILE, what, message)


# The step-0 loop is Python's range in the interpreter, which cannot run PTX
# at all (test_inline_asm.py) nor cast pointers to other element types.
INTERPRETED = [c for c in CASES if c[0] not in ("step", "asm_pointer", "descriptor_min")]


@pytest.mark.parametrize("what, message", INTERPRETED, ids=[c[0] for c in INTERPRETED])
def test_interpreted_error_is_located_at_the_use(what: str, message: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    from tile.interpreter import InterpreterError
    monkeypatch.setenv("TILE_INTERPRET", "1")
    with pytest.raises(InterpreterError) as info:
        uses[(1,)](np.zeros(4, np.float32), WHAT=what)
    assert_error_at_case(info.value, THIS_FILE, what, message)


@pytest.mark.parametrize("option", [{"do_not_specialize_on_alignment": ["p"]},
                                    {"launch_metadata": lambda *a: None}])
def test_unsupported_jit_options_fail_at_the_decorator(option: dict) -> None:
    def kernel(p):
        pass
    with pytest.raises(NotImplementedError, match="@tile.jit on .*kernel: .* is not supported yet"):
        tile.jit(**option)(kernel)


@tile.jit(noinline=True)
def not_inlined(x):
    return x + 1


@tile.jit
def calls_not_inlined(p, n):
    assert n > 0  # a runtime assert: not emitted (no debug mode)
    tl.store(p, not_inlined(tl.load(p)))


def test_noinline_is_inlined_and_runtime_asserts_are_not_emitted() -> None:
    ir = tile.generate_ir(calls_not_inlined, "*fp32,i32")
    assert "func.call" not in ir and "addf" in ir
    assert "assert" not in ir.replace("llvm.intr.assume", "")




def test_launch_pdl_is_refused_as_the_table_says(monkeypatch: pytest.MonkeyPatch) -> None:
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    monkeypatch.setenv("TILE_INTERPRET", "1")
    with pytest.raises(Exception, match="got an unexpected keyword argument 'launch_pdl'"):
        uses[(1,)](np.zeros(4, np.float32), WHAT="none", launch_pdl=True)


@pytest.mark.parametrize("module, name", [
    ("tile", "AsyncCompileMode"), ("tile", "FutureKernel"),
    ("tile.runtime", "RemoteCacheBackend"), ("tile.runtime", "RedisRemoteCacheBackend"),
    ("tile.testing", "cuda_memcheck"), ("tile.testing", "set_gpu_clock"),
    ("tile.language.extra.cuda", "convert_custom_float8_sm80")])
def test_host_names_tile_lacks_are_attribute_errors(module: str, name: str) -> None:
    import importlib
    with pytest.raises(AttributeError, match=f"module '{module}' has no attribute '{name}'"):
        getattr(importlib.import_module(module), name)


def test_config_ir_override_is_refused() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'ir_override'"):
        tile.Config({}, ir_override="kernel.ptx")


@tile.jit
def sums(p, WIDE: tl.constexpr):
    x = tl.load(p)
    tl.store(p, tl.add(x, 2147483647, sanitize_overflow=True))


def test_sanitize_overflow_is_accepted_without_an_overflow_check() -> None:
    ir = tile.generate_ir(sums, "*i32", {"WIDE": False}, debug=True)
    assert "arith.addi" in ir and "assert" not in ir
