"""Devices, their primary contexts and targets; torch's current device and stream.

Kernels run in the primary context of a device (torch's context when torch
is in use). Device ordinals are those the driver sees, so they follow
``CUDA_VISIBLE_DEVICES`` as torch's do: ``cuda:1`` is device 1 here too.
"""
from __future__ import annotations

import contextlib
import ctypes
import sys
import threading
from typing import Any, Callable, Iterator

from . import bindings
from .bindings import CUcontext, CUdevice, driver
from .errors import DriverError, LaunchError

from ..compiler.options import TARGETS


def target_for(capability: tuple[int, int], where: str = "") -> str:
    """The chip tile compiles for on a device of `capability`, or a clear error."""
    chip = TARGETS.get(tuple(capability))  # type: ignore[arg-type]
    if chip is None:
        known = ", ".join(f"{c} (compute capability {a}.{b})"
                          for (a, b), c in sorted(TARGETS.items()))
        raise DriverError(f"{where or 'this device'} has compute capability "
                          f"{capability[0]}.{capability[1]} (sm_{capability[0]}{capability[1]}), "
                          f"which tile cannot compile for; supported: {known}")
    return chip


class Device:
    """One device: its retained primary context and the facts launches need."""

    def __init__(self, ordinal: int):
        drv = driver()
        count = device_count()
        if not 0 <= ordinal < count:
            raise DriverError(f"no CUDA device {ordinal}: {count} device(s) visible"
                              " (CUDA_VISIBLE_DEVICES selects which)")
        device = CUdevice()
        drv.check(drv.cuDeviceGet(ctypes.byref(device), ordinal), "cuDeviceGet")
        handle = CUcontext()
        drv.check(drv.cuDevicePrimaryCtxRetain(ctypes.byref(handle), device),
                  "cuDevicePrimaryCtxRetain")
        self.ordinal = ordinal
        self.device = device.value
        self.context: int = handle.value or 0
        name = ctypes.create_string_buffer(256)
        drv.check(drv.cuDeviceGetName(name, 256, device), "cuDeviceGetName")
        self.name = name.value.decode(errors="replace")
        attr = drv.device_attribute
        self.max_threads = attr(bindings.DEVICE_MAX_THREADS_PER_BLOCK, self.device)
        self.max_grid = (attr(bindings.DEVICE_MAX_GRID_DIM_X, self.device),
                         attr(bindings.DEVICE_MAX_GRID_DIM_Y, self.device),
                         attr(bindings.DEVICE_MAX_GRID_DIM_Z, self.device))
        self.max_shared = attr(bindings.DEVICE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, self.device)
        self.multiprocessor_count = attr(bindings.DEVICE_MULTIPROCESSOR_COUNT, self.device)
        self.capability = (attr(bindings.DEVICE_COMPUTE_CAPABILITY_MAJOR, self.device),
                           attr(bindings.DEVICE_COMPUTE_CAPABILITY_MINOR, self.device))

    def __repr__(self) -> str:
        return f"<tile.driver.Device cuda:{self.ordinal} {self.name} sm_{self.chip_digits}>"

    def properties(self) -> dict[str, int]:
        """Triton's `driver.active.utils.get_device_properties(i)`, its keys."""
        attr = driver().device_attribute
        return {
            "max_shared_mem": self.max_shared,
            "max_num_regs": attr(bindings.DEVICE_MAX_REGISTERS_PER_BLOCK, self.device),
            "multiprocessor_count": self.multiprocessor_count,
            "warpSize": attr(bindings.DEVICE_WARP_SIZE, self.device),
            "sm_clock_rate": attr(bindings.DEVICE_CLOCK_RATE, self.device),
            "mem_clock_rate": attr(bindings.DEVICE_MEMORY_CLOCK_RATE, self.device),
            "mem_bus_width": attr(bindings.DEVICE_GLOBAL_MEMORY_BUS_WIDTH, self.device),
            "max_threads_per_sm": attr(bindings.DEVICE_MAX_THREADS_PER_MULTIPROCESSOR,
                                       self.device),
        }

    @property
    def chip_digits(self) -> str:
        return f"{self.capability[0]}{self.capability[1]}"

    @property
    def chip(self) -> str:
        """The device's own chip name (sm_90 for capability 9.0)."""
        return f"sm_{self.chip_digits}"

    @property
    def target(self) -> str:
        """The chip tile compiles for on this device (sm_90a for 9.0)."""
        return target_for(self.capability, f"cuda:{self.ordinal} ({self.name})")

    @contextlib.contextmanager
    def activate(self) -> Iterator["Device"]:
        """This device's context current on the calling thread for the block,
        then the one before it again (torch's current device stays as it was)."""
        drv = driver()
        previous = CUcontext()
        drv.check(drv.cuCtxGetCurrent(ctypes.byref(previous)), "cuCtxGetCurrent")
        switch = (previous.value or 0) != self.context
        if switch:
            drv.check(drv.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")
        try:
            yield self
        finally:
            if switch:
                drv.cuCtxSetCurrent(previous.value)


_lock = threading.Lock()
_devices: dict[int, Device] = {}


def device_count() -> int:
    drv = driver()
    count = ctypes.c_int()
    drv.check(drv.cuDeviceGetCount(ctypes.byref(count)), "cuDeviceGetCount")
    return count.value


def device(ordinal: int | None = None) -> Device:
    """Device `ordinal` (default: the current device)."""
    if ordinal is None:
        ordinal = current_device()
    dev = _devices.get(ordinal)
    if dev is None:
        with _lock:
            dev = _devices.get(ordinal)
            if dev is None:
                dev = _devices[ordinal] = Device(ordinal)
    return dev


def _torch_cuda() -> Any | None:
    """torch.cuda when torch is imported and has initialized CUDA, else None."""
    torch = sys.modules.get("torch")
    cuda = getattr(torch, "cuda", None) if torch is not None else None
    if cuda is None or not cuda.is_initialized():
        return None
    return cuda


def current_device() -> int:
    """torch's current device when torch uses CUDA, else the device of the
    calling thread's context, else 0."""
    cuda = _torch_cuda()
    if cuda is not None:
        return int(cuda.current_device())
    drv = driver()
    current = CUcontext()
    if drv.cuCtxGetCurrent(ctypes.byref(current)) == bindings.SUCCESS and current.value:
        dev = CUdevice()
        drv.check(drv.cuCtxGetDevice(ctypes.byref(dev)), "cuCtxGetDevice")
        return dev.value
    return 0


def torch_stream_query() -> Callable[[int], int] | None:
    """torch's C function for the current raw stream of a device, once torch
    has initialized CUDA (it never un-initializes); else None."""
    if _torch_cuda() is None:
        return None
    return getattr(sys.modules["torch"]._C, "_cuda_getCurrentRawStream", None)


def stream_handle(stream: Any, ordinal: int) -> int:
    """A CUstream from an int, a torch or CuPy stream; None is the current
    stream of device `ordinal` (torch's when torch uses CUDA, else 0)."""
    if stream is None:
        query = torch_stream_query()
        return int(query(ordinal)) if query is not None else 0
    if isinstance(stream, int) and not isinstance(stream, bool):
        return stream
    for attr in ("cuda_stream", "ptr", "handle"):
        handle = getattr(stream, attr, None)
        if isinstance(handle, int):
            return handle
    raise LaunchError(f"cannot use {type(stream).__name__} as a CUDA stream: pass a "
                      "torch.cuda.Stream, a cupy.cuda.Stream or a CUstream handle (int)")


def synchronize(stream: Any = None) -> None:
    """Wait for the current device (or one stream) and raise on any kernel error."""
    drv = driver()
    with device().activate() as dev:
        if stream is None:
            drv.check(drv.cuCtxSynchronize(), "cuCtxSynchronize")
        else:
            drv.check(drv.cuStreamSynchronize(stream_handle(stream, dev.ordinal)),
                      "cuStreamSynchronize")


__all__ = ["Device", "TARGETS", "device", "device_count", "current_device", "target_for",
           "torch_stream_query", "stream_handle", "synchronize"]
