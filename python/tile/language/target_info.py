"""`tl.target_info` (Triton's): what the current device is, as compile-time
functions a kernel may call (`if target_info.cuda_capability_geq(9, 0):`).
Like Triton's, they ask the active driver (the current device; sm_90 without
a GPU), whatever target a compile was given."""
from __future__ import annotations

from typing import Any

__all__ = ["current_target"]


def current_target() -> Any:
    """The current device's `GPUTarget("cuda", arch, 32)`."""
    from ..runtime.driver import driver
    return driver.active.get_current_target()


def is_cuda() -> bool:
    return current_target().backend == "cuda"


def cuda_capability_geq(major: int, minor: int = 0) -> bool:
    """Whether the device's compute capability is at least major.minor."""
    target = current_target()
    return target.backend == "cuda" and target.arch >= major * 10 + minor


def is_hip() -> bool:
    return False  # tile targets NVIDIA GPUs only


def is_hip_cdna3() -> bool:
    return False


def is_hip_cdna4() -> bool:
    return False
