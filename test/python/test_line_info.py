"""The line table (Triton's default, `knobs.compilation.disable_line_info`)
and fp fusion (`enable_fp_fusion=`, `knobs.language.default_fp_fusion`),
through the real compile: the PTX's `.loc` lines name this file's lines, the
cubin keeps them, and fusion off leaves every multiply and add rounded on
its own."""
from __future__ import annotations

import inspect
import re
import subprocess
from pathlib import Path

import pytest

from conftest import requires_library

import tile
import tile.language as tl
from tile import knobs

pytestmark = requires_library
THIS_FILE = Path(__file__).resolve()


@pytest.fixture(autouse=True)
def restore_knobs():
    with knobs.scope():
        yield


@tile.jit
def twice_plus_one(x):
    return x * 2.0 + 1.0


@tile.jit
def scale(X, Y, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = twice_plus_one(x)
    tl.store(Y + tl.arange(0, BLOCK), y)


@tile.jit
def axpy(X, Y, a, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    y = tl.load(X + offsets) * a + tl.load(Y + offsets)
    tl.store(Y + offsets, y)


def line_of(fn, text: str) -> int:
    """The line of this file where `text` first appears in `fn`'s source."""
    lines, start = inspect.getsourcelines(fn.fn if hasattr(fn, "fn") else fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def compile_scale(**options):
    return tile.compile(scale, "*fp32,*fp32", {"BLOCK": 128}, target="sm_90",
                        options=options or None)


def loc_lines(ptx: str) -> set[int]:
    """The source lines of the `.loc` directives for this file."""
    files = {number for number, path in re.findall(r'\.file\s+(\d+)\s+"([^"]+)"', ptx)
             if Path(path) == THIS_FILE}
    return {int(line) for number, line in re.findall(r"\.loc\s+(\d+)\s+(\d+)", ptx)
            if number in files}


def test_the_ptx_line_table_names_the_kernel_lines():
    ptx = compile_scale().asm["ptx"]
    lines = loc_lines(ptx)
    assert line_of(scale, "tl.load") in lines
    assert line_of(scale, "tl.store") in lines
    # The inlined device function keeps its own line.
    assert line_of(twice_plus_one, "return") in lines
    # No `debug` on the target: ptxas would compile as for -G, unoptimized.
    assert re.search(r"^\.target sm_90$", ptx, re.M), ptx[:400]


def test_the_cubin_keeps_the_line_table():
    cubin = compile_scale().asm["cubin"]
    assert cubin.startswith(b"\x7fELF") and b".debug_line\0" in cubin
    knobs.compilation.disable_line_info = True
    assert b".debug_line\0" not in compile_scale().asm["cubin"]


def test_nvdisasm_reads_the_lines_back():
    nvdisasm = knobs.nvidia.nvdisasm.path
    if nvdisasm is None:
        pytest.skip("no nvdisasm in the CUDA toolkit (tile.knobs.nvidia.nvdisasm.path)")
    cubin = compile_scale().asm["cubin"]
    path = Path(tile.knobs.cache.dir) / "line-info-test.cubin"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(cubin)
    listing = subprocess.run([nvdisasm, "-g", str(path)], capture_output=True, text=True,
                             check=True).stdout
    assert f'## File "{THIS_FILE}", line {line_of(scale, "tl.load")}' in listing


def test_disable_line_info_leaves_the_table_out():
    knobs.compilation.disable_line_info = True
    ptx = compile_scale().asm["ptx"]
    assert ".loc" not in ptx and ".file" not in ptx and ".debug_" not in ptx
    del knobs.compilation.disable_line_info
    assert loc_lines(compile_scale().asm["ptx"])


def body(ptx: str) -> str:
    """The instructions, without the debug sections."""
    return ptx.split(".section", 1)[0]


def test_fp_fusion_is_on_by_default_and_off_rounds_each_operation():
    signature = "*fp32,*fp32,fp32"
    fused = body(tile.compile(axpy, signature, {"BLOCK": 128}, target="sm_90").asm["ptx"])
    assert "fma.rn.f32" in fused and "mul.rn.f32" not in fused
    separate = body(tile.compile(axpy, signature, {"BLOCK": 128}, target="sm_90",
                                 options={"enable_fp_fusion": False}).asm["ptx"])
    assert "fma" not in separate
    assert "mul.rn.f32" in separate and "add.rn.f32" in separate
    knobs.language.default_fp_fusion = False
    by_knob = body(tile.compile(axpy, signature, {"BLOCK": 128}, target="sm_90").asm["ptx"])
    assert "fma" not in by_knob and "mul.rn.f32" in by_knob
