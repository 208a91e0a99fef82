"""Element types, pointer and block types, and `constexpr` (Triton's names)."""
from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from typing import Any, Sequence

from ..errors import TileError
from .float8 import FORMATS


class dtype:
    """A scalar element type (`tl.float32`, `tl.int32`, ...); `tl.dtype("int8")`
    is the one of that Triton name."""

    # Triton's name lists (of the types tile has).
    SINT_TYPES = ["int8", "int16", "int32", "int64"]
    UINT_TYPES = ["int1", "uint8", "uint16", "uint32", "uint64"]
    FP_TYPES = ["fp8e4nv", "fp8e5", "fp16", "bf16", "fp32", "fp64"]
    STANDARD_FP_TYPES = ["fp16", "bf16", "fp32", "fp64"]
    OTHER_TYPES = ["void"]

    def __init__(self, name: str, mlir: str | None = None, bits: int | None = None,
                 kind: str | None = None) -> None:
        if mlir is None:  # by Triton's name
            known = next((d for d in ALL_DTYPES + (void,) if d.name == name), None)
            if known is None:
                raise TileError(f"tile has no dtype {name!r}; its dtypes: "
                                f"{', '.join(d.name for d in ALL_DTYPES)}")
            name, mlir, bits, kind = known.name, known.mlir, known.primitive_bitwidth, known.kind
        assert bits is not None and kind is not None
        self.name = name          # Triton's name: "fp32", "int32", "uint8", "int1"
        self.mlir = mlir          # MLIR type text: "f32", "i32"
        self.primitive_bitwidth = bits
        self.kind = kind          # "int", "uint", "float"

    # Triton's predicates, used by kernels and by the semantic layer.
    def is_floating(self) -> bool:
        return self.kind == "float"

    def is_int(self) -> bool:
        return self.kind in ("int", "uint")

    def is_int_signed(self) -> bool:
        return self.kind == "int"

    def is_int_unsigned(self) -> bool:
        return self.kind == "uint"

    def is_bool(self) -> bool:
        return self.name == "int1"

    def is_void(self) -> bool:
        return self.kind == "void"

    def is_ptr(self) -> bool:
        return False

    def is_const(self) -> bool:
        return False

    def is_block(self) -> bool:
        return False

    def is_fp16(self) -> bool:
        return self.name == "fp16"

    def is_bf16(self) -> bool:
        return self.name == "bf16"

    def is_fp32(self) -> bool:
        return self.name == "fp32"

    def is_fp64(self) -> bool:
        return self.name == "fp64"

    def is_fp8(self) -> bool:
        return self.name in ("fp8e4nv", "fp8e5")

    def is_fp8e4nv(self) -> bool:
        return self.name == "fp8e4nv"

    def is_fp8e5(self) -> bool:
        return self.name == "fp8e5"

    def is_fp8e4b15(self) -> bool:
        return False  # tile has no fp8e4b15 (python/tile/README.md)

    def is_standard_floating(self) -> bool:
        """f16, bf16, f32, f64: the floats arithmetic takes (fp8 is storage)."""
        return self.is_floating() and not self.is_fp8()

    @property
    def scalar(self) -> "dtype":
        return self

    @property
    def fp_mantissa_width(self) -> int:
        """Stored mantissa bits of a float type (Triton's)."""
        if self.name not in _FLOAT_FORMATS:
            raise AttributeError(f"{self.name} is not a floating-point type")
        return _FLOAT_FORMATS[self.name][0]

    @property
    def exponent_bias(self) -> int:
        if self.name not in _FLOAT_FORMATS:
            raise AttributeError(f"{self.name} is not a floating-point type")
        return _FLOAT_FORMATS[self.name][1]

    def to_ir(self) -> str:
        return self.mlir

    def __eq__(self, other: object) -> bool:
        return isinstance(other, dtype) and not isinstance(other, pointer_type) \
            and self.name == other.name

    def __hash__(self) -> int:
        return hash(("dtype", self.name))

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__


class pointer_type(dtype):
    """A pointer into global memory; `ptr.dtype.element_ty` is the pointee.
    A `const` pointer (a parameter annotated `tl.const`) cannot be stored
    through; constness is part of the type, as in Triton ("*kfp32")."""

    def __init__(self, element_ty: dtype, address_space: int = 1, const: bool = False) -> None:
        if address_space != 1:
            raise TileError(f"tile's pointers are global (address space 1), not {address_space}")
        prefix = "*k" if const else "*"
        super().__init__(f"{prefix}{element_ty.name}", f"!tile.ptr<{element_ty.mlir}>", 64, "ptr")
        self.element_ty = element_ty
        self.address_space = address_space
        self.const = const

    def is_ptr(self) -> bool:
        return True

    def is_const(self) -> bool:
        return self.const

    def __eq__(self, other: object) -> bool:
        return isinstance(other, pointer_type) and self.element_ty == other.element_ty \
            and self.const == other.const

    def __hash__(self) -> int:
        return hash(("ptr", self.element_ty, self.const))


