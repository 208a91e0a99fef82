"""`kernel[grid](*args)`: specialize on the arguments, compile (cached), launch.

Launching itself belongs to `tile.driver` (imported lazily, so the frontend
works without a GPU): `tile.driver.launch(compiled, grid, args, stream)` gets
the runtime arguments in parameter order (constexprs removed) and the grid as
a 3-tuple.
"""
from __future__ import annotations

import functools
import sys

from typing import Any, Mapping, Sequence

from ..compiler.pipeline import CompiledKernel, compile
from ..compiler.kernel import Specialization
from ..errors import CompilationError

# Element types of array arguments, by the dtype's string (torch, NumPy/CuPy).
_ARRAY_DTYPES = {
    "float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "float64": "fp64",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "bool": "i1",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
}
_TYPESTR = {"f2": "fp16", "f4": "fp32", "f8": "fp64", "i1": "i8", "i2": "i16", "i4": "i32",
            "i8": "i64", "u1": "u8", "u2": "u16", "u4": "u32", "u8": "u64", "b1": "i1"}


def data_pointer(value: Any) -> int | None:
    """The device address of an array argument, or None if it is not an array."""
    if hasattr(value, "data_ptr"):
        return int(value.data_ptr())
    interface = getattr(value, "__cuda_array_interface__", None)
    if interface is not None:
        return int(interface["data"][0])
    return None


def argument_type(value: Any) -> str:
    """The Triton type string of a runtime argument."""
    if isinstance(value, bool):
        return "i1"
    if isinstance(value, int):
        return "i32" if -2**31 <= value < 2**31 else "i64"
    if isinstance(value, float):
        return "fp32"
    interface = getattr(value, "__cuda_array_interface__", None)
    if interface is not None and not hasattr(value, "data_ptr"):
        return "*" + _TYPESTR[interface["typestr"][1:]]
    if hasattr(value, "dtype") and data_pointer(value) is not None:
        name = str(value.dtype).replace("torch.", "")
        if name in _ARRAY_DTYPES:
            return "*" + _ARRAY_DTYPES[name]
    raise TypeError(f"cannot pass {type(value).__name__} to a kernel")


def specialize(names: Sequence[str], values: Sequence[Any],
               do_not_specialize: frozenset[str] = frozenset()) -> Specialization:
    divisible, ones = set(), set()
    for name, value in zip(names, values):
        if name in do_not_specialize:
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            if value == 1:
                ones.add(name)
            elif value % 16 == 0:
                divisible.add(name)
        else:
            address = data_pointer(value)
            if address is not None and address % 16 == 0:
                divisible.add(name)
    return Specialization(frozenset(divisible), frozenset(ones))


def bind_arguments(jit: Any, args: Sequence[Any], kwargs: Mapping[str, Any]) -> dict[str, Any]:
    try:
        bound = jit.signature.bind(*args, **kwargs)
    except TypeError as exc:
        source = jit.source()
        raise source.error(source.tree, f"{jit.__name__}(): {exc}") from None
    bound.apply_defaults()
    return dict(bound.arguments)


def compile_for_args(jit: Any, args: Sequence[Any], kwargs: Mapping[str, Any],
                     options: Mapping[str, Any] | None = None
                     ) -> tuple[CompiledKernel, list[Any], dict[str, Any]]:
    """Compiles (memoized per specialization) and returns the artifact, the
    runtime arguments in order, and all arguments by name (for grid lambdas)."""
    options = dict(options or {})
    num_warps = options.pop("num_warps", 4)
    target = t if (t := options.pop("target", None)) is not None else _default_target()
    bound = bind_arguments(jit, args, {**kwargs, **options})
    constexprs = {n: v for n, v in bound.items() if n in jit.constexpr_names}
    runtime = [n for n in jit.arg_names if n not in jit.constexpr_names]
    values = [bound[n] for n in runtime]
    try:
        signature = {n: argument_type(v) for n, v in zip(runtime, values)}
    except TypeError as exc:
        source = jit.source()
        raise source.error(source.tree, str(exc)) from None
    specialization = specialize(runtime, values, jit.do_not_specialize)
    key = (tuple(signature.items()), specialization,
           tuple((k, repr(v)) for k, v in constexprs.items()), target, num_warps)
    compiled = jit._compiled.get(key)
    if compiled is None:
        compiled = compile(jit, signature, constexprs, target=target, num_warps=num_warps,
                           specialization=specialization)
        jit._compiled[key] = compiled
    return compiled, values, bound


