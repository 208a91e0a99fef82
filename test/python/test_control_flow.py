"""Python control flow -> scf (if/for/while), constexpr resolution, calls."""
from __future__ import annotations

import pytest

from conftest import check_order, verify

import tile
import tile.language as tl
from kernels import helpers


def ir_of(kernel, signature, constexprs=None) -> str:
    ir = tile.generate_ir(kernel, signature, constexprs or {})
    verify(ir)
    return ir


@tile.jit
def runtime_if(x_ptr, n):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    y = 0.0
    if n > 4:
        x = x * 2.0
        y = 1.5
    else:
        x = x + 1.0
    tl.store(x_ptr + offs, x + y)


def test_if_else_with_results():
    ir = ir_of(runtime_if, "*fp32,i32")
    check_order(ir, "arith.cmpi sgt", "scf.if %", "-> (!tile.block<16xf32>, f32) {",
                "tile.mulf", "scf.yield", "} else {", "tile.addf", "scf.yield", "}")
    assert ":2 = scf.if" in ir  # x and y both flow out of the if


@tile.jit
def if_without_else(x_ptr, n):
    if n == 0:
        tl.store(x_ptr, 1.0)


def test_if_without_results():
    ir = ir_of(if_without_else, "*fp32,i32")
    check_order(ir, "scf.if %", "{", "tile.store", "scf.yield", "} else {", "scf.yield")


@tile.jit
def constexpr_if(x_ptr, MODE: tl.constexpr):
    if MODE == "double":
        tl.store(x_ptr, 2.0)
    elif MODE == "triple":
        tl.store(x_ptr, 3.0)
    else:
        tl.store(x_ptr, 4.0)


def test_constexpr_if_is_resolved():
    ir = ir_of(constexpr_if, "*fp32", {"MODE": "triple"})
    assert "scf.if" not in ir
    assert "3.0 : f32" in ir and "2.0 : f32" not in ir and "4.0 : f32" not in ir


@tile.jit
def for_loop(x_ptr, out_ptr, n, stride):
    acc = tl.zeros((32,), dtype=tl.float32)
    count = 0
    p = x_ptr + tl.arange(0, 32)
    for i in range(1, n, 2):
        acc += tl.load(p)
        p += stride
        count += i
    tl.store(out_ptr + tl.arange(0, 32), acc + count)


def test_for_with_loop_carried_values():
    ir = ir_of(for_loop, "*fp32,*fp32,i32,i32")
    check_order(ir, "arith.constant 1 : i32", "arith.constant 2 : i32", "scf.for %",
                " = %", " to %arg2 step %", "iter_args(",
                "-> (!tile.block<32xf32>, i32, !tile.block<32x!tile.ptr<f32>>) : i32 {",
                "tile.load", "tile.addptr", "arith.addi", "scf.yield")


@tile.jit
def tl_range_loop(x_ptr, n):
    s = 0.0
    for i in tl.range(0, n, num_stages=3):
        s += tl.load(x_ptr + i)
    tl.store(x_ptr, s)


def test_tl_range_and_scalar_accumulator():
    ir = ir_of(tl_range_loop, "*fp32,i32")
    check_order(ir, "scf.for", "iter_args(", "-> (f32) : i32", "arith.addf", "scf.yield")


@tile.jit
def i64_bounds(x_ptr, n):
    for i in range(0, n):
        tl.store(x_ptr + i, 1.0)


def test_i64_bounds_give_i64_induction_variable():
    ir = ir_of(i64_bounds, "*fp32,i64")
    assert "arith.extsi" in ir and ": i64 {" in ir


@tile.jit
def while_loop(x_ptr, n):
    i = 0
    total = 0.0
    while i < n:
        total += tl.load(x_ptr + i)
        i += 1
    tl.store(x_ptr, total)


def test_while_loop():
    ir = ir_of(while_loop, "*fp32,i32")
    check_order(ir, "scf.while (", ") : (i32, f32) -> (i32, f32) {", "arith.cmpi slt",
                "scf.condition(", "} do {", "^bb0(", "tile.load", "scf.yield")


