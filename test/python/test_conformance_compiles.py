"""Every kernel of the GPU conformance suite (test/gpu) compiles here, for
sm_90a, with the argument types, alignment and constexprs the GPU run uses."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import REPO, requires_library

sys.path.insert(0, str(REPO / "test" / "gpu"))
import conformance_cases as cases  # noqa: E402


@requires_library
@pytest.mark.parametrize("case", cases.CASES, ids=[c.id for c in cases.CASES])
def test_case_compiles(case: cases.Case) -> None:
    compiled = cases.compile_only(case, cases.build(case, "fake"))
    for kernel in compiled if isinstance(compiled, list) else [compiled]:  # autotuned: each
        assert kernel.asm["cubin"][:4] == b"\x7fELF"
        assert kernel.metadata["target"] == "sm_90a"