@functools.lru_cache(maxsize=1)
def _default_target() -> str:
    """The current device's chip when tile.driver can say (`current_target()`),
    else sm_90: compiling never needs a GPU."""
    try:
        from .. import driver  # type: ignore[attr-defined]
        return str(driver.current_target())
    except Exception:  # no driver module, no such function, no GPU
        return "sm_90"


def normalize_grid(grid: Any, named_args: Mapping[str, Any]) -> tuple[int, int, int]:
    if callable(grid):
        grid = grid(dict(named_args))
    grid = tuple(int(g) for g in (grid if isinstance(grid, (tuple, list)) else (grid,)))
    if not 1 <= len(grid) <= 3:
        raise ValueError(f"a grid has 1 to 3 dimensions, got {grid}")
    return grid + (1,) * (3 - len(grid))  # type: ignore[return-value]


def _driver_module() -> Any:
    """tile.driver: a dictionary lookup once imported (an import statement
    costs a microsecond per launch)."""
    driver = sys.modules.get("tile.driver")
    if driver is not None:
        return driver
    try:
        from .. import driver  # type: ignore[attr-defined]
    except ImportError as exc:
        raise RuntimeError("launching needs tile.driver, which is not available: "
                           f"{exc}") from None
    return driver


def _argument_code(value: Any) -> Any:
    """What about one argument decides the compiled kernel: its type, and
    the facts specialization looks at (alignment, == 1, % 16)."""
    kind = type(value)
    if kind is int:
        return (int, -2**31 <= value < 2**31, value == 1, value % 16 == 0)
    if kind is float or kind is bool:
        return kind
    address = data_pointer(value)
    if address is None:
        return None
    return (kind, getattr(value, "dtype", None), address % 16 == 0)


def launch_jit(jit: Any, grid: Any, *args: Any, stream: Any = None, **kwargs: Any) -> Any:
    # Launch options, unless the kernel has a parameter of that name (Triton's
    # softmax tutorial takes `num_stages: tl.constexpr`).
    options = {k: kwargs.pop(k) for k in ("num_warps", "num_stages", "target")
               if k in kwargs and k not in jit.arg_names}
    options.pop("num_stages", None)  # no software pipelining yet
    jit.forget_stale_kernels()  # a global the kernel read has changed: recompile
    driver = _driver_module()
    # The fast path: a launch like an earlier one (same argument kinds,
    # alignment facts and constexprs) reuses its kernel without binding or
    # specializing again. Host overhead per launch is part of the product.
    fast_key = None
    if len(args) == len(jit.arg_names) or kwargs:
        codes = tuple(_argument_code(a) for a in args)
        if None not in codes:
            try:
                fast_key = (codes, tuple(sorted((k, _argument_code(v) if k not in
                                                 jit.constexpr_names else repr(v))
                                                for k, v in kwargs.items())),
                            tuple(sorted(options.items())))
                hit = jit._fast_launch.get(fast_key)
            except TypeError:  # an unhashable argument: take the slow path
                fast_key, hit = None, None
            if hit is not None:
                compiled, runtime_positions = hit
                named = None
                if callable(grid):  # grid lambdas see every argument by name
                    named = {**jit._default_values, **dict(zip(jit.arg_names, args)), **kwargs}
                values = [args[i] if i >= 0 else kwargs[name] for i, name in runtime_positions]
                if named is not None or type(grid) is not tuple:
                    grid = normalize_grid(grid, named or {})
                return driver.launch(compiled, grid, values, stream)  # it checks the grid
    compiled, values, named = compile_for_args(jit, args, kwargs, options)
    if fast_key is not None:
        positions = []
        for name in (n for n in jit.arg_names if n not in jit.constexpr_names):
            index = jit.arg_names.index(name)
            positions.append((index, name) if index < len(args) else (-1, name))
        if all(i >= 0 or n in kwargs for i, n in positions):
            jit._fast_launch[fast_key] = (compiled, positions)
    return driver.launch(compiled, normalize_grid(grid, named), values, stream)


__all__ = ["argument_type", "specialize", "compile_for_args", "launch_jit", "CompilationError"]
