"""The line table (Triton's default, `knobs.compilation.disable_line_info`),
fp fusion (`enable_fp_fusion=`, `knobs.language.default_fp_fusion`) and
libdevice's flush-to-zero (`enable_reflect_ftz=`), through the real compile:
the PTX's `.loc` lines name this file's lines, the cubin keeps them, fusion
off leaves every multiply and add rounded on its own, and ftz picks
libdevice's `.ftz` instructions."""
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


@tile.jit
def exp2_sqrt(data):
    ptrs = data + tl.arange(0, 128)
    x = tl.load(ptrs)
    tl.store(ptrs, tl.math.exp2(x) + tl.sqrt(x) + tl.exp(x))


class Float32Array:
    """Enough of an array for a warmup: an address and a dtype."""
    dtype = "float32"

    def data_ptr(self) -> int:
        return 1 << 20


@pytest.mark.parametrize("enable_reflect_ftz", [False, True])
def test_enable_reflect_ftz_flushes_libdevice_subnormals(enable_reflect_ftz):
    # Triton's test_enable_reflect_ftz, through a warmup as there.
    h = exp2_sqrt.warmup(Float32Array(), grid=(1,), enable_reflect_ftz=enable_reflect_ftz)
    ptx = body(h.asm["ptx"])
    assert ("ex2.approx.ftz.f32" in ptx) == enable_reflect_ftz
    assert ("sqrt.approx.ftz.f32" in ptx) == enable_reflect_ftz
    # tl.exp is tile's own ex2.approx of x * log2(e), as Triton's: never ftz.
    assert re.search(r"ex2\.approx\.f32 ", ptx)
    assert ("nvvm-reflect-ftz" in h.asm["llir"]) == enable_reflect_ftz


def test_reflect_ftz_is_on_by_default_and_a_bool():
    ptx = body(tile.compile(exp2_sqrt, "*fp32", {}, target="sm_90").asm["ptx"])
    assert "ex2.approx.ftz.f32" in ptx
    off = tile.compile(exp2_sqrt, "*fp32", {}, target="sm_90",
                       options={"enable_reflect_ftz": False}).asm["ptx"]
    assert ".ftz." not in body(off)
    with pytest.raises(TypeError, match="enable_reflect_ftz is True or False, got 1"):
        exp2_sqrt.warmup(Float32Array(), grid=(1,), enable_reflect_ftz=1)


@tile.jit
def exact_ops(data, W, BLOCK: tl.constexpr):
    ptrs = data + tl.arange(0, BLOCK)
    x = tl.load(ptrs)
    w = tl.load(W + tl.arange(0, BLOCK)[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :])
    y = tl.abs(x) + tl.maximum(x, 1.0) + tl.fma(x, x, x)
    y += tl.math.div_rn(x, y) + tl.math.sqrt_rn(y)
    tl.store(ptrs, y + tl.sum(tl.dot(w, w, input_precision="ieee"), axis=0))


def test_reflect_ftz_leaves_the_ops_triton_keeps_exact_unflushed():
    # Triton emits abs, maximum, fma, div_rn, sqrt_rn and the FMA dot as PTX
    # of their own, not libdevice calls: none flushes subnormals.
    ptx = body(tile.compile(exact_ops, "*fp32,*fp32", {"BLOCK": 16}, target="sm_90").asm["ptx"])
    assert ".ftz." not in ptx, [line for line in ptx.splitlines() if ".ftz." in line][:5]
    for instruction in ("max.f32", "fma.rn.f32", "div.rn.f32", "sqrt.rn.f32"):
        assert instruction in ptx, instruction


def test_maxnreg_limits_the_kernel_entry():
    # Triton's test_maxnreg: `.maxnreg 42` on the .entry; none without it.
    ptx = exp2_sqrt.warmup(Float32Array(), grid=(1,), maxnreg=42).asm["ptx"]
    assert re.search(r"\.visible \.entry [^{;]*\.maxnreg 42", ptx)
    assert ".maxnreg" not in exp2_sqrt.warmup(Float32Array(), grid=(1,)).asm["ptx"]


@tile.jit
def asin_kernel(data):
    offs = tl.arange(0, 128)
    tl.store(data + offs, tl.extra.cuda.libdevice.asin(tl.load(data + offs)))


def test_extern_libs_links_the_given_libdevice(tmp_path):
    # Tutorial 07's extern_libs={"libdevice": path}: that file is linked (a
    # copy of the toolchain's here), and the launch facts name it.
    from tile.compiler import toolchain
    found = toolchain.toolchain().libdevice
    if found is None:
        pytest.skip("no libdevice in this toolchain")
    copy = tmp_path / "libdevice.10.bc"
    copy.write_bytes(found.read_bytes())
    h = asin_kernel.warmup(Float32Array(), grid=(1,), extern_libs={"libdevice": str(copy)})
    assert h.metadata["libdevice"] == str(copy)
    assert ".extern .func" not in h.asm["ptx"] and "__nv_asinf" not in h.asm["ptx"]
    assert asin_kernel.warmup(Float32Array(), grid=(1,)).metadata["libdevice"] == str(found)

