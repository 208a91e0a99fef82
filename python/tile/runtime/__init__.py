"""JIT functions, launching, autotuning; `driver` as Triton's `triton.runtime.driver`.

The names of Triton's `triton.runtime` (but its remote cache backends: see
python/tile/README.md, "Not supported yet"), imported when first used:
`tile.language` imports `tile.runtime.jit` while the compiler, which the
autotuner needs, is still being imported."""
from __future__ import annotations

import importlib
from typing import Any

from .driver import driver  # noqa: F401

_WHERE = {"autotune": "autotuner", "Autotuner": "autotuner", "Config": "autotuner",
          "Heuristics": "autotuner", "heuristics": "autotuner",
          "InterpreterError": "errors", "OutOfResources": "errors",
          "JITFunction": "jit", "KernelInterface": "jit", "MockTensor": "jit",
          "reinterpret": "reinterpret", "TensorWrapper": "reinterpret"}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'tile.runtime' has no attribute '{name}'")
    return getattr(importlib.import_module(f".{module}", __name__), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))


__all__ = ["driver", *_WHERE]
