"""What a kernel's code depends on besides its own text, for the cache key.

As Triton's: the sources of the @tile.jit functions it calls (transitively),
and the values of the globals it reads. tile also lets kernels call plain
Python functions on compile-time values, so their code is part of the key too.

A kernel may read globals that are compile-time values (`int`, `float`,
`bool`, `str`, `None`, a dtype, a tuple of those, or `tl.constexpr(...)`),
@tile.jit functions, plain functions, classes and modules. Anything else (a
list, a dict, an array, an arbitrary object) is an error at the read, as in
Triton: its value could change without the cache noticing. Pass such values
as arguments instead.
"""
from __future__ import annotations

import ast
import hashlib
import types
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from ..errors import TileError
from ..language.types import constexpr, dtype

_MISSING = object()


def is_compile_time_value(value: Any) -> bool:
    """A value the cache key can hold: compared by ==, printed by repr."""
    if isinstance(value, constexpr):
        value = value.value
    if value is None or isinstance(value, (bool, int, float, str, dtype)):
        return True
    return isinstance(value, tuple) and all(is_compile_time_value(v) for v in value)


def value_key(value: Any) -> str:
    """A compile-time value as cache-key text (types kept: 1, 1.0 and True differ)."""
    if isinstance(value, constexpr):
        value = value.value
    if isinstance(value, dtype):
        return f"dtype:{value.name}"
    if isinstance(value, tuple):
        return "(" + ", ".join(value_key(v) for v in value) + ")"
    return f"{type(value).__name__}:{value!r}"


def _is_frontend_object(value: Any) -> bool:
    """tl builtins, tl.range and the like: the frontend's own sources are in the key."""
    module = getattr(value, "__module__", None) or type(value).__module__ or ""
    return module == "tile" or module.startswith("tile.")


def check_global(name: str, value: Any) -> None:
    """Raises unless a kernel may read the global `name` holding `value`."""
    if value is _MISSING or is_compile_time_value(value) or _is_frontend_object(value) \
            or isinstance(value, (types.ModuleType, types.FunctionType, type,
                                  types.BuiltinFunctionType)) \
            or _jit_of(value) is not None:
        return
    raise TileError(
        f"the kernel reads the global '{name}', a {type(value).__name__}: a kernel may read "
        "globals that are compile-time values (int, float, bool, str, None, a dtype, a tuple "
        "of those, tl.constexpr(...)), @tile.jit functions, functions, classes and modules; "
        "pass other values as arguments")


def _jit_of(value: Any) -> Any:
    """The JITFunction under a @tile.jit, autotune or heuristics object, else None."""
    from ..runtime.jit import JITFunction
    for _ in range(8):
        if isinstance(value, JITFunction):
            return value
        value = getattr(value, "fn", None) if not isinstance(value, types.FunctionType) \
            else None
        if value is None:
            return None
    return None


# ----------------------------------------------------------------------------
# Which names a function reads
# ----------------------------------------------------------------------------

def _bound_names(tree: ast.FunctionDef) -> set[str]:
    args = tree.args
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and node is not tree:
            names.add(node.name)
    return names


class _Reads(ast.NodeVisitor):
    """Free names and attribute chains (`mod.sub.NAME`) read in a body."""

    def __init__(self, bound: set[str]) -> None:
        self.bound = bound
        self.reads: list[tuple[ast.AST, list[str]]] = []

    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain: list[str] = []
        inner: ast.AST = node
        while isinstance(inner, ast.Attribute):
            chain.append(inner.attr)
            inner = inner.value
        if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load):
            if inner.id not in self.bound:
                self.reads.append((node, [inner.id] + chain[::-1]))
            return
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load) and node.id not in self.bound:
            self.reads.append((node, [node.id]))


def free_reads(tree: ast.FunctionDef) -> list[tuple[ast.AST, list[str]]]:
    """(node, [name, attr, ...]) for each read of a name the function does not
    bind, in its body (decorators, annotations and defaults are evaluated by
    Python once; defaults are keyed by their values)."""
    visitor = _Reads(_bound_names(tree))
    for statement in tree.body:
        visitor.visit(statement)
    return visitor.reads


def resolve(namespace: Mapping[str, Any], chain: list[str]) -> tuple[str, Any]:
    """The value a chain names: attributes are followed through modules and
    classes (static); the first other value ends it (`G.dtype` is about `G`)."""
    value = namespace.get(chain[0], _MISSING)
    if value is _MISSING:
        return chain[0], _MISSING  # a builtin, or undefined (the code generator says so)
    taken = [chain[0]]
    for attr in chain[1:]:
        if not isinstance(value, (types.ModuleType, type)):
            break
        value = getattr(value, attr, _MISSING)
        taken.append(attr)
        if value is _MISSING:
            break
    return ".".join(taken), value


