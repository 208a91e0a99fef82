"""JIT functions, launching, autotuning; `driver` as Triton's `triton.runtime.driver`."""
from .driver import driver  # noqa: F401
