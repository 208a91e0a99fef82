"""`tile.compile`: a @tile.jit function + signature -> tile IR, LLVM IR, PTX, cubin."""
from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Mapping

from ..language.types import dtype
from . import capi, toolchain
from .cache import FileCache
from .. import knobs
from .options import (check_extern_libs, check_flag, check_fp_fusion, check_maxnreg,
                      check_target, debug_enabled)
from .kernel import (SignatureLike, Specialization, generate_ir, kernel_name,
                     normalize_signature, resolve)


class Metadata(dict):
    """Launch facts (name, num_warps, threads, shared_bytes, params, ...);
    readable as `md["threads"]` or `md.threads` (`md.shared`, Triton's name,
    is shared_bytes)."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self["shared_bytes" if name == "shared" else name]
        except KeyError:
            raise AttributeError(name) from None


class CompiledKernel:
    """The artifact of `tile.compile`: `.asm` ("tile", "llir", "ptx", "cubin") and `.metadata`."""

    def __init__(self, asm: dict[str, Any], metadata: Mapping[str, Any]) -> None:
        self.asm = asm
        self.metadata = Metadata(metadata)

    @property
    def name(self) -> str:
        return self.metadata["name"]

    # What Triton's tutorials read off `kernel.warmup(...)` (02: occupancy).
    def _init_handles(self) -> None:
        """Loads the kernel on the current device: `n_regs`, `n_spills` (local
        memory words per thread) and `metadata.shared` are then its own."""
        from .. import driver
        from ..driver import bindings
        kernel = driver.kernel_for(self, driver.current_device())
        self.n_regs = kernel.attribute(bindings.FUNC_NUM_REGS)
        self.n_spills = kernel.attribute(bindings.FUNC_LOCAL_SIZE_BYTES) // 4

    def __getitem__(self, grid: Any) -> Any:
        """`warmup(...)[grid](*args)`: a launch of the function it was warmed
        up from, with the same options (so this kernel, for the same arguments)."""
        launch_with = getattr(self, "launch_with", None)
        if launch_with is None:
            raise TypeError(f"{self.name}: only a kernel from JITFunction.warmup can be "
                            "launched by indexing it with a grid")
        jit, options = launch_with
        return lambda *args, **kwargs: jit[grid](*args, **{**options, **kwargs})

    def __repr__(self) -> str:
        return f"CompiledKernel({self.name}, target={self.metadata.get('target')})"


@functools.lru_cache(maxsize=1)
def frontend_version() -> str:
    """Hash of the frontend's own sources: a frontend change invalidates the cache."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parents[1]
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_key(jit: Any, signature: Mapping[str, str], specialization: Specialization,
              constexprs: Mapping[str, Any], target: str, num_warps: int,
              num_stages: int | None = None, debug: bool = False,
              line_info: bool = True, fp_fusion: bool = True,
              reflect_ftz: bool = True, maxnreg: int | None = None,
              libdevice: str | None = None, tma: bool = False,
              assembler: str = "") -> str:
    """The on-disk cache key: the sources, the compile's inputs, the compiler
    build, the frontend and the assembler (another one makes another cubin)."""
    parts = {
        "source": jit.cache_source(),
        "name": kernel_name(jit, signature, constexprs, specialization),
        "signature": dict(signature),
        "specialization": specialization.key(),
        "constexprs": {k: _constexpr_key(v) for k, v in sorted(constexprs.items())},
        "target": target,
        "num_warps": num_warps,
        "num_stages": num_stages,
        "debug": debug,
        "line_info": line_info,
        "fp_fusion": fp_fusion,
        "reflect_ftz": reflect_ftz,
        "maxnreg": maxnreg,
        "libdevice": _file_key(libdevice) if libdevice else None,
        "tma": tma,
        "assembler": assembler,
        "compiler": capi.version(),
        "frontend": frontend_version(),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


@functools.lru_cache(maxsize=None)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _file_key(path: str) -> str:
    """A linked file's part of a cache key: its path and its contents."""
    stat = os.stat(path)
    return f"{path}:{_file_digest(path, stat.st_size, stat.st_mtime_ns)}"


def _constexpr_key(value: Any) -> str:
    if isinstance(value, dtype):
        return f"dtype:{value.name}"
    return f"{type(value).__name__}:{value!r}"


class ASTSource:
    """Triton's `triton.compiler.ASTSource(fn, signature, constexprs, attrs)`:
    a function with its parameter types, for `tile.compile(src, target=...)`.

    `signature` maps parameter names to type strings ("*fp32", "i32",
    "constexpr"); `constexprs` gives the compile-time values, by name or by
    Triton's index path `(i,)`; `attrs` may mark parameters 16-divisible,
    `{(i,): [["tt.divisibility", 16]]}`, as a launch does for aligned ones."""

    def __init__(self, fn: Any, signature: Mapping[str, str],
                 constexprs: Mapping[Any, Any] | None = None,
                 attrs: Mapping[Any, Any] | None = None) -> None:
        jit, _, _ = resolve(fn, None, None)
        self.fn = fn
        self.signature = dict(signature)
        self.constexprs = {_parameter_name(jit, key): value
                           for key, value in (constexprs or {}).items()}
        divisible = set()
        for key, entries in (attrs or {}).items():
            for entry in entries:
                if list(entry) != ["tt.divisibility", 16]:
                    raise ValueError(f"ASTSource attrs: tile takes only ['tt.divisibility', 16], "
                                     f"got {entry!r} for {key!r}")
                divisible.add(_parameter_name(jit, key))
        self.specialization = Specialization(frozenset(divisible))


def _parameter_name(jit: Any, key: Any) -> str:
    """A parameter's name from its name or Triton's index path `(i,)`."""
    if isinstance(key, tuple) and len(key) == 1 and isinstance(key[0], int) \
            and 0 <= key[0] < len(jit.arg_names):
        return jit.arg_names[key[0]]
    if isinstance(key, str) and key in jit.arg_names:
        return key
    raise ValueError(f"{jit.__name__} has no parameter {key!r} (parameters: "
                     f"{', '.join(jit.arg_names)})")


# `tile.compile(..., options={...})`: Triton's option names tile takes there.
_COMPILE_OPTIONS = ("num_warps", "num_stages", "enable_fp_fusion", "enable_reflect_ftz",
                    "maxnreg", "extern_libs")


def compile(src: Any, signature: SignatureLike | None = None,
            constexprs: Mapping[str, Any] | None = None, target: Any = None,
            num_warps: int | None = None, num_stages: int | None = None,
            specialization: Specialization | None = None, emit_cubin: bool = True,
            cache: FileCache | None = None,
            options: Mapping[str, Any] | None = None,
            enable_fp_fusion: bool | None = None,
            enable_reflect_ftz: bool = True, maxnreg: int | None = None,
            extern_libs: Mapping[str, Any] | None = None) -> CompiledKernel:
    """Compiles `src`, a @tile.jit function, for `signature` (Triton type strings:
    {"x": "*fp32", "n": "i32"} or "*fp32,i32" in parameter order) through the
    C++ library, with an on-disk cache.

    As Triton's `triton.compile(src, target=None, options=None)`, `src` may be
    an `ASTSource` (which gives the signature and constexprs) and `options`
    a dict of num_warps / num_stages / enable_fp_fusion / enable_reflect_ftz /
    maxnreg / extern_libs.
    `target`: a chip name
    ("sm_90a") or a `GPUTarget`; None is the current device's chip (sm_90
    without a GPU). `enable_fp_fusion` None is tile.knobs.language.default_fp_fusion;
    `enable_reflect_ftz` (Triton's default, True): libdevice's functions flush
    subnormals to zero; `maxnreg` (Triton's): the most registers a kernel's
    thread may use, 1 to 255 (None: the assembler's choice); `extern_libs`
    (Triton's): `{"libdevice": path}` links that libdevice instead of the
    toolchain's; the line table is there unless
    tile.knobs.compilation.disable_line_info."""
    fn = src
    if isinstance(fn, ASTSource):
        if signature is not None or constexprs is not None or specialization is not None:
            raise TypeError("tile.compile(ASTSource(...)): the source gives the signature, "
                            "constexprs and attrs; pass none of them")
        fn, signature, constexprs, specialization = \
            fn.fn, fn.signature, fn.constexprs, fn.specialization
    if signature is None:
        raise TypeError("tile.compile needs a signature (or an ASTSource)")
    for key, value in (options or {}).items():
        if key not in _COMPILE_OPTIONS:
            raise ValueError(f"tile.compile: unknown option {key!r}; tile takes "
                             f"{', '.join(_COMPILE_OPTIONS)} (and target=)")
        if key == "num_warps":
            num_warps = value
        elif key == "num_stages":
            num_stages = value
        elif key == "enable_fp_fusion":
            enable_fp_fusion = value
        elif key == "maxnreg":
            maxnreg = value
        elif key == "extern_libs":
            extern_libs = value
        else:
            enable_reflect_ftz = value
    if target is None:
        from ..runtime.launch import default_target
        target = default_target()
    jit, constexprs, num_warps = resolve(fn, constexprs, num_warps)
    target = check_target(target)
    specialization = specialization or Specialization()
    types = normalize_signature(jit, signature, constexprs)
    debug = debug_enabled(jit.debug)
    fp_fusion = check_fp_fusion(enable_fp_fusion)
    reflect_ftz = check_flag(enable_reflect_ftz, "enable_reflect_ftz")
    maxnreg = check_maxnreg(maxnreg)
    libdevice = check_extern_libs(extern_libs)
    line_info = not knobs.compilation.disable_line_info
    tma = knobs.compilation.tma
    ir = generate_ir(jit, types, constexprs, specialization, debug=debug, num_warps=num_warps,
                     tma=tma)
    cache = cache if cache is not None else FileCache()
    key = cache_key(jit, types, specialization, constexprs, target, num_warps, num_stages,
                    debug, line_info, fp_fusion, reflect_ftz, maxnreg, libdevice, tma,
                    _assembler_key() if emit_cubin else "")
    entry = cache.get(key)
    if entry is None:
        result = capi.compile_ir(ir, target, num_warps, emit_cubin, num_stages=num_stages,
                                 line_info=line_info, fp_fusion=fp_fusion,
                                 reflect_ftz=reflect_ftz, maxnreg=maxnreg,
                                 libdevice=libdevice)
        asm = {"tile": ir, "llir": result.llir, "ptx": result.ptx, "cubin": result.cubin}
        if result.cubin_without_limit:
            asm["cubin_without_limit"] = result.cubin_without_limit
        entry = {"asm": asm,
                 "metadata": _metadata(jit, result.metadata, types, constexprs,
                                       specialization, target, num_warps)}
        cache.put(key, entry)
    return CompiledKernel(entry["asm"], entry["metadata"])


def _assembler_key() -> str:
    """The assembler a compile would use, with its release."""
    found = toolchain.toolchain()
    return f"{found.assembler} {found.release}"


def _metadata(jit: Any, backend: Mapping[str, Any], types: Mapping[str, str],
              constexprs: Mapping[str, Any], specialization: Specialization,
              target: str, num_warps: int) -> dict[str, Any]:
    kernels = backend.get("kernels") or [{}]
    name = kernel_name(jit, types, constexprs, specialization)
    kernel = next((k for k in kernels if k.get("name") == name), kernels[0])
    return {
        "name": kernel.get("name", name),
        "num_warps": kernel.get("num_warps", num_warps),
        "threads": kernel.get("threads", 32 * num_warps),
        "shared_bytes": kernel.get("shared_bytes", 0),
        "params": kernel.get("params", [{"name": n, "type": t} for n, t in types.items()]),
        "target": backend.get("chip", target),
        "chip": backend.get("chip", target),  # the name tile.driver reads
        "signature": dict(types),
        "constexprs": {k: _json_value(v) for k, v in constexprs.items()},
        "specialization": specialization.key(),
        "assembler": backend.get("assembler", ""),
        "libdevice": backend.get("libdevice", ""),
        # What the cubin says: registers and stack-frame bytes per thread;
        # where tile chose a .maxnreg to fit more blocks on an SM, that limit;
        # and the registers and blocks per SM of the cubin for grids that fit
        # at once, where there is one.
        **{k: kernel[k] for k in _ASSEMBLER_FACTS if k in kernel},
    }


_ASSEMBLER_FACTS = ("registers", "stack_frame_bytes", "occupancy_maxnreg",
                    "registers_without_limit", "resident_blocks_without_limit")


def _json_value(value: Any) -> Any:
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return value.name if isinstance(value, dtype) else repr(value)
