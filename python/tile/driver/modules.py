"""Loading cubins: modules per device, their kernels, and the per-device cache.

The compiler writes ``X.cubin`` and a JSON sidecar ``X.json``::

    {"chip": "sm_90a",
     "kernels": [{"name": "add_kernel", "num_warps": 4, "threads": 128,
                  "shared_bytes": 0,
                  "params": [{"name": "x_ptr", "type": "ptr", "pointee": "f32"},
                             {"name": "n", "type": "i32"}]}]}

A host tensor descriptor's map is a "tensormap" parameter, with "box",
"swizzle" and "element_bytes" where the kernel reads it (packing.py). One
with a "recipe" is hidden (a descriptor or block pointer the kernel makes):
the launcher makes its map from other parameters' values, and a launch
passes None for it or leaves it out (such parameters come last).

A compiled kernel is loaded once per device (a module per context): the cache
of :func:`kernel_for` is keyed by device and cubin, and filled under a lock.
"""
from __future__ import annotations

import ctypes
import json
import os
import threading
from pathlib import Path
from typing import Any, Mapping, Sequence

from . import bindings, context, launcher, packing
from .bindings import CUfunction, CUmodule, driver
from .errors import DriverError, LaunchOutOfResources


class Kernel:
    """One kernel of a loaded module; `launch(grid, args, stream=None)` enqueues it.
    `args` fill the parameters in order; the `hidden` ones at the end (tensor
    maps the launcher makes) take None, or may be left out."""

    def attribute(self, attribute: int) -> int:
        """cuFuncGetAttribute of the loaded function (bindings.FUNC_*)."""
        value = ctypes.c_int()
        driver().check(driver().cuFuncGetAttribute(ctypes.byref(value), attribute, self.handle),
                       "cuFuncGetAttribute")
        return value.value

    def __init__(self, module: "Module", meta: Mapping[str, Any]):
        self.module = module
        self.meta = dict(meta)
        self.name: str = meta["name"]
        dev = module.device
        drv = driver()
        handle = CUfunction()
        with dev.activate():
            code = drv.cuModuleGetFunction(ctypes.byref(handle), module.handle,
                                           self.name.encode())
        if code == bindings.ERROR_NOT_FOUND:
            raise DriverError(f"kernel {self.name!r} is not in the cubin")
        drv.check(code, "cuModuleGetFunction", f"kernel {self.name!r}")
        self.handle: int = handle.value or 0

        self.threads = int(meta.get("threads") or 32 * int(meta.get("num_warps", 4)))
        limit = ctypes.c_int()
        drv.check(drv.cuFuncGetAttribute(ctypes.byref(limit),
                                         bindings.FUNC_MAX_THREADS_PER_BLOCK, self.handle),
                  "cuFuncGetAttribute")
        if self.threads > dev.max_threads or self.threads > limit.value:
            allowed = min(dev.max_threads, limit.value)
            raise LaunchOutOfResources(
                self.threads, allowed, "threads",
                f"kernel {self.name!r} needs {self.threads} threads per block, but "
                f"{dev.name} allows {allowed} for it "
                f"(device limit {dev.max_threads}, kernel limit {limit.value} from its "
                "register use); compile with fewer warps")
        params = list(meta.get("params", []))
        self.param_names = [str(p.get("name", f"arg{i}")) for i, p in enumerate(params)]
        self.param_types = [str(p["type"]) for p in params]
        # Per parameter: (box, swizzle, element_bytes) of a tensor map the
        # kernel reads (the C launcher encodes it from the descriptor), else None.
        self.tensor_maps = [
            packing.tensor_map_encoding(p, f"kernel {self.name!r} parameter {i} ({n}: {t})")
            if t == "tensormap" else None
            for i, (p, n, t) in enumerate(zip(params, self.param_names, self.param_types))]
        # Per parameter: (base, shape terms, stride terms) of a tensor map made
        # at launch from other parameters (a hidden one), else None.
        self.tensor_map_recipes = [
            packing.tensor_map_recipe(p, params, f"kernel {self.name!r} parameter {i} "
                                      f"({n}: {t})") if t == "tensormap" else None
            for i, (p, n, t) in enumerate(zip(params, self.param_names, self.param_types))]
        # How many parameters at the end no argument fills.
        self.hidden = packing.hidden_parameters(params)
        if any(self.tensor_maps) and not drv.address("cuTensorMapEncodeTiled"):
            raise DriverError(f"kernel {self.name!r} reads tensor maps (TMA), but the CUDA "
                              f"driver {drv.path!r} has no cuTensorMapEncodeTiled: update the "
                              "driver (CUDA 12.0 or later)")
        # Shared memory is dynamic: each launch asks for what the kernel
        # needs, opting in beyond the default 48 KiB once per function. Such a
        # kernel also prefers the largest shared carveout: left to the driver,
        # the SM's L1 keeps what one block's bytes leave over, and a kernel
        # of another carveout before or after it (Triton's, which prefer
        # shared; an L2 flush) makes the SMs drain and reconfigure between them.
        self.shared = int(meta.get("shared_bytes", 0))
        if self.shared > dev.max_shared:
            raise LaunchOutOfResources(
                self.shared, dev.max_shared, "shared memory",
                f"kernel {self.name!r} needs {self.shared} bytes of shared memory, but "
                f"{dev.name} allows {dev.max_shared} per block; use smaller tiles or fewer "
                "stages")
        if self.shared > bindings.DEFAULT_SHARED_BYTES:
            drv.check(drv.cuFuncSetAttribute(self.handle,
                                             bindings.FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                             self.shared),
                      "cuFuncSetAttribute", f"kernel {self.name!r}, {self.shared} bytes")
            drv.check(drv.cuFuncSetCacheConfig(self.handle, bindings.FUNC_CACHE_PREFER_SHARED),
                      "cuFuncSetCacheConfig", f"kernel {self.name!r}")
        # See use_for_small_grids.
        self.small_grid_kernel: Kernel | None = None
        self.small_grid_blocks = 0
        self.launcher = self._make_launcher(cooperative=False)
        self.launch = self.launcher.launch  # launch(grid, args, stream=None)
        self._cooperative_launcher: Any = None

    def use_for_small_grids(self, other: "Kernel") -> None:
        """`other` is this kernel's cubin for grids that fit at once (the
        compile's cubin_without_limit: assembled for one block per SM, or the
        assembler's own where the compile raised occupancy): launches of a
        grid whose blocks all fit on the device at once with its registers
        run `other` (occupancy buys them nothing; the registers may)."""
        per_sm = int(self.meta.get("resident_blocks_without_limit", 0))
        self.small_grid_kernel = other
        self.small_grid_blocks = per_sm * self.module.device.multiprocessor_count
        self.launcher = self._make_launcher(cooperative=False)
        self.launch = self.launcher.launch
        self._cooperative_launcher = None

    def _make_launcher(self, cooperative: bool) -> Any:
        dev = self.module.device
        small = self.small_grid_kernel
        return launcher.configured().Kernel(
            function=self.handle, context=dev.context, device=dev.ordinal,
            codes=packing.codes(self.param_types), threads=self.threads, shared=self.shared,
            max_grid=dev.max_grid, name=self.name, param_names=self.param_names,
            cooperative=cooperative, small_grid_function=small.handle if small else 0,
            small_grid_blocks=self.small_grid_blocks if small else 0,
            tensor_maps=self._launcher_tensor_maps())

    def _launcher_tensor_maps(self) -> tuple[Any, ...]:
        """The C Kernel's `tensor_maps`: per parameter None, (box, swizzle,
        element_bytes), or those (None each without an encoding) and a recipe."""
        return tuple(
            encoding if recipe is None else (*(encoding or (None, None, None)), recipe)
            for encoding, recipe in zip(self.tensor_maps, self.tensor_map_recipes))

    @property
    def cooperative_launcher(self) -> Any:
        """The C launcher of Triton's `launch_cooperative_grid=True`: the
        driver launches the grid only if all its blocks fit on the device at
        once (else CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)."""
        if self._cooperative_launcher is None:
            self._cooperative_launcher = self._make_launcher(cooperative=True)
        return self._cooperative_launcher

    def __repr__(self) -> str:
        sig = ", ".join(f"{n}: {t}" for n, t in zip(self.param_names, self.param_types))
        return f"<tile.driver.Kernel {self.name}({sig}), {self.threads} threads, " \
               f"cuda:{self.module.device.ordinal}>"

    def __call__(self, grid: Any, args: Sequence[Any], stream: Any = None) -> None:
        self.launch(grid, args, stream)


