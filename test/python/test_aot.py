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
    assert "cuFuncSetAttribute" not in header


def test_static_shared_memory_is_not_requested_again_as_dynamic():
    # A kernel's shared memory is a static global of its module: asking for
    # the same bytes as dynamic shared memory would double the footprint.
    header = aot.header_text(fake_artifact(shared_bytes=32_768), "add_kernel")
    assert "ADD_KERNEL_THREADS, 1, 1,\n                        0, stream" in header
    assert "#define ADD_KERNEL_SHARED_BYTES 32768" in header
    assert "cuFuncSetAttribute" not in header


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
