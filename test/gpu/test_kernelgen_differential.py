"""The differential check of generated kernels on fixed seeds: each valid
kernel of seeds 0..39 runs in the interpreter and compiled on the GPU, and
their outputs agree as fuzz/python/kernelgen.py's analysis says they must
(docs/reliability.md, "The differential check"). Longer runs from other
seeds: gpu/kernelgen_differential.sh.
"""
from __future__ import annotations

import sys

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "fuzz" / "python"))
import kernelgen  # noqa: E402

pytestmark = pytest.mark.gpu

SEEDS = [seed for seed in range(40) if not kernelgen.generate(seed).mistake]


@pytest.mark.parametrize("seed", SEEDS)
def test_interpreted_and_compiled_results_agree(seed, tmp_path):
    # A Finding (a mismatch, a crash of either side) fails the test with its text.
    label = kernelgen.run(kernelgen.generate(seed), tmp_path, "differential")
    assert label.startswith("valid"), label
