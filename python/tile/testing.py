"""Benchmarking helpers with Triton's signatures (`triton.testing`), so that
tutorial benchmark code runs with `import tile as triton`.

`do_bench` and `do_bench_cudagraph` time on the GPU with CUDA events through
torch (as Triton's do), clearing the L2 cache between runs; `perf_report` /
`Benchmark` run a benchmark over a grid of arguments and print (or save) the
table.
"""
from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any, Callable, Sequence

__all__ = ["do_bench", "do_bench_cudagraph", "Benchmark", "Mark", "perf_report"]


def _torch() -> Any:
    try:
        import torch
    except ImportError as exc:
        raise RuntimeError("tile.testing times kernels with CUDA events through torch, "
                           "which is not importable") from exc
    if not torch.cuda.is_available():
        raise RuntimeError("tile.testing needs a CUDA GPU (torch.cuda.is_available() is False)")
    return torch


def _summarize(times: list[float], quantiles: Sequence[float] | None,
               return_mode: str) -> Any:
    if quantiles is not None:
        ordered = sorted(times)
        values = [ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]
                  for q in quantiles]
        return values[0] if len(values) == 1 else values
    if return_mode == "all":
        return times
    if return_mode == "min":
        return min(times)
    if return_mode == "max":
        return max(times)
    if return_mode == "median":
        return statistics.median(times)
    if return_mode == "mean":
        return statistics.fmean(times)
    raise ValueError(f"return_mode must be one of min, max, mean, median, all; got "
                     f"{return_mode!r}")


def _zero_grads(grad_to_none: Sequence[Any] | None) -> None:
    for x in grad_to_none or ():
        x.grad = None


def do_bench(fn: Callable[[], Any], warmup: float = 25, rep: float = 100,
             grad_to_none: Sequence[Any] | None = None,
             quantiles: Sequence[float] | None = None, return_mode: str = "mean") -> Any:
    """Milliseconds per call of `fn`: about `warmup` ms of warm-up calls, then
    about `rep` ms of timed calls, each after clearing the L2 cache."""
    torch = _torch()
    fn()
    torch.cuda.synchronize()
    cache = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(5):
        cache.zero_()
        fn()
    end.record()
    torch.cuda.synchronize()
    estimate = max(start.elapsed_time(end) / 5, 1e-6)
    n_warmup = max(1, int(warmup / estimate))
    n_repeat = max(1, int(rep / estimate))
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    for _ in range(n_warmup):
        fn()
    for i in range(n_repeat):
        _zero_grads(grad_to_none)
        cache.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    times = [s.elapsed_time(e) for s, e in zip(starts, ends)]
    return _summarize(times, quantiles, return_mode)


def do_bench_cudagraph(fn: Callable[[], Any], rep: float = 20,
                       grad_to_none: Sequence[Any] | None = None,
                       quantiles: Sequence[float] | None = None,
                       return_mode: str = "mean") -> Any:
    """Milliseconds per call of `fn`, captured in a CUDA graph and replayed
    (no host launch overhead in the figure)."""
    torch = _torch()
    with torch.cuda.stream(torch.cuda.Stream()):
        fn()  # compile and load outside the capture
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            fn()
        torch.cuda.synchronize()
        start.record()
        for _ in range(5):
            graph.replay()
        end.record()
        torch.cuda.synchronize()
        estimate = max(start.elapsed_time(end) / 5, 1e-6)
        n_repeat = max(1, int(rep / estimate))
        # One graph of n_repeat calls, replayed a few times: each replay's
        # time over n_repeat is one sample.
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(n_repeat):
                _zero_grads(grad_to_none)
                fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(10):
            start.record()
            graph.replay()
            end.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(end) / n_repeat)
    return _summarize(times, quantiles, return_mode)


