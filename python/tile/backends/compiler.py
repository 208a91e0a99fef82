"""`triton.backends.compiler`: `GPUTarget`, what `tile.compile(src, target=...)` takes."""
from ..runtime.driver import GPUTarget  # noqa: F401

__all__ = ["GPUTarget"]
