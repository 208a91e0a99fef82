"""Tensor descriptors and block pointers: a base pointer with a shape, strides
and a block shape, as Triton spells them.

- `tl.make_tensor_descriptor(base, shape, strides, block_shape,
  padding_option="zero")`, or a `tile.tools.tensor_descriptor.TensorDescriptor`
  passed from the host (the launcher passes its base, shape and strides as
  kernel parameters), then `desc.load(offsets)` / `desc.store(offsets, value)`.
  Every dimension is bounds-checked, as TMA does: elements outside the shape
  read as 0 (NaN with padding "nan") and are not written.
- `tl.make_block_ptr(base, shape, strides, offsets, block_shape, order)`,
  `tl.advance(ptr, offsets)` and `tl.load`/`tl.store` of one, with
  `boundary_check=` (the dimensions to check) and `padding_option=`.

Both are frontend values (NamedTuples, so they pass through calls, loops and
branches as their parts); a load or store is a masked load or store of the
block's pointers, computed by @jit functions that compiled and interpreted
kernels share. With tile.knobs.compilation.tma (TILE_TMA=1) a compiled load
or store also names its box of a TMA map, so the compiler copies it with TMA
where the block goes to or comes from shared memory (the operand rings of a
pipelined dot, stores, on sm_90a): a host descriptor's map, or one the
kernel makes (`tile.make_tensor_map`) of an in-kernel descriptor or a block
pointer, which the compiler turns into a parameter the launcher encodes
from the kernel's arguments where it can (tile-launch-tensor-maps).
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple

from ..errors import ConstantRequired, TileError
from ..runtime.jit import jit
from .. import language as tl
from .semantic import tensor
from .types import block_type, dtype, must_use_result, unwrap

ToValue = Callable[[Any], tensor]
PADDINGS = ("zero", "nan")
MAX_RANK = 5  # as Triton's (and TMA's)


# ----------------------------------------------------------------------------
# The shared @jit functions
# ----------------------------------------------------------------------------

def _unit_shape(block_shape: Any, dim: Any) -> list[int]:
    """[1, .., block_shape[dim], .., 1]: one dimension's indices, placed."""
    return [n if d == dim else 1 for d, n in enumerate(block_shape)]


@jit
def _block_addresses(base, shape, strides, offsets, BLOCK_SHAPE: tl.constexpr,
                     UNIT: tl.constexpr, CHECK: tl.constexpr):
    """The pointers of the block at `offsets`, and where they lie inside
    `shape` along the CHECK dimensions (None when none is checked). Indices
    times a stride are i64 (Triton's strides are); a stride that is the
    number 1 (UNIT) adds the index itself."""
    ptrs = base
    mask = None
    for d in tl.static_range(len(BLOCK_SHAPE)):
        index = tl.reshape(offsets[d] + tl.arange(0, BLOCK_SHAPE[d]), _unit_shape(BLOCK_SHAPE, d))
        if UNIT[d]:
            ptrs = ptrs + index
        else:
            ptrs = ptrs + index.to(tl.int64) * strides[d]
        if CHECK[d]:
            inside = (index >= 0) & (index < shape[d])
            if mask is None:
                mask = inside
            else:
                mask = mask & inside
    return ptrs, mask


@jit
def _load_block(base, shape, strides, offsets, BLOCK_SHAPE: tl.constexpr, UNIT: tl.constexpr,
                CHECK: tl.constexpr, NAN: tl.constexpr):
    ptrs, mask = _block_addresses(base, shape, strides, offsets, BLOCK_SHAPE, UNIT, CHECK)
    return tl.load(ptrs, mask=mask, other=float("nan") if NAN else 0)


@jit
def _store_block(base, shape, strides, offsets, value, BLOCK_SHAPE: tl.constexpr,
                 UNIT: tl.constexpr, CHECK: tl.constexpr):
    ptrs, mask = _block_addresses(base, shape, strides, offsets, BLOCK_SHAPE, UNIT, CHECK)
    tl.store(ptrs, value, mask=mask)


