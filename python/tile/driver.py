"""Load tile cubins and launch their kernels through the CUDA driver API.

Pure Python over ``ctypes`` and ``libcuda.so.1``: no CUDA toolkit, no LLVM and no
torch needed to import this module (torch and CuPy arrays are accepted as
arguments when present). The compiler writes ``X.cubin`` and a JSON sidecar
``X.json``::

    {"chip": "sm_90",
     "kernels": [{"name": "add_kernel", "num_warps": 4, "threads": 128,
                  "shared_bytes": 0,
                  "params": [{"name": "x_ptr", "type": "ptr", "pointee": "f32"},
                             {"name": "n", "type": "i32"}]}]}

Usage::

    from tile import driver
    mod = driver.load_module("add.cubin")            # reads add.json beside it
    mod.kernel("add_kernel").launch((cdiv(n, 1024),), [x, y, out, n])

Kernels run in the primary context of the current device (torch's context when
torch is in use). ``stream=None`` means torch's current stream when torch has
initialized CUDA, else the legacy default stream. Launches are asynchronous:
call :func:`synchronize` to wait and to surface errors raised while running.

The library path can be overridden with ``TILE_LIBCUDA`` (used by tests).
"""
from __future__ import annotations

import ctypes
import json
import operator
import os
import struct
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

__all__ = [
    "CudaError",
    "DriverError",
    "DriverNotFoundError",
    "LaunchError",
    "Kernel",
    "Module",
    "launch",
    "load_module",
    "read_artifact",
    "synchronize",
]

CUresult = ctypes.c_int
CUdevice = ctypes.c_int
CUcontext = ctypes.c_void_p
CUmodule = ctypes.c_void_p
CUfunction = ctypes.c_void_p
CUstream = ctypes.c_void_p

# CUdevice_attribute / CUfunction_attribute values (cuda.h).
_CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1
_CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5
_CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6
_CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7
_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
_CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0

_CUDA_SUCCESS = 0
_CUDA_ERROR_NO_BINARY_FOR_GPU = 209
_CUDA_ERROR_NOT_FOUND = 500
# What cuLaunchKernel returns when the calling thread's current context is not
# the kernel's: no context, a function from another context, a destroyed one.
_CONTEXT_ERRORS = frozenset({201, 400, 709})  # INVALID_CONTEXT, INVALID_HANDLE, CONTEXT_IS_DESTROYED


class DriverError(RuntimeError):
    """Base class of the errors raised by this module."""


class DriverNotFoundError(DriverError):
    """The CUDA driver library (libcuda.so.1) cannot be loaded."""


class LaunchError(DriverError, ValueError):
    """A launch was refused before reaching the driver (bad grid or arguments)."""


class CudaError(DriverError):
    """A CUDA driver call returned an error code."""

    def __init__(self, call: str, code: int, name: str, description: str, hint: str = ""):
        self.call = call
        self.code = code
        self.name = name
        self.description = description
        message = f"{call} failed: {name} ({description})"
        if hint:
            message += f": {hint}"
        super().__init__(message)


# ---------------------------------------------------------------------------
# The driver library
# ---------------------------------------------------------------------------

_P = ctypes.POINTER
_SIGNATURES: dict[str, tuple[Any, ...]] = {
    "cuInit": (ctypes.c_uint,),
    "cuGetErrorName": (CUresult, _P(ctypes.c_char_p)),
    "cuGetErrorString": (CUresult, _P(ctypes.c_char_p)),
    "cuDeviceGetCount": (_P(ctypes.c_int),),
    "cuDeviceGet": (_P(CUdevice), ctypes.c_int),
    "cuDeviceGetName": (ctypes.c_char_p, ctypes.c_int, CUdevice),
    "cuDeviceGetAttribute": (_P(ctypes.c_int), ctypes.c_int, CUdevice),
    "cuDevicePrimaryCtxRetain": (_P(CUcontext), CUdevice),
    "cuCtxGetCurrent": (_P(CUcontext),),
    "cuCtxSetCurrent": (CUcontext,),
    "cuCtxGetDevice": (_P(CUdevice),),
    "cuCtxSynchronize": (),
    "cuModuleLoadData": (_P(CUmodule), ctypes.c_void_p),
    "cuModuleUnload": (CUmodule,),
    "cuModuleGetFunction": (_P(CUfunction), CUmodule, ctypes.c_char_p),
    "cuFuncGetAttribute": (_P(ctypes.c_int), ctypes.c_int, CUfunction),
    "cuLaunchKernel": (CUfunction, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                       ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                       CUstream, _P(ctypes.c_void_p), _P(ctypes.c_void_p)),
    "cuStreamSynchronize": (CUstream,),
}