@tile.jit
def static_unroll(x_ptr, N: tl.constexpr):
    acc = 0.0
    for i in tl.static_range(N):
        acc += tl.load(x_ptr + i)
    for j in tl.static_range(2, 8, 3):
        acc += j
    tl.store(x_ptr, acc)


def test_static_range_is_unrolled():
    ir = ir_of(static_unroll, "*fp32", {"N": 3})
    assert "scf.for" not in ir
    assert ir.count("tile.load") == 3
    # j = 2 and 5 are folded into the f32 additions as literals
    assert "2.0 : f32" in ir and "5.0 : f32" in ir


@tile.jit
def nested(x_ptr, n, m):
    acc = tl.zeros((8,), dtype=tl.float32)
    for i in range(0, n):
        for j in range(0, m):
            if i < j:
                acc += 1.0
            else:
                acc -= 1.0
    tl.store(x_ptr + tl.arange(0, 8), acc)


def test_nested_loops_and_ifs():
    ir = ir_of(nested, "*fp32,i32,i32")
    check_order(ir, "scf.for", "scf.for", "scf.if", "scf.yield", "} else {", "scf.yield",
                "scf.yield", "scf.yield")


@tile.jit
def calls(x_ptr, KIND: tl.constexpr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    y = helpers.scaled(x, 3.0)
    y = helpers.activation(y, KIND)
    y = helpers.activation(y, KIND="none")
    tl.store(x_ptr + offs, y)


def test_calls_are_inlined_with_callsite_locations():
    ir = ir_of(calls, "*fp32", {"KIND": "relu"})
    assert "func.call" not in ir
    assert "tile.mulf" in ir and "tile.maxnumf" in ir
    assert "loc(callsite(" in ir and "helpers.py" in ir and "test_control_flow.py" in ir


@tile.jit
def ternary(x_ptr, n, FLAG: tl.constexpr):
    offs = tl.arange(0, 16)
    v = 1.0 if FLAG else 2.0
    w = tl.where(offs < n, v, 0.0)
    s = 3.0 if n > 2 else 4.0
    tl.store(x_ptr + offs, w + s)


def test_conditional_expressions():
    ir = ir_of(ternary, "*fp32,i32", {"FLAG": True})
    assert "1.0 : f32" in ir and "2.0 : f32" not in ir
    assert "arith.select" in ir


@tile.jit
def bool_ops(x_ptr, a, b):
    if (a > 0 and b > 0) or not (a == b):
        tl.store(x_ptr, 1.0)


def test_scalar_boolean_operators():
    ir = ir_of(bool_ops, "*fp32,i32,i32")
    check_order(ir, "arith.andi", "arith.cmpi eq", "arith.xori", "arith.ori", "scf.if")


@tile.jit
def equal_to_one(x_ptr, stride, n):
    tl.store(x_ptr + tl.arange(0, 16) * stride, 1.0, mask=tl.arange(0, 16) < n)


def test_specialization_in_ir():
    spec = tile.Specialization(divisible_by_16=frozenset({"x_ptr", "n"}),
                               equal_to_1=frozenset({"stride"}))
    ir = tile.generate_ir(equal_to_one, "*fp32,i32,i32", {}, spec)
    verify(ir)
    assert "%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}" in ir
    assert "%arg2: i32 {tile.divisibility = 16 : i32}" in ir
    assert "%arg1: i32 loc(" in ir and "%arg1," not in ir  # stride == 1 is a constant
    assert 'loc("stride"(' in ir  # the parameter is still named


def test_locations_point_into_the_user_file():
    ir = ir_of(runtime_if, "*fp32,i32")
    line = runtime_if.fn.__code__.co_firstlineno
    assert f'test_control_flow.py":{line + 3}:' in ir  # x = tl.load(...)
    ops = [l for l in ir.splitlines() if l.strip().startswith(("%", "tile.", "scf.", "}"))
           and not l.rstrip().endswith("{") and l.strip() not in ("}", "} else {")]
    assert ops and all("loc(" in l for l in ops)


@tile.jit
def optional_mask(x_ptr, n, mask_ptr=None):
    offs = tl.arange(0, 8)
    mask = offs < n
    if mask_ptr is not None:
        mask = mask & (tl.load(mask_ptr + offs) != 0)
    tl.store(x_ptr + offs, 1.0, mask=mask)


def test_is_none_checks_are_compile_time():
    with_mask = ir_of(optional_mask, "*fp32,i32,*i8")
    without = ir_of(optional_mask, "*fp32,i32", {"mask_ptr": None})
    assert with_mask.count("tile.load") == 1 and "tile.load" not in without


@tile.jit
def side_effect_while(x_ptr, n):
    while tl.load(x_ptr) < n:
        tl.store(x_ptr, tl.load(x_ptr) + 1.0)


def test_while_without_carried_values():
    ir = ir_of(side_effect_while, "*fp32,i32")
    check_order(ir, "scf.while : () -> () {", "tile.load", "scf.condition(", "} do {",
                "tile.store", "scf.yield")


@tile.jit
def early_exit(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if tl.sum(x, axis=0) < 0.0:
        tl.store(x_ptr + offs, -x, mask=offs < n)
        return
    x = x.to(tl.float16).to(tl.float32)  # a different value on this path only
    tl.store(x_ptr + offs, x * 2.0, mask=offs < n)


def test_early_return_guards_become_if_else():
    ir = ir_of(early_exit, "*fp32,i32", {"BLOCK": 32})
    check_order(ir, "arith.cmpi sge", "scf.if", "scf.yield", "} else {", "tile.load",
                "tile.reduce sum", "scf.if", "tile.negf", "tile.store", "} else {",
                "tile.mulf", "tile.store", "scf.yield", "}", "scf.yield", "}", "return")
    assert "-> (" not in ir  # nothing flows out of a guard


@tile.jit
def return_in_loop(x_ptr, n):
    for i in range(0, n):
        if i > 3:
            return
        tl.store(x_ptr + i, 1.0)


def test_return_inside_a_loop_ends_the_loop_and_the_kernel():
    ir = ir_of(return_in_loop, "*fp32,i32")
    # The loop becomes an scf.while on a counter that stops once the return
    # flag is set; the store after the `if` runs only where it is not.
    check_order(ir, "arith.constant false", "scf.while (", "scf.if %", "arith.constant false",
                "} else {", "arith.cmpi slt", "scf.condition(", "} do {", "arith.cmpi sgt",
                "scf.if", "arith.constant true", "arith.xori", "scf.if", "tile.store",
                "arith.addi", "scf.yield")


@tile.jit
def find_first(x_ptr, out_ptr, n, target):
    found = -1
    for i in range(0, n):
        if tl.load(x_ptr + i) == target:
            found = i
            break
    tl.store(out_ptr, found)


def test_break_ends_the_loop():
    ir = ir_of(find_first, "*fp32,*i32,i32,fp32")
    # scf.while (found, broken, counter): the condition is false once broken
    # (the bound is not even compared then).
    check_order(ir, "arith.constant -1 : i32", "arith.constant false", "scf.while (",
                ") : (i32, i1, i32) -> (i32, i1, i32) {", "scf.if %", "-> (i1)",
                "arith.constant false", "} else {", "arith.cmpi slt", "scf.condition(",
                "} do {", "tile.load", "arith.cmpf oeq", "scf.if", "arith.constant true",
                "scf.yield", "arith.addi", "scf.yield")
    assert "scf.for" not in ir


@tile.jit
def skip_odd(x_ptr, out_ptr, n):
    acc = 0.0
    for i in range(0, n):
        if i % 2 == 1:
            continue
        acc += tl.load(x_ptr + i)
    tl.store(out_ptr, acc)


def test_continue_skips_the_rest_of_the_iteration():
    ir = ir_of(skip_odd, "*fp32,*fp32,i32")
    # A loop with only `continue` stays an scf.for; the rest of the body is
    # guarded by the flag.
    check_order(ir, "scf.for", "arith.remsi", "arith.cmpi eq", "scf.if", "arith.constant true",
                "} else {", "arith.constant false", "arith.xori", "scf.if", "tile.load",
                "arith.addf", "scf.yield", "} else {", "scf.yield", "scf.yield")
    assert "scf.while" not in ir


@tile.jit
def first_negative(x_ptr, n):
    i = 0
    while i < n:
        if tl.load(x_ptr + i) < 0.0:
            return i
        i += 1
    return -1


@tile.jit
def calls_first_negative(x_ptr, out_ptr, n):
    tl.store(out_ptr, first_negative(x_ptr, n))


def test_return_with_a_value_from_inside_a_loop():
    ir = ir_of(calls_first_negative, "*fp32,*i32,i32")
    # The while condition checks the return flag first; the return value is
    # carried; `return -1` after the loop applies only where none was taken.
    check_order(ir, "scf.while (", ") : (i1, i32, i32)", "scf.if %", "scf.condition(",
                "} do {", "arith.cmpf olt", "scf.if", "arith.constant true", "scf.yield",
                "arith.xori", "scf.if", "arith.addi", "scf.yield", "arith.xori", "scf.if",
                "arith.constant -1 : i32", "tile.store %arg1, %")


@tile.jit
def magnitude(x):
    if x > 0:
        return x
    return -x


@tile.jit
def calls_magnitude(x_ptr, out_ptr):
    tl.store(out_ptr, magnitude(tl.load(x_ptr)))


def test_returns_in_runtime_branches_of_a_device_function():
    ir = ir_of(calls_magnitude, "*fp32,*fp32")
    check_order(ir, "tile.load", "arith.cmpf ogt", "scf.if", "-> (i1, f32)", "scf.yield",
                "} else {", "arith.constant 0.0 : f32", "scf.yield", "arith.xori", "scf.if",
                "arith.negf", "tile.store %arg1")


@tile.jit
def sometimes_returns(x):
    if x > 0:
        return x  # a path that falls off the end returns nothing


@tile.jit
def calls_sometimes(x_ptr):
    tl.store(x_ptr, sometimes_returns(tl.load(x_ptr)))  # ERR-some-paths


def test_a_value_on_some_paths_only_is_an_error():
    import pytest
    from pathlib import Path
    from conftest import assert_error_at
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(calls_sometimes, "*fp32")
    assert_error_at(info.value, Path(__file__).resolve(), "ERR-some-paths", "sometimes_returns")
    assert "returns a value on some paths" in info.value.message


@tile.jit
def static_break(x_ptr, n, LIMIT: tl.constexpr):
    for i in tl.static_range(8):
        if i == LIMIT:
            break
        tl.store(x_ptr + i, 1.0)
    for j in tl.static_range(4):
        if tl.load(x_ptr + j) > n:
            break
        tl.store(x_ptr + j, 2.0)


def test_break_in_static_range():
    ir = ir_of(static_break, "*fp32,i32", {"LIMIT": 3})
    # A compile-time break stops the unrolling: 3 stores of 1.0; a runtime one
    # guards the iterations after it, nested: 4 stores of 2.0.
    assert ir.count("tile.store") == 3 + 4
    assert ir.count("scf.if") >= 2 * 4 - 1
    assert "scf.while" not in ir and "scf.for" not in ir


@tile.jit
def while_break(x_ptr, n):
    i = 0
    while tl.load(x_ptr + i) > 0.0:
        i += 1
        if i >= n:
            break
    tl.store(x_ptr, i.to(tl.float32))


def test_break_in_while_does_not_evaluate_the_condition_again():
    ir = ir_of(while_break, "*fp32,i32")
    # The load of the condition is inside the `else` of the broken check.
    check_order(ir, "scf.while", "scf.if %", "arith.constant false", "} else {",
                "tile.load", "arith.cmpf ogt", "scf.yield", "scf.condition(")


@tile.jit
def static_print_and_assert(x_ptr, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK % 16 == 0, "BLOCK must be a multiple of 16")
    tl.static_print("BLOCK is", BLOCK)
    tl.store(x_ptr, 1.0)


def test_static_print_prints_at_compile_time(capsys):
    ir_of(static_print_and_assert, "*fp32", {"BLOCK": 32})
    assert capsys.readouterr().out == "BLOCK is 32\n"


def test_early_exits_compile_to_ptx():
    import pytest
    from conftest import requires_library  # noqa: F401
    from tile.compiler import capi
    if not capi.available():
        pytest.skip(f"compile library not built ({capi.library_path()})")
    for kernel, signature, constexprs in [
            (return_in_loop, "*fp32,i32", {}), (find_first, "*fp32,*i32,i32,fp32", {}),
            (skip_odd, "*fp32,*fp32,i32", {}), (calls_first_negative, "*fp32,*i32,i32", {}),
            (calls_magnitude, "*fp32,*fp32", {}), (static_break, "*fp32,i32", {"LIMIT": 3}),
            (while_break, "*fp32,i32", {})]:
        compiled = tile.compile(kernel, signature, constexprs, target="sm_90", emit_cubin=False)
        assert f".entry {kernel.__name__}" in compiled.asm["ptx"]


def test_a_condition_of_several_elements_is_a_located_error() -> None:
    @tile.jit
    def k(x_ptr):
        c = tl.load(x_ptr + tl.arange(0, 2)) > 0
        if c:
            tl.store(x_ptr, 1)

    with pytest.raises(tile.CompilationError, match=r"an if condition must be a scalar, got a "
                                                    r"block of shape \[2\]; use tl.where"):
        tile.generate_ir(k, "*i32")


@tile.jit
def store_if_int_pointer(x):
    # Triton's test_short_circuiting: isinstance and hasattr of a parameter
    # are compile-time facts, and `and` stops before the load of a non-pointer.
    if (x is not None) and hasattr(x, "dtype") and isinstance(
            x.dtype, tl.pointer_type) and (x.dtype.element_ty == tl.int32) and (tl.load(x) > 42):
        tl.store(x, 42)


@pytest.mark.parametrize("signature, stores", [("*i32", True), ("*fp32", False),
                                               ("*i64", False), ("i32", False)])
def test_hasattr_and_isinstance_of_parameters(signature: str, stores: bool) -> None:
    ir = verify(tile.generate_ir(store_if_int_pointer, signature))
    assert ("tile.store" in ir) == stores
    assert ("tile.load" in ir) == stores


@tile.jit
def while_true_break(x_ptr, n, ONE: tl.constexpr):
    i = 0
    if ONE:
        while 1:
            i += 1
            if i >= n:
                break
    else:
        while True:
            i += 2
            if tl.load(x_ptr + i) < 0.0:
                tl.store(x_ptr, i.to(tl.float32))
                return
    tl.store(x_ptr, i.to(tl.float32))


@pytest.mark.parametrize("one", [True, False])
def test_while_true_runs_until_a_break_or_return(one: bool) -> None:
    ir = ir_of(while_true_break, "*fp32,i32", {"ONE": one})
    # The condition is "no exit taken yet": the constant true is the else branch.
    check_order(ir, "scf.while", "scf.if %", "arith.constant false", "} else {",
                "arith.constant true", "scf.condition(")
    from tile.compiler import capi
    if capi.available():
        compiled = tile.compile(while_true_break, "*fp32,i32", {"ONE": one}, target="sm_90",
                                emit_cubin=False)
        assert ".entry while_true_break" in compiled.asm["ptx"]


@tile.jit
def endless_while(x_ptr, n, WHAT: tl.constexpr):
    i = 0
    if WHAT == "true":
        while True:
            i += 1
    if WHAT == "false":
        while False:
            i += 1
    if WHAT == "nested_break":  # the break ends the inner loop, not this one
        while True:
            for j in range(n):
                break
    tl.store(x_ptr, i.to(tl.float32))


@pytest.mark.parametrize("what, message", [
    ("true", "this while condition is true at compile time and the loop has no `break` or "
             "`return`: it would never end"),
    ("false", "this while condition is false at compile time: the loop would never run"),
    ("nested_break", "has no `break` or `return`: it would never end")])
def test_while_on_a_compile_time_condition_is_a_located_error(what: str, message: str) -> None:
    from pathlib import Path
    from conftest import assert_error_at_case
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(endless_while, "*fp32,i32", {"WHAT": what})
    assert_error_at_case(info.value, Path(__file__).resolve(), what, message)
