"""`kernel[grid](*args)`: specialize on the arguments, compile (cached), launch.

A cached launch never reaches Python: `tile.driver.dispatcher` (C) computes
the call's specialization key (argument kinds, dtypes, 16-byte alignment,
int == 1 / % 16, constexpr values, the tensors' device), finds the loaded
kernel and packs the arguments. On a miss it calls `slow_launch` here, which
binds the arguments, compiles for the device's target (memoized, and cached
on disk), loads the kernel on that device and returns what the dispatcher
caches. `tile.driver` is imported only then, so the frontend works without a
GPU.
"""
from __future__ import annotations

import functools
import sys

from typing import Any, Mapping, Sequence

from .. import interpreter
from ..compiler.pipeline import CompiledKernel, compile
from ..compiler.kernel import Specialization, const_annotated
from .. import knobs
from ..compiler.options import (check_extern_libs, check_flag, check_fp_fusion, check_maxnreg,
                                check_num_ctas, chip_of_arch)
from ..errors import CompilationError
from ..language.types import (COMPILE_TIME_ELEMENT, constexpr, dtype, dtype_from_signature,
                              is_named_tuple, signature_of, tensor_descriptor_type,
                              tuple_class_key, unwrap)
from ..tools.tensor_descriptor import TensorDescriptor