class Module:
    """A cubin loaded into the primary context of one device. `image_without_limit`
    is the compile's cubin for grids that fit at once, where it made one: the
    module's kernels then launch it for such grids (Kernel.use_for_small_grids)."""

    def __init__(self, image: bytes, metadata: Mapping[str, Any], device: int | None = None,
                 image_without_limit: bytes | None = None):
        self.device = context.device(device)
        self.metadata = dict(metadata)
        self._image_without_limit = image_without_limit or None
        self._without_limit: Module | None = None
        self.chip = str(metadata.get("chip", ""))
        self._kernel_meta = {str(k["name"]): k for k in packing.kernel_entries(metadata)}
        self._kernels: dict[str, Kernel] = {}
        drv = driver()
        buffer = ctypes.create_string_buffer(image, len(image))
        handle = CUmodule()
        with self.device.activate():
            code = drv.cuModuleLoadData(ctypes.byref(handle), buffer)
        if code != bindings.SUCCESS:
            hint = f"cubin for {self.chip or 'an unknown chip'}, device cuda:" \
                   f"{self.device.ordinal} ({self.device.name}) is {self.device.chip}"
            if code == bindings.ERROR_NO_BINARY_FOR_GPU:
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
            if self._image_without_limit and "resident_blocks_without_limit" in meta:
                if self._without_limit is None:
                    self._without_limit = Module(self._image_without_limit, self.metadata,
                                                 self.device.ordinal)
                kernel.use_for_small_grids(self._without_limit.kernel(name))
        return kernel

    def unload(self) -> None:
        """Unload the cubin; its kernels must not be launched afterwards."""
        if self.handle:
            with self.device.activate():
                driver().check(driver().cuModuleUnload(self.handle), "cuModuleUnload")
            self.handle = 0
            self._kernels.clear()


