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


# -- the interpreter half and the differential check (no GPU needed) ------------

try:
    import numpy
except ImportError:  # the installed wheel's test venv (scripts/test-wheel.sh)
    numpy = None
needs_numpy = pytest.mark.skipif(numpy is None, reason="the interpreter and the differential "
                                 "check need NumPy")
if numpy is not None:
    import differential

VALID = [s for s in range(60) if not kernelgen.generate(s).mistake]


@needs_numpy
def test_default_kernels_do_not_change_with_the_analysis():
    # The comparability analysis draws nothing from the seed's generator:
    # the kernel spelled for the interpreter differs only in its casts.
    for seed in range(40):
        plain, spelled = kernelgen.generate(seed), kernelgen.generate(seed, interpretable=True)
        assert plain.source.count("\n") == spelled.source.count("\n")
        assert plain.outputs == spelled.outputs
        assert "tl.cast(" in spelled.source or plain.source == spelled.source
        assert not any(f"({lit}).to(" in spelled.source for lit in kernelgen.LITERALS)


@needs_numpy
def test_both_spellings_give_the_same_ir(tmp_path):
    import re

    import tile
    strip = lambda ir: re.sub(r"loc\([^)]*\)|#loc[0-9]*( = .*)?", "", ir)  # noqa: E731
    checked = 0
    for seed in VALID:
        plain, spelled = kernelgen.generate(seed), kernelgen.generate(seed, interpretable=True)
        if plain.source == spelled.source:
            continue
        irs = []
        for case, tag in ((plain, "plain"), (spelled, "spelled")):
            kernel = kernelgen.load(case, tmp_path / f"k{seed}_{tag}.py")
            try:
                irs.append(strip(tile.generate_ir(kernel, case.signature, case.constexprs)))
            except tile.CompilationError:
                break  # a located resource limit: both spellings fail alike
        if len(irs) == 2:
            assert irs[0] == irs[1], f"seed {seed}"
            checked += 1
    assert checked >= 5


@needs_numpy
def test_inputs_are_seeded_and_sized():
    extents = {"M": 4, "N": 8}
    a, b = differential.make_inputs(7, extents), differential.make_inputs(7, extents)
    assert all((a.arrays[k] == b.arrays[k]).all() for k in a.arrays) and (a.n, a.m) == (b.n, b.m)
    c = differential.make_inputs(8, extents)
    assert any((a.arrays[k] != c.arrays[k]).any() for k in ("x", "h", "i"))
    sizes = {k: (v.size, v.dtype.name) for k, v in a.arrays.items()}
    assert sizes == {"x": (32, "float32"), "h": (8, "float16"), "i": (4, "int32"),
                     "out": (32, "float32"), "iout": (4, "int64")}
    for seed in range(50):
        inputs = differential.make_inputs(seed, {"M": 32, "N": 16})
        assert -1 <= inputs.n <= 64 and 0 <= inputs.m <= 33
        # no zeros, nor values that truncate to 0: divisors made from them are not 0
        assert (numpy.trunc(inputs.arrays["x"]) != 0).all() and (inputs.arrays["i"] != 0).all()
        assert (inputs.arrays["out"] == differential.POISON_FLOAT).all()


@needs_numpy
def test_exact_outputs_compare_bit_for_bit_and_nan_as_nan():
    f = numpy.array([1.0, numpy.nan, -0.0, 3.5], numpy.float32)
    assert differential.compare_one("out", kernelgen.EXACT, 0, f, f.copy()) is None
    # +0 and -0 are equal values (the conformance suite's rule); NaNs of any bits are NaN
    other = numpy.array([1.0, -numpy.nan, 0.0, 3.5], numpy.float32)
    assert differential.compare_one("out", kernelgen.EXACT, 0, f, other) is None
    off = f.copy()
    off[3] = numpy.nextafter(numpy.float32(3.5), numpy.float32(4))
    assert "1 of 3 elements differ" in differential.compare_one("out", kernelgen.EXACT, 0, f, off)
    moved = f.copy()
    moved[0] = numpy.nan
    assert "NaN at different places" in differential.compare_one("out", kernelgen.EXACT, 0, f,
                                                                 moved)
    i = numpy.array([1, 2, -3], numpy.int64)
    assert differential.compare_one("iout", kernelgen.EXACT, 0, i, i.copy()) is None
    assert "first at 2" in differential.compare_one("iout", kernelgen.EXACT, 0, i,
                                                    numpy.array([1, 2, 3]))


