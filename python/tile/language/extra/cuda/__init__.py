"""`tl.extra.cuda`: NVIDIA's libdevice (`tl.extra.cuda.libdevice`), the
special registers Triton reads there (`smid()`, `globaltimer()`) and the
kernel's `num_warps()` / `num_threads()` (compile-time ints)."""
from __future__ import annotations

from typing import Any

from . import libdevice  # noqa: F401
from .... import language as tl
from ....runtime.jit import jit
from ...core import builtin, library_builtin


@jit
def _read_smid():
    return tl.inline_asm_elementwise("mov.u32 $0, %smid;", "=r", [], dtype=tl.int32,
                                     is_pure=True, pack=1)


@jit
def _read_globaltimer():
    return tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l", [], dtype=tl.int64,
                                     is_pure=False, pack=1)


@library_builtin(_read_smid)
def smid(to_value: Any) -> list[Any]:
    """The index of the SM this program runs on (an i32 scalar)."""
    return []


@library_builtin(_read_globaltimer)
def globaltimer(to_value: Any) -> list[Any]:
    """The GPU's global nanosecond timer (an i64 scalar); two reads order
    with the code between them (the read is not pure)."""
    return []


@builtin
def num_warps(_builder: Any = None) -> int:
    """The warps of each program of the kernel being compiled (a compile-time int)."""
    return _builder.num_warps


@builtin
def num_threads(_builder: Any = None) -> int:
    """The threads of each program: 32 per warp (a compile-time int)."""
    return 32 * _builder.num_warps
