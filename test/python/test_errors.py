"""User errors become tile.CompilationError naming file:line:col with a caret."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import requires_library

import tile
import tile.language as tl
from kernels import helpers
from tile.compiler import capi
from tile.errors import error_from_diagnostics

THIS_FILE = Path(__file__).resolve()


def line_of(marker: str) -> int:
    for number, line in enumerate(THIS_FILE.read_text().splitlines(), 1):
        if line.rstrip().endswith(f"# {marker}"):
            return number
    raise AssertionError(marker)


def compile_error(kernel, signature, constexprs=None) -> tile.CompilationError:
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(kernel, signature, constexprs or {})
    error = info.value
    # No compiler internals in the chain: the error stands for the user's code.
    assert error.__cause__ is None and error.__suppress_context__
    return error


def assert_located(error: tile.CompilationError, marker: str, snippet: str) -> None:
    line = line_of(marker)
    text = str(error)
    assert error.filename == str(THIS_FILE)
    assert error.line == line
    source_line = THIS_FILE.read_text().splitlines()[line - 1]
    assert error.col == source_line.index(snippet) + 1
    first, shown, caret = text.splitlines()[:3]
    assert first.startswith(f"{THIS_FILE}:{line}:{error.col}: error: ")
    assert shown == source_line
    assert caret == " " * (error.col - 1) + "^"


@tile.jit
def shape_mismatch(x_ptr):
    a = tl.zeros((16, 1), dtype=tl.float32)
    b = tl.zeros((8, 32), dtype=tl.float32)
    c = a + b  # ERR-shape
    tl.store(x_ptr + tl.arange(0, 8), tl.sum(c, axis=1))


def test_shape_mismatch():
    error = compile_error(shape_mismatch, "*fp32")
    assert_located(error, "ERR-shape", "a + b")
    assert "cannot broadcast shapes 16x1 and 8x32" in error.message
    assert "dimension 0" in error.message


@tile.jit
def hint_count(x_ptr):
    offs = tl.multiple_of(tl.arange(0, 8)[:, None] + tl.arange(0, 4)[None, :], 16)  # ERR-hint-count
    tl.store(x_ptr + offs, 1.0)


@tile.jit
def hint_float(x_ptr):
    x = tl.max_contiguous(tl.zeros((8,), dtype=tl.float32), 8)  # ERR-hint-float
    tl.store(x_ptr + tl.arange(0, 8), x)


@tile.jit
def hint_value(x_ptr):
    offs = tl.max_constancy(tl.arange(0, 8), [0])  # ERR-hint-zero
    tl.store(x_ptr + offs, 1.0)


def test_hint_arguments():
    error = compile_error(hint_count, "*fp32")
    assert_located(error, "ERR-hint-count", "tl.multiple_of(")
    assert "tl.multiple_of needs 2 value(s), one per dimension of a block of shape [8, 4], " \
        "but got 1" in error.message
    error = compile_error(hint_float, "*fp32")
    assert_located(error, "ERR-hint-float", "tl.max_contiguous(")
    assert "applies to integer and pointer values, not fp32" in error.message
    error = compile_error(hint_value, "*fp32")
    assert_located(error, "ERR-hint-zero", "tl.max_constancy(")
    assert "values must be positive, but element 0 is 0" in error.message


@tile.jit
def hint_runtime(x_ptr, n):
    offs = tl.multiple_of(tl.arange(0, 8), n)  # ERR-hint-runtime
    tl.store(x_ptr + offs, 1.0)


def test_hint_values_must_be_constants():
    error = compile_error(hint_runtime, "*fp32,i32")
    assert_located(error, "ERR-hint-runtime", "tl.multiple_of(")
    assert "values must be compile-time constants, but element 0 is a runtime value" \
        in error.message


@tile.jit
def assume_block(x_ptr):
    offs = tl.arange(0, 8)
    tl.assume(offs >= 0)  # ERR-assume
    tl.store(x_ptr + offs, 1.0)


def test_assume_needs_a_scalar_condition():
    error = compile_error(assume_block, "*fp32")
    assert_located(error, "ERR-assume", "tl.assume(")
    assert "tl.assume needs a scalar condition, not a block of shape [8]" in error.message


@tile.jit
def runtime_arange(x_ptr, n):
    offs = tl.arange(0, n)  # ERR-constexpr
    tl.store(x_ptr + offs, 1.0)


def test_runtime_value_where_constexpr_needed():
    error = compile_error(runtime_arange, "*fp32,i32")
    assert_located(error, "ERR-constexpr", "tl.arange(0, n)")
    assert "compile-time constant" in error.message


@tile.jit
def chained_mask(x_ptr, M, N):
    offs_m = tl.arange(0, 16)[:, None]
    offs_n = tl.arange(0, 16)[None, :]
    mask = offs_m < M & offs_n < N  # ERR-chain
    tl.store(x_ptr + offs_m * 16 + offs_n, 1.0, mask=mask)


def test_chained_comparison_without_parentheses():
    error = compile_error(chained_mask, "*fp32,i32,i32")
    assert_located(error, "ERR-chain", "offs_m < M & offs_n < N")
    assert "chained comparison" in error.message
    assert "(offs_m < M) & (offs_n < N)" in error.message


@tile.jit
def unsupported_syntax(x_ptr):
    with open("f"):  # ERR-with
        tl.store(x_ptr, 1.0)


def test_unsupported_syntax():
    error = compile_error(unsupported_syntax, "*fp32")
    assert_located(error, "ERR-with", "with")
    assert "unsupported Python syntax" in error.message and "With" in error.message


@tile.jit
def too_many_args(x_ptr):
    y = helpers.scaled(1.0, 2.0, 3.0)  # ERR-args
    tl.store(x_ptr, y)


def test_wrong_number_of_arguments_to_a_jit_function():
    error = compile_error(too_many_args, "*fp32")
    assert_located(error, "ERR-args", "helpers.scaled(1.0, 2.0, 3.0)")
    assert "scaled()" in error.message and "too many positional arguments" in error.message


@tile.jit
def takes_three(a_ptr, b_ptr, n):  # ERR-sig
    tl.store(a_ptr, n)


def test_wrong_number_of_types_in_signature():
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(takes_three, "*fp32,i32")
    assert info.value.line == line_of("ERR-sig")
    assert "takes 3 runtime argument(s) (a_ptr, b_ptr, n) but the signature gives 2" in str(
        info.value)


def test_wrong_number_of_arguments_at_launch():
    with pytest.raises(tile.CompilationError) as info:
        takes_three[(1,)](1, 2)
    assert "missing a required argument: 'n'" in str(info.value)
    assert info.value.line == line_of("ERR-sig")


@tile.jit
def constexpr_param(x, N: tl.constexpr):
    return x * tl.sum(tl.arange(0, N))  # ERR-cxarg


@tile.jit
def passes_runtime_to_constexpr(x_ptr, n):
    tl.store(x_ptr, constexpr_param(1.0, n))


def test_runtime_value_for_constexpr_parameter():
    # As Triton, a callee's tl.constexpr annotation takes a runtime value; where
    # a constant is needed, the error is at that use.
    error = compile_error(passes_runtime_to_constexpr, "*fp32,i32")
    assert_located(error, "ERR-cxarg", "tl.arange(0, N)")
    assert "arange's end must be a compile-time constant" in error.message


@tile.jit
def undefined_name(x_ptr):
    tl.store(x_ptr, not_defined_anywhere)  # ERR-name


def test_undefined_name():
    error = compile_error(undefined_name, "*fp32")
    assert_located(error, "ERR-name", "not_defined_anywhere")
    assert "not_defined_anywhere" in error.message


@tile.jit
def branch_types_differ(x_ptr, n):
    if n > 0:  # ERR-branch
        v = tl.zeros((4,), dtype=tl.float32)
    else:
        v = tl.zeros((8,), dtype=tl.float32)
    tl.store(x_ptr + tl.arange(0, 4), v)


def test_if_branches_must_agree():
    error = compile_error(branch_types_differ, "*fp32,i32")
    assert_located(error, "ERR-branch", "if n > 0")
    assert "'v'" in error.message and "then branch" in error.message


@tile.jit
def block_condition(x_ptr):
    offs = tl.arange(0, 4)
    if offs < 2:  # ERR-blockif
        tl.store(x_ptr, 1.0)


def test_block_if_condition():
    error = compile_error(block_condition, "*fp32")
    assert_located(error, "ERR-blockif", "if offs < 2")
    assert "tl.where" in error.message


@tile.jit
def failing_static_assert(x_ptr, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= 64, "BLOCK too large")  # ERR-static


def test_static_assert():
    error = compile_error(failing_static_assert, "*fp32", {"BLOCK": 128})
    assert_located(error, "ERR-static", "tl.static_assert")
    assert "BLOCK too large" in error.message


@tile.jit
def error_in_callee(x_ptr):
    tl.store(x_ptr, helpers.scaled(tl.zeros((2, 3), dtype=tl.float32),
                                   tl.zeros((4,), dtype=tl.float32)))


def test_error_inside_a_called_function_names_the_callee_file():
    error = compile_error(error_in_callee, "*fp32")
    assert error.filename.endswith("helpers.py")
    assert "cannot broadcast" in error.message


def test_missing_constexpr_value():
    with pytest.raises(tile.CompilationError, match="constexpr parameter 'BLOCK'.*no value"):
        tile.generate_ir(failing_static_assert, "*fp32")


def test_diagnostics_from_the_cpp_compiler_become_compilation_errors():
    diagnostics = (f"{THIS_FILE}:{line_of('ERR-shape')}:9: error: 'tile.addf' op bad thing\n"
                   f"{THIS_FILE}:10:2: note: called from\n")
    error = error_from_diagnostics(diagnostics)
    assert isinstance(error, tile.CompilationError)
    assert error.line == line_of("ERR-shape") and error.col == 9
    assert "'tile.addf' op bad thing" in str(error) and "called from" in str(error)
    assert "c = a + b" in str(error)


@requires_library
def test_library_diagnostics_name_the_user_location():
    ir = ("func.func @k(%x: !tile.block<16x2xf32>) {\n"
          "  %0 = tile.broadcast %x : !tile.block<16x2xf32> -> !tile.block<16x32xf32> "
          'loc("user.py":3:7)\n  return\n}\n')
    with pytest.raises(tile.CompilationError) as info:
        capi.compile_ir(ir, "sm_90", 4, emit_cubin=False)
    error = info.value
    assert (error.filename, error.line, error.col) == ("user.py", 3, 7)
    assert "cannot broadcast 16x2 to 16x32" in error.message


@tile.jit
def plain_combine(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    tl.store(x_ptr, tl.reduce(x, 0, max))  # ERR-combine


def test_combine_function_must_be_jit():
    error = compile_error(plain_combine, "*fp32")
    assert_located(error, "ERR-combine", "tl.reduce(x, 0, max)")
    assert "@tile.jit" in error.message


@tile.jit
def add_pair(a, b, c, d):
    return a + c


@tile.jit
def pair_sum(a, b, c, d):
    return a + c, b + d


@tile.jit
def tuple_combine_misuse(x_ptr, WHAT: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    y = tl.load(x_ptr + tl.arange(0, 16))
    if WHAT == "count":
        tl.store(x_ptr, tl.reduce((x, x), 0, add_pair)[0])  # ERR-count
    if WHAT == "shapes":
        tl.associative_scan((x, y), 0, pair_sum)  # ERR-shapes
    if WHAT == "empty":
        tl.reduce((), 0, pair_sum)  # ERR-empty


@pytest.mark.parametrize("what, snippet, message", [
    ("count", "tl.reduce((x, x), 0, add_pair)",
     "the combine function add_pair returns 1 value; combining 2 blocks it must return 2"),
    ("shapes", "tl.associative_scan((x, y), 0, pair_sum)",
     "tl.associative_scan: the blocks must have one shape, got [8], [16]"),
    ("empty", "tl.reduce((), 0, pair_sum)", "tl.reduce needs at least one block"),
])
def test_tuple_reduction_misuse_is_located(what: str, snippet: str, message: str) -> None:
    error = compile_error(tuple_combine_misuse, "*fp32", {"WHAT": what})
    assert_located(error, f"ERR-{what}", snippet)
    assert message in error.message


@tile.jit
def gather_histogram_misuse(x_ptr, n, WHAT: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 8)[:, None] * 8 + tl.arange(0, 8)[None, :])
    if WHAT == "index_dtype":
        tl.gather(x, x, 0)  # ERR-index_dtype
    if WHAT == "index_rank":
        tl.gather(x, tl.arange(0, 8), 0)  # ERR-index_rank
    if WHAT == "index_shape":
        tl.gather(x, tl.zeros((4, 4), tl.int32), 1)  # ERR-index_shape
    if WHAT == "bins":
        tl.histogram(tl.arange(0, 8), n)  # ERR-bins
    if WHAT == "values":
        tl.histogram(x, 4)  # ERR-values


@pytest.mark.parametrize("what, snippet, message", [
    ("index_dtype", "tl.gather(x, x, 0)", "tl.gather: the index must be integers, got fp32"),
    ("index_rank", "tl.gather(x, tl.arange(0, 8), 0)",
     "the index has rank 1 but the source has rank 2"),
    ("index_shape", "tl.gather(x, tl.zeros((4, 4), tl.int32), 1)",
     "the index's shape [4, 4] and the source's [8, 8] may differ only along axis 1"),
    ("bins", "tl.histogram(tl.arange(0, 8), n)", "num_bins must be a positive compile-time int"),
    ("values", "tl.histogram(x, 4)", "tl.histogram takes a rank-1 block, got shape [8, 8]"),
])
def test_gather_and_histogram_misuse_is_located(what: str, snippet: str, message: str) -> None:
    error = compile_error(gather_histogram_misuse, "*fp32,i32", {"WHAT": what})
    assert_located(error, f"ERR-{what}", snippet)
    assert message in error.message


@tile.jit
def big_masked_dot(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr,
                   BK: tl.constexpr):
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * BN + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc.to(tl.float16))


@requires_library
def test_a_register_limit_error_names_the_file_not_unknown():
    # The 128x256 operand's zero `other` is a constant canonicalization
    # hoisted, used only by ops the passes made: the error falls back to the
    # kernel rather than `<unknown>`.
    with pytest.raises(tile.CompilationError) as info:
        tile.compile(big_masked_dot, "*fp16,*fp16,*fp16,i32", {"BM": 64, "BN": 256, "BK": 128},
                     target="sm_90a", num_warps=4, emit_cubin=False)
    assert "needs 256 registers per thread" in info.value.message
    assert info.value.filename == str(THIS_FILE)
    # Triton's OutOfResources, which autotuners skip.
    from tile.runtime.errors import OutOfResources
    assert isinstance(info.value, OutOfResources)
    assert (info.value.required, info.value.limit, info.value.name) == (256, 255, "registers")


@tile.jit
def big_gather(x_ptr, i_ptr, o_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    tl.store(o_ptr + offs, tl.gather(tl.load(x_ptr + offs), tl.load(i_ptr + offs), 1))


@requires_library
def test_shared_memory_over_the_chips_is_out_of_resources():
    from tile.runtime.errors import OutOfResources
    with pytest.raises(OutOfResources) as info:
        tile.compile(big_gather, "*fp32,*i32,*fp32", {"R": 64, "C": 1024}, target="sm_80",
                     num_warps=32, emit_cubin=False)
    error = info.value
    assert (error.required, error.limit, error.name) == (262144, 166912, "shared memory")
    assert "needs 262144 bytes of shared memory, more than the 166912 a block can have on " \
        "sm_80" in error.message
    assert error.filename == str(THIS_FILE) and error.line is not None
    import pickle
    again = pickle.loads(pickle.dumps(error))
    assert (again.required, again.limit, again.name, str(again)) == \
        (error.required, error.limit, error.name, str(error))


@tile.jit
def plus_one(a, b):
    return a + b + 1


@tile.jit
def checked_sum(a, b):
    tl.device_assert(a >= 0, "negative element")
    return a + b


@tile.jit(debug=True)
def combine_with_constants(x_ptr, out_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(out_ptr, tl.reduce(x, 0, plus_one))
    tl.store(out_ptr + 1, tl.reduce(x, 0, checked_sum))
    tl.store(out_ptr + 2 + tl.arange(0, BLOCK), tl.associative_scan(x, 0, checked_sum))


@requires_library
def test_combine_functions_with_constants_and_assertions_compile():
    # A constant in a combine function is hoisted out of the region by the
    # canonicalizer; the lowering crashed on it (and on device_assert there).
    ptx = tile.compile(combine_with_constants, "*i32,*i32", {"BLOCK": 64},
                       emit_cubin=False).asm["ptx"]
    assert "__assertfail" in ptx
