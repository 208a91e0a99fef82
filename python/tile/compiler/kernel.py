"""A @tile.jit function with a signature -> the tile IR text of its kernel."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence, Union

from ..errors import CompilationError
from ..language.semantic import tensor
from ..language import types as T
from ..language.descriptors import BlockShape, tensor_descriptor
from ..language.types import (COMPILE_TIME_ELEMENT, parameter_type, pointer_type,
                              split_signature, tensor_descriptor_type, tuple_class_key)
from .codegen import CodeGenerator
from .options import check_num_warps, debug_enabled
from .ir import Builder, Value, is_symbol_name

if TYPE_CHECKING:
    from ..runtime.jit import JITFunction

SignatureLike = Union[Mapping[str, str], Sequence[str], str]


@dataclass(frozen=True)
class Specialization:
    """Facts about argument values that change the generated code, as Triton's:
    ints equal to 1 become constants, and ints and pointers divisible by 16 get
    `tile.divisibility = 16` so the compiler can vectorize."""
    divisible_by_16: frozenset[str] = field(default_factory=frozenset)
    equal_to_1: frozenset[str] = field(default_factory=frozenset)

    def key(self) -> dict[str, list[str]]:
        return {"divisible_by_16": sorted(self.divisible_by_16),
                "equal_to_1": sorted(self.equal_to_1)}


def resolve(fn: Any, constexprs: Mapping[str, Any] | None,
            num_warps: int | None) -> tuple["JITFunction", dict[str, Any], int]:
    """The JITFunction under autotune/heuristics wrappers, with the first
    autotune config's constexprs and num_warps as defaults (no GPU is needed
    to compile; benchmarking configs is the launcher's job)."""
    from ..runtime.jit import JITFunction
    defaults: dict[str, Any] = {}
    tuned_warps = None
    configs = getattr(fn, "configs", None)
    if configs:
        defaults, tuned_warps = dict(configs[0].kwargs), configs[0].num_warps
    while not isinstance(fn, JITFunction):
        if not hasattr(fn, "fn"):
            raise TypeError(f"expected a @tile.jit function, got {fn!r}")
        fn = fn.fn
    if num_warps is None:
        num_warps = tuned_warps if tuned_warps is not None else 4
    return fn, {**defaults, **dict(constexprs or {})}, check_num_warps(num_warps)


def runtime_parameters(jit: "JITFunction", constexprs: Mapping[str, Any]) -> list[str]:
    return [name for name in jit.arg_names
            if name not in jit.constexpr_names and name not in constexprs]


def const_annotated(jit: "JITFunction", name: str, type_string: str) -> str:
    """A parameter's type string with its `tl.const` annotation applied: a
    pointer ("*fp32") becomes a const one ("*kfp32")."""
    if name not in jit.const_pointers or type_string.startswith("*k"):
        return type_string
    if not type_string.startswith("*"):
        raise TypeError(f"parameter '{name}' is annotated tl.const, which marks pointers, "
                        f"but its type is {type_string}")
    return "*k" + type_string[1:]


def normalize_signature(jit: "JITFunction", signature: SignatureLike,
                        constexprs: Mapping[str, Any]) -> dict[str, str]:
    """{runtime parameter: Triton type string}, in parameter order (`tl.const`
    pointers as const ones)."""
    try:
        types = _signature_types(jit, signature, constexprs)
        return {name: const_annotated(jit, name, ty) if isinstance(ty, str) else ty
                for name, ty in types.items()}
    except TypeError as exc:
        raise _signature_error(jit, str(exc)) from None


def _signature_types(jit: "JITFunction", signature: SignatureLike,
                     constexprs: Mapping[str, Any]) -> dict[str, str]:
    if isinstance(signature, Mapping):
        given = {k: v for k, v in signature.items() if v != "constexpr"}
        unknown = [name for name in given if name not in jit.arg_names]
        if unknown:
            raise _signature_error(jit, f"signature names unknown parameters {unknown}")
        params = runtime_parameters(jit, constexprs)
        missing = [name for name in params if name not in given]
        if missing:
            raise _signature_error(jit, f"signature has no type for parameter(s) {missing} "
                                   f"of {jit.__name__}")
        return {name: given[name] for name in params}
    try:
        types = split_signature(signature) if isinstance(signature, str) else list(signature)
    except ValueError as exc:
        raise _signature_error(jit, str(exc)) from None
    params = runtime_parameters(jit, constexprs)
    if len(types) != len(params):
        raise _signature_error(jit, f"{jit.__name__} takes {len(params)} runtime argument(s) "
                               f"({', '.join(params)}) but the signature gives {len(types)}")
    return dict(zip(params, types))


def _signature_error(jit: "JITFunction", message: str) -> CompilationError:
    source = jit.source()
    return source.error(source.tree, message)


@dataclass(frozen=True)
class SpecializationView:
    """What `@jit(repr=f)` passes to `f`, as Triton does: `signature`, every
    parameter's type string ("constexpr" for compile-time ones), and
    `constants`, the compile-time values (ints specialized to 1 included)."""
    signature: Mapping[str, str]
    constants: Mapping[str, Any]