@jit
def _reduce_block(base, shape, strides, offsets, value, OP: tl.constexpr,
                  BLOCK_SHAPE: tl.constexpr, UNIT: tl.constexpr, CHECK: tl.constexpr):
    """An atomic `OP` of each element of `value` into the block, inside the
    shape only, relaxed (as TMA's bulk reductions are)."""
    ptrs, mask = _block_addresses(base, shape, strides, offsets, BLOCK_SHAPE, UNIT, CHECK)
    if OP == "add":
        tl.atomic_add(ptrs, value, mask=mask, sem="relaxed")
    elif OP == "min":
        tl.atomic_min(ptrs, value, mask=mask, sem="relaxed")
    elif OP == "max":
        tl.atomic_max(ptrs, value, mask=mask, sem="relaxed")
    elif OP == "and":
        tl.atomic_and(ptrs, value, mask=mask, sem="relaxed")
    elif OP == "or":
        tl.atomic_or(ptrs, value, mask=mask, sem="relaxed")
    else:
        tl.atomic_xor(ptrs, value, mask=mask, sem="relaxed")


@jit
def _row_addresses(base, shape, strides, rows, column, COLUMNS: tl.constexpr):
    """The pointers of rows `rows` (a block) from `column` on, COLUMNS wide,
    and where they lie inside the 2-D `shape`."""
    cols = column + tl.arange(0, COLUMNS)
    ptrs = base + rows[:, None].to(tl.int64) * strides[0] + cols[None, :]
    mask = (rows[:, None] >= 0) & (rows[:, None] < shape[0]) & (cols[None, :] >= 0) & \
        (cols[None, :] < shape[1])
    return ptrs, mask


@jit
def _gather_rows(base, shape, strides, rows, column, COLUMNS: tl.constexpr, NAN: tl.constexpr):
    ptrs, mask = _row_addresses(base, shape, strides, rows, column, COLUMNS)
    return tl.load(ptrs, mask=mask, other=float("nan") if NAN else 0)


@jit
def _scatter_rows(base, shape, strides, rows, column, value, COLUMNS: tl.constexpr):
    ptrs, mask = _row_addresses(base, shape, strides, rows, column, COLUMNS)
    tl.store(ptrs, value, mask=mask)


@jit
def _sum_of(a, b):
    return a + b


# ----------------------------------------------------------------------------
# Builtins that work compiled and interpreted
# ----------------------------------------------------------------------------

class _Region(NamedTuple):
    """What a descriptor's or block pointer's access reads or writes: the
    block at `offsets` of the tensor, and its TMA map (None: none) whose
    dimensions are the tensor's in `map_order` (the contiguous one last)."""
    base: Any
    shape: tuple
    strides: tuple
    offsets: tuple
    block_shape: tuple
    tensor_map: Any
    map_order: tuple

    @property
    def dtype(self) -> dtype:
        return self.base.dtype.element_ty


def _names_box(builder: Any, region: _Region) -> bool:
    """Whether a compiled access of `region` names its box of the TMA map
    (with tile.knobs.compilation.tma: the compiler may then copy it with
    TMA)."""
    return builder is not None and builder.tma and region.tensor_map is not None \
        and not region.dtype.is_bool()


def _box_parts(to_value: ToValue, builder: Any, region: _Region,
               check: tuple[bool, ...]) -> tuple[Any, Any, Any]:
    """The block's pointers and mask (None: all inside), of one shape, and
    the box: the map, the offsets as i32 coordinates in the map's order, and
    the map dimension each block dimension runs along."""
    from . import semantic as S
    from ..compiler.ir import Box
    ptrs, mask = _inline(_block_addresses, [region.base, region.shape, region.strides,
                                            region.offsets, region.block_shape,
                                            _unit_strides(region.strides), check], builder)
    if mask is not None:
        ptrs, mask = S.broadcast_together(builder, ptrs, mask)
    coords = [S.cast(builder, to_value(region.offsets[d]), tl.int32).handle
              for d in region.map_order]
    dims = [region.map_order.index(d) for d in range(len(region.block_shape))]
    return ptrs, mask, Box(region.tensor_map.handle, coords, dims)