@needs_numpy
def test_approximate_outputs_compare_within_the_tolerance_of_their_type():
    rng = numpy.random.default_rng(0)
    want = rng.normal(size=256).astype(numpy.float32)
    close = want * numpy.float32(1 + 2e-6)
    assert differential.compare_one("out", kernelgen.APPROX, 2.0**-24, want, close) is None
    far = want * numpy.float32(1 + 1e-3)
    assert "relative error" in differential.compare_one("out", kernelgen.APPROX, 2.0**-24,
                                                        want, far)
    # the same error is within an f16 chain's tolerance
    assert differential.compare_one("out", kernelgen.APPROX, 2.0**-11, want, far) is None
    inf = want.copy()
    inf[5] = numpy.inf
    assert "infinities differ" in differential.compare_one("out", kernelgen.APPROX, 2.0**-24,
                                                           inf, want)
    # excluded outputs are not compared at all
    assert differential.compare_one("out", kernelgen.WILD, 0, want, -want) is None


@needs_numpy
def test_a_mismatch_is_a_finding_with_its_rerun_command(tmp_path, monkeypatch):
    seed = next(s for s in VALID if kernelgen.generate(s).outputs["iout"][0] == kernelgen.EXACT
                and kernelgen.run(kernelgen.generate(s), tmp_path, "interpret"))

    def wrong(kernel, extents, num_warps, inputs):  # a "GPU" that gets iout[0] wrong
        outputs, _ = differential.interpret(kernel, extents, num_warps, inputs)
        outputs["iout"][0] += 1
        return outputs
    monkeypatch.setattr(differential, "run_compiled", wrong)
    monkeypatch.setattr(differential, "interpret", lambda *a: (
        (lambda o: (o[0], []))(_interpret(*a))))
    with pytest.raises(kernelgen.Finding, match="output 'iout': 1 of .* elements differ"):
        kernelgen.run(kernelgen.generate(seed), tmp_path, "differential")
    assert kernelgen.rerun_command(seed, "differential") == \
        f"python3 fuzz/python/kernelgen.py --seed {seed} --differential"


# The real interpreter run, for tests that monkeypatch it (none without NumPy).
_interpret = differential.interpret if numpy is not None else None


@needs_numpy
def test_agreeing_runs_are_counted_by_output_class(tmp_path, monkeypatch):
    # The interpreter against itself: every valid kernel agrees (or has UB).
    monkeypatch.setattr(differential, "run_compiled",
                        lambda *a: _interpret(*a)[0])
    tally = kernelgen.Tally()
    for seed in VALID[:12]:
        tally.add(kernelgen.run(kernelgen.generate(seed), tmp_path, "differential"))
    assert tally.count("valid compared", "valid undefined", "valid") == 12
    summary = tally.summary("differential")
    assert "compared interpreted vs compiled" in summary and "out:" in summary


def _run_kernel(tmp_path, body: str, inputs=None):
    source = kernelgen.HEADER.format(kernel="probe") + body
    path = tmp_path / "probe.py"
    path.write_text(source)
    case = kernelgen.Case(0, source, "probe", "", {"M": 4, "N": 8}, 4)
    kernel = kernelgen.load(case, path)
    return differential.interpret(kernel, case.constexprs, 4,
                                  inputs or differential.make_inputs(1, case.constexprs))


@needs_numpy
@pytest.mark.parametrize("line, event", [
    ("v = k // (k - k)", "integer division by zero"),
    ("v = k % (k * 0)", "integer remainder by zero"),
    ("v = tl.full((M,), -2147483648, tl.int32) // (k * 0 - 1)", "of -2147483648 by -1"),
    ("v = (x * 1e30).to(tl.int32)", "float -> int32 conversion out of range"),
    ("v = (x * 100).to(tl.int8)", "float -> int8 conversion out of range"),
    ("v = (-x * x).to(tl.uint32)", "float -> uint32 conversion out of range"),
    ("v = tl.sqrt(-x * x).to(tl.int32, bitcast=True)", "bitcast of a NaN"),
])
def test_undefined_behaviour_is_seen(tmp_path, line, event):
    body = ("    rm = tl.arange(0, M)\n    rn = tl.arange(0, N)\n"
            "    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])\n"
            "    k = tl.load(i_ptr + rm)\n"
            f"    {line}\n")
    _, events = _run_kernel(tmp_path, body)
    assert any(event in e for e in events), events


