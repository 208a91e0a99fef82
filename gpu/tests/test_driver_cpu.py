"""CPU tests of tile.driver and the C launcher against a fake libcuda
(gpu/tests/fake_libcuda.c): argument packing, errors, contexts, the JIT's
launch cache, device selection (tensors' device, CUDA_VISIBLE_DEVICES, a
second device), per-device module loading from several threads, the tensor
maps of host descriptors (encoded by the launcher, cached), the tensor maps
a kernel makes (made at launch from other parameters by a recipe).

Run against the installed package (CI):  python gpu/tests/test_driver_cpu.py
or a checkout:  PYTHONPATH=python python3 gpu/tests/test_driver_cpu.py
(or with pytest). Needs a C compiler; no GPU, torch or numpy. The JIT cases
need the compile library (they compile real kernels) and an assembler.
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
os.environ.pop("CUDA_VISIBLE_DEVICES", None)
os.environ.setdefault("TILE_CACHE_DIR", str(_build / "cache"))

import tile  # noqa: E402  (after TILE_LIBCUDA is set)
import tile.language as tl  # noqa: E402
from tile import driver  # noqa: E402
from tile.driver import launcher, modules  # noqa: E402

fake = ctypes.CDLL(str(FAKE))
fake.fake_get_stream.restype = ctypes.c_uint64
fake.fake_last_function.restype = ctypes.c_uint64

SIZES = {"ptr": 8, "i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8,
         "f16": 2, "bf16": 2, "f32": 4, "f64": 8, "tensormap": 128}

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


class FakeDtype:
    def __init__(self, name: str, itemsize: int = 4) -> None:
        self.name = name
        self.itemsize = itemsize

    def __str__(self) -> str:
        return f"torch.{self.name}"


FLOAT32 = FakeDtype("float32")
FLOAT16 = FakeDtype("float16", 2)


class FakeTensor:
    """Quacks like torch.Tensor for the driver."""

    def __init__(self, ptr: int, cuda: bool = True, device: int = 0,
                 dtype: FakeDtype = FLOAT32):
        self._ptr, self.is_cuda, self._device = ptr, cuda, device
        self.device = f"cuda:{device}" if cuda else "cpu"
        self.dtype = dtype

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
    buf = ctypes.create_string_buffer(2048)
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
            "too many resources", "grid (1, 1, 1)")
    fake.fake_set_fail_launch(700)
    kernel.launch((1,), good)
    _raises(driver.CudaError, driver.synchronize, "CUDA_ERROR_ILLEGAL_ADDRESS")
    fake.fake_set_fail_launch(0)
    _raises(driver.DriverError, lambda: driver.load_module(b"x", {"chip": "sm_90"}),
            "neither")
    bad_type = {"name": "t", "params": [{"name": "q", "type": "u32"}]}
    _raises(driver.DriverError, lambda: driver.load_module(b"x", bad_type), "'u32'")


def test_dynamic_shared_memory() -> None:
    """Shared memory is dynamic: launches ask for the kernel's bytes, opting
    the function in beyond 48 KiB, with the largest shared carveout
    (CU_FUNC_CACHE_PREFER_SHARED, as Triton's driver sets); more than the
    device allows is an error at load time."""
    def meta(name: str, shared: int) -> dict:
        return {"chip": "sm_90", "kernels": [{"name": name, "num_warps": 4, "threads": 128,
                                              "shared_bytes": shared, "params": []}]}
    small = driver.load_module(b"x", meta("small", 1024)).kernel("small")
    small.launch((1,), [])
    assert fake.fake_last_shared() == 1024
    assert fake.fake_func_cache_config() == 0  # the driver's choice
    big = driver.load_module(b"x", meta("big_smem", 200 * 1024)).kernel("big_smem")
    assert fake.fake_func_dynamic_shared() == 200 * 1024
    assert fake.fake_func_cache_config() == 1  # CU_FUNC_CACHE_PREFER_SHARED
    big.launch((1,), [])
    assert fake.fake_last_shared() == 200 * 1024
    _raises(driver.LaunchError,
            lambda: driver.load_module(b"x", meta("huge", 300 * 1024)).kernel("huge"),
            "307200 bytes of shared memory", "allows 232448")


def test_small_grids_run_the_cubin_without_limit() -> None:
    """Where the compile raised occupancy with a register limit, the
    assembler's own cubin runs grids whose blocks all fit at once without the
    limit (resident_blocks_without_limit per SM, 132 SMs on the fake)."""
    class Artifact:
        asm = {"cubin": b"limited cubin", "cubin_without_limit": b"own cubin"}
        metadata = {"name": "occupancy", "num_warps": 8, "threads": 256, "shared_bytes": 0,
                    "params": [], "chip": "sm_90", "registers": 40,
                    "occupancy_maxnreg": 40, "registers_without_limit": 56,
                    "resident_blocks_without_limit": 4}

    kernel = driver.kernel_for(Artifact(), 0)
    assert kernel.small_grid_kernel is not None
    assert kernel.small_grid_blocks == 4 * 132
    own, limited = kernel.small_grid_kernel.handle, kernel.handle
    assert own != limited
    for grid, expected in (((528,), own), ((4, 132), own), ((529,), limited),
                           ((8192,), limited), ((1,), own)):
        driver.launch(Artifact(), grid, [])
        assert fake.fake_last_function() == expected, (grid, hex(fake.fake_last_function()))

    # The same from files, as tile-translate and tile-cc write them.
    with tempfile.TemporaryDirectory() as tmp:
        cubin = Path(tmp) / "occupancy.cubin"
        cubin.write_bytes(b"limited cubin")
        cubin.with_suffix(".json").write_text(json.dumps(
            {"chip": "sm_90", "kernels": [Artifact.metadata]}))
        plain_module = driver.load_module(cubin).kernel()
        assert plain_module.small_grid_kernel is None  # no cubin beside it
        (Path(tmp) / "occupancy.without-limit.cubin").write_bytes(b"own cubin")
        from_files = driver.load_module(cubin).kernel()
        assert from_files.small_grid_kernel is not None
        from_files.launch((1,), [])
        assert fake.fake_last_function() == from_files.small_grid_kernel.handle
        from_files.launch((600,), [])
        assert fake.fake_last_function() == from_files.handle

    class Plain:
        asm = {"cubin": b"plain cubin"}
        metadata = dict(Artifact.metadata, name="plain")

    plain = driver.kernel_for(Plain(), 0)
    assert plain.small_grid_kernel is None
    driver.launch(Plain(), (1,), [])
    assert fake.fake_last_function() == plain.handle


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


def test_launch_in_the_current_context_asks_for_none() -> None:
    """A launch that finds the kernel's context current is one driver call:
    the launcher looks at the current context only after the driver refuses
    a launch (none current, or another: the tests above)."""
    kernel = _module().kernel("k")
    good = [FakeTensor(16), 1, 1.0, 1, 1.0, 1.0, False, 1.0, 1, 1]
    kernel.launch((1,), good)
    before, gets, sets = fake.fake_launches(), fake.fake_ctx_gets(), fake.fake_ctx_sets()
    kernel.launch((1,), good)
    assert fake.fake_launches() == before + 1
    assert (fake.fake_ctx_gets(), fake.fake_ctx_sets()) == (gets, sets)


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
    loaded = modules.loaded_kernels()
    driver.launch(art, (1,), [FakeTensor(8), 7, 0.0, 0, 0.0, 0.0, 0, 0.0, 0, 0])
    assert modules.loaded_kernels() == loaded  # loaded once per device and cubin


def test_float_rounding() -> None:
    ext = launcher.extension()
    assert ext.bf16_bits(1.0) == 0x3F80
    assert ext.bf16_bits(-2.0) == 0xC000
    assert ext.bf16_bits(1.0 + 2 ** -8) == 0x3F80        # tie: to even
    assert ext.bf16_bits(1.0 + 3 * 2 ** -9) == 0x3F81    # above half: up
    assert ext.bf16_bits(float("inf")) == 0x7F80
    assert ext.bf16_bits(float("nan")) & 0x7FC0 == 0x7FC0
    # f16 bits agree with Python's own rounding (struct 'e') everywhere.
    values = [0.0, -0.0, 1.0, 0.5, 65504.0, 65519.99, 6e-8, 2 ** -24, 2 ** -25,
              3 * 2 ** -26, 2 ** -14, 2 ** -14 - 2 ** -25, 1 + 2 ** -11, 1 + 3 * 2 ** -11,
              0.1, -3.14159, 1e-5, 12345.678, float("inf"), -float("inf")]
    for v in values:
        assert ext.half_bits(v) == struct.unpack("<H", struct.pack("<e", v))[0], v
    for v in (65520.0, 1e6, -70000.0):
        _raises(OverflowError, lambda v=v: ext.half_bits(v), "f16 range")


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


def _subprocess(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, **env}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=environ)


def test_no_driver() -> None:
    code = ("from tile import driver\n"
            "try:\n    driver.load_module(b'x', {'name': 'k'})\n"
            "except driver.DriverNotFoundError as e:\n    print('OK', e)\n")
    out = _subprocess(code, TILE_LIBCUDA="/nonexistent/libcuda.so.1")
    assert out.stdout.startswith("OK cannot load the CUDA driver library"), out


def test_targets_and_visible_devices() -> None:
    """Device ordinals follow CUDA_VISIBLE_DEVICES; each device's target
    comes from its compute capability; an unsupported one is a clear error."""
    assert driver.device_count() == 3
    assert [driver.target(i) for i in (0, 1)] == ["sm_90a", "sm_80"]
    _raises(driver.DriverError, lambda: driver.target(2), "cuda:2 (Fake T4)",
            "compute capability 7.5", "sm_80", "sm_90a")
    _raises(driver.DriverError, lambda: driver.device(3), "no CUDA device 3", "3 device(s)")
    code = ("from tile import driver\n"
            "print(driver.device_count(), driver.device(0).name, driver.current_target())\n"
            "try:\n    driver.target(1)\n"
            "except driver.DriverError as e:\n    print('ERR', e)\n")
    out = _subprocess(code, CUDA_VISIBLE_DEVICES="1,2")
    lines = out.stdout.splitlines()
    assert lines[0] == "2 Fake A100 sm_80", out
    assert lines[1].startswith("ERR cuda:1 (Fake T4) has compute capability 7.5"), out
    out = _subprocess("from tile import driver\nprint(driver.device_count())\n"
                      "try:\n    driver.current_target()\n"
                      "except driver.DriverError as e:\n    print('ERR', e)\n",
                      CUDA_VISIBLE_DEVICES="")
    assert out.stdout.splitlines() == ["0", "ERR no CUDA device 0: 0 device(s) visible "
                                       "(CUDA_VISIBLE_DEVICES selects which)"], out


# -- tensor maps of host descriptors ----------------------------------------------


class FakeEncode(ctypes.Structure):
    """fake_libcuda.c's record of a cuTensorMapEncodeTiled call."""
    _fields_ = [("data_type", ctypes.c_int), ("rank", ctypes.c_uint),
                ("address", ctypes.c_uint64), ("dims", ctypes.c_uint64 * 5),
                ("strides", ctypes.c_uint64 * 4), ("box", ctypes.c_uint * 5),
                ("element_strides", ctypes.c_uint * 5), ("interleave", ctypes.c_int),
                ("swizzle", ctypes.c_int), ("l2_promotion", ctypes.c_int),
                ("oob_fill", ctypes.c_int), ("map", ctypes.c_ubyte * 128)]


def _last_encode() -> FakeEncode:
    encode = FakeEncode()
    fake.fake_get_encode(ctypes.byref(encode))
    return encode


# A kernel of two host descriptors, as the compiler writes it: `q`, whose map
# the kernel reads with TMA (128x64 boxes of a 128x128 fp16 block, 128-byte
# swizzle), and `v`, whose map it does not read.
TMA_META = {"chip": "sm_90", "kernels": [{
    "name": "tma", "num_warps": 4, "threads": 128, "shared_bytes": 0,
    "params": [{"name": "q.base", "type": "ptr", "pointee": "f16"},
               {"name": "q.shape[0]", "type": "i32"}, {"name": "q.shape[1]", "type": "i32"},
               {"name": "q.strides[0]", "type": "i64"},
               {"name": "q.tensor_map", "type": "tensormap", "box": [128, 64], "swizzle": 128,
                "element_bytes": 2},
               {"name": "v.base", "type": "ptr", "pointee": "f32"},
               {"name": "v.shape[0]", "type": "i32"},
               {"name": "v.tensor_map", "type": "tensormap"},
               {"name": "n", "type": "i32"}]}]}


def _tma_kernel() -> Any:
    kernel = driver.load_module(b"tma cubin", TMA_META).kernel("tma")
    _set_sizes(kernel.param_types)
    return kernel


def _tma_args(q: Any, v: Any, n: int = 5) -> list[Any]:
    from tile.runtime.launch import kernel_arguments
    parts = kernel_arguments("q", q) + kernel_arguments("v", v) + [("n", n)]
    assert [name for name, _ in parts] == [p["name"] for p in TMA_META["kernels"][0]["params"]]
    return [value for _, value in parts]


def _descriptors(address: int = 0x100000, rows: int = 512, cols: int = 256,
                 row_stride: int = 256) -> tuple[Any, Any]:
    from tile.tools.tensor_descriptor import TensorDescriptor
    q = TensorDescriptor(FakeTensor(address, dtype=FLOAT16), [rows, cols], [row_stride, 1],
                         [128, 128])
    v = TensorDescriptor(FakeTensor(0x900000), [64], [1], [64])
    return q, v


def test_tensor_maps_are_encoded_and_cached() -> None:
    kernel = _tma_kernel()
    assert kernel.tensor_maps == [None] * 4 + [((128, 64), 128, 2)] + [None] * 4
    q, v = _descriptors()
    encodes, misaligned = fake.fake_encodes(), fake.fake_misaligned_maps()
    kernel.launch((2,), _tma_args(q, v))
    assert fake.fake_encodes() == encodes + 1  # q's map; v's is not read
    encode = _last_encode()
    assert (encode.data_type, encode.rank, encode.address) == (1, 2, 0x100000)  # UINT16
    assert list(encode.dims[:2]) == [256, 512]  # innermost first
    assert list(encode.strides[:1]) == [512]  # bytes: 256 fp16 elements
    assert list(encode.box[:2]) == [64, 128]
    assert list(encode.element_strides[:2]) == [1, 1]
    assert (encode.interleave, encode.swizzle, encode.l2_promotion, encode.oob_fill) == \
        (0, 3, 2, 0)  # NONE, SWIZZLE_128B, L2_128B, OOB_FILL_NONE
    record = _record()
    head = struct.pack("<Qiiq", 0x100000, 512, 256, 256)  # q's base, shape, stride
    assert record[:24] == head, record[:24].hex()
    assert record[24:152] == bytes(encode.map)  # the map, by value
    assert record[152:164] == struct.pack("<Qi", 0x900000, 64)
    assert record[164:292] == bytes(128)  # v's map: zeros
    assert record[292:] == struct.pack("<i", 5)
    assert fake.fake_misaligned_maps() == misaligned  # 64-byte aligned parameters

    # The same address, shape and strides: the cached map (also from another
    # descriptor object); another base or shape: encoded again.
    first = bytes(encode.map)
    kernel.launch((2,), _tma_args(q, v, 6))
    kernel.launch((2,), _tma_args(*_descriptors(), 7))
    assert fake.fake_encodes() == encodes + 1
    assert _record()[24:152] == first and _record()[292:] == struct.pack("<i", 7)
    kernel.launch((2,), _tma_args(*_descriptors(address=0x200000)))
    assert fake.fake_encodes() == encodes + 2
    assert _last_encode().address == 0x200000
    assert _record()[24:152] == bytes(_last_encode().map) != first
    kernel.launch((2,), _tma_args(*_descriptors(rows=300)))
    assert fake.fake_encodes() == encodes + 3
    assert list(_last_encode().dims[:2]) == [256, 300]
    kernel.launch((2,), _tma_args(*_descriptors(row_stride=512)))
    assert fake.fake_encodes() == encodes + 4
    assert list(_last_encode().strides[:1]) == [1024]
    kernel.launch((2,), _tma_args(q, v))  # still among the parameter's cached maps
    assert fake.fake_encodes() == encodes + 4
    assert _record()[24:152] == first
    # Each loaded kernel has its own cache.
    _tma_kernel().launch((2,), _tma_args(q, v))
    assert fake.fake_encodes() == encodes + 5


def test_tensor_map_errors() -> None:
    kernel = _tma_kernel()
    q, v = _descriptors(rows=1000)
    fake.fake_set_fail_encode(1)
    try:
        _raises(driver.CudaError, lambda: kernel.launch((1,), _tma_args(q, v)),
                "cuTensorMapEncodeTiled failed: CUDA_ERROR_INVALID_VALUE",
                "kernel 'tma' argument 4 (q.tensor_map: tensormap)", "rank 2",
                "globalAddress 0x100000", "globalDim [256, 1000]", "globalStrides [512] bytes",
                "boxDim [64, 128]", "2-byte elements", "swizzle 128")
    finally:
        fake.fake_set_fail_encode(0)
    kernel.launch((1,), _tma_args(q, v))  # a failed encode is not cached
    args = _tma_args(q, v)
    for bad, fragments in (
            (FakeTensor(16), ("argument 4 (q.tensor_map", "expected a TensorDescriptor",
                              "FakeTensor")),
            (_descriptors()[1], ("shape [64] has 1 dimensions", "tensor map has 2")),
            (type("D", (), {"base": FakeTensor(16), "shape": [4, 8], "strides": [8, 2]})(),
             ("last stride is 2",)),
            (type("D", (), {"base": FakeTensor(16), "shape": [4, -8], "strides": [8, 1]})(),
             ("shape [4, -8] are not non-negative",)),
            (type("D", (), {"base": FakeTensor(16, device=1), "shape": [4, 8],
                            "strides": [8, 1]})(), ("cuda:1",))):
        _raises(driver.LaunchError,
                lambda bad=bad: kernel.launch((1,), args[:4] + [bad] + args[5:]), *fragments)
    # A map the kernel does not read is zeros, whatever the argument.
    kernel.launch((1,), args[:7] + [None] + args[8:])
    assert _record()[164:292] == bytes(128)


def test_tensor_map_metadata() -> None:
    def meta(**param: Any) -> dict:
        return {"chip": "sm_90", "name": "t",
                "params": [{"name": "d.tensor_map", "type": "tensormap", **param}]}
    _raises(driver.DriverError, lambda: driver.load_module(b"x", meta(box=[8, 8], swizzle=0)),
            "kernel 't' parameter 0 (d.tensor_map: tensormap)", "not ['element_bytes']")
    _raises(driver.DriverError,
            lambda: driver.load_module(b"x", meta(box=[8, 8], swizzle=16, element_bytes=2)),
            "swizzle 16")
    _raises(driver.DriverError,
            lambda: driver.load_module(b"x", meta(box=[8, 512], swizzle=0, element_bytes=2)),
            "box [8, 512]")
    _raises(driver.DriverError,
            lambda: driver.load_module(b"x", meta(box=[8], swizzle=0, element_bytes=3)),
            "element_bytes 3")
    kernel = driver.load_module(b"x", meta()).kernel()
    assert kernel.param_types == ["tensormap"] and kernel.tensor_maps == [None]
    _raises(driver.LaunchError, lambda: kernel.launch((1,), []),
            "takes 1 arguments (d.tensor_map: tensormap)")


def test_tensor_maps_without_the_driver_entry_point() -> None:
    """A driver without cuTensorMapEncodeTiled: kernels that read no map load
    and launch; one that reads a map is a clear error."""
    drv = driver.bindings.driver()
    kernel = _tma_kernel()  # loaded while the driver had it
    drv.address = lambda name, original=drv.address: \
        0 if name == "cuTensorMapEncodeTiled" else original(name)
    launcher._configured = False
    try:
        _raises(driver.DriverError, lambda: _tma_kernel(), "kernel 'tma' reads tensor maps",
                "no cuTensorMapEncodeTiled")
        plain = {"chip": "sm_90", "name": "plain_map",
                 "params": [{"name": "d.tensor_map", "type": "tensormap"}]}
        driver.load_module(b"x", plain).kernel().launch((1,), [None])
        ext = launcher.configured()
        _raises(RuntimeError, lambda: ext.Kernel(
            function=0x3000, context=0x1000, device=0, codes=b"T", threads=32, shared=0,
            max_grid=(1, 1, 1), name="t", param_names=["d.tensor_map"],
            tensor_maps=[((8,), 0, 4)]), "no cuTensorMapEncodeTiled")
        _raises(driver.LaunchError,
                lambda: kernel.launch((1,), _tma_args(*_descriptors(address=0x300000))),
                "argument 4 (q.tensor_map", "no cuTensorMapEncodeTiled")
    finally:
        del drv.address
        launcher._configured = False
        launcher.configured()
    kernel.launch((1,), _tma_args(*_descriptors(address=0x300000)))


def test_tensor_map_launch_overhead() -> None:
    import time
    kernel = _tma_kernel()
    args = _tma_args(*_descriptors())
    kernel.launch((1,), args, stream=0)
    encodes = fake.fake_encodes()
    n = 20000
    t0 = time.perf_counter()
    for _ in range(n):
        kernel.launch((1,), args, stream=0)
    per = (time.perf_counter() - t0) / n * 1e6
    assert fake.fake_encodes() == encodes
    print(f"  host overhead per launch (2 descriptors, one map cached, fake driver): "
          f"{per:.2f} us")


# -- tensor maps made at launch (hidden parameters with a recipe) ------------------


# A kernel that makes tensor maps itself, as the compiler writes it: after its
# own parameters, `x.tensor_map` over x's (2*M) x (4*K) f16 elements with row
# stride ld, read in 64x32 boxes (128-byte swizzle), and `x.tensor_map_1` of
# s elements, which it does not read (no encoding).
RECIPE = {"base": 0, "shape": [[2, [1]], [4, [2]]], "strides": [[1, [3]], [1, []]]}
RECIPE_META = {"chip": "sm_90", "kernels": [{
    "name": "made", "num_warps": 4, "threads": 128, "shared_bytes": 0,
    "params": [{"name": "x", "type": "ptr", "pointee": "f16"},
               {"name": "M", "type": "i32"}, {"name": "K", "type": "i64"},
               {"name": "ld", "type": "i32"}, {"name": "s", "type": "i16"},
               {"name": "alpha", "type": "f32"},
               {"name": "x.tensor_map", "type": "tensormap", "box": [64, 32],
                "swizzle": 128, "element_bytes": 2, "recipe": RECIPE},
               {"name": "x.tensor_map_1", "type": "tensormap",
                "recipe": {"base": 0, "shape": [[1, [4]]], "strides": [[1, []]]}}]}]}


def _made_kernel(meta: dict = RECIPE_META) -> Any:
    kernel = driver.load_module(b"made cubin", meta).kernel("made")
    _set_sizes(kernel.param_types)
    return kernel


def _made_args(address: int = 0x400000, M: int = 100, K: int = 64, ld: int = 320,
               s: int = 3, alpha: float = 1.0) -> list[Any]:
    return [FakeTensor(address, dtype=FLOAT16), M, K, ld, s, alpha]


def test_tensor_maps_made_at_launch() -> None:
    """A hidden map is made from other parameters' values: the address of its
    base, extents and strides as scale x product of integer parameters;
    encoded as a descriptor's (innermost first, byte strides) and cached by
    address, dims and strides. Launches may leave hidden parameters out or
    pass None; a map the kernel does not read is zeros, its recipe unused."""
    kernel = _made_kernel()
    assert kernel.hidden == 2
    assert kernel.tensor_maps == [None] * 6 + [((64, 32), 128, 2), None]
    assert kernel.tensor_map_recipes == [None] * 6 + [
        (0, ((2, (1,)), (4, (2,))), ((1, (3,)), (1, ()))), (0, ((1, (4,)),), ((1, ()),))]
    encodes, misaligned = fake.fake_encodes(), fake.fake_misaligned_maps()
    kernel.launch((2,), _made_args())
    assert fake.fake_encodes() == encodes + 1  # x.tensor_map only
    encode = _last_encode()
    assert (encode.data_type, encode.rank, encode.address) == (1, 2, 0x400000)  # UINT16
    assert list(encode.dims[:2]) == [256, 200]  # innermost first: 4 * K, 2 * M
    assert list(encode.strides[:1]) == [640]  # bytes: ld = 320 f16 elements
    assert list(encode.box[:2]) == [32, 64]
    assert list(encode.element_strides[:2]) == [1, 1]
    assert (encode.interleave, encode.swizzle, encode.l2_promotion, encode.oob_fill) == \
        (0, 3, 2, 0)  # NONE, SWIZZLE_128B, L2_128B, OOB_FILL_NONE
    record = _record()
    assert record[:30] == struct.pack("<Qiqihf", 0x400000, 100, 64, 320, 3, 1.0)
    assert record[30:158] == bytes(encode.map)  # the map, by value, after the others
    assert record[158:] == bytes(128)  # the unread map: zeros
    assert fake.fake_misaligned_maps() == misaligned
    first = bytes(encode.map)

    # The same address and values: the cached map, whatever the other
    # parameters, also with the hidden ones passed as None.
    kernel.launch((2,), _made_args(s=0, alpha=2.0))  # s only in the unread map
    kernel.launch((2,), _made_args() + [None, None])
    assert fake.fake_encodes() == encodes + 1
    assert _record()[30:158] == first
    # A shape parameter changes: encoded again; so for another base or stride.
    kernel.launch((2,), _made_args(M=101))
    assert fake.fake_encodes() == encodes + 2
    assert list(_last_encode().dims[:2]) == [256, 202]
    assert _record()[30:158] == bytes(_last_encode().map) != first
    kernel.launch((2,), _made_args(address=0x800000))
    assert fake.fake_encodes() == encodes + 3 and _last_encode().address == 0x800000
    kernel.launch((2,), _made_args(ld=384))
    assert fake.fake_encodes() == encodes + 4 and list(_last_encode().strides[:1]) == [768]
    kernel.launch((2,), _made_args())  # still among the parameter's cached maps
    assert fake.fake_encodes() == encodes + 4 and _record()[30:158] == first
    # The base as an address (int), as for any pointer parameter.
    kernel.launch((2,), [0x400000] + _made_args()[1:])
    assert fake.fake_encodes() == encodes + 4


def test_tensor_maps_made_at_launch_errors() -> None:
    kernel = _made_kernel()
    encodes = fake.fake_encodes()
    where = "kernel 'made' argument 6 (x.tensor_map: tensormap)"
    for args, fragments in (
            (_made_args(M=0), (where, "shape[0] (outermost first) of the tensor map made at "
                               "launch is 2 * M = 2 * 0 = 0", "extents must be positive")),
            (_made_args(M=-3), ("shape[0]", "2 * M = 2 * -3 = -6")),
            # The values the kernel gets: 0xFFFFFFFB is an i32's -5.
            (_made_args(ld=0xFFFFFFFB), (where, "strides[0] (outermost first) of the tensor "
                                         "map made at launch is ld = -5",
                                         "strides must not be negative")),
            (_made_args(K=1 << 62), (where, "shape[1] (outermost first) of the tensor map "
                                     "made at launch is 4 * K = 4 * 4611686018427387904, "
                                     "past 64 bits"))):
        _raises(driver.LaunchError, lambda args=args: kernel.launch((1,), args), *fragments)
    assert fake.fake_encodes() == encodes  # nothing encoded
    # Its base is a pointer parameter, checked as one.
    _raises(driver.LaunchError,
            lambda: kernel.launch((1,), [FakeTensor(16, device=1)] + _made_args()[1:]),
            "argument 0 (x: ptr)", "cuda:1")
    _raises(driver.LaunchError, lambda: kernel.launch((1,), _made_args() + [_made_args()[0],
                                                                          None]),
            where, "pass None or leave it out", "FakeTensor")
    _raises(driver.LaunchError, lambda: kernel.launch((1,), _made_args()[:5]),
            "kernel 'made' takes 6 arguments (x: ptr, M: i32, K: i64, ld: i32, s: i16, "
            "alpha: f32)", "None for each of its 2 tensor maps made at launch", "got 5")
    _raises(driver.LaunchError, lambda: kernel.launch((1,), _made_args() + [None]), "got 7")
    # A product of parameters, named with their values.
    product = json.loads(json.dumps(RECIPE_META))
    product["kernels"][0]["params"][6]["recipe"]["shape"] = [[1, [1, 2]], [64, []]]
    made = _made_kernel(product)
    _raises(driver.LaunchError, lambda: made.launch((1,), _made_args(K=0)),
            where, "shape[0] (outermost first) of the tensor map made at launch is M * K = "
            "100 * 0 = 0")
    _raises(driver.LaunchError, lambda: made.launch((1,), _made_args(M=1 << 30, K=1 << 40)),
            "is M * K = 1073741824 * 1099511627776, past 64 bits")
    made.launch((1,), _made_args(M=3, K=5))
    assert list(_last_encode().dims[:2]) == [64, 15]
    kernel = _made_kernel()
    encodes = fake.fake_encodes()
    fake.fake_set_fail_encode(1)
    try:
        _raises(driver.CudaError, lambda: kernel.launch((1,), _made_args(M=7)),
                "cuTensorMapEncodeTiled failed: CUDA_ERROR_INVALID_VALUE", where,
                "globalAddress 0x400000", "globalDim [256, 14]", "globalStrides [640] bytes",
                "boxDim [32, 64]")
    finally:
        fake.fake_set_fail_encode(0)
    kernel.launch((1,), _made_args(M=7))  # a failed encode is not cached
    assert fake.fake_encodes() == encodes + 2


def test_tensor_map_recipe_metadata() -> None:
    """What a recipe must be, checked when the module loads, naming the kernel
    and the parameter."""
    def meta(recipe: Any = None, params: list[dict] | None = None, **param: Any) -> dict:
        head = [{"name": "x", "type": "ptr"}, {"name": "M", "type": "i32"},
                {"name": "alpha", "type": "f32"}]
        made = {"name": "x.tensor_map", "type": "tensormap", "box": [8, 8], "swizzle": 0,
                "element_bytes": 2,
                "recipe": RECIPE_2D if recipe is None else recipe, **param}
        return {"chip": "sm_90", "name": "r", "params": (params or head) + [made]}

    RECIPE_2D = {"base": 0, "shape": [[1, [1]], [8, []]], "strides": [[8, []], [1, []]]}
    where = "kernel 'r' parameter 3 (x.tensor_map: tensormap)"
    kernel = driver.load_module(b"x", meta()).kernel()
    assert kernel.hidden == 1 and kernel.tensor_map_recipes[3] == (
        0, ((1, (1,)), (8, ())), ((8, ()), (1, ())))
    for recipe, fragments in (
            ({"base": 0, "shape": [[1, [1]]]}, (where, "is not an object of exactly "
                                                      "['base', 'shape', 'strides']")),
            ({**RECIPE_2D, "padding": 0}, ("not an object of exactly",)),
            ([0, [], []], ("recipe [0, [], []]",)),
            ({**RECIPE_2D, "base": 7}, (where, "recipe base 7 is not a parameter index "
                                               "(0 to 3)")),
            ({**RECIPE_2D, "base": 1}, ("recipe base 1 is parameter M: i32, not a pointer",)),
            ({**RECIPE_2D, "shape": [[1, [1]]]}, ("recipe shape [[1, [1]]] is not a list of "
                                                  "2 (the box's rank) terms",)),
            ({**RECIPE_2D, "shape": [[1.5, []], [8, []]]}, (
                "recipe shape[0] is [1.5, []], not [scale, [parameter indices]]",)),
            ({**RECIPE_2D, "shape": [[1, 1], [8, []]]}, ("recipe shape[0] is [1, 1]",)),
            ({**RECIPE_2D, "shape": [[1 << 63, []], [8, []]]}, (
                "scale 9223372036854775808 does not fit in 64 bits",)),
            ({**RECIPE_2D, "shape": [[1, [9]], [8, []]]}, (
                "recipe shape[0]: 9 is not a parameter index (0 to 3)",)),
            ({**RECIPE_2D, "shape": [[1, [True]], [8, []]]}, ("True is not a parameter",)),
            ({**RECIPE_2D, "shape": [[1, [2]], [8, []]]}, (
                "recipe shape[0] names parameter 2 (alpha: f32), not an integer parameter",)),
            ({**RECIPE_2D, "strides": [[1, [3]], [1, []]]}, (
                "recipe strides[0] names parameter 3 (x.tensor_map: tensormap), not an "
                "integer parameter",)),
            ({**RECIPE_2D, "shape": [[1, [1] * 9], [8, []]]}, ("multiplies 9 parameters; "
                                                               "at most 8",)),
            ({**RECIPE_2D, "strides": [[8, []], [2, []]]}, (
                "recipe's last stride is [2, []], not [1, []]",)),
            ({**RECIPE_2D, "strides": [[8, []], [1, [1]]]}, ("last stride is [1, [1]]",))):
        _raises(driver.DriverError, lambda r=recipe: driver.load_module(b"x", meta(r)),
                *fragments)
    # Without a box: 1 to 5 terms, as many strides as extents.
    for recipe, fragments in (
            ({**RECIPE_2D, "shape": [[1, []]] * 6, "strides": [[1, []]] * 6}, (
                "is not a list of 1 to 5 terms",)),
            ({**RECIPE_2D, "shape": [[1, []]]}, ("recipe has 1 extents but 2 strides",))):
        def load(r: Any = recipe) -> Any:
            m = meta(r)
            for key in ("box", "swizzle", "element_bytes"):
                del m["params"][-1][key]
            return driver.load_module(b"x", m)
        _raises(driver.DriverError, load, *fragments)
    _raises(driver.DriverError,
            lambda: driver.load_module(b"x", meta(params=[{"name": "x", "type": "ptr"},
                                                          {"name": "M", "type": "i32",
                                                           "recipe": RECIPE_2D},
                                                          {"name": "y", "type": "f32"}])),
            "kernel 'r' parameter 1 (M: i32) has a recipe, which only a tensormap has")
    late = meta()
    late["params"].append({"name": "n", "type": "i32"})
    _raises(driver.DriverError, lambda: driver.load_module(b"x", late),
            "kernel 'r' parameter 4 (n: i32) comes after parameter 3 (x.tensor_map), a "
            "tensor map made at launch (a recipe): those come last")

    # The C launcher checks what it is given too.
    ext = launcher.configured()

    def c_kernel(codes: bytes, maps: list[Any]) -> Any:
        return ext.Kernel(function=0x3000, context=0x1000, device=0, codes=codes, threads=32,
                          shared=0, max_grid=(1, 1, 1), name="c",
                          param_names=[f"p{i}" for i in range(len(codes))], tensor_maps=maps)

    recipe = (0, ((1, (1,)),), ((1, ()),))
    assert c_kernel(b"piT", [None, None, ((8,), 0, 2, recipe)])
    assert c_kernel(b"piT", [None, None, (None, None, None, recipe)])
    for codes, maps, fragment in (
            (b"pfT", [None, None, ((8,), 0, 2, recipe)], "indices of integer parameters"),
            (b"iiT", [None, None, ((8,), 0, 2, recipe)], "recipe base 0 is not a pointer"),
            (b"piTi", [None, None, ((8,), 0, 2, recipe), None], "hidden parameters come last"),
            (b"piT", [None, None, ((8, 8), 0, 2, recipe)], "for a box of rank 2"),
            (b"piT", [None, None, ((8,), 0, 2, (0, ((1, (1,)),), ((2, ()),)))],
             "the last (1, ())"),
            (b"piT", [None, None, ((8,), 0, 2, (0, ((1, (7,)),), ((1, ()),)))],
             "indices of integer parameters")):
        _raises(ValueError, lambda c=codes, m=maps: c_kernel(c, m), fragment)


# -- the JIT path: the C dispatcher over real compiled kernels --------------------


@tile.jit
def scale_kernel(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * alpha, mask=mask)


def _can_compile() -> str | None:
    from tile.compiler import capi, toolchain
    if not capi.available():
        return f"no compile library ({capi.library_path()})"
    if toolchain.toolchain().assembler == "none":
        return "no PTX assembler"
    return None


def _jit_record_sizes() -> None:
    _set_sizes(["ptr", "ptr", "i32", "f32"])


def test_jit_launch_cache_and_binding() -> None:
    if _can_compile():
        print("  skipped:", _can_compile())
        return
    calls: list[Any] = []
    from tile.runtime import launch as runtime_launch
    original = runtime_launch.slow_launch

    def counting(*args: Any) -> Any:
        calls.append(args[4])
        return original(*args)

    runtime_launch.slow_launch = counting  # type: ignore[assignment]
    try:
        scale_kernel._dispatcher = None
        scale_kernel._compiled.clear()
        x, out = FakeTensor(0x10000), FakeTensor(0x20000)
        _jit_record_sizes()
        grid = lambda meta: (tile.cdiv(meta["n"], meta["BLOCK"]),)  # noqa: E731
        scale_kernel[grid](x, out, 1000, 2.5, BLOCK=256)
        assert _record() == struct.pack("<QQif", 0x10000, 0x20000, 1000, 2.5), _record().hex()
        assert _dims() == (4, 1, 1, 128, 1, 1), _dims()
        assert len(calls) == 1
        for n in (1000, 1001, 5000):  # same key: i32, not 1, not % 16 ... 1000 % 16 = 8
            scale_kernel[grid](x, out, n, 0.5, BLOCK=256)
        assert _record() == struct.pack("<QQif", 0x10000, 0x20000, 5000, 0.5)
        assert _dims()[0] == 20
        assert len(calls) == 1, calls  # cached: no Python on the way
        scale_kernel[(3,)](x, out, 1024, 1.0, BLOCK=256)  # 1024 % 16 == 0: a new key
        assert len(calls) == 2
        # What the keys specialize: 16-byte aligned pointers, n % 16, n == 1.
        irs = [k.asm["tile"] for k in scale_kernel._compiled.values()]
        assert all("%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}" in ir for ir in irs)
        assert sum("%arg2: i32 {tile.divisibility = 16 : i32}" in ir for ir in irs) == 1
        scale_kernel[(3,)](FakeTensor(0x10004), out, 1, 1.0, BLOCK=256)  # unaligned; n == 1
        assert len(calls) == 3
        ir = scale_kernel._compiled[calls and list(scale_kernel._compiled)[-1]].asm["tile"]
        assert "%arg0: !tile.ptr<f32> loc(" in ir  # 4-byte aligned only
        assert "%arg2: i32 loc(" in ir and "%arg2," not in ir  # n == 1 is a constant
        calls.pop()
        scale_kernel[(3,)](x, out, n=7, alpha=3.0, BLOCK=256)  # keywords bind by name
        assert _record() == struct.pack("<QQif", 0x10000, 0x20000, 7, 3.0)
        scale_kernel[(3,)](x, out, 7, 3.0, BLOCK=128)  # another constexpr: another kernel
        assert len(calls) == 4
        assert scale_kernel._dispatcher.size == 5  # one key per argument layout
        # The last key's entry is taken again when a call's key items are the
        # same objects (no key tuple, no lookup), and forgotten with the cache.
        scale_kernel[(3,)](x, out, 7, 3.0, BLOCK=128)
        assert len(calls) == 4
        scale_kernel._dispatcher.clear()
        scale_kernel[(3,)](x, out, 7, 3.0, BLOCK=128)
        assert len(calls) == 5 and scale_kernel._dispatcher.size == 1, calls
        scale_kernel[(3,)](x, out, 7, 3.0, BLOCK=256)
        scale_kernel[(3,)](x, out, 7, 3.0, BLOCK=128)
        assert len(calls) == 6 and scale_kernel._dispatcher.size == 2, calls
        launches, launches_ex = fake.fake_launches(), fake.fake_launches_ex()
        scale_kernel[(2,)](x, out, 7, 3.0, BLOCK=128, stream=99)
        assert fake.fake_get_stream() == 99
        # No launch attribute: cuLaunchKernel (cuLaunchKernelEx is for
        # cooperative grids).
        assert (fake.fake_launches(), fake.fake_launches_ex()) == (launches + 1, launches_ex)
        scale_kernel[(1,)](x, out, 1 << 40, 1.0, BLOCK=128)  # an i64 parameter: recompiled
        assert any(k.metadata["signature"]["n"] == "i64" for k in scale_kernel._compiled.values())
        # Past 64 bits: no type holds it (Triton's OverflowError), before any compile.
        _raises(OverflowError, lambda: scale_kernel[(1,)](x, out, 1 << 70, 1.0, BLOCK=128),
                "fits in none of i32, i64 and u64")
        _raises(driver.LaunchError, lambda: scale_kernel[(0,)](x, out, 7, 1.0, BLOCK=128),
                "grid")
        _raises(tile.CompilationError,
                lambda: scale_kernel[(1,)](x, out, 7, 1.0, BLOCK=128, bogus=1), "bogus")
        cpu = FakeTensor(0x30000, cuda=False)
        _raises(driver.LaunchError, lambda: scale_kernel[(1,)](cpu, out, 7, 1.0, BLOCK=128),
                "cpu", ".cuda()")
        # A bound launch is called by vectorcall; its tp_call (a tuple and a
        # dict, for C callers) launches the same.
        bound = scale_kernel[(3,)]
        type(bound).__call__(bound, x, out, 9, alpha=4.0, BLOCK=256)
        assert _record() == struct.pack("<QQif", 0x10000, 0x20000, 9, 4.0)
        _raises(driver.LaunchError, lambda: bound(*range(300)), "at most 256 arguments")
        _raises(driver.LaunchError, lambda: type(bound).__call__(bound, *range(300)),
                "at most 256 arguments")
    finally:
        runtime_launch.slow_launch = original  # type: ignore[assignment]


def test_jit_tensor_maps_made_at_launch() -> None:
    """The runtime passes None for each hidden parameter (a tensor map the
    kernel makes, after its own parameters): a source of None in the
    dispatcher's cache, a None value where it launches itself. The compile is
    wrapped to add one to scale_kernel's metadata, as the compiler would for
    a descriptor made from x_ptr and n."""
    if _can_compile():
        print("  skipped:", _can_compile())
        return
    from tile.compiler.pipeline import CompiledKernel
    from tile.runtime import launch as runtime_launch
    original = runtime_launch.compile
    made = {"name": "x_ptr.tensor_map", "type": "tensormap", "box": [64], "swizzle": 0,
            "element_bytes": 4, "recipe": {"base": 0, "shape": [[1, [2]]],
                                           "strides": [[1, []]]}}

    def compile_with_hidden_map(*args: Any, **kwargs: Any) -> CompiledKernel:
        compiled = original(*args, **kwargs)
        metadata = dict(compiled.metadata, params=list(compiled.metadata["params"]) + [made])
        # (Another cubin: the driver caches kernels by cubin.)
        return CompiledKernel(dict(compiled.asm, cubin=compiled.asm["cubin"] + b" made"),
                              metadata)

    class Index(int):
        """An int the dispatcher has no key for: the launch takes the Python path."""

    runtime_launch.compile = compile_with_hidden_map  # type: ignore[assignment]
    scale_kernel._dispatcher = None
    scale_kernel._compiled.clear()
    try:
        _set_sizes(["ptr", "ptr", "i32", "f32", "tensormap"])
        x, out = FakeTensor(0x10000), FakeTensor(0x20000)
        encodes = fake.fake_encodes()
        scale_kernel[(4,)](x, out, 1000, 2.5, BLOCK=256)
        (_, sources), = scale_kernel._dispatcher.entries.values()
        assert sources == (0, 1, 2, 3, None), sources
        assert _record()[:24] == struct.pack("<QQif", 0x10000, 0x20000, 1000, 2.5)
        assert _record()[24:] == bytes(_last_encode().map)
        assert (_last_encode().address, _last_encode().dims[0]) == (0x10000, 1000)
        scale_kernel[(4,)](x, out, 1000, 0.5, BLOCK=256)  # cached, map and launch
        assert fake.fake_encodes() == encodes + 1
        scale_kernel[(4,)](x, out, 1001, 0.5, BLOCK=256)  # same key, another extent
        assert fake.fake_encodes() == encodes + 2 and _last_encode().dims[0] == 1001
        assert scale_kernel._dispatcher.size == 1
        scale_kernel[(4,)](x, out, Index(1002), 0.5, BLOCK=256)  # no key
        assert scale_kernel._dispatcher.size == 1
        assert fake.fake_encodes() == encodes + 3 and _last_encode().dims[0] == 1002
        assert _record()[:24] == struct.pack("<QQif", 0x10000, 0x20000, 1002, 0.5)
        _raises(driver.LaunchError, lambda: scale_kernel[(4,)](x, out, 0, 0.5, BLOCK=256),
                "argument 4 (x_ptr.tensor_map: tensormap)", "is n = 0")
    finally:
        runtime_launch.compile = original  # type: ignore[assignment]
        scale_kernel._dispatcher = None
        scale_kernel._compiled.clear()


@tile.jit
def defaults_kernel(x_ptr, out_ptr, n=1, alpha=2.0, BLOCK: tl.constexpr = 64):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * alpha, mask=offs < n)


