"""CPU tests of tile.driver against a fake libcuda (gpu/tests/fake_libcuda.c).

Run from the repository root:  PYTHONPATH=python python3 gpu/tests/test_driver_cpu.py
(or with pytest). Needs a C compiler; no GPU, torch or numpy.
"""
from __future__ import annotations

import ctypes
import json
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
_build = Path(tempfile.mkdtemp(prefix="tile_fake_cuda_"))
FAKE = _build / "libcuda.so.1"
subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-o", str(FAKE), str(HERE / "fake_libcuda.c")],
               check=True)
os.environ["TILE_LIBCUDA"] = str(FAKE)
sys.path.insert(0, str(HERE.parent.parent / "python"))

from tile import driver  # noqa: E402  (after TILE_LIBCUDA is set)

fake = ctypes.CDLL(str(FAKE))
fake.fake_get_stream.restype = ctypes.c_uint64

SIZES = {"ptr": 8, "i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8,
         "f16": 2, "bf16": 2, "f32": 4, "f64": 8}

META = {"chip": "sm_90", "kernels": [
    {"name": "k", "num_warps": 4, "threads": 128, "shared_bytes": 0,
     "params": [{"name": "x", "type": "ptr", "pointee": "f32"},
                {"name": "n", "type": "i32"},
                {"name": "a", "type": "f32"},
                {"name": "b", "type": "i64"},
                {"name": "h", "type": "f16"},
                {"name": "g", "type": "bf16"},
                {"name": "f", "type": "i1"},
                {"name": "d", "type": "f64"},
                {"name": "s", "type": "i16"},
                {"name": "c", "type": "i8"}]},
    {"name": "big", "num_warps": 64, "params": []},
    {"name": "missing", "num_warps": 4, "params": []}]}


class FakeTensor:
    """Quacks like torch.Tensor for the driver."""

    def __init__(self, ptr: int, cuda: bool = True, device: int = 0):
        self._ptr, self.is_cuda, self._device = ptr, cuda, device
        self.device = f"cuda:{device}" if cuda else "cpu"

    def data_ptr(self) -> int:
        return self._ptr

    def get_device(self) -> int:
        return self._device if self.is_cuda else -1


class FakeCupy:
    def __init__(self, ptr: int):
        self.__cuda_array_interface__ = {"data": (ptr, False), "shape": (4,), "typestr": "<f4",
                                         "version": 3}


class FakeNumpy:
    __array_interface__ = {"data": (1234, False)}


def _set_sizes(types: list[str]) -> None:
    arr = (ctypes.c_int * len(types))(*[SIZES[t] for t in types])
    fake.fake_set_param_sizes(len(types), arr)


def _record() -> bytes:
    buf = ctypes.create_string_buffer(1024)
    n = fake.fake_get_record(buf)
    return buf.raw[:n]


def _dims() -> tuple[int, ...]:
    arr = (ctypes.c_uint * 6)()
    fake.fake_get_dims(arr)
    return tuple(arr)


def _raises(exc: type[BaseException], fn: Callable[[], Any], *fragments: str) -> str:
    try:
        fn()
    except exc as e:
        msg = str(e)
        for frag in fragments:
            assert frag in msg, f"{frag!r} not in {msg!r}"
        return msg
    raise AssertionError(f"{exc.__name__} not raised")


def _module() -> driver.Module:
    return driver.load_module(b"\x7fELF fake cubin", META)


def test_packing() -> None:
    kernel = _module().kernel("k")
    _set_sizes(kernel.param_types)
    kernel.launch((3, 2), [FakeTensor(0xDEADBEEF00), 100, 1.5, -(1 << 40), 0.5, 1.0,
                           True, 2.25, -3, 0xFF], stream=77)
    expected = (struct.pack("<Q", 0xDEADBEEF00) + struct.pack("<i", 100) + struct.pack("<f", 1.5)
                + struct.pack("<q", -(1 << 40)) + struct.pack("<e", 0.5)
                + struct.pack("<H", 0x3F80) + b"\x01" + struct.pack("<d", 2.25)
                + struct.pack("<h", -3) + struct.pack("<b", -1))
    assert _record() == expected, (_record().hex(), expected.hex())
    assert _dims() == (3, 2, 1, 128, 1, 1), _dims()
    assert fake.fake_get_stream() == 77