def _load_box(to_value: ToValue, builder: Any, region: _Region,
              check: tuple[bool, ...]) -> tensor:
    """A compiled load of the block that names its box of the TMA map: the
    same masked load of the block's pointers (zero outside the shape), which
    the compiler may perform with TMA."""
    from . import semantic as S
    ptrs, mask, box = _box_parts(to_value, builder, region, check)
    other = None
    if mask is not None:
        other = S.broadcast_to(builder, S.to_tensor_of(builder, 0, region.dtype), ptrs.shape)
    return tensor(builder.load(ptrs.handle, mask.handle if mask is not None else None,
                               other.handle if other is not None else None, box=box))


def _store_box(to_value: ToValue, builder: Any, region: _Region, value: tensor,
               check: tuple[bool, ...]) -> None:
    """A compiled store of `value` that names its box of the TMA map: the
    same masked store (nothing outside the shape), which the compiler may
    perform with TMA."""
    from . import semantic as S
    ptrs, mask, box = _box_parts(to_value, builder, region, check)
    value = S.cast(builder, value, region.dtype)
    builder.store(ptrs.handle, value.handle, mask.handle if mask is not None else None,
                  box=box)


def _tensor_map(to_value: ToValue, builder: Any, base: tensor, shape: tuple[Any, ...],
                strides: tuple[Any, ...], order: tuple[int, ...]) -> Any:
    """A TMA map of the tensor a descriptor or block pointer made in a kernel
    describes, its dimensions in `order` (the contiguous one last), for a
    compiled kernel with tile.knobs.compilation.tma; None otherwise. The
    compiler makes it a kernel parameter the launcher encodes where the
    parts are products of the kernel's arguments (tile-launch-tensor-maps),
    else drops it (the accesses keep their pointers)."""
    from . import semantic as S
    if builder is None or not builder.tma or base.dtype.element_ty.is_bool():
        return None
    extents = [S.cast(builder, to_value(shape[d]), tl.int32).handle for d in order]
    steps = [S.cast(builder, to_value(strides[d]), tl.int64).handle for d in order]
    return tensor(builder.make_tensor_map(base.handle, extents, steps))


def _to_value_for(builder: Any) -> ToValue:
    """Runtime values of Python numbers: typed constants of the compiled
    kernel's builder, or of the interpreter (no builder)."""
    if builder is not None:
        from . import semantic as S
        return lambda v: S.to_tensor(builder, v)
    from ..interpreter import ops as O  # interpreted: values are NumPy's
    return O.to_value


def _inline(impl: Any, values: list[Any], builder: Any) -> Any:
    """`impl` on `values`: inlined into the compiled kernel, or run by the interpreter."""
    if builder is not None:
        return builder.call_jit(impl, values)
    from ..interpreter.runner import callable_jit
    return callable_jit(impl)(*values)


