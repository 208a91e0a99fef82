"""Ahead-of-time compilation: `python -m tile.aot` writes a cubin and a C header."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, python_env, requires_library

from tile import aot
from tile.compiler.pipeline import CompiledKernel

CUDA_INCLUDE = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "include"


def fake_artifact(shared_bytes: int = 0) -> CompiledKernel:
    return CompiledKernel(
        {"tile": "", "llir": "", "ptx": "", "cubin": b"\x7fELF" + bytes(40)},
        {"name": "add_kernel", "num_warps": 4, "threads": 128, "shared_bytes": shared_bytes,
         "target": "sm_90", "params": [{"name": "x_ptr", "type": "ptr", "pointee": "f32"},
                                       {"name": "n", "type": "i32"},
                                       {"name": "scale", "type": "f32"}],
         "signature": {"x_ptr": "*fp32", "n": "i32", "scale": "fp32"},
         "constexprs": {"BLOCK": 1024}})


def test_header_declares_a_driver_api_launcher():
    header = aot.header_text(fake_artifact(), "add_kernel")
    assert "static const unsigned char add_kernel_cubin[44]" in header
    assert "0x7f, 0x45, 0x4c, 0x46" in header
    assert ("add_kernel_launch(CUstream stream, unsigned gridX, unsigned gridY,"
            in header)
    assert "CUdeviceptr x_ptr, int32_t n, float scale)" in header
    for call in ("cuModuleLoadData(&module, add_kernel_cubin)",
                 'cuModuleGetFunction(&function, module, "add_kernel")',
                 "cuLaunchKernel(function, gridX, gridY, gridZ, ADD_KERNEL_THREADS, 1, 1"):
        assert call in header
    assert "#define ADD_KERNEL_THREADS 128" in header


def test_dynamic_shared_memory_is_requested_at_launch():
    # Shared memory is dynamic: every launch asks for the kernel's bytes, and
    # the function opts in once beyond the default 48 KiB.
    header = aot.header_text(fake_artifact(shared_bytes=32_768), "add_kernel")
    assert "ADD_KERNEL_THREADS, 1, 1,\n                        ADD_KERNEL_SHARED_BYTES, stream" in header
    assert "#define ADD_KERNEL_SHARED_BYTES 32768" in header
    assert "if (ADD_KERNEL_SHARED_BYTES > 48 * 1024)" in header
    assert "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES" in header


@pytest.mark.skipif(not (CUDA_INCLUDE / "cuda.h").is_file() or not shutil.which("cc"),
                    reason="needs cuda.h and a C compiler")
def test_header_compiles_as_c(tmp_path):
    (tmp_path / "add_kernel.h").write_text(aot.header_text(fake_artifact(), "add_kernel"))
    source = tmp_path / "use.c"
    source.write_text('#include "add_kernel.h"\n'
                      "CUresult go(CUdeviceptr x) { return add_kernel_launch(0, 1, 1, 1, x, 3, "
                      "2.0f); }\n")
    result = subprocess.run(["cc", "-std=c99", "-Wall", "-Werror", "-fsyntax-only",
                             f"-I{CUDA_INCLUDE}", str(source)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def descriptor_artifact(box: list[int] | None) -> CompiledKernel:
    """A kernel of one host descriptor `d` (rank 2) whose tensor map it reads
    with TMA in boxes of `box` (None: it does not read the map)."""
    encoding = {"box": box, "swizzle": 128, "element_bytes": 2} if box else {}
    return CompiledKernel(
        {"tile": "", "llir": "", "ptx": "", "cubin": b"\x7fELF" + bytes(40)},
        {"name": "copy_kernel", "num_warps": 4, "threads": 128, "shared_bytes": 0,
         "target": "sm_90a",
         "params": [{"name": "d.base", "type": "ptr", "pointee": "f16"},
                    {"name": "d.shape[0]", "type": "i32"}, {"name": "d.shape[1]", "type": "i32"},
                    {"name": "d.strides[0]", "type": "i64"},
                    {"name": "d.tensor_map", "type": "tensormap", **encoding}],
         "signature": {"d": "tensordesc<fp16[128,64]>"}, "constexprs": {}})


def test_descriptor_tensor_maps_are_encoded_at_launch():
    # The map is not an argument of the launch function: it is encoded from
    # the descriptor's parts (innermost first, strides in bytes) as the JIT
    # launcher encodes it, and passed by value; a map the kernel does not
    # read is zeros.
    header = aot.header_text(descriptor_artifact([128, 64]), "copy_kernel")
    assert ("copy_kernel_launch(CUstream stream, unsigned gridX, unsigned gridY, unsigned "
            "gridZ, CUdeviceptr d_base, int32_t d_shape_0_, int32_t d_shape_1_, "
            "int64_t d_strides_0_)") in " ".join(header.split())
    flat = " ".join(header.split())
    for text in ("const cuuint64_t dims[2] = {(cuuint64_t)d_shape_1_, (cuuint64_t)d_shape_0_};",
                 "const cuuint64_t strides[1] = {(cuuint64_t)d_strides_0_ * 2};",
                 "const cuuint32_t box[2] = {64, 128};",
                 "CU_TENSOR_MAP_DATA_TYPE_UINT16", "CU_TENSOR_MAP_SWIZZLE_128B",
                 "void *params[] = {(void *)&d_base, (void *)&d_shape_0_, (void *)&d_shape_1_, "
                 "(void *)&d_strides_0_, (void *)d_tensor_map};"):
        assert text in flat, text
    unread = aot.header_text(descriptor_artifact(None), "copy_kernel")
    assert "cuTensorMapEncodeTiled" not in unread and "memset(d_tensor_map, 0, 128);" in unread


@pytest.mark.skipif(not (CUDA_INCLUDE / "cuda.h").is_file() or not shutil.which("cc"),
                    reason="needs cuda.h and a C compiler")
def test_descriptor_header_compiles_as_c(tmp_path):
    for std, box in (("c99", [128, 64]), ("c11", None)):
        (tmp_path / "copy_kernel.h").write_text(aot.header_text(descriptor_artifact(box),
                                                                "copy_kernel"))
        source = tmp_path / "use.c"
        source.write_text('#include "copy_kernel.h"\n'
                          "CUresult go(CUdeviceptr x) { return copy_kernel_launch(0, 1, 1, 1, "
                          "x, 256, 64, 64); }\n")
        result = subprocess.run(["cc", f"-std={std}", "-Wall", "-Wextra", "-Werror",
                                 "-fsyntax-only", f"-I{CUDA_INCLUDE}", str(source)],
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


def test_constexpr_parsing():
    assert aot.parse_constexpr("BLOCK=1024") == ("BLOCK", 1024)
    assert aot.parse_constexpr("ACT=leaky_relu") == ("ACT", "leaky_relu")
    assert aot.parse_constexpr("EPS=1e-5") == ("EPS", 1e-5)


@requires_library
def test_command_line_writes_cubin_and_header(tmp_path):
    env = python_env()
    kernel = REPO / "examples" / "python" / "vector_add.py"
    result = subprocess.run(
        [sys.executable, "-m", "tile.aot", f"{kernel}:vector_add", "--signature",
         "*fp32,*fp32,*fp32,i32", "--constexpr", "BLOCK=1024", "-o", str(tmp_path)],
        capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    cubin = (tmp_path / "vector_add.cubin").read_bytes()
    assert cubin[:4] == b"\x7fELF"
    header = (tmp_path / "vector_add.h").read_text()
    assert f"vector_add_cubin[{len(cubin)}]" in header
    assert "CUdeviceptr x_ptr, CUdeviceptr y_ptr, CUdeviceptr out_ptr, int32_t n)" in header


def test_command_line_reports_compilation_errors(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import tile\nimport tile.language as tl\n\n@tile.jit\ndef k(x_ptr):\n"
                   "    tl.store(x_ptr, tl.zeros((2,), tl.float32) + tl.zeros((3,), "
                   "tl.float32))\n")
    env = python_env()
    result = subprocess.run([sys.executable, "-m", "tile.aot", f"{bad}:k", "--signature",
                             "*fp32", "-o", str(tmp_path)], capture_output=True, text=True,
                            env=env, timeout=300)
    assert result.returncode == 1
    assert f"{bad}:6:" in result.stderr and "cannot broadcast" in result.stderr
    assert "Traceback" not in result.stderr
