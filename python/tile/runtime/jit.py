"""`@tile.jit`: a kernel or device function written in Python."""
from __future__ import annotations

import hashlib
import inspect
import re
import textwrap
import weakref
from typing import Any, Callable, Sequence

from .. import interpreter
from ..compiler.dependencies import GlobalRead, kernel_dependencies
from ..compiler.source import FunctionSource, function_source
from ..driver.launcher import jit_function_base
from ..errors import CompilationError, TileError
from ..language.types import const, constexpr, dtype, dtype_from_annotation


def _is_annotation(annotation: Any, marker: type) -> bool:
    """`p: tl.constexpr` / `p: tl.const` (the class itself, or its name as
    `from __future__ import annotations` keeps it)."""
    if annotation is marker:
        return True
    return isinstance(annotation, str) and \
        annotation.strip("'\"").split(".")[-1] == marker.__name__


class MockTensor:
    """What a dtype given to `warmup` stands for (Triton's MockTensor): a
    tensor of that dtype at address 0, so 16-byte aligned."""

    def __init__(self, dtype: Any) -> None:
        self.dtype = dtype

    def data_ptr(self) -> int:
        return 0

    @staticmethod
    def wrap_dtype(arg: Any) -> Any:
        kind = type(arg)
        if isinstance(arg, dtype) and not arg.is_ptr() or \
                (kind.__name__ == "dtype" and kind.__module__ == "torch"):
            return MockTensor(arg)
        return arg


class DeviceCaches:
    """Triton's `JITFunction.device_caches`: here only `clear()`, which drops
    the kernels compiled and loaded in this process (tile compiles per chip,
    and one memo serves every device)."""

    def __init__(self, jit: "JITFunction") -> None:
        self._jit = jit

    def clear(self) -> None:
        self._jit.forget_compiled_kernels()


class KernelInterface:
    """Triton's base of what `kernel[grid](*args)` launches (JITFunction,
    Autotuner, Heuristics); `kernel.run(*args, grid=grid, warmup=False)` is
    Triton's other spelling of that launch (of `kernel.warmup(*args)` with
    warmup=True)."""

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        raise NotImplementedError

    def run(self, *args: Any, grid: Any, warmup: bool = False, **kwargs: Any) -> Any:
        if warmup:
            return self.warmup(*args, grid=grid, **kwargs)  # type: ignore[attr-defined]
        return self[grid](*args, **kwargs)


