"""Triton 3.6's public names in tile (issue 14): `triton`, `triton.runtime`,
`triton.language`, `triton.testing` and `tl.extra.cuda`, but those
python/tile/README.md's "Not supported yet" table lists (test_unsupported.py
checks their errors); Triton's tensor methods on tile's values, compiled and
interpreted; `must_use_result`, `constexpr_type`, `void`, `target_info`,
`KernelInterface.run`, and the peak-figure helpers of `tile.testing`."""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from conftest import assert_error_at_case

import tile
import tile.language as tl

THIS_FILE = Path(__file__).resolve()

# Triton 3.6's names (its modules' __all__, or their public names), less the
# ones the README lists as not supported and Python's own imports.
TRITON_NAMES = {
    "tile": ["autotune", "cdiv", "CompilationError", "compile", "Config", "constexpr_function",
             "heuristics", "InterpreterError", "jit", "JITFunction", "KernelInterface",
             "language", "MockTensor", "must_use_result", "next_power_of_2", "OutOfResources",
             "reinterpret", "runtime", "set_allocator", "TensorWrapper", "TritonError",
             "testing", "tools"],
    "tile.runtime": ["autotune", "Autotuner", "Config", "driver", "Heuristics", "heuristics",
                     "InterpreterError", "JITFunction", "KernelInterface", "MockTensor",
                     "OutOfResources", "reinterpret", "TensorWrapper"],
    "tile.runtime.errors": ["OutOfResources", "InterpreterError", "AutotunerError"],
    "tile.testing": ["assert_close", "Benchmark", "do_bench", "do_bench_cudagraph",
                     "get_dram_gbps", "get_max_simd_tflops", "get_max_tensorcore_tflops",
                     "Mark", "nvsmi", "perf_report"],
    "tile.language": [
        "PropagateNan", "TRITON_MAX_TENSOR_NUMEL", "abs", "add", "advance", "arange",
        "argmax", "argmin", "associative_scan", "assume", "atomic_add", "atomic_and",
        "atomic_cas", "atomic_max", "atomic_min", "atomic_or", "atomic_xchg", "atomic_xor",
        "bfloat16", "bitonic_merge", "block_type", "broadcast", "broadcast_to", "cast", "cat",
        "cdiv", "ceil", "clamp", "const", "constexpr", "constexpr_type", "cos", "cumprod",
        "cumsum", "debug_barrier", "device_assert", "device_print", "div_rn", "dot",
        "dot_scaled", "dtype", "erf", "exp", "exp2", "expand_dims", "extra", "fdiv", "flip",
        "float16", "float32", "float64", "float8e4nv", "float8e5", "floor", "fma", "full",
        "gather", "histogram", "inline_asm_elementwise", "int1", "int16", "int32", "int64",
        "int8", "interleave", "join", "load", "load_tensor_descriptor", "log", "log2",
        "make_block_ptr", "make_tensor_descriptor", "map_elementwise", "math", "max",
        "max_constancy", "max_contiguous", "maximum", "min", "minimum", "mul", "multiple_of",
        "num_programs", "pair_uniform_to_normal", "permute", "philox", "philox_impl",
        "pi32_t", "pointer_type", "program_id", "rand", "rand4x", "randint", "randint4x",
        "randn", "randn4x", "range", "ravel", "reduce", "reduce_or", "reshape", "rsqrt",
        "sigmoid", "sin", "softmax", "sort", "split", "sqrt", "sqrt_rn", "static_assert",
        "static_print", "static_range", "store", "store_tensor_descriptor", "sub", "sum",
        "swizzle2d", "target_info", "tensor", "tensor_descriptor", "topk", "trans", "tuple",
        "uint16", "uint32", "uint64", "uint8", "uint_to_uniform_float", "umulhi", "view",
        "void", "where", "xor_sum", "zeros", "zeros_like"],
    "tile.language.extra.cuda": ["libdevice", "globaltimer", "smid", "num_threads",
                                 "num_warps"],
}


@pytest.mark.parametrize("module", sorted(TRITON_NAMES))
def test_tritons_public_names_are_here(module: str) -> None:
    found = importlib.import_module(module)
    assert [n for n in TRITON_NAMES[module] if not hasattr(found, n)] == []


def test_from_triton_runtime_import_works_as_in_triton() -> None:
    from tile.runtime import Autotuner, KernelInterface, OutOfResources, autotune
    from tile.runtime.errors import InterpreterError
    assert autotune is tile.autotune and issubclass(Autotuner, KernelInterface)
    assert isinstance(tile.jit(lambda_free), KernelInterface)
    assert issubclass(OutOfResources, tile.CompilationError)
    assert InterpreterError is tile.interpreter.InterpreterError
    with pytest.raises(AttributeError, match="module 'tile.runtime' has no attribute 'nope'"):
        tile.runtime.nope  # noqa: B018


def lambda_free(x):
    return x


# Triton 3.6's tensor methods (`dir(triton.language.tensor)` less dunders, `T`
# (tile's codegen gives `.T`), `_flatten_ir` and `advance` (a block pointer's).
TENSOR_METHODS = [
    "abs", "argmax", "argmin", "associative_scan", "atomic_add", "atomic_and", "atomic_cas",
    "atomic_max", "atomic_min", "atomic_or", "atomic_xchg", "atomic_xor", "broadcast_to",
    "cast", "cdiv", "ceil", "cos", "cumprod", "cumsum", "erf", "exp", "exp2", "expand_dims",
    "flip", "floor", "gather", "histogram", "item", "log", "log2", "logical_and",
    "logical_or", "max", "min", "permute", "ravel", "reduce", "reduce_or", "reshape", "rsqrt",
    "sigmoid", "sin", "softmax", "sort", "split", "sqrt", "sqrt_rn", "store", "sum", "to",
    "trans", "view", "xor_sum"]