class const:
    """`tl.const`: the annotation of a pointer parameter whose data the kernel
    only reads (`def k(x_ptr: tl.const, ...)`). A store or atomic through it,
    or through a pointer computed from it, is a compile error; a const and a
    plain pointer are different types, so they cannot meet in one variable
    across a runtime `if` or be returned from one function."""


# The most elements a block may have (the dialect's BlockType::verify).
MAX_BLOCK_ELEMENTS = 1 << 31


def shape_text(shape: Sequence[Any]) -> str:
    return "x".join(str(s) for s in shape) if len(shape) else "scalar"


def must_use_result(x: Any, s: Any = True) -> Any:
    """Triton's `@triton.must_use_result` (or `@triton.must_use_result("why")`):
    a call of the decorated function (a builtin or a @jit function) as a
    statement, its result unused, is a located compile error, with `why`."""
    if isinstance(x, str):
        return lambda fn: must_use_result(fn, x)
    x._must_use_result = s
    return x


class shape_tuple(tuple):  # type: ignore[type-arg]
    """A value's shape as a kernel sees it (`x.shape`): a tuple of ints, as
    Triton's, that also equals and concatenates with a list of the same
    extents, as Triton's `tl.tuple` does (`x.shape == [1, N]`,
    `x.shape + [1]`); its slices are shapes too. It prints as a list, as
    tile's messages show shapes (`[8, 4]`)."""

    def __repr__(self) -> str:
        return repr(list(self))

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return tuple.__eq__(self, tuple(other) if isinstance(other, list) else other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__

    def __add__(self, other: Any) -> "shape_tuple":
        if not isinstance(other, (list, tuple)):
            return NotImplemented
        return shape_tuple(tuple(self) + tuple(other))

    def __radd__(self, other: Any) -> "shape_tuple":
        if not isinstance(other, (list, tuple)):
            return NotImplemented
        return shape_tuple(tuple(other) + tuple(self))

    def __getitem__(self, index: Any) -> Any:
        item = tuple.__getitem__(self, index)
        return shape_tuple(item) if isinstance(index, slice) else item


def check_shape(shape: Sequence[Any]) -> tuple[int, ...]:
    """A block shape: rank 1 or more, positive integer extents, at most
    MAX_BLOCK_ELEMENTS elements (exact integer arithmetic). Errors name the
    shape as the user wrote it."""
    given = tuple(shape)
    if not given:
        raise TileError("a block needs at least one dimension; use a scalar for one value")
    count = 1
    dims = []
    for index, extent in enumerate(given):
        if isinstance(extent, (bool, float)) or not hasattr(extent, "__index__"):
            raise TileError(f"block shape ({', '.join(map(repr, given))}): dimension {index} "
                            f"is {extent!r}, not an integer")
        extent = operator.index(extent)
        dims.append(extent)
        if extent <= 0:
            raise TileError(f"block shape {shape_text(dims)}: dimension {index} has extent "
                            f"{extent}; every extent must be positive")
        count *= extent
    if count > MAX_BLOCK_ELEMENTS:
        raise TileError(f"block shape {shape_text(dims)} has {count} elements, more than "
                        f"the {MAX_BLOCK_ELEMENTS} (2^31) a block may hold")
    return tuple(dims)


class block_type:
    """The type of a block value: an element type and a valid static shape."""

    def __init__(self, element_ty: dtype, shape: Sequence[int]) -> None:
        self.element_ty = element_ty
        self.shape = check_shape(shape)

    @property
    def scalar(self) -> dtype:
        return self.element_ty

    def is_block(self) -> bool:
        return True

    def is_ptr(self) -> bool:
        return False

    @property
    def numel(self) -> int:
        count = 1
        for extent in self.shape:
            count *= extent
        return count

    def to_ir(self) -> str:
        dims = "x".join(str(s) for s in self.shape)
        return f"!tile.block<{dims}x{self.element_ty.mlir}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, block_type) and self.shape == other.shape \
            and self.element_ty == other.element_ty

    def __hash__(self) -> int:
        return hash((self.element_ty, self.shape))

    def __repr__(self) -> str:
        return f"<{list(self.shape)}, {self.element_ty}>"


int1 = dtype("int1", "i1", 1, "uint")
int8 = dtype("int8", "i8", 8, "int")
int16 = dtype("int16", "i16", 16, "int")
int32 = dtype("int32", "i32", 32, "int")
int64 = dtype("int64", "i64", 64, "int")
uint8 = dtype("uint8", "i8", 8, "uint")
uint16 = dtype("uint16", "i16", 16, "uint")
uint32 = dtype("uint32", "i32", 32, "uint")
uint64 = dtype("uint64", "i64", 64, "uint")
float16 = dtype("fp16", "f16", 16, "float")
bfloat16 = dtype("bf16", "bf16", 16, "float")
float32 = dtype("fp32", "f32", 32, "float")
float64 = dtype("fp64", "f64", 64, "float")
# The 8-bit floats (language/float8.py): OCP e4m3 without infinities, and e5m2.
float8e4nv = dtype("fp8e4nv", "f8E4M3FN", 8, "float")
float8e5 = dtype("fp8e5", "f8E5M2", 8, "float")

# Mantissa bits and exponent bias of each float type (fp8's from float8.py).
_FLOAT_FORMATS = {"fp16": (10, 15), "bf16": (7, 127), "fp32": (23, 127), "fp64": (52, 1023),
                  **{name: (f.mantissa_bits, f.bias) for name, f in FORMATS.items()}}

ALL_DTYPES = (int1, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
              float16, bfloat16, float32, float64, float8e4nv, float8e5)
# Triton's `tl.void`: the type of no value (what a function returning nothing gives).
void = dtype("void", "none", 0, "void")
# A host tensor descriptor's TMA map: a kernel parameter of its own (128
# bytes by value), never an element or an operand of arithmetic.
tensor_map = dtype("tensormap", "!tile.tensor_map", 1024, "tensormap")

# Triton signature strings ("fp32", "i32", "u8", "bf16"...) to dtypes.
_BY_SIGNATURE = {
    "i1": int1, "i8": int8, "i16": int16, "i32": int32, "i64": int64,
    "u1": int1, "u8": uint8, "u16": uint16, "u32": uint32, "u64": uint64,
    "fp16": float16, "bf16": bfloat16, "fp32": float32, "fp64": float64,
    "f16": float16, "f32": float32, "f64": float64,
    "fp8e4nv": float8e4nv, "fp8e5": float8e5,
}


def signature_of(ty: dtype) -> str:
    """The signature string of a scalar dtype ("fp16", "u8", "i1")."""
    return next(text for text, known in _BY_SIGNATURE.items() if known == ty)


def dtype_from_annotation(annotation: Any) -> dtype | None:
    """The scalar type a parameter annotation names (`x: tl.float16`, or
    "tl.uint8" under `from __future__ import annotations`), or None."""
    if isinstance(annotation, dtype) and not annotation.is_ptr():
        return annotation
    if isinstance(annotation, str):
        name = annotation.strip("'\"").split(".")[-1]  # (a quoted string, under __future__)
        return next((d for d in ALL_DTYPES if name in (d.name, _PYTHON_NAMES.get(d.name))), None)
    return None


# Triton's attribute names of the dtypes whose `name` differs ("fp16" is tl.float16).
_PYTHON_NAMES = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "fp64": "float64",
                 "fp8e4nv": "float8e4nv", "fp8e5": "float8e5"}


