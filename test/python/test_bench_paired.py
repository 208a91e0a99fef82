"""bench/paired.py's paired timing and bench/run.py's paired columns, without
a GPU: a fake torch whose CUDA events read a clock that each launch advances
by its kernel's time, scaled by a drift that grows over the run (as the
card's clocks move)."""
from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any, Callable

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def paired() -> ModuleType:
    return load("paired")


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    sys.path.insert(0, str(BENCH))  # run.py imports paired as the scripts do
    try:
        return load("run")
    finally:
        sys.path.remove(str(BENCH))


class FakeCuda:
    """A GPU's queue and the host feeding it, in milliseconds: the host
    enqueues, the GPU runs each operation from when both it is free and the
    host has enqueued it. Launches take `host_ms` of the host's time first,
    and advance the GPU by their time times the drift, which grows by
    `drift_step` per launch; flushes and spins advance the GPU too."""

    CLOCK_KHZ = 1_500_000  # cycles per millisecond

    def __init__(self, drift_step: float = 0.01) -> None:
        self.clock = 0.0  # when the GPU is free
        self.host = 0.0
        self.drift = 1.0
        self.drift_step = drift_step
        self.launches: list[str] = []
        self.synchronized = 0
        self.spins: list[int] = []
        clock = self

        class Event:
            def __init__(self, enable_timing: bool) -> None:
                assert enable_timing
                self.time: float | None = None

            def record(self) -> None:
                self.time = clock.run_on_gpu(0.0)

            def elapsed_time(self, end: Event) -> float:
                assert self.time is not None and end.time is not None
                return end.time - self.time

        self.Event = Event

    def run_on_gpu(self, ms: float) -> float:
        """Enqueues `ms` of GPU work; returns when it starts."""
        start = max(self.clock, self.host)
        self.clock = start + ms
        return start

    def launch(self, name: str, ms: float, host_ms: float = 0.0) -> Callable[[], None]:
        def run() -> None:
            self.launches.append(name)
            self.host += host_ms
            self.run_on_gpu(ms * self.drift)
            self.drift += self.drift_step
        return run

    def synchronize(self) -> None:
        self.synchronized += 1
        self.host = max(self.host, self.clock)

    def _sleep(self, cycles: int) -> None:
        self.spins.append(cycles)
        self.run_on_gpu(cycles / self.CLOCK_KHZ)

    def current_device(self) -> int:
        return 0

    def get_device_properties(self, device: int) -> Any:
        return SimpleNamespace(clock_rate=self.CLOCK_KHZ)

    def host_seconds(self) -> float:
        return self.host / 1000


def fake_torch(cuda: FakeCuda) -> Any:
    flushes: list[int] = []

    class Buffer:
        def __init__(self, count: int) -> None:
            self.count = count

        def zero_(self) -> None:
            flushes.append(self.count)
            cuda.run_on_gpu(0.1)

    return SimpleNamespace(cuda=cuda, int32="int32", flushes=flushes,
                           empty=lambda count, dtype, device: Buffer(count))


def test_ratio_takes_turns_and_holds_through_drift(paired: ModuleType) -> None:
    cuda = FakeCuda(drift_step=0.01)  # 1% slower per launch: 4x over the run
    torch = fake_torch(cuda)
    timer = paired.PairedTimer(torch, cuda.host_seconds)
    ratio = timer.ratio(cuda.launch("tile", 2.0), cuda.launch("triton", 3.0), pairs=200)
    # Each pair's ratio is 1.5 times the drift between its two launches
    # (1.01 or 1/1.01, taking turns): the median stays within that.
    assert 1.5 / 1.01 <= ratio <= 1.5 * 1.01, ratio
    # Four launches to see the host's work (two synchronizes each), then pairs.
    assert cuda.launches[:8] == ["tile", "triton", "tile", "triton",
                                 "triton", "tile", "tile", "triton"]
    assert len(cuda.launches) == 404 and cuda.synchronized == 208
    # An L2 flush before every launch, of more than the L2 of an H200.
    assert len(torch.flushes) == 400 and len(cuda.spins) == 400
    assert torch.flushes[0] * 4 > 60 * 1024 * 1024


