"""The example kernels and Triton's tutorial kernels: IR that verifies, and
PTX when the compile library is built."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from conftest import REPO, check_order, requires_library, verify

import tile

EXAMPLES = REPO / "examples" / "python"


def load(path: Path):
    spec = importlib.util.spec_from_file_location(f"example_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def example_cases():
    cases = []
    for path in sorted(EXAMPLES.rglob("*.py")):
        for index, case in enumerate(load(path).CASES):
            cases.append(pytest.param(path, index, id=f"{path.relative_to(EXAMPLES)}[{index}]"))
    return cases


CASES = example_cases()


def case(path: Path, index: int):
    kernel, signature, constexprs = load(path).CASES[index]
    return kernel, signature, constexprs


def test_all_examples_are_covered():
    names = {p.name for p in EXAMPLES.rglob("*.py")}
    assert {"vector_add.py", "matrix_add.py", "matmul_naive.py", "softmax.py", "reductions.py",
            "rank3.py", "01_vector_add.py", "02_fused_softmax.py", "03_matmul.py",
            "05_layer_norm.py"} <= names


@pytest.mark.parametrize("path,index", CASES)
def test_example_ir_verifies(path, index):
    kernel, signature, constexprs = case(path, index)
    ir = tile.generate_ir(kernel, signature, constexprs)
    verify(ir)
    assert str(path) in ir  # locations point into the example


def ir_for(name: str, index: int = 0) -> str:
    path = next(EXAMPLES.rglob(name))
    kernel, signature, constexprs = case(path, index)
    return tile.generate_ir(kernel, signature, constexprs)


def test_matrix_add_non_power_of_two_tile():
    ir = ir_for("matrix_add.py", 1)
    assert "tile.arange 0, 24 : !tile.block<24xi32>" in ir
    assert "tile.arange 0, 40 : !tile.block<40xi32>" in ir
    assert "!tile.block<24x40x!tile.ptr<f32>>" in ir


def test_matmul_naive_is_unrolled():
    ir = ir_for("matmul_naive.py")
    assert "scf.for" not in ir and ir.count("tile.load") == 16
    assert "!tile.block<16x16xf32>" in ir


def test_tutorial_softmax_loop():
    ir = ir_for("02_fused_softmax.py")
    check_order(ir, "tile.program_id 0", "tile.num_programs 0", "scf.for", "tile.load",
                "tile.reduce max", "tile.exp", "tile.reduce sum", "tile.divf", "tile.store")


def test_tutorial_matmul_uses_first_autotune_config():
    ir = ir_for("03_matmul.py")
    assert "!tile.block<128x64xf16>, !tile.block<64x256xf16> -> !tile.block<128x256xf32>" in ir
    assert "tile.maximumf" not in ir and "tile.select" not in ir  # no activation
    leaky = ir_for("03_matmul.py", 1)
    assert "tile.select" in leaky and "loc(callsite(" in leaky


def test_autotuner_keeps_configs():
    matmul = load(next(EXAMPLES.rglob("03_matmul.py"))).matmul_kernel
    assert isinstance(matmul, tile.runtime.autotuner.Autotuner)
    assert len(matmul.configs) == 4 and matmul.keys == ["M", "N", "K"]
    # Timing and choosing are tested with a stand-in kernel in test_autotune.py.
    assert matmul.tuning_key({"M": 512, "N": 256, "K": 128}) == (512, 256, 128)
    assert len(matmul.prune_configs({"M": 512, "N": 256, "K": 128})) == 4


def test_heuristics_compute_constexprs(monkeypatch):
    import tile.language as tl
    captured = {}

    def fake_launch(fn, grid, args, kwargs, stream):
        captured.update(kwargs)
    monkeypatch.setattr(tile.runtime.autotuner, "_launch", fake_launch)
    kernel = load(next(EXAMPLES.rglob("vector_add.py"))).vector_add
    wrapped = tile.heuristics({"BLOCK": lambda args: tile.next_power_of_2(args["n"])})(kernel)
    wrapped[(1,)](1, 2, 3, 1000)
    assert captured == {"BLOCK": 1024}
    assert tl.constexpr(3) == 3


@requires_library
@pytest.mark.parametrize("path,index", CASES)
def test_example_ptx(path, index):
    kernel, signature, constexprs = case(path, index)
    compiled = tile.compile(kernel, signature, constexprs, target="sm_90")
    name = compiled.metadata["name"]
    assert f".entry {name}" in compiled.asm["ptx"] or f".entry {name}(" in compiled.asm["ptx"]
    assert ".target sm_90" in compiled.asm["ptx"]
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    assert compiled.metadata["threads"] == 32 * compiled.metadata["num_warps"]
    assert [p["name"] for p in compiled.metadata["params"]] == list(
        tile.compiler.kernel.normalize_signature(
            tile.compiler.kernel.resolve(kernel, constexprs, None)[0], signature,
            tile.compiler.kernel.resolve(kernel, constexprs, None)[1]))


@requires_library
def test_divisibility_specialization_reaches_ptx():
    path = next(EXAMPLES.rglob("vector_add.py"))
    kernel, signature, constexprs = case(path, 0)
    spec = tile.Specialization(divisible_by_16=frozenset({"x_ptr", "y_ptr", "out_ptr", "n"}))
    aligned = tile.compile(kernel, signature, constexprs, specialization=spec)
    plain = tile.compile(kernel, signature, constexprs)
    assert aligned.asm["tile"] != plain.asm["tile"]
    assert "tile.divisibility = 16" in aligned.asm["tile"]


def global_accesses(ptx: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for access in re.findall(r"\b(?:ld|st)\.global(?:\.v[24])?\.b(?:16|32|64)\b", ptx):
        counts[access] = counts.get(access, 0) + 1
    return counts


@requires_library
def test_tutorial_matmul_k_loop_vectorizes():
    """Tutorial 03 with Triton's specialization (unit strides are constants,
    the rest divisible by 16): the A and B pointers carried through the K
    loop keep their alignment, and tl.assume(pid_n >= 0) lets `% N` keep
    B's columns contiguous, so the loads in the loop are 128-bit (they were
    all 16-bit): 16-byte cp.async copies into the mma.sync rings (the default
    chip, sm_90, has no wgmma)."""
    path = next(EXAMPLES.rglob("03_matmul.py"))
    kernel, signature, constexprs = case(path, 0)
    spec = tile.Specialization(
        divisible_by_16=frozenset({"a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am",
                                   "stride_bk", "stride_cm"}),
        equal_to_1=frozenset({"stride_ak", "stride_bn", "stride_cn"}))
    compiled = tile.compile(kernel, signature, constexprs, specialization=spec)
    ptx = compiled.asm["ptx"]
    counts = global_accesses(ptx)
    # 128x64 A and 64x256 B halves over 256 threads: 4 + 8 copies of 8 halves,
    # in each of 3 copies of the loads: two iterations in the pipeline's
    # prologue (the config's num_stages=3) and one in the loop.
    copies = re.findall(r"cp\.async\.c[ag]\.shared\.global \[[^]]*\], \[[^]]*\], (\d+)", ptx)
    assert copies == ["16"] * (3 * 12)
    assert not any(access.startswith("ld.global") for access in counts)
    assert counts.get("st.global.v4.b32") == 16 and "st.global.b16" not in counts


@requires_library
@pytest.mark.parametrize("block", [4096, 1024])
def test_tutorial_layer_norm_loads_are_128_bit(block):
    """Tutorial 05 forward in f16 (N divisible by 16): `X += row * stride` and
    `cols = off + tl.arange(0, BLOCK)` over `for off in range(0, N, BLOCK)`
    keep 16-byte alignment, so each thread loads 8 halves at a time (the
    loads were 16-bit)."""
    path = next(EXAMPLES.rglob("05_layer_norm.py"))
    kernel, signature, _ = case(path, 0)
    spec = tile.Specialization(divisible_by_16=frozenset(
        {"X", "Y", "W", "B", "Mean", "Rstd", "stride", "N"}))
    warps = min(max(block // 256, 1), 8)
    compiled = tile.compile(kernel, signature, {"BLOCK_SIZE": block}, num_warps=warps,
                            specialization=spec)
    counts = global_accesses(compiled.asm["ptx"])
    # Five block loads (X in each loop, W and B in the last), each a thread's
    # block // (32 * warps) halves in 128-bit pieces.
    per_thread = block // (32 * warps)
    assert counts.get("ld.global.v4.b32") == 5 * per_thread // 8
    assert "ld.global.b16" not in counts
    assert counts.get("st.global.v4.b32") == per_thread // 8 and "st.global.b16" not in counts
