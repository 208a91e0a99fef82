"""tile.driver: the CUDA driver behind the small interface the runtime calls.

By job, as Triton's ``backends/driver``:

=============  ===========================================================
``bindings``   libcuda.so.1 through ctypes (``TILE_LIBCUDA`` overrides it)
``context``    devices, primary contexts, targets; torch's device and stream
``packing``    parameter types and the codes the C launcher packs by
``launcher``   the C extension ``tile._launcher`` (packing, the launch)
``modules``    cubins loaded per device, their kernels, the per-device cache
=============  ===========================================================

What the runtime uses (this module's functions): :func:`current_device`,
:func:`target` (the chip to compile for on a device), :func:`device_of`
(the device of a launch's tensors), :func:`kernel_for`, :func:`launch`,
:func:`dispatcher` (the C launch cache of a ``@jit`` function) and
:func:`synchronize`. No CUDA toolkit, LLVM or torch is needed to import it;
a GPU and its driver are needed to launch.

Usage without the JIT::

    from tile import driver
    mod = driver.load_module("add.cubin")            # reads add.json beside it
    mod.kernel("add_kernel").launch((cdiv(n, 1024),), [x, y, out, n])

``stream=None`` means torch's current stream when torch has initialized CUDA,
else the legacy default stream. Launches are asynchronous: call
:func:`synchronize` to wait and to surface errors raised while running.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from .context import (TARGETS, Device, current_device, device, device_count,  # noqa: F401
                      synchronize, target_for)
from .errors import (CudaError, DriverError, DriverNotFoundError, LaunchError,  # noqa: F401
                     LaunchOutOfResources)
from .modules import Kernel, Module, kernel_for, load_module, read_artifact  # noqa: F401


def target(ordinal: int | None = None) -> str:
    """The chip tile compiles for on device `ordinal` (default: the current one)."""
    return device(ordinal).target


def current_target() -> str:
    """The chip to compile for on the current device."""
    return target(None)


def device_of(values: Sequence[Any], names: Sequence[str] | None = None) -> int:
    """The device of the tensors among `values` (all on one device, or a
    LaunchError naming two that differ); the current device when there are none."""
    found: tuple[int, str] | None = None
    for i, value in enumerate(values):
        get_device = getattr(value, "get_device", None)
        if get_device is None or not hasattr(value, "data_ptr"):
            continue
        ordinal = int(get_device())
        if ordinal < 0:
            continue  # a CPU tensor: packing says what is wrong with it
        name = names[i] if names is not None else f"argument {i}"
        if found is None:
            found = (ordinal, name)
        elif found[0] != ordinal:
            raise LaunchError(f"argument '{found[1]}' is on cuda:{found[0]} but argument "
                              f"'{name}' is on cuda:{ordinal}; all tensors of one launch "
                              "must be on one device")
    return found[0] if found is not None else current_device()


def launch(artifact: Any, grid: Any, args: Sequence[Any], stream: Any = None) -> None:
    """Launch a compiled artifact (``.asm["cubin"]`` and ``.metadata``) on the
    device of its tensor arguments."""
    kernel_for(artifact, device_of(args)).launch(grid, args, stream)


def dispatcher(name: str, arg_names: Sequence[str], constexpr: Sequence[bool],
               defaults: Mapping[str, Any], slow_path: Callable[..., Any],
               interpreted: Callable[[Any], Any] | None = None) -> Any:
    """The C launch cache of one ``@jit`` function: ``dispatcher[grid](*args)``.
    On a miss it calls ``slow_path(grid, args, kwargs, key, device, stream)``,
    which returns ``(kernel.launcher, sources)`` to cache, or None after
    launching by itself (a call whose key cannot be computed). While
    ``TILE_INTERPRET`` is set, ``dispatcher[grid]`` is ``interpreted(grid)``
    unless that returns None."""
    from .launcher import extension
    return extension().Dispatcher(name=name, arg_names=tuple(arg_names),
                                   constexpr=tuple(bool(c) for c in constexpr),
                                   defaults=dict(defaults), slow_path=slow_path,
                                   interpreted=interpreted)


__all__ = ["CudaError", "DriverError", "DriverNotFoundError", "LaunchError", "LaunchOutOfResources",
           "Device", "Kernel",
           "Module", "TARGETS", "current_device", "current_target", "device", "device_count",
           "device_of", "dispatcher", "kernel_for", "launch", "load_module", "read_artifact",
           "synchronize", "target", "target_for"]