class _Driver:
    """libcuda.so.1 with typed entry points and error checking."""

    if TYPE_CHECKING:  # the entry points of _SIGNATURES, set as attributes
        def __getattr__(self, name: str) -> Callable[..., int]: ...

    def __init__(self, path: str | None = None):
        path = path or os.environ.get("TILE_LIBCUDA") or "libcuda.so.1"
        try:
            self.lib = ctypes.CDLL(path)
        except OSError as exc:
            raise DriverNotFoundError(
                f"cannot load the CUDA driver library {path!r} ({exc}); "
                "an NVIDIA GPU with its driver installed is needed to launch kernels"
            ) from exc
        for name, argtypes in _SIGNATURES.items():
            try:
                fn = getattr(self.lib, name)
            except AttributeError as exc:
                raise DriverNotFoundError(f"{path!r} has no {name}: not a CUDA driver") from exc
            fn.argtypes = list(argtypes)
            fn.restype = CUresult
            setattr(self, name, fn)
        self.check(self.cuInit(0), "cuInit")

    def error_text(self, code: int) -> tuple[str, str]:
        name = ctypes.c_char_p()
        desc = ctypes.c_char_p()
        if self.cuGetErrorName(code, ctypes.byref(name)) != _CUDA_SUCCESS or not name.value:
            return f"CUresult {code}", "unknown error code"
        self.cuGetErrorString(code, ctypes.byref(desc))
        return name.value.decode(), (desc.value or b"").decode()

    def check(self, code: int, call: str, hint: str = "") -> None:
        if code != _CUDA_SUCCESS:
            name, desc = self.error_text(code)
            raise CudaError(call, code, name, desc, hint)

    def device_attribute(self, attribute: int, device: int) -> int:
        value = ctypes.c_int()
        self.check(self.cuDeviceGetAttribute(ctypes.byref(value), attribute, device),
                   "cuDeviceGetAttribute")
        return value.value


_driver_lock = threading.Lock()
_driver_instance: _Driver | None = None


def _driver() -> _Driver:
    global _driver_instance
    if _driver_instance is None:
        with _driver_lock:
            if _driver_instance is None:
                _driver_instance = _Driver()
    return _driver_instance


# ---------------------------------------------------------------------------
# Contexts
# ---------------------------------------------------------------------------


class _Context:
    """The retained primary context of one device and facts about the device."""

    def __init__(self, drv: _Driver, ordinal: int):
        count = ctypes.c_int()
        drv.check(drv.cuDeviceGetCount(ctypes.byref(count)), "cuDeviceGetCount")
        if not 0 <= ordinal < count.value:
            raise DriverError(f"no CUDA device {ordinal}: {count.value} device(s) visible")
        device = CUdevice()
        drv.check(drv.cuDeviceGet(ctypes.byref(device), ordinal), "cuDeviceGet")
        handle = CUcontext()
        drv.check(drv.cuDevicePrimaryCtxRetain(ctypes.byref(handle), device),
                  "cuDevicePrimaryCtxRetain")
        self.drv = drv
        self.ordinal = ordinal
        self.device = device.value
        self.handle: int = handle.value or 0
        name = ctypes.create_string_buffer(256)
        drv.check(drv.cuDeviceGetName(name, 256, device), "cuDeviceGetName")
        self.name = name.value.decode(errors="replace")
        attr = drv.device_attribute
        self.max_threads = attr(_CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, self.device)
        self.max_grid = (attr(_CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, self.device),
                         attr(_CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, self.device),
                         attr(_CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, self.device))
        self.capability = (attr(_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, self.device),
                           attr(_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, self.device))

    @property
    def chip(self) -> str:
        return f"sm_{self.capability[0]}{self.capability[1]}"

    def make_current(self) -> None:
        """Make this context current on the calling thread if it is not already."""
        current = CUcontext()
        self.drv.check(self.drv.cuCtxGetCurrent(ctypes.byref(current)), "cuCtxGetCurrent")
        if (current.value or 0) != self.handle:
            self.drv.check(self.drv.cuCtxSetCurrent(self.handle), "cuCtxSetCurrent")


