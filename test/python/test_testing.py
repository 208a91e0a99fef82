"""tile.testing (Triton's triton.testing): reports run without a GPU; timing
without one is a clear error."""
from __future__ import annotations

import conftest  # noqa: F401  (import path)
import pytest

import tile
from tile import testing


def test_perf_report_runs_the_grid_and_saves_the_table(tmp_path, capsys):
    calls = []

    @tile.testing.perf_report(tile.testing.Benchmark(
        x_names=["size"], x_vals=[2 ** i for i in range(3)], line_arg="provider",
        line_vals=["tile", "torch"], line_names=["Tile", "Torch"], plot_name="vector-add",
        args={"scale": 10}, ylabel="GB/s"))
    def bench(size, provider, scale):
        calls.append((size, provider))
        return (size * scale + (provider == "torch"), 0, 0)

    result = bench.run(print_data=True, save_path=str(tmp_path), return_df=True)
    assert calls == [(1, "tile"), (1, "torch"), (2, "tile"), (2, "torch"), (4, "tile"),
                     (4, "torch")]
    printed = capsys.readouterr().out
    assert "vector-add:" in printed and "Tile" in printed and "41" in printed
    csv = (tmp_path / "vector-add.csv").read_text().splitlines()
    assert csv[0] == "size,Tile,Torch" and csv[3] == "4,40,41"
    rows = result if isinstance(result, list) else result.values.tolist()
    assert [list(r) for r in rows][1] == [2, 20, 21]


def test_summaries():
    times = [4.0, 1.0, 3.0, 2.0]
    assert testing._summarize(times, None, "mean") == 2.5
    assert testing._summarize(times, None, "median") == 2.5
    # Quantiles interpolate between ranks, as Triton's (and NumPy's) do.
    assert testing._summarize(times, (0.5,), "mean") == 2.5
    assert testing._summarize(times, (0.2, 0.8), "mean") == pytest.approx([1.6, 3.4])
    assert testing._summarize(times, (0.0, 1.0), "mean") == [1.0, 4.0]
    with pytest.raises(ValueError, match="quantiles must be in"):
        testing._summarize(times, (1.5,), "mean")
    with pytest.raises(ValueError, match="return_mode"):
        testing._summarize(times, None, "mode")


def test_timing_without_a_gpu_explains():
    try:
        import torch
        if torch.cuda.is_available():
            pytest.skip("a GPU is here: do_bench times for real (test/gpu)")
    except ImportError:
        pass
    with pytest.raises(RuntimeError, match="torch|CUDA GPU"):
        testing.do_bench(lambda: None)


class FakeClock:
    """A GPU timeline for the timers: calls advance it, events read it."""

    def __init__(self) -> None:
        self.now = 0.0
        self.capturing: "FakeGraph | None" = None
        self.streams: list[Any] = []


class FakeGraph:
    def __init__(self, clock: FakeClock) -> None:
        self.clock, self.calls = clock, []

    def replay(self) -> None:
        for call in self.calls:
            call()


def fake_torch(clock: FakeClock) -> Any:
    """Enough of torch.cuda for do_bench and do_bench_cudagraph."""
    from contextlib import contextmanager
    from types import SimpleNamespace

    class Event:
        def __init__(self, enable_timing: bool = False) -> None:
            assert enable_timing
            self.time: float | None = None

        def record(self) -> None:
            self.time = clock.now

        def elapsed_time(self, end: "Event") -> float:
            return end.time - self.time

    @contextmanager
    def graph(g: FakeGraph):
        clock.capturing = g
        try:
            yield
        finally:
            clock.capturing = None

    @contextmanager
    def stream(s: Any):
        clock.streams.append(s)
        yield

    cuda = SimpleNamespace(Event=Event, CUDAGraph=lambda: FakeGraph(clock), graph=graph,
                           Stream=object, stream=stream, synchronize=lambda: None,
                           is_available=lambda: True)
    return SimpleNamespace(cuda=cuda)