def test_pointer_kinds() -> None:
    mod = driver.load_module(b"cubin", {"chip": "sm_90", "name": "p", "num_warps": 2,
                                        "params": [{"name": "a", "type": "ptr"},
                                                   {"name": "b", "type": "ptr"},
                                                   {"name": "c", "type": "ptr"}]})
    kernel = mod.kernel()
    assert kernel.threads == 64
    _set_sizes(kernel.param_types)
    kernel.launch(5, [FakeCupy(0x1000), 0x2000, None])
    assert _record() == struct.pack("<QQQ", 0x1000, 0x2000, 0)
    assert _dims()[:3] == (5, 1, 1)


def test_errors() -> None:
    mod = _module()
    kernel = mod.kernel("k")
    good = [FakeTensor(16), 1, 1.0, 1, 1.0, 1.0, False, 1.0, 1, 1]
    _raises(driver.LaunchError, lambda: kernel.launch((1,), good[:3]), "takes 10 arguments",
            "got 3", "n: i32")
    for grid in [(), (1, 2, 3, 4), (0,), (2, -1), (1.5,), "3", None, (True,)]:
        _raises(driver.LaunchError, lambda g=grid: kernel.launch(g, good), "grid")
    _raises(driver.LaunchError, lambda: kernel.launch((1, 70000), good), "axis 1", "65535")
    host = [FakeNumpy()] + good[1:]
    _raises(driver.LaunchError, lambda: kernel.launch((1,), host), "host array", "argument 0 (x")
    cpu = [FakeTensor(16, cuda=False)] + good[1:]
    _raises(driver.LaunchError, lambda: kernel.launch((1,), cpu), "cpu", ".cuda()")
    other = [FakeTensor(16, device=1)] + good[1:]
    _raises(driver.LaunchError, lambda: kernel.launch((1,), other), "cuda:1")
    _raises(driver.LaunchError, lambda: kernel.launch((1,), good[:1] + [1 << 32] + good[2:]),
            "does not fit in i32")
    _raises(driver.LaunchError, lambda: kernel.launch((1,), good[:1] + [1.0] + good[2:]),
            "expected an integer")
    _raises(driver.LaunchError, lambda: kernel.launch((1,), good[:2] + ["x"] + good[3:]),
            "expected a number")
    _raises(driver.LaunchError, lambda: kernel.launch((1,), good[:4] + [1e6] + good[5:]),
            "f16 range")
    _raises(driver.LaunchError, lambda: kernel.launch((1,), good[:6] + [2] + good[7:]), "i1")
    _raises(driver.LaunchError, lambda: kernel.launch((1,), good, stream="s"), "stream")
    _raises(driver.LaunchError, lambda: mod.kernel("big"), "2048 threads", "1024")
    _raises(driver.DriverError, lambda: mod.kernel("missing"), "not in the cubin")
    _raises(driver.DriverError, lambda: mod.kernel("nope"), "no kernel 'nope'")
    _raises(driver.CudaError, lambda: driver.load_module(b"BAD", META),
            "cuModuleLoadData", "CUDA_ERROR_NO_BINARY_FOR_GPU", "sm_90")
    fake.fake_set_func_max_threads(64)
    _raises(driver.LaunchError, lambda: driver.load_module(b"x", META).kernel("k"),
            "kernel limit 64")
    fake.fake_set_func_max_threads(1024)
    fake.fake_set_fail_launch(701)
    _raises(driver.CudaError, lambda: kernel.launch((1,), good),
            "cuLaunchKernel failed: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
            "too many resources")
    fake.fake_set_fail_launch(700)
    kernel.launch((1,), good)
    _raises(driver.CudaError, driver.synchronize, "CUDA_ERROR_ILLEGAL_ADDRESS")
    fake.fake_set_fail_launch(0)
    _raises(driver.DriverError, lambda: driver.load_module(b"x", {"chip": "sm_90"}),
            "neither")
    bad_type = {"name": "t", "params": [{"name": "q", "type": "u32"}]}
    _raises(driver.DriverError, lambda: driver.load_module(b"x", bad_type), "'u32'")


