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


requires_c_compiler = pytest.mark.skipif(
    not (CUDA_INCLUDE / "cuda.h").is_file() or not shutil.which("cc"),
    reason="needs cuda.h and a C compiler")


def assert_header_compiles(tmp_path, std: str, name: str, header: str, use: str) -> None:
    """`header` (written as name.h) and a function `use` calling it compile
    as C of standard `std` without warnings."""
    (tmp_path / f"{name}.h").write_text(header)
    source = tmp_path / "use.c"
    source.write_text(f'#include "{name}.h"\n{use}\n')
    result = subprocess.run(["cc", f"-std={std}", "-Wall", "-Wextra", "-Werror",
                             "-fsyntax-only", f"-I{CUDA_INCLUDE}", str(source)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@requires_c_compiler
def test_header_compiles_as_c(tmp_path):
    assert_header_compiles(tmp_path, "c99", "add_kernel",
                           aot.header_text(fake_artifact(), "add_kernel"),
                           "CUresult go(CUdeviceptr x) { return add_kernel_launch(0, 1, 1, 1, "
                           "x, 3, 2.0f); }")


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


@requires_c_compiler
def test_descriptor_header_compiles_as_c(tmp_path):
    for std, box in (("c99", [128, 64]), ("c11", None)):
        assert_header_compiles(tmp_path, std, "copy_kernel",
                               aot.header_text(descriptor_artifact(box), "copy_kernel"),
                               "CUresult go(CUdeviceptr x) { return copy_kernel_launch(0, 1, 1, "
                               "1, x, 256, 64, 64); }")


def recipe_artifact(**c_map: object) -> CompiledKernel:
    """A kernel that makes tensor maps itself (hidden parameters after its
    own, each with a recipe): `a_ptr`'s M x K with row stride lda, read in
    64x64 boxes; `c_ptr`'s (M*K) x 64 in 32x64 boxes of f32 (or `c_map`'s
    keys); and one over `a_ptr` it does not read (no encoding)."""
    c_encoding = {"box": [32, 64], "swizzle": 64, "element_bytes": 4}
    return CompiledKernel(
        {"tile": "", "llir": "", "ptx": "", "cubin": b"\x7fELF" + bytes(40)},
        {"name": "made_kernel", "num_warps": 4, "threads": 128, "shared_bytes": 0,
         "target": "sm_90a",
         "params": [{"name": "a_ptr", "type": "ptr", "pointee": "f16"},
                    {"name": "c_ptr", "type": "ptr", "pointee": "f32"},
                    {"name": "M", "type": "i32"}, {"name": "K", "type": "i32"},
                    {"name": "lda", "type": "i64"},
                    {"name": "a_ptr.tensor_map", "type": "tensormap", "box": [64, 64],
                     "swizzle": 128, "element_bytes": 2,
                     "recipe": {"base": 0, "shape": [[1, [2]], [1, [3]]],
                                "strides": [[1, [4]], [1, []]]}},
                    {"name": "c_ptr.tensor_map", "type": "tensormap", **c_encoding,
                     "recipe": {"base": 1, "shape": [[1, [2, 3]], [64, []]],
                                "strides": [[64, []], [1, []]]}, **c_map},
                    {"name": "a_ptr.tensor_map_1", "type": "tensormap",
                     "recipe": {"base": 0, "shape": [[2, [2]]], "strides": [[1, []]]}}],
         "signature": {"a_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "K": "i32",
                       "lda": "i64"},
         "constexprs": {}})


def test_tensor_maps_made_by_the_kernel_are_encoded_from_their_recipes():
    # A hidden map is no argument of the launch function: it is encoded from
    # the parameters its recipe names (extents and strides as cuuint64_t
    # products, innermost first, strides in bytes) as the JIT launcher makes
    # it, and passed by value after the kernel's own parameters.
    header = aot.header_text(recipe_artifact(), "made_kernel")
    flat = " ".join(header.split())
    assert ("made_kernel_launch(CUstream stream, unsigned gridX, unsigned gridY, unsigned "
            "gridZ, CUdeviceptr a_ptr, CUdeviceptr c_ptr, int32_t M, int32_t K, "
            "int64_t lda)") in flat
    for text in ("const cuuint64_t dims[2] = {(cuuint64_t)K, (cuuint64_t)M};",
                 "const cuuint64_t strides[1] = {(cuuint64_t)lda * 2};",
                 "const cuuint32_t box[2] = {64, 64};",
                 "cuTensorMapEncodeTiled(a_ptr_tensor_map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, "
                 "(void *)(uintptr_t)a_ptr,",
                 "const cuuint64_t dims[2] = {(cuuint64_t)64, (cuuint64_t)M * (cuuint64_t)K};",
                 "const cuuint64_t strides[1] = {(cuuint64_t)64 * 4};",
                 "const cuuint32_t box[2] = {64, 32};",
                 "cuTensorMapEncodeTiled(c_ptr_tensor_map, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, "
                 "(void *)(uintptr_t)c_ptr,", "CU_TENSOR_MAP_SWIZZLE_64B",
                 "memset(a_ptr_tensor_map_1, 0, 128);",
                 "void *params[] = {(void *)&a_ptr, (void *)&c_ptr, (void *)&M, (void *)&K, "
                 "(void *)&lda, (void *)a_ptr_tensor_map, (void *)c_ptr_tensor_map, "
                 "(void *)a_ptr_tensor_map_1};"):
        assert text in flat, text
    assert flat.count("cuTensorMapEncodeTiled(") == 2  # the unread map is zeros
    # Any 64-bit scale is a valid C literal (negative ones modulo 2^64).
    scaled = aot.header_text(recipe_artifact(recipe={
        "base": 1, "shape": [[-3, [2]], [2**40, [3]]], "strides": [[5_000_000_000, []],
                                                                  [1, []]]}), "made_kernel")
    assert ("dims[2] = {(cuuint64_t)1099511627776ull * (cuuint64_t)K, "
            "(cuuint64_t)18446744073709551613ull * (cuuint64_t)M};") in " ".join(scaled.split())
    assert "strides[1] = {(cuuint64_t)5000000000ull * 4};" in " ".join(scaled.split())


def test_bad_recipes_are_named_errors():
    from tile.driver.errors import DriverError
    with pytest.raises(DriverError, match=r"kernel 'made_kernel' parameter 'c_ptr.tensor_map': "
                                          r"recipe base 2 is parameter M: i32, not a pointer"):
        aot.header_text(recipe_artifact(recipe={"base": 2, "shape": [[1, [2]], [1, [3]]],
                                                "strides": [[1, [4]], [1, []]]}), "made_kernel")


@requires_c_compiler
def test_recipe_header_compiles_as_c(tmp_path):
    for std in ("c99", "c11"):
        assert_header_compiles(tmp_path, std, "made_kernel",
                               aot.header_text(recipe_artifact(), "made_kernel"),
                               "CUresult go(CUdeviceptr a, CUdeviceptr c) { return "
                               "made_kernel_launch(0, 1, 1, 1, a, c, 256, 128, 128); }")


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
