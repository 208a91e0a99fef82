"""Kernel parameters: the metadata's type names and the codes the C launcher packs by.

The C launcher (python/src/launcher.c) converts each Python argument by its
parameter's code: pointers from torch tensors (``data_ptr()``), objects with
``__cuda_array_interface__`` (CuPy), ints or None; ints range-checked (an
unsigned spelling of a negative number is accepted); floats rounded to
nearest even for f16/bf16; a "tensormap" parameter (128 bytes, 64-byte
aligned) from a host TensorDescriptor, encoded with cuTensorMapEncodeTiled
by the parameter's ``box``, ``swizzle`` and ``element_bytes`` (zeros when it
has none: the kernel does not read the map). This module holds the table and
checks metadata.
"""
from __future__ import annotations

from typing import Any, Mapping

from .errors import DriverError

# Metadata type name -> C launcher code (one byte per parameter).
CODES: dict[str, str] = {
    "ptr": "p", "i1": "b", "i8": "c", "i16": "h", "i32": "i", "i64": "l",
    "f16": "e", "bf16": "B", "f32": "f", "f64": "d", "tensormap": "T",
}

# The encoding keys of a "tensormap" parameter the kernel reads with TMA.
TENSOR_MAP_KEYS = ("box", "swizzle", "element_bytes")
MAX_TENSOR_MAP_RANK = 5


def tensor_map_encoding(param: Mapping[str, Any], where: str = "a tensormap parameter"
                        ) -> tuple[tuple[int, ...], int, int] | None:
    """A "tensormap" parameter's (box outermost-first, swizzle bytes, element
    bytes), or None when it has no encoding keys (the kernel does not read
    the map); a DriverError for partial or invalid keys."""
    present = [k for k in TENSOR_MAP_KEYS if k in param]
    if not present:
        return None
    if len(present) != len(TENSOR_MAP_KEYS):
        missing = [k for k in TENSOR_MAP_KEYS if k not in param]
        raise DriverError(f"{where} has {present} but not {missing}: a tensor map's encoding "
                          f"is all of {list(TENSOR_MAP_KEYS)}")
    box, swizzle, element = param["box"], param["swizzle"], param["element_bytes"]
    if (not isinstance(box, (list, tuple)) or not 1 <= len(box) <= MAX_TENSOR_MAP_RANK
            or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 256
                       for n in box)):
        raise DriverError(f"{where}: box {box!r} is not 1 to {MAX_TENSOR_MAP_RANK} extents "
                          "in 1..256")
    if swizzle not in (0, 32, 64, 128) or isinstance(swizzle, bool):
        raise DriverError(f"{where}: swizzle {swizzle!r} is not 0, 32, 64 or 128 (bytes)")
    if element not in (1, 2, 4, 8) or isinstance(element, bool):
        raise DriverError(f"{where}: element_bytes {element!r} is not 1, 2, 4 or 8")
    return tuple(int(n) for n in box), int(swizzle), int(element)


def codes(param_types: list[str]) -> bytes:
    return "".join(CODES[t] for t in param_types).encode()


def kernel_entries(metadata: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The kernel entries of a sidecar ({"kernels": [...]}) or of one kernel's
    metadata, each checked to name its parameters' types."""
    if "kernels" in metadata:
        entries = list(metadata["kernels"])
    elif "name" in metadata:
        entries = [metadata]
    else:
        raise DriverError("kernel metadata has neither 'kernels' nor 'name'")
    for entry in entries:
        if "name" not in entry:
            raise DriverError(f"kernel metadata entry without a name: {entry!r}")
        for i, param in enumerate(entry.get("params", [])):
            if param.get("type") not in CODES:
                raise DriverError(f"kernel {entry['name']!r} parameter {i} has unknown type "
                                  f"{param.get('type')!r}")
            if param["type"] == "tensormap":
                tensor_map_encoding(param, f"kernel {entry['name']!r} parameter {i} "
                                    f"({param.get('name', '?')}: tensormap)")
    return entries


__all__ = ["CODES", "TENSOR_MAP_KEYS", "codes", "kernel_entries", "tensor_map_encoding"]