def test_host_work_of_a_launch_is_not_timed(paired: ModuleType) -> None:
    """A launch whose host work (0.5 ms: a descriptor's encoding) outlasts
    the flush before it: without the spin the GPU would wait for the host
    between the start event and the kernel, and tile's 1 ms kernel would
    time as 1.4 ms against Triton's 1 ms."""
    cuda = FakeCuda(drift_step=0.0)
    timer = paired.PairedTimer(fake_torch(cuda), cuda.host_seconds)
    ratio = timer.ratio(cuda.launch("tile", 1.0, host_ms=0.5), cuda.launch("triton", 1.0))
    assert ratio == pytest.approx(1.0)
    # The spin covers the host work seen, twice over.
    assert min(cuda.spins) >= 2 * 0.5 * FakeCuda.CLOCK_KHZ
    # A timer that sees no host work spins too little: the pairs where tile
    # goes first (half) time its host work.
    unspun = paired.PairedTimer(fake_torch(cuda), lambda: 0.0)
    assert unspun.ratio(cuda.launch("tile", 1.0, host_ms=0.5),
                        cuda.launch("triton", 1.0)) < 0.9


def test_do_bench_style_medians_would_not(paired: ModuleType) -> None:
    """The same drift, timed one backend after the other (as medians of
    separate runs are): the gap the drift makes is larger than 1.5 vs 1.6."""
    cuda = FakeCuda(drift_step=0.01)
    tile, triton = cuda.launch("tile", 2.0), cuda.launch("triton", 3.0)
    times = {}
    for name, run in (("tile", tile), ("triton", triton)):
        start = cuda.clock
        for _ in range(100):
            run()
        times[name] = cuda.clock - start
    assert times["triton"] / times["tile"] > 1.5 * 1.6


def test_rows_carry_paired_ratios_and_the_table_shows_them(bench: ModuleType) -> None:
    cuda = FakeCuda(drift_step=0.0)
    timer = bench_timer(cuda)
    case = bench.Case(id="c", kernel="k", shape="s", make=dict, launch=lambda *a: None,
                      metric="TFLOP/s")
    runs = {"tile": ({"ms": 2.0}, cuda.launch("tile", 2.0)),
            "triton": ({"ms": 1.8}, cuda.launch("triton", 1.8)),
            "torch": ({"ms": 2.5}, cuda.launch("torch", 2.5))}
    args = argparse.Namespace(pairs=10)
    ratios = bench.time_paired(None, timer, case, runs, args)
    assert ratios == pytest.approx({"tile": 1.0, "triton": 0.9, "torch": 1.25})
    row = {"kernel": "k", "shape": "s", "metric": "TFLOP/s", "tile": runs["tile"][0],
           "triton": runs["triton"][0], "torch": runs["torch"][0], "paired": ratios}
    cells = [cell.strip() for cell in bench.format_row(row)[0].split("|")]
    assert len(cells) == len(bench.HEADER)
    column = dict(zip(bench.HEADER, cells))
    assert column["paired tile/Triton (tile/tile)"] == "0.900x (1.000x)"
    assert column["paired tile/torch"] == "1.250x"


def test_no_pairs_without_a_kernel_time_or_a_tile_timing(bench: ModuleType) -> None:
    cuda = FakeCuda()
    timer = bench_timer(cuda)
    args = argparse.Namespace(pairs=10)
    launch = bench.Case(id="l", kernel="k", shape="s", make=dict, launch=lambda *a: None,
                        metric="us/launch")
    runs = {"tile": ({}, cuda.launch("tile", 1.0)), "triton": ({}, cuda.launch("triton", 1.0))}
    assert bench.time_paired(None, timer, launch, runs, args) is None
    case = bench.Case(id="c", kernel="k", shape="s", make=dict, launch=lambda *a: None,
                      metric="GB/s")
    failed = {"tile": ({"error": "RuntimeError: x"}, None), "triton": runs["triton"]}
    assert bench.time_paired(None, timer, case, failed, args) is None
    assert bench.time_paired(None, timer, case, runs, argparse.Namespace(pairs=0)) is None
    # A backend that failed is left out; tile against itself is still there.
    broken = {"tile": runs["tile"], "triton": ({"error": "x"}, None)}
    assert set(bench.time_paired(None, timer, case, broken, args)) == {"tile"}
    assert cuda.launches.count("triton") == 0


def bench_timer(cuda: FakeCuda) -> Any:
    return load("paired").PairedTimer(fake_torch(cuda), cuda.host_seconds)