class JITFunction(jit_function_base(), KernelInterface):  # type: ignore[misc]
    """A Python function compiled to tile IR; `kernel[grid](*args)` launches it.

    Its base (tile._launcher.JITFunctionBase) does `kernel[grid]` in C: the
    dispatcher's bound launch while `_dispatcher` is made and no global in
    `_global_reads` needs checking, else `_subscript(grid)`."""

    def __init__(self, fn: Callable[..., Any], do_not_specialize: Sequence[str | int] = (),
                 do_not_specialize_on_alignment: Sequence[str | int] = (),
                 debug: bool | None = None, noinline: bool | None = None,
                 version: Any = None, repr: Any = None, launch_metadata: Any = None,
                 interpret: bool = False) -> None:
        _check_plain_function(fn)
        self.fn = fn
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.signature = inspect.signature(fn)
        self.arg_names = list(self.signature.parameters)
        # Triton's options: each does what it says, or is refused.
        self.do_not_specialize = frozenset(self._parameter_names(do_not_specialize,
                                                                 "do_not_specialize"))
        unsupported = [("do_not_specialize_on_alignment", bool(do_not_specialize_on_alignment)),
                       ("launch_metadata", launch_metadata is not None)]
        for option, given in unsupported:
            if given:
                raise NotImplementedError(f"@tile.jit on {fn.__qualname__}: {option} is not "
                                          "supported yet")
        # Calls are always inlined by the frontend; `noinline` is accepted for
        # Triton's sake and documented as having no effect (README).
        self.noinline = bool(noinline)
        # Device assertions: True/False, or None for TILE_DEBUG (options.debug_enabled).
        self.debug = None if debug is None else bool(debug)
        self.version = version
        # `repr(specialization) -> str` names the compiled kernel (compiler.kernel.kernel_name).
        if repr is not None and not callable(repr):
            raise TypeError(f"@tile.jit on {fn.__qualname__}: repr must be a function of the "
                            f"specialization, got {repr!r}")
        self.repr = repr
        # Read by tile.interpreter: `interpret=True` runs launches on the CPU.
        self.options = {"interpret": bool(interpret)}
        self.constexpr_names = frozenset(
            name for name, p in self.signature.parameters.items()
            if _is_annotation(p.annotation, constexpr))
        # Pointer parameters annotated `tl.const`: read-only (types.pointer_type).
        self.const_pointers = frozenset(
            name for name, p in self.signature.parameters.items()
            if _is_annotation(p.annotation, const))
        # Scalar parameters annotated with a type (`v: tl.float16`): a Python
        # number passed there has that type, not the one its value would get.
        self.annotated_types = {
            name: ty for name, p in self.signature.parameters.items()
            if name not in self.constexpr_names
            and (ty := dtype_from_annotation(p.annotation)) is not None}
        self._source: FunctionSource | None = None
        self._compiled: dict[Any, Any] = {}
        self._default_values = {name: p.default for name, p in self.signature.parameters.items()
                         if p.default is not inspect.Parameter.empty}
        # The C launch cache (tile.driver.dispatcher), made on the first launch.
        self._dispatcher: Any = None
        # The globals the last compile's key read (forget_stale_kernels).
        self._global_reads: Sequence[GlobalRead] = ()
        _LIVE.add(self)

    @property
    def device_caches(self) -> "DeviceCaches":
        """Triton's per-device kernel caches, for `device_caches.clear()`."""
        return DeviceCaches(self)

    def forget_compiled_kernels(self) -> None:
        """Drops the kernels compiled and loaded in this process (the disk
        cache stays): the next launch compiles again."""
        self._compiled.clear()
        self._dispatcher = None  # and its C launch cache

    def _parameter_names(self, given: Sequence[str | int], option: str) -> list[str]:
        """Parameter names from names or positions, as Triton takes them."""
        names = []
        for item in given:
            if isinstance(item, int) and not isinstance(item, bool):
                if not 0 <= item < len(self.arg_names):
                    raise ValueError(f"{option}: {self.__name__} has no parameter {item}")
                names.append(self.arg_names[item])
            elif isinstance(item, str) and item in self.arg_names:
                names.append(item)
            else:
                raise ValueError(f"{option}: {self.__name__} has no parameter {item!r} "
                                 f"(parameters: {', '.join(self.arg_names)})")
        return names

    def source(self) -> FunctionSource:
        if self._source is None:
            self._source = function_source(self.fn)
        return self._source

    @property
    def src(self) -> str:
        """The function's source from its `def` on, dedented (Triton's `src`)."""
        text = textwrap.dedent(self.source().text)
        match = re.search(r"^(async\s+)?def\s", text, re.MULTILINE)
        return text[match.start():] if match else text

    def _unsafe_update_src(self, new_src: str) -> None:
        """Compiles `new_src` in place of the function's source from now on
        (Triton's test helper; its locations count from the `def` line)."""
        self._source = function_source(self.fn, text=new_src)
        self.forget_compiled_kernels()

    def defaults(self) -> dict[str, Any]:
        return {name: p.default for name, p in self.signature.parameters.items()
                if p.default is not inspect.Parameter.empty}

    # -- cache key ------------------------------------------------------------

    def cache_source(self) -> str:
        """The cache-key text of everything this kernel's code depends on:
        its source and its callees' (transitively), their defaults, the
        globals they read and the plain functions they call (see
        compiler/dependencies.py)."""
        text, self._global_reads = kernel_dependencies(self)
        return text

    def source_hash(self) -> str:
        return hashlib.sha256(self.cache_source().encode()).hexdigest()

    def forget_stale_kernels(self) -> None:
        """Drops the kernels compiled in this process if a global they read
        has changed since (they are recompiled with the new value): called
        at each launch, it costs one lookup per global read."""
        for read in self._global_reads:
            if read.changed():
                self.forget_compiled_kernels()
                self._global_reads = ()
                return

    # -- calling --------------------------------------------------------------

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TileError(f"{self.__name__} is a @tile.jit function: launch it with "
                        f"{self.__name__}[grid](...) or call it from another @tile.jit function")

    def _subscript(self, grid: Any) -> Callable[..., Any]:
        """`kernel[grid](*args, stream=None)` where the base cannot go
        straight to the dispatcher: compiles for the arguments and launches
        through `tile.driver`."""
        if self._global_reads:
            self.forget_stale_kernels()
        dispatcher = self._dispatcher
        if dispatcher is None:
            interpreted = interpreter.bound_launch(self, grid)  # TILE_INTERPRET=1, interpret=True
            if interpreted is not None:
                return interpreted
            from .launch import dispatcher as make
            dispatcher = make(self)
        return dispatcher[grid]  # it checks TILE_INTERPRET itself, in C

    def warmup(self, *args: Any, grid: Any = (1,), **kwargs: Any) -> Any:
        """Compiles for these arguments without launching; returns the artifact.
        As in Triton, a dtype (`torch.float32`, `tl.float16`) given
        positionally for a runtime parameter stands for a pointer to it:
        `kernel.warmup(torch.float32, BLOCK=128)`."""
        from .launch import compile_for_args, split_options
        self.forget_stale_kernels()
        # Positional runtime arguments, as Triton wraps them (a constexpr
        # parameter keeps its dtype).
        args = tuple(arg if name in self.constexpr_names else MockTensor.wrap_dtype(arg)
                     for name, arg in zip(self.arg_names, args)) + args[len(self.arg_names):]
        kwargs = dict(kwargs)
        options = split_options(self, kwargs)
        compiled = compile_for_args(self, args, kwargs, options)[0]
        # `compiled[grid](...)` launches through this function with the same
        # options (an artifact comes from one function and one set of them).
        compiled.launch_with = (self, {k: v for k, v in options.items() if k != "target"})
        return compiled

    def __repr__(self) -> str:
        return f"JITFunction({self.__module__}:{self.__qualname__})"

    # A kernel is a function: copies are the kernel itself, and pickle saves
    # it by its module and name (its C base holds launch state no copy shares).
    def __copy__(self) -> "JITFunction":
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> "JITFunction":
        return self

    def __reduce__(self) -> str:
        return self.__qualname__


