"""The one module that knows tile IR syntax.

The frontend builds a kernel only through `Builder`'s methods: one per op (or
op family), each taking typed `Value`s, checking what the op's verifier would
check, computing the result type and appending the op's text at the insertion
point. No other module formats op text, so a new op is added here alone.

Values are typed (`dtype`, `pointer_type`, `block_type`); block shapes are
validated when their type is made (`types.block_type`), with exact integer
arithmetic, so no malformed type ever reaches MLIR's parser. Operations with
regions hold nested `Block`s that are rendered when the module is printed.
SSA names come from one counter per kernel, so they are unique whatever the
emission order.
"""
from __future__ import annotations

import math
import struct
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, NamedTuple, Sequence, Union

from ..errors import TileError
from ..language.types import block_type, dtype, pointer_type
from ..language import float8
from ..language import types as T

IRType = Union[dtype, block_type]


@dataclass(frozen=True)
class Value:
    """An SSA value: its name in the text (`%4`, `%7#1`, `%arg0`) and its type."""
    name: str
    type: IRType

    def __str__(self) -> str:
        return self.name


@dataclass
class Block:
    """A block of operations. `args` are printed as a `^bb0(...)` label only
    when `labelled` (regions whose op header does not declare them)."""
    args: list[Value] = field(default_factory=list)
    items: list[Union[str, "Operation"]] = field(default_factory=list)
    labelled: bool = False

    def render(self, indent: str) -> str:
        lines = ["{"]
        if self.labelled and self.args:
            params = ", ".join(f"{a.name}: {a.type.to_ir()}" for a in self.args)
            lines.append(f"{indent}^bb0({params}):")
        for item in self.items:
            text = item if isinstance(item, str) else item.render(indent + "  ")
            lines.append(f"{indent}  {text}")
        lines.append(f"{indent}}}")
        return "\n".join(lines)


@dataclass
class Operation:
    """An op whose text is interleaved with regions: `parts` alternates text and blocks."""
    parts: list[Union[str, Block]]

    def render(self, indent: str) -> str:
        return "".join(p if isinstance(p, str) else p.render(indent) for p in self.parts)


# ----------------------------------------------------------------------------
# Literals and locations
# ----------------------------------------------------------------------------

