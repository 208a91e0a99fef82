"""Triton's compile-only API (issue 14): `triton.compile(ASTSource(...),
target=GPUTarget(...), options=...)`, `@jit(repr=...)` kernel names, the
i32/i64/u64 typing of int arguments, and `CompileTimeAssertionFailure`."""
from __future__ import annotations

import pytest

from conftest import requires_library

import tile
import tile.language as tl
from tile.backends.compiler import GPUTarget
from tile.compiler import ASTSource
from tile.compiler.errors import CompilationError, CompileTimeAssertionFailure
from tile.runtime.launch import argument_type


@tile.jit
def offset_copy(a, o, N: tl.constexpr):
    tl.store(o + N, tl.load(a + N))


# Deliberately not in parameter order: the function's order wins.
SIGNATURE = {"N": "constexpr", "o": "*fp32", "a": "*fp32"}


@requires_library
def test_ast_source_compiles_for_a_gpu_target():
    kernel = tile.compile(ASTSource(offset_copy, SIGNATURE, {"N": 32}),
                          target=GPUTarget("cuda", 90, 32), options={"num_warps": 2})
    assert kernel.metadata.target == "sm_90a" and kernel.metadata.num_warps == 2
    assert [p["name"] for p in kernel.metadata.params] == ["a", "o"]
    assert ".target sm_90a" in kernel.asm["ptx"]
    ampere = tile.compile(src=ASTSource(offset_copy, SIGNATURE, {"N": 32}),
                          target=GPUTarget("cuda", 80, 32))
    assert ".target sm_80" in ampere.asm["ptx"]


def test_ast_source_takes_index_paths_and_divisibility_attrs():
    source = ASTSource(offset_copy, SIGNATURE, constexprs={(2,): 4},
                       attrs={(0,): [["tt.divisibility", 16]]})
    assert source.constexprs == {"N": 4}
    ir = tile.generate_ir(source.fn, source.signature, source.constexprs, source.specialization)
    header = next(line for line in ir.splitlines() if "func.func" in line)
    assert "%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}" in header  # a
    assert "%arg1: !tile.ptr<f32> loc" in header  # o: no attribute
    with pytest.raises(ValueError, match="has no parameter"):
        ASTSource(offset_copy, SIGNATURE, {(7,): 1})
    with pytest.raises(ValueError, match="only \\['tt.divisibility', 16\\]"):
        ASTSource(offset_copy, SIGNATURE, {"N": 1}, attrs={(0,): [["tt.equal_to", 1]]})


@pytest.mark.parametrize("target, message", [
    (GPUTarget("cuda", 100, 32), "cannot compile for compute capability 100"),
    (GPUTarget("hip", 90, 64), "not for backend 'hip'"),
])
def test_targets_tile_cannot_compile_for_are_errors(target, message):
    with pytest.raises(ValueError, match=message):
        tile.compile(ASTSource(offset_copy, SIGNATURE, {"N": 1}), target=target)


def test_compile_options_are_checked():
    with pytest.raises(ValueError, match="unknown option 'maxnregs'"):
        tile.compile(ASTSource(offset_copy, SIGNATURE, {"N": 1}), options={"maxnregs": 32})
    with pytest.raises(ValueError, match="maxnreg must be from 1 to 255"):
        tile.compile(ASTSource(offset_copy, SIGNATURE, {"N": 1}), options={"maxnreg": 300})
    with pytest.raises(TypeError, match="the source gives the signature"):
        tile.compile(ASTSource(offset_copy, SIGNATURE, {"N": 1}), "*fp32,*fp32")


def test_a_failed_static_assert_is_a_compile_time_assertion_failure():
    @tile.jit
    def asserts():
        tl.static_assert(1 == 2, "one is not two")

    with pytest.raises(CompileTimeAssertionFailure) as info:
        tile.compile(ASTSource(asserts, {}, {}))
    assert isinstance(info.value, CompilationError)
    assert "static_assert failed: one is not two" in info.value.message
    assert info.value.line == asserts.fn.__code__.co_firstlineno + 2


def name_by_specialization(specialization) -> str:
    ty = specialization.signature["value"]
    ones = "_".join(k for k, v in specialization.constants.items() if v == 1)
    return f"kernel_{ty}_{ones}"


@tile.jit(repr=name_by_specialization)
def named(value, is_one, out):
    tl.store(out, value.to(tl.float32))


class FakeTensor:
    dtype = "float32"

    def data_ptr(self) -> int:
        return 1 << 20


@requires_library
@pytest.mark.parametrize("value, ty", [(-1, "i32"), (2**31, "i64"), (2**63, "u64"),
                                       (2**64 - 1, "u64")])
def test_repr_names_the_kernel(value, ty):
    kernel = named.warmup(value, 1, FakeTensor(), grid=(1,))
    assert kernel.name == f"kernel_{ty}_is_one"
    assert f".entry kernel_{ty}_is_one(" in kernel.asm["ptx"]


def test_repr_must_give_a_symbol():
    @tile.jit(repr=lambda specialization: "2fast")
    def badly_named(out):
        pass

    with pytest.raises(CompilationError, match="repr= of badly_named gave '2fast'"):
        tile.generate_ir(badly_named, "*fp32")
    with pytest.raises(TypeError, match="repr must be a function"):
        tile.jit(repr="name")(badly_named.fn)


@pytest.mark.parametrize("value, ty", [(2**31 - 1, "i32"), (-2**31, "i32"), (-2**63, "i64"),
                                       (2**63 - 1, "i64"), (2**63, "u64"), (2**64 - 1, "u64")])
def test_int_arguments_take_the_narrowest_type(value, ty):
    assert argument_type(value) == ty


@pytest.mark.parametrize("value", [2**64, -2**63 - 1])
def test_ints_beyond_64_bits_overflow(value):
    with pytest.raises(OverflowError, match="fits in none of i32, i64 and u64"):
        argument_type(value)


@requires_library
def test_warmup_takes_dtypes_for_pointers_and_device_caches_clear():
    kernel = offset_copy.warmup(tl.float32, tl.float32, N=8, grid=(1,))
    assert kernel.metadata.signature == {"a": "*fp32", "o": "*fp32"}
    # A dtype stands for a tensor at address 0: 16-byte aligned.
    assert kernel.metadata.specialization["divisible_by_16"] == ["a", "o"]
    assert offset_copy._compiled
    offset_copy.device_caches.clear()
    assert not offset_copy._compiled
    torch = pytest.importorskip("torch", reason="torch dtypes need torch")
    kernel = offset_copy.warmup(torch.float16, torch.float16, N=8, grid=(1,))
    assert kernel.metadata.signature == {"a": "*fp16", "o": "*fp16"}


def test_a_kernel_copies_and_pickles_as_a_function():
    """copy and deepcopy give the kernel itself (a module holding it can be
    deep-copied), pickle saves it by name; a local one cannot be pickled."""
    import copy
    import pickle
    assert copy.copy(offset_copy) is offset_copy
    assert copy.deepcopy({"kernel": offset_copy})["kernel"] is offset_copy
    assert pickle.loads(pickle.dumps(offset_copy)) is offset_copy

    @tile.jit
    def local(a):
        pass

    with pytest.raises((pickle.PicklingError, AttributeError)):
        pickle.dumps(local)