_contexts: dict[int, _Context] = {}


def _torch_cuda() -> Any | None:
    """torch.cuda when torch is imported and has initialized CUDA, else None."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    cuda = getattr(torch, "cuda", None)
    if cuda is None or not cuda.is_initialized():
        return None
    return cuda


_torch_fast: tuple[Any, Any] | None = None


def _torch_fast_queries() -> tuple[Any, Any] | None:
    """torch's C functions for the current device and its current raw stream,
    once torch has initialized CUDA (it never un-initializes); else None."""
    global _torch_fast
    if _torch_fast is None and _torch_cuda() is not None:
        torch_c = sys.modules["torch"]._C
        get_device = getattr(torch_c, "_cuda_getDevice", None)
        get_stream = getattr(torch_c, "_cuda_getCurrentRawStream", None)
        if get_device is not None and get_stream is not None:
            _torch_fast = (get_device, get_stream)
    return _torch_fast


def _current_device_ordinal(drv: _Driver) -> int:
    """torch's current device, else the device of the thread's context, else 0."""
    cuda = _torch_cuda()
    if cuda is not None:
        return int(cuda.current_device())
    current = CUcontext()
    if drv.cuCtxGetCurrent(ctypes.byref(current)) == _CUDA_SUCCESS and current.value:
        device = CUdevice()
        drv.check(drv.cuCtxGetDevice(ctypes.byref(device)), "cuCtxGetDevice")
        return device.value
    return 0


def _context(ordinal: int | None = None) -> _Context:
    drv = _driver()
    if ordinal is None:
        ordinal = _current_device_ordinal(drv)
    ctx = _contexts.get(ordinal)
    if ctx is None:
        with _driver_lock:
            ctx = _contexts.get(ordinal)
            if ctx is None:
                ctx = _contexts[ordinal] = _Context(drv, ordinal)
    ctx.make_current()
    return ctx


def synchronize(stream: Any = None) -> None:
    """Wait for the current context (or one stream) and raise on any kernel error."""
    ctx = _context()
    drv = ctx.drv
    if stream is None:
        drv.check(drv.cuCtxSynchronize(), "cuCtxSynchronize")
    else:
        drv.check(drv.cuStreamSynchronize(_stream_handle(stream, ctx.ordinal)),
                  "cuStreamSynchronize")


# ---------------------------------------------------------------------------
# Argument conversion
# ---------------------------------------------------------------------------

_INT_BITS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
_SLOT_TYPES: dict[str, Any] = {
    "ptr": ctypes.c_uint64,
    "i1": ctypes.c_uint8,
    "i8": ctypes.c_int8,
    "i16": ctypes.c_int16,
    "i32": ctypes.c_int32,
    "i64": ctypes.c_int64,
    "f16": ctypes.c_uint16,
    "bf16": ctypes.c_uint16,
    "f32": ctypes.c_float,
    "f64": ctypes.c_double,
}
_HALF = struct.Struct("<e")
_FLOAT_BITS = struct.Struct("<f")
_U32 = struct.Struct("<I")


def _describe(value: Any) -> str:
    kind = type(value)
    return f"{kind.__module__}.{kind.__qualname__}" if kind.__module__ != "builtins" \
        else kind.__qualname__


class _ArgError(LaunchError):
    pass


def _pointer_value(value: Any, where: str, device: int) -> int:
    """The device address held by a torch tensor, CuPy array or CUDA array interface."""
    data_ptr = getattr(value, "data_ptr", None)
    if data_ptr is not None and hasattr(value, "is_cuda"):  # torch.Tensor
        # (checked before __cuda_array_interface__, which is slow for tensors)
        if not value.is_cuda:
            raise _ArgError(f"{where}: got a tensor on {value.device}, but a kernel needs "
                            "GPU memory; move it with .cuda()")
        index = value.get_device()
        if index != device:
            raise _ArgError(f"{where}: tensor is on cuda:{index} but the kernel was "
                            f"loaded on cuda:{device}")
        return data_ptr()
    iface = getattr(value, "__cuda_array_interface__", None)
    if iface is not None:
        return int(iface["data"][0])
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value < 1 << 64:
            raise _ArgError(f"{where}: address {value:#x} is not a 64-bit address")
        return value
    if value is None:
        return 0
    if hasattr(value, "__array_interface__") or hasattr(value, "__array__"):
        raise _ArgError(f"{where}: got a host array ({_describe(value)}); a kernel needs "
                        "GPU memory: pass a CUDA torch tensor, a CuPy array or an object "
                        "with __cuda_array_interface__")
    raise _ArgError(f"{where}: expected a GPU array (torch tensor, CuPy array, "
                    f"__cuda_array_interface__) or an address, got {_describe(value)}")


def _int_value(value: Any, where: str, bits: int) -> int:
    """An integer that fits in ``bits`` bits, signed or spelled unsigned."""
    if bits == 1:
        if isinstance(value, (bool, int)) and value in (0, 1):
            return int(value)
        raise _ArgError(f"{where}: expected a bool for an i1 parameter, got {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise _ArgError(f"{where}: expected an integer for an i{bits} parameter, "
                        f"got {_describe(value)} {value!r}") from None
    if not -(1 << (bits - 1)) <= number < 1 << bits:
        raise _ArgError(f"{where}: {number} does not fit in i{bits}")
    if number >= 1 << (bits - 1):  # unsigned spelling of a negative number
        number -= 1 << bits
    return number


def _float_value(value: Any, where: str, kind: str) -> float:
    if isinstance(value, (float, int)) and not isinstance(value, bool):
        return float(value)
    try:
        return float(value.__float__())
    except (AttributeError, TypeError):
        raise _ArgError(f"{where}: expected a number for an {kind} parameter, "
                        f"got {_describe(value)}") from None


def _bf16_bits(x: float) -> int:
    """Round an f32 to bf16 (nearest even) and return its 16 bits."""
    bits = _U32.unpack(_FLOAT_BITS.pack(x))[0]
    if (bits & 0x7F800000) == 0x7F800000 and bits & 0x007FFFFF:  # NaN: keep it a NaN
        return (bits >> 16) | 0x40
    bits += 0x7FFF + ((bits >> 16) & 1)
    return (bits >> 16) & 0xFFFF


_Converter = Callable[[Any, str], Any]


def _converter(ptype: str, device: int) -> _Converter:
    """A function turning one Python argument into the value of its ctypes slot.

    Each has a fast path for the common exact types (int, float, torch tensor)
    and falls back to the checking conversion, which raises a clear error."""
    if ptype == "ptr":
        def to_ptr(v: Any, where: str) -> int:
            if getattr(v, "is_cuda", False) and v.get_device() == device:
                return v.data_ptr()  # a CUDA torch.Tensor on the kernel's device
            return _pointer_value(v, where, device)
        return to_ptr
    if ptype in _INT_BITS:
        bits = _INT_BITS[ptype]
        low, high = -(1 << (bits - 1)), 1 << (bits - 1)
        if bits == 1:
            low, high = 0, 2

        def to_int(v: Any, where: str) -> int:
            if type(v) is int and low <= v < high:
                return v
            return _int_value(v, where, bits)
        return to_int
    if ptype in ("f32", "f64"):
        def to_float(v: Any, where: str) -> float:
            if type(v) is float:
                return v
            return _float_value(v, where, ptype)
        return to_float
    if ptype == "f16":
        def to_f16(v: Any, where: str) -> int:
            x = _float_value(v, where, "f16")
            try:
                return int.from_bytes(_HALF.pack(x), "little")
            except OverflowError:
                raise _ArgError(f"{where}: {x} is out of the f16 range") from None
        return to_f16
    if ptype == "bf16":
        return lambda v, where: _bf16_bits(_float_value(v, where, "bf16"))
    raise DriverError(f"unknown parameter type {ptype!r} in the kernel metadata")


# ---------------------------------------------------------------------------
# Streams and grids
# ---------------------------------------------------------------------------


def _stream_handle(stream: Any, device: int = 0) -> int:
    """A CUstream from an int handle, torch.cuda.Stream or cupy Stream; None is
    torch's current stream on ``device`` when torch uses CUDA, else 0 (the legacy
    default stream)."""
    if stream is None:
        cuda = _torch_cuda()
        if cuda is None:
            return 0
        raw = getattr(sys.modules["torch"]._C, "_cuda_getCurrentRawStream", None)
        if raw is not None:
            return int(raw(device))
        return int(cuda.current_stream(device).cuda_stream)
    if isinstance(stream, int) and not isinstance(stream, bool):
        return stream
    for attr in ("cuda_stream", "ptr", "handle"):
        handle = getattr(stream, attr, None)
        if isinstance(handle, int):
            return handle
    raise LaunchError(f"cannot use {_describe(stream)} as a CUDA stream: pass a "
                      "torch.cuda.Stream, a cupy.cuda.Stream or a CUstream handle (int)")


def _grid_dims(grid: Any, max_grid: tuple[int, int, int]) -> tuple[int, int, int]:
    if type(grid) is tuple and len(grid) == 1 and type(grid[0]) is int \
            and 0 < grid[0] <= max_grid[0]:
        return grid[0], 1, 1  # the common case, quickly
    if isinstance(grid, int) and not isinstance(grid, bool):
        grid = (grid,)
    if not isinstance(grid, (tuple, list)) or not 1 <= len(grid) <= 3:
        raise LaunchError(f"grid must be a tuple of 1 to 3 positive ints, got {grid!r}")
    dims = []
    for axis, extent in enumerate(grid):
        if isinstance(extent, bool) or not hasattr(extent, "__index__"):
            raise LaunchError(f"grid must be a tuple of 1 to 3 positive ints, got {grid!r}")
        extent = extent.__index__()
        if extent < 1:
            raise LaunchError(f"grid must be a tuple of 1 to 3 positive ints, got {grid!r} "
                              f"(axis {axis} is {extent})")
        if extent > max_grid[axis]:
            raise LaunchError(f"grid {tuple(grid)!r}: axis {axis} is {extent}, above the "
                              f"device's limit {max_grid[axis]}")
        dims.append(extent)
    while len(dims) < 3:
        dims.append(1)
    return dims[0], dims[1], dims[2]


# ---------------------------------------------------------------------------
# Modules and kernels
# ---------------------------------------------------------------------------


class Kernel:
    """One kernel of a loaded module, with cached parameter buffers."""

    def __init__(self, module: "Module", meta: Mapping[str, Any]):
        self.module = module
        self.meta = dict(meta)
        self.name: str = meta["name"]
        ctx = module.ctx
        drv = ctx.drv
        handle = CUfunction()
        code = drv.cuModuleGetFunction(ctypes.byref(handle), module.handle, self.name.encode())
        if code == _CUDA_ERROR_NOT_FOUND:
            raise DriverError(f"kernel {self.name!r} is not in the cubin")
        drv.check(code, "cuModuleGetFunction", f"kernel {self.name!r}")
        self.handle: int = handle.value or 0

        self.threads = int(meta.get("threads") or 32 * int(meta.get("num_warps", 4)))
        limit = ctypes.c_int()
        drv.check(drv.cuFuncGetAttribute(ctypes.byref(limit),
                                         _CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, self.handle),
                  "cuFuncGetAttribute")
        if self.threads > ctx.max_threads or self.threads > limit.value:
            raise LaunchError(
                f"kernel {self.name!r} needs {self.threads} threads per block, but "
                f"{ctx.name} allows {min(ctx.max_threads, limit.value)} for it "
                f"(device limit {ctx.max_threads}, kernel limit {limit.value} from its "
                "register use); compile with fewer warps")

        params = list(meta.get("params", []))
        self.param_names = [str(p.get("name", f"arg{i}")) for i, p in enumerate(params)]
        self.param_types = [str(p["type"]) for p in params]
        self._converters = [_converter(t, ctx.ordinal) for t in self.param_types]
        self._slots = [_SLOT_TYPES[t]() for t in self.param_types]
        count = len(self._slots)
        self._params = (ctypes.c_void_p * max(count, 1))(
            *[ctypes.addressof(slot) for slot in self._slots])
        self._params_arg = self._params if count else None
        self._where = [f"kernel {self.name!r} argument {i} ({n}: {t})"
                       for i, (n, t) in enumerate(zip(self.param_names, self.param_types))]
        self._plan = list(zip(self._slots, self._converters, self._where))
        self._lock = threading.Lock()
        self._launch_fn = drv.cuLaunchKernel

    def __repr__(self) -> str:
        sig = ", ".join(f"{n}: {t}" for n, t in zip(self.param_names, self.param_types))
        return f"<tile.driver.Kernel {self.name}({sig}), {self.threads} threads>"

    def launch(self, grid: Any, args: Sequence[Any], stream: Any = None) -> None:
        """Enqueue one launch of the kernel on ``grid`` with ``args`` (asynchronous)."""
        if len(args) != len(self._plan):
            expected = ", ".join(f"{n}: {t}" for n, t in zip(self.param_names, self.param_types))
            raise LaunchError(f"kernel {self.name!r} takes {len(self._plan)} arguments "
                              f"({expected}), got {len(args)}")
        ctx = self.module.ctx
        if not self.module.handle:
            raise DriverError(f"kernel {self.name!r}: its module was unloaded")
        gx, gy, gz = _grid_dims(grid, ctx.max_grid)
        handle = _stream_handle(stream, ctx.ordinal)
        with self._lock:
            for (slot, convert, where), value in zip(self._plan, args):
                slot.value = convert(value, where)
            code = self._launch_fn(self.handle, gx, gy, gz, self.threads, 1, 1, 0, handle,
                                   self._params_arg, None)
            if code in _CONTEXT_ERRORS:
                # Not this kernel's context on this thread (a new thread, or another
                # device made current): make it current and try once more.
                ctx.make_current()
                code = self._launch_fn(self.handle, gx, gy, gz, self.threads, 1, 1, 0,
                                       handle, self._params_arg, None)
        if code != _CUDA_SUCCESS:
            ctx.drv.check(code, "cuLaunchKernel",
                          f"kernel {self.name!r}, grid {(gx, gy, gz)}, block ({self.threads}, 1, 1)")

    __call__ = launch


class Module:
    """A cubin loaded into the primary context of one device."""

    def __init__(self, image: bytes, metadata: Mapping[str, Any], device: int | None = None):
        self.ctx = _context(device)
        self.metadata = dict(metadata)
        self.chip = str(metadata.get("chip", ""))
        self._kernel_meta = {str(k["name"]): k for k in _kernel_entries(metadata)}
        self._kernels: dict[str, Kernel] = {}
        drv = self.ctx.drv
        buffer = ctypes.create_string_buffer(image, len(image))
        handle = CUmodule()
        code = drv.cuModuleLoadData(ctypes.byref(handle), buffer)
        if code != _CUDA_SUCCESS:
            hint = f"cubin for {self.chip or 'an unknown chip'}, device {self.ctx.name} " \
                   f"is {self.ctx.chip}"
            if code == _CUDA_ERROR_NO_BINARY_FOR_GPU:
                hint += "; recompile for the device's chip"
            drv.check(code, "cuModuleLoadData", hint)
        self.handle: int = handle.value or 0

    @property
    def kernel_names(self) -> list[str]:
        return list(self._kernel_meta)

    def kernel(self, name: str | None = None) -> Kernel:
        """The kernel called ``name`` (may be omitted when the module has one kernel)."""
        if name is None:
            if len(self._kernel_meta) != 1:
                raise DriverError(f"module has kernels {self.kernel_names}: name one")
            name = next(iter(self._kernel_meta))
        kernel = self._kernels.get(name)
        if kernel is None:
            meta = self._kernel_meta.get(name)
            if meta is None:
                raise DriverError(f"no kernel {name!r} in the metadata; the module has "
                                  f"{self.kernel_names}")
            kernel = self._kernels[name] = Kernel(self, meta)
        return kernel

    def unload(self) -> None:
        """Unload the cubin; its kernels must not be launched afterwards."""
        if self.handle:
            self.ctx.make_current()
            self.ctx.drv.check(self.ctx.drv.cuModuleUnload(self.handle), "cuModuleUnload")
            self.handle = 0
            self._kernels.clear()


def _kernel_entries(metadata: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The kernel entries of a sidecar ({"kernels": [...]}) or of one kernel's metadata."""
    if "kernels" in metadata:
        entries = list(metadata["kernels"])
    elif "name" in metadata:
        entries = [metadata]
    else:
        raise DriverError("kernel metadata has neither 'kernels' nor 'name'")
    for entry in entries:
        if "name" not in entry:
            raise DriverError(f"kernel metadata entry without a name: {entry!r}")
        for i, param in enumerate(entry.get("params", [])):
            if param.get("type") not in _SLOT_TYPES:
                raise DriverError(f"kernel {entry['name']!r} parameter {i} has unknown type "
                                  f"{param.get('type')!r}")
    return entries


