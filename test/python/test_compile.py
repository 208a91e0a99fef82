"""tile.compile, specialization from launch arguments, and the launch hand-off."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import requires_library, verify

import tile
import tile.language as tl
from tile.compiler import capi
from tile.runtime.launch import argument_type, normalize_grid, specialize


@tile.jit
def saxpy(x_ptr, y_ptr, n, alpha, stride, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs * stride, mask=mask)
    tl.store(y_ptr + offs, alpha * x + tl.load(y_ptr + offs, mask=mask), mask=mask)


class FakeTensor:
    """Enough of torch.Tensor for argument typing and specialization."""

    def __init__(self, address: int, dtype: str) -> None:
        self.address = address
        self.dtype = dtype

    def data_ptr(self) -> int:
        return self.address


class RecordingBackend:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str, int]] = []
        self.stages: list[int | None] = []
        # (line_info, fp_fusion, reflect_ftz) of each compile, its maxnreg
        # and its libdevice.
        self.flags: list[tuple[bool, bool, bool]] = []
        self.register_limits: list[int | None] = []
        self.libdevices: list[str | None] = []

    def __call__(self, ir, chip, num_warps, emit_cubin=True, num_stages=None,
                 line_info=True, fp_fusion=True, reflect_ftz=True, maxnreg=None,
                 libdevice=None):
        self.calls.append((ir, chip, num_warps))
        self.stages.append(num_stages)
        self.flags.append((line_info, fp_fusion, reflect_ftz))
        self.register_limits.append(maxnreg)
        self.libdevices.append(libdevice)
        return capi.BackendResult("", "// ptx", b"", {"chip": chip, "kernels": []})


@pytest.fixture
def backend(monkeypatch):
    fake = RecordingBackend()
    monkeypatch.setattr(capi, "compile_ir", fake)
    # The fake stands in for the library, also where it is not built.
    monkeypatch.setattr(capi, "available", lambda: True)
    return fake


def test_signature_forms_agree(backend):
    by_name = tile.compile(saxpy, {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32",
                                   "alpha": "fp32", "stride": "i32"}, {"BLOCK": 64})
    by_order = tile.compile(saxpy, "*fp32, *fp32, i32, fp32, i32", {"BLOCK": 64})
    assert by_name.asm["tile"] == by_order.asm["tile"]
    assert len(backend.calls) == 1  # the second is a cache hit
    verify(by_name.asm["tile"])
    assert by_name.metadata["params"] == [
        {"name": n, "type": t} for n, t in zip(
            ["x_ptr", "y_ptr", "n", "alpha", "stride"], ["*fp32", "*fp32", "i32", "fp32", "i32"])]


def test_autotuned_kernel_compiles_with_first_config(backend):
    tuned = tile.autotune([tile.Config({"BLOCK": 32}, num_warps=8),
                           tile.Config({"BLOCK": 64}, num_warps=2)], key=["n"])(saxpy)
    compiled = tile.compile(tuned, "*fp32,*fp32,i32,fp32,i32")
    ir, chip, num_warps = backend.calls[-1]
    assert num_warps == 8 and chip == "sm_90"
    assert "tile.arange 0, 32" in ir and compiled.metadata["num_warps"] == 8


def test_argument_types():
    assert argument_type(3) == "i32" and argument_type(2**40) == "i64"
    assert argument_type(1.5) == "fp32" and argument_type(True) == "i1"
    assert argument_type(FakeTensor(0, "torch.float16")) == "*fp16"
    assert argument_type(FakeTensor(0, "torch.bfloat16")) == "*bf16"

    class CudaArray:
        __cuda_array_interface__ = {"data": (4096, False), "typestr": "<f4", "shape": (4,)}
    assert argument_type(CudaArray()) == "*fp32"
    with pytest.raises(TypeError):
        argument_type("text")


def test_specialization_from_values():
    spec = specialize(["x", "y", "n", "one", "odd", "keep"],
                      [FakeTensor(4096, "float32"), FakeTensor(4100, "float32"), 64, 1, 7, 32],
                      do_not_specialize=frozenset({"keep"}))
    assert spec.divisible_by_16 == {"x", "n"}
    assert spec.equal_to_1 == {"one"}


def test_grid_normalization():
    assert normalize_grid((4,), {}) == (4, 1, 1)
    assert normalize_grid(lambda meta: (tile.cdiv(meta["n"], meta["BLOCK"]), 2),
                          {"n": 1000, "BLOCK": 256}) == (4, 2, 1)
    with pytest.raises(ValueError):
        normalize_grid((1, 1, 1, 1), {})


def test_calling_a_kernel_directly_explains():
    with pytest.raises(Exception, match=r"saxpy\[grid\]"):
        saxpy(1, 2, 3, 4, 5)


@requires_library
def test_num_stages_reaches_the_backend_and_the_cache_key(backend):
    for stages in (2, 4, 2):
        tile.compile(saxpy, "*fp32,*fp32,i32,fp32,i32", {"BLOCK": 64}, num_stages=stages)
    assert backend.stages == [2, 4]  # the third is a cache hit


@requires_library
def test_another_assembler_misses_the_cache(backend, monkeypatch):
    """A cubin is the assembler's: another one (or another release) compiles
    again; the same one is a cache hit."""
    from tile.compiler import toolchain

    def assemble_with(release: tuple[int, int]) -> None:
        found = toolchain.Toolchain(None, ptxas=Path("/x/ptxas"), version=release)
        monkeypatch.setattr(toolchain, "toolchain", lambda: found)
        tile.compile(saxpy, "*fp32,*fp32,i32,fp32,i32", {"BLOCK": 32})

    for release in ((12, 8), (13, 0), (12, 8)):
        assemble_with(release)
    assert len(backend.calls) == 2, backend.calls


@tile.jit
def k_loop(a_ptr, b_ptr, c_ptr, K, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    a_ptrs = a_ptr + offs[:, None] * K + offs[None, :]
    b_ptrs = b_ptr + offs[:, None] * BLOCK + offs[None, :]
    for k in range(0, K, BLOCK):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BLOCK
        b_ptrs += BLOCK * BLOCK
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], acc)


def test_num_stages_pipelines_the_k_loop():
    def loads(stages: int) -> int:
        compiled = tile.compile(k_loop, "*fp16,*fp16,*fp32,i32", {"BLOCK": 16},
                                num_warps=1, num_stages=stages, emit_cubin=False)
        return compiled.asm["ptx"].count("ld.global")
    # One copy of the loads in the loop without pipelining; with 3 stages the
    # prologue loads two iterations ahead as well.
    assert loads(3) == 3 * loads(1)


@tile.jit
def hinted_k_loop(a_ptr, b_ptr, c_ptr, K, BLOCK: tl.constexpr, STAGES: tl.constexpr,
                  UNROLL: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    a_ptrs = a_ptr + offs[:, None] * K + offs[None, :]
    b_ptrs = b_ptr + offs[:, None] * BLOCK + offs[None, :]
    for k in tl.range(0, K, BLOCK, num_stages=STAGES, loop_unroll_factor=UNROLL):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BLOCK
        b_ptrs += BLOCK * BLOCK
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], acc)


def hinted_loads(kernel_stages: int, loop_stages: int | None, unroll: int | None) -> int:
    compiled = tile.compile(hinted_k_loop, "*fp16,*fp16,*fp32,i32",
                            {"BLOCK": 16, "STAGES": loop_stages, "UNROLL": unroll},
                            num_warps=1, num_stages=kernel_stages, emit_cubin=False)
    return compiled.asm["ptx"].count("ld.global")


def test_tl_range_num_stages_overrides_the_kernels():
    plain = hinted_loads(1, None, None)
    assert hinted_loads(3, None, None) == 3 * plain
    # The loop's num_stages wins over the kernel's, both ways.
    assert hinted_loads(3, 1, None) == plain
    assert hinted_loads(1, 3, None) == 3 * plain
    assert hinted_loads(1, 2, None) == 2 * plain


def test_tl_range_loop_unroll_factor_copies_the_body():
    plain = hinted_loads(1, None, None)
    # Two copies in the main loop, one in the remainder loop.
    assert hinted_loads(1, None, 2) == 3 * plain
    assert hinted_loads(1, None, 4) == 5 * plain
    assert hinted_loads(1, None, 1) == plain
    # The remainder loop is not pipelined; the main loop is, with its
    # prologue loading the two copies' operands of two iterations.
    assert hinted_loads(3, None, 2) == (2 * 2 + 2 + 1) * plain


def test_tl_range_hints_are_checked():
    def message(constexprs: dict) -> str:
        with pytest.raises(tile.CompilationError) as info:
            tile.compile(hinted_k_loop, "*fp16,*fp16,*fp32,i32",
                         {"BLOCK": 16, "STAGES": None, "UNROLL": None, **constexprs},
                         num_warps=1, emit_cubin=False)
        assert info.value.line is not None  # located in this file
        return info.value.message
    assert "tl.range num_stages must be at least 0, got -1" in message({"STAGES": -1})
    # 0 is Triton's "not pipelined", as 1 is.
    assert tile.generate_ir(hinted_k_loop, "*fp16,*fp16,*fp32,i32",
                            {"BLOCK": 16, "STAGES": 0, "UNROLL": None}) == \
        tile.generate_ir(hinted_k_loop, "*fp16,*fp16,*fp32,i32",
                         {"BLOCK": 16, "STAGES": 1, "UNROLL": None})
    assert "loop_unroll_factor must be a compile-time integer" in message({"UNROLL": 1.5})
    assert "'tile.num_stages' must be an i32 from 1 to 16, not 17" in message({"STAGES": 17})


@tile.jit
def picked_pointers(x_ptr, y_ptr, n):
    offs = tl.arange(0, 128)
    if n > 64:
        p = x_ptr + offs * 2
    else:
        p = x_ptr + offs
    tl.store(y_ptr + offs, tl.load(p, mask=offs < n))


def test_pointers_picked_by_a_condition_compile():
    # The if becomes arith.select of two blocks of pointers, which crashed
    # the lowering (taken for an index function).
    compiled = tile.compile(picked_pointers, "*fp32,*fp32,i32", {}, num_warps=1,
                            emit_cubin=False)
    assert "ld.global" in compiled.asm["ptx"]


def test_real_compile_produces_ptx_and_metadata():
    compiled = tile.compile(saxpy, "*fp32,*fp32,i32,fp32,i32", {"BLOCK": 256}, num_warps=2)
    assert ".entry saxpy" in compiled.asm["ptx"]
    assert compiled.metadata["threads"] == 64 and compiled.metadata["num_warps"] == 2
    assert [p["name"] for p in compiled.metadata["params"]] == [
        "x_ptr", "y_ptr", "n", "alpha", "stride"]
    assert compiled.metadata["params"][0] == {"name": "x_ptr", "type": "ptr", "pointee": "f32"}
    assert "define" in compiled.asm["llir"]


@tile.jit
def row_scan(x_ptr, out_ptr, stride, n, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * stride + cols, mask=cols < n, other=0.0)
    tl.store(out_ptr + tl.program_id(0) * stride + cols, tl.cumsum(x, axis=0), mask=cols < n)


def test_register_facts_and_the_occupancy_limit():
    """Every cubin's metadata says its registers and stack frame (read off the
    cubin). Where tile chose a .maxnreg (for more blocks on an SM, or as the
    budget of a kernel with loads to overlap; the lit tests cubin-occupancy.mlir
    and transpose.tc pin when, for the toolkit's ptxas), the PTX carries it and
    nothing spills. A second cubin for grids that fit at once
    comes along exactly where the metadata gives its registers and blocks per
    SM: more registers than the main cubin's (cubin-one-block.mlir); a
    user's maxnreg turns both off."""
    signature = "*fp32,*fp32,i32,i32"
    compiled = tile.compile(row_scan, signature, {"BLOCK": 4096}, target="sm_90a",
                            num_warps=4)
    md = compiled.metadata
    assert md["registers"] > 0 and md["stack_frame_bytes"] >= 0
    if "occupancy_maxnreg" in md:
        assert md["registers"] <= md["occupancy_maxnreg"]
        assert f".maxnreg {md['occupancy_maxnreg']}" in compiled.asm["ptx"]
        assert md["stack_frame_bytes"] == 0
    assert ("cubin_without_limit" in compiled.asm) == ("resident_blocks_without_limit" in md)
    if "cubin_without_limit" in compiled.asm:
        assert md["registers_without_limit"] > md["registers"]
        assert md["resident_blocks_without_limit"] >= 1
        small_grids = compiled.asm["cubin_without_limit"]
        assert small_grids[:4] == b"\x7fELF" and small_grids != compiled.asm["cubin"]
    limited = tile.compile(row_scan, signature, {"BLOCK": 4096}, target="sm_90a",
                           num_warps=4, maxnreg=255)
    assert not {"occupancy_maxnreg", "registers_without_limit"} & limited.metadata.keys()
    assert "cubin_without_limit" not in limited.asm
    assert ".maxnreg 255" in limited.asm["ptx"]


@tile.jit
def matmul_loop(a_ptr, b_ptr, c_ptr, scale_ptr, M, N, K, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    # Per-column scales loaded before the loop: live through it, beside the
    # accumulator.
    scale = tl.load(scale_ptr + cols)[None, :].to(tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rows[:, None] * K + (k + ks)[None, :], mask=(k + ks)[None, :] < K,
                    other=0.0)
        b = tl.load(b_ptr + (k + ks)[:, None] * N + cols[None, :], mask=(k + ks)[:, None] < K,
                    other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], (acc * scale).to(tl.float16),
             mask=(rows[:, None] < M) & (cols[None, :] < N))


def test_tensor_core_kernels_keep_the_assemblers_registers():
    """No occupancy limit for a kernel on the tensor cores: tutorial 03's
    128x128x32 config at 4 warps and 4 stages ran 5% slower with 3 blocks of
    168 registers per SM than with the assembler's 2 (an H100, both in one
    process). The same loop with per-column scales here takes more than 168
    registers and fits 168 without spilling, so the search would take that
    limit."""
    from tile.compiler.kernel import Specialization
    aligned = Specialization(divisible_by_16=frozenset({"a_ptr", "b_ptr", "c_ptr", "scale_ptr",
                                                        "M", "N", "K"}))
    compile_loop = lambda **limit: tile.compile(  # noqa: E731
        matmul_loop, "*fp16,*fp16,*fp16,*fp16,i32,i32,i32",
        {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32},
        target="sm_90a", num_warps=4, num_stages=4, specialization=aligned, **limit)
    compiled = compile_loop()
    assert "wgmma.mma_async" in compiled.asm["ptx"]
    three_blocks = 168  # registers per thread that fit 3 blocks of 128 threads per SM
    own = compiled.metadata.get("registers_without_limit", compiled.metadata["registers"])
    if own <= three_blocks:
        pytest.skip(f"this assembler fits 3 blocks already ({own} registers)")
    if compile_loop(maxnreg=three_blocks).metadata["stack_frame_bytes"]:
        pytest.skip("this assembler spills under 168 registers: no limit to refuse")
    assert "occupancy_maxnreg" not in compiled.metadata, compiled.metadata
    assert ".maxnreg" not in compiled.asm["ptx"]


@tile.jit
def staged(x_ptr, num_stages: tl.constexpr):
    tl.store(x_ptr, num_stages * 1.0)


def test_launch_option_names_can_be_kernel_parameters(backend):
    staged.warmup(FakeTensor(0, "float32"), num_stages=3, num_warps=2)
    ir, _, num_warps = backend.calls[-1]
    assert "3.0 : f32" in ir and num_warps == 2



def test_launch_cooperative_grid_is_a_launch_flag_not_a_recompile(backend):
    # Triton's option: a bool, taken by warmup and launches; the code is the
    # same, only the launch differs (test/gpu/test_launcher.py).
    staged.warmup(FakeTensor(0, "float32"), num_stages=5)
    calls = len(backend.calls)
    staged.warmup(FakeTensor(0, "float32"), num_stages=5, launch_cooperative_grid=True)
    assert len(backend.calls) == calls
    with pytest.raises(TypeError, match="launch_cooperative_grid is True or False, got 'yes'"):
        staged.warmup(FakeTensor(0, "float32"), launch_cooperative_grid="yes")


@tile.jit
def offset_copy(x_ptr, y_ptr, start, BLOCK: tl.constexpr, HINT: tl.constexpr):
    offs = start + tl.arange(0, BLOCK)
    if HINT == "value":
        offs = tl.max_contiguous(tl.multiple_of(offs, 16), 16)
    if HINT == "statement":
        # As Triton (tutorial 08): a hint called as a statement states its fact
        # about the variable itself.
        tl.multiple_of(offs, 16)
        tl.max_contiguous(offs, 16)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))