def test_tritons_tensor_methods_compiled_and_interpreted() -> None:
    pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    from tile.interpreter.values import Tensor
    assert [m for m in TENSOR_METHODS if not callable(getattr(tl.tensor, m, None))] == []
    missing = [m for m in TENSOR_METHODS if getattr(Tensor, m, None) is None
               or getattr(getattr(Tensor, m), "__tile_interpreter_missing__", False)]
    assert missing == []
    from tile.language.descriptors import block_pointer
    assert block_pointer.advance is tl.advance  # `ptr.advance(offsets)`


@tile.jit
def misuse(p, WHAT: tl.constexpr):
    x = tl.load(p + tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :])
    pointer = tl.make_block_ptr(p, (128,), (1,), (0,), (16,), (0,))
    if WHAT == "softmax_dims":
        tl.store(p, tl.sum(tl.sum(tl.softmax(x, 1), 1), 0))
    if WHAT == "softmax_ints":
        tl.store(p, tl.sum(tl.sum(x.to(tl.int32).softmax(), 1), 0).to(tl.float32))
    if WHAT == "logical":
        tl.store(p, tl.sum(tl.sum(x.to(tl.int32).logical_and(x > 0), 1), 0).to(tl.float32))
    if WHAT == "reduce_or":
        tl.store(p, x.reduce_or(0))
    if WHAT == "unused":
        pointer.advance((16,))
    if WHAT == "unused_jit":
        kept(x)
    if WHAT == "void":
        tl.store(p, tl.full((), 0, tl.void))


@tile.must_use_result("Assign it.")
@tile.jit
def kept(x):
    return x + 1


CASES = [
    ("softmax_dims", "tl.softmax(dim=1) of shape [8, 16]: the max along dim 1, of shape [8], "
                     "does not broadcast against the input (Triton subtracts it as is); pass "
                     "keep_dims=True"),
    ("softmax_ints", "tl.softmax needs floats, got int32"),
    ("logical", "x.logical_and(y) takes booleans (tl.int1), got int32 and int1"),
    ("reduce_or", "reduce_or only supported for integers, got fp32"),
    ("unused", "The result of pointer.advance is not being used. Note that tl.advance does "
               "not have any side effects."),
    ("unused_jit", "The result of kept is not being used. Assign it."),
    ("void", "tl.void has no values: expected a dtype such as tl.float32"),
]


@pytest.mark.parametrize("what, message", CASES, ids=[c[0] for c in CASES])
def test_misuse_is_located(what: str, message: str) -> None:
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(misuse, "*fp32", {"WHAT": what})
    assert_error_at_case(info.value, THIS_FILE, what, message)


@tile.jit
def compile_time_facts(p):
    tl.static_assert(tl.TRITON_MAX_TENSOR_NUMEL == 2**31)
    if tl.target_info.cuda_capability_geq(8, 0) and tl.target_info.is_cuda():
        tl.store(p, tl.extra.cuda.num_warps() + tl.extra.cuda.num_threads())


def test_compile_time_facts() -> None:
    assert repr(tl.constexpr_type(3)) == "constexpr_type[3]"
    assert tl.constexpr(3).type == tl.constexpr_type(3) != tl.constexpr_type(4)
    # Where Triton's test_core imports it from.
    from tile.language.core import constexpr_type
    assert constexpr_type is tl.constexpr_type
    assert tl.void.is_void() and tl.dtype("void") is not None
    ir = tile.compile(compile_time_facts, "*i32", num_warps=8, emit_cubin=False).asm["tile"] \
        if tile.compiler.capi.available() else None
    if ir is not None:  # 8 warps: 8 + 256
        assert "arith.constant 264 : i32" in ir
    assert "arith.constant 132 : i32" in tile.generate_ir(compile_time_facts, "*i32")


def test_kernel_run_is_a_launch(monkeypatch: pytest.MonkeyPatch) -> None:
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    monkeypatch.setenv("TILE_INTERPRET", "1")
    out = np.zeros(1, np.int32)
    compile_time_facts.run(out, grid=(1,), num_warps=2)
    assert out[0] == 2 + 64


def test_peak_figures_from_the_device_properties(monkeypatch: pytest.MonkeyPatch) -> None:
    from tile import testing
    properties = {"multiprocessor_count": 132, "mem_clock_rate": 2_619_000,
                  "mem_bus_width": 6144}
    monkeypatch.setattr(testing, "_properties", lambda device: properties)
    monkeypatch.setattr(testing, "_capability", lambda device: (9, 0))
    assert testing.get_dram_gbps() == pytest.approx(2_619_000 * 6144 * 2 / 1e6 / 8)
    clock = 1_980_000  # kHz
    assert testing.get_max_tensorcore_tflops("torch.float16", clock) == \
        pytest.approx(132 * 4 * clock * 512 * 1e-9)
    assert testing.get_max_tensorcore_tflops(tl.float8e4nv, clock) == \
        pytest.approx(132 * 4 * clock * 1024 * 1e-9)
    assert testing.get_max_simd_tflops("torch.float32", clock) == \
        pytest.approx(132 * 4 * clock * 32 * 1e-9)
    with pytest.raises(RuntimeError, match="dtype not supported"):
        testing.get_max_simd_tflops("torch.int8", clock)
