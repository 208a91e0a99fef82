"""Triton's `triton.runtime.errors`: the errors a launch or the autotuner raises.

`OutOfResources` (a config over the shared memory, register or thread limit:
`required`, `limit`, `name`) is a located `tile.CompilationError` when the
compiler finds it, and a `tile.driver.LaunchError` too when loading on a device
finds it; `InterpreterError` is the interpreter's located error."""
from __future__ import annotations

from ..errors import AutotunerError, OutOfResources
from ..interpreter.errors import InterpreterError

__all__ = ["AutotunerError", "InterpreterError", "OutOfResources"]