def test_jit_int_defaults() -> None:
    """A parameter left to its int default gets the default, also from the
    dispatcher's cache (where an int source is an argument's index)."""
    if _can_compile():
        print("  skipped:", _can_compile())
        return
    _jit_record_sizes()
    x, out = FakeTensor(0x10000), FakeTensor(0x20000)
    for _ in range(2):  # compiled, then cached
        defaults_kernel[(1,)](x, out)
        assert _record() == struct.pack("<QQif", 0x10000, 0x20000, 1, 2.0), _record().hex()
    defaults_kernel[(1,)](x, out, alpha=3.0)
    assert _record() == struct.pack("<QQif", 0x10000, 0x20000, 1, 3.0)



@tile.jit
def stream_parameter_kernel(out_ptr, stream, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, (offs + stream).to(tl.float32))


TORCH_STREAM_SCRIPT = """
import ctypes, os, sys, types
from tile.driver import context
asked = []
query = context.torch_stream_query
context.torch_stream_query = lambda: asked.append(1) or query()  # before the launcher is configured
from tile import driver
fake = ctypes.CDLL(os.environ["TILE_LIBCUDA"])
fake.fake_get_stream.restype = ctypes.c_uint64
meta = {"chip": "sm_90", "kernels": [{"name": "k", "num_warps": 4, "threads": 128,
        "shared_bytes": 0, "params": [{"name": "n", "type": "i32"}]}]}
kernel = driver.load_module(b"\\x7fELF fake cubin", meta).kernel("k")
kernel.launch((1,), [5])
assert fake.fake_get_stream() == 0 and asked == [], (fake.fake_get_stream(), asked)
torch = types.ModuleType("torch")  # imported, CUDA initialized: its stream
torch.cuda = types.SimpleNamespace(is_initialized=lambda: True)
torch._C = types.SimpleNamespace(_cuda_getCurrentRawStream=lambda device: 4321 + device)
sys.modules["torch"] = torch
for _ in range(2):
    kernel.launch((1,), [5])
    assert fake.fake_get_stream() == 4321 and asked == [1], (fake.fake_get_stream(), asked)
print("ok")
"""


