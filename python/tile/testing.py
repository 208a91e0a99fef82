"""Benchmarking helpers with Triton's signatures (`triton.testing`), so that
tutorial benchmark code runs with `import tile as triton`.

`do_bench` and `do_bench_cudagraph` time on the GPU with CUDA events through
torch (as Triton's do), clearing the L2 cache between runs; `perf_report` /
`Benchmark` run a benchmark over a grid of arguments and print (or save) the
table; `assert_close` compares results with Triton's default tolerances;
`get_dram_gbps`, `get_max_tensorcore_tflops`, `get_max_simd_tflops` and
`nvsmi` give a device's peak figures, as Triton's.
"""
from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any, Callable, Sequence

__all__ = ["do_bench", "do_bench_cudagraph", "Benchmark", "Mark", "perf_report", "assert_close",
           "nvsmi", "get_dram_gbps", "get_max_tensorcore_tflops", "get_max_simd_tflops"]


def _torch() -> Any:
    try:
        import torch
    except ImportError as exc:
        raise RuntimeError("tile.testing times kernels with CUDA events through torch, "
                           "which is not importable") from exc
    if not torch.cuda.is_available():
        raise RuntimeError("tile.testing needs a CUDA GPU (torch.cuda.is_available() is False)")
    return torch


def _quantile(times: Sequence[float], q: float) -> float:
    """The q-quantile of `times`, interpolated linearly between the two
    nearest ranks (NumPy's default, as Triton's do_bench computes it)."""
    if not 0 <= q <= 1:
        raise ValueError(f"quantiles must be in [0, 1], got {q}")
    ordered = sorted(times)
    point = q * (len(ordered) - 1)
    low, high = math.floor(point), math.ceil(point)
    return (1 - (point - low)) * ordered[low] + (point - low) * ordered[high]


def _summarize(times: list[float], quantiles: Sequence[float] | None,
               return_mode: str) -> Any:
    if quantiles is not None:
        values = [_quantile(times, q) for q in quantiles]
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
    from .runtime.driver import driver
    fn()
    torch.cuda.synchronize()
    cache = driver.active.get_empty_cache_for_benchmark()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(5):
        driver.active.clear_cache(cache)
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
        driver.active.clear_cache(cache)
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
    (no host launch overhead in the figure), on a stream of its own: a call
    first (compiling and loading outside the capture), five to estimate a
    call's time, then one graph of about `rep` ms of calls, replayed ten
    times; each replay's time over its calls is one sample."""
    torch = _torch()
    with torch.cuda.stream(torch.cuda.Stream()):
        fn()
        for x in grad_to_none or ():
            x.detach_()
            x.requires_grad_(True)
            x.grad = None
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(5):
            fn()
        end.record()
        torch.cuda.synchronize()
        estimate = start.elapsed_time(end) / 5
        n_repeat = 1000 if estimate == 0 else max(1, int(rep / estimate))
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(n_repeat):
                _zero_grads(grad_to_none)
                fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(10):
            start, end = (torch.cuda.Event(enable_timing=True),
                          torch.cuda.Event(enable_timing=True))
            start.record()
            graph.replay()
            end.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(end) / n_repeat)
    return _summarize(times, quantiles, return_mode)


def assert_close(x: Any, y: Any, atol: Any = None, rtol: Any = None, err_msg: str = "") -> None:
    """Asserts |x - y| <= atol + rtol * |y| elementwise (NaNs equal), as
    Triton's: atol 1e-2 and rtol 0 by default, either a number or a function
    of x's dtype; numbers, lists, NumPy arrays or torch tensors (any device)."""
    import numpy as np
    x_dtype = getattr(x, "dtype", None)
    x, y = _host_array(x), _host_array(y)
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    atol = atol(x_dtype if x_dtype is not None else x.dtype) if callable(atol) else atol
    rtol = rtol(x_dtype if x_dtype is not None else x.dtype) if callable(rtol) else rtol
    if x.size > 1 or y.size > 1:
        np.testing.assert_allclose(x, y, atol=atol, rtol=rtol, equal_nan=True,
                                   err_msg=err_msg)
        return
    if not np.allclose(x, y, atol=atol, rtol=rtol, equal_nan=True):
        raise AssertionError(f"{err_msg} {x} is not close to {y} (atol={atol}, rtol={rtol})")


def _host_array(value: Any) -> Any:
    """A NumPy array of `value` (a torch tensor copied to the host, bf16 as f32)."""
    import numpy as np
    if hasattr(value, "detach") and hasattr(value, "cpu"):  # a torch tensor
        value = value.detach().cpu()
        if str(value.dtype) == "torch.bfloat16":
            value = value.float()
        return value.numpy()
    return np.asarray(value)


def nvsmi(attrs: Sequence[str]) -> list[int]:
    """`nvidia-smi --query-gpu=<attrs>` of GPU 0, as integers (Triton's)."""
    import subprocess
    import sys
    out = subprocess.check_output(["nvidia-smi", "-i", "0", "--query-gpu=" + ",".join(attrs),
                                   "--format=csv,noheader,nounits"])
    return [int(x) for x in out.decode(sys.stdout.encoding or "utf-8").split(",")]


def _properties(device: int | None) -> dict[str, int]:
    from .runtime.driver import driver
    ordinal = driver.active.get_current_device() if device is None else device
    return driver.active.utils.get_device_properties(ordinal)


def get_dram_gbps(device: int | None = None) -> float:
    """The device's DRAM bandwidth in GB/s: memory clock (kHz) x bus width x 2 (DDR)."""
    properties = _properties(device)
    return properties["mem_clock_rate"] * properties["mem_bus_width"] * 2 / 1e6 / 8


def _capability(device: int | None) -> tuple[int, int]:
    from . import driver
    return driver.device(device).capability


# Dense tensor-core and SIMD operations per clock per SM sub-core (4 per SM),
# as Triton counts them, by element type name: sm_80 and later / before.
_TENSORCORE_OPS = {"float32": 256, "int32": 256, "float16": 512, "bfloat16": 512,
                   "int16": 512, "int8": 1024, "float8_e4m3fn": 1024, "float8_e5m2": 1024,
                   "fp8e4nv": 1024, "fp8e5": 1024}
_SIMD_OPS = {"float32": 32, "float16": 64, "bfloat16": 64}


def _dtype_name(dtype: Any) -> str:
    return str(getattr(dtype, "name", None) or dtype).replace("torch.", "")


def get_max_tensorcore_tflops(dtype: Any, clock_rate: float, device: int | None = None) -> float:
    """Peak dense tensor-core TFLOPS of `dtype` (torch or tile dtype) at
    `clock_rate` kHz: 4 sub-cores per SM, Triton's operations per clock."""
    name = _dtype_name(dtype)
    if _capability(device)[0] < 8:
        if name != "float16":
            raise RuntimeError("dtype not supported")
        per_core = 256
    elif name in _TENSORCORE_OPS:
        per_core = _TENSORCORE_OPS[name]
    else:
        raise RuntimeError("dtype not supported")
    return _properties(device)["multiprocessor_count"] * 4 * clock_rate * per_core * 1e-9


def get_max_simd_tflops(dtype: Any, clock_rate: float, device: int | None = None) -> float:
    """Peak SIMD (non-tensor-core) TFLOPS of fp32, fp16 or bf16 at `clock_rate` kHz."""
    name = _dtype_name(dtype)
    if name not in _SIMD_OPS or (_capability(device)[0] < 8 and name == "bfloat16"):
        raise RuntimeError("dtype not supported")
    return _properties(device)["multiprocessor_count"] * 4 * clock_rate * _SIMD_OPS[name] * 1e-9


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