def quote(text: str) -> str:
    """An MLIR string literal. Bytes outside printable ASCII (control
    characters, UTF-8 sequences) are `\\HH` escapes, which MLIR's lexer reads
    back as the same bytes."""
    out = []
    for byte in text.encode("utf-8", errors="surrogateescape"):
        char = chr(byte)
        if char in '"\\' or not 0x20 <= byte < 0x7F:
            out.append(f"\\{byte:02X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def file_loc(filename: str, line: int, col: int) -> str:
    return f"loc({quote(filename)}:{line}:{col})"


def callsite_loc(callee: str, caller: str) -> str:
    """`callee` (a location inside an inlined function) called from `caller`."""
    return f"loc(callsite({callee[4:-1]} at {caller[4:-1]}))"


def name_loc(name: str, loc: str) -> str:
    """A NameLoc: `name` at `loc` (kernel parameters carry their names so)."""
    return f"loc({quote(name)}({loc[4:-1]}))"


def is_symbol_name(name: str) -> bool:
    """Whether `name` can be a kernel symbol as is: MLIR bare identifiers and
    PTX names share `[A-Za-z_][A-Za-z0-9_$]*`."""
    return bool(name) and name.isascii() and (name[0].isalpha() or name[0] == "_") \
        and all(c.isalnum() or c in "_$" for c in name)


_NON_FINITE_BITS = {  # (+inf, -inf, nan) bit patterns, as MLIR hex float literals
    "f16": ("0x7C00", "0xFC00", "0x7E00"),
    "bf16": ("0x7F80", "0xFF80", "0x7FC0"),
    "f32": ("0x7F800000", "0xFF800000", "0x7FC00000"),
    "f64": ("0x7FF0000000000000", "0xFFF0000000000000", "0x7FF8000000000000"),
    "f8E4M3FN": (None, None, "0x7F"),  # no infinities: constants saturate
    "f8E5M2": (None, None, "0x7F"),
}


def round_float(value: float, ty: dtype) -> float:
    """`value` rounded to nearest (even) in `ty`; overflow gives +-inf, as a
    cast would (MLIR's parser rejects a literal that does not fit)."""
    value = float(value)
    if ty.is_fp8():  # through f32, saturating, as a conversion on the GPU
        return float8.round_to(value, float8.FORMATS[ty.name])
    if not math.isfinite(value) or ty.mlir == "f64":
        return value
    if ty.mlir in ("f16", "f32"):
        code = "e" if ty.mlir == "f16" else "f"
        try:
            return struct.unpack(code, struct.pack(code, value))[0]
        except OverflowError:
            return math.copysign(math.inf, value)
    # bf16: the top half of the f32 bits, rounded to nearest even.
    f32 = round_float(value, T.float32)
    if not math.isfinite(f32):
        return f32
    bits = struct.unpack("<I", struct.pack("<f", f32))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def float_literal(value: float, ty: dtype) -> str:
    """MLIR float literal text: decimal with a '.', or hex bits for inf/nan."""
    value = round_float(value, ty)
    if math.isnan(value):
        return _NON_FINITE_BITS[ty.mlir][2]
    if math.isinf(value):
        return _NON_FINITE_BITS[ty.mlir][0 if value > 0 else 1]
    text = repr(value)  # the shortest form that round-trips in f64, or shorter
    # Text that gives the same value in `ty` (0.01, not 0.00999...); fp8
    # values are short and exact as they are (MLIR would round 0.3 itself).
    if ty.mlir != "f64" and not ty.is_fp8():
        for digits in range(1, 18):
            short = repr(float(f"{value:.{digits}g}"))
            if round_float(float(short), ty) == value:
                text = short if len(short) < len(text) else text
                break
    if "e" in text and "." not in text:
        text = text.replace("e", ".0e")
    elif "." not in text:
        text += ".0"
    return text


def int_range(ty: dtype) -> tuple[int, int]:
    bits = ty.primitive_bitwidth
    if ty.is_bool():
        return 0, 1
    if ty.is_int_unsigned():
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def int_literal(value: int, ty: dtype) -> str:
    """The signless bit pattern of `value` in `ty` as MLIR prints it (uint32
    0xFFFFFFFF is -1). Values outside both the signed and the unsigned range
    of the width are an error, not silently wrapped."""
    bits = ty.primitive_bitwidth
    if not -(1 << (bits - 1)) <= value < (1 << bits):
        raise TileError(f"the constant {value} does not fit in {ty} ({bits} bits)")
    if value >= 1 << (bits - 1):
        value -= 1 << bits
    return str(value)


def _attr_literal(value: Any, ty: dtype) -> str:
    if ty.is_floating():
        return float_literal(float(value), ty)
    if ty.is_bool():
        return "true" if value else "false"
    return int_literal(int(value), ty)


# ----------------------------------------------------------------------------
# Elementwise ops: operand kind and the dialect of their scalar form
# ----------------------------------------------------------------------------

# name -> (operand kind, dialect of the scalar op; None: no scalar op of that name)
_INT, _FLOAT = "integer", "float"
BINARY_OPS: dict[str, tuple[str, str | None]] = {
    **{op: (_INT, "arith") for op in (
        "addi", "subi", "muli", "divsi", "divui", "remsi", "remui", "minsi", "maxsi",
        "minui", "maxui", "andi", "ori", "xori", "shli", "shrsi", "shrui")},
    **{op: (_FLOAT, "arith") for op in (
        "addf", "subf", "mulf", "divf", "remf", "minimumf", "maximumf", "minnumf",
        "maxnumf")},
    "powf": (_FLOAT, "math"),
}
UNARY_OPS: dict[str, tuple[str, str | None]] = {
    "negf": (_FLOAT, "arith"),
    "noti": (_INT, None),  # scalars: xori with all ones
    "absi": (_INT, None),  # scalars: max(x, 0 - x) (math.absi has no NVVM lowering)
    **{op: (_FLOAT, "math") for op in (
        "absf", "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "floor", "ceil", "sin", "cos")},
}
INT_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
FLOAT_PREDICATES = ("oeq", "one", "olt", "ole", "ogt", "oge", "ord",
                    "ueq", "une", "ult", "ule", "ugt", "uge", "uno")
# maxnum/minnum: float max/min ignoring NaN (tile.maxnumf), as Triton's tl.max/tl.min;
# umax/umin: unsigned integer max/min.
COMBINE_KINDS = ("sum", "max", "min", "custom", "maxnum", "minnum", "umax", "umin")
FLOAT_COMBINE_KINDS = ("maxnum", "minnum")
INTEGER_COMBINE_KINDS = ("umax", "umin")
# PTX cache operators of tile.load and tile.store.
LOAD_CACHE_OPERATORS = ("ca", "cg", "cv")
STORE_CACHE_OPERATORS = ("wb", "cg", "cs", "wt")


class Box(NamedTuple):
    """A load's or store's box of a tensor map: one i32 coordinate per tensor
    dimension (outermost first), and for each block dimension the tensor
    dimension it runs along (`dims`; None: in order)."""
    tensor_map: Value
    coords: Sequence[Value]
    dims: Sequence[int] | None = None


def _attr_dict(attrs: list[str]) -> str:
    return f" {{{', '.join(attrs)}}}" if attrs else ""


def _require(condition: bool, message: str) -> None:
    """An op's own well-formedness: the frontend's semantic layer guarantees
    it, so a failure names the op (it would otherwise fail in MLIR's parser,
    far from the user's code)."""
    if not condition:
        raise TileError(message)


def _kind_ok(ty: dtype, kind: str) -> bool:
    return ty.is_floating() if kind == _FLOAT else (ty.is_int() and not ty.is_ptr())


def _element(ty: IRType) -> dtype:
    return ty.element_ty if isinstance(ty, block_type) else ty


def _combines(kind: str, element: dtype) -> bool:
    """Whether reductions and scans of `kind` take elements of `element`."""
    if kind in FLOAT_COMBINE_KINDS:
        return element.is_floating()
    return kind in COMBINE_KINDS and (kind not in INTEGER_COMBINE_KINDS or element.is_int())


def _shape(ty: IRType) -> tuple[int, ...]:
    return ty.shape if isinstance(ty, block_type) else ()


def _like(ty: IRType, element: dtype) -> IRType:
    """`ty`'s shape (block or scalar) with another element type."""
    return block_type(element, ty.shape) if isinstance(ty, block_type) else element


def _yield_text(op: str, values: Sequence[Value]) -> str:
    if not values:
        return op
    return (f"{op} {', '.join(v.name for v in values)} : "
            f"{', '.join(v.type.to_ir() for v in values)}")


class Builder:
    """Appends operations at an insertion point; every op gets `self.loc`."""

    def __init__(self, debug: bool = False, num_warps: int = 4, tma: bool = False) -> None:
        self._counter = 0
        # The kernel's warps (tl.extra.cuda.num_warps() reads it).
        self.num_warps = num_warps
        # Whether host descriptors' loads name their boxes of the TMA maps
        # (tile.knobs.compilation.tma), so that the compiler copies them with TMA.
        self.tma = tma
        self.block = Block()
        self.loc = "loc(unknown)"
        # Device assertions are emitted only with debugging on (Triton's rule).
        self.debug = debug
        # Set by the code generator: inlines a @tile.jit function on values
        # (used by builtins that take combine functions, e.g. tl.reduce).
        self.call_jit: Callable[[Any, list[Any]], Any] | None = None

    # -- infrastructure -------------------------------------------------------

    def fresh_name(self) -> str:
        name = f"%{self._counter}"
        self._counter += 1
        return name

    def new_block(self, types: Sequence[IRType], labelled: bool = False) -> Block:
        return Block(args=[Value(self.fresh_name(), t) for t in types], labelled=labelled)

    @contextmanager
    def insertion_point(self, block: Block) -> Iterator[Block]:
        saved = self.block
        self.block = block
        try:
            yield block
        finally:
            self.block = saved

    @contextmanager
    def location(self, loc: str) -> Iterator[None]:
        saved = self.loc
        self.loc = loc
        try:
            yield
        finally:
            self.loc = saved

    def mark(self) -> tuple[Block, int]:
        """A point to roll back to (`rollback`): ops emitted after it are dropped."""
        return self.block, len(self.block.items)

    def rollback(self, mark: tuple[Block, int]) -> None:
        block, length = mark
        del block.items[length:]
        self.block = block

    def _op(self, text: str, result_type: IRType) -> Value:
        name = self.fresh_name()
        self.block.items.append(f"{name} = {text} {self.loc}")
        return Value(name, result_type)

    def _void(self, text: str) -> None:
        self.block.items.append(f"{text} {self.loc}")

    def _region_op(self, parts: list[Union[str, Block]],
                   result_types: Sequence[IRType]) -> list[Value]:
        """An op with regions; `parts` is its text after `%n = ` with the
        regions in place. Several results are named `%n#i`."""
        prefix = ""
        results: list[Value] = []
        if result_types:
            name = self.fresh_name()
            if len(result_types) == 1:
                prefix = f"{name} = "
                results = [Value(name, result_types[0])]
            else:
                prefix = f"{name}:{len(result_types)} = "
                results = [Value(f"{name}#{i}", t) for i, t in enumerate(result_types)]
        self.block.items.append(Operation([prefix, *parts, f" {self.loc}"]))
        return results

    # -- constants ------------------------------------------------------------

    def constant(self, value: Any, ty: IRType) -> Value:
        """A scalar `arith.constant` or a splat `tile.constant` block."""
        element = _element(ty)
        _require(not element.is_ptr(), f"there are no pointer constants ({ty})")
        if isinstance(ty, dtype):
            if ty.is_bool():
                return self._op(f"arith.constant {_attr_literal(value, ty)}", ty)
            return self._op(f"arith.constant {_attr_literal(value, ty)} : {ty.mlir}", ty)
        if element.is_floating() and not math.isfinite(round_float(value, element)):
            # Hex literals are not splat values in `dense<...>`: splat a scalar instead.
            return self.splat(self.constant(value, element), ty.shape)
        return self._op(f"tile.constant dense<{_attr_literal(value, element)}> : "
                        f"{ty.to_ir()}", ty)

    # -- program identity and block creation ----------------------------------

    def program_id(self, axis: int) -> Value:
        _require(axis in (0, 1, 2), f"program_id axis must be 0, 1 or 2, got {axis}")
        return self._op(f"tile.program_id {axis} : i32", T.int32)

    def num_programs(self, axis: int) -> Value:
        _require(axis in (0, 1, 2), f"num_programs axis must be 0, 1 or 2, got {axis}")
        return self._op(f"tile.num_programs {axis} : i32", T.int32)

    def arange(self, start: int, end: int) -> Value:
        lo, hi = int_range(T.int32)
        for what, bound in (("start", start), ("end", end)):
            _require(lo <= bound <= hi, f"arange's {what} {bound} does not fit in int32 "
                     f"({lo} to {hi})")
        _require(end > start, f"arange({start}, {end}) is empty: end must be greater "
                 "than start")
        ty = block_type(T.int32, [end - start])
        return self._op(f"tile.arange {start}, {end} : {ty.to_ir()}", ty)

    # -- shapes ---------------------------------------------------------------

    def splat(self, x: Value, shape: Sequence[int]) -> Value:
        _require(not isinstance(x.type, block_type), "tile.splat takes a scalar")
        ty = block_type(x.type, shape)
        return self._op(f"tile.splat {x} : {x.type.to_ir()} -> {ty.to_ir()}", ty)

    def expand_dims(self, x: Value, axis: int) -> Value:
        shape = list(_shape(x.type))
        _require(isinstance(x.type, block_type) and 0 <= axis <= len(shape),
                 f"expand_dims axis {axis} is out of range for a block of rank {len(shape)}")
        ty = block_type(_element(x.type), shape[:axis] + [1] + shape[axis:])
        return self._op(f"tile.expand_dims {x} {{axis = {axis} : i32}} : "
                        f"{x.type.to_ir()} -> {ty.to_ir()}", ty)

    def broadcast(self, x: Value, shape: Sequence[int]) -> Value:
        ty = block_type(_element(x.type), shape)
        source = _shape(x.type)
        _require(len(source) == len(ty.shape) and all(
            s in (1, t) for s, t in zip(source, ty.shape)),
            f"cannot broadcast a block of shape {'x'.join(map(str, source))} to "
            f"{'x'.join(map(str, ty.shape))}")
        return self._op(f"tile.broadcast {x} : {x.type.to_ir()} -> {ty.to_ir()}", ty)

    def reshape(self, x: Value, shape: Sequence[int]) -> Value:
        ty = block_type(_element(x.type), shape)
        _require(isinstance(x.type, block_type) and x.type.numel == ty.numel,
                 f"cannot reshape {x.type} to {ty}: the element counts differ")
        return self._op(f"tile.reshape {x} : {x.type.to_ir()} -> {ty.to_ir()}", ty)

    def trans(self, x: Value, order: Sequence[int] | None) -> Value:
        shape = _shape(x.type)
        perm = list(order) if order else list(reversed(range(len(shape))))
        _require(isinstance(x.type, block_type) and sorted(perm) == list(range(len(shape))),
                 f"trans order {perm} is not a permutation of the {len(shape)} dimensions")
        ty = block_type(_element(x.type), [shape[p] for p in perm])
        reversed_order = list(reversed(range(len(shape))))  # tile.trans's default
        attr = "" if perm == reversed_order else \
            f" {{order = array<i32: {', '.join(map(str, perm))}>}}"
        return self._op(f"tile.trans {x}{attr} : {x.type.to_ir()} -> {ty.to_ir()}", ty)

    # -- memory ---------------------------------------------------------------

    def addptr(self, ptr: Value, offset: Value) -> Value:
        _require(_element(ptr.type).is_ptr() and _kind_ok(_element(offset.type), _INT)
                 and _shape(ptr.type) == _shape(offset.type),
                 f"tile.addptr needs pointers and integer offsets of one shape, got "
                 f"{ptr.type} and {offset.type}")
        return self._op(f"tile.addptr {ptr}, {offset} : {ptr.type.to_ir()}, "
                        f"{offset.type.to_ir()}", ptr.type)

    def _check_mask(self, ptr: Value, mask: Value | None) -> str:
        if mask is None:
            return ""
        _require(mask.type == _like(ptr.type, T.int1),
                 f"a mask must be {_like(ptr.type, T.int1)}, got {mask.type}")
        return f" mask {mask}"

    @staticmethod
    def _hints(cache: str | None, evict: str | None, volatile: bool,
               operators: tuple[str, ...], sem: str | None = None,
               scope: str | None = None) -> list[str]:
        """The attributes of a load's or store's cache hints or memory order
        (see tile.load)."""
        _require(cache is None or cache in operators,
                 f"cache operator {cache!r} is not one of {', '.join(operators)}")
        _require(evict in (None, "evict_first", "evict_last"),
                 f"eviction priority {evict!r} is not evict_first or evict_last")
        _require(not (cache and evict) and not (volatile and (cache or evict)),
                 "PTX cannot combine a cache operator, an eviction priority or volatile")
        _require((sem is None) == (scope is None) and not (sem and (cache or evict or volatile)),
                 "an atomic load or store takes a sem and a scope and no other hint")
        attrs = ([f"cache = {quote(cache)}"] if cache else []) + \
            ([f"evict = {quote(evict)}"] if evict else []) + \
            (["is_volatile"] if volatile else []) + \
            ([f"sem = #tile<sem {sem}>", f"scope = #tile<scope {scope}>"] if sem else [])
        return attrs

    def load(self, ptr: Value, mask: Value | None = None, other: Value | None = None,
             cache: str | None = None, evict: str | None = None,
             volatile: bool = False, sem: str | None = None,
             scope: str | None = None,
             box: Box | None = None) -> Value:
        """`box`: when the block is that box of a tensor map's tensor (see
        tile.load)."""
        _require(_element(ptr.type).is_ptr(), f"tile.load needs pointers, got {ptr.type}")
        result_type = _like(ptr.type, _element(ptr.type).element_ty)  # type: ignore[attr-defined]
        text = self._check_mask(ptr, mask)
        if other is not None:
            _require(mask is not None and other.type == result_type,
                     f"`other` must be {result_type} and needs a mask, got {other.type}")
            text += f" other {other}"
        box_text, attrs = self._box(ptr, box)
        attrs += self._hints(cache, evict, volatile, LOAD_CACHE_OPERATORS, sem, scope)
        return self._op(f"tile.load {ptr}{text}{box_text}{_attr_dict(attrs)} : "
                        f"{ptr.type.to_ir()}", result_type)

    @staticmethod
    def _box(ptr: Value, box: Box | None) -> tuple[str, list[str]]:
        """A load's or store's `tensor_map %map[coords]` and its `map_dims`
        attribute (see tile.load)."""
        if box is None:
            return "", []
        _require(box.tensor_map.type == T.tensor_map and isinstance(ptr.type, block_type)
                 and len(box.coords) == len(ptr.type.shape)
                 and all(c.type == T.int32 for c in box.coords),
                 "a tensor map box takes a block and one i32 coordinate per dimension")
        rank = len(box.coords)
        dims = tuple(box.dims) if box.dims is not None else tuple(range(rank))
        _require(sorted(dims) == list(range(rank)),
                 f"map_dims must be a permutation of {rank} dimensions, got {list(dims)}")
        attrs = [] if dims == tuple(range(rank)) else \
            [f"map_dims = array<i64: {', '.join(str(d) for d in dims)}>"]
        coords = ", ".join(str(c) for c in box.coords)
        return f" tensor_map {box.tensor_map}[{coords}]", attrs

    def make_tensor_map(self, base: Value, shape: Sequence[Value],
                        strides: Sequence[Value]) -> Value:
        """`tile.make_tensor_map`: the TMA map of the tensor at `base` with
        `shape` (i32) and `strides` (i64), outermost first, the last 1."""
        _require(isinstance(base.type, pointer_type) and 1 <= len(shape) <= 5
                 and len(strides) == len(shape)
                 and all(v.type == T.int32 for v in shape)
                 and all(v.type == T.int64 for v in strides),
                 "a tensor map takes a pointer, 1 to 5 i32 extents and as many i64 strides")
        return self._op(f"tile.make_tensor_map {base}[{', '.join(str(v) for v in shape)}], "
                        f"[{', '.join(str(v) for v in strides)}] : {base.type.to_ir()}",
                        T.tensor_map)

    def store(self, ptr: Value, value: Value, mask: Value | None = None,
              cache: str | None = None, evict: str | None = None,
              volatile: bool = False, sem: str | None = None,
              scope: str | None = None,
              box: Box | None = None) -> None:
        """`box`: as in `load`, the block is that box of the map's tensor."""
        _require(_element(ptr.type).is_ptr(), f"tile.store needs pointers, got {ptr.type}")
        expected = _like(ptr.type, _element(ptr.type).element_ty)  # type: ignore[attr-defined]
        _require(value.type == expected, f"the stored value must be {expected}, got {value.type}")
        text = self._check_mask(ptr, mask)
        box_text, attrs = self._box(ptr, box)
        attrs += self._hints(cache, evict, volatile, STORE_CACHE_OPERATORS, sem, scope)
        self._void(f"tile.store {ptr}, {value}{text}{box_text}{_attr_dict(attrs)} : "
                   f"{ptr.type.to_ir()}")

    def atomic_rmw(self, kind: str, ptr: Value, value: Value, mask: Value | None,
                   sem: str, scope: str) -> Value:
        _require(_element(ptr.type).is_ptr(), f"tile.atomic_rmw needs pointers, got {ptr.type}")
        result_type = _like(ptr.type, _element(ptr.type).element_ty)  # type: ignore[attr-defined]
        _require(value.type == result_type,
                 f"the atomic's value must be {result_type}, got {value.type}")
        text = self._check_mask(ptr, mask)
        return self._op(f"tile.atomic_rmw {kind} {sem} {scope} {ptr}, {value}{text} : "
                        f"{ptr.type.to_ir()}", result_type)

    def atomic_cas(self, ptr: Value, cmp: Value, value: Value, sem: str, scope: str) -> Value:
        _require(_element(ptr.type).is_ptr(), f"tile.atomic_cas needs pointers, got {ptr.type}")
        result_type = _like(ptr.type, _element(ptr.type).element_ty)  # type: ignore[attr-defined]
        _require(cmp.type == result_type and value.type == result_type,
                 f"cmp and value must be {result_type}, got {cmp.type} and {value.type}")
        return self._op(f"tile.atomic_cas {sem} {scope} {ptr}, {cmp}, {value} : "
                        f"{ptr.type.to_ir()}", result_type)

    # -- elementwise ----------------------------------------------------------

    def binary(self, op: str, x: Value, y: Value) -> Value:
        """`tile.<op>` on blocks, `arith.<op>` (or `math.`) on scalars; the
        operands have one type, which is the result's."""
        kind, dialect = BINARY_OPS[op]
        _require(x.type == y.type and _kind_ok(_element(x.type), kind),
                 f"{op} needs two {kind} operands of one type, got {x.type} and {y.type}")
        prefix = "tile" if isinstance(x.type, block_type) else dialect
        return self._op(f"{prefix}.{op} {x}, {y} : {x.type.to_ir()}", x.type)

    def unary(self, op: str, x: Value) -> Value:
        kind, dialect = UNARY_OPS[op]
        _require(_kind_ok(_element(x.type), kind), f"{op} needs a {kind} operand, got {x.type}")
        if isinstance(x.type, block_type):
            return self._op(f"tile.{op} {x} : {x.type.to_ir()}", x.type)
        if op == "noti":
            ones = self.constant(1 if x.type.is_bool() else -1, x.type)
            return self.binary("xori", x, ones)
        if op == "absi":
            negated = self.binary("subi", self.constant(0, x.type), x)
            return self.binary("maxsi", x, negated)
        return self._op(f"{dialect}.{op} {x} : {x.type.to_ir()}", x.type)

    def fma(self, a: Value, b: Value, c: Value) -> Value:
        _require(a.type == b.type == c.type and _element(a.type).is_floating(),
                 f"fma needs three float operands of one type, got {a.type}, {b.type}, {c.type}")
        prefix = "tile" if isinstance(a.type, block_type) else "math"
        return self._op(f"{prefix}.fma {a}, {b}, {c} : {a.type.to_ir()}", a.type)

    def compare(self, predicate: str, x: Value, y: Value) -> Value:
        """`cmpf` on floats, `cmpi` on integers; the result is i1 (or a block of i1)."""
        element = _element(x.type)
        is_float = element.is_floating()
        _require(x.type == y.type and not element.is_ptr()
                 and predicate in (FLOAT_PREDICATES if is_float else INT_PREDICATES),
                 f"cannot compare {x.type} and {y.type} with predicate {predicate}")
        kind = "cmpf" if is_float else "cmpi"
        prefix = "tile" if isinstance(x.type, block_type) else "arith"
        return self._op(f"{prefix}.{kind} {predicate}, {x}, {y} : {x.type.to_ir()}",
                        _like(x.type, T.int1))

    def select(self, condition: Value, x: Value, y: Value) -> Value:
        _require(x.type == y.type and condition.type == _like(x.type, T.int1),
                 f"select needs an i1 condition shaped like two values of one type, got "
                 f"{condition.type}, {x.type} and {y.type}")
        prefix = "tile" if isinstance(x.type, block_type) else "arith"
        return self._op(f"{prefix}.select {condition}, {x}, {y} : {x.type.to_ir()}", x.type)

    def retype(self, x: Value, element: dtype) -> Value:
        """The same bits read with another signedness: no op is emitted."""
        _require(_element(x.type).mlir == element.mlir, f"cannot retype {x.type} as {element}")
        return Value(x.name, _like(x.type, element))

    def cast(self, x: Value, to: dtype, toward_zero: bool = False) -> Value:
        """Value conversion of each element (`tile.cast` on blocks and 8-bit
        floats, `arith` casts on other scalars); signedness comes from the dtypes. `toward_zero`
        rounds a float narrowed to `to` toward zero (`tile.cast {rtz}`)."""
        src = _element(x.type)
        _require(not src.is_ptr() and not to.is_ptr(),
                 f"cannot cast {src} to {to}: use int_to_ptr, ptr_to_int or bitcast")
        _require(not toward_zero or (src.is_floating() and to.is_floating()
                                     and to.primitive_bitwidth < src.primitive_bitwidth),
                 f"rounding toward zero applies to float downcasts, not {src} to {to}")
        result_type = _like(x.type, to)
        # (arith has no 8-bit float conversion the GPU lowering could take.)
        if isinstance(x.type, block_type) or toward_zero or src.is_fp8() or to.is_fp8():
            attrs = [name for name, present in (
                ("unsigned_src", src.is_int_unsigned() and not src.is_bool()),
                ("unsigned_dst", src.is_floating() and to.is_int_unsigned() and not to.is_bool()),
                ("rtz", toward_zero)) if present]
            attr_text = f" {{{', '.join(attrs)}}}" if attrs else ""
            return self._op(f"tile.cast {x}{attr_text} : {x.type.to_ir()} to "
                            f"{result_type.to_ir()}", result_type)
        if to.is_bool():
            zero = self.constant(0, src)
            return self.compare("une" if src.is_floating() else "ne", x, zero)
        if src.is_int() and to.is_int():
            if to.primitive_bitwidth > src.primitive_bitwidth:
                op = "extui" if src.is_int_unsigned() else "extsi"
            else:
                op = "trunci"
        elif src.is_int() and to.is_floating():
            op = "uitofp" if src.is_int_unsigned() else "sitofp"
        elif src.is_floating() and to.is_int():
            op = "fptoui" if to.is_int_unsigned() else "fptosi"
        elif src.primitive_bitwidth == to.primitive_bitwidth:  # f16 <-> bf16 through f32
            return self.cast(self.cast(x, T.float32), to)
        else:
            op = "extf" if to.primitive_bitwidth > src.primitive_bitwidth else "truncf"
        return self._op(f"arith.{op} {x} : {src.mlir} to {to.mlir}", to)

    def bitcast(self, x: Value, to: dtype) -> Value:
        """The same bits as another element type of the same width (pointers
        are 64 bits; a pointer only becomes another pointer)."""
        src = _element(x.type)
        _require(src.primitive_bitwidth == to.primitive_bitwidth and src.is_ptr() == to.is_ptr()
                 and not src.is_bool(), f"cannot bitcast {src} to {to}")
        result_type = _like(x.type, to)
        if isinstance(x.type, block_type) or src.is_ptr():
            return self._op(f"tile.bitcast {x} : {x.type.to_ir()} to {result_type.to_ir()}",
                            result_type)
        return self._op(f"arith.bitcast {x} : {src.mlir} to {to.mlir}", to)

    def int_to_ptr(self, x: Value, to: pointer_type) -> Value:
        _require(_element(x.type).mlir == "i64" and to.is_ptr(),
                 f"int_to_ptr takes 64-bit integers, not {x.type}")
        result_type = _like(x.type, to)
        return self._op(f"tile.int_to_ptr {x} : {x.type.to_ir()} to {result_type.to_ir()}",
                        result_type)

    def ptr_to_int(self, x: Value) -> Value:
        _require(_element(x.type).is_ptr(), f"ptr_to_int takes pointers, not {x.type}")
        result_type = _like(x.type, T.int64)
        return self._op(f"tile.ptr_to_int {x} : {x.type.to_ir()} to {result_type.to_ir()}",
                        result_type)

    def extern(self, symbol: str, args: Sequence[Value], result: dtype) -> Value:
        """A call of the pure device function `symbol` (libdevice) on each
        element; the arguments have one shape, the result that shape."""
        shapes = {_shape(a.type) for a in args}
        _require(is_symbol_name(symbol) and len(shapes) <= 1
                 and not any(_element(a.type).is_ptr() for a in args),
                 f"malformed call of {symbol!r} on {[str(a.type) for a in args]}")
        shape = shapes.pop() if shapes else ()
        result_type = block_type(result, shape) if shape else result
        types = ", ".join(a.type.to_ir() for a in args)
        return self._op(f"tile.extern_elementwise {quote(symbol)}"
                        f"({', '.join(a.name for a in args)}) : ({types}) -> "
                        f"{result_type.to_ir()}", result_type)

    def hint(self, x: Value, fact: str, values: Sequence[int]) -> Value:
        """`tile.hint`: a fact (divisibility, contiguity or constancy, one
        value per dimension) the axis analysis takes for `x`'s elements."""
        _require(fact in ("divisibility", "contiguity", "constancy")
                 and len(values) == max(1, len(_shape(x.type)))
                 and all(isinstance(v, int) and v > 0 for v in values),
                 f"malformed {fact} hint {list(values)} for {x.type}")
        facts = ", ".join(str(v) for v in values)
        return self._op(f"tile.hint {x} {fact} [{facts}] : {x.type.to_ir()}", x.type)

    def assume(self, condition: Value) -> None:
        """`llvm.intr.assume`: LLVM (and the axis analysis) may take `condition` as true."""
        _require(condition.type == T.int1, f"an assumption is an i1, not {condition.type}")
        self._void(f"llvm.intr.assume {condition} : i1")

    def inline_asm(self, asm: str, constraints: str, args: Sequence[Value],
                   result_types: Sequence[IRType], pure: bool, pack: int) -> list[Value]:
        """`tile.inline_asm`: user PTX over `pack` elements at a time."""
        _require(bool(result_types) and pack >= 1, "malformed inline_asm")
        attrs = f"pack = {pack} : i32" + (", pure" if pure else "")
        operands = " " + ", ".join(str(a) for a in args) if args else ""
        types = f"({', '.join(a.type.to_ir() for a in args)}) -> " \
            f"({', '.join(t.to_ir() for t in result_types)})"
        text = f"tile.inline_asm {quote(asm)}, {quote(constraints)}{operands} {{{attrs}}} : {types}"
        if len(result_types) == 1:
            return [self._op(text, result_types[0])]
        name = self.fresh_name()
        self.block.items.append(f"{name}:{len(result_types)} = {text} {self.loc}")
        return [Value(f"{name}#{i}", t) for i, t in enumerate(result_types)]

    def map_region(self, elements: Sequence[dtype], pack: int) -> Block:
        """The region of a `tile.map_elementwise` over operands of `elements`:
        `pack` scalars of each operand in turn; fill it, then end it with
        `combine_yield` (`pack` scalars of each result in turn)."""
        return self.new_block([e for e in elements for _ in range(pack)], labelled=True)

    def map_elementwise(self, args: Sequence[Value], result_types: Sequence[IRType],
                        pack: int, body: Block) -> list[Value]:
        """`tile.map_elementwise`: `body` (from `map_region`) once per `pack`
        elements of `args`, which have the results' shape."""
        shape = list(_shape(result_types[0])) if result_types else []
        _require(bool(args) and bool(result_types) and pack >= 1
                 and all(list(_shape(v.type)) == shape for v in args)
                 and all(list(_shape(t)) == shape for t in result_types)
                 and (pack == 1 or bool(shape)),
                 f"malformed map_elementwise of {', '.join(str(a.type) for a in args)} "
                 f"to {', '.join(str(t) for t in result_types)} with pack {pack}")
        header = (f"tile.map_elementwise {', '.join(str(a) for a in args)} "
                  f"{{pack = {pack} : i32}} : ({', '.join(a.type.to_ir() for a in args)}) -> "
                  f"({', '.join(t.to_ir() for t in result_types)}) ")
        return self._region_op([header, body], result_types)

    # -- debugging ------------------------------------------------------------

    def print_values(self, prefix: str, values: Sequence[Value], is_signed: Sequence[bool],
                     hex: bool) -> None:
        """`tile.print`: printf from the device."""
        _require(len(is_signed) == len(values), "one signedness flag per printed value")
        flags = ", ".join("true" if s else "false" for s in is_signed)
        text = f"tile.print {quote(prefix)}" + (" hex" if hex else "")
        if values:
            text += " " + ", ".join(str(v) for v in values)
        text += f" {{is_signed = array<i1{': ' + flags if flags else ''}>}}"
        if values:
            text += " : " + ", ".join(v.type.to_ir() for v in values)
        self._void(text)

    def assert_(self, condition: Value, message: str) -> None:
        """`tile.assert`: the kernel stops where `condition` is false."""
        _require(_element(condition.type) == T.int1, f"an assertion is on i1, not {condition.type}")
        self._void(f"tile.assert {condition}, {quote(message)} : "
                   f"{condition.type.to_ir()}")

    def barrier(self) -> None:
        """`tile.barrier`: every thread of the program waits for the others."""
        self._void("tile.barrier")

    # -- reductions, scans, dot ----------------------------------------------

    def combine_region(self, elements: Sequence[dtype]) -> Block:
        """The region of a custom reduce/scan over blocks of `elements`:
        `^bb0(%a..., %b...)` (the earlier element of each block, then the
        later one); fill it, then end it with `combine_yield`."""
        return self.new_block([*elements, *elements], labelled=True)

    def combine_yield(self, values: Sequence[Value]) -> None:
        """`tile.yield` of scalars: the end of a combine or map region."""
        _require(all(not isinstance(v.type, block_type) for v in values),
                 "a combine function must return scalars")
        self._void(_yield_text("tile.yield", values))

    def _combine_operands(self, what: str, kind: str, xs: Sequence[Value], axis: int,
                          combine: Block | None) -> list[int]:
        """The common shape of a reduce's or scan's operands, checked."""
        shape = list(_shape(xs[0].type)) if xs else []
        _require(bool(xs) and all(_combines(kind, _element(x.type)) for x in xs)
                 and all(list(_shape(x.type)) == shape for x in xs)
                 and (len(xs) == 1 or kind == "custom") and 0 <= axis < len(shape)
                 and (combine is not None) == (kind == "custom"),
                 f"malformed {what} {kind} over axis {axis} of "
                 f"{', '.join(str(x.type) for x in xs)}")
        return shape

    def reduce(self, kind: str, xs: Sequence[Value], axis: int,
               combine: Block | None = None) -> list[Value]:
        """`tile.reduce` of one block (any kind) or several (`custom`): one
        result per block."""
        shape = self._combine_operands("reduce", kind, xs, axis, combine)
        rest = shape[:axis] + shape[axis + 1:]
        result_types = [block_type(_element(x.type), rest) if rest else _element(x.type)
                        for x in xs]
        header = (f"tile.reduce {kind} {', '.join(str(x) for x in xs)} "
                  f"{{axis = {axis} : i32}} : {', '.join(x.type.to_ir() for x in xs)} -> "
                  f"{', '.join(t.to_ir() for t in result_types)}")
        if combine is None:
            return [self._op(header, result_types[0])]
        return self._region_op([header + " ", combine], result_types)

    def scan(self, kind: str, xs: Sequence[Value], axis: int, reverse: bool,
             combine: Block | None = None) -> list[Value]:
        """`tile.scan` of one block (any kind) or several (`custom`)."""
        self._combine_operands("scan", kind, xs, axis, combine)
        attrs = f"axis = {axis} : i32" + (", reverse" if reverse else "")
        header = (f"tile.scan {kind} {', '.join(str(x) for x in xs)} {{{attrs}}} : "
                  f"{', '.join(x.type.to_ir() for x in xs)}")
        if combine is None:
            return [self._op(header, xs[0].type)]
        return self._region_op([header + " ", combine], [x.type for x in xs])

    def gather(self, src: Value, index: Value, axis: int) -> Value:
        """`tile.gather`: the result has the index's shape."""
        ss, si = _shape(src.type), _shape(index.type)
        _require(len(ss) == len(si) and 0 <= axis < len(ss) and _element(index.type).is_int()
                 and all(a == b for d, (a, b) in enumerate(zip(ss, si)) if d != axis),
                 f"malformed gather of {src.type} by {index.type} along {axis}")
        result = block_type(_element(src.type), list(si))
        return self._op(f"tile.gather {src}[{index}] {{axis = {axis} : i32}} : "
                        f"{src.type.to_ir()}, {index.type.to_ir()} -> {result.to_ir()}", result)

    def histogram(self, src: Value, bins: int, mask: Value | None = None) -> Value:
        """`tile.histogram`: `bins` int32 counts of a rank-1 int32 block."""
        _require(len(_shape(src.type)) == 1 and _element(src.type) == T.int32 and bins > 0
                 and (mask is None or _shape(mask.type) == _shape(src.type)),
                 f"malformed histogram of {src.type} into {bins} bins")
        result = block_type(T.int32, [bins])
        masked = f" mask {mask}" if mask is not None else ""
        types = src.type.to_ir() + (f", {mask.type.to_ir()}" if mask is not None else "")
        return self._op(f"tile.histogram {src}{masked} : {types} -> {result.to_ir()}", result)

    def dot(self, a: Value, b: Value, acc: Value, tf32: bool = False) -> Value:
        """`tile.dot`; `tf32`: f32 inputs may be read as tf32 (tensor cores)."""
        sa, sb, sc = _shape(a.type), _shape(b.type), _shape(acc.type)
        accumulator = {T.int8: T.int32, T.float64: T.float64}.get(_element(a.type), T.float32)
        _require(len(sa) == len(sb) and len(sa) in (2, 3) and sa[:-2] == sb[:-2]
                 and sa[-1] == sb[-2] and sc == (*sa[:-1], sb[-1])
                 and (_element(a.type) == _element(b.type)
                      or (_element(a.type).is_fp8() and _element(b.type).is_fp8()))
                 and _element(acc.type) == accumulator,
                 f"malformed dot of {a.type} and {b.type} into {acc.type}")
        _require(not tf32 or _element(a.type) == T.float32, "tf32 dot of non-f32 inputs")
        attrs = " {tf32}" if tf32 else ""
        return self._op(f"tile.dot {a}, {b}, {acc}{attrs} : {a.type.to_ir()}, "
                        f"{b.type.to_ir()} -> {acc.type.to_ir()}", acc.type)

    # -- control flow ---------------------------------------------------------

    def scf_if(self, condition: Value, then_block: Block, then_values: Sequence[Value],
               else_block: Block, else_values: Sequence[Value]) -> list[Value]:
        """Ends both branches with `scf.yield` and emits the `scf.if`."""
        types = [v.type for v in then_values]
        _require(condition.type == T.int1 and types == [v.type for v in else_values],
                 "malformed scf.if")
        with self.insertion_point(then_block):
            self._void(_yield_text("scf.yield", then_values))
        with self.insertion_point(else_block):
            self._void(_yield_text("scf.yield", else_values))
        type_list = f"-> ({', '.join(t.to_ir() for t in types)}) " if types else ""
        return self._region_op(
            [f"scf.if {condition} {type_list}", then_block, " else ", else_block], types)

    def scf_for(self, lower: Value, upper: Value, step: Value, body: Block,
                inits: Sequence[Value], yielded: Sequence[Value],
                num_stages: int | None = None,
                loop_unroll_factor: int | None = None) -> list[Value]:
        """`body` was made by `new_block([iv type] + carried types)`;
        `num_stages` and `loop_unroll_factor` are tl.range's hints, attributes
        the loop passes read."""
        iv = body.args[0]
        types = [v.type for v in inits]
        _require(lower.type == upper.type == step.type == iv.type
                 and types == [a.type for a in body.args[1:]] == [v.type for v in yielded],
                 "malformed scf.for")
        with self.insertion_point(body):
            self._void(_yield_text("scf.yield", yielded))
        header = f"scf.for {iv} = {lower} to {upper} step {step} "
        if inits:
            pairs = ", ".join(f"{a} = {v}" for a, v in zip(body.args[1:], inits))
            header += f"iter_args({pairs}) -> ({', '.join(t.to_ir() for t in types)}) "
        hints = [f"{name} = {value} : i32" for name, value in
                 (("tile.num_stages", num_stages), ("tile.loop_unroll_factor", loop_unroll_factor))
                 if value is not None]
        attributes = f" {{{', '.join(hints)}}}" if hints else ""
        return self._region_op([header + f": {iv.type.to_ir()} ", body, attributes], types)

    def scf_while(self, inits: Sequence[Value], before: Block, condition: Value,
                  forwarded: Sequence[Value], after: Block,
                  yielded: Sequence[Value]) -> list[Value]:
        """`before` and `after` were made by `new_block` (after `labelled`) with
        the carried types; `before` ends with `scf.condition(condition)`
        forwarding `forwarded` to `after`, which yields `yielded`."""
        types = [v.type for v in inits]
        _require(condition.type == T.int1
                 and types == [a.type for a in before.args] == [v.type for v in forwarded]
                 == [a.type for a in after.args] == [v.type for v in yielded],
                 "malformed scf.while")
        with self.insertion_point(before):
            self._void(_yield_text(f"scf.condition({condition})", forwarded))
        with self.insertion_point(after):
            self._void(_yield_text("scf.yield", yielded))
        type_list = ", ".join(t.to_ir() for t in types)
        pairs = ", ".join(f"{a} = {v}" for a, v in zip(before.args, inits))
        header = f"scf.while ({pairs}) : ({type_list}) -> ({type_list}) " if inits \
            else "scf.while : () -> () "
        return self._region_op([header, before, " do ", after], types)

    def ret(self) -> None:
        self._void("return")

    # -- the kernel -----------------------------------------------------------

    def parameter(self, index: int, ty: dtype) -> Value:
        return Value(f"%arg{index}", ty)

    def kernel_module(self, name: str, params: Sequence[tuple[Value, str, str, int]],
                      loc: str) -> str:
        """The module holding the kernel `name` whose body is this builder's
        top block. `params`: (value, parameter name, location, a power of two
        that divides it: bytes of a pointer's address, or an integer)."""
        _require(is_symbol_name(name), f"kernel name {name!r} is not a valid symbol")
        texts = []
        for value, param_name, param_loc, divisor in params:
            ty = value.type
            attrs = f" {{tile.divisibility = {divisor} : i32}}" if divisor > 1 and (
                isinstance(ty, pointer_type) or ty.is_int()) else ""
            # A NameLoc names the parameter for the metadata and for diagnostics.
            texts.append(f"{value}: {ty.to_ir()}{attrs} {name_loc(param_name, param_loc)}")
        body = self.block.render("  ")
        return f"module {{\n  func.func @{name}({', '.join(texts)}) {body} {loc}\n}}\n"