class Benchmark:
    """One benchmark's grid: `x_names` take each of `x_vals`, `line_arg` each
    of `line_vals` (one column per value, named by `line_names`)."""

    def __init__(self, x_names: Sequence[str], x_vals: Sequence[Any], line_arg: str,
                 line_vals: Sequence[Any], line_names: Sequence[str], plot_name: str,
                 args: dict[str, Any] | None = None, xlabel: str = "", ylabel: str = "",
                 x_log: bool = False, y_log: bool = False, styles: Any = None,
                 color: Any = None) -> None:
        self.x_names = list(x_names)
        self.x_vals = list(x_vals)
        self.line_arg = line_arg
        self.line_vals = list(line_vals)
        self.line_names = list(line_names)
        self.plot_name = plot_name
        self.args = dict(args or {})
        self.xlabel, self.ylabel = xlabel, ylabel
        self.x_log, self.y_log = x_log, y_log
        self.styles = styles


class Mark:
    """A benchmark function with its grid(s); `.run()` measures and reports."""

    def __init__(self, fn: Callable[..., Any], benchmarks: Benchmark | Sequence[Benchmark]):
        self.fn = fn
        self.benchmarks = benchmarks

    def _run(self, bench: Benchmark, save_path: str, show_plots: bool, print_data: bool,
             **kwargs: Any) -> Any:
        header = list(bench.x_names) + list(bench.line_names)
        rows: list[list[Any]] = []
        for x in bench.x_vals:
            xs = list(x) if isinstance(x, (list, tuple)) else [x] * len(bench.x_names)
            named = dict(zip(bench.x_names, xs))
            row = list(xs)
            for value in bench.line_vals:
                result = self.fn(**named, **{bench.line_arg: value}, **bench.args, **kwargs)
                # Triton's benchmarks return a number or (mid, min, max): keep the mid.
                row.append(result[0] if isinstance(result, (tuple, list)) else result)
            rows.append(row)
        if print_data:
            print(f"{bench.plot_name}:")
            print(_format_table(header, rows))
        if save_path:
            out = Path(save_path)
            out.mkdir(parents=True, exist_ok=True)
            lines = [",".join(header)] + [",".join(str(v) for v in row) for row in rows]
            (out / f"{bench.plot_name}.csv").write_text("\n".join(lines) + "\n")
        if show_plots or save_path:
            _plot(bench, header, rows, save_path, show_plots)
        try:
            import pandas
        except ImportError:
            return rows
        return pandas.DataFrame(rows, columns=header)

    def run(self, show_plots: bool = False, print_data: bool = False, save_path: str = "",
            return_df: bool = False, **kwargs: Any) -> Any:
        benchmarks = [self.benchmarks] if isinstance(self.benchmarks, Benchmark) \
            else list(self.benchmarks)
        results = [self._run(b, save_path, show_plots, print_data, **kwargs) for b in benchmarks]
        if return_df:
            return results[0] if len(results) == 1 else results
        return None


def _format_table(header: list[str], rows: list[list[Any]]) -> str:
    cells = [[str(h) for h in header]] + [
        [f"{v:.6g}" if isinstance(v, float) else str(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in cells)


def _plot(bench: Benchmark, header: list[str], rows: list[list[Any]], save_path: str,
          show: bool) -> None:
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        return  # the table was printed or saved; plotting is optional
    figure, axes = plt.subplots()
    xs = [row[0] for row in rows]
    for i, name in enumerate(bench.line_names):
        axes.plot(xs, [row[len(bench.x_names) + i] for row in rows], label=name)
    axes.set_xlabel(bench.xlabel or bench.x_names[0])
    axes.set_ylabel(bench.ylabel)
    if bench.x_log:
        axes.set_xscale("log")
    if bench.y_log:
        axes.set_yscale("log")
    axes.legend()
    if save_path:
        figure.savefig(Path(save_path) / f"{bench.plot_name}.png")
    if show:
        plt.show()
    plt.close(figure)


def perf_report(benchmarks: Benchmark | Sequence[Benchmark]) -> Callable[[Callable[..., Any]], Mark]:
    """Decorator: `@perf_report(Benchmark(...))` on a function returning times
    or rates; call `.run(print_data=True)` on the result."""
    return lambda fn: Mark(fn, benchmarks)
