"""Where libdevice and the PTX assembler come from, found without configuration.

A kernel's LLVM IR is linked with NVIDIA's libdevice (math functions) before it
becomes PTX, and the PTX is assembled into a cubin by nvJitLink (in-process)
or ptxas (a program). In order:

1. ``CUDA_HOME`` (or ``CUDA_PATH``), when set, wins: its
   ``nvvm/libdevice/libdevice.10.bc`` and its ``bin/ptxas``.
2. Otherwise libdevice is the copy the wheel ships (``tile/_lib/cuda``), else
   one from NVIDIA's pip wheels (``nvidia-nvvm``, ``nvidia-cuda-nvcc-cu12``),
   else ``/usr/local/cuda``; the assembler is nvJitLink from NVIDIA's wheels
   (``nvidia-nvjitlink``, ``nvidia-nvjitlink-cu12``), else ptxas from their
   wheels (``nvidia-cuda-nvcc``), else ``/usr/local/cuda/bin/ptxas``, else the
   first ptxas on ``PATH``.

``TILE_ASSEMBLER=nvjitlink`` or ``=ptxas`` keeps only that kind.
``python -m tile.info`` prints what was found; every compiled kernel's metadata
names the ``assembler`` and ``libdevice`` it used.
"""
from __future__ import annotations

import functools
import importlib.util
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

# Where NVIDIA's wheels put things, below each `nvidia/` package directory:
# CUDA 13 wheels install under nvidia/cu13, CUDA 12 ones per component.
_NVJITLINK = ("cu13/lib/libnvJitLink.so.13", "nvjitlink/lib/libnvJitLink.so.12")
_PTXAS = ("cu13/bin/ptxas", "cuda_nvcc/bin/ptxas")
_LIBDEVICE_ROOTS = ("cu13", "cuda_nvcc")
_LIBDEVICE = Path("nvvm", "libdevice", "libdevice.10.bc")
DEFAULT_TOOLKIT = Path("/usr/local/cuda")


class ToolchainError(RuntimeError):
    """No libdevice or no PTX assembler could be found."""


@dataclass(frozen=True)
class Toolchain:
    """What a compile uses: the directory libdevice is linked from
    (``<root>/nvvm/libdevice/libdevice.10.bc``) and one assembler."""

    libdevice_root: Path | None
    nvjitlink: Path | None = None
    ptxas: Path | None = None
    source: str = ""  # why these: "CUDA_HOME", "python packages", ...

    @property
    def libdevice(self) -> Path | None:
        return self.libdevice_root / _LIBDEVICE if self.libdevice_root else None

    @property
    def assembler(self) -> str:
        if self.nvjitlink:
            return f"nvJitLink ({self.nvjitlink})"
        if self.ptxas:
            return f"ptxas ({self.ptxas})"
        return "none"

    def require_assembler(self) -> None:
        if not (self.nvjitlink or self.ptxas):
            raise ToolchainError(
                "no PTX assembler found, so no cubin can be made: install NVIDIA's nvJitLink "
                "wheel (`pip install nvidia-nvjitlink` for CUDA 13 drivers, "
                "`nvidia-nvjitlink-cu12` for CUDA 12) or set CUDA_HOME to a CUDA toolkit"
                + _kind_note())

    def describe(self) -> str:
        libdevice = self.libdevice or "none (math functions cannot be linked)"
        return f"assembler: {self.assembler}\nlibdevice: {libdevice}\nfound by: {self.source}"


def _kind_note() -> str:
    kind = os.environ.get("TILE_ASSEMBLER")
    return f" (TILE_ASSEMBLER={kind} keeps only that kind)" if kind else ""


def _nvidia_dirs() -> list[Path]:
    """Every `nvidia/` package directory on sys.path (a namespace package)."""
    try:
        spec = importlib.util.find_spec("nvidia")
    except (ImportError, ValueError):
        return []
    if spec is None or spec.submodule_search_locations is None:
        return []
    return [Path(p) for p in spec.submodule_search_locations]


def _first(candidates: list[Path]) -> Path | None:
    return next((c for c in candidates if c.is_file()), None)


def _bundled_libdevice_root() -> Path:
    return Path(__file__).resolve().parents[1] / "_lib" / "cuda"


@functools.lru_cache(maxsize=None)
def _discover(cuda_home: str, kind: str, path: str) -> Toolchain:
    want_jit = kind in ("", "nvjitlink")
    want_ptxas = kind in ("", "ptxas")
    if kind not in ("", "nvjitlink", "ptxas"):
        raise ToolchainError(f"TILE_ASSEMBLER={kind!r}: expected 'nvjitlink' or 'ptxas'")
    if cuda_home:
        home = Path(cuda_home)
        if not (home / _LIBDEVICE).is_file():
            raise ToolchainError(f"CUDA_HOME={cuda_home} has no {_LIBDEVICE}: point it at a "
                                 "CUDA toolkit, or unset it to use NVIDIA's Python packages")
        ptxas = home / "bin" / "ptxas"
        nvjitlink = _first(sorted(home.glob("lib*/libnvJitLink.so*"))) if want_jit else None
        if want_ptxas and ptxas.is_file():
            return Toolchain(home, ptxas=ptxas, source="CUDA_HOME")
        return Toolchain(home, nvjitlink=nvjitlink, source="CUDA_HOME")

    nvidia = _nvidia_dirs()
    roots = [_bundled_libdevice_root()] + [d / r for d in nvidia for r in _LIBDEVICE_ROOTS] \
        + [DEFAULT_TOOLKIT]
    libdevice_root = next((r for r in roots if (r / _LIBDEVICE).is_file()), None)

    if want_jit:
        found = _first([d / rel for d in nvidia for rel in _NVJITLINK])
        if found:
            return Toolchain(libdevice_root, nvjitlink=found, source="python packages")
    if want_ptxas:
        found = _first([d / rel for d in nvidia for rel in _PTXAS])
        if found:
            return Toolchain(libdevice_root, ptxas=found, source="python packages")
        default = DEFAULT_TOOLKIT / "bin" / "ptxas"
        if default.is_file():
            return Toolchain(libdevice_root, ptxas=default, source=str(DEFAULT_TOOLKIT))
        on_path = shutil.which("ptxas", path=path or None)
        if on_path:
            return Toolchain(libdevice_root, ptxas=Path(on_path), source="PATH")
    if want_jit:
        found = _first(sorted(DEFAULT_TOOLKIT.glob("lib*/libnvJitLink.so*")))
        if found:
            return Toolchain(libdevice_root, nvjitlink=found, source=str(DEFAULT_TOOLKIT))
    return Toolchain(libdevice_root, source="nothing found")


def toolchain() -> Toolchain:
    """The toolchain for this process's environment (cached per environment)."""
    return _discover(os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or "",
                     os.environ.get("TILE_ASSEMBLER", "").lower(), os.environ.get("PATH", ""))


def clear_cache() -> None:
    """Forget what was found (after installing a package in-process)."""
    _discover.cache_clear()


__all__ = ["Toolchain", "ToolchainError", "toolchain", "clear_cache", "DEFAULT_TOOLKIT"]