class Kernel:
    """A call of `cost` ms on the fake GPU (captured, not run, in a graph)."""

    def __init__(self, clock: FakeClock, cost: float) -> None:
        self.clock, self.cost, self.runs = clock, cost, 0

    def __call__(self) -> None:
        if self.clock.capturing is not None:
            self.clock.capturing.calls.append(self)
            return
        self.runs += 1
        self.clock.now += self.cost


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    from tile.runtime.driver import driver
    clock = FakeClock()
    monkeypatch.setattr(testing, "_torch", lambda: fake_torch(clock))
    clears: list[float] = []

    def clear(cache: Any) -> None:  # zeroing the L2 buffer takes time too
        clears.append(clock.now)
        clock.now += 0.5

    monkeypatch.setattr(driver.active, "get_empty_cache_for_benchmark", lambda: "cache")
    monkeypatch.setattr(driver.active, "clear_cache", clear)
    clock.clears = clears  # type: ignore[attr-defined]
    return clock


def test_do_bench_times_calls_after_warmup_without_the_cache_flush(clock: FakeClock) -> None:
    kernel = Kernel(clock, 0.2)
    # Estimate: 5 x (flush 0.5 + call 0.2) / 5 = 0.7 ms; warmup 2 ms -> 2
    # calls, rep 3 ms -> 4 timed calls, each after a flush that is not timed.
    times = testing.do_bench(kernel, warmup=2, rep=3, return_mode="all")
    assert times == pytest.approx([0.2] * 4)
    assert kernel.runs == 1 + 5 + 2 + 4
    assert len(clock.clears) == 5 + 4  # type: ignore[attr-defined]
    assert testing.do_bench(kernel, warmup=2, rep=3, quantiles=(0.5, 0.2, 0.8)) == \
        pytest.approx([0.2] * 3)


def test_do_bench_cudagraph_replays_a_graph_of_rep_ms(clock: FakeClock) -> None:
    kernel = Kernel(clock, 0.25)
    grads = [type("Param", (), {"grad": 1.0, "detach_": lambda self: None,
                                "requires_grad_": lambda self, flag: None})()]
    result = testing.do_bench_cudagraph(kernel, rep=10, grad_to_none=grads,
                                        quantiles=(0.5, 0.2, 0.8))
    # One call, five to estimate (0.25 ms), a graph of 10 / 0.25 = 40 calls
    # (captured, not run), replayed 10 times: 400 more; each replay / 40.
    assert result == pytest.approx([0.25] * 3)
    assert kernel.runs == 1 + 5 + 400
    assert len(clock.streams) == 1  # on a stream of its own
    assert grads[0].grad is None
    assert not clock.clears  # type: ignore[attr-defined]  # no cache flush in a graph
    assert testing.do_bench_cudagraph(kernel, rep=10, return_mode="max") == pytest.approx(0.25)


def test_do_bench_cudagraph_of_a_call_too_fast_to_measure(clock: FakeClock) -> None:
    kernel = Kernel(clock, 0.0)
    assert testing.do_bench_cudagraph(kernel, rep=10) == 0.0
    assert kernel.runs == 1 + 5 + 10 * 1000  # a graph of 1000 calls (no division by 0)


def test_assert_close_uses_tritons_default_tolerances() -> None:
    np = pytest.importorskip("numpy")
    testing.assert_close(1.0, 1.009)  # atol 1e-2, rtol 0
    testing.assert_close([1.0, float("nan")], np.array([1.005, float("nan")]))
    with pytest.raises(AssertionError, match="checked 1.0 is not close to 1.02"):
        testing.assert_close(1.0, 1.02, err_msg="checked")
    with pytest.raises(AssertionError):
        testing.assert_close([1.0, 2.0], [1.0, 2.5])
    testing.assert_close([1.0, 2.0], [1.0, 2.5], atol=lambda dtype: 0.6)
    testing.assert_close(100.0, 101.0, rtol=0.02)