def test_current_stream_without_and_with_torch() -> None:
    """Without torch imported a launch goes to stream 0 without asking
    Python (tile.driver.context.torch_stream_query); once torch is imported
    with CUDA initialized, to torch's current stream, its query found once.
    In a process of its own: the launcher keeps the query it found."""
    ran = subprocess.run([sys.executable, "-c", TORCH_STREAM_SCRIPT], capture_output=True,
                         text=True, env={**os.environ, "TILE_LIBCUDA": str(FAKE)})
    assert ran.returncode == 0 and ran.stdout.strip() == "ok", ran.stdout + ran.stderr


def test_dispatcher_entries_are_checked() -> None:
    """What a slow path returns is read into C once and checked: a wrong
    entry is a clear error, not a bad launch, and the next good one
    launches; a function of more than 256 parameters is refused."""
    kernel = _module().kernel("k")  # 10 parameters
    _set_sizes(kernel.param_types)
    entries: list[Any] = []
    dispatcher = driver.dispatcher("f", ["x"], [False], {},
                                   lambda grid, args, kwargs, key, device, stream:
                                   entries.pop(0))
    good = (kernel.launcher, (0, (100,), 1.5, (7,), 0.5, 1.0, True, 2.25, (-3,), (5,)))
    entries += [("not a kernel", ()), (kernel.launcher, (0,)), good]
    _raises(TypeError, lambda: dispatcher[(1,)](FakeTensor(0x1000)),
            "a dispatcher entry is (Kernel, sources)")
    _raises(ValueError, lambda: dispatcher[(1,)](FakeTensor(0x1000)),
            "one source per kernel parameter")
    defaults = (struct.pack("<i", 100) + struct.pack("<f", 1.5) + struct.pack("<q", 7)
                + struct.pack("<e", 0.5) + struct.pack("<H", 0x3F80) + b"\x01"
                + struct.pack("<d", 2.25) + struct.pack("<h", -3) + struct.pack("<b", 5))
    dispatcher[(1,)](FakeTensor(0x1000))
    assert _record() == struct.pack("<Q", 0x1000) + defaults, _record().hex()
    dispatcher[(1,)](FakeTensor(0x2000))  # the remembered entry, from C
    assert _record() == struct.pack("<Q", 0x2000) + defaults and not entries
    out_of_range = driver.dispatcher("g", ["x"], [False], {},
                                     lambda *call: (kernel.launcher, (0, 3) + good[1][2:]))
    _raises(ValueError, lambda: out_of_range[(1,)](FakeTensor(0x1000)),
            "a dispatcher source is out of range")
    _raises(ValueError, lambda: driver.dispatcher("h", ["p"] * 300, [False] * 300, {},
                                                  lambda *call: None),
            "at most 256 parameters")


