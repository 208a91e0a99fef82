"""`triton.compiler.errors`: the errors a compile raises (Triton's module)."""
from ..errors import CompilationError, CompileTimeAssertionFailure, TritonError  # noqa: F401

__all__ = ["CompilationError", "CompileTimeAssertionFailure", "TritonError"]
