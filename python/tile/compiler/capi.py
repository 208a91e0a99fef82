"""ctypes binding of the C++ compile library (include/tile-c/Compile.h).

Found as `$TILE_LIBRARY`, else the self-contained `libTileCompiler.so` an
installed wheel carries (`tile/_lib/`), else a source checkout's
`build/lib/libTileCAPI.so` (linked against the system's LLVM).
"""
from __future__ import annotations

import ctypes
import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import error_from_diagnostics
from . import toolchain as _toolchain

LIBRARY_NAME = "libTileCAPI.so"
BUNDLED_NAME = "libTileCompiler.so"


class CompilerUnavailableError(RuntimeError):
    """The compile library was not found (set TILE_LIBRARY or build the project)."""


def library_path() -> Path:
    """$TILE_LIBRARY, else the wheel's bundled library, else the checkout's build."""
    override = os.environ.get("TILE_LIBRARY")
    if override:
        return Path(override)
    package = Path(__file__).resolve().parents[1]
    bundled = package / "_lib" / BUNDLED_NAME
    if bundled.is_file():
        return bundled
    return package.parents[1] / "build" / "lib" / LIBRARY_NAME


def available() -> bool:
    return library_path().is_file()


class _Options(ctypes.Structure):
    """TileCompileOptions (tile-c/Compile.h)."""
    _fields_ = [("bufferName", ctypes.c_char_p), ("chip", ctypes.c_char_p),
                ("numWarps", ctypes.c_int), ("emitCubin", ctypes.c_int),
                ("cudaToolkit", ctypes.c_char_p), ("ptxas", ctypes.c_char_p),
                ("nvJitLink", ctypes.c_char_p), ("numStages", ctypes.c_int),
                ("disableLineInfo", ctypes.c_int), ("disableFpFusion", ctypes.c_int),
                ("disableReflectFtz", ctypes.c_int), ("maxRegisters", ctypes.c_int),
                ("libdevice", ctypes.c_char_p)]


@functools.lru_cache(maxsize=None)
def _load(path: str) -> ctypes.CDLL:
    lib = ctypes.CDLL(path)
    if hasattr(lib, "tileCompileWith"):
        lib.tileCompileWith.argtypes = [ctypes.c_char_p, ctypes.c_size_t,
                                        ctypes.POINTER(_Options)]
        lib.tileCompileWith.restype = ctypes.c_void_p
    lib.tileCompile.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                ctypes.c_int, ctypes.c_int]
    lib.tileCompile.restype = ctypes.c_void_p
    lib.tileCompileSucceeded.argtypes = [ctypes.c_void_p]
    lib.tileCompileSucceeded.restype = ctypes.c_int
    lib.tileCompileResultGet.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                         ctypes.POINTER(ctypes.c_size_t)]
    lib.tileCompileResultGet.restype = ctypes.c_void_p
    lib.tileCompileResultDestroy.argtypes = [ctypes.c_void_p]
    lib.tileCompileResultDestroy.restype = None
    return lib


def library() -> ctypes.CDLL:
    path = library_path()
    if not path.is_file():
        raise CompilerUnavailableError(
            f"the tile compile library {path} does not exist: build the project "
            "(it builds build/lib/libTileCAPI.so) or set TILE_LIBRARY to its path")
    return _load(str(path))


def version() -> str:
    """Identifies the compiler build for cache keys: the library's version
    string plus its path, size and mtime (a rebuilt library changes the key)."""
    path = library_path()
    try:
        stat = path.stat()
    except OSError:
        return "unavailable"
    reported = ""
    try:
        lib = library()
        if hasattr(lib, "tileCompilerVersion"):
            lib.tileCompilerVersion.restype = ctypes.c_char_p
            reported = (lib.tileCompilerVersion() or b"").decode()
    except OSError:
        pass
    return f"{reported}:{path.resolve()}:{stat.st_size}:{stat.st_mtime_ns}"


@dataclass
class BackendResult:
    llir: str
    ptx: str
    cubin: bytes
    metadata: dict[str, Any]
    # The cubin for grids that fit at once, where the compile made one (else b""):
    # the launcher runs it for grids that fit at once without the limit.
    cubin_without_limit: bytes = b""


def _get(lib: ctypes.CDLL, result: int, what: str) -> bytes:
    size = ctypes.c_size_t(0)
    pointer = lib.tileCompileResultGet(result, what.encode(), ctypes.byref(size))
    if not pointer:
        return b""
    return ctypes.string_at(pointer, size.value)


def compile_ir(ir: str, chip: str, num_warps: int, emit_cubin: bool = True,
               num_stages: int | None = None, line_info: bool = True,
               fp_fusion: bool = True, reflect_ftz: bool = True,
               maxnreg: int | None = None, libdevice: str | None = None) -> BackendResult:
    """Runs the whole C++ pipeline on tile IR text; failures raise CompilationError
    located in the user's source (the IR carries Python locations). `num_stages`
    is Triton's: None is the library's default, 0 and 1 no software pipelining.
    `line_info`: the PTX and cubin carry the IR's locations as a line table;
    `fp_fusion`: float multiplies and adds may fuse into fmas; `reflect_ftz`:
    libdevice's functions flush subnormals to zero; `maxnreg`: the most
    registers a kernel's thread may use (None: the assembler's choice);
    `libdevice`: a libdevice bitcode file to link instead of the toolchain's."""
    lib = library()
    tools = _toolchain.toolchain()
    if emit_cubin:
        tools.require_assembler()
    data = ir.encode()

    def text(value: object) -> bytes | None:
        return str(value).encode() if value else None

    options = _Options(None, chip.encode(), int(num_warps), int(emit_cubin),
                       text(tools.libdevice_root), text(tools.ptxas), text(tools.nvjitlink),
                       0 if num_stages is None else max(1, int(num_stages)),
                       int(not line_info), int(not fp_fusion), int(not reflect_ftz),
                       maxnreg or 0, text(libdevice))
    result = lib.tileCompileWith(data, len(data), ctypes.byref(options))
    if not result:
        raise CompilerUnavailableError("tileCompile returned no result")
    try:
        if not lib.tileCompileSucceeded(result):
            raise error_from_diagnostics(_get(lib, result, "diagnostics").decode(errors="replace"))
        metadata_text = _get(lib, result, "metadata").decode() or "{}"
        return BackendResult(llir=_get(lib, result, "llir").decode(errors="replace"),
                             ptx=_get(lib, result, "ptx").decode(errors="replace"),
                             cubin=_get(lib, result, "cubin") if emit_cubin else b"",
                             metadata=json.loads(metadata_text),
                             cubin_without_limit=_get(lib, result, "cubin_without_limit"))
    finally:
        lib.tileCompileResultDestroy(result)
