"""The interpreter: `kernel[grid](...)` runs the kernel on the CPU, one program at a time.

Enabled for every launch by `TILE_INTERPRET=1`, or for one kernel by
`@tile.jit(interpret=True)`. The kernel's Python function itself runs, with
`tile.language` bound to NumPy implementations (`language.py`), so `print`,
`breakpoint()` and debuggers work inside it. See python/tile/README.md.

Importing this package needs nothing beyond the standard library; NumPy is
imported when a kernel is interpreted.
"""
from __future__ import annotations

import functools
import os
from typing import Any

from .errors import InterpreterError

_TRUE = ("1", "true", "yes", "on")


def enabled(jit: Any = None) -> bool:
    """Whether launches of `jit` (a JITFunction, or any launch when None) are
    interpreted: `TILE_INTERPRET` is set to 1/true/yes/on, or the kernel was
    decorated with `@tile.jit(interpret=True)`."""
    flag = os.environ.get("TILE_INTERPRET")  # checked per launch: keep it cheap
    if flag and flag.strip().lower() in _TRUE:
        return True
    options = getattr(jit, "options", None)
    return bool(options and options.get("interpret"))


def bound_launch(jit: Any, grid: Any) -> Any:
    """`jit[grid]` in the interpreter when launches of `jit` are interpreted
    (see enabled), else None."""
    return functools.partial(launch, jit, grid) if enabled(jit) else None


def launch(jit: Any, grid: Any, *args: Any, stream: Any = None, **kwargs: Any) -> None:
    """`kernel[grid](*args, **kwargs)` in the interpreter (`stream` is
    accepted and ignored)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise ImportError("the interpreter (TILE_INTERPRET=1, @jit(interpret=True)) needs "
                          "NumPy: pip install numpy") from None
    from .runner import launch as run
    run(jit, grid, args, kwargs)


__all__ = ["InterpreterError", "bound_launch", "enabled", "launch"]
