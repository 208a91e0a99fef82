"""`triton.knobs`: tile's settings, grouped and named as Triton's.

Each knob is a typed view of one environment variable, so a knob and its
variable always agree, in this process, in the C launcher (which reads
`TILE_INTERPRET` itself) and in subprocesses:

    tile.knobs.runtime.override_arch = "sm80"   # sets TILE_OVERRIDE_ARCH=sm80
    tile.knobs.runtime.override_arch             # "sm80"
    del tile.knobs.runtime.override_arch         # back to the variable's value at start

Setting a knob that changes code (`runtime.override_arch`,
`runtime.debug`, `compilation.disable_line_info`,
`language.default_fp_fusion`) drops the kernels this process has
compiled and loaded, so the next launch compiles with it. `group.reset()`
undoes a group's settings and `with group.scope():` restores them on exit.
A knob tile does not have is an AttributeError naming the ones it has: a
setting that would do nothing is refused, not kept.
"""
from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path
from typing import Any, Callable, Iterator

_TRUE = ("1", "true", "yes", "on")


class _Knob:
    """A knob backed by environment variable `env`."""

    def __init__(self, env: str, default: Any, kind: type, doc: str,
                 recompiles: bool = False,
                 truthy: Callable[[str], bool] = lambda raw: raw.strip().lower() in _TRUE
                 ) -> None:
        self.env, self.default, self.kind, self.recompiles = env, default, kind, recompiles
        self.truthy = truthy  # how a bool knob reads its variable (as its reader always has)
        self.__doc__ = doc

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, group: Any, owner: type | None = None) -> Any:
        if group is None:
            return self
        raw = os.environ.get(self.env)
        if raw is None or raw == "":
            return self.default
        if self.kind is bool:
            return self.truthy(raw)
        return self.kind(raw)

    def __set__(self, group: "_Group", value: Any) -> None:
        if value is not None and not isinstance(value, self.kind):
            raise TypeError(f"tile.knobs.{group._name}.{self.name} is a "
                            f"{self.kind.__name__}, got {value!r}")
        group._remember(self.env)
        if value is None:
            os.environ.pop(self.env, None)
        else:
            os.environ[self.env] = ("1" if value else "0") if self.kind is bool else str(value)
        if self.recompiles:
            _forget_compiled_kernels()

    def __delete__(self, group: "_Group") -> None:
        group._restore(self.env)
        if self.recompiles:
            _forget_compiled_kernels()


