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

A "tensormap" parameter with a ``recipe`` is hidden: the compiler added it
for a tensor descriptor or block pointer the kernel makes from its own
parameters, and the launcher makes its map from theirs (no argument fills
it; such parameters come last)::

    "recipe": {"base": 0,                          # the "ptr" parameter
               "shape": [[1, [3, 4]], [64, []]],   # outermost first
               "strides": [[64, []], [1, []]]}     # elements; the last [1, []]

Each extent or stride is a monomial ``[scale, [i, j, ...]]``: ``scale``
times the values of integer parameters i, j, ... (indices into "params").
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .errors import DriverError

# Metadata type name -> C launcher code (one byte per parameter).
CODES: dict[str, str] = {
    "ptr": "p", "i1": "b", "i8": "c", "i16": "h", "i32": "i", "i64": "l",
    "f16": "e", "bf16": "B", "f32": "f", "f64": "d", "tensormap": "T",
}

# The encoding keys of a "tensormap" parameter the kernel reads with TMA.
TENSOR_MAP_KEYS = ("box", "swizzle", "element_bytes")
MAX_TENSOR_MAP_RANK = 5

# A recipe's keys, and what its monomials may multiply: the values of
# integer parameters (as the kernel receives them), at most this many.
RECIPE_KEYS = ("base", "shape", "strides")
INTEGER_TYPES = ("i1", "i8", "i16", "i32", "i64")
MAX_RECIPE_FACTORS = 8

# A monomial of a recipe: (scale, parameter indices).
Term = tuple[int, tuple[int, ...]]


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


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _recipe_term(term: Any, params: Sequence[Mapping[str, Any]], where: str) -> Term:
    """One monomial `[scale, [indices]]`, checked: a 64-bit scale, indices of
    integer parameters."""
    if (not isinstance(term, (list, tuple)) or len(term) != 2 or not _is_int(term[0])
            or not isinstance(term[1], (list, tuple))):
        raise DriverError(f"{where} is {term!r}, not [scale, [parameter indices]]")
    scale, indices = term
    if not -2**63 <= scale < 2**63:
        raise DriverError(f"{where}: scale {scale} does not fit in 64 bits")
    if len(indices) > MAX_RECIPE_FACTORS:
        raise DriverError(f"{where} multiplies {len(indices)} parameters; at most "
                          f"{MAX_RECIPE_FACTORS}")
    for j in indices:
        if not _is_int(j) or not 0 <= j < len(params):
            raise DriverError(f"{where}: {j!r} is not a parameter index (0 to "
                              f"{len(params) - 1})")
        if params[j].get("type") not in INTEGER_TYPES:
            raise DriverError(f"{where} names parameter {j} ({params[j].get('name', '?')}: "
                              f"{params[j].get('type')}), not an integer parameter")
    return int(scale), tuple(int(j) for j in indices)


def tensor_map_recipe(param: Mapping[str, Any], params: Sequence[Mapping[str, Any]],
                      where: str = "a tensormap parameter"
                      ) -> tuple[int, tuple[Term, ...], tuple[Term, ...]] | None:
    """A hidden "tensormap" parameter's recipe: (the index of the "ptr"
    parameter of its address, shape terms, stride terms), both outermost
    first, strides in elements; None when it has no recipe (the map of a
    host descriptor argument). A DriverError names what is wrong."""
    if "recipe" not in param:
        return None
    recipe = param["recipe"]
    if not isinstance(recipe, Mapping) or set(recipe) != set(RECIPE_KEYS):
        keys = sorted(recipe) if isinstance(recipe, Mapping) else recipe
        raise DriverError(f"{where}: recipe {keys!r} is not an object of exactly "
                          f"{list(RECIPE_KEYS)}")
    base = recipe["base"]
    if not _is_int(base) or not 0 <= base < len(params):
        raise DriverError(f"{where}: recipe base {base!r} is not a parameter index (0 to "
                          f"{len(params) - 1})")
    if params[base].get("type") != "ptr":
        raise DriverError(f"{where}: recipe base {base} is parameter "
                          f"{params[base].get('name', '?')}: {params[base].get('type')}, "
                          "not a pointer")
    box = param.get("box")
    rank = len(box) if isinstance(box, (list, tuple)) else None
    parsed: dict[str, tuple[Term, ...]] = {}
    for key in ("shape", "strides"):
        terms = recipe[key]
        if (not isinstance(terms, (list, tuple))
                or not 1 <= len(terms) <= MAX_TENSOR_MAP_RANK
                or rank is not None and len(terms) != rank):
            expected = f"{rank} (the box's rank)" if rank is not None else \
                f"1 to {MAX_TENSOR_MAP_RANK}"
            raise DriverError(f"{where}: recipe {key} {terms!r} is not a list of {expected} "
                              "terms")
        parsed[key] = tuple(_recipe_term(t, params, f"{where}: recipe {key}[{d}]")
                            for d, t in enumerate(terms))
    shape, strides = parsed["shape"], parsed["strides"]
    if len(shape) != len(strides):
        raise DriverError(f"{where}: recipe has {len(shape)} extents but {len(strides)} "
                          "strides")
    if strides[-1] != (1, ()):
        raise DriverError(f"{where}: recipe's last stride is {list(recipe['strides'][-1])!r}, "
                          "not [1, []]: a tensor map's innermost dimension is contiguous")
    return int(base), shape, strides


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
        params = list(entry.get("params", []))
        hidden_from = None  # the first hidden parameter
        for i, param in enumerate(params):
            if param.get("type") not in CODES:
                raise DriverError(f"kernel {entry['name']!r} parameter {i} has unknown type "
                                  f"{param.get('type')!r}")
            where = f"kernel {entry['name']!r} parameter {i} ({param.get('name', '?')}: " \
                    f"{param['type']})"
            if "recipe" in param and param["type"] != "tensormap":
                raise DriverError(f"{where} has a recipe, which only a tensormap has")
            if param["type"] == "tensormap":
                tensor_map_encoding(param, where)
                tensor_map_recipe(param, params, where)
            # The runtime fills parameters from the arguments in order and
            # passes None for the hidden ones, after them.
            if "recipe" in param:
                hidden_from = i if hidden_from is None else hidden_from
            elif hidden_from is not None:
                raise DriverError(f"{where} comes after parameter {hidden_from} "
                                  f"({params[hidden_from].get('name', '?')}), a tensor map "
                                  "made at launch (a recipe): those come last")
    return entries


def hidden_parameters(params: Sequence[Mapping[str, Any]]) -> int:
    """How many parameters at the end of `params` are made at launch (a
    recipe's tensor maps): the arguments fill the others."""
    return sum(1 for p in params if "recipe" in p)


__all__ = ["CODES", "TENSOR_MAP_KEYS", "codes", "hidden_parameters", "kernel_entries",
           "tensor_map_encoding", "tensor_map_recipe"]
