"""libcuda.so.1 through ctypes: typed entry points and error checking.

The cold path (devices, contexts, modules) calls these; the launch path is in
C (`tile._launcher`), which gets the addresses of cuLaunchKernelEx,
cuCtxSetCurrent and cuTensorMapEncodeTiled from here, so there is one loader
of the driver library.
``TILE_LIBCUDA`` overrides the library (the CPU tests load a fake one).
"""
from __future__ import annotations

import ctypes
import os
import threading
from typing import TYPE_CHECKING, Any, Callable

from .errors import CudaError, DriverNotFoundError

CUresult = ctypes.c_int
CUdevice = ctypes.c_int
CUcontext = ctypes.c_void_p
CUmodule = ctypes.c_void_p
CUfunction = ctypes.c_void_p
CUstream = ctypes.c_void_p

# CUdevice_attribute / CUfunction_attribute values (cuda.h).
DEVICE_MAX_THREADS_PER_BLOCK = 1
DEVICE_WARP_SIZE = 10
DEVICE_MAX_REGISTERS_PER_BLOCK = 12
DEVICE_CLOCK_RATE = 13
DEVICE_MULTIPROCESSOR_COUNT = 16
DEVICE_MEMORY_CLOCK_RATE = 36
DEVICE_GLOBAL_MEMORY_BUS_WIDTH = 37
DEVICE_MAX_THREADS_PER_MULTIPROCESSOR = 39
DEVICE_MAX_GRID_DIM_X = 5
DEVICE_MAX_GRID_DIM_Y = 6
DEVICE_MAX_GRID_DIM_Z = 7
DEVICE_COMPUTE_CAPABILITY_MAJOR = 75
DEVICE_COMPUTE_CAPABILITY_MINOR = 76
DEVICE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97
FUNC_MAX_THREADS_PER_BLOCK = 0
FUNC_LOCAL_SIZE_BYTES = 3
FUNC_NUM_REGS = 4
FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
# Shared memory a block gets without opting in (cuFuncSetAttribute).
DEFAULT_SHARED_BYTES = 48 * 1024
# cuFuncSetCacheConfig: the largest shared-memory carveout of the SM's
# unified L1 for the kernels that opt in (as Triton's driver does).
FUNC_CACHE_PREFER_SHARED = 1

SUCCESS = 0
ERROR_INVALID_CONTEXT = 201
ERROR_NO_BINARY_FOR_GPU = 209
ERROR_NOT_FOUND = 500

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
    "cuFuncSetAttribute": (CUfunction, ctypes.c_int, ctypes.c_int),
    "cuFuncSetCacheConfig": (CUfunction, ctypes.c_int),
    "cuLaunchKernel": (CUfunction, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                       ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                       CUstream, _P(ctypes.c_void_p), _P(ctypes.c_void_p)),
    "cuStreamSynchronize": (CUstream,),
}
# Entry points used when present: cuLaunchKernelEx and cuTensorMapEncodeTiled
# (the C launcher encodes the tensor maps of TMA kernels) came with CUDA 12.0.
_OPTIONAL = ("cuLaunchKernelEx", "cuTensorMapEncodeTiled")


class Driver:
    """libcuda.so.1 with typed entry points and error checking."""

    if TYPE_CHECKING:  # the entry points of _SIGNATURES, set as attributes
        def __getattr__(self, name: str) -> Callable[..., int]: ...

    def __init__(self, path: str | None = None):
        path = path or os.environ.get("TILE_LIBCUDA") or "libcuda.so.1"
        self.path = path
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

    def address(self, name: str) -> int:
        """The address of an entry point, 0 when the driver lacks it."""
        try:
            return ctypes.cast(getattr(self.lib, name), ctypes.c_void_p).value or 0
        except AttributeError:
            if name in _OPTIONAL:
                return 0
            raise

    def error_text(self, code: int) -> tuple[str, str]:
        name = ctypes.c_char_p()
        desc = ctypes.c_char_p()
        if self.cuGetErrorName(code, ctypes.byref(name)) != SUCCESS or not name.value:
            return f"CUresult {code}", "unknown error code"
        self.cuGetErrorString(code, ctypes.byref(desc))
        return name.value.decode(), (desc.value or b"").decode()

    def error(self, call: str, code: int, hint: str = "") -> CudaError:
        name, desc = self.error_text(code)
        return CudaError(call, code, name, desc, hint)

    def check(self, code: int, call: str, hint: str = "") -> None:
        if code != SUCCESS:
            raise self.error(call, code, hint)

    def device_attribute(self, attribute: int, device: int) -> int:
        value = ctypes.c_int()
        self.check(self.cuDeviceGetAttribute(ctypes.byref(value), attribute, device),
                   "cuDeviceGetAttribute")
        return value.value


_lock = threading.Lock()
_instance: Driver | None = None


def driver() -> Driver:
    """The process's driver library, loaded on first use."""
    global _instance
    if _instance is None:
        with _lock:
            if _instance is None:
                _instance = Driver()
    return _instance


__all__ = ["Driver", "driver"]
