"""tile.compile, specialization from launch arguments, and the launch hand-off."""
from __future__ import annotations


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

    def __call__(self, ir, chip, num_warps, emit_cubin=True):
        self.calls.append((ir, chip, num_warps))
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
def test_real_compile_produces_ptx_and_metadata():
    compiled = tile.compile(saxpy, "*fp32,*fp32,i32,fp32,i32", {"BLOCK": 256}, num_warps=2)
    assert ".entry saxpy" in compiled.asm["ptx"]
    assert compiled.metadata["threads"] == 64 and compiled.metadata["num_warps"] == 2
    assert [p["name"] for p in compiled.metadata["params"]] == [
        "x_ptr", "y_ptr", "n", "alpha", "stride"]
    assert compiled.metadata["params"][0] == {"name": "x_ptr", "type": "ptr", "pointee": "f32"}
    assert "define" in compiled.asm["llir"]


@tile.jit
def staged(x_ptr, num_stages: tl.constexpr):
    tl.store(x_ptr, num_stages * 1.0)


def test_launch_option_names_can_be_kernel_parameters(backend):
    staged.warmup(FakeTensor(0, "float32"), num_stages=3, num_warps=2)
    ir, _, num_warps = backend.calls[-1]
    assert "3.0 : f32" in ir and num_warps == 2