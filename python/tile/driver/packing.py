"""Kernel parameters: the metadata's type names and the codes the C launcher packs by.

The C launcher (python/src/launcher.c) converts each Python argument by its
parameter's code: pointers from torch tensors (``data_ptr()``), objects with
``__cuda_array_interface__`` (CuPy), ints or None; ints range-checked (an
unsigned spelling of a negative number is accepted); floats rounded to
nearest even for f16/bf16. This module holds the table and checks metadata.
"""
from __future__ import annotations

from typing import Any, Mapping

from .errors import DriverError

# Metadata type name -> C launcher code (one byte per parameter).
CODES: dict[str, str] = {
    "ptr": "p", "i1": "b", "i8": "c", "i16": "h", "i32": "i", "i64": "l",
    "f16": "e", "bf16": "B", "f32": "f", "f64": "d",
}


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
    return entries


__all__ = ["CODES", "codes", "kernel_entries"]
