"""`tl.extra.cuda.libdevice`: Triton's names for NVIDIA's libdevice functions.

Each function picks the overload (`__nv_erff` for fp32, `__nv_erf` for fp64,
`__nv_umulhi` for uint32, ...) by the types of its runtime arguments, as
Triton's does, and becomes a `tile.extern_elementwise` call linked against
libdevice.10.bc. The table is generated from libdevice itself
(libdevice_functions.py, by scripts/gen-libdevice.py).
"""
from __future__ import annotations

from typing import Any

from ...core import builtin
from ... import semantic as S
from ...types import ALL_DTYPES, dtype
from .libdevice_functions import FUNCTIONS

_BY_NAME = {d.name: d for d in ALL_DTYPES}


def _function(name: str, overloads: list[tuple[tuple[str, ...], str, str]]) -> Any:
    typed = [(tuple(_BY_NAME[a] for a in args), symbol, _BY_NAME[result])
             for args, symbol, result in overloads]

    def fn(*args: Any, _builder: Any = None, **_unused: Any) -> Any:
        return S.extern_elementwise(_builder, f"libdevice.{name}", args, typed)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "libdevice: " + ", ".join(
        f"{symbol}({', '.join(args)}) -> {result}" for args, symbol, result in overloads)
    return builtin(fn)


for _name, _overloads in FUNCTIONS.items():
    globals()[_name] = _function(_name, _overloads)

__all__ = sorted(FUNCTIONS)


def overloads(name: str) -> list[tuple[tuple[dtype, ...], str, dtype]]:
    """The (argument types, symbol, result type) of a libdevice function."""
    return [(tuple(_BY_NAME[a] for a in args), symbol, _BY_NAME[result])
            for args, symbol, result in FUNCTIONS[name]]
