"""The launch being interpreted: its grid and the program running now."""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Hashable, Iterator

from ..errors import TileError


class Launch:
    """One `kernel[grid](...)` in the interpreter."""

    def __init__(self, grid: tuple[int, int, int], session: Any, debug: bool = False,
                 num_warps: int = 4) -> None:
        self.grid = grid
        self.debug = debug  # device assertions are checked
        self.num_warps = num_warps  # the launch's (tl.extra.cuda.num_warps())
        self.program = (0, 0, 0)
        self.session = session  # runner.Session: the launch's interpreted functions
        self._seen: set[Hashable] = set()

    def first_time(self, key: Hashable) -> bool:
        """True the first time `key` is asked about in this launch."""
        if key in self._seen:
            return False
        self._seen.add(key)
        return True


_RUNNING: ContextVar[Launch | None] = ContextVar("tile_interpreter_launch", default=None)


def current() -> Launch:
    launch = _RUNNING.get()
    if launch is None:
        raise TileError("the interpreter's tile.language runs only inside an interpreted "
                        "kernel")
    return launch


@contextmanager
def running(launch: Launch) -> Iterator[Launch]:
    token = _RUNNING.set(launch)
    try:
        yield launch
    finally:
        _RUNNING.reset(token)