@needs_numpy
def test_defined_operations_are_not_undefined(tmp_path):
    body = ("    rm = tl.arange(0, M)\n    rn = tl.arange(0, N)\n"
            "    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])\n"
            "    k = tl.load(i_ptr + rm)\n"
            "    a = k // 3 + k % 7 + (k * 2147483647)\n"
            "    b = (x * 10).to(tl.int32) + (x * 0.01).to(tl.int8) + x.to(tl.int32, bitcast=True)\n"
            "    c = (x % 0.0) + x / 0.0\n"
            "    tl.store(iout_ptr + rm, a + tl.sum(b, axis=1) + tl.sum(c, axis=1).to(tl.int1))\n")
    outputs, events = _run_kernel(tmp_path, body)
    assert events == [] and (outputs["iout"] != differential.POISON_INT).all()


@needs_numpy
def test_watch_undefined_restores_the_interpreter():
    from tile.interpreter import ops
    from tile.interpreter.values import Tensor
    before = (ops._int_division, ops._float_to_int, Tensor.__mod__)
    with differential.watch_undefined():
        assert ops._int_division is not before[0]
    assert (ops._int_division, ops._float_to_int, Tensor.__mod__) == before


@needs_numpy
def test_no_gpu_means_a_clear_message_and_its_own_status(monkeypatch, capsys):
    monkeypatch.setattr(differential, "cuda_unavailable", lambda: "no CUDA here (a test)")
    monkeypatch.setattr(sys, "argv", ["kernelgen.py", "--differential", "--seed", "3"])
    assert kernelgen.main() == kernelgen.CANNOT_RUN == 3
    out = capsys.readouterr().out
    assert "cannot run 'differential' here" in out and "no CUDA here (a test)" in out
    assert "needs torch with a CUDA GPU" in out


def test_the_analysis_classes():
    # A few expressions through the Writer's own rules.
    import random
    w = kernelgen.Writer(random.Random(0), 4, 8)
    rx = w.read(kernelgen.Var("x", "float32", (4, 8), eps=kernelgen.ROUNDOFF["float32"]))
    product = w.arith("*", rx, rx, "f", (4, 8))
    assert product.cls == kernelgen.EXACT and product.fusable
    # x * x + x may become one fma: approximate; x + x is exact
    assert w.arith("+", product, rx, "f", (4, 8)).cls == kernelgen.APPROX
    assert w.arith("+", rx, rx, "f", (4, 8)).cls == kernelgen.EXACT
    assert w.arith("/", rx, rx, "f", (4, 8)).cls == kernelgen.APPROX
    e = w.combine("tl.exp(x)", "f", (4, 8), smooth=(rx,), own=kernelgen.APPROX)
    # an approximate value through floor or a cast to an integer: excluded
    assert w.combine("tl.floor(...)", "f", (4, 8), jumps=(e,)).cls == kernelgen.WILD
    assert w.cast(e, "int32").cls == kernelgen.WILD
    assert w.cast(e, "float16").cls == kernelgen.APPROX
    assert w.cast(rx, "int32").cls == kernelgen.EXACT


# Seeds whose valid kernels the interpreter could not run: a bf16 scalar
# (5038) and a scalar's bitcast (5160) became 1-element blocks (NumPy's
# ascontiguousarray makes 0-d data 1-d), so `if v > 2:` raised.
FOUND_INTERPRETED = [5038, 5160]


@needs_numpy
@pytest.mark.parametrize("seed", [*range(0, 40), *FOUND_INTERPRETED])
def test_fixed_seeds_run_in_the_interpreter(seed, tmp_path):
    label = kernelgen.run(kernelgen.generate(seed), tmp_path, "interpret")
    assert label in ("invalid", "valid", "valid interpreted") or \
        label.startswith("valid uninterpreted: libdevice."), label


@needs_numpy
def test_a_loop_that_changes_what_a_comparison_reads_is_excluded():
    # v is read by a comparison and made approximate later in the same loop
    # body: in the next iteration the comparison sees an approximate value.
    import random
    w = kernelgen.Writer(random.Random(0), 4, 8)
    v = kernelgen.Var("v", "float32", (4, 8), eps=kernelgen.ROUNDOFF["float32"])
    u = kernelgen.Var("u", "int32", (4, 8))
    w.vars += [v, u]
    w.open_loop()
    w.combine("(v < 1)", "b", (4, 8), jumps=(w.read(v),))
    w.loops[-1].updated |= {"u", "v"}
    v.cls = kernelgen.APPROX
    w.close_loop()
    assert v.cls == u.cls == kernelgen.WILD
