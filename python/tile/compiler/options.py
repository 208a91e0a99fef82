"""Compile options, checked in one place for every entry point: `tile.compile`,
launches (`kernel[grid](..., num_warps=...)`), `tile.Config` and `tile.aot`.

Nothing is coerced: `num_warps=0`, `1.5` or `"4"` and `target=""` are errors,
not 4 warps or the default chip.
"""
from __future__ import annotations

import os
import re
from typing import Any, Mapping

# The compile library's range (include/tile-c/Compile.h: 1 to 32 warps).
MIN_NUM_WARPS, MAX_NUM_WARPS = 1, 32
# A chip name as the compiler takes it; the compiler checks it against the
# chips it can target and says so if it cannot.
_TARGET = re.compile(r"sm_[1-9][0-9]{1,2}[a-z]?")
# The chips tile compiles for, by compute capability. 9.0 compiles as sm_90a,
# so that Hopper-only instructions (wgmma, TMA) are allowed.
TARGETS: dict[tuple[int, int], str] = {
    (8, 0): "sm_80", (8, 6): "sm_86", (8, 9): "sm_89", (9, 0): "sm_90a",
}


def _exact_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, got {value!r} ({type(value).__name__})")
    return value


def check_num_warps(value: Any) -> int:
    """`num_warps`: an int from 1 to 32."""
    value = _exact_int(value, "num_warps")
    if not MIN_NUM_WARPS <= value <= MAX_NUM_WARPS:
        raise ValueError(f"num_warps must be from {MIN_NUM_WARPS} to {MAX_NUM_WARPS}, "
                         f"got {value}")
    return value


# Triton's num_ctas is a thread-block cluster's size: a power of two, at most
# the 16 CTAs a Hopper cluster may hold.
MAX_NUM_CTAS = 16


def check_num_ctas(value: Any) -> int:
    """`num_ctas` (Triton's thread-block clusters): a power of two from 1 to 16.
    It is a speed directive: tile runs each program on one CTA whatever it
    says (no clusters), so results are those Triton gives (python/tile/README.md)."""
    value = _exact_int(value, "num_ctas")
    if not (1 <= value <= MAX_NUM_CTAS and value & (value - 1) == 0):
        raise ValueError(f"num_ctas must be a power of two from 1 to {MAX_NUM_CTAS} "
                         f"(a thread-block cluster), got {value}")
    return value


def check_num_stages(value: Any) -> int:
    """`num_stages` (a pipelining depth, accepted for Triton's API): an int >= 1."""
    value = _exact_int(value, "num_stages")
    if value < 1:
        raise ValueError(f"num_stages must be at least 1, got {value}")
    return value


def check_target(value: Any) -> str:
    """A chip name such as "sm_90" or "sm_90a", or Triton's
    `GPUTarget("cuda", 90, 32)` (the chip a device of that capability gets)."""
    if hasattr(value, "backend") and hasattr(value, "arch"):
        return _chip_of_gpu_target(value)
    if not isinstance(value, str) or not _TARGET.fullmatch(value):
        raise ValueError(f"target must be a chip name such as 'sm_80', 'sm_90' or 'sm_90a', "
                         f"got {value!r}")
    return value


MAX_REGISTERS = 255  # per thread, the hardware's limit


def check_maxnreg(value: Any) -> int | None:
    """Triton's `maxnreg` (launch, `tile.Config` and compile option): the most
    registers a kernel's thread may use, an int from 1 to 255 (PTX
    `.maxnreg`), or None for the assembler's choice."""
    if value is None:
        return None
    value = _exact_int(value, "maxnreg")
    if not 1 <= value <= MAX_REGISTERS:
        raise ValueError(f"maxnreg must be from 1 to {MAX_REGISTERS} registers per thread, "
                         f"got {value}")
    return value


def check_extern_libs(value: Any) -> str | None:
    """Triton's `extern_libs` (launch and compile option): `{"libdevice":
    path}` links that libdevice bitcode file instead of the toolchain's; the
    path, or None for the toolchain's. Other libraries are not linked by tile."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError(f"extern_libs is a dict of library name to bitcode path, got {value!r}")
    others = sorted(str(name) for name in value if name != "libdevice")
    if others:
        raise ValueError(f"extern_libs: tile links only libdevice "
                         f"(extern_libs={{'libdevice': path}}), not {', '.join(others)}")
    if "libdevice" not in value:
        return None
    path = value["libdevice"]
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"extern_libs['libdevice'] is a path, got {path!r}")
    if not os.path.isfile(path):
        raise ValueError(f"extern_libs: the libdevice {os.fspath(path)} does not exist or is "
                         "not a file")
    return os.path.abspath(os.fspath(path))


def check_flag(value: Any, name: str) -> bool:
    """A launch or compile option that is True or False."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} is True or False, got {value!r}")
    return value


def check_fp_fusion(value: Any) -> bool:
    """Triton's `enable_fp_fusion` launch option: a bool, or None for
    tile.knobs.language.default_fp_fusion (read when a kernel is compiled)."""
    if value is None:
        from .. import knobs
        return knobs.language.default_fp_fusion
    return check_flag(value, "enable_fp_fusion")


def debug_enabled(jit_debug: bool | None) -> bool:
    """Whether kernels get their device assertions (`tl.device_assert`,
    `assert`): `@tile.jit(debug=...)` when given, else `TILE_DEBUG` set to
    anything but "" or "0" (Triton's `TRITON_DEBUG`), read when a kernel is
    compiled."""
    if jit_debug is not None:
        return bool(jit_debug)
    from .. import knobs
    return knobs.runtime.debug


def _chip_of_gpu_target(target: Any) -> str:
    backend, arch = target.backend, target.arch
    if backend != "cuda":
        raise ValueError(f"tile compiles for CUDA GPUs, not for backend {backend!r}")
    if not isinstance(arch, int) or isinstance(arch, bool):
        raise ValueError(f"GPUTarget arch is a compute capability such as 90, got {arch!r}")
    chip = TARGETS.get(divmod(arch, 10))
    if chip is None:
        known = ", ".join(f"{a}{b}" for a, b in sorted(TARGETS))
        raise ValueError(f"tile cannot compile for compute capability {arch} (sm_{arch}); "
                         f"GPUTarget arch is one of {known}")
    if getattr(target, "warp_size", 32) != 32:
        raise ValueError(f"CUDA warps have 32 threads, not {target.warp_size}")
    return chip


_ARCH = re.compile(r"sm_?([1-9][0-9]{1,2})a?")


def chip_of_arch(arch: Any) -> str:
    """The chip of Triton's `arch=` launch option and `knobs.runtime.override_arch`
    ("sm80", "sm_90a"): the one a device of that compute capability gets."""
    match = _ARCH.fullmatch(arch) if isinstance(arch, str) else None
    digits = match.group(1) if match else ""
    chip = TARGETS.get((int(digits[:-1]), int(digits[-1]))) if digits else None
    if chip is None:
        known = ", ".join(f"sm{a}{b}" for a, b in sorted(TARGETS))
        raise ValueError(f"arch must name a chip tile compiles for ({known}), got {arch!r}")
    return chip