def dtype_from_signature(text: str) -> dtype:
    """`"*fp32"` -> pointer_type(float32); `"i32"` -> int32."""
    text = text.strip()
    if text.startswith("*k"):
        return pointer_type(dtype_from_signature(text[2:]), const=True)
    if text.startswith("*"):
        return pointer_type(dtype_from_signature(text[1:]))
    if text in _BY_SIGNATURE:
        return _BY_SIGNATURE[text]
    raise ValueError(f"unknown type {text!r} in signature; expected one of "
                     f"{', '.join(sorted(_BY_SIGNATURE))} or a pointer such as '*fp32'")


def split_signature(text: str) -> list[str]:
    """"*fp32,(i32,*fp16),i32" -> ["*fp32", "(i32,*fp16)", "i32"]: commas
    inside parentheses (tuple parameters), <> and [] (tensor descriptors)
    do not split."""
    parts, depth, current = [], 0, []
    for char in text:
        if char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        depth += {"(": 1, ")": -1, "<": 1, ">": -1, "[": 1, "]": -1}.get(char, 0)
        if depth < 0:
            raise ValueError(f"unbalanced {char!r} in signature {text!r}")
        current.append(char)
    if depth:
        raise ValueError(f"unbalanced brackets in signature {text!r}")
    parts.append("".join(current).strip())
    return parts