# Every JITFunction, for tile.knobs: a knob that changes code drops their kernels.
_LIVE: "weakref.WeakSet[JITFunction]" = weakref.WeakSet()


def forget_all_compiled_kernels() -> None:
    for jit_function in list(_LIVE):
        jit_function.forget_compiled_kernels()


def _check_plain_function(fn: Any) -> None:
    """@tile.jit takes a plain `def` (not async, not a generator, not a lambda)."""
    if not inspect.isfunction(fn):
        raise TypeError(f"@tile.jit decorates a function, not {fn!r}")
    what = ("an async function" if inspect.iscoroutinefunction(fn)
            or inspect.isasyncgenfunction(fn) else
            "a generator" if inspect.isgeneratorfunction(fn) else
            "a lambda" if fn.__name__ == "<lambda>" else None)
    if what is not None:
        code = fn.__code__
        raise CompilationError(f"{fn.__qualname__} is {what}: a @tile.jit function must be "
                               "a plain def", code.co_filename, code.co_firstlineno, 1)


def jit(fn: Callable[..., Any] | None = None, *, do_not_specialize: Sequence[str | int] = (),
        do_not_specialize_on_alignment: Sequence[str | int] = (), debug: bool | None = None,
        noinline: bool | None = None, version: Any = None, repr: Any = None,
        launch_metadata: Any = None, interpret: bool = False) -> Any:
    """Decorator: `@tile.jit` or `@tile.jit(do_not_specialize=["n"])`, Triton's options."""
    def decorate(f: Callable[..., Any]) -> JITFunction:
        return JITFunction(f, do_not_specialize=do_not_specialize,
                           do_not_specialize_on_alignment=do_not_specialize_on_alignment,
                           debug=debug, noinline=noinline, version=version, repr=repr,
                           launch_metadata=launch_metadata, interpret=interpret)
    return decorate if fn is None else decorate(fn)
