"""Python AST -> tile IR text -> (C++ library) LLVM IR, PTX, cubin."""
from .pipeline import ASTSource, CompiledKernel, compile  # noqa: F401
from .kernel import Specialization, generate_ir  # noqa: F401