def read_artifact(path: str | os.PathLike[str]) -> tuple[bytes, dict[str, Any]]:
    """The bytes of ``X.cubin`` and the parsed ``X.json`` beside it."""
    path = Path(path)
    sidecar = path.with_suffix(".json")
    try:
        metadata = json.loads(sidecar.read_text())
    except FileNotFoundError:
        raise DriverError(f"no metadata {sidecar} beside {path}") from None
    return path.read_bytes(), metadata


def load_module(cubin: bytes | str | os.PathLike[str],
                metadata: Mapping[str, Any] | None = None,
                device: int | None = None) -> Module:
    """Load a cubin (bytes or a path) with its metadata (the sidecar's dict).

    With a path and no metadata, the ``.json`` beside the cubin is read.
    ``device`` defaults to the current device (torch's when torch uses CUDA).
    """
    if isinstance(cubin, (bytes, bytearray, memoryview)):
        image = bytes(cubin)
        if metadata is None:
            raise DriverError("load_module: metadata is required with cubin bytes")
    else:
        if metadata is None:
            image, metadata = read_artifact(cubin)
        else:
            image = Path(cubin).read_bytes()
    return Module(image, metadata, device)


_artifact_kernels: dict[tuple[int, bytes, str], Kernel] = {}


def _launch_device() -> int:
    """The device a launch through :func:`launch` goes to: torch's current device,
    else the only device used so far, else the device of the thread's context."""
    cuda = _torch_cuda()
    if cuda is not None:
        return int(cuda.current_device())
    if len(_contexts) == 1:
        return next(iter(_contexts))
    return _current_device_ordinal(_driver())


def launch(artifact: Any, grid: Any, args: Sequence[Any], stream: Any = None) -> None:
    """Launch a compiled artifact: ``artifact.asm["cubin"]`` (bytes) and
    ``artifact.metadata`` (one kernel's entry plus ``chip``). Loaded modules are
    cached per device and cubin."""
    cubin = artifact.asm["cubin"]
    metadata = artifact.metadata
    name = str(metadata.get("name", ""))
    fast = _torch_fast_queries()
    if fast is not None:
        # torch's current device and stream straight from its C functions:
        # the Python wrappers cost microseconds per launch.
        get_device, get_stream = fast
        ordinal = get_device()
        if stream is None:
            stream = get_stream(ordinal)
    else:
        ordinal = _launch_device()
    key = (ordinal, cubin, name)
    kernel = _artifact_kernels.get(key)
    if kernel is None:
        module = Module(cubin, metadata, ordinal)
        kernel = module.kernel(name or None)
        _artifact_kernels[key] = kernel
    kernel.launch(grid, args, stream)
