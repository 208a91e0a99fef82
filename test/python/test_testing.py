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
    assert testing._summarize(times, (0.5,), "mean") == 2.0
    assert testing._summarize(times, (0.2, 0.8), "mean") == [1.0, 4.0]
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
