"""Where the host time of a cached launch goes: bench's tiny_kernel (one
program) launched N times, under tile and Triton in one process, with torch's
`x.add_(1)` beside them. Run on the GPU machine from the repository root:

    python3 bench/profile_launch.py

Per backend it prints, in microseconds per launch (median of repeats):
  queued   N launches with no synchronize (the host's own cost while the
           GPU's queue has room; once it fills, the GPU's pace)
  short    SHORT launches with no synchronize, after a synchronize: few
           enough that the queue never fills, so the host's cost alone
  synced   N launches then one synchronize (bench/run.py's figure: the
           larger of the host's cost and the GPU's per-kernel time)
  graph    the GPU's own time per kernel: N launches captured in one CUDA
           graph, replayed (no host cost per kernel)
and for tile the pieces of `kernel[grid](...)`:
  getitem  `kernel[grid]` alone (JITFunction.__getitem__ and the C
           dispatcher's bound launch)
  call     calling a bound launch made once (key, lookup, packing, launch)
  kernel   `Kernel.launch` with the arguments bound already (packing and the
           driver call only)
and, in the same process, the driver's own floor: bench/launch_floor.c
(built here with the system's C compiler) launching a like kernel from C with
its arguments packed once, by cuLaunchKernel, by cuLaunchKernelEx, and by
cuLaunchKernel after cuCtxGetCurrent (a context check per launch, which
tile's launcher makes only after the driver refuses a launch).
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch  # noqa: E402

import launch_floor  # noqa: E402
from run import launch_overhead_us, load_kernels  # noqa: E402

N, BLOCK, LAUNCHES, SHORT, REPEATS = 128, 128, 2000, 200, 15


def per_launch(fn: Callable[[], Any], synchronized: bool, launches: int = LAUNCHES) -> float:
    return launch_overhead_us(torch, fn, launches, REPEATS, synchronized)


def graph_per_kernel(fn: Callable[[], Any]) -> float:
    """Microseconds per kernel of a CUDA graph of LAUNCHES calls of `fn`,
    replayed (median of REPEATS replays)."""
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):  # capture needs a non-default stream
        for _ in range(3):
            fn()
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=stream):
        for _ in range(LAUNCHES):
            fn()
    graph.replay()
    torch.cuda.synchronize()
    samples = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        graph.replay()
        torch.cuda.synchronize()
        samples.append((time.perf_counter() - t0) / LAUNCHES * 1e6)
    return statistics.median(samples)


def driver_floor() -> None:
    """Runs bench/launch_floor.c's launch_floor() in this process."""
    lib = launch_floor.load()
    if isinstance(lib, str):
        print(f"C driver floor: not measured ({lib})")
        return
    sys.stdout.flush()
    if lib.launch_floor() != 0:
        raise SystemExit("launch_floor: the C launches did not all run")


def report(name: str, fn: Callable[[], Any], graph: bool = True) -> None:
    line = (f"{name:28s} queued {per_launch(fn, False):6.2f}"
            f"   short {per_launch(fn, False, SHORT):6.2f}   synced {per_launch(fn, True):6.2f}")
    if graph:
        line += f"   graph {graph_per_kernel(fn):6.2f}"
    print(line)


def main() -> None:
    x = torch.zeros((N,), device="cuda")
    kernels = {backend: load_kernels(backend) for backend in ("tile", "triton")}
    for backend, k in kernels.items():
        report(f"{backend} kernel[grid](...)",
               lambda k=k: k.tiny_kernel[(1,)](x, N, BLOCK=BLOCK))
    report("torch x.add_(1)", lambda: x.add_(1))

    tiny = kernels["tile"].tiny_kernel
    grid = (1,)
    bound = tiny[grid]
    report("tile bound(...)", lambda: bound(x, N, BLOCK=BLOCK), graph=False)
    t0 = time.perf_counter()
    for _ in range(LAUNCHES * 10):
        tiny[grid]
    print(f"{'tile kernel[grid] alone':28s} {(time.perf_counter() - t0) / LAUNCHES / 10 * 1e6:6.2f}")
    (launcher, _sources), = tiny._dispatcher.entries.values()
    report("tile Kernel.launch", lambda: launcher.launch(grid, (x, N)), graph=False)
    address = x.data_ptr()
    report("tile Kernel.launch, int, s0", lambda: launcher.launch(grid, (address, N), 0),
           graph=False)
    driver_floor()
    expected = torch.zeros_like(x)
    x.zero_()
    tiny[grid](x, N, BLOCK=BLOCK)
    torch.cuda.synchronize()
    expected += 1
    assert torch.equal(x, expected), "tiny_kernel did not add 1"


if __name__ == "__main__":
    main()