# ----------------------------------------------------------------------------
# The dependencies of a kernel
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class GlobalRead:
    """A global as it was read: where from and what it held."""
    namespace: Mapping[str, Any]
    chain: tuple[str, ...]
    value: Any

    def changed(self) -> bool:
        _, now = resolve(self.namespace, list(self.chain))
        if now is self.value:
            return False
        try:
            return not (is_compile_time_value(now) and value_key(now) == value_key(self.value))
        except Exception:  # noqa: BLE001 - a value without a usable repr
            return True


def code_fingerprint(code: types.CodeType) -> str:
    """A hash of what a code object does (not where it is): bytecode, names,
    constants, nested code."""
    digest = hashlib.sha256()

    def add(item: Any) -> None:
        if isinstance(item, types.CodeType):
            digest.update(item.co_code)
            digest.update(repr((item.co_names, item.co_varnames, item.co_freevars,
                                item.co_cellvars, item.co_argcount,
                                item.co_kwonlyargcount)).encode())
            for const in item.co_consts:
                add(const)
        elif isinstance(item, frozenset):
            digest.update(b"frozenset")
            for text in sorted(repr(v) for v in item):  # repr order depends on hashing
                digest.update(text.encode())
        else:
            digest.update(f"{type(item).__name__}:{item!r};".encode())

    add(code)
    return digest.hexdigest()


def _helper_key(fn: types.FunctionType, reads: list[GlobalRead],
                seen: set[int]) -> Iterator[str]:
    """Lines for a plain Python function called at compile time: its code,
    defaults and the compile-time globals and functions it names."""
    if id(fn) in seen:
        return
    seen.add(id(fn))
    yield f"helper {fn.__qualname__}: {code_fingerprint(fn.__code__)}"
    for default in (fn.__defaults__ or ()) + tuple((fn.__kwdefaults__ or {}).values()):
        yield f"  default {value_key(default) if is_compile_time_value(default) else '?'}"
    closure = {name: cell.cell_contents for name, cell in
               zip(fn.__code__.co_freevars, fn.__closure__ or ()) if _cell_set(cell)}
    namespace: Mapping[str, Any] = {**fn.__globals__, **closure}
    names: set[str] = set()
    _collect_names(fn.__code__, names)
    for name in sorted(names):
        value = namespace.get(name, _MISSING)
        if is_compile_time_value(value):
            reads.append(GlobalRead(namespace, (name,), value))
            yield f"  global {name} = {value_key(value)}"
        elif isinstance(value, types.FunctionType) and not _is_frontend_object(value):
            reads.append(GlobalRead(namespace, (name,), value))
            yield from _helper_key(value, reads, seen)


def _cell_set(cell: Any) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def _collect_names(code: types.CodeType, names: set[str]) -> None:
    names.update(code.co_names)
    names.update(code.co_freevars)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _collect_names(const, names)


def kernel_dependencies(root: Any) -> tuple[str, list[GlobalRead]]:
    """The cache-key text of a @tile.jit function: its source and those of the
    @tile.jit functions it calls (with file and first line: the IR carries
    locations into them) and their defaults, the globals they read, and the
    plain functions they call. Also returns the reads, so a launch can notice
    a global that changed since."""
    sections: dict[str, list[str]] = {}
    reads: list[GlobalRead] = []
    helpers_seen: set[int] = set()
    pending = [root]
    while pending:
        fn = pending.pop()
        source = fn.source()
        key = f"{source.filename}:{source.first_line}:{fn.__qualname__}"
        if key in sections:
            continue
        lines = [source.text, f"version {fn.version!r}"]
        for name, default in sorted(fn.defaults().items()):
            text = value_key(default) if is_compile_time_value(default) else \
                f"{type(default).__name__}:?"
            lines.append(f"default {name} = {text}")
        for node, chain in free_reads(source.tree):
            name, value = resolve(source.namespace, chain)
            if value is _MISSING or _is_frontend_object(value) \
                    or isinstance(value, (types.ModuleType, types.BuiltinFunctionType)):
                continue
            try:
                check_global(name, value)
            except TileError as exc:
                raise source.error(node, str(exc)) from None
            reads.append(GlobalRead(source.namespace, tuple(name.split(".")), value))
            jit = _jit_of(value)
            if jit is not None:
                pending.append(jit)
            elif isinstance(value, types.FunctionType):
                lines.extend(_helper_key(value, reads, helpers_seen))
            elif is_compile_time_value(value):
                lines.append(f"global {name} = {value_key(value)}")
        sections[key] = lines
    text = "\n".join(f"# {k}\n" + "\n".join(sections[k]) for k in sorted(sections))
    return text, reads

