"""`tile.reinterpret(tensor, dtype)` (Triton's `triton.reinterpret`): an array
argument whose elements a kernel reads as another type of the same width
(uint8 storage as `tl.float8e5`, int16 as `tl.bfloat16`, ...)."""
from __future__ import annotations

from typing import Any

from ..language.types import dtype


class TensorWrapper:
    """A torch tensor (or any array with `data_ptr`) seen as `dtype`, a
    `tile.language` dtype: kernels get a pointer to `dtype`."""

    def __init__(self, base: Any, dtype: dtype) -> None:
        self.base = base
        self.dtype = dtype
        self.device = getattr(base, "device", None)
        self.shape = getattr(base, "shape", None)

    def data_ptr(self) -> int:
        return self.base.data_ptr()

    def get_device(self) -> int:
        return self.base.get_device()

    def stride(self, *args: Any) -> Any:
        return self.base.stride(*args)

    def element_size(self) -> int:
        return self.base.element_size()

    def numel(self) -> int:
        return self.base.numel()

    def cpu(self) -> "TensorWrapper":
        return TensorWrapper(self.base.cpu(), self.dtype)

    def to(self, device: Any) -> "TensorWrapper":
        return TensorWrapper(self.base.to(device), self.dtype)

    def clone(self) -> "TensorWrapper":
        return TensorWrapper(self.base.clone(), self.dtype)

    def copy_(self, other: "TensorWrapper") -> None:
        self.base.copy_(other.base)

    def new_empty(self, sizes: Any) -> "TensorWrapper":
        return TensorWrapper(self.base.new_empty(sizes), self.dtype)

    def __str__(self) -> str:
        return f"TensorWrapper[{self.dtype}]({self.base})"


def reinterpret(tensor: Any, as_dtype: Any) -> Any:
    """`tensor` read as `as_dtype` (a tile.language dtype of the element
    width); a wrapper asked for its base's own dtype gives the base back."""
    if isinstance(tensor, TensorWrapper):
        if as_dtype == tensor.base.dtype:
            return tensor.base
        tensor = tensor.base
    if not hasattr(tensor, "data_ptr"):
        raise TypeError(f"cannot reinterpret a {type(tensor).__name__}: it has no data_ptr")
    if not isinstance(as_dtype, dtype) or as_dtype.is_ptr():
        return tensor if as_dtype == tensor.dtype else _refuse(as_dtype)
    if as_dtype.primitive_bitwidth != 8 * tensor.element_size() and not as_dtype.is_bool():
        raise TypeError(f"cannot reinterpret {tensor.dtype} ({8 * tensor.element_size()} bits) "
                        f"as {as_dtype} ({as_dtype.primitive_bitwidth} bits)")
    return TensorWrapper(tensor, as_dtype)


def _refuse(as_dtype: Any) -> Any:
    raise TypeError(f"reinterpret takes a tile.language dtype (tl.float8e5, ...), not "
                    f"{as_dtype!r}")