def test_context_from_other_thread() -> None:
    import threading
    kernel = _module().kernel("k")
    good = [FakeTensor(16), 1, 1.0, 1, 1.0, 1.0, False, 1.0, 1, 1]
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            kernel.launch((1,), good)
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    before, sets = fake.fake_launches(), fake.fake_ctx_sets()
    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert not errors, errors
    assert fake.fake_launches() == before + 1
    assert fake.fake_ctx_sets() == sets + 1  # the new thread got the context once


def test_files_and_artifact() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cubin = Path(tmp) / "add.cubin"
        cubin.write_bytes(b"cubin")
        _raises(driver.DriverError, lambda: driver.load_module(cubin), "no metadata")
        cubin.with_suffix(".json").write_text(json.dumps(META))
        mod = driver.load_module(str(cubin))
        assert mod.kernel_names == ["k", "big", "missing"]

    class Artifact:
        asm = {"cubin": b"artifact cubin"}
        metadata = dict(META["kernels"][0], chip="sm_90")

    art = Artifact()
    _set_sizes(driver.Module(art.asm["cubin"], art.metadata).kernel().param_types)
    driver.launch(art, (4, 5, 6), [FakeTensor(8), 7, 0.0, 0, 0.0, 0.0, 0, 0.0, 0, 0])
    assert _dims()[:3] == (4, 5, 6)
    assert _record()[8:12] == struct.pack("<i", 7)
    assert len(driver._artifact_kernels) == 1
    driver.launch(art, (1,), [FakeTensor(8), 7, 0.0, 0, 0.0, 0.0, 0, 0.0, 0, 0])
    assert len(driver._artifact_kernels) == 1


def test_bf16_rounding() -> None:
    assert driver._bf16_bits(1.0) == 0x3F80
    assert driver._bf16_bits(-2.0) == 0xC000
    assert driver._bf16_bits(1.0 + 2 ** -8) == 0x3F80        # tie: to even
    assert driver._bf16_bits(1.0 + 3 * 2 ** -9) == 0x3F81    # above half: up
    assert driver._bf16_bits(float("inf")) == 0x7F80
    assert driver._bf16_bits(float("nan")) & 0x7FC0 == 0x7FC0


def test_launch_overhead() -> None:
    import time
    kernel = _module().kernel("k")
    _set_sizes(kernel.param_types)
    args = [FakeTensor(16), 1, 1.0, 1, 1.0, 1.0, False, 1.0, 1, 1]
    n = 20000
    t0 = time.perf_counter()
    for _ in range(n):
        kernel.launch((1,), args, stream=0)
    per = (time.perf_counter() - t0) / n * 1e6
    print(f"  host overhead per launch (10 args, fake driver): {per:.2f} us")


def test_no_driver() -> None:
    code = ("import os, sys; os.environ['TILE_LIBCUDA'] = '/nonexistent/libcuda.so.1'; "
            f"sys.path.insert(0, {str(HERE.parent.parent / 'python')!r}); "
            "from tile import driver\n"
            "try:\n    driver.load_module(b'x', {'name': 'k'})\n"
            "except driver.DriverNotFoundError as e:\n    print('OK', e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.startswith("OK cannot load the CUDA driver library"), out


if __name__ == "__main__":
    tests = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_")]
    for name, fn in tests:
        fn()
        print("ok", name)
    print(f"{len(tests)} tests passed")
