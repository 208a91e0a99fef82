"""The parsed source of a Python function, and locations into it."""
from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import dataclass
from collections import ChainMap
from typing import Any, Callable, Mapping

from ..errors import CompilationError
from .ir import file_loc


@dataclass
class FunctionSource:
    """A function's AST with what is needed to map nodes back to the file."""
    filename: str
    first_line: int      # file line of the first source line (a decorator or `def`)
    indent: int          # columns removed by dedenting (functions nested in others)
    text: str            # the function's source as in the file
    tree: ast.FunctionDef
    namespace: Mapping[str, Any]  # closure variables, then the module's globals

    def position(self, node: ast.AST) -> tuple[int, int]:
        """1-based file line and column of a node."""
        return self.first_line + node.lineno - 1, node.col_offset + self.indent + 1

    def loc(self, node: ast.AST) -> str:
        line, col = self.position(node)
        return file_loc(self.filename, line, col)

    def error(self, node: ast.AST, message: str,
              kind: type[CompilationError] = CompilationError) -> CompilationError:
        line, col = self.position(node)
        source_line = self.text.splitlines()[node.lineno - 1] if node.lineno - 1 < len(
            self.text.splitlines()) else None
        return kind(message, self.filename, line, col, source_line)


def function_source(fn: Callable[..., Any], text: str | None = None) -> FunctionSource:
    """`fn`'s source, or `text` in its place (Triton's `_unsafe_update_src`:
    located from `fn`'s `def` line on)."""
    try:
        lines, first_line = inspect.getsourcelines(fn)
        filename = inspect.getsourcefile(fn) or inspect.getfile(fn)
    except (OSError, TypeError) as exc:
        raise CompilationError(f"cannot read the source of {fn.__qualname__}: {exc}; "
                               "@tile.jit functions must be defined in a file") from None
    if text is not None:
        first_line += next((i for i, line in enumerate(lines)
                            if line.lstrip().startswith(("def ", "async def "))), 0)
        lines = text.splitlines(keepends=True)
    text = "".join(lines)
    first = next((line for line in lines if line.strip()), "")
    indent = len(first) - len(first.lstrip())
    module = ast.parse(textwrap.dedent(text))
    tree = next(node for node in module.body
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))
    closure: dict[str, Any] = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            closure[name] = cell.cell_contents
        except ValueError:  # a closure variable not assigned yet
            pass
    # The module's globals are read live: the cache key and the code see the
    # same values (a global changed after the first compile is noticed).
    namespace = ChainMap(closure, fn.__globals__)
    return FunctionSource(filename, first_line, indent, text, tree, namespace)
