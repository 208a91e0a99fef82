"""Calls and tuples (issue 14, item 7): tuple arguments and returns, tuple
elements assigned, tuples carried by loops and branches, comprehensions,
nested @jit calls with constexpr and default arguments, Triton's jit options."""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from conftest import check_order, requires_library, verify

import tile
import tile.language as tl


def ir_of(kernel, signature, constexprs=None) -> str:
    ir = tile.generate_ir(kernel, signature, constexprs or {})
    verify(ir)
    return ir


@tile.jit
def min_max(x):
    return tl.min(x, axis=0), tl.max(x, axis=0)


@tile.jit
def store_pair(ptrs, values):
    p0, p1 = ptrs
    tl.store(p0, values[0])
    tl.store(p1, values[1])


@tile.jit
def tuple_calls(x_ptr, lo_ptr, hi_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    pair = min_max(x)
    store_pair((lo_ptr, hi_ptr), pair)


def test_tuple_arguments_and_returns():
    ir = ir_of(tuple_calls, "*fp32,*fp32,*fp32")
    check_order(ir, "tile.reduce min", "tile.reduce max", "tile.store %arg1", "tile.store %arg2")


@tile.jit
def increment_all(values):
    for i in tl.static_range(len(values)):
        values[i] = values[i] + 1
    return values


@tile.jit
def tuple_elements(out_ptr, a, b):
    values = increment_all((a, b, 3))
    values[2] += 10
    tl.store(out_ptr, values[0] + values[1] + values[2])


def test_tuple_elements_can_be_assigned():
    ir = ir_of(tuple_elements, "*i32,i32,i32")
    # 3 + 1 + 10 is folded at compile time; a + 1 and b + 1 are runtime.
    check_order(ir, "arith.addi %arg1", "arith.addi %arg2", "arith.constant 14 : i32")


@tile.jit
def tuple_in_loop(x_ptr, out_ptr, n):
    state = (0.0, tl.zeros((8,), dtype=tl.float32))
    for i in range(0, n):
        total, row = state
        row = row + tl.load(x_ptr + i * 8 + tl.arange(0, 8))
        state = (total + tl.sum(row, axis=0), row)
    if n > 4:
        state = (state[0] * 2.0, state[1])
    tl.store(out_ptr, state[0])
    tl.store(out_ptr + 1 + tl.arange(0, 8), state[1])


def test_tuples_are_carried_element_by_element():
    ir = ir_of(tuple_in_loop, "*fp32,*fp32,i32")
    check_order(ir, "scf.for", "-> (f32, !tile.block<8xf32>) : i32", "tile.reduce sum",
                "scf.yield", "scf.if", "-> (f32)", "arith.mulf")


class Pair(NamedTuple):
    value: object
    index: object


@tile.jit
def arg_max(x):
    best = tl.max(x, axis=0)
    return Pair(best, tl.argmax(x, axis=0))


@tile.jit
def named_tuples(x_ptr, v_ptr, i_ptr):
    result = arg_max(tl.load(x_ptr + tl.arange(0, 32)))
    tl.store(v_ptr, result.value)
    tl.store(i_ptr, result.index)


def test_named_tuples_keep_their_fields():
    ir = ir_of(named_tuples, "*fp32,*fp32,*i32")
    check_order(ir, "tile.reduce max", "tile.store %arg1", "tile.store %arg2")


@tile.jit
def comprehensions(x_ptr, out_ptr, N: tl.constexpr):
    rows = tl.tuple([tl.load(x_ptr + i * 4 + tl.arange(0, 4)) for i in tl.static_range(N)])
    doubled = tuple(r * 2.0 for r in rows if True)
    total = doubled[0]
    for k in tl.static_range(1, len(doubled)):
        total += doubled[k]
    tl.store(out_ptr + tl.arange(0, 4), total)


def test_comprehensions_over_compile_time_iterables():
    ir = ir_of(comprehensions, "*fp32,*fp32", {"N": 3})
    assert ir.count("tile.load") == 3 and ir.count("tile.mulf") == 3
    assert ir.count("tile.addf") == 2


@tile.jit
def over_a_block(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4))
    y = [v for v in x]  # ERR-comp
    tl.store(x_ptr, y[0])


def test_a_comprehension_over_a_runtime_value_is_an_error():
    from conftest import assert_error_at
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(over_a_block, "*fp32")
    assert_error_at(info.value, Path(__file__).resolve(), "ERR-comp", "[v for v in x]")
    assert "iterates over a tuple, a list or a range of constants" in info.value.message