# Element types of array arguments, by the dtype's string (torch, NumPy/CuPy).
_ARRAY_DTYPES = {
    "float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "float64": "fp64",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "bool": "i1",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5",
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
    """The Triton type string of a runtime argument ("(..)" for a tuple,
    "tensordesc<..>" for a TensorDescriptor)."""
    if isinstance(value, tuple):
        return "(" + ",".join(COMPILE_TIME_ELEMENT if compile_time_argument(item) else
                              argument_type(item) for item in value) + ")"
    if isinstance(value, TensorDescriptor):
        return descriptor_type(value).signature()
    if isinstance(value, bool):
        return "i1"
    if isinstance(value, int):
        # Triton's rule: the narrowest of i32, i64, u64 that holds the value.
        if -2**31 <= value < 2**31:
            return "i32"
        if -2**63 <= value < 2**63:
            return "i64"
        if 0 <= value < 2**64:
            return "u64"
        raise OverflowError(f"the int {value} fits in none of i32, i64 and u64")
    if isinstance(value, float):
        return "fp32"
    # (A torch tensor first: its __cuda_array_interface__ raises KeyError for
    # dtypes it has no typestr for, fp8 among them.)
    interface = None if hasattr(value, "data_ptr") else \
        getattr(value, "__cuda_array_interface__", None)
    if interface is not None:
        return "*" + _TYPESTR[interface["typestr"][1:]]
    if isinstance(getattr(value, "dtype", None), dtype) and data_pointer(value) is not None:
        return "*" + signature_of(value.dtype)  # tile.reinterpret's wrapper
    if hasattr(value, "dtype") and data_pointer(value) is not None:
        name = str(value.dtype).replace("torch.", "")
        if name in _ARRAY_DTYPES:
            return "*" + _ARRAY_DTYPES[name]
    raise TypeError(f"cannot pass {type(value).__name__} to a kernel")


def parameter_type(jit: Any, name: str, value: Any) -> str:
    """The type string of argument `name`: its annotation's scalar type for a
    Python number (`v: tl.float16` takes 3.0 as f16), a const pointer for a
    `tl.const` one ("*kfp32"), else argument_type."""
    annotated = jit.annotated_types.get(name)
    if annotated is not None and isinstance(value, (bool, int, float)):
        if isinstance(value, float) and not annotated.is_floating():
            raise TypeError(f"argument '{name}' is annotated {annotated}, but got the float "
                            f"{value!r}")
        return signature_of(annotated)
    return const_annotated(jit, name, argument_type(value))


def descriptor_type(descriptor: TensorDescriptor) -> tensor_descriptor_type:
    element = dtype_from_signature(argument_type(descriptor.base)[1:])
    return tensor_descriptor_type(element, tuple(int(n) for n in descriptor.block_shape),
                                  descriptor.padding)


def kernel_arguments(name: str, value: Any) -> list[tuple[str, Any]]:
    """A runtime argument as the kernel parameters that receive it (named as
    compiler/kernel.py names them): itself; a tuple's elements; a tensor
    descriptor's base, shape (i32), strides but the last, and the descriptor
    itself for its tensor map (the C launcher encodes the map from it)."""
    if isinstance(value, tuple):
        return [leaf for i, item in enumerate(value) if not compile_time_argument(item)
                for leaf in kernel_arguments(f"{name}[{i}]", item)]
    if isinstance(value, TensorDescriptor):
        for n in value.shape:
            if not 0 <= int(n) < 2**31:
                raise TypeError(f"tensor descriptor '{name}': shape {list(value.shape)} does "
                                "not fit in i32")
        parts = [value.base] + [int(n) for n in value.shape] + \
            [int(s) for s in value.strides[:-1]] + [value]
        return list(zip(descriptor_type(value).parameter_names(name), parts))
    return [(name, value)]


def specialize(names: Sequence[str], values: Sequence[Any],
               do_not_specialize: frozenset[str] = frozenset()) -> Specialization:
    """`names`/`values` are kernel parameters (tuple and descriptor parts are
    named `t[0]`, `d.shape[1]`, ...; `do_not_specialize` names arguments)."""
    divisible, ones = set(), set()
    for name, value in zip(names, values):
        if name.split(".")[0].split("[")[0] in do_not_specialize:
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


def compile_time_argument(value: Any) -> bool:
    """Whether an argument of a parameter not marked constexpr is still a
    compile-time value, as in Triton: None, a `tl.constexpr(...)`, a @jit
    function, or a tuple of `tl.constexpr`s (tutorial tests pass block shapes
    so). In a tuple of runtime values, such elements are compile-time ones
    (compile_time_elements)."""
    from .jit import JITFunction
    if value is None or isinstance(value, (constexpr, JITFunction)):
        return True
    return isinstance(value, tuple) and bool(value) and all(
        isinstance(item, constexpr) for item in value)


def compile_time_elements(name: str, value: Any) -> dict[str, Any]:
    """The compile-time elements of a runtime tuple argument (None,
    `tl.constexpr`s, @jit functions; at any depth), by the name of the kernel
    parameter they would have been (`t[2]`, `t[1][0]`): their signature entry
    is "constexpr" and their value a constexpr of the compile; and the class
    of each NamedTuple in it (tuple_class_key)."""
    if not isinstance(value, tuple):
        return {}
    found: dict[str, Any] = {tuple_class_key(name): type(value)} if is_named_tuple(value) else {}
    for i, item in enumerate(value):
        if compile_time_argument(item):
            found[f"{name}[{i}]"] = compile_time_value(item)
        else:
            found.update(compile_time_elements(f"{name}[{i}]", item))
    return found


def compile_time_value(value: Any) -> Any:
    """The Python value of a compile-time argument."""
    return tuple(unwrap(v) for v in value) if isinstance(value, tuple) else unwrap(value)


def runtime_names(jit: Any, bound: Mapping[str, Any]) -> list[str]:
    """The parameters that are kernel parameters: not constexprs, and not
    given compile-time values (compile_time_argument)."""
    return [n for n in jit.arg_names
            if n not in jit.constexpr_names and not compile_time_argument(bound.get(n))]


def compile_for_args(jit: Any, args: Sequence[Any], kwargs: Mapping[str, Any],
                     options: Mapping[str, Any] | None = None
                     ) -> tuple[CompiledKernel, list[Any], dict[str, Any]]:
    """Compiles (memoized per specialization) and returns the artifact, the
    values of its kernel parameters in order (tuples and tensor descriptors
    flattened; None for each hidden one at the end), and all arguments by
    name (for grid lambdas)."""
    options = dict(options or {})
    num_warps = options.pop("num_warps", 4)
    num_stages = options.pop("num_stages", None)
    fp_fusion = check_fp_fusion(options.pop("enable_fp_fusion", None))
    reflect_ftz = check_flag(options.pop("enable_reflect_ftz", True), "enable_reflect_ftz")
    maxnreg = check_maxnreg(options.pop("maxnreg", None))
    extern_libs = options.pop("extern_libs", None)
    libdevice = check_extern_libs(extern_libs)
    cooperative_grid(options.pop("launch_cooperative_grid", False))  # a launch's, not the code's
    num_ctas = check_num_ctas(options.pop("num_ctas", 1))
    target = t if (t := options.pop("target", None)) is not None else default_target()
    # arch= (Triton's), else tile.knobs.runtime.override_arch, over the device's chip.
    arch = options.pop("arch", None)
    if arch is None:
        arch = knobs.runtime.override_arch
    if arch is not None:
        target = chip_of_arch(arch)
    if num_ctas > 1 and int(target[3:5]) < 90:
        raise ValueError(f"num_ctas > 1 requires NVIDIA SM90+ (Hopper), not {target}")
    bound = bind_arguments(jit, args, {**kwargs, **options})
    runtime = runtime_names(jit, bound)
    constexprs = {n: compile_time_value(v) for n, v in bound.items() if n not in runtime}
    values = [bound[n] for n in runtime]
    for name, value in zip(runtime, values):
        constexprs.update(compile_time_elements(name, value))
    try:
        signature = {n: parameter_type(jit, n, v) for n, v in zip(runtime, values)}
        parameters = [leaf for n, v in zip(runtime, values) for leaf in kernel_arguments(n, v)]
    except TypeError as exc:
        source = jit.source()
        raise source.error(source.tree, str(exc)) from None
    values = [value for _, value in parameters]
    # Annotated parameters keep their type: an int 1 is not made the i32
    # constant 1, nor a float's int a divisible one.
    specialization = specialize([name for name, _ in parameters], values,
                                jit.do_not_specialize | set(jit.annotated_types))
    key = (tuple(signature.items()), specialization,
           tuple((k, repr(v)) for k, v in constexprs.items()), target, num_warps,
           num_stages, fp_fusion, reflect_ftz, maxnreg, libdevice, knobs.compilation.tma)
    compiled = jit._compiled.get(key)
    if compiled is None:
        compiled = compile(jit, signature, constexprs, target=target, num_warps=num_warps,
                           num_stages=num_stages, specialization=specialization,
                           enable_fp_fusion=fp_fusion, enable_reflect_ftz=reflect_ftz,
                           maxnreg=maxnreg, extern_libs=extern_libs)
        jit._compiled[key] = compiled
    return compiled, values + [None] * hidden_parameters(compiled), bound


def hidden_parameters(compiled: CompiledKernel) -> int:
    """How many parameters at the end of the kernel no argument fills: the
    tensor maps it makes itself, which the C launcher makes at launch from
    other parameters (their metadata has a "recipe"; tile.driver.packing)."""
    return sum(1 for p in compiled.metadata.get("params", ()) if "recipe" in p)


def default_target() -> str:
    """The current device's chip when a GPU and its driver are here, else
    sm_90 (compiling never needs a GPU). A GPU tile cannot compile for is
    the launch's clear error (tile.driver.DriverError naming the device and
    the chips tile targets), not a silent sm_90."""
    from .. import driver
    try:
        if driver.device_count() == 0:
            return "sm_90"
    except driver.DriverError:  # no driver library, or no device it can use
        return "sm_90"
    return driver.current_target()


def normalize_grid(grid: Any, named_args: Mapping[str, Any]) -> tuple[int, int, int]:
    if callable(grid):
        grid = grid(dict(named_args))
    grid = tuple(int(g) for g in (grid if isinstance(grid, (tuple, list)) else (grid,)))
    if not 1 <= len(grid) <= 3:
        raise ValueError(f"a grid has 1 to 3 dimensions, got {grid}")
    return grid + (1,) * (3 - len(grid))  # type: ignore[return-value]


def _driver_module() -> Any:
    """tile.driver: a dictionary lookup once imported."""
    driver = sys.modules.get("tile.driver")
    if driver is not None:
        return driver
    from .. import driver
    return driver


# Launch options that are not kernel arguments (the interpreter takes the same).
LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "target", "arch", "enable_fp_fusion",
                  "enable_reflect_ftz", "launch_cooperative_grid", "maxnreg", "extern_libs")