def test_jit_stream_parameter() -> None:
    """`stream=` is the launch's stream, unless the kernel has a parameter
    named `stream`: then it is that argument, and the launch goes to the
    current stream (the dispatcher decides so once, when it is made)."""
    if _can_compile():
        print("  skipped:", _can_compile())
        return
    _set_sizes(["ptr", "i32"])
    out = FakeTensor(0x20000)
    for value in (7, 9):  # compiled, then cached
        stream_parameter_kernel[(1,)](out, stream=value, BLOCK=64)
        assert _record() == struct.pack("<Qi", 0x20000, value), _record().hex()
        assert fake.fake_get_stream() == 0, fake.fake_get_stream()
    _jit_record_sizes()
    scale_kernel[(1,)](FakeTensor(0x10000), out, 7, 1.0, BLOCK=64, stream=99)
    assert fake.fake_get_stream() == 99

GLOBAL_SCALE = 2.0  # read by global_scale_kernel: a change recompiles it at launch


@tile.jit
def global_scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * GLOBAL_SCALE, mask=mask)


def test_jit_subscript_in_c() -> None:
    """`kernel[grid]` is JITFunctionBase's, in C: the dispatcher's bound
    launch, made again only while someone holds the last one or the grid is
    another object (a grid function is not kept); a kernel reading globals goes through `_subscript`,
    which sees a changed one; a function that launched is freed (the
    dispatcher and its bound launch take part in garbage collection)."""
    if _can_compile():
        print("  skipped:", _can_compile())
        return
    import gc
    import weakref
    global GLOBAL_SCALE
    assert type(scale_kernel).__mro__[1] is launcher.extension().JITFunctionBase
    x, out = FakeTensor(0x10000), FakeTensor(0x20000)
    _jit_record_sizes()
    grid, other = (3,), (5,)
    scale_kernel[grid](x, out, 16, 1.0, BLOCK=64)
    first = scale_kernel[grid]
    held = scale_kernel[grid]
    assert held is not first  # the spare is held: a new one
    address = id(held)
    del first, held
    # Kept alive by the dispatcher alone (its collector view), then given again.
    assert any(id(r) == address for r in gc.get_referents(scale_kernel._dispatcher))
    again = scale_kernel[grid]
    assert id(again) == address  # the last one made, held by nobody else
    other_bound = scale_kernel[other]
    again(x, out, 16, 1.0, BLOCK=64)
    assert _dims()[0] == 3, _dims()
    other_bound(x, out, 16, 1.0, BLOCK=64)
    assert _dims()[0] == 5, _dims()
    del again, other_bound
    scale_kernel[(2 + 2,)](x, out, 16, 1.0, BLOCK=64)  # an equal grid is not needed
    assert _dims()[0] == 4, _dims()
    scale_kernel[grid](x, out, 16, 1.0, BLOCK=64)
    assert _dims()[0] == 3, _dims()

    class Captured:
        pass

    captured = Captured()
    captured_ref = weakref.ref(captured)
    scale_kernel[lambda meta, c=captured: (2,)](x, out, 16, 1.0, BLOCK=64)
    assert _dims()[0] == 2, _dims()
    del captured
    assert captured_ref() is None  # a grid function is not kept past its launch

    _set_sizes(["ptr", "ptr", "i32"])
    global_scale_kernel[(1,)](x, out, 16, BLOCK=64)
    assert global_scale_kernel._global_reads
    compiled = len(global_scale_kernel._compiled)
    global_scale_kernel[(1,)](x, out, 16, BLOCK=64)
    assert len(global_scale_kernel._compiled) == compiled
    GLOBAL_SCALE = 3.0
    try:
        global_scale_kernel[(1,)](x, out, 16, BLOCK=64)
        ptx = [k.asm["ptx"] for k in global_scale_kernel._compiled.values()]
        assert len(ptx) == 1 and "0f40400000" in ptx[0], ptx  # 3.0 in the new kernel
    finally:
        GLOBAL_SCALE = 2.0

    def launched() -> Any:
        @tile.jit
        def local_kernel(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * alpha,
                     mask=offs < n)
        _jit_record_sizes()
        local_kernel[(1,)](x, out, 16, 1.0, BLOCK=64)
        return weakref.ref(local_kernel), weakref.ref(local_kernel.fn)

    refs = launched()
    gc.collect()
    Dispatcher = launcher.extension().Dispatcher
    assert all(ref() is None for ref in refs), "a launched @jit function was not freed"
    _raises(TypeError, lambda: Dispatcher.__new__(Dispatcher)[(1,)](x),
            "the dispatcher is not initialized")


