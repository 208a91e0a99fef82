"""`@tile.jit`: a kernel or device function written in Python."""
from __future__ import annotations

import hashlib
import inspect
import types
from typing import Any, Callable, Sequence

from ..compiler.source import FunctionSource, function_source
from ..errors import TileError
from ..language.types import constexpr


def _is_constexpr_annotation(annotation: Any) -> bool:
    if annotation is constexpr:
        return True
    # `from __future__ import annotations` keeps annotations as strings.
    return isinstance(annotation, str) and annotation.split(".")[-1] == "constexpr"


class JITFunction:
    """A Python function compiled to tile IR; `kernel[grid](*args)` launches it."""

    def __init__(self, fn: Callable[..., Any], do_not_specialize: Sequence[str] = (),
                 **options: Any) -> None:
        self.fn = fn
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.do_not_specialize = frozenset(do_not_specialize)
        self.options = options
        self.signature = inspect.signature(fn)
        self.arg_names = list(self.signature.parameters)
        self.constexpr_names = frozenset(
            name for name, p in self.signature.parameters.items()
            if _is_constexpr_annotation(p.annotation))
        self._source: FunctionSource | None = None
        self._compiled: dict[Any, Any] = {}
        self._default_values = {name: p.default for name, p in self.signature.parameters.items()
                         if p.default is not inspect.Parameter.empty}
        # The C launch cache (tile.driver.dispatcher), made on the first launch.
        self._dispatcher: Any = None

    def source(self) -> FunctionSource:
        if self._source is None:
            self._source = function_source(self.fn)
        return self._source

    def defaults(self) -> dict[str, Any]:
        return {name: p.default for name, p in self.signature.parameters.items()
                if p.default is not inspect.Parameter.empty}

    # -- cache key ------------------------------------------------------------

    def dependencies(self) -> list["JITFunction"]:
        """The @tile.jit functions this one may call, found by the names its
        code uses (directly or as `module.name`)."""
        namespace = dict(self.fn.__globals__)
        for name, cell in zip(self.fn.__code__.co_freevars, self.fn.__closure__ or ()):
            try:
                namespace[name] = cell.cell_contents
            except ValueError:
                pass
        names = _code_names(self.fn.__code__)
        found: list[JITFunction] = []
        for name in names:
            value = namespace.get(name)
            if isinstance(value, types.ModuleType):
                found.extend(v for v in (getattr(value, n, None) for n in names)
                             if isinstance(v, JITFunction))
            elif isinstance(value, JITFunction):
                found.append(value)
            elif hasattr(value, "fn") and isinstance(getattr(value, "fn"), JITFunction):
                found.append(value.fn)  # an autotuned or heuristics-wrapped function
        return [f for f in found if f is not self]

    def cache_source(self) -> str:
        """This function's source and, transitively, its callees' sources."""
        seen: dict[str, str] = {}
        pending = [self]
        while pending:
            fn = pending.pop()
            source = fn.source()
            # The file and line are part of the key: the IR (and the PTX line
            # info) carry locations into them.
            key = f"{source.filename}:{source.first_line}:{fn.__qualname__}"
            if key in seen:
                continue
            seen[key] = source.text
            pending.extend(fn.dependencies())
        return "\n".join(f"# {k}\n{seen[k]}" for k in sorted(seen))

    def source_hash(self) -> str:
        return hashlib.sha256(self.cache_source().encode()).hexdigest()

    # -- calling --------------------------------------------------------------

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TileError(f"{self.__name__} is a @tile.jit function: launch it with "
                        f"{self.__name__}[grid](...) or call it from another @tile.jit function")

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        """`kernel[grid](*args, stream=None)`: compiles for the arguments and
        launches through `tile.driver` (imported only when launching)."""
        dispatcher = self._dispatcher
        if dispatcher is None:
            from .launch import dispatcher as make
            dispatcher = make(self)
        return dispatcher[grid]

    def warmup(self, *args: Any, grid: Any = (1,), **kwargs: Any) -> Any:
        """Compiles for these arguments without launching; returns the artifact."""
        from .launch import compile_for_args, split_options
        kwargs = dict(kwargs)
        options = split_options(self, kwargs)
        return compile_for_args(self, args, kwargs, options)[0]

    def __repr__(self) -> str:
        return f"JITFunction({self.__module__}:{self.__qualname__})"


def _code_names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def jit(fn: Callable[..., Any] | None = None, *, do_not_specialize: Sequence[str] = (),
        **options: Any) -> Any:
    """Decorator: `@tile.jit` or `@tile.jit(do_not_specialize=["n"])`."""
    if fn is None:
        return lambda f: JITFunction(f, do_not_specialize=do_not_specialize, **options)
    return JITFunction(fn, do_not_specialize=do_not_specialize, **options)
