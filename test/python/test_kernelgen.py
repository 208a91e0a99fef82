"""The randomized kernel generator (fuzz/python/kernelgen.py): deterministic
seeds, and its oracle flags what it should. CI runs it for a minute
(scripts/test.sh); here a few fixed seeds run as regressions."""
from __future__ import annotations

import sys

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "fuzz" / "python"))
import kernelgen  # noqa: E402


def test_a_seed_gives_the_same_kernel():
    assert kernelgen.generate(17).source == kernelgen.generate(17).source
    assert kernelgen.generate(17).source != kernelgen.generate(18).source


def test_seeds_make_valid_and_invalid_kernels():
    cases = [kernelgen.generate(seed) for seed in range(200)]
    invalid = [c for c in cases if c.mistake]
    assert 40 < len(invalid) < 160
    assert len({c.mistake for c in invalid}) > 15


# Seeds CI's minute of fuzzing found problems with, after the first 40:
# 796140072, an scf.if that canonicalization made an arith.select of blocks.
FOUND = [796140072]


@pytest.mark.parametrize("seed", [*range(0, 40), *FOUND])
def test_fixed_seeds(seed, tmp_path):
    kernelgen.check(kernelgen.generate(seed), tmp_path)


def test_an_accepted_invalid_kernel_is_a_finding(tmp_path):
    case = next(kernelgen.generate(s) for s in range(100) if not kernelgen.generate(s).mistake)
    case.mistake, case.mistake_line = "planted", 12  # a valid kernel said to be invalid
    with pytest.raises(kernelgen.Finding, match="compiled without an error"):
        kernelgen.check(case, tmp_path)


def test_an_error_at_another_line_is_a_finding(tmp_path):
    case = next(kernelgen.generate(s) for s in range(100) if kernelgen.generate(s).mistake)
    case.mistake_line += 1
    with pytest.raises(kernelgen.Finding, match="not at line"):
        kernelgen.check(case, tmp_path)
