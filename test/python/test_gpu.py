"""End to end on a GPU: `kernel[grid](...)` compiles, launches through
tile.driver, and computes the right numbers. Skipped without a GPU (CI)."""
from __future__ import annotations

import ctypes
import importlib.util
import math
import random
import struct
from pathlib import Path

import pytest

from conftest import REPO, requires_library

import tile


def _cuda() -> ctypes.CDLL | None:
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None
    count = ctypes.c_int(0)
    if cuda.cuInit(0) != 0 or cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 or not count.value:
        return None
    return cuda


CUDA = _cuda()
pytestmark = [requires_library,
              pytest.mark.skipif(CUDA is None, reason="needs a CUDA GPU and driver")]


class DeviceArray:
    """A minimal GPU array (device memory + __cuda_array_interface__) made with
    the driver API, so these tests need neither torch nor CuPy."""

    _FORMATS = {"f4": "f", "f2": "e", "i4": "i"}

    def __init__(self, values: list[float], typestr: str = "f4") -> None:
        self.typestr, self.count = typestr, len(values)
        self.format = self._FORMATS[typestr]
        device, context = ctypes.c_int(), ctypes.c_void_p()
        assert CUDA.cuDeviceGet(ctypes.byref(device), 0) == 0
        assert CUDA.cuDevicePrimaryCtxRetain(ctypes.byref(context), device) == 0
        assert CUDA.cuCtxSetCurrent(context) == 0
        data = struct.pack(f"{self.count}{self.format}", *values)
        self.address = ctypes.c_uint64()
        assert CUDA.cuMemAlloc_v2(ctypes.byref(self.address), ctypes.c_size_t(len(data))) == 0
        assert CUDA.cuMemcpyHtoD_v2(self.address, data, ctypes.c_size_t(len(data))) == 0

    @property
    def __cuda_array_interface__(self) -> dict:
        return {"data": (self.address.value, False), "typestr": "<" + self.typestr,
                "shape": (self.count,), "version": 3}

    def to_list(self) -> list[float]:
        assert CUDA.cuCtxSynchronize() == 0
        size = self.count * struct.calcsize(self.format)
        buffer = ctypes.create_string_buffer(size)
        assert CUDA.cuMemcpyDtoH_v2(buffer, self.address, ctypes.c_size_t(size)) == 0
        return list(struct.unpack(f"{self.count}{self.format}", buffer.raw))


def example(relative: str):
    path = REPO / "examples" / "python" / relative
    spec = importlib.util.spec_from_file_location(f"gpu_{Path(relative).stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_vector_add():
    kernel = example("tutorials/01_vector_add.py").add_kernel
    n = 98_432
    x = [random.random() for _ in range(n)]
    y = [random.random() for _ in range(n)]
    dx, dy, out = DeviceArray(x), DeviceArray(y), DeviceArray([0.0] * n)
    kernel[lambda meta: (tile.cdiv(n, meta["BLOCK_SIZE"]),)](dx, dy, out, n, BLOCK_SIZE=1024)
    assert max(abs(o - (a + b)) for o, a, b in zip(out.to_list(), x, y)) < 1e-6


def test_matrix_add_24x40_tiles():
    kernel = example("matrix_add.py").matrix_add
    m, n = 50, 70
    a = [random.random() for _ in range(m * n)]
    b = [random.random() for _ in range(m * n)]
    da, db, dc = DeviceArray(a), DeviceArray(b), DeviceArray([0.0] * m * n)
    kernel[(math.ceil(m / 24), math.ceil(n / 40))](da, db, dc, m, n, n, TILE_M=24, TILE_N=40)
    assert max(abs(c - (x + y)) for c, x, y in zip(dc.to_list(), a, b)) < 1e-6


def test_fused_softmax_tutorial():
    kernel = example("tutorials/02_fused_softmax.py").softmax_kernel
    rows, cols = 9, 100
    x = [random.uniform(-3, 3) for _ in range(rows * cols)]
    dx, dy = DeviceArray(x), DeviceArray([0.0] * rows * cols)
    kernel[(4,)](dy, dx, cols, cols, rows, cols, BLOCK_SIZE=128, num_stages=2)
    y = dy.to_list()
    for r in range(rows):
        row = x[r * cols:(r + 1) * cols]
        top = max(row)
        total = sum(math.exp(v - top) for v in row)
        assert max(abs(y[r * cols + c] - math.exp(row[c] - top) / total)
                   for c in range(cols)) < 1e-5


def test_autotuned_matmul_tutorial():
    module = example("tutorials/03_matmul.py")
    m, n, k = 96, 80, 64
    a = [random.uniform(-1, 1) for _ in range(m * k)]
    b = [random.uniform(-1, 1) for _ in range(k * n)]
    a = list(struct.unpack(f"{m * k}e", struct.pack(f"{m * k}e", *a)))  # round to f16
    b = list(struct.unpack(f"{k * n}e", struct.pack(f"{k * n}e", *b)))
    da, db, dc = DeviceArray(a, "f2"), DeviceArray(b, "f2"), DeviceArray([0.0] * m * n, "f2")
    grid = lambda meta: (tile.cdiv(m, meta["BLOCK_SIZE_M"]) * tile.cdiv(n, meta["BLOCK_SIZE_N"]),)  # noqa: E731
    module.matmul_kernel[grid](da, db, dc, m, n, k, k, 1, n, 1, n, 1, ACTIVATION="leaky_relu")
    c = dc.to_list()
    for i in range(0, m, 7):
        for j in range(n):
            s = sum(a[i * k + t] * b[t * n + j] for t in range(k))
            assert abs(c[i * n + j] - (s if s >= 0 else 0.01 * s)) < 2e-2
