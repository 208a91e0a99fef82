"""The interpreter's located errors."""
from __future__ import annotations

from typing import Sequence

from ..errors import CompilationError


class InterpreterError(CompilationError):
    """An error in an interpreted kernel, at the user's file:line:col: what the
    compiler would report, and faults the GPU would not (out-of-bounds accesses).
    Calls through @jit functions follow as `called from` lines."""

    def __init__(self, message: str, filename: str | None = None, line: int | None = None,
                 col: int | None = None, callers: Sequence[str] = ()) -> None:
        self.callers = list(callers)
        super().__init__(message, filename, line, col)

    def _format(self) -> str:
        return "\n".join([super()._format()] + [f"  called from {c}" for c in self.callers])
