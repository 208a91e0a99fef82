"""Where libdevice and the PTX assembler come from, found without configuration.

A kernel's LLVM IR is linked with NVIDIA's libdevice (math functions) before it
becomes PTX, and the PTX is assembled into a cubin by nvJitLink (in-process)
or ptxas (a program).

1. ``CUDA_HOME`` (or ``CUDA_PATH``), when set, wins: its
   ``nvvm/libdevice/libdevice.10.bc`` and its ``bin/ptxas``.
2. Otherwise libdevice is the copy the wheel ships (``tile/_lib/cuda``), else
   one from NVIDIA's pip wheels (``nvidia-nvvm``, ``nvidia-cuda-nvcc-cu12``),
   else ``/usr/local/cuda``. The assembler is a ptxas where one is found:
   from NVIDIA's wheels (``nvidia-cuda-nvcc``), the one Triton's wheel
   carries, ``/usr/local/cuda``'s, the first on ``PATH``; the newest release
   of them, on a tie the first. Else nvJitLink: from NVIDIA's wheels
   (``nvidia-nvjitlink``, ``nvidia-nvjitlink-cu12``), else the toolkit's.
   ptxas first because it compiles the PTX as a whole program, where
   nvJitLink compiles it as relocatable code (``ptxas -c``), which spills more
   and keeps fewer values in uniform registers: tutorial 06's D128 causal
   backward has a 1096-byte stack frame from nvJitLink 13.0 or ``ptxas -c``,
   896 from ptxas 13.0 or 12.8. Where the CUDA driver can be loaded, an
   assembler of a newer CUDA major version than the driver's is passed over
   (the driver could not load its cubins).

``TILE_ASSEMBLER=nvjitlink`` or ``=ptxas`` keeps only that kind.
``python -m tile.info`` prints what was found; every compiled kernel's metadata
names the ``assembler`` and ``libdevice`` it used.
"""
from __future__ import annotations

import ctypes
import functools
import importlib.util
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

# Where NVIDIA's wheels put things, below each `nvidia/` package directory:
# CUDA 13 wheels install under nvidia/cu13, CUDA 12 ones per component.
_NVJITLINK = ("cu13/lib/libnvJitLink.so.13", "nvjitlink/lib/libnvJitLink.so.12")
_PTXAS = ("cu13/bin/ptxas", "cuda_nvcc/bin/ptxas")
_LIBDEVICE_ROOTS = ("cu13", "cuda_nvcc")
_LIBDEVICE = Path("nvvm", "libdevice", "libdevice.10.bc")
# Below Triton's package directory.
_TRITON_PTXAS = Path("backends", "nvidia", "bin", "ptxas")
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
    version: tuple[int, int] | None = None  # the assembler's CUDA release, if known

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

    @property
    def release(self) -> str:
        """The assembler's CUDA release, as `tile.info` prints it."""
        return f"CUDA {self.version[0]}.{self.version[1]}" if self.version else "unknown"

    def require_assembler(self) -> None:
        if not (self.nvjitlink or self.ptxas):
            raise ToolchainError(
                "no PTX assembler found, so no cubin can be made: install NVIDIA's nvJitLink "
                "wheel (`pip install nvidia-nvjitlink` for CUDA 13 drivers, "
                "`nvidia-nvjitlink-cu12` for CUDA 12) or set CUDA_HOME to a CUDA toolkit"
                + _kind_note())

    def describe(self) -> str:
        libdevice = self.libdevice or "none (math functions cannot be linked)"
        return (f"assembler: {self.assembler}\nassembler release: {self.release}\n"
                f"libdevice: {libdevice}\nfound by: {self.source}")


def _kind_note() -> str:
    kind = os.environ.get("TILE_ASSEMBLER")
    return f" (TILE_ASSEMBLER={kind} keeps only that kind)" if kind else ""


