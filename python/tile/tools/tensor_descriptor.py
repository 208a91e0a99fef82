"""`TensorDescriptor`: a tensor described for a kernel's `desc.load`/`desc.store`
(Triton's `triton.tools.tensor_descriptor.TensorDescriptor`, same fields and
checks). A kernel parameter given one receives its base, shape and strides;
its block shape and padding are part of the compiled kernel's signature."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List

MAX_RANK = 5


def _element_bytes(base: Any) -> int:
    itemsize = getattr(base.dtype, "itemsize", None)
    return int(itemsize if itemsize is not None else base.element_size())


@dataclass
class TensorDescriptor:
    base: Any
    shape: List[int]
    strides: List[int]
    block_shape: List[int]
    padding: str = "zero"

    def __post_init__(self) -> None:
        rank = len(self.shape)
        if not 1 <= rank <= MAX_RANK:
            raise ValueError(f"a tensor descriptor has 1 to {MAX_RANK} dimensions, got shape "
                             f"{list(self.shape)}")
        if len(self.strides) != rank or len(self.block_shape) != rank:
            raise ValueError(f"rank mismatch: shape {list(self.shape)}, strides "
                             f"{list(self.strides)}, block_shape {list(self.block_shape)}")
        if int(self.base.data_ptr()) % 16:
            raise ValueError("a tensor descriptor's base must be 16-byte aligned")
        element = _element_bytes(self.base)
        for stride in list(self.strides)[:-1]:
            if int(stride) * element % 16:
                raise ValueError(f"strides must be 16-byte aligned: {list(self.strides)} of "
                                 f"{element}-byte elements")
        if int(self.strides[-1]) != 1:
            raise ValueError(f"the last dimension must be contiguous (stride 1), got strides "
                             f"{list(self.strides)}")
        if self.padding not in ("zero", "nan"):
            raise ValueError(f"padding must be 'zero' or 'nan', got {self.padding!r}")
        if self.padding == "nan" and not getattr(self.base.dtype, "is_floating_point", True):
            raise ValueError("padding 'nan' needs a floating-point tensor")

    @staticmethod
    def from_tensor(tensor: Any, block_shape: List[int], padding: str = "zero"
                    ) -> "TensorDescriptor":
        return TensorDescriptor(tensor, list(tensor.shape), list(tensor.stride()),
                                list(block_shape), padding)