def dual_builtin(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A builtin that takes `(to_value, builder, ...)` and serves compiled
    kernels (called with `_builder`) and the interpreter (without) alike."""
    def wrapper(*args: Any, _builder: Any = None, **kwargs: Any) -> Any:
        return fn(_to_value_for(_builder), _builder, *args, **kwargs)
    wrapper.__name__ = wrapper.__qualname__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    wrapper.__tile_builtin__ = True  # type: ignore[attr-defined]
    wrapper.__tile_dual__ = True  # type: ignore[attr-defined]
    return wrapper


def _constant_ints(values: Any, what: str) -> tuple[int, ...]:
    values = unwrap(values)
    if not isinstance(values, (list, tuple)):
        raise TileError(f"{what} must be a list or tuple of integers, got {values!r}")
    result = []
    for value in values:
        value = unwrap(value)
        if isinstance(value, tensor) or hasattr(value, "data"):
            raise ConstantRequired(f"{what} must be compile-time integers, not runtime values")
        if not isinstance(value, int) or isinstance(value, bool):
            raise TileError(f"{what} must be integers, got {value!r}")
        result.append(value)
    return tuple(result)


def _integers(to_value: ToValue, values: Any, rank: int, what: str) -> tuple[Any, ...]:
    """`rank` integer scalars (Python ints stay numbers; runtime ones are checked)."""
    values = unwrap(values)
    if not isinstance(values, (list, tuple)) or len(values) != rank:
        raise TileError(f"{what} must be a list or tuple of {rank} integers (one per "
                        f"dimension), got {values!r}")
    result = []
    for value in values:
        value = unwrap(value)
        if isinstance(value, bool) or not isinstance(value, int):
            v = to_value(value)
            if v.is_block() or not v.dtype.is_int() or v.dtype.is_bool():
                raise TileError(f"{what} must be integer scalars, got "
                                f"{'a block of ' if v.is_block() else ''}{v.dtype}")
        result.append(value)
    return tuple(result)


def _base_pointer(to_value: ToValue, base: Any, what: str) -> Any:
    ptr = to_value(unwrap(base))
    if ptr.is_block() or not ptr.dtype.is_ptr():
        raise TileError(f"{what}: base must be a pointer (a scalar), got "
                        f"{'a block of ' if ptr.is_block() else ''}{ptr.dtype}")
    return ptr


def _block_shape(values: Any, what: str) -> tuple[int, ...]:
    shape = _constant_ints(values, f"{what}'s block_shape")
    if not 1 <= len(shape) <= MAX_RANK:
        raise TileError(f"{what}: a block has 1 to {MAX_RANK} dimensions, got {list(shape)}")
    for n in shape:
        if n <= 0 or n & (n - 1):
            raise TileError(f"{what}: block_shape extents must be powers of two, got "
                            f"{list(shape)}")
    return shape


def _unit_strides(strides: tuple[Any, ...]) -> tuple[bool, ...]:
    return tuple(type(s) is int and s == 1 for s in strides)


def _needs_check(check: tuple[bool, ...], shape: tuple[Any, ...], offsets: tuple[Any, ...],
                 block_shape: tuple[int, ...]) -> tuple[bool, ...]:
    """`check`, less the dimensions whose block lies inside the shape by
    their numbers (offset 0 into a dimension of the block's extent, say)."""
    return tuple(c and not (type(o) is int and type(n) is int and 0 <= o and o + b <= n)
                 for c, n, o, b in zip(check, shape, offsets, block_shape))


class BlockShape(tuple):
    """A descriptor's block shape: a tuple (hashable, a constexpr argument of
    the @jit functions) that equals the list Triton's `block_shape` is, so
    `assert desc.block_shape == [BM, BN]` holds in both."""

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):
            return list(self) == other
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__


class tensor_descriptor(NamedTuple):
    """Triton's `tl.tensor_descriptor`: `load`/`store` a block of
    `block_shape` at given offsets of a `shape` tensor at `base`. A host
    descriptor also brings its TMA map (`tensor_map`, a kernel parameter),
    which its compiled loads name so that the compiler may copy them with
    TMA; one made in the kernel has none."""
    base: Any
    shape: tuple
    strides: tuple
    block_shape: tuple
    padding: str
    tensor_map: Any = None

    @property
    def dtype(self) -> dtype:
        return self.base.dtype.element_ty

    @property
    def block_type(self) -> block_type:
        return block_type(self.dtype, list(self.block_shape))

    def _region(self, offsets: tuple[Any, ...]) -> _Region:
        return _Region(self.base, self.shape, self.strides, offsets, self.block_shape,
                       self.tensor_map, tuple(range(len(self.block_shape))))

    @dual_builtin
    def load(to_value: ToValue, builder: Any, self: "tensor_descriptor",  # type: ignore[misc]
             offsets: Any) -> Any:
        """The block at `offsets` (zero, or NaN, outside the shape)."""
        offsets = _integers(to_value, offsets, len(self.block_shape), "desc.load's offsets")
        check = _needs_check((True,) * len(self.block_shape), self.shape, offsets,
                             self.block_shape)
        region = self._region(offsets)
        if _names_box(builder, region) and self.padding == "zero":
            return _load_box(to_value, builder, region, check)
        return _inline(_load_block, [self.base, self.shape, self.strides, offsets,
                                     self.block_shape, _unit_strides(self.strides), check,
                                     self.padding == "nan"], builder)

    @dual_builtin
    def store(to_value: ToValue, builder: Any, self: "tensor_descriptor",  # type: ignore[misc]
              offsets: Any, value: Any) -> None:
        """Writes `value` (of the block's shape) at `offsets`, inside the shape only."""
        offsets = _integers(to_value, offsets, len(self.block_shape), "desc.store's offsets")
        value = to_value(unwrap(value))
        if list(value.shape) != list(self.block_shape):
            raise TileError(f"desc.store: the value's shape {list(value.shape)} is not the "
                            f"descriptor's block shape {list(self.block_shape)}")
        check = _needs_check((True,) * len(self.block_shape), self.shape, offsets,
                             self.block_shape)
        region = self._region(offsets)
        if _names_box(builder, region):
            return _store_box(to_value, builder, region, value, check)
        _inline(_store_block, [self.base, self.shape, self.strides, offsets, value,
                               self.block_shape, _unit_strides(self.strides), check], builder)


    def _reduce(self, to_value: ToValue, builder: Any, op: str, offsets: Any,
                value: Any) -> None:
        what = f"desc.atomic_{op}"
        if self.dtype.name not in _DESCRIPTOR_ATOMIC_TYPES[op]:
            raise TileError(f"{what} does not support {self.dtype} elements, only "
                            f"{', '.join(_DESCRIPTOR_ATOMIC_TYPES[op])}")
        offsets = _integers(to_value, offsets, len(self.block_shape), f"{what}'s offsets")
        value = to_value(unwrap(value))
        if list(value.shape) != list(self.block_shape):
            raise TileError(f"{what}: the value's shape {list(value.shape)} is not the "
                            f"descriptor's block shape {list(self.block_shape)}")
        check = _needs_check((True,) * len(self.block_shape), self.shape, offsets,
                             self.block_shape)
        _inline(_reduce_block, [self.base, self.shape, self.strides, offsets, value, op,
                                self.block_shape, _unit_strides(self.strides), check], builder)

    def _rows(self, to_value: ToValue, x_offsets: Any, y_offset: Any,
              what: str) -> tuple[Any, Any]:
        """Triton's checks of a row gather or scatter: a 2-D descriptor of
        blocks of one row, at least 8 int16/int32 row indices, at least 8
        32-bit words per row (TMA's limits)."""
        if len(self.block_shape) != 2 or self.block_shape[0] != 1:
            raise TileError(f"{what} needs a 2-D descriptor with blocks of one row, got "
                            f"block_shape {list(self.block_shape)}")
        rows = to_value(unwrap(x_offsets))
        if len(rows.shape) != 1 or rows.dtype.name not in ("int16", "int32"):
            raise TileError(f"{what}: the row offsets must be a 1-D block of int16 or int32, "
                            f"got {'shape ' + str(list(rows.shape)) if rows.shape else 'a scalar'}"
                            f" of {rows.dtype}")
        if rows.shape[0] < 8:
            raise TileError(f"{what} takes at least 8 rows, got {rows.shape[0]}")
        columns = self.block_shape[1]
        least = 32 // self.dtype.primitive_bitwidth * 8
        if columns < least:
            raise TileError(f"{what} of {self.dtype} needs blocks of at least {least} columns, "
                            f"got {columns}")
        (column,) = _integers(to_value, (y_offset,), 1, f"{what}'s column offset")
        return rows, column

    @dual_builtin
    def gather(to_value: ToValue, builder: Any, self: "tensor_descriptor",  # type: ignore[misc]
               x_offsets: Any, y_offset: Any) -> Any:
        """The rows `x_offsets` (a block of R indices), `block_shape[1]` columns
        from `y_offset`: an R x C block (zero, or NaN, outside the shape)."""
        rows, column = self._rows(to_value, x_offsets, y_offset, "desc.gather")
        return _inline(_gather_rows, [self.base, self.shape, self.strides, rows, column,
                                      self.block_shape[1], self.padding == "nan"], builder)

    @dual_builtin
    def scatter(to_value: ToValue, builder: Any, self: "tensor_descriptor",  # type: ignore[misc]
                value: Any, x_offsets: Any, y_offset: Any) -> None:
        """Writes `value` (R x C) to the rows `x_offsets` from column `y_offset`,
        inside the shape only."""
        rows, column = self._rows(to_value, x_offsets, y_offset, "desc.scatter")
        value = to_value(unwrap(value))
        expected = [rows.shape[0], self.block_shape[1]]
        if list(value.shape) != expected:
            raise TileError(f"desc.scatter: the value's shape {list(value.shape)} is not "
                            f"{expected} (the rows by the block's columns)")
        _inline(_scatter_rows, [self.base, self.shape, self.strides, rows, column, value,
                                self.block_shape[1]], builder)


def _descriptor_atomic(op: str) -> Callable[..., Any]:
    def method(to_value: ToValue, builder: Any, self: tensor_descriptor, offsets: Any,
               value: Any) -> None:
        self._reduce(to_value, builder, op, offsets, value)
    method.__name__ = f"atomic_{op}"
    method.__doc__ = (f"An atomic {op} of `value` (of the block's shape) into the block at "
                      "`offsets`, inside the shape only; it returns nothing (as Triton's).")
    return dual_builtin(method)


# Triton's element types for descriptor atomics that tile's pointer atomics
# also have (fp16/bf16 min and max are TMA-only in Triton: not here).
_DESCRIPTOR_ATOMIC_TYPES = {
    "add": ("uint32", "int32", "uint64", "fp32", "fp16", "bf16"),
    "min": ("uint32", "int32", "uint64", "int64"),
    "max": ("uint32", "int32", "uint64", "int64"),
    "and": ("uint32", "int32", "uint64", "int64"),
    "or": ("uint32", "int32", "uint64", "int64"),
    "xor": ("uint32", "int32", "uint64", "int64"),
}
for _op in _DESCRIPTOR_ATOMIC_TYPES:
    setattr(tensor_descriptor, f"atomic_{_op}", _descriptor_atomic(_op))


class block_pointer(NamedTuple):
    """A block pointer of `tl.make_block_ptr`: `tl.load`/`tl.store` the block
    at `offsets`; `tl.advance` moves it. Compiled with
    tile.knobs.compilation.tma, it also has a TMA map of its tensor whose
    dimensions are the tensor's in `map_order` (the one of constant stride 1
    last)."""
    base: Any
    shape: tuple
    strides: tuple
    offsets: tuple
    block_shape: tuple
    order: tuple
    tensor_map: Any = None
    map_order: tuple = ()

    @property
    def dtype(self) -> dtype:
        """A pointer type, as in Triton: `.element_ty` is the element type."""
        return self.base.dtype

    def _region(self) -> _Region:
        return _Region(self.base, self.shape, self.strides, self.offsets, self.block_shape,
                       self.tensor_map, self.map_order)


def _check_dimensions(boundary_check: Any, rank: int, what: str) -> tuple[bool, ...]:
    dims = unwrap(boundary_check)
    dims = () if dims is None else dims
    dims = _constant_ints(dims if isinstance(dims, (list, tuple)) else [dims],
                          f"{what}'s boundary_check")
    for d in dims:
        if not 0 <= d < rank:
            raise TileError(f"{what}: boundary_check dimension {d} is out of range for a "
                            f"rank-{rank} block pointer")
    return tuple(d in dims for d in range(rank))


def _padding(option: Any, element: dtype, what: str, allow_empty: bool) -> str:
    option = unwrap(option)
    if option in ("", None) and allow_empty:
        return "zero"
    if option not in PADDINGS:
        raise TileError(f"{what}: padding_option must be 'zero' or 'nan', got {option!r}")
    if option == "nan" and not element.is_floating():
        raise TileError(f"{what}: padding 'nan' needs a floating-point tensor, not {element}")
    return option


def load_block_pointer(to_value: ToValue, builder: Any, pointer: block_pointer,
                       boundary_check: Any, padding_option: Any) -> Any:
    """tl.load of a block pointer."""
    rank = len(pointer.block_shape)
    check = _check_dimensions(boundary_check, rank, "tl.load")
    padding = _padding(padding_option, pointer.dtype.element_ty, "tl.load", allow_empty=True)
    region = pointer._region()
    if _names_box(builder, region) and padding == "zero":
        return _load_box(to_value, builder, region, check)
    return _inline(_load_block, [pointer.base, pointer.shape, pointer.strides, pointer.offsets,
                                 pointer.block_shape, _unit_strides(pointer.strides), check,
                                 padding == "nan"], builder)


def store_block_pointer(to_value: ToValue, builder: Any, pointer: block_pointer, value: Any,
                        boundary_check: Any) -> None:
    """tl.store to a block pointer."""
    rank = len(pointer.block_shape)
    check = _check_dimensions(boundary_check, rank, "tl.store")
    value = to_value(unwrap(value))
    if value.is_block() and list(value.shape) != list(pointer.block_shape):
        raise TileError(f"tl.store: the value's shape {list(value.shape)} is not the block "
                        f"pointer's block shape {list(pointer.block_shape)}")
    region = pointer._region()
    if _names_box(builder, region) and value.is_block():
        return _store_box(to_value, builder, region, value, check)
    _inline(_store_block, [pointer.base, pointer.shape, pointer.strides, pointer.offsets, value,
                           pointer.block_shape, _unit_strides(pointer.strides), check], builder)


@dual_builtin
def make_tensor_descriptor(to_value: ToValue, builder: Any, base: Any, shape: Any, strides: Any,
                           block_shape: Any, padding_option: Any = "zero") -> tensor_descriptor:
    """A tensor descriptor of the `shape` tensor at `base` with `strides`
    (the last one 1), for blocks of `block_shape` (powers of two)."""
    what = "tl.make_tensor_descriptor"
    ptr = _base_pointer(to_value, base, what)
    blocks = _block_shape(block_shape, what)
    rank = len(blocks)
    shape = _integers(to_value, shape, rank, f"{what}'s shape")
    strides = _integers(to_value, strides, rank, f"{what}'s strides")
    if not _unit_strides(strides)[-1]:
        raise TileError(f"{what}: the last stride must be the constant 1 (the last dimension "
                        f"is contiguous), got {unwrap(strides[-1])!r}")
    padding = _padding(padding_option, ptr.dtype.element_ty, what, allow_empty=False)
    tensor_map = _tensor_map(to_value, builder, ptr, shape, strides, tuple(range(rank)))
    return tensor_descriptor(ptr, shape, strides, BlockShape(blocks), padding, tensor_map)


@dual_builtin
def make_block_ptr(to_value: ToValue, builder: Any, base: Any, shape: Any, strides: Any,
                   offsets: Any, block_shape: Any, order: Any) -> block_pointer:
    """A pointer to the `block_shape` block at `offsets` of the `shape` tensor
    at `base` with `strides`; `order` (a permutation of the dimensions, most
    contiguous first) is checked and, as a layout hint, not needed."""
    what = "tl.make_block_ptr"
    ptr = _base_pointer(to_value, base, what)
    blocks = _block_shape(block_shape, what)
    rank = len(blocks)
    order = _constant_ints(order, f"{what}'s order")
    if sorted(order) != list(range(rank)):
        raise TileError(f"{what}: order must be a permutation of 0..{rank - 1}, got {list(order)}")
    # The offsets are runtime values from the start (tl.advance changes them,
    # often in a loop); shape and strides keep their numbers.
    offsets = tuple(to_value(o) for o in _integers(to_value, offsets, rank, f"{what}'s offsets"))
    shape = _integers(to_value, shape, rank, f"{what}'s shape")
    strides = _integers(to_value, strides, rank, f"{what}'s strides")
    # TMA reads a tensor whose last dimension has stride 1: the dimension of
    # constant stride 1 (the most contiguous in `order` if several), the
    # others as the block has them.
    units = [d for d in order if _unit_strides(strides)[d]]
    map_order: tuple[int, ...] = ()
    tensor_map = None
    if units:
        map_order = tuple(d for d in range(rank) if d != units[0]) + (units[0],)
        tensor_map = _tensor_map(to_value, builder, ptr, shape, strides, map_order)
    return block_pointer(ptr, shape, strides, offsets, blocks, order, tensor_map,
                         map_order if tensor_map is not None else ())


@must_use_result("Note that tl.advance does not have any side effects. To move the block "
                 "pointer, you need to assign the result of tl.advance to a variable.")
@dual_builtin
def advance(to_value: ToValue, builder: Any, base: Any, offsets: Any) -> block_pointer:
    """The block pointer `base` moved by `offsets` (one per dimension)."""
    if not isinstance(base, block_pointer):
        raise TileError(f"tl.advance needs a block pointer (tl.make_block_ptr), got "
                        f"{type(base).__name__}")
    deltas = _integers(to_value, offsets, len(base.block_shape), "tl.advance's offsets")
    moved = tuple(_inline(_sum_of, [o, d], builder) for o, d in zip(base.offsets, deltas))
    return base._replace(offsets=moved)


block_pointer.advance = advance  # type: ignore[attr-defined]  # `ptr.advance(offsets)`, as Triton's


@dual_builtin
def load_tensor_descriptor(to_value: ToValue, builder: Any, desc: Any, offsets: Any) -> Any:
    """`desc.load(offsets)`, as a function (Triton's spelling)."""
    _descriptor(desc, "tl.load_tensor_descriptor")
    return desc.load(offsets, _builder=builder)


@dual_builtin
def store_tensor_descriptor(to_value: ToValue, builder: Any, desc: Any, offsets: Any,
                            value: Any) -> None:
    """`desc.store(offsets, value)`, as a function."""
    _descriptor(desc, "tl.store_tensor_descriptor")
    desc.store(offsets, value, _builder=builder)


def _descriptor(value: Any, what: str) -> None:
    if not isinstance(value, tensor_descriptor):
        raise TileError(f"{what} needs a tensor descriptor (tl.make_tensor_descriptor or a "
                        f"TensorDescriptor argument), got {type(value).__name__}")


# The builtins `tile.language` exports (the interpreter uses them as they are).
BUILTINS = {"make_tensor_descriptor": make_tensor_descriptor,
            "make_block_ptr": make_block_ptr, "advance": advance,
            "load_tensor_descriptor": load_tensor_descriptor,
            "store_tensor_descriptor": store_tensor_descriptor}

__all__ = ["BlockShape", "tensor_descriptor", "block_pointer", "make_tensor_descriptor", "make_block_ptr",
           "advance", "load_block_pointer", "store_block_pointer", "dual_builtin",
           "load_tensor_descriptor", "store_tensor_descriptor"]
