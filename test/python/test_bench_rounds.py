"""bench/run.py's timing in rounds: the backends take turns, the first of each
round rotating, and each row reports the median over rounds. Runs without a
GPU: do_bench is replaced by a recorder."""
from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any, Callable

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "run.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_run", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def recorder(times: dict[str, list[float]], calls: list[str]) -> Any:
    """A `triton` whose do_bench runs the launch once (which names its
    backend) and returns that backend's next time."""
    def do_bench(fn: Callable[[], str], warmup: int, rep: int, return_mode: str) -> float:
        backend = fn()
        calls.append(backend)
        return times[backend].pop(0)
    return SimpleNamespace(testing=SimpleNamespace(do_bench=do_bench))


def test_backends_take_turns_and_rows_report_the_median(bench: ModuleType) -> None:
    case = bench.Case(id="c", kernel="k", shape="s", make=dict, launch=lambda *a: None,
                      metric="TFLOP/s")
    times = {"tile": [3.0, 1.0, 2.0], "triton": [5.0, 4.0, 6.0], "torch": [9.0, 7.0, 8.0]}
    calls: list[str] = []
    runs = {backend: ({}, lambda b=backend: b) for backend in times}
    args = argparse.Namespace(rounds=3, rep_scale=1.0)
    bench.time_alternating(None, recorder(times, calls), case, runs, args)
    assert calls == ["tile", "triton", "torch",
                     "triton", "torch", "tile",
                     "torch", "tile", "triton"]
    assert runs["tile"][0] == {"ms": 2.0, "ms_rounds": [3.0, 1.0, 2.0]}
    assert runs["triton"][0]["ms"] == 5.0
    assert runs["torch"][0]["ms"] == 8.0


def test_a_backend_that_fails_is_timed_no_more(bench: ModuleType) -> None:
    case = bench.Case(id="c", kernel="k", shape="s", make=dict, launch=lambda *a: None,
                      metric="GB/s")
    calls: list[str] = []

    def broken() -> str:
        calls.append("triton")
        raise RuntimeError("launch failed")

    times = {"tile": [1.0, 1.5]}
    runs = {"tile": ({}, lambda: "tile"), "triton": ({}, broken),
            "torch": ({"error": "allocation"}, None)}
    args = argparse.Namespace(rounds=2, rep_scale=1.0)
    bench.time_alternating(None, recorder(times, calls), case, runs, args)
    assert calls == ["tile", "triton", "tile"]
    assert runs["tile"][0]["ms"] == 1.25
    assert runs["triton"][0] == {"error": "RuntimeError: launch failed"}
    assert runs["torch"][0] == {"error": "allocation"}


class FakeFloorLibrary:
    """bench/launch_floor.c's entry points: µs per launch from a list."""

    def __init__(self, times: list[float], runs_all: bool = True) -> None:
        self.times, self.runs_all, self.counts = times, runs_all, []

    def launch_floor_us(self, launches: int) -> float:
        self.counts.append(launches)
        return -1.0 if not self.times else self.times.pop(0)

    def launch_floor_verify(self) -> int:
        return 0 if self.runs_all else 1


def test_the_launch_row_times_the_driver_floor_in_its_rounds(bench: ModuleType) -> None:
    """The launch row's C floor takes its turn with the backends; each turn
    is the median of `launch_repeats` batches after a 50-launch warm-up, and
    the row's note gives it and tile's distance from it."""
    case = bench.Case(id="launch", kernel="k", shape="s", make=dict, launch=lambda *a: None,
                      metric="us/launch")
    # Per turn: the warm-up's, then 3 batches' (medians 3.2, 3.3, 3.6).
    library = FakeFloorLibrary([0.0, 3.0, 9.0, 3.2, 0.0, 3.1, 3.3, 3.4, 0.0, 3.5, 3.6, 3.7])
    floor = bench.launch_floor.DriverFloor(library)
    timed: list[str] = []

    def launch_overhead_us(torch: Any, fn: Callable[[], str], launches: int, repeats: int,
                           synchronized: bool = True) -> float:
        timed.append(fn())
        return {"tile": 4.0, "triton": 12.0}[timed[-1]]

    original = bench.launch_overhead_us
    bench.launch_overhead_us = launch_overhead_us
    try:
        runs = {"tile": ({}, lambda: "tile"), "triton": ({}, lambda: "triton"),
                "driver": ({}, floor)}
        args = argparse.Namespace(rounds=3, launches=2000, launch_repeats=3)
        bench.time_alternating(None, None, case, runs, args)
    finally:
        bench.launch_overhead_us = original
    assert timed == ["tile", "triton", "triton", "tile", "tile", "triton"]
    assert library.counts == [50, 2000, 2000, 2000] * 3
    assert runs["driver"][0]["us_rounds"] == [3.2, 3.3, 3.6]
    floor.verify()
    note = bench.floor_note(runs["driver"][0], runs["tile"][0])
    assert "3.30 µs/launch" in note and "tile 0.70 µs above it" in note, note
    with pytest.raises(RuntimeError, match="did not all run"):
        bench.launch_floor.DriverFloor(FakeFloorLibrary([], runs_all=False)).verify()
    with pytest.raises(RuntimeError, match="failed"):
        bench.launch_floor.DriverFloor(FakeFloorLibrary([0.0])).per_launch_us(10, 1)
    assert "not measured (no C compiler" in bench.floor_note(
        {"not_measured": "no C compiler on this machine"}, {"us": 4.0})


def test_a_case_with_bind_times_the_call_it_makes(bench: ModuleType) -> None:
    """The launch row times `kernel[(1,)](x, n, BLOCK=128)` made once before
    the loop (bind), not through the harness's `launch` frames."""
    calls: list[str] = []

    def bind(module: Any, bufs: dict, backend: str) -> Callable[[], None]:
        calls.append(f"bind {backend}")
        return lambda: calls.append("launch")

    case = bench.Case(id="c", kernel="k", shape="s", make=dict, metric="us/launch",
                      launch=lambda *a: calls.append("harness launch"), bind=bind, output=None)
    torch = SimpleNamespace(cuda=SimpleNamespace(synchronize=lambda: None))
    res, fn = bench.first_call(torch, case, None, "tile", {})
    assert fn is not None and "first_call_s" in res
    fn()
    assert calls == ["bind tile", "launch", "launch"]
    launch_case = bench.case_launch_overhead()
    assert launch_case.bind is not None and "from the loop" in launch_case.note
