"""GPU conformance suite (issue 5): needs torch with a CUDA GPU; skips otherwise.

Run on a GPU machine with the tile wheel installed (kernels JIT-compile there;
gpu/run_wheel.sh installs the wheel and runs this):

    TILE_TEST_INSTALLED=1 python3 -m pytest -q test/gpu
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
# TILE_TEST_INSTALLED=1 tests the installed package (the wheel); otherwise the
# checkout's python/ comes first.
_paths = [str(HERE)] if os.environ.get("TILE_TEST_INSTALLED") == "1" \
    else [str(REPO / "python"), str(HERE)]
for path in _paths:
    if path not in sys.path:
        sys.path.insert(0, path)


def cuda_skip_reason() -> str | None:
    """Why the GPU tests cannot run here, or None when they can."""
    try:
        import torch
    except Exception as exc:  # ImportError, or a broken install
        return f"needs torch with CUDA (torch is not importable: {exc.__class__.__name__}: {exc})"
    try:
        if not torch.cuda.is_available():
            return "needs a CUDA GPU (torch.cuda.is_available() is False)"
    except Exception as exc:
        return f"needs a CUDA GPU (torch.cuda.is_available() failed: {exc})"
    return None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "gpu: needs a CUDA GPU and torch (skipped otherwise)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = cuda_skip_reason()
    if reason is None:
        return
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