@tile.jit
def tuple_params(ptrs, scales, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for i in tl.static_range(len(ptrs)):
        tl.store(ptrs[i] + offs, tl.load(ptrs[i] + offs, mask=offs < n) * scales[i],
                 mask=offs < n)


def test_tuple_kernel_parameters_are_flattened():
    for signature in ("(*fp32,*fp32),(fp32,fp32),i32",
                      {"ptrs": ("*fp32", "*fp32"), "scales": "(fp32, fp32)", "n": "i32"}):
        ir = ir_of(tuple_params, signature, {"BLOCK": 64})
        assert 'loc("ptrs[0]"(' in ir and 'loc("ptrs[1]"(' in ir and 'loc("scales[1]"(' in ir
        assert "%arg4: i32" in ir and "%arg5" not in ir
        check_order(ir, "tile.splat %arg0", "tile.mulf", "tile.splat %arg1", "tile.mulf")
    spec = tile.Specialization(divisible_by_16=frozenset({"ptrs[1]"}))
    ir = tile.generate_ir(tuple_params, "(*fp32,*fp32),(fp32,fp32),i32", {"BLOCK": 64}, spec)
    assert "%arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}" in ir
    assert "%arg0: !tile.ptr<f32> loc" in ir


@requires_library
def test_tuple_kernel_parameters_compile():
    compiled = tile.compile(tuple_params, "(*fp32,*fp32),(fp32,fp32),i32", {"BLOCK": 64},
                            target="sm_90")
    assert compiled.asm["ptx"].count(".param .u64") == 2
    assert [p["name"] for p in compiled.metadata["params"]][:2] == ["ptrs[0]", "ptrs[1]"]


@tile.jit
def scale(x, FACTOR: tl.constexpr = 2, bias=0.0):
    return x * FACTOR + bias


@tile.jit
def apply(x, FN: tl.constexpr, **_unused):
    return FN(x)


@tile.jit
def twice_scaled(x, FACTOR: tl.constexpr):
    return scale(scale(x, FACTOR), FACTOR=FACTOR, bias=1.0)


@tile.jit
def nested_calls(x_ptr, out_ptr, FACTOR: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    y = twice_scaled(x, FACTOR) + scale(x) + apply(x, scale)
    tl.store(out_ptr + tl.arange(0, 8), y)


def test_nested_calls_with_constexpr_and_default_arguments():
    ir = ir_of(nested_calls, "*fp32,*fp32", {"FACTOR": 3})
    # 3 and 3 (FACTOR), then the default 2 twice (scale(x), apply(x, scale)).
    assert ir.count("arith.constant 3.0 : f32") == 2 and ir.count("arith.constant 2.0 : f32") == 2
    assert ir.count("tile.mulf") == 4 and "arith.constant 1.0 : f32" in ir


@tl.constexpr_function
def block_for(n):
    return 1 << (n - 1).bit_length()


@tile.jit
def uses_constexpr_function(x_ptr, N: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, block_for(N)), 1.0)


def test_constexpr_functions_run_at_compile_time():
    assert "tile.arange 0, 64" in ir_of(uses_constexpr_function, "*fp32", {"N": 40})
    assert tile.constexpr_function is tl.constexpr_function  # triton.constexpr_function too


def test_do_not_specialize_takes_names_and_positions():
    def kernel(x_ptr, n, m):
        pass
    kernel.__module__ = __name__
    assert tile.jit(do_not_specialize=[1, "m"])(kernel).do_not_specialize == {"n", "m"}
    with pytest.raises(ValueError, match="has no parameter 'k'"):
        tile.jit(do_not_specialize=["k"])(kernel)
    with pytest.raises(ValueError, match="has no parameter 3"):
        tile.jit(do_not_specialize=[3])(kernel)


@pytest.mark.parametrize("option", [{"do_not_specialize_on_alignment": ["n"]},
                                    {"launch_metadata": lambda *_: {}}])
def test_unsupported_jit_options_are_refused(option):
    def kernel(x_ptr, n):
        pass
    with pytest.raises(NotImplementedError, match="is not supported yet"):
        tile.jit(**option)(kernel)
    with pytest.raises(TypeError):
        tile.jit(no_such_option=1)(kernel)


@tile.jit(noinline=True)
def not_inlined(x):
    return x + 1.0


@tile.jit
def calls_noinline(x_ptr):
    tl.store(x_ptr, not_inlined(tl.load(x_ptr)))


def test_noinline_is_accepted_and_the_call_inlined():
    # Documented in python/tile/README.md: calls are always inlined.
    assert not_inlined.noinline
    ir = ir_of(calls_noinline, "*fp32")
    assert "func.call" not in ir and "arith.addf" in ir


@tile.jit
def _scaled_rows(x, offs: tl.constexpr, SCALE: tl.constexpr):
    return x * SCALE + offs  # offs is a block: the annotation does not make it a constant


@tile.jit
def constexpr_annotated_callee(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, _scaled_rows(tl.load(x_ptr + offs), offs, 2.0))


def test_callee_constexpr_annotations_take_runtime_values():
    # As Triton's (tutorial 06's _attn_fwd_inner takes `offs_m: tl.constexpr`).
    ir = ir_of(constexpr_annotated_callee, "*fp32,*fp32", {"BLOCK": 16})
    check_order(ir, "tile.arange", "tile.load", "tile.mulf", "tile.cast", "tile.addf")


@tile.jit
def patched_template(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, GENERATE_TEST_HERE)


def test_src_and_unsafe_update_src_patch_a_kernel_as_triton_tests_do():
    # Triton's test_core.py makes kernels from templates this way.
    kernel = tile.JITFunction(patched_template.fn)
    assert kernel.src.startswith("def patched_template(x_ptr, BLOCK: tl.constexpr):")
    kernel._unsafe_update_src(kernel.src.replace("GENERATE_TEST_HERE",
                                                 "tl.load(x_ptr + offs) * 3"))
    ir = tile.generate_ir(kernel, "*fp32", {"BLOCK": 16})
    assert "tile.mulf" in ir
    # Locations still point into this file, at the template's lines.
    line = next(i for i, text in enumerate(Path(__file__).read_text().splitlines(), 1)
                if "tl.store(x_ptr + offs, GENERATE_TEST_HERE)" in text)
    assert f'"{Path(__file__).resolve()}":{line}:' in ir


@tile.jit
def tuple_with_compile_time_elements(ptrs, values):
    x0, x1, unused = values
    tl.static_assert(unused is None)
    fn, = ptrs[2]
    tl.store(ptrs[0], fn(x0))
    tl.store(ptrs[1], x1)


def test_compile_time_elements_of_tuple_arguments_are_constexprs():
    from tile.runtime.launch import argument_type, compile_time_elements, kernel_arguments
    value = (2.0, 3.0, None)
    ptrs = ("p0", "p1", (twice_scaled,))
    # None, tl.constexpr and @jit elements are "constexpr" in the signature,
    # values of the compile by their element names, and no kernel parameters.
    assert argument_type(value) == "(fp32,fp32,constexpr)"
    assert argument_type((1, (tl.constexpr(2),))) == "(i32,constexpr)"
    assert compile_time_elements("v", value) == {"v[2]": None}
    assert compile_time_elements("p", ((1, twice_scaled), tl.constexpr(4))) == \
        {"p[0][1]": twice_scaled, "p[1]": 4}
    assert [n for n, _ in kernel_arguments("v", value)] == ["v[0]", "v[1]"]
    # A NamedTuple's class is a constexpr too, so its fields have names in the kernel.
    assert compile_time_elements("p", Pair(1.5, None)) == {"p.__class__": Pair, "p[1]": None}
    assert [n for n, _ in kernel_arguments("p", ptrs)] == ["p[0]", "p[1]"]
    ir = verify(tile.generate_ir(
        tuple_with_compile_time_elements, "(*fp32,*fp32,(constexpr)),(fp32,fp32,constexpr)",
        {"ptrs[2][0]": scale, "values[2]": None}))
    assert "%arg3: f32" in ir and "%arg4" not in ir  # two pointers, two floats
    assert ir.count("tile.store") == 2 and "arith.mulf" in ir


def test_a_constexpr_tuple_element_needs_a_value():
    with pytest.raises(tile.CompilationError, match=r"tuple element 'values\[2\]' is a "
                                                    r"constexpr in the signature but has no value"):
        tile.generate_ir(tuple_with_compile_time_elements,
                         "(*fp32,*fp32,(constexpr)),(fp32,fp32,constexpr)",
                         {"ptrs[2][0]": scale})