def cooperative_grid(value: Any) -> bool:
    """Triton's `launch_cooperative_grid` option: launch all blocks at once."""
    return check_flag(value, "launch_cooperative_grid")


def split_options(jit: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
    """Removes the launch options from `kwargs` and returns them, unless the
    kernel has a parameter of that name (Triton's softmax tutorial takes
    `num_stages: tl.constexpr`)."""
    options = {k: kwargs.pop(k) for k in LAUNCH_OPTIONS
               if k in kwargs and k not in jit.arg_names}
    return options


def slow_launch(jit: Any, grid: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any] | None,
                key: Any, device: int, stream: Any) -> Any:
    """The dispatcher's miss: compile for the device and return the entry it
    caches under `key`, `(kernel launcher, sources)`, where sources[i] says
    where kernel parameter i comes from: positional argument j (j >= 0), the
    j-th keyword argument of the call (-1 - j), a default value `(value,)`
    (wrapped, so that an int default is not taken for an index), or None for
    each hidden parameter at the end (a tensor map the launcher makes). With
    no key (an argument kind the dispatcher does not know), launch here."""
    kwargs = dict(kwargs or {})
    keyword_order = list(kwargs)
    options = split_options(jit, kwargs)
    bound = bind_arguments(jit, args, kwargs)  # the caller's mistakes first, located
    driver = _driver_module()
    runtime = runtime_names(jit, bound)
    if key is None:
        given = list(args) + [kwargs[n] for n in jit.arg_names[len(args):] if n in kwargs]
        device = driver.device_of([leaf for value in given
                                   for _, leaf in kernel_arguments("", value)])
    options.setdefault("target", driver.target(device))
    compiled, values, named = compile_for_args(jit, args, kwargs, options)
    kernel = driver.kernel_for(compiled, device)
    launcher = kernel.cooperative_launcher \
        if cooperative_grid(options.get("launch_cooperative_grid", False)) else kernel.launcher
    if key is None:
        launcher.launch(normalize_grid(grid, named), values, stream)
        return None
    # With a key, each runtime argument is one kernel parameter (a tuple or
    # descriptor argument has no key); the hidden parameters follow them.
    hidden = hidden_parameters(compiled)
    sources: list[Any] = []
    for name, value in zip(runtime, values[:len(values) - hidden]):
        index = jit.arg_names.index(name)
        if index < len(args):
            sources.append(index)
        elif name in kwargs:
            sources.append(-1 - keyword_order.index(name))
        else:
            sources.append((value,))  # its default
    sources += [None] * hidden
    return launcher, tuple(sources)


def dispatcher(jit: Any) -> Any:
    """The C launch cache of `jit`, made on its first launch."""
    found = jit._dispatcher
    if found is None:
        constexpr = [n in jit.constexpr_names for n in jit.arg_names]
        found = jit._dispatcher = _driver_module().dispatcher(
            jit.__name__, jit.arg_names, constexpr, jit._default_values,
            functools.partial(slow_launch, jit),
            # Asked only while TILE_INTERPRET is set.
            functools.partial(interpreter.bound_launch, jit))
    return found


__all__ = ["argument_type", "specialize", "compile_for_args", "slow_launch",
           "dispatcher", "default_target", "CompilationError"]
