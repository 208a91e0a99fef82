"""`tile.language` builtins with Triton's names and signatures.

A builtin is called by the code generator with `_builder=` the IR builder;
called from plain Python (outside a @tile.jit function) it raises.
"""
from __future__ import annotations

import builtins
import functools
import inspect
import math as _math
import string
from enum import Enum as _Enum
from typing import Any, Callable, Sequence, TypeVar

from ..compiler.ir import LOAD_CACHE_OPERATORS, STORE_CACHE_OPERATORS, Block, Builder
from ..errors import ConstantRequired, StaticAssertionError, TileError
from . import semantic as S
from . import types as T
from .semantic import tensor
from .types import block_type, constexpr_type, dtype, must_use_result, unwrap  # noqa: F401

F = TypeVar("F", bound=Callable[..., Any])


def builtin(fn: F) -> F:
    """Marks a function the code generator calls with `_builder`."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("_builder") is None:
            raise TileError(f"tl.{fn.__name__} can only be called inside a @tile.jit function")
        return fn(*args, **kwargs)
    wrapper.__tile_builtin__ = True  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


def is_builtin(fn: Any) -> bool:
    return getattr(fn, "__tile_builtin__", False)


# Builtins implemented by a @tile.jit function of tile.language (tl.rand,
# tl.cumprod, ...): name -> (the @jit function, its `prepare`). One
# implementation serves compiled kernels (inlined at the call) and the
# interpreter (which runs it with tl bound to NumPy).
LIBRARY: dict[str, tuple[Any, Callable[..., list[Any]]]] = {}


def library_arguments(prepare: Callable[..., list[Any]], name: str, args: tuple[Any, ...],
                      kwargs: dict[str, Any], to_value: Callable[[Any], tensor]) -> list[Any]:
    """The arguments of library builtin `name`'s @jit function: `prepare`
    (with the builtin's Triton signature after `to_value`) binds the call,
    checks it and returns them; `to_value` makes runtime values of Python
    numbers (a typed constant, compiled or interpreted)."""
    try:
        bound = inspect.signature(prepare).bind(to_value, *args, **kwargs)
    except TypeError as exc:
        raise TileError(f"tl.{name}(): {exc}") from None
    return prepare(*bound.args, **bound.kwargs)


def library_builtin(impl: Any) -> Callable[[Callable[..., list[Any]]], Callable[..., Any]]:
    """Decorates `prepare(to_value, <Triton's parameters>)`, named as the
    builtin: the builtin checks its arguments where the kernel calls it (so
    errors point at the user's line), then inlines `impl` on what `prepare`
    returns."""
    def decorate(prepare: Callable[..., list[Any]]) -> Callable[..., Any]:
        name = prepare.__name__

        def fn(*args: Any, _builder: Builder | None = None, **kwargs: Any) -> Any:
            b = _builder
            values = library_arguments(prepare, name, args, kwargs,
                                       lambda v: S.to_tensor(b, v))
            return b.call_jit(impl, values)
        parameters = list(inspect.signature(prepare).parameters.values())[1:]
        fn.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            parameters + [inspect.Parameter("_builder", inspect.Parameter.KEYWORD_ONLY,
                                            default=None)])
        fn.__name__ = fn.__qualname__ = name
        fn.__doc__ = prepare.__doc__
        fn.__module__ = prepare.__module__
        LIBRARY[name] = (impl, prepare)
        return builtin(fn)
    return decorate


def _constexpr_int(value: Any, what: str) -> int:
    value = unwrap(value)
    if isinstance(value, tensor):
        raise ConstantRequired(f"{what} must be a compile-time constant (a tl.constexpr argument "
                        "or a literal), not a runtime value")
    if not isinstance(value, int) or isinstance(value, bool):
        raise TileError(f"{what} must be an integer, got {value!r}")
    return value


def _shape(shape: Any) -> list[int]:
    shape = unwrap(shape)
    if isinstance(shape, (list, tuple)):
        return [_constexpr_int(s, "a shape extent") for s in shape]
    return [_constexpr_int(shape, "a shape extent")]


def _axis(axis: Any, rank: int) -> int:
    axis = _constexpr_int(axis, "axis")
    if axis < 0:
        axis += rank
    if not 0 <= axis < rank:
        raise TileError(f"axis {axis} is out of range for a block of rank {rank}")
    return axis


def _handle(value: tensor | None) -> Any:
    return None if value is None else value.handle


def _mask(b: Builder, mask: Any, what: str) -> tensor:
    """A load/store mask: boolean, as Triton requires (a float or integer
    block is not silently compared with zero)."""
    value = S.to_tensor(b, mask)
    if not value.dtype.is_bool():
        raise TileError(f"{what}'s mask must be boolean (tl.int1), got {value.dtype}; "
                        "write a comparison such as offs < n")
    return value


def _dtype(value: Any) -> dtype:
    value = unwrap(value)
    if not isinstance(value, dtype):
        raise TileError(f"expected a dtype such as tl.float32, got {value!r}")
    if value.is_void():
        raise TileError("tl.void has no values: expected a dtype such as tl.float32")
    return value


# ----------------------------------------------------------------------------
# Program identity and block creation
# ----------------------------------------------------------------------------

@builtin
def program_id(axis: Any = 0, _builder: Builder | None = None) -> tensor:
    axis = _constexpr_int(axis, "program_id's axis")
    if axis not in (0, 1, 2):
        raise TileError(f"program_id axis must be 0, 1 or 2, got {axis}")
    return tensor(_builder.program_id(axis))


@builtin
def num_programs(axis: Any = 0, _builder: Builder | None = None) -> tensor:
    axis = _constexpr_int(axis, "num_programs' axis")
    if axis not in (0, 1, 2):
        raise TileError(f"num_programs axis must be 0, 1 or 2, got {axis}")
    return tensor(_builder.num_programs(axis))


@builtin
def arange(start: Any, end: Any, _builder: Builder | None = None) -> tensor:
    start = _constexpr_int(start, "arange's start")
    end = _constexpr_int(end, "arange's end")
    return tensor(_builder.arange(start, end))


@builtin
def full(shape: Any, value: Any, dtype: Any, _builder: Builder | None = None) -> tensor:
    """A block of `value`; of shape () a scalar (tile has no 0-d blocks)."""
    shape, element = _shape(shape), _dtype(dtype)
    value = unwrap(value)
    if isinstance(value, tensor):
        scalar = S.cast(_builder, value, element)
        return S.splat(_builder, scalar, shape) if shape else scalar
    if not shape:
        return S.scalar_constant(_builder, value, element)
    return S.block_constant(_builder, value, block_type(element, shape))


@builtin
def item(input: Any, _builder: Builder | None = None) -> tensor:
    """The one element of a block of one element (Triton's `x.item()`), as a scalar."""
    x = S.to_tensor(_builder, input)
    if not x.is_block():
        return x
    S.check_item(x.shape, x.dtype)
    # A reduction of one element combines nothing: any kind of the type serves.
    kind = S.extreme_kind("max", x.dtype)
    return _reduce_blocks(_builder, kind, [x], None, False)[0]


@builtin
def zeros(shape: Any, dtype: Any = T.float32, _builder: Builder | None = None) -> tensor:
    return full(shape, 0, dtype, _builder=_builder)


@builtin
def zeros_like(input: tensor, _builder: Builder | None = None) -> tensor:
    return full(input.shape, 0, input.dtype, _builder=_builder)


@builtin
def full_like(input: tensor, value: Any, _builder: Builder | None = None) -> tensor:
    return full(input.shape, value, input.dtype, _builder=_builder)


# ----------------------------------------------------------------------------
# Memory
# ----------------------------------------------------------------------------

@builtin
def load(pointer: Any, mask: Any = None, other: Any = None, boundary_check: Any = (),
         padding_option: Any = "", cache_modifier: Any = "", eviction_policy: Any = "",
         volatile: Any = False, _builder: Builder | None = None) -> tensor:
    b = _builder
    D = _descriptors()
    if isinstance(pointer, D.block_pointer):
        _no_mask_for_block_pointer(mask, other, "tl.load")
        _cache_hints(cache_modifier, eviction_policy, volatile, "tl.load", LOAD_CACHE_OPERATORS)
        return D.load_block_pointer(lambda v: S.to_tensor(b, v), b, pointer, boundary_check,
                                    padding_option)
    ptr = S.to_tensor(b, pointer)
    if not ptr.dtype.is_ptr():
        raise TileError(f"tl.load needs a pointer or a block of pointers, got {ptr.dtype}")
    _no_block_pointer(boundary_check, padding_option, "tl.load")
    hints = _cache_hints(cache_modifier, eviction_policy, volatile, "tl.load",
                         LOAD_CACHE_OPERATORS)
    element = ptr.dtype.element_ty
    mask_value = other_value = None
    if unwrap(mask) is not None:
        mask_value = _mask(b, mask, "tl.load")
        ptr, mask_value = S.broadcast_together(b, ptr, mask_value)
        if unwrap(other) is not None:
            other_value = S.cast(b, S.to_tensor_of(b, other, element), element)
            other_value = S.broadcast_to(b, other_value, ptr.shape)
    return tensor(b.load(ptr.handle, _handle(mask_value), _handle(other_value), **hints))


@builtin
def store(pointer: Any, value: Any, mask: Any = None, boundary_check: Any = (),
          cache_modifier: Any = "", eviction_policy: Any = "", volatile: Any = False,
          _builder: Builder | None = None) -> None:
    b = _builder
    D = _descriptors()
    if isinstance(pointer, D.block_pointer):
        _no_mask_for_block_pointer(mask, None, "tl.store")
        _cache_hints(cache_modifier, eviction_policy, volatile, "tl.store", STORE_CACHE_OPERATORS)
        return D.store_block_pointer(lambda v: S.to_tensor(b, v), b, pointer, value,
                                     boundary_check)
    ptr = S.to_tensor(b, pointer)
    if not ptr.dtype.is_ptr():
        raise TileError(f"tl.store needs a pointer or a block of pointers, got {ptr.dtype}")
    check_writable(ptr.dtype, "tl.store")
    _no_block_pointer(boundary_check, "", "tl.store")
    hints = _cache_hints(cache_modifier, eviction_policy, volatile, "tl.store",
                         STORE_CACHE_OPERATORS)
    value = S.cast(b, S.to_tensor_of(b, value, ptr.dtype.element_ty), ptr.dtype.element_ty)
    mask_value = None
    if unwrap(mask) is not None:
        mask_value = _mask(b, mask, "tl.store")
        ptr, mask_value = S.broadcast_together(b, ptr, mask_value)
    value = S.broadcast_to(b, value, ptr.shape)
    b.store(ptr.handle, value.handle, _handle(mask_value), **hints)


def check_writable(ptr_dtype: dtype, what: str) -> None:
    """Stores and atomics write through plain pointers only (Triton's words)."""
    if ptr_dtype.is_const():  # type: ignore[attr-defined]
        raise TileError(f"Cannot store to a constant pointer: {what} writes through "
                        f"{ptr_dtype}, which comes from a parameter annotated tl.const")


def _cache_hints(cache_modifier: Any, eviction_policy: Any, volatile: Any, what: str,
                 operators: tuple[str, ...]) -> dict[str, Any]:
    """Triton's cache_modifier (".cg"), eviction_policy and volatile, checked:
    PTX combines none of them."""
    cache, evict, volatile = unwrap(cache_modifier), unwrap(eviction_policy), unwrap(volatile)
    allowed = ", ".join(f"'.{o}'" for o in operators)
    if not isinstance(cache, str) or (cache and cache.lstrip(".") not in operators):
        raise TileError(f"{what}: cache_modifier must be '' or one of {allowed}, got {cache!r}")
    if evict not in ("", "evict_normal", "evict_first", "evict_last"):
        raise TileError(f"{what}: eviction_policy must be '', 'evict_normal', 'evict_first' or "
                        f"'evict_last', got {evict!r}")
    evict = None if evict in ("", "evict_normal") else evict
    if cache and evict:
        raise TileError(f"{what}: PTX cannot combine cache_modifier {cache!r} with "
                        f"eviction_policy {evict!r}; give one")
    if not isinstance(volatile, bool):
        raise TileError(f"{what}: volatile must be True or False, got {volatile!r}")
    if volatile and (cache or evict):
        raise TileError(f"{what}: a volatile access takes no cache_modifier or eviction_policy")
    return {"cache": cache.lstrip(".") or None, "evict": evict, "volatile": volatile}


def _no_block_pointer(boundary_check: Any, padding_option: Any, what: str) -> None:
    if unwrap(boundary_check) not in ((), [], None) or unwrap(padding_option) not in ("", None):
        raise TileError(f"{what}: boundary_check and padding_option are for block pointers "
                        "(tl.make_block_ptr), not for pointers")


def _descriptors() -> Any:
    """tile.language.descriptors (which needs this module first)."""
    from . import descriptors
    return descriptors


def _no_mask_for_block_pointer(mask: Any, other: Any, what: str) -> None:
    if unwrap(mask) is not None or unwrap(other) is not None:
        raise TileError(f"{what}: a block pointer takes boundary_check and padding_option, "
                        "not mask and other")


# ----------------------------------------------------------------------------
# Atomics
# ----------------------------------------------------------------------------

ATOMIC_SEMANTICS = ("acq_rel", "acquire", "release", "relaxed")
ATOMIC_SCOPES = ("gpu", "cta", "sys")

# The element types of each atomic, as Triton allows them.
_INTS = ("int32", "uint32", "int64", "uint64")
_ATOMIC_ELEMENTS: dict[str, tuple[str, ...]] = {
    "add": _INTS + ("fp16", "bf16", "fp32", "fp64"),
    "max": _INTS + ("fp32", "fp64"), "min": _INTS + ("fp32", "fp64"),
    "and": _INTS, "or": _INTS, "xor": _INTS,
    "xchg": _INTS + ("fp32", "fp64"),
    "cas": ("int16", "uint16", "fp16", "bf16") + _INTS + ("fp32", "fp64"),
}


def atomic_order(sem: Any, scope: Any, what: str) -> tuple[str, str]:
    """Triton's `sem=` and `scope=` strings, checked; None (or "") is the
    default, "acq_rel" and "gpu"."""
    sem, scope = unwrap(sem), unwrap(scope)
    sem = sem or "acq_rel"
    scope = scope or "gpu"
    if sem not in ATOMIC_SEMANTICS:
        raise TileError(f"{what}: sem must be one of "
                        f"{', '.join(repr(s) for s in ATOMIC_SEMANTICS)}, got {sem!r}")
    if scope not in ATOMIC_SCOPES:
        raise TileError(f"{what}: scope must be one of "
                        f"{', '.join(repr(s) for s in ATOMIC_SCOPES)}, got {scope!r}")
    return sem, scope


def atomic_pointee(ptr_dtype: dtype, op: str) -> dtype:
    """The element type of the pointers of tl.atomic_<op>, checked."""
    what = f"tl.atomic_{op}"
    if not ptr_dtype.is_ptr():
        raise TileError(f"{what} needs a pointer or a block of pointers, got {ptr_dtype}")
    check_writable(ptr_dtype, what)
    element = ptr_dtype.element_ty  # type: ignore[attr-defined]
    allowed = _ATOMIC_ELEMENTS[op]
    if element.name not in allowed:
        raise TileError(f"{what} does not support {element} elements, only "
                        f"{', '.join(allowed)}")
    return element


def atomic_shapes(ptr_shape: Any, operands: list[Any], what: str) -> list[int]:
    """The shape the value (and mask, or cmp) of an atomic broadcast to: the
    pointers', which do not broadcast (Triton's rule); a scalar pointer takes
    scalars only."""
    shape = list(ptr_shape)
    for operand in operands:
        if operand is None:
            continue
        if not shape and operand.shape:
            raise TileError(f"{what}: the pointer is a scalar, so its operands must be scalars "
                            f"too, got a block of shape {list(operand.shape)}")
        if S.broadcast_shapes(shape, operand.shape) != shape:
            raise TileError(f"{what}: an operand of shape {list(operand.shape)} does not "
                            f"broadcast to the pointers' shape {shape}")
    return shape


def atomic_kind(op: str, element: dtype) -> str:
    """The tile.atomic_rmw kind: max/min of unsigned integers are umax/umin."""
    return "u" + op if op in ("max", "min") and element.is_int_unsigned() else op


def _atomic_value_and_mask(b: Builder, ptr: tensor, element: dtype, val: Any, mask: Any,
                           what: str) -> tuple[tensor, tensor | None]:
    """An atomic's value (of the pointee type) and mask, broadcast to the
    pointers' shape (atomic_shapes)."""
    value = S.cast(b, S.to_tensor_of(b, val, element), element)
    mask_value = None if unwrap(mask) is None else _mask(b, mask, what)
    shape = atomic_shapes(ptr.shape, [value, mask_value], what)
    value = S.broadcast_to(b, value, shape)
    if mask_value is not None:
        mask_value = S.broadcast_to(b, mask_value, shape)
    return value, mask_value


def _atomic_rmw(b: Builder, op: str, pointer: Any, val: Any, mask: Any, sem: Any,
                scope: Any) -> tensor:
    what = f"tl.atomic_{op}"
    ptr = S.to_tensor(b, pointer)
    element = atomic_pointee(ptr.dtype, op)
    sem, scope = atomic_order(sem, scope, what)
    value, mask_value = _atomic_value_and_mask(b, ptr, element, val, mask, what)
    return tensor(b.atomic_rmw(atomic_kind(op, element), ptr.handle, value.handle,
                               _handle(mask_value), sem, scope))


def _atomic_builtin(op: str, doc: str) -> Callable[..., tensor]:
    def fn(pointer: Any, val: Any, mask: Any = None, sem: Any = None, scope: Any = None,
           _builder: Builder | None = None) -> tensor:
        return _atomic_rmw(_builder, op, pointer, val, mask, sem, scope)
    fn.__name__ = fn.__qualname__ = f"atomic_{op}"
    fn.__doc__ = (f"Atomically {doc} at each pointer (where `mask` is set) and returns the "
                  "values there before (0 where masked off). `sem`: 'acq_rel' (default), "
                  "'acquire', 'release', 'relaxed'; `scope`: 'gpu' (default), 'cta', 'sys'.")
    return builtin(fn)


atomic_add = _atomic_builtin("add", "adds `val`")
atomic_max = _atomic_builtin("max", "takes the maximum with `val`")
atomic_min = _atomic_builtin("min", "takes the minimum with `val`")
atomic_and = _atomic_builtin("and", "ands `val` in")
atomic_or = _atomic_builtin("or", "ors `val` in")
atomic_xor = _atomic_builtin("xor", "xors `val` in")
atomic_xchg = _atomic_builtin("xchg", "stores `val`")


@builtin
def atomic_cas(pointer: Any, cmp: Any, val: Any, sem: Any = None, scope: Any = None,
               _builder: Builder | None = None) -> tensor:
    """Atomically stores `val` at each pointer where the value there equals `cmp`
    (bitwise) and returns the values there before."""
    b, what = _builder, "tl.atomic_cas"
    ptr = S.to_tensor(b, pointer)
    element = atomic_pointee(ptr.dtype, "cas")
    sem, scope = atomic_order(sem, scope, what)
    cmp_value = S.cast(b, S.to_tensor_of(b, cmp, element), element)
    value = S.cast(b, S.to_tensor_of(b, val, element), element)
    shape = atomic_shapes(ptr.shape, [cmp_value, value], what)
    cmp_value = S.broadcast_to(b, cmp_value, shape)
    value = S.broadcast_to(b, value, shape)
    return tensor(b.atomic_cas(ptr.handle, cmp_value.handle, value.handle, sem, scope))


# Triton's atomic loads and stores: the orders each takes, its default first.
ORDERED_LOAD_SEMANTICS = ("acquire", "relaxed")
ORDERED_STORE_SEMANTICS = ("release", "relaxed")
# Element types: what one PTX ld/st moves atomically.
_ORDERED_ELEMENTS = ("int8", "uint8", "int16", "uint16", "fp16", "bf16", "int32", "uint32",
                     "fp32", "int64", "uint64", "fp64")


def ordered_access(ptr: tensor, sem: Any, scope: Any, semantics: tuple[str, ...],
                   what: str) -> tuple[str, str]:
    """The pointee check and the `sem=`/`scope=` of an atomic load or store
    (None or "": the first of `semantics`, and "gpu")."""
    if not ptr.dtype.is_ptr():
        raise TileError(f"{what} needs a pointer or a block of pointers, got {ptr.dtype}")
    element = ptr.dtype.element_ty  # type: ignore[attr-defined]
    if element.name not in _ORDERED_ELEMENTS:
        raise TileError(f"{what} does not support {element} elements, only "
                        f"{', '.join(_ORDERED_ELEMENTS)}")
    sem, scope = unwrap(sem) or semantics[0], unwrap(scope) or "gpu"
    if sem not in semantics:
        raise TileError(f"{what}: sem must be {' or '.join(repr(s) for s in semantics)}, "
                        f"got {sem!r}")
    if scope not in ATOMIC_SCOPES:
        raise TileError(f"{what}: scope must be one of "
                        f"{', '.join(repr(s) for s in ATOMIC_SCOPES)}, got {scope!r}")
    return sem, scope


@builtin
def atomic_load(pointer: Any, mask: Any = None, sem: Any = None, scope: Any = None,
                _builder: Builder | None = None) -> tensor:
    """Atomically loads the element at each pointer (`ld.acquire.gpu`; masked
    off: 0). `sem`: 'acquire' (default) or 'relaxed'; `scope`: 'gpu'
    (default), 'cta' or 'sys'."""
    b, what = _builder, "tl.atomic_load"
    ptr = S.to_tensor(b, pointer)
    sem, scope = ordered_access(ptr, sem, scope, ORDERED_LOAD_SEMANTICS, what)
    mask_value = None
    if unwrap(mask) is not None:
        mask_value = _mask(b, mask, what)
        atomic_shapes(ptr.shape, [mask_value], what)
        mask_value = S.broadcast_to(b, mask_value, ptr.shape)
    return tensor(b.load(ptr.handle, _handle(mask_value), sem=sem, scope=scope))


@builtin
def atomic_store(pointer: Any, val: Any, mask: Any = None, sem: Any = None, scope: Any = None,
                 _builder: Builder | None = None) -> None:
    """Atomically stores `val` at each pointer (`st.release.gpu`), where `mask`
    is set. `sem`: 'release' (default) or 'relaxed'; `scope`: 'gpu' (default),
    'cta' or 'sys'."""
    b, what = _builder, "tl.atomic_store"
    ptr = S.to_tensor(b, pointer)
    sem, scope = ordered_access(ptr, sem, scope, ORDERED_STORE_SEMANTICS, what)
    check_writable(ptr.dtype, what)
    element = ptr.dtype.element_ty  # type: ignore[attr-defined]
    value, mask_value = _atomic_value_and_mask(b, ptr, element, val, mask, what)
    b.store(ptr.handle, value.handle, _handle(mask_value), sem=sem, scope=scope)


# ----------------------------------------------------------------------------
# Elementwise math
# ----------------------------------------------------------------------------

@builtin
def where(condition: Any, x: Any, y: Any, _builder: Builder | None = None) -> tensor:
    return S.where(_builder, condition, x, y)


class PropagateNan(_Enum):
    """What float `maximum`/`minimum`/`clamp` give when an operand is NaN:
    the other operand (NONE, the default, as Triton's: PTX `max.f32`), or NaN
    (ALL)."""
    NONE = 0x0000
    ALL = 0xFFFF


def propagates_nan(propagate_nan: Any) -> bool:
    """Whether a `propagate_nan=` argument asks for NaN-propagating min/max."""
    value = unwrap(propagate_nan)
    if value is PropagateNan.ALL or value is PropagateNan.NONE:
        return value is PropagateNan.ALL
    raise TileError(f"propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL, "
                    f"got {value!r}")


@builtin
def maximum(x: Any, y: Any, propagate_nan: Any = PropagateNan.NONE,
            _builder: Builder | None = None) -> tensor:
    return S.minmax(_builder, "max", x, y, propagates_nan(propagate_nan))


def _sanitize_overflow(value: Any, what: str) -> bool:
    flag = unwrap(value)
    if not isinstance(flag, (bool, int)):
        raise TileError(f"{what}'s sanitize_overflow must be a compile-time bool, got {flag!r}")
    return bool(flag)


@builtin
def add(x: Any, y: Any, sanitize_overflow: Any = True, _builder: Builder | None = None) -> tensor:
    """x + y (Triton's `tl.add`). tile has no integer-overflow sanitizer: the
    flag is checked and has no effect (see python/tile/README.md)."""
    _sanitize_overflow(sanitize_overflow, "tl.add")
    return S.add(_builder, x, y)


@builtin
def sub(x: Any, y: Any, sanitize_overflow: Any = True, _builder: Builder | None = None) -> tensor:
    """x - y (Triton's `tl.sub`); sanitize_overflow as for tl.add."""
    _sanitize_overflow(sanitize_overflow, "tl.sub")
    return S.sub(_builder, x, y)


@builtin
def mul(x: Any, y: Any, sanitize_overflow: Any = True, _builder: Builder | None = None) -> tensor:
    """x * y (Triton's `tl.mul`); sanitize_overflow as for tl.add."""
    _sanitize_overflow(sanitize_overflow, "tl.mul")
    return S.mul(_builder, x, y)


@builtin
def minimum(x: Any, y: Any, propagate_nan: Any = PropagateNan.NONE,
            _builder: Builder | None = None) -> tensor:
    return S.minmax(_builder, "min", x, y, propagates_nan(propagate_nan))


@builtin
def clamp(x: Any, min: Any, max: Any, propagate_nan: Any = PropagateNan.NONE,
          _builder: Builder | None = None) -> tensor:
    """min(max(x, min), max): with the default NONE a NaN `x` gives `min`."""
    propagate = propagates_nan(propagate_nan)
    return S.minmax(_builder, "min", S.minmax(_builder, "max", x, min, propagate), max,
                    propagate)


def _float_math(op: str, doc: str) -> Callable[..., tensor]:
    def fn(x: Any, _builder: Builder | None = None) -> tensor:
        return S.float_unary(_builder, op, x)
    fn.__name__ = fn.__qualname__ = op
    fn.__doc__ = doc
    return builtin(fn)


exp = _float_math("exp", "e**x, elementwise")
exp2 = _float_math("exp2", "2**x, elementwise")
log = _float_math("log", "natural logarithm, elementwise")
log2 = _float_math("log2", "base-2 logarithm, elementwise")
sqrt = _float_math("sqrt", "square root, elementwise")
rsqrt = _float_math("rsqrt", "1/sqrt(x), elementwise")
floor = _float_math("floor", "round down, elementwise")
ceil = _float_math("ceil", "round up, elementwise")
sin = _float_math("sin", "sine, elementwise")
cos = _float_math("cos", "cosine, elementwise")


@builtin
def abs(x: Any, _builder: Builder | None = None) -> tensor:
    x = S.to_tensor(_builder, x)
    if x.dtype.is_int_unsigned():
        return x
    return S.unary(_builder, "absf" if x.dtype.is_floating() else "absi", x)


@builtin
def fma(x: Any, y: Any, z: Any, _builder: Builder | None = None) -> tensor:
    return S.fma(_builder, x, y, z)


@builtin
def sigmoid(x: Any, _builder: Builder | None = None) -> tensor:
    b = _builder
    x = S.to_tensor(b, x)
    if not x.dtype.is_floating():
        x = S.cast(b, x, T.float32)
    return S.truediv(b, 1.0, S.add(b, 1.0, S.float_unary(b, "exp", S.minus(b, x))))


@builtin
def cdiv(x: Any, div: Any, _builder: Builder | None = None) -> Any:
    x, div = unwrap(x), unwrap(div)
    if not isinstance(x, tensor) and not isinstance(div, tensor):
        return (x + div - 1) // div
    b = _builder
    return S.floordiv(b, S.sub(b, S.add(b, x, div), 1), div)


@builtin
def cast(input: Any, dtype: Any, fp_downcast_rounding: Any = None, bitcast: Any = False,
         _builder: Builder | None = None) -> tensor:
    value = S.to_tensor(_builder, input)
    if unwrap(bitcast):
        return S.bitcast(_builder, value, _dtype(dtype), unwrap(fp_downcast_rounding))
    return S.cast(_builder, value, _dtype(dtype), unwrap(fp_downcast_rounding))


# ----------------------------------------------------------------------------
# Shapes
# ----------------------------------------------------------------------------

@builtin
def reshape(input: tensor, *shape: Any, can_reorder: Any = False,
            _builder: Builder | None = None) -> tensor:
    dims = _shape(shape[0]) if len(shape) == 1 else _shape(shape)
    return S.reshape(_builder, S.to_tensor(_builder, input), dims)


view = reshape


@builtin
def ravel(x: tensor, can_reorder: Any = False, _builder: Builder | None = None) -> tensor:
    """`x` as one dimension, in row-major order (tile keeps it with
    `can_reorder=True` too, which lets Triton reorder)."""
    x = S.to_tensor(_builder, x)
    return S.reshape(_builder, x, [x.numel])


@builtin
def trans(input: tensor, *dims: Any, _builder: Builder | None = None) -> tensor:
    order = _shape(dims[0]) if len(dims) == 1 else ([_constexpr_int(d, "dim") for d in dims]
                                                     if dims else None)
    return S.trans(_builder, input, order)


permute = trans


@builtin
def broadcast_to(input: Any, *shape: Any, _builder: Builder | None = None) -> tensor:
    dims = _shape(shape[0]) if len(shape) == 1 else _shape(shape)
    return S.broadcast_to(_builder, S.to_tensor(_builder, input), dims)


@builtin
def broadcast(input: Any, other: Any, _builder: Builder | None = None) -> tuple[tensor, tensor]:
    return tuple(S.broadcast_together(_builder, S.to_tensor(_builder, input),
                                      S.to_tensor(_builder, other)))


@builtin
def expand_dims(input: Any, axis: Any, _builder: Builder | None = None) -> tensor:
    x = S.to_tensor(_builder, input)
    axes = unwrap(axis)
    axes = list(axes) if isinstance(axes, (list, tuple)) else [axes]
    rank = len(x.shape) + len(axes)  # of the result: axes name its dimensions
    normalized = []
    for a in axes:
        a = _constexpr_int(a, "expand_dims' axis")
        if not -rank <= a < rank:
            raise TileError(f"expand_dims axis {a} is out of range: the result has rank {rank}, "
                            f"so axes go from {-rank} to {rank - 1}")
        normalized.append(a % rank)
    if len(set(normalized)) != len(normalized):
        raise TileError(f"expand_dims axes {axes} name a dimension twice")
    for a in sorted(normalized):
        x = S.expand_dims(_builder, x, a)
    return x


# ----------------------------------------------------------------------------
# Reductions, scans, dot
# ----------------------------------------------------------------------------

def _reduce_kind(b: Builder, kind: str, x: tensor, axis: int) -> tensor:
    return tensor(b.reduce(kind, [x.handle], axis)[0])


def _block_operand(b: Builder, input: Any, what: str) -> tensor:
    x = S.to_tensor(b, input)
    if not x.is_block():
        raise TileError(f"{what} needs a block, got a scalar ({x.dtype})")
    return x


def _reduce(b: Builder, kind: str, input: Any, axis: Any, keep_dims: Any) -> tensor:
    """A builtin reduction (`sum`, `max`, ...) of one block."""
    x = _block_operand(b, input, f"tl.{kind}")
    S.check_reduction_type(kind, x.dtype)
    if kind == "sum" and x.dtype.is_int() and x.dtype.primitive_bitwidth < 32:
        x = S.cast(b, x, T.int32)  # Triton sums narrow integers in int32
    if kind in ("max", "min"):
        kind = S.extreme_kind(kind, x.dtype)
    return _reduce_blocks(b, kind, [x], axis, keep_dims)[0]


def _reduce_blocks(b: Builder, kind: str, xs: list[tensor], axis: Any, keep_dims: Any,
                   combine_fn: Any = None) -> list[tensor]:
    """`tile.reduce` of blocks of one shape along `axis` (all of them when
    None), with `keep_dims` as Triton has it."""
    rank = len(xs[0].shape)
    if unwrap(axis) is None:  # reduce everything: flatten first
        xs, axis = [S.reshape(b, x, [x.numel]) for x in xs], 0
        keep_rank = rank if unwrap(keep_dims) else 0
    else:
        keep_rank = 0
    axis = _axis(axis, len(xs[0].shape))
    combine = _combine_region(b, combine_fn, [x.dtype for x in xs]) \
        if kind == "custom" else None
    results = [tensor(r) for r in b.reduce(kind, [x.handle for x in xs], axis, combine)]
    if unwrap(keep_dims):
        if keep_rank:
            return [S.reshape(b, r, [1] * keep_rank) if r.is_block()
                    else S.splat(b, r, [1] * keep_rank) for r in results]
        results = [S.expand_dims(b, r, axis) for r in results]
    return results


def _combine_region(b: Builder, combine_fn: Any, elements: list[dtype]) -> Block:
    """The region of a custom reduce/scan: `^bb0(%a..., %b...)`, the combine
    function inlined on the two groups of scalars, `tile.yield` of its
    results (one per block)."""
    from ..runtime.jit import JITFunction
    if not isinstance(combine_fn, JITFunction):
        raise TileError(f"the combine function must be a @tile.jit function, got {combine_fn!r}")
    block = b.combine_region(elements)
    with b.insertion_point(block):
        args = [tensor(arg) for arg in block.args]
        result = b.call_jit(combine_fn, args)
        results = list(result) if isinstance(result, (tuple, list)) else [result]
        if len(results) != len(elements):
            raise TileError(f"the combine function {combine_fn.__name__} returns "
                            f"{len(results)} value{'s' if len(results) != 1 else ''}; "
                            f"combining {len(elements)} block"
                            f"{'s' if len(elements) != 1 else ''} it must return "
                            f"{len(elements)}")
        values = []
        for value, arg, element in zip(results, args, elements):
            value = S.cast(b, S.to_tensor(b, value, like=arg), element)
            if value.is_block():
                raise TileError("a combine function must return scalars")
            values.append(value.handle)
        b.combine_yield(values)
    return block


def combine_operands(input: Any, what: str) -> tuple[list[Any], bool]:
    """The blocks of a custom reduce or scan, and whether they came as a
    tuple (then the results are a tuple too, as in Triton)."""
    if isinstance(input, (tuple, list)):
        if not input:
            raise TileError(f"{what} needs at least one block")
        return list(input), True
    return [input], False


def _custom_blocks(b: Builder, input: Any, what: str) -> tuple[list[tensor], bool]:
    inputs, is_tuple = combine_operands(input, what)
    xs = [_block_operand(b, x, what) for x in inputs]
    if any(x.shape != xs[0].shape for x in xs):
        raise TileError(f"{what}: the blocks must have one shape, got "
                        f"{', '.join(str(list(x.shape)) for x in xs)}")
    return xs, is_tuple


@builtin
def sum(input: Any, axis: Any = None, keep_dims: Any = False, dtype: Any = None,
        _builder: Builder | None = None) -> tensor:
    if unwrap(dtype) is not None:
        input = S.cast(_builder, S.to_tensor(_builder, input), _dtype(dtype))
    return _reduce(_builder, "sum", input, axis, keep_dims)


@builtin
def max(input: Any, axis: Any = None, return_indices: Any = False,
        return_indices_tie_break_left: Any = True, keep_dims: Any = False,
        _builder: Builder | None = None) -> Any:
    if unwrap(return_indices):
        return (_reduce(_builder, "max", input, axis, keep_dims),
                _arg_reduce(_builder, "max", input, axis, keep_dims,
                            return_indices_tie_break_left))
    return _reduce(_builder, "max", input, axis, keep_dims)


@builtin
def min(input: Any, axis: Any = None, return_indices: Any = False,
        return_indices_tie_break_left: Any = True, keep_dims: Any = False,
        _builder: Builder | None = None) -> Any:
    if unwrap(return_indices):
        return (_reduce(_builder, "min", input, axis, keep_dims),
                _arg_reduce(_builder, "min", input, axis, keep_dims,
                            return_indices_tie_break_left))
    return _reduce(_builder, "min", input, axis, keep_dims)


def _arg_reduce(b: Builder, kind: str, input: Any, axis: Any, keep_dims: Any,
                tie_break_left: Any = True) -> tensor:
    """Index of the max (min): reduce, compare with the broadcast extreme, and
    take the smallest index where it is reached (the largest without
    `tie_break_left`), as Triton's."""
    x = _block_operand(b, input, f"tl.arg{kind}")
    if unwrap(axis) is None:
        x, axis = S.reshape(b, x, [x.numel]), 0
    axis = _axis(axis, len(x.shape))
    extreme = _reduce_kind(b, S.extreme_kind(kind, x.dtype), x, axis)
    hit = S.compare(b, "eq", x, S.broadcast_to(b, S.expand_dims(b, extreme, axis), x.shape))
    if x.dtype.is_floating():  # a line of NaNs: every element is the extreme
        all_nan = S.compare(b, "ne", extreme, extreme)
        hit = S.bitwise(b, "ori", hit, S.broadcast_to(b, S.expand_dims(b, all_nan, axis), x.shape))
    index = arange(0, x.shape[axis], _builder=b)
    for _ in builtins.range(axis):
        index = S.expand_dims(b, index, 0)
    while len(index.shape) < len(x.shape):
        index = S.expand_dims(b, index, len(index.shape))
    index = S.broadcast_to(b, index, x.shape)
    if unwrap(tie_break_left):
        result = _reduce_kind(b, "min", S.where(b, hit, index, x.shape[axis]), axis)
    else:
        result = _reduce_kind(b, "max", S.where(b, hit, index, -1), axis)
    return S.expand_dims(b, result, axis) if unwrap(keep_dims) else result


@builtin
def argmax(input: Any, axis: Any, tie_break_left: Any = True, keep_dims: Any = False,
           _builder: Builder | None = None) -> tensor:
    return _arg_reduce(_builder, "max", input, axis, keep_dims, tie_break_left)


@builtin
def argmin(input: Any, axis: Any, tie_break_left: Any = True, keep_dims: Any = False,
           _builder: Builder | None = None) -> tensor:
    return _arg_reduce(_builder, "min", input, axis, keep_dims, tie_break_left)


@builtin
def reduce(input: Any, axis: Any, combine_fn: Any, keep_dims: Any = False,
           _builder: Builder | None = None) -> Any:
    xs, is_tuple = _custom_blocks(_builder, input, "tl.reduce")
    results = _reduce_blocks(_builder, "custom", xs, axis, keep_dims, combine_fn)
    return tuple(results) if is_tuple else results[0]


def _scan_blocks(b: Builder, kind: str, xs: list[tensor], axis: Any, reverse: Any,
                 combine_fn: Any = None) -> list[tensor]:
    axis = _axis(axis, len(xs[0].shape))
    region = _combine_region(b, combine_fn, [x.dtype for x in xs]) \
        if kind == "custom" else None
    return [tensor(r) for r in
            b.scan(kind, [x.handle for x in xs], axis, bool(unwrap(reverse)), region)]


def _scan(b: Builder, kind: str, input: Any, axis: Any, reverse: Any) -> tensor:
    """A builtin scan (`cumsum`, ...) of one block."""
    x = _block_operand(b, input, "a scan")
    if kind == "sum" and x.dtype.is_int() and x.dtype.primitive_bitwidth < 32:
        x = S.cast(b, x, T.int32)
    if kind in ("max", "min"):
        kind = S.extreme_kind(kind, x.dtype)
    return _scan_blocks(b, kind, [x], axis, reverse)[0]


@builtin
def cumsum(input: Any, axis: Any = 0, reverse: Any = False,
           _builder: Builder | None = None) -> tensor:
    return _scan(_builder, "sum", input, axis, reverse)


@builtin
def cummax(input: Any, axis: Any = 0, reverse: Any = False,
           _builder: Builder | None = None) -> tensor:
    return _scan(_builder, "max", input, axis, reverse)


@builtin
def associative_scan(input: Any, axis: Any, combine_fn: Any, reverse: Any = False,
                     _builder: Builder | None = None) -> Any:
    xs, is_tuple = _custom_blocks(_builder, input, "tl.associative_scan")
    results = _scan_blocks(_builder, "custom", xs, axis, reverse, combine_fn)
    return tuple(results) if is_tuple else results[0]


@builtin
def gather(src: Any, index: Any, axis: Any, _builder: Builder | None = None) -> tensor:
    """`result[i] = src[i with its axis coordinate replaced by index[i]]`:
    `index` has `src`'s rank and extents but along `axis`."""
    b = _builder
    x, idx = _block_operand(b, src, "tl.gather"), _block_operand(b, index, "tl.gather")
    if not idx.dtype.is_int():
        raise TileError(f"tl.gather: the index must be integers, got {idx.dtype}")
    if len(idx.shape) != len(x.shape):
        raise TileError(f"tl.gather: the index has rank {len(idx.shape)} but the source "
                        f"has rank {len(x.shape)}; they must have the same rank")
    axis = _axis(axis, len(x.shape))
    for d, (i, e) in enumerate(zip(idx.shape, x.shape)):
        if d != axis and i != e:
            raise TileError(f"tl.gather: the index's shape {list(idx.shape)} and the "
                            f"source's {list(x.shape)} may differ only along axis {axis}")
    return tensor(b.gather(x.handle, idx.handle, axis))


@builtin
def histogram(input: Any, num_bins: Any, mask: Any = None,
              _builder: Builder | None = None) -> tensor:
    """Counts (int32) of the values 0 .. num_bins-1 in a rank-1 int32 block,
    where `mask` holds; other values are not counted."""
    b = _builder
    x = _block_operand(b, input, "tl.histogram")
    if len(x.shape) != 1:
        raise TileError(f"tl.histogram takes a rank-1 block, got shape {list(x.shape)}")
    if x.dtype != T.int32:
        raise TileError(f"tl.histogram takes int32 values, got {x.dtype}")
    bins = unwrap(num_bins)
    if isinstance(bins, tensor) or isinstance(bins, bool) or not isinstance(bins, int) \
            or bins < 1:
        raise TileError(f"tl.histogram: num_bins must be a positive compile-time int, "
                        f"got {bins!r}")
    m = None
    if unwrap(mask) is not None:
        m = S.broadcast_to(b, S.to_tensor(b, mask), x.shape)
        if not m.dtype.is_bool():
            raise TileError(f"tl.histogram: the mask must be boolean, got {m.dtype}")
    return tensor(b.histogram(x.handle, bins, m.handle if m is not None else None))


@builtin
def inline_asm_elementwise(asm: Any, constraints: Any, args: Any, dtype: Any, is_pure: Any,
                           pack: Any, _builder: Builder | None = None) -> Any:
    """Inline PTX over blocks (Triton's): `args` broadcast together; each
    invocation takes `pack` elements of each, those narrower than 32 bits
    packed into 32-bit registers, and gives `pack` elements of each result
    (`dtype`, or a tuple of dtypes for several results)."""
    b = _builder
    asm, constraints = unwrap(asm), unwrap(constraints)
    what = "tl.inline_asm_elementwise"
    if not isinstance(asm, str) or not isinstance(constraints, str):
        raise TileError(f"{what}: asm and constraints must be strings")
    many = isinstance(unwrap(dtype), (tuple, list))
    dtypes = [_dtype(d) for d in (unwrap(dtype) if many else [dtype])]
    if not dtypes:
        raise TileError(f"{what} needs at least one result dtype")
    values = [S.to_tensor(b, a) for a in (unwrap(args) if isinstance(unwrap(args), (tuple, list))
                                          else [args])]
    for d in dtypes + [v.dtype for v in values]:
        if d.is_ptr() or d.is_bool():
            raise TileError(f"{what} takes and gives numbers, not {d}")
    values = S.broadcast_together(b, *values) if values else []
    shape = list(values[0].shape) if values else []
    pack = map_pack(pack, shape, what)
    results = b.inline_asm(asm, constraints, [v.handle for v in values],
                           [block_type(d, shape) if shape else d for d in dtypes],
                           bool(unwrap(is_pure)), pack)
    results = [tensor(r) for r in results]
    return tuple(results) if many else results[0]


def map_pack(pack: Any, shape: Sequence[int], what: str) -> int:
    """`pack` of tl.map_elementwise / tl.inline_asm_elementwise, checked:
    a positive int, 1 for scalars."""
    pack = unwrap(pack)
    if isinstance(pack, bool) or not isinstance(pack, int) or pack < 1:
        raise TileError(f"{what}: pack must be a positive int, got {pack!r}")
    if not shape and pack != 1:
        raise TileError(f"{what}: scalars are one element: pack must be 1, got {pack}")
    return pack


def check_numbers(types: Sequence[dtype], what: str) -> None:
    """What tl.map_elementwise takes and gives: numbers and bools, not
    pointers (tile.map_elementwise's operands are scalars or their blocks)."""
    for t in types:
        if t.is_ptr():
            raise TileError(f"{what} takes and gives numbers, not {t}")


def mapped_result_types(fn_name: str, results: list[dtype], pack: int) -> list[dtype]:
    """The element types of tl.map_elementwise's results from what one call
    of the scalar function returned: `pack` scalars of each result in turn."""
    if not results or len(results) % pack:
        raise TileError(f"tl.map_elementwise: {fn_name} returns {len(results)} value"
                        f"{'s' if len(results) != 1 else ''}; with pack={pack} it must return "
                        f"{pack} per result")
    types = results[::pack]
    for offset in builtins.range(1, pack):
        if results[offset::pack] != types:
            raise TileError(f"tl.map_elementwise: {fn_name} returns "
                            f"{', '.join(str(t) for t in results)}: with pack={pack} the "
                            f"{pack} values of each result must have one type")
    return types


@builtin
def map_elementwise(scalar_fn: Any, *args: Any, pack: Any = 1,
                    _builder: Builder | None = None) -> Any:
    """A @jit function of scalars over the elements of blocks (Triton's): the
    arguments broadcast together; each call takes `pack` elements of each and
    returns `pack` elements of each result, so control flow in it picks a
    branch per element. One result, or a tuple if the function returns one."""
    from ..runtime.jit import JITFunction
    b, what = _builder, "tl.map_elementwise"
    if not isinstance(scalar_fn, JITFunction):
        raise TileError(f"{what}: the scalar function must be a @tile.jit function, "
                        f"got {scalar_fn!r}")
    if not args:
        raise TileError(f"{what} needs at least one input tensor")
    values = S.broadcast_together(b, *[S.to_tensor(b, a) for a in args])
    check_numbers([v.dtype for v in values], what)
    shape = list(values[0].shape)
    pack = map_pack(pack, shape, what)
    body = b.map_region([v.dtype for v in values], pack)
    with b.insertion_point(body):
        result = b.call_jit(scalar_fn, [tensor(arg) for arg in body.args])
        single = not isinstance(result, (tuple, list))
        scalars = [S.to_tensor(b, r) for r in ([result] if single else result)]
        if any(r.is_block() for r in scalars):
            raise TileError(f"{what}: {scalar_fn.__name__} must return scalars, got "
                            f"{', '.join(str(r.type) for r in scalars)}")
        types = mapped_result_types(scalar_fn.__name__, [r.dtype for r in scalars], pack)
        check_numbers(types, what)
        b.combine_yield([r.handle for r in scalars])
    results = b.map_elementwise([v.handle for v in values],
                                [block_type(t, shape) if shape else t for t in types],
                                pack, body)
    results = [tensor(r) for r in results]
    return results[0] if single else tuple(results)


_DOT_TYPES = (T.float16, T.bfloat16, T.float32)
_FP8_DOT_TYPES = (T.float8e4nv, T.float8e5)


def dot_operand_types(a: dtype, b: dtype) -> tuple[dtype, dtype]:
    """Triton's dot typing, shared by the compiler and the interpreter: the
    element type both operands are computed in and the accumulator's. Two
    int8 operands accumulate in int32 (exactly), two fp64 ones in fp64;
    fp16/bf16/fp32 ones in fp32 (mixed ones in their common type); two fp8
    ones in fp16 (their products are exact there) with fp32 sums."""
    if a == T.int8 and b == T.int8:
        return T.int8, T.int32
    if a == T.float64 and b == T.float64:
        return T.float64, T.float64
    if a.is_fp8() and b.is_fp8():
        return T.float16, T.float32
    if a not in _DOT_TYPES or b not in _DOT_TYPES:
        raise TileError(f"tl.dot supports fp16, bf16 and fp32 operands, two fp8 ones, two "
                        f"int8 ones (int32 result) and two fp64 ones, got {a} and {b}")
    return (a if a == b else S.computation_type(a, b, False)), T.float32


def dot_result_type(operand: dtype, accumulator: dtype, acc: Any, out_dtype: Any) -> dtype:
    """The result's element type: the `acc=` block's if given, else Triton's
    rule: int8 dots give int32 and fp64 ones fp64, fp32 and bf16 ones fp32,
    whatever out_dtype says; fp16 and fp8 ones give out_dtype (fp32 or fp16)."""
    if acc is not None:
        return acc
    if accumulator in (T.int32, T.float64):
        return accumulator
    out = _dtype(out_dtype)
    if out == T.bfloat16:
        raise TileError("out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 "
                        "and cast with `.to(tl.bfloat16)`")
    return T.float32 if operand in (T.float32, T.bfloat16) else out


def check_dot_accumulator(accumulator: dtype, acc: dtype) -> None:
    if accumulator == T.int32 and acc != T.int32:
        raise TileError(f"tl.dot of int8 blocks accumulates in int32; acc= is {acc}")
    if accumulator != T.int32 and acc.is_int():
        raise TileError(f"tl.dot of float blocks accumulates in {accumulator}; acc= is {acc}")


def check_dot_shapes(a: list[int], b: list[int]) -> list[int]:
    """The result shape of `a @ b`: rank-2 blocks, or blocks of a higher rank
    whose leading dimensions are a batch of products (Triton's 3D dot, and
    its reshape of more batch dimensions into one)."""
    if len(a) < 2 or len(b) != len(a):
        raise TileError(f"tl.dot needs two blocks of one rank, at least 2 (more: a batch), "
                        f"got shapes {a} and {b}")
    if a[:-2] != b[:-2]:
        raise TileError(f"tl.dot batch shapes differ: {a[:-2]} and {b[:-2]} (shapes {a} and {b})")
    if a[-1] != b[-2]:
        raise TileError(f"tl.dot shapes do not agree: {a[-2]}x{a[-1]} times "
                        f"{b[-2]}x{b[-1]} ({a[-1]} != {b[-2]})")
    return [*a[:-1], b[-1]]


# Triton's input_precision values for CUDA. tile's tensor cores read f32 as
# tf32; the others (3xtf32 and bf16 splits, more precise than tf32) are exact
# f32 FMAs, as "ieee".
DOT_INPUT_PRECISIONS = ("tf32", "tf32x3", "ieee", "bf16x3", "bf16x6")


def dot_reads_tf32(input_precision: Any, allow_tf32: Any) -> bool:
    """Whether an f32 dot may read its inputs as tf32: Triton's default, its
    `input_precision="tf32"` and its older `allow_tf32=True`."""
    input_precision, allow_tf32 = unwrap(input_precision), unwrap(allow_tf32)
    if input_precision is not None and allow_tf32 is not None:
        raise TileError("Only one of input_precision and allow_tf32 can be specified")
    if input_precision is None:
        return allow_tf32 is None or bool(allow_tf32)
    if not isinstance(input_precision, str) or \
            input_precision.lower() not in DOT_INPUT_PRECISIONS:
        raise TileError(f"input_precision must be one of {DOT_INPUT_PRECISIONS}. "
                        f"Got {input_precision}")
    return input_precision.lower() == "tf32"


@builtin
def dot(input: Any, other: Any, acc: Any = None, input_precision: Any = None,
        allow_tf32: Any = None, max_num_imprecise_acc: Any = None, out_dtype: Any = T.float32,
        _builder: Builder | None = None) -> tensor:
    b = _builder
    tf32 = dot_reads_tf32(input_precision, allow_tf32)
    a, bb = S.to_tensor(b, input), S.to_tensor(b, other)
    result_shape = check_dot_shapes(list(a.shape), list(bb.shape))
    operand, accumulator_type = dot_operand_types(a.dtype, bb.dtype)
    # 8-bit floats reach tile.dot as they are: wgmma multiplies them (e4m3
    # and e5m2, mixed too), the FMA lowering widens them to fp16 itself.
    if not (a.dtype in _FP8_DOT_TYPES and bb.dtype in _FP8_DOT_TYPES):
        a, bb = S.cast(b, a, operand), S.cast(b, bb, operand)
    if unwrap(acc) is None:
        out = dot_result_type(operand, accumulator_type, None, out_dtype)
        accumulator = S.block_constant(b, 0, block_type(accumulator_type, result_shape))
    else:
        accumulator = S.to_tensor(b, acc)
        if list(accumulator.shape) != result_shape:
            raise TileError(f"tl.dot accumulator has shape {list(accumulator.shape)}, "
                            f"expected {result_shape}")
        check_dot_accumulator(accumulator_type, accumulator.dtype)
        out = dot_result_type(operand, accumulator_type, accumulator.dtype, out_dtype)
        accumulator = S.cast(b, accumulator, accumulator_type)
    if len(result_shape) > 3:
        # Several batch dimensions: one, as Triton does (the data stays put).
        batch = _math.prod(result_shape[:-2])
        a, bb, accumulator = (S.reshape(b, x, [batch, *x.shape[-2:]])
                              for x in (a, bb, accumulator))
    result = tensor(b.dot(a.handle, bb.handle, accumulator.handle,
                          tf32=tf32 and operand == T.float32))
    if len(result_shape) > 3:
        result = S.reshape(b, result, result_shape)
    return S.cast(b, result, out)


# ----------------------------------------------------------------------------
# Compile-time helpers and hints
# ----------------------------------------------------------------------------

@builtin
def static_assert(cond: Any, msg: Any = "", _builder: Builder | None = None) -> None:
    cond = unwrap(cond)
    if isinstance(cond, tensor):
        raise ConstantRequired("static_assert needs a compile-time condition; got a runtime value")
    if not cond:
        raise StaticAssertionError(
            f"static_assert failed{': ' + str(unwrap(msg)) if unwrap(msg) else ''}")


@builtin
def static_print(*values: Any, _builder: Builder | None = None) -> None:
    print(*(unwrap(v) for v in values))


def _hint_values(shape: list[int], values: Any, what: str) -> list[int]:
    """Triton's argument rule: an int or a list of ints, one per dimension
    (one for a scalar), each positive."""
    values = unwrap(values)
    items = [unwrap(v) for v in values] if isinstance(values, (list, tuple)) else [values]
    for index, value in enumerate(items):
        if isinstance(value, tensor):
            raise TileError(f"tl.{what} values must be compile-time constants, but element "
                            f"{index} is a runtime value")
        if isinstance(value, bool) or not isinstance(value, int):
            raise TileError(f"tl.{what} values must be integers, but element {index} is "
                            f"{value!r}")
        if value <= 0:
            raise TileError(f"tl.{what} values must be positive, but element {index} is "
                            f"{value}")
    entries = builtins.max(1, len(shape))
    if len(items) != entries:
        of = f"a block of shape {shape}" if shape else "a scalar"
        raise TileError(f"tl.{what} needs {entries} value(s), one per dimension of {of}, "
                        f"but got {len(items)}")
    return items


def _hint(b: Builder, input: Any, values: Any, what: str, fact: str) -> Any:
    """Emits `tile.hint` stating `fact` (divisibility, contiguity or
    constancy) of `input`'s elements for the axis analysis; the result is
    `input` at run time. An integer constant is returned as it is: its facts
    are known exactly."""
    x = unwrap(input)
    if isinstance(x, int) and not isinstance(x, bool):
        _hint_values([], values, what)
        return input
    if not isinstance(x, tensor) or not (x.dtype.is_int() or x.dtype.is_ptr()):
        kind = x.dtype if isinstance(x, tensor) else repr(x)
        raise TileError(f"tl.{what} applies to integer and pointer values, not {kind}")
    items = _hint_values(x.shape, values, what)
    if fact == "divisibility":
        # A multiple of 24 is a multiple of 8: the analysis tracks powers of two.
        items = [v & -v for v in items]
    else:
        # Runs longer than a dimension say what runs as long as it say.
        items = [builtins.min(v, extent) for v, extent in zip(items, x.shape or [1])]
    return tensor(b.hint(x.handle, fact, items))


@builtin
def multiple_of(input: Any, values: Any, _builder: Builder | None = None) -> Any:
    """States that the first element of each run of consecutive elements of
    `input` (every element, where there are no runs) is a multiple of
    `values`, one per dimension; bytes for pointers. Not checked: a false
    statement gives wrong results."""
    return _hint(_builder, input, values, "multiple_of", "divisibility")


@builtin
def max_contiguous(input: Any, values: Any, _builder: Builder | None = None) -> Any:
    """States that along each dimension `input`'s elements form runs of
    `values` consecutive integers (pointers to consecutive elements) that
    start at multiples of that index. Not checked."""
    return _hint(_builder, input, values, "max_contiguous", "contiguity")


@builtin
def max_constancy(input: Any, values: Any, _builder: Builder | None = None) -> Any:
    """States that along each dimension `input`'s elements form runs of
    `values` equal elements, aligned as for max_contiguous. Not checked."""
    return _hint(_builder, input, values, "max_constancy", "constancy")


@builtin
def assume(cond: Any, _builder: Builder | None = None) -> None:
    """Tells the compiler that the scalar `cond` holds (`llvm.intr.assume`):
    LLVM optimizes on it, and the axis analysis takes `x >= 0` / `x > 0`
    (`tl.assume(pid_n >= 0)`, as Triton's tutorial 03) for non-negativity.
    A false assumption is undefined behaviour."""
    c = unwrap(cond)
    if not isinstance(c, tensor):
        if not c:
            raise TileError("tl.assume of a condition that is false at compile time")
        return None
    if c.is_block():
        raise TileError(f"tl.assume needs a scalar condition, not a block of shape {list(c.shape)}")
    if not c.dtype.is_bool():
        raise TileError(f"tl.assume needs a boolean condition, not {c.dtype}")
    _builder.assume(c.handle)
    return None


@builtin
def debug_barrier(_builder: Builder | None = None) -> None:
    """Every thread of the program waits for the others (`bar.sync`), their
    earlier global memory writes visible to each other after it."""
    _builder.barrier()


def print_prefix(prefix: Any, has_values: bool) -> str:
    """Triton's rules for a device_print prefix: an ASCII string, which ends
    in ": " and starts with a space when values follow."""
    prefix = unwrap(prefix)
    if not isinstance(prefix, str):
        raise TileError(f"tl.device_print (and print in a kernel) takes a string prefix first, "
                        f"got {prefix!r}")
    if any(ch not in string.printable for ch in prefix):
        raise TileError(f"tl.device_print: the prefix {prefix!r} is not an ASCII string")
    if has_values and not prefix.endswith(" "):
        prefix += " "
    if has_values and not prefix.endswith(": "):
        prefix = prefix[:-1] + ": "
    if len(prefix) > 2 and not prefix.startswith(" "):
        prefix = " " + prefix
    return prefix


@builtin
def device_print(prefix: Any, *args: Any, hex: Any = False,
                 _builder: Builder | None = None) -> None:
    """printf from the device: each element of a block once, with its index,
    and scalars once per program, each line led by the program id."""
    b = _builder
    values = [S.to_tensor(b, arg) for arg in args]
    prefix = print_prefix(prefix, bool(values))
    b.print_values(prefix, [v.handle for v in values],
                   [v.dtype.is_int_signed() or not v.dtype.is_int() for v in values],
                   bool(unwrap(hex)))


@builtin
def device_assert(cond: Any, msg: Any = "", mask: Any = None,
                  _builder: Builder | None = None) -> None:
    """Stops the kernel where `cond` is false (and `mask`, if given, true),
    reporting `msg` with the source line; only with debugging on
    (`@tile.jit(debug=True)` or `TILE_DEBUG=1`), as Triton's."""
    b = _builder
    message = unwrap(msg)
    if not isinstance(message, str):
        raise TileError(f"tl.device_assert: the message must be a string, got {message!r}")
    if not b.debug:
        return
    condition = S.to_bool(b, S.to_tensor(b, cond))
    if unwrap(mask) is not None:
        condition = S.bitwise(b, "ori", condition, S.logical_not(b, S.to_tensor(b, mask)))
    b.assert_(condition.handle, message)


def _check_step(step: Any) -> Any:
    """A loop step known at compile time must not be 0 (the loop would never
    end); a runtime step must be positive, which only the program knows."""
    if not isinstance(step, tensor) and unwrap(step) == 0:
        raise TileError("a range step must not be zero")
    return step


class static_range:
    """`for i in tl.static_range(...)`: unrolled by the frontend; bounds are constexprs."""

    def __init__(self, arg1: Any, arg2: Any = None, step: Any = None) -> None:
        if arg2 is None:
            arg1, arg2 = 0, arg1
        self.start, self.end = unwrap(arg1), unwrap(arg2)
        self.step = 1 if step is None else _check_step(unwrap(step))


def _loop_hint(value: Any, name: str, least: int = 1) -> int | None:
    """A `tl.range` schedule hint: None, or a compile-time int >= `least`."""
    value = unwrap(value)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConstantRequired(f"tl.range {name} must be a compile-time integer, got {value!r}")
    if value < least:
        raise TileError(f"tl.range {name} must be at least {least}, got {value}")
    return value


class range:  # noqa: A001 - Triton's name
    """`for i in tl.range(...)`: an `scf.for` loop, as Python's `range` in a kernel.
    `num_stages` sets this loop's software-pipelining depth (the kernel's
    num_stages otherwise; 0 or 1: not pipelined) and `loop_unroll_factor` runs that
    many copies of the body per iteration, as in Triton. `warp_specialize`,
    `flatten`, `disallow_acc_multi_buffer` and `disable_licm` are accepted and
    ignored (tile does not specialize warps, flatten loop nests or multi-buffer
    accumulators); other keywords are an error. A loop that can exit early
    (break, return) becomes an scf.while, which is neither pipelined nor
    unrolled."""

    def __init__(self, arg1: Any, arg2: Any = None, step: Any = None, num_stages: Any = None,
                 loop_unroll_factor: Any = None, disallow_acc_multi_buffer: Any = False,
                 flatten: Any = False, warp_specialize: Any = False,
                 disable_licm: Any = False) -> None:
        if arg2 is None:
            arg1, arg2 = 0, arg1
        self.start, self.end = unwrap(arg1), unwrap(arg2)
        self.step = 1 if step is None else _check_step(unwrap(step))
        # num_stages=0 is Triton's "not pipelined", as 1 is.
        stages = _loop_hint(num_stages, "num_stages", least=0)
        self.num_stages = None if stages is None else builtins.max(stages, 1)
        self.loop_unroll_factor = _loop_hint(loop_unroll_factor, "loop_unroll_factor")


# ----------------------------------------------------------------------------
# Tensor methods (Triton's `x.to(...)`, `x.sum(axis)`, ...)
# ----------------------------------------------------------------------------

def _tensor_to(self: tensor, dtype: Any, fp_downcast_rounding: Any = None,
               bitcast: Any = False, _builder: Builder | None = None) -> tensor:
    return cast(self, dtype, fp_downcast_rounding, bitcast, _builder=_builder)


_tensor_to.__tile_builtin__ = True  # type: ignore[attr-defined]


def constant_attribute(value: bool | int | float, attr: str) -> Any:
    """`.dtype` and `.to(...)` of a Python number in a kernel (`(3).to(tl.int8)`,
    `x = 0.5; x.dtype`): the number as a value of its literal type."""
    if attr == "dtype":
        return S.literal_type(value)
    if attr == "to":
        def to(dtype: Any, fp_downcast_rounding: Any = None, bitcast: Any = False,
               _builder: Builder | None = None) -> tensor:
            return cast(value, dtype, fp_downcast_rounding, bitcast, _builder=_builder)
        to.__tile_builtin__ = True  # type: ignore[attr-defined]
        return to
    raise TileError(f"a {type(value).__name__} has no attribute '{attr}' in a kernel")


__all__ = [name for name in dir() if not name.startswith("_")
           and name not in ("annotations", "builtins", "functools", "Any", "Callable",
                            "TypeVar", "F", "Block", "Builder", "ConstantRequired",
                            "LOAD_CACHE_OPERATORS", "STORE_CACHE_OPERATORS",
                            "ATOMIC_SEMANTICS", "ATOMIC_SCOPES", "atomic_order", "inspect",
                            "LIBRARY", "library_arguments", "library_builtin",
                            "atomic_pointee", "atomic_shapes", "atomic_kind",
                            "TileError", "S", "T", "propagates_nan", "must_use_result")]
