"""`triton.runtime.driver` as Triton programs use it: `driver.active` answers
which backend and chip kernels compile for, and which torch device and stream
they run on (tutorials call `get_current_target().backend`,
`get_active_torch_device()`). Only CUDA: `tile.driver` does the work."""
from __future__ import annotations

from typing import Any, Callable, NamedTuple


class GPUTarget(NamedTuple):
    """Triton's `GPUTarget`: backend "cuda", arch 90 for sm_90(a), warp size."""
    backend: str
    arch: int
    warp_size: int


class DeviceUtils:
    """Triton's `driver.active.utils`."""

    def get_device_properties(self, device: int) -> dict[str, int]:
        from .. import driver
        return driver.device(device).properties()


class CudaDriver:
    """The active driver (Triton's `driver.active`)."""

    utils = DeviceUtils()

    def get_current_target(self) -> GPUTarget:
        from .launch import default_target  # the device's chip, sm_90 without a GPU
        chip = default_target()
        return GPUTarget("cuda", int(chip.removeprefix("sm_").rstrip("a")), 32)

    def get_current_device(self) -> int:
        from .. import driver
        return driver.current_device()

    def get_active_torch_device(self) -> Any:
        import torch
        return torch.device("cuda", torch.cuda.current_device())

    def get_device_interface(self) -> Any:
        import torch
        return torch.cuda

    def get_current_stream(self, device: int | None = None) -> int:
        import torch
        return torch.cuda.current_stream(device).cuda_stream

    def get_empty_cache_for_benchmark(self) -> Any:
        """A 256 MB buffer whose zeroing evicts the L2 cache between timed runs."""
        import torch
        return torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")

    def clear_cache(self, cache: Any) -> None:
        cache.zero_()

    def get_benchmarker(self) -> Callable[..., Any]:
        from ..testing import do_bench
        return do_bench

    def is_active(self) -> bool:
        return True


class DriverConfig:
    """Triton's `triton.runtime.driver`: `.active` (and `.default`)."""

    def __init__(self) -> None:
        self.default = CudaDriver()
        self.active = self.default


driver = DriverConfig()

__all__ = ["CudaDriver", "DeviceUtils", "DriverConfig", "GPUTarget", "driver"]