class _Group:
    """One group of knobs (`tile.knobs.runtime`, ...)."""

    _name = ""

    def __init__(self) -> None:
        # The variables' values before this group first set them (None: unset).
        object.__setattr__(self, "_saved", {})

    def _knobs(self) -> dict[str, _Knob]:
        return {name: k for name, k in vars(type(self)).items() if isinstance(k, _Knob)}

    def _remember(self, env: str) -> None:
        self._saved.setdefault(env, os.environ.get(env))

    def _restore(self, env: str) -> None:
        if env not in self._saved:
            return
        value = self._saved.pop(env)
        if value is None:
            os.environ.pop(env, None)
        else:
            os.environ[env] = value

    def reset(self) -> "_Group":
        """Every knob of the group back to its variable's value at start."""
        recompiles = any(k.recompiles and k.env in self._saved for k in self._knobs().values())
        for env in list(self._saved):
            self._restore(env)
        if recompiles:
            _forget_compiled_kernels()
        return self

    @contextlib.contextmanager
    def scope(self) -> Iterator["_Group"]:
        """Settings made inside are undone on exit."""
        envs = [k.env for k in self._knobs().values()]
        before = {env: os.environ.get(env) for env in envs}
        saved = dict(self._saved)
        try:
            yield self
        finally:
            changed = any(os.environ.get(env) != value for env, value in before.items())
            for env, value in before.items():
                if value is None:
                    os.environ.pop(env, None)
                else:
                    os.environ[env] = value
            self._saved.clear()
            self._saved.update(saved)
            if changed:
                _forget_compiled_kernels()

    def _unknown(self, name: str) -> AttributeError:
        known = ", ".join(sorted(self._knobs())) or "none"
        return AttributeError(f"tile has no knob {self._name}.{name} (its {self._name} knobs: "
                              f"{known}); see python/tile/README.md")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise self._unknown(name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._knobs():
            raise self._unknown(name)
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        values = ", ".join(f"{n}={getattr(self, n)!r}" for n in sorted(self._knobs()))
        return f"tile.knobs.{self._name}({values})"


class cache_knobs(_Group):
    _name = "cache"
    dir = _Knob("TILE_CACHE_DIR", str(Path.home() / ".cache" / "tile"), str,
                "where compiled kernels are cached on disk")


class compilation_knobs(_Group):
    _name = "compilation"
    disable_line_info = _Knob(
        "TILE_DISABLE_LINE_INFO", False, bool,
        "leave the source's line table out of the PTX and the cubin", recompiles=True)
    tma = _Knob(
        "TILE_TMA", True, bool,
        "copy tensor descriptors' and block pointers' blocks into the operand rings of "
        "wgmma dots, and store them, with TMA (sm_90a) instead of cp.async and st.global",
        recompiles=True)


class language_knobs(_Group):
    _name = "language"
    default_fp_fusion = _Knob(
        "TILE_DEFAULT_FP_FUSION", True, bool,
        "let a float multiply and add fuse into an fma, unless a launch says "
        "enable_fp_fusion=", recompiles=True)


class runtime_knobs(_Group):
    _name = "runtime"
    interpret = _Knob("TILE_INTERPRET", False, bool, "run launches on the CPU interpreter")
    debug = _Knob("TILE_DEBUG", False, bool, "compile device assertions into kernels",
                  recompiles=True, truthy=lambda raw: raw not in ("", "0"))
    override_arch = _Knob(
        "TILE_OVERRIDE_ARCH", None, str,
        "compile for this chip (\"sm80\", \"sm_90a\") instead of the device's", recompiles=True)


class autotuning_knobs(_Group):
    _name = "autotuning"
    print = _Knob("TILE_PRINT_AUTOTUNING", False, bool,  # noqa: A003 - Triton's name
                  "print each autotuned kernel's winning config and the time it took",
                  truthy=lambda raw: raw == "1")
    cache = _Knob("TILE_CACHE_AUTOTUNING", False, bool,
                  "keep autotuning results on disk (as every autotune(cache_results=True))")


class _Tool:
    """An NVIDIA tool tile found (`tile.knobs.nvidia.ptxas.path`), read-only:
    set CUDA_HOME to choose the toolkit."""

    def __init__(self, name: str, find: Callable[[], str | None]) -> None:
        self._tool, self._find = name, find

    @property
    def path(self) -> str | None:
        return self._find()

    def __repr__(self) -> str:
        return f"{self._tool}({self.path})"


def _toolkit_tool(name: str) -> str | None:
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    for directory in ([Path(home) / "bin"] if home else []) + [Path("/usr/local/cuda/bin")]:
        if (directory / name).is_file():
            return str(directory / name)
    return shutil.which(name)


def _ptxas() -> str | None:
    from .compiler import toolchain
    found = toolchain.toolchain().ptxas
    return str(found) if found else None


class nvidia_knobs(_Group):
    _name = "nvidia"

    def __init__(self) -> None:
        super().__init__()
        tools = {"ptxas": _Tool("ptxas", _ptxas),
                 "nvdisasm": _Tool("nvdisasm", lambda: _toolkit_tool("nvdisasm")),
                 "cuobjdump": _Tool("cuobjdump", lambda: _toolkit_tool("cuobjdump"))}
        object.__setattr__(self, "_tools", tools)

    def __getattr__(self, name: str) -> Any:
        tools = object.__getattribute__(self, "_tools")
        if name in tools:
            return tools[name]
        raise AttributeError(f"tile has no knob nvidia.{name} (its nvidia knobs: "
                             f"{', '.join(sorted(tools))}, read-only: set CUDA_HOME)")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"tile.knobs.nvidia.{name} is read-only: tile finds its tools "
                             "itself (set CUDA_HOME to choose a toolkit)")


cache = cache_knobs()
compilation = compilation_knobs()
language = language_knobs()
runtime = runtime_knobs()
autotuning = autotuning_knobs()
nvidia = nvidia_knobs()

_GROUPS = (cache, compilation, language, runtime, autotuning)


def reset() -> None:
    """Every knob back to its variable's value at start."""
    for group in _GROUPS:
        group.reset()


@contextlib.contextmanager
def scope() -> Iterator[None]:
    """Every knob set inside is restored on exit."""
    with contextlib.ExitStack() as stack:
        for group in _GROUPS:
            stack.enter_context(group.scope())
        yield


def _forget_compiled_kernels() -> None:
    from .runtime.jit import forget_all_compiled_kernels
    forget_all_compiled_kernels()


__all__ = ["autotuning", "cache", "compilation", "language", "nvidia", "reset", "runtime",
           "scope"]
