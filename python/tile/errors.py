"""Errors that the frontend reports to kernel authors."""
from __future__ import annotations

import linecache
import re
from typing import Any


class TritonError(Exception):
    """The base of the errors tile raises for a kernel (Triton's name)."""


class TileError(TritonError):
    """A semantic error found while lowering a kernel (shape, type, constexpr...).

    Raised by `tile.language` builtins; the code generator attaches the user's
    source location and turns it into a `CompilationError`.
    """


class ConstantRequired(TileError):
    """A runtime value was given where a compile-time constant is needed.
    (A loop may then try again with its numbers kept constant.)"""


class StaticAssertionError(TileError):
    """`tl.static_assert` failed (a CompileTimeAssertionFailure once located)."""


class CompilationError(TritonError):
    """A kernel failed to compile; the message names the user's file:line:col."""

    def __init__(self, message: str, filename: str | None = None,
                 line: int | None = None, col: int | None = None,
                 source_line: str | None = None) -> None:
        self.message = message
        # Set when the cause was a ConstantRequired (see codegen's loops).
        self.constant_required = False
        self.filename = filename
        self.line = line
        self.col = col
        if source_line is None and filename and line:
            source_line = linecache.getline(filename, line).rstrip("\n") or None
        self.source_line = source_line
        super().__init__(self._format())

    def _format(self) -> str:
        if self.filename is None or self.line is None:
            return f"error: {self.message}"
        col = self.col if self.col is not None else 1
        text = f"{self.filename}:{self.line}:{col}: error: {self.message}"
        if self.source_line:
            text += f"\n{self.source_line}\n{' ' * (col - 1)}^"
        return text


class CompileTimeAssertionFailure(CompilationError):
    """A `tl.static_assert` that failed, located (Triton's name)."""


class OutOfResources(CompilationError):
    """A kernel needs more of a resource than the chip or device has: shared
    memory, registers or threads (Triton's `triton.runtime.errors.OutOfResources`,
    with its `required`, `limit` and `name`), so autotuners can skip the config.
    Raised when compiling (located at the user's line, as any CompilationError)
    or when loading the kernel on a device (not located)."""

    def __init__(self, required: int, limit: int, name: str, message: str | None = None,
                 filename: str | None = None, line: int | None = None,
                 col: int | None = None) -> None:
        self.required = required
        self.limit = limit
        self.name = name
        super().__init__(message or f"out of resource: {name}, Required: {required}, "
                         f"Hardware limit: {limit}. Reducing block sizes or `num_stages` "
                         "may help.", filename, line, col)

    def __reduce__(self) -> Any:
        return (type(self), (self.required, self.limit, self.name, self.message, self.filename,
                             self.line, self.col))


class AutotunerError(TritonError):
    """The autotuner cannot go on (Triton's name): `early_config_prune` left no config."""


_DIAGNOSTIC = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")


def error_from_diagnostics(diagnostics: str) -> CompilationError:
    """Turns the C++ compiler's diagnostics text into a CompilationError.

    The first `file:line:col: error:` line gives the location (the IR carries the
    user's Python locations); the full text is kept in the message so notes
    that follow are not lost.
    """
    for line in diagnostics.splitlines():
        match = _DIAGNOSTIC.match(line.strip())
        if match:
            rest = diagnostics.replace(line, "", 1).strip()
            message = match["msg"] + (f"\n{rest}" if rest else "")
            where = (match["file"], int(match["line"]), int(match["col"]))
            resource = _resource_limit(match["msg"])
            if resource is not None:
                return OutOfResources(*resource, message, *where)
            return CompilationError(message, *where)
    return CompilationError(diagnostics.strip() or "compilation failed without diagnostics")


# The compiler's diagnostics for a kernel over a resource limit
# (lib/Conversion/TileToGPU: TileToGPU.cpp's shared memory check and
# ResourceLimits.cpp's registers check): (required, limit, Triton's name).
_RESOURCE_LIMITS = [
    (re.compile(r"needs (?P<required>\d+) bytes of shared memory, more than the "
                r"(?P<limit>\d+) a block can have"), "shared memory"),
    (re.compile(r"needs (?P<required>\d+) registers per thread at \d+ threads, more than "
                r"(?P<limit>\d+)"), "registers"),
]


def _resource_limit(message: str) -> tuple[int, int, str] | None:
    for pattern, name in _RESOURCE_LIMITS:
        found = pattern.search(message)
        if found:
            return int(found["required"]), int(found["limit"]), name
    return None