def kernel_name(jit: "JITFunction", types: Mapping[str, str], constexprs: Mapping[str, Any],
                specialization: Specialization) -> str:
    """The compiled kernel's name: the function's, or `repr(specialization)`."""
    if jit.repr is None:
        return jit.__name__
    ones = {name: 1 for name in specialization.equal_to_1 if name in types}
    signature = {name: "constexpr" if name in ones else types.get(name, "constexpr")
                 for name in jit.arg_names}
    name = jit.repr(SpecializationView(signature, {**constexprs, **ones}))
    if not isinstance(name, str) or not is_symbol_name(name):
        source = jit.source()
        raise source.error(source.tree, f"repr= of {jit.__name__} gave {name!r}, which cannot "
                           "be a GPU symbol: kernel names are ASCII letters, digits and _ "
                           "(not starting with a digit)")
    return name


def generate_ir(fn: Any, signature: SignatureLike,
                constexprs: Mapping[str, Any] | None = None,
                specialization: Specialization | None = None,
                debug: bool | None = None, num_warps: int | None = None,
                tma: bool = False) -> str:
    """The tile IR module (text) of a @tile.jit function for `signature`;
    device assertions are in it with `debug` (by default the function's
    `debug=` or TILE_DEBUG); `num_warps` (4, or an autotuned kernel's first
    config's) is what `tl.extra.cuda.num_warps()` gives; with `tma` host
    descriptors' loads name their boxes of the descriptors' TMA maps."""
    jit, constexprs, num_warps = resolve(fn, constexprs, num_warps)
    specialization = specialization or Specialization()
    source = jit.source()
    if not is_symbol_name(jit.__name__):
        raise source.error(source.tree, f"the kernel name {jit.__name__!r} cannot be a GPU "
                           "symbol: kernel names are ASCII letters, digits and _ (not "
                           "starting with a digit)")
    types = normalize_signature(jit, signature, constexprs)
    symbol = kernel_name(jit, types, constexprs, specialization)
    defaults = jit.defaults()
    builder = Builder(debug=debug_enabled(jit.debug) if debug is None else debug,
                      num_warps=num_warps, tma=tma)
    scope: dict[str, Any] = {}
    params: list[tuple[Value, str, str, int]] = []
    arg_nodes = {a.arg: a for a in source.tree.args.args}
    def parameter(name: str, ty: Any, node: ast.arg, known_divisor: int = 1) -> Any:
        """The value of a parameter (a tuple parameter: one kernel parameter
        per element, named `t[0]`, `t[1]`, ...; a tensor descriptor: its
        base, shape and strides but the last, which is 1)."""
        if isinstance(ty, tuple):
            items = tuple(parameter(f"{name}[{i}]", item, node) for i, item in enumerate(ty))
            named = constexprs.get(tuple_class_key(name))
            return named(*items) if named is not None else items
        if ty == COMPILE_TIME_ELEMENT:
            if name not in constexprs:
                raise source.error(node, f"tuple element '{name}' is a constexpr in the "
                                   f"signature but has no value; pass it in constexprs")
            return constexprs[name]
        if isinstance(ty, tensor_descriptor_type):
            names = ty.parameter_names(name)
            rank = len(ty.block_shape)
            # A TensorDescriptor's base and rows are 16-byte aligned (it checks).
            base = parameter(names[0], pointer_type(ty.element_ty), node, 16)
            shape = tuple(parameter(n, T.int32, node) for n in names[1:1 + rank])
            row = max(1, 16 // (ty.element_ty.primitive_bitwidth // 8))
            strides = tuple(parameter(n, T.int64, node, row)
                            for n in names[1 + rank:2 * rank]) + (1,)
            tensor_map = parameter(names[-1], T.tensor_map, node)
            return tensor_descriptor(base, shape, strides, BlockShape(ty.block_shape), ty.padding,
                                     tensor_map)
        value = builder.parameter(len(params), ty)
        divisor = max(known_divisor, 16 if name in specialization.divisible_by_16 else 1)
        params.append((value, name, source.loc(node), divisor))
        is_int = not isinstance(ty, pointer_type) and ty.is_int()
        return 1 if is_int and name in specialization.equal_to_1 else tensor(value)

    for name in jit.arg_names:
        if name in types:
            try:
                ty = parameter_type(types[name])
            except ValueError as exc:
                raise source.error(arg_nodes[name], str(exc)) from None
            scope[name] = parameter(name, ty, arg_nodes[name])
        elif name in constexprs:
            scope[name] = constexprs[name]
        elif name in defaults:
            scope[name] = defaults[name]
        else:
            raise source.error(arg_nodes[name], f"constexpr parameter '{name}' of "
                               f"{jit.__name__} has no value; pass it in constexprs")
    generator = CodeGenerator(builder, source, scope)
    with generator.at(source.tree):
        returned = generator.run_function(source.tree)
    if returned is not None:
        raise source.error(source.tree, "a kernel cannot return a value")
    end = source.tree.body[-1]
    builder.loc = source.loc(ast.Pass(lineno=getattr(end, "end_lineno", end.lineno),
                                      col_offset=source.tree.col_offset))
    builder.ret()
    return builder.kernel_module(symbol, params, source.loc(source.tree))