def _package_dirs(name: str) -> list[Path]:
    """The directories of package `name` on sys.path, found without
    importing it (Triton's import takes a second; `nvidia` is a namespace
    package spread over several wheels)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return []
    if spec is None or spec.submodule_search_locations is None:
        return []
    return [Path(p) for p in spec.submodule_search_locations]


def _nvidia_dirs() -> list[Path]:
    return _package_dirs("nvidia")


def _triton_dirs() -> list[Path]:
    return _package_dirs("triton")


def _first(candidates: list[Path]) -> Path | None:
    return next((c for c in candidates if c.is_file()), None)


def _bundled_libdevice_root() -> Path:
    return Path(__file__).resolve().parents[1] / "_lib" / "cuda"


def _nvjitlink_version(path: Path) -> tuple[int, int] | None:
    """nvJitLinkVersion's answer (12.3 and later; 12.x spells it with a
    suffix), or None where the library cannot say."""
    try:
        library = ctypes.CDLL(str(path))
    except OSError:
        return None
    for name in ("nvJitLinkVersion", "__nvJitLinkVersion_13_0", "__nvJitLinkVersion_12_0"):
        function = getattr(library, name, None)
        if function is None:
            continue
        major, minor = ctypes.c_uint(), ctypes.c_uint()
        if function(ctypes.byref(major), ctypes.byref(minor)) == 0:
            return major.value, minor.value
    return None


def _ptxas_version(path: Path) -> tuple[int, int] | None:
    """The release `ptxas --version` names ("release 12.8, V12.8.93"); (0, 0)
    where it runs but names none; None where it does not run."""
    try:
        text = subprocess.run([str(path), "--version"], capture_output=True, text=True,
                              timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"release (\d+)\.(\d+)", text)
    return (int(found.group(1)), int(found.group(2))) if found else (0, 0)


def _driver_major() -> int | None:
    """The CUDA major version of the driver (cuDriverGetVersion), or None
    where none can be loaded (a machine without a GPU compiles ahead of time)."""
    try:
        library = ctypes.CDLL(os.environ.get("TILE_LIBCUDA") or "libcuda.so.1")
        function = library.cuDriverGetVersion
    except (OSError, AttributeError):
        return None
    version = ctypes.c_int()
    if function(ctypes.byref(version)) != 0 or version.value <= 0:
        return None
    return version.value // 1000


def _best(candidates: list[tuple[str, Path, str]]) -> tuple[str, Path, str,
                                                            tuple[int, int] | None] | None:
    """Of (kind, path, source) candidates that exist (a ptxas that runs): a
    ptxas before nvJitLink, then the newest release the driver can load; on
    a tie (or unknown releases) the first."""
    driver = _driver_major()
    best, best_rank = None, None
    for kind, path, source in candidates:
        if not path.is_file():
            continue
        if kind == "nvjitlink":
            version = _nvjitlink_version(path)  # None: a release too old to say
        else:
            version = _ptxas_version(path)
            if version is None:
                continue  # it does not run, so it could not assemble
            version = version if version != (0, 0) else None
        if version and driver is not None and version[0] > driver:
            continue  # cubins the driver would refuse
        rank = (kind == "ptxas", version or (0, 0))
        if best_rank is None or rank > best_rank:
            best, best_rank = (kind, path, source, version), rank
    return best


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
            version = _ptxas_version(ptxas)
            return Toolchain(home, ptxas=ptxas, source="CUDA_HOME",
                             version=version if version != (0, 0) else None)
        return Toolchain(home, nvjitlink=nvjitlink, source="CUDA_HOME",
                         version=_nvjitlink_version(nvjitlink) if nvjitlink else None)

    nvidia = _nvidia_dirs()
    roots = [_bundled_libdevice_root()] + [d / r for d in nvidia for r in _LIBDEVICE_ROOTS] \
        + [DEFAULT_TOOLKIT]
    libdevice_root = next((r for r in roots if (r / _LIBDEVICE).is_file()), None)

    # Every assembler that may be there, in the order that breaks ties.
    candidates: list[tuple[str, Path, str]] = []
    if want_jit:
        candidates += [("nvjitlink", d / rel, "python packages")
                       for d in nvidia for rel in _NVJITLINK]
    if want_ptxas:
        candidates += [("ptxas", d / rel, "python packages") for d in nvidia for rel in _PTXAS]
        candidates += [("ptxas", d / _TRITON_PTXAS, "Triton's package") for d in _triton_dirs()]
        candidates.append(("ptxas", DEFAULT_TOOLKIT / "bin" / "ptxas", str(DEFAULT_TOOLKIT)))
        on_path = shutil.which("ptxas", path=path or None)
        if on_path:
            candidates.append(("ptxas", Path(on_path), "PATH"))
    if want_jit:
        candidates += [("nvjitlink", found, str(DEFAULT_TOOLKIT))
                       for found in sorted(DEFAULT_TOOLKIT.glob("lib*/libnvJitLink.so*"))]
    chosen = _best(candidates)
    if chosen is None:
        return Toolchain(libdevice_root, source="nothing found")
    found_kind, found, source, version = chosen
    if found_kind == "nvjitlink":
        return Toolchain(libdevice_root, nvjitlink=found, source=source, version=version)
    return Toolchain(libdevice_root, ptxas=found, source=source, version=version)


def toolchain() -> Toolchain:
    """The toolchain for this process's environment (cached per environment)."""
    return _discover(os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or "",
                     os.environ.get("TILE_ASSEMBLER", "").lower(), os.environ.get("PATH", ""))


def clear_cache() -> None:
    """Forget what was found (after installing a package in-process)."""
    _discover.cache_clear()


__all__ = ["Toolchain", "ToolchainError", "toolchain", "clear_cache", "DEFAULT_TOOLKIT"]