def test_jit_interpret_switch_and_overhead() -> None:
    """TILE_INTERPRET set after the launch cache exists still turns launches
    over to the interpreter (the C dispatcher reads it with getenv), and
    unset or "0" launches on the GPU again; then the host cost of a cached
    launch through `kernel[grid](...)` with the fake driver."""
    if _can_compile():
        print("  skipped:", _can_compile())
        return
    import functools
    import time
    from tile import interpreter
    x, out = FakeTensor(0x10000), FakeTensor(0x20000)
    _jit_record_sizes()
    scale_kernel[(1,)](x, out, 16, 1.0, BLOCK=64)
    assert scale_kernel._dispatcher is not None
    launches = fake.fake_launches()
    old = os.environ.pop("TILE_INTERPRET", None)
    try:
        os.environ["TILE_INTERPRET"] = "1"
        bound = scale_kernel[(1,)]
        assert isinstance(bound, functools.partial) and bound.func is interpreter.launch, bound
        os.environ["TILE_INTERPRET"] = "0"  # set, but off: the GPU
        scale_kernel[(1,)](x, out, 16, 1.0, BLOCK=64)
        del os.environ["TILE_INTERPRET"]
        scale_kernel[(1,)](x, out, 16, 1.0, BLOCK=64)
        assert fake.fake_launches() == launches + 2, fake.fake_launches() - launches

        # The launcher rereads the environment only when it may have changed:
        # every way os.environ changes it is seen.
        def interpreted() -> bool:
            return isinstance(scale_kernel[(1,)], functools.partial)

        assert not interpreted()
        os.environ["TILE_TEST_OTHER"] = "1"  # another variable, added at the end
        assert not interpreted()
        os.environ["TILE_INTERPRET"] = "1"
        assert interpreted()
        del os.environ["TILE_TEST_OTHER"]  # the ones after it move down
        assert interpreted()
        os.environ["TILE_INTERPRET"] = ""  # set, empty: off
        assert not interpreted()
        os.environ["TILE_INTERPRET"] = "1"  # a value it had before
        assert interpreted()
        os.environ["TILE_TEST_OTHER"] = "2"
        del os.environ["TILE_INTERPRET"]  # not the last variable
        assert not interpreted()
        os.environ["TILE_INTERPRET"] = "1"
        del os.environ["TILE_TEST_OTHER"]  # the count as before, the last one new
        assert interpreted()
        del os.environ["TILE_INTERPRET"]
        assert not interpreted()
        n = 20000
        t0 = time.perf_counter()
        for _ in range(n):
            scale_kernel[(1,)](x, out, 16, 1.0, BLOCK=64)
        per = (time.perf_counter() - t0) / n * 1e6
        print(f"  host overhead per kernel[grid](...) launch (4 args, fake driver): {per:.2f} us")
    finally:
        if old is None:
            os.environ.pop("TILE_INTERPRET", None)
        else:
            os.environ["TILE_INTERPRET"] = old


