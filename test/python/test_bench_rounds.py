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