@requires_library
def test_vectorization_hints_reach_ptx():
    """Triton's vectorization hint on offsets from a runtime value the
    compiler knows nothing about: 32-bit accesses without it, 128-bit with."""
    aligned = tile.Specialization(divisible_by_16=frozenset({"x_ptr", "y_ptr"}))

    def accesses(hint: bool) -> str:
        kernel = tile.compile(offset_copy, "*fp32,*fp32,i32", {"BLOCK": 1024, "HINT": hint},
                              specialization=aligned)
        return kernel.asm["ptx"]
    plain = accesses("")
    assert "ld.global.b32" in plain and "st.global.b32" in plain
    assert ".v4" not in plain and ".v2" not in plain
    for form in ("value", "statement"):
        hinted = accesses(form)
        assert "ld.global.v4.b32" in hinted and "st.global.v4.b32" in hinted, form
        assert "ld.global.b32" not in hinted and "st.global.b32" not in hinted, form


def test_num_ctas_is_a_cluster_size_that_runs_as_one_cta(monkeypatch):
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    monkeypatch.setenv("TILE_INTERPRET", "1")
    x = np.ones(64, np.float32)
    for num_ctas in (1, 2, 16):  # Triton's default, and clusters
        y = np.zeros(64, np.float32)
        saxpy[(1,)](x, y, 64, 2.0, 1, BLOCK=64, num_ctas=num_ctas)
        assert y.tolist() == [2.0] * 64
    for bad in (0, 3, 32):
        with pytest.raises(ValueError, match="num_ctas must be a power of two from 1 to 16"):
            saxpy[(1,)](x, y, 64, 2.0, 1, BLOCK=64, num_ctas=bad)
    assert tile.Config({"BLOCK": 64}, num_ctas=2).num_ctas == 2
    with pytest.raises(ValueError, match="num_ctas must be a power of two"):
        tile.Config({"BLOCK": 64}, num_ctas=5)
    assert tile.Config({"BLOCK": 64}, maxnreg=128).maxnreg == 128  # test_knobs.py: its use


