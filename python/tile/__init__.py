"""tile: block-level GPU programming in Python, Triton-compatible.

    import tile as triton
    import tile.language as tl
"""
from . import knobs, language, testing  # noqa: F401
from .compiler.pipeline import CompiledKernel, compile  # noqa: F401
from .compiler.kernel import Specialization, generate_ir  # noqa: F401
from .errors import CompilationError, TritonError  # noqa: F401
from .runtime.autotuner import Config, autotune, heuristics  # noqa: F401
from .runtime.errors import InterpreterError, OutOfResources  # noqa: F401
from .runtime.jit import JITFunction, KernelInterface, MockTensor, jit  # noqa: F401
from .language import constexpr_function  # noqa: F401  (Triton exports it at the top too)
from .language.core import must_use_result  # noqa: F401
from .runtime.reinterpret import TensorWrapper, reinterpret  # noqa: F401
from . import runtime, tools  # noqa: F401

__version__ = "0.1.0"


_allocator = None


def set_allocator(allocator) -> None:  # type: ignore[no-untyped-def]
    """Triton's `triton.set_allocator(fn)`, which gives in-kernel tensor
    descriptors their global scratch memory. tile's descriptors are masked
    loads and stores that need none, so the allocator is kept and not called."""
    global _allocator
    _allocator = allocator


def cdiv(x: int, y: int) -> int:
    """Ceiling division of two Python ints (for grids)."""
    return (x + y - 1) // y


def next_power_of_2(n: int) -> int:
    """The smallest power of two >= n (1 for n <= 1)."""
    return 1 if n <= 1 else 1 << (int(n) - 1).bit_length()
