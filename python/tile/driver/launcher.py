"""The C launcher extension (`tile._launcher`), configured with the driver.

An installed wheel carries ``tile/_launcher.abi3.so``; a source checkout
finds the one its build made (``build/python/tile/``).
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

from . import context
from .bindings import driver
from .errors import DriverError, LaunchError

_lock = threading.Lock()
_module: ModuleType | None = None
_configured = False


def extension() -> ModuleType:
    """tile._launcher, imported (it needs no GPU to import)."""
    global _module
    if _module is not None:
        return _module
    try:
        from .. import _launcher as module  # type: ignore[attr-defined]
    except ImportError:
        package = Path(__file__).resolve().parents[1]
        built = package.parents[1] / "build" / "python" / "tile" / "_launcher.abi3.so"
        if not built.is_file():
            raise DriverError(
                "the C launcher tile._launcher is missing: install the tile wheel, or build "
                f"the checkout (ninja -C build tile_launcher makes {built})") from None
        loader = importlib.machinery.ExtensionFileLoader("tile._launcher", str(built))
        spec = importlib.util.spec_from_file_location("tile._launcher", built, loader=loader)
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        sys.modules["tile._launcher"] = module
    _module = module
    return module


class _PythonJITFunctionBase:
    """JITFunction's base where the C launcher is missing (a checkout not
    built yet, which may still compile or interpret kernels): `kernel[grid]`
    is `_subscript(grid)`, the path the C base takes when it cannot go
    straight to the dispatcher."""
    _dispatcher: Any = None
    _global_reads: Any = ()

    def __getitem__(self, grid: Any) -> Any:
        return self._subscript(grid)  # type: ignore[attr-defined]


def jit_function_base() -> type:
    """The base of tile.runtime.jit.JITFunction: the C one (`kernel[grid]`
    goes to its dispatcher without a Python frame), or a Python stand-in."""
    try:
        module = extension()
    except DriverError:
        return _PythonJITFunctionBase
    base = getattr(module, "JITFunctionBase", None)
    if base is None:
        raise ImportError(f"the C launcher {getattr(module, '__file__', 'tile._launcher')} is "
                          "older than this tile: rebuild it (ninja -C build tile_launcher) "
                          "or reinstall the wheel")
    return base  # type: ignore[no-any-return]


def _cuda_error(call: str, code: int, hint: object) -> Exception:
    return driver().error(call, code, "" if hint is None else str(hint))


def configured() -> ModuleType:
    """tile._launcher with the driver's entry points and hooks installed."""
    global _configured
    module = extension()
    if not _configured:
        with _lock:
            if not _configured:
                drv = driver()
                module.configure(launch_ex=drv.address("cuLaunchKernelEx"),
                                 launch=drv.address("cuLaunchKernel"),
                                 ctx_get_current=drv.address("cuCtxGetCurrent"),
                                 ctx_set_current=drv.address("cuCtxSetCurrent"),
                                 launch_error=LaunchError, cuda_error=_cuda_error,
                                 device_query=context.current_device,
                                 stream_finder=context.torch_stream_query,
                                 tensor_map_encode_tiled=drv.address("cuTensorMapEncodeTiled"))
                _configured = True
    return module


__all__ = ["extension", "configured", "jit_function_base"]
