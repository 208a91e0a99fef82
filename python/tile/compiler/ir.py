"""A small builder for MLIR *text*.

The frontend emits tile IR as text (no MLIR Python bindings needed). Operations
are appended to the block at the insertion point; operations with regions hold
nested `Block`s that are rendered when the module is printed. SSA names come
from one counter per function, so they are unique whatever the emission order.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Union

from ..language.types import block_type, dtype

IRType = Union[dtype, block_type]


@dataclass(frozen=True)
class Value:
    """An SSA value: its name in the text (`%4`, `%7#1`, `%arg0`) and its type."""
    name: str
    type: IRType

    def __str__(self) -> str:
        return self.name


@dataclass
class Block:
    """A block of operations. `args` are printed as a `^bb0(...)` label only
    when `labelled` (regions whose op header does not declare them)."""
    args: list[Value] = field(default_factory=list)
    items: list[Union[str, "Operation"]] = field(default_factory=list)
    labelled: bool = False

    def render(self, indent: str) -> str:
        lines = ["{"]
        if self.labelled and self.args:
            params = ", ".join(f"{a.name}: {a.type.to_ir()}" for a in self.args)
            lines.append(f"{indent}^bb0({params}):")
        for item in self.items:
            text = item if isinstance(item, str) else item.render(indent + "  ")
            lines.append(f"{indent}  {text}")
        lines.append(f"{indent}}}")
        return "\n".join(lines)


@dataclass
class Operation:
    """An op whose text is interleaved with regions: `parts` alternates text and blocks."""
    parts: list[Union[str, Block]]

    def render(self, indent: str) -> str:
        return "".join(p if isinstance(p, str) else p.render(indent) for p in self.parts)


def quote(text: str) -> str:
    """An MLIR string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def file_loc(filename: str, line: int, col: int) -> str:
    return f"loc({quote(filename)}:{line}:{col})"


class Builder:
    """Appends operations at an insertion point; every op gets `self.loc`."""

    def __init__(self) -> None:
        self._counter = 0
        self.block = Block()
        self.loc = "loc(unknown)"
        # Set by the code generator: inlines a @tile.jit function on values
        # (used by builtins that take combine functions, e.g. tl.reduce).
        self.call_jit: Callable[[Any, list[Any]], Any] | None = None

    def fresh_name(self) -> str:
        name = f"%{self._counter}"
        self._counter += 1
        return name

    def new_block_args(self, types: list[IRType], labelled: bool = False) -> Block:
        return Block(args=[Value(self.fresh_name(), t) for t in types], labelled=labelled)

    @contextmanager
    def insertion_point(self, block: Block) -> Iterator[Block]:
        saved = self.block
        self.block = block
        try:
            yield block
        finally:
            self.block = saved

    @contextmanager
    def location(self, loc: str) -> Iterator[None]:
        saved = self.loc
        self.loc = loc
        try:
            yield
        finally:
            self.loc = saved

    def create(self, text: str, result_type: IRType) -> Value:
        """Emits `%n = <text> loc(...)` and returns %n."""
        name = self.fresh_name()
        self.block.items.append(f"{name} = {text} {self.loc}")
        return Value(name, result_type)

    def create_void(self, text: str) -> None:
        self.block.items.append(f"{text} {self.loc}")

    def create_with_regions(self, parts: list[Union[str, Block]],
                            result_types: list[IRType]) -> list[Value]:
        """An op with regions; `parts` is its text after `%n = ` with the
        regions in place. Several results are named `%n#i`."""
        prefix = ""
        results: list[Value] = []
        if result_types:
            name = self.fresh_name()
            if len(result_types) == 1:
                prefix = f"{name} = "
                results = [Value(name, result_types[0])]
            else:
                prefix = f"{name}:{len(result_types)} = "
                results = [Value(f"{name}#{i}", t) for i, t in enumerate(result_types)]
        self.block.items.append(Operation([prefix, *parts, f" {self.loc}"]))
        return results