def test_jit_device_selection() -> None:
    """A launch runs on its tensors' device, with that device's target, loads
    its module in that device's context, and leaves the current context as
    it was; tensors of two devices in one launch are an error naming both."""
    if _can_compile():
        print("  skipped:", _can_compile())
        return
    scale_kernel._dispatcher = None
    _jit_record_sizes()
    on0 = (FakeTensor(0x10000, device=0), FakeTensor(0x20000, device=0))
    on1 = (FakeTensor(0x50000, device=1), FakeTensor(0x60000, device=1))
    driver.device(0)  # make device 0's context current, as torch would
    with driver.device(0).activate():
        scale_kernel[(1,)](*on0, 16, 1.0, BLOCK=64)
        assert fake.fake_last_launch_ctx() == 0
        loads = fake.fake_module_loads()
        scale_kernel[(1,)](*on1, 16, 1.0, BLOCK=64)
        assert fake.fake_last_launch_ctx() == 1
        assert fake.fake_current_ctx() == 0  # switched for the launch only
        assert fake.fake_module_loads() == loads + 1
        targets = sorted({k.metadata["target"] for k in scale_kernel._compiled.values()})
        assert targets == ["sm_80", "sm_90a"], targets  # Fake A100, Fake H200
        scale_kernel[(1,)](*on1, 16, 1.0, BLOCK=64)
        assert fake.fake_module_loads() == loads + 1  # cached per device
        _raises(driver.LaunchError, lambda: scale_kernel[(1,)](on0[0], on1[1], 16, 1.0, BLOCK=64),
                "argument 'x_ptr' is on cuda:0 but argument 'out_ptr' is on cuda:1")
    t4 = FakeTensor(0x70000, device=2)
    _raises(driver.DriverError, lambda: scale_kernel[(1,)](t4, t4, 16, 1.0, BLOCK=64),
            "Fake T4", "compute capability 7.5")


def test_jit_threads_load_once_per_device() -> None:
    """Threads launching a new kernel on two devices at once: one module per
    device, every launch in its device's context."""
    if _can_compile():
        print("  skipped:", _can_compile())
        return
    import threading
    scale_kernel._dispatcher = None
    _jit_record_sizes()
    scale_kernel.warmup(FakeTensor(0x10000), FakeTensor(0x10000), 16, 1.0, BLOCK=32,
                        target="sm_90a")
    scale_kernel.warmup(FakeTensor(0x10000), FakeTensor(0x10000), 16, 1.0, BLOCK=32,
                        target="sm_80")
    loads = fake.fake_module_loads()
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def worker(dev: int) -> None:
        try:
            t = FakeTensor(0x10000 * (dev + 1), device=dev)
            barrier.wait()
            for _ in range(50):
                scale_kernel[(1,)](t, t, 16, 1.0, BLOCK=32)
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i % 2,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert fake.fake_module_loads() == loads + 2, fake.fake_module_loads() - loads


if __name__ == "__main__":
    tests = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_")]
    for name, fn in tests:
        fn()
        print("ok", name)
    print(f"{len(tests)} tests passed")