@dataclass(frozen=True)
class tensor_descriptor_type:
    """A tensor descriptor parameter, `"tensordesc<fp16[64,64]>"` (with
    `,nan` for NaN padding): the kernel receives its base pointer, its shape
    as i32 values, its strides but the last (which is 1) as i64 values, and
    a CUDA tensor map (`name.tensor_map`, 128 bytes by value) that the
    launcher encodes when the kernel copies the descriptor's blocks with TMA."""
    element_ty: dtype
    block_shape: tuple[int, ...]
    padding: str = "zero"

    def signature(self) -> str:
        padding = ",nan" if self.padding == "nan" else ""
        shape = ",".join(str(n) for n in self.block_shape)
        return f"tensordesc<{signature_name(self.element_ty)}[{shape}]{padding}>"

    def parameter_names(self, name: str) -> list[str]:
        """The kernel parameters of descriptor parameter `name`, in order:
        base, shape (rank), strides but the last (rank - 1), tensor map."""
        rank = len(self.block_shape)
        return ([f"{name}.base"] + [f"{name}.shape[{i}]" for i in range(rank)]
                + [f"{name}.strides[{i}]" for i in range(rank - 1)] + [f"{name}.tensor_map"])


def _tensor_descriptor_type(text: str) -> tensor_descriptor_type:
    match = re.fullmatch(r"tensordesc<\s*([\w*]+)\s*\[([\d,\s]+)\]\s*(?:,\s*(\w+)\s*)?>", text)
    if match is None:
        raise ValueError(f"malformed tensor descriptor type {text!r}; expected e.g. "
                         "'tensordesc<fp16[64,64]>'")
    element = dtype_from_signature(match.group(1))
    if isinstance(element, pointer_type):
        raise ValueError(f"a tensor descriptor holds numbers, not pointers: {text!r}")
    shape = tuple(int(n) for n in match.group(2).split(",") if n.strip())
    padding = match.group(3) or "zero"
    if padding not in ("zero", "nan"):
        raise ValueError(f"tensor descriptor padding must be 'zero' or 'nan', in {text!r}")
    return tensor_descriptor_type(element, shape, padding)


COMPILE_TIME_ELEMENT = "constexpr"


def is_named_tuple(value: Any) -> bool:
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def tuple_class_key(parameter: str) -> str:
    """The constexpr of a compile that gives tuple parameter `parameter` (a
    launch's NamedTuple argument) its class, so that its fields have names
    in the kernel as in Triton."""
    return f"{parameter}.__class__"


def parameter_type(spec: Any) -> Any:
    """A parameter's type from its signature entry: a dtype, or for a tuple
    parameter ("(*fp32,i32)" or ("*fp32", "i32")) a tuple of them, where
    "constexpr" (COMPILE_TIME_ELEMENT) is an element given as a constexpr
    of the compile (named `t[1]`), not a kernel parameter."""
    if isinstance(spec, (tuple, list)):
        return tuple(parameter_type(item) for item in spec)
    if not isinstance(spec, str):
        raise ValueError(f"a signature entry is a type string such as '*fp32', got {spec!r}")
    text = spec.strip()
    if text.startswith("(") and text.endswith(")"):
        inner = text[1:-1].strip()
        return tuple(COMPILE_TIME_ELEMENT if part.strip() == COMPILE_TIME_ELEMENT
                     else parameter_type(part)
                     for part in split_signature(inner)) if inner else ()
    if text.startswith("tensordesc"):
        return _tensor_descriptor_type(text)
    return dtype_from_signature(text)


def signature_name(ty: dtype) -> str:
    """Inverse of `dtype_from_signature`, for cache keys and metadata."""
    if isinstance(ty, pointer_type):
        return ("*k" if ty.const else "*") + signature_name(ty.element_ty)
    for key, value in _BY_SIGNATURE.items():
        if value == ty:
            return key
    raise ValueError(f"no signature name for {ty}")


class constexpr:
    """A compile-time constant. As an annotation it marks kernel arguments that
    are baked into the compiled code; called, it wraps a value."""

    def __init__(self, value: Any) -> None:
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self) -> str:
        return f"constexpr[{self.value!r}]"

    def __index__(self) -> int:
        return int(self.value)

    def __bool__(self) -> bool:
        return bool(self.value)

    def __eq__(self, other: object) -> bool:
        return self.value == (other.value if isinstance(other, constexpr) else other)

    def __hash__(self) -> int:
        return hash(self.value)

    @property
    def type(self) -> "constexpr_type":
        return constexpr_type(self.value)


class constexpr_type:
    """Triton's `tl.constexpr_type`: the type of a compile-time value, by value."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, constexpr_type) and self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __repr__(self) -> str:
        return f"constexpr_type[{self.value}]"

    def mangle(self) -> str:
        return repr(self)


def unwrap(value: Any) -> Any:
    """The Python value of a constexpr, or the value itself."""
    return value.value if isinstance(value, constexpr) else value