# Where tile-translate and tile-cc write the cubin for grids that fit at once beside
# X.cubin, where the compile made one (getCubinWithoutLimitPath in tile/Target/Compile.h).
WITHOUT_LIMIT_SUFFIX = ".without-limit.cubin"


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

    With a path and no metadata, the ``.json`` beside the cubin is read; with a
    path, ``X.without-limit.cubin`` beside ``X.cubin`` (the cubin for grids that fit at once,
    where the compile raised occupancy) is loaded too, for small grids.
    ``device`` defaults to the current device (torch's when torch uses CUDA).
    """
    without_limit = None
    if isinstance(cubin, (bytes, bytearray, memoryview)):
        image = bytes(cubin)
        if metadata is None:
            raise DriverError("load_module: metadata is required with cubin bytes")
    else:
        if metadata is None:
            image, metadata = read_artifact(cubin)
        else:
            image = Path(cubin).read_bytes()
        beside = Path(cubin).with_suffix(WITHOUT_LIMIT_SUFFIX)
        if beside.is_file():
            without_limit = beside.read_bytes()
    return Module(image, metadata, device, without_limit)


_cache_lock = threading.Lock()
_loaded: dict[tuple[int, bytes, str], Kernel] = {}


def kernel_for(artifact: Any, device: int) -> Kernel:
    """The kernel of a compiled artifact (``.asm["cubin"]``, ``.metadata``) loaded
    on `device`: loaded once per device and cubin, also when threads race."""
    cubin = artifact.asm["cubin"]
    name = str(artifact.metadata.get("name", ""))
    key = (device, cubin, name)
    kernel = _loaded.get(key)
    if kernel is None:
        with _cache_lock:
            kernel = _loaded.get(key)
            if kernel is None:
                if not cubin:
                    raise DriverError(f"kernel {name!r} was compiled without a cubin "
                                      "(emit_cubin=False): it cannot be launched")
                kernel = Module(cubin, artifact.metadata, device,
                                artifact.asm.get("cubin_without_limit")).kernel(name or None)
                _loaded[key] = kernel
    return kernel


def loaded_kernels() -> int:
    """How many (device, cubin) kernels are loaded (for tests)."""
    return len(_loaded)


__all__ = ["Kernel", "Module", "load_module", "read_artifact", "kernel_for", "loaded_kernels"]