@tile.jit
def maybe_bias(x_ptr, y_ptr, bias_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if bias_ptr is not None:
        x += tl.load(bias_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x, mask=offs < n)


@requires_library
def test_a_none_argument_is_a_compile_time_none(monkeypatch):
    # Triton's rule: None is not a kernel parameter but a constant, so
    # `if bias_ptr is not None:` is decided at compile time.
    from tile.runtime.launch import compile_for_args
    compiled, values, _ = compile_for_args(maybe_bias, (FakeTensor(4096, "float32"),
                                                        FakeTensor(8192, "float32"), None, 10),
                                           {"BLOCK": 16}, {"target": "sm_90"})
    assert [p["name"] for p in compiled.metadata["params"]] == ["x_ptr", "y_ptr", "n"]
    assert len(values) == 3
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    monkeypatch.setenv("TILE_INTERPRET", "1")
    x, y, bias = np.arange(16, dtype=np.float32), np.zeros(16, np.float32), np.ones(16, np.float32)
    maybe_bias[(1,)](x, y, None, 10, BLOCK=16)
    assert y[:10].tolist() == list(range(10)) and y[10:].tolist() == [0.0] * 6
    maybe_bias[(1,)](x, y, bias, 10, BLOCK=16)
    assert y[:10].tolist() == [v + 1.0 for v in range(10)]


@tile.jit
def shaped_copy(x_ptr, y_ptr, BLOCK_SHAPE, SCALE):
    offs = tl.arange(0, BLOCK_SHAPE[0])[:, None] * BLOCK_SHAPE[1] + \
        tl.arange(0, BLOCK_SHAPE[1])[None, :]
    tl.store(y_ptr + offs, tl.load(x_ptr + offs) * SCALE)


@requires_library
def test_constexpr_values_passed_to_plain_parameters_are_compile_time(monkeypatch):
    # Triton's tensor-descriptor tests pass block shapes as tuples of tl.constexpr.
    from tile.runtime.launch import compile_for_args
    shape = (tl.constexpr(4), tl.constexpr(8))
    compiled, values, _ = compile_for_args(shaped_copy, (FakeTensor(4096, "float32"),
                                                         FakeTensor(8192, "float32"), shape,
                                                         tl.constexpr(2.0)), {},
                                           {"target": "sm_90"})
    assert [p["name"] for p in compiled.metadata["params"]] == ["x_ptr", "y_ptr"]
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    monkeypatch.setenv("TILE_INTERPRET", "1")
    x, y = np.arange(32, dtype=np.float32), np.zeros(32, np.float32)
    shaped_copy[(1,)](x, y, shape, tl.constexpr(2.0))
    assert y.tolist() == [2.0 * v for v in range(32)]


@tile.jit
def annotated_store(ptr, val: tl.float16, n: "tl.uint8", m: int):
    tl.static_assert(val.dtype == tl.float16)
    tl.static_assert(n.dtype == tl.uint8)
    tl.store(ptr + n + m, val)


def test_annotated_scalar_parameters_take_their_types():
    from tile.runtime.launch import parameter_type
    jit = annotated_store
    assert parameter_type(jit, "val", 3.0) == "fp16"
    assert parameter_type(jit, "val", 3) == "fp16"   # an int becomes the annotated float
    assert parameter_type(jit, "n", 7) == "u8"
    assert parameter_type(jit, "m", 7) == "i32"      # Python types are not tile types
    with pytest.raises(TypeError, match="argument 'n' is annotated uint8, but got the float"):
        parameter_type(jit, "n", 7.5)
    ir = tile.generate_ir(annotated_store, "*fp16,fp16,u8,i32")
    assert "f16" in ir
