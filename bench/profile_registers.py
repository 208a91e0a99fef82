"""bench/run.py's cases with tile's kernel compiled under several register
limits (Triton's `maxnreg` launch option: `.maxnreg` in the PTX, so only the
assembler's work changes), timed in one process beside tile's own choice and
Triton's kernel. Run on the GPU machine from the repository root:

    python3 bench/profile_registers.py --cases matmul_naive_k128 'layer_norm*'
    python3 bench/profile_registers.py --limits 48 64 96 --rounds 5

For each case it prints the registers of each variant's cubin and the median
of `triton.testing.do_bench` over the rounds (the ways taking turns within a
round), with each way's speed against Triton's. Every variant's output is
checked against the case's reference first. A variant with a register limit
launches its one cubin for every grid; "tile" is what the JIT launches (for
grids that fit at once, the cubin assembled for one block per SM).
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch  # noqa: E402
import triton  # noqa: E402

from run import (Case, TorchAlloc, all_cases, bench_time, first_call,  # noqa: E402
                 load_kernels, select)
import tile.driver as tile_driver  # noqa: E402

# The cases on CUDA cores: the bandwidth rows and the naive matmul.
DEFAULT_CASES = ["vector_add", "matrix_add*", "softmax*", "matmul_naive*",
                 "row_cumsum*", "column_sum*", "transpose*", "layer_norm*"]


class WithOptions:
    """A kernels module whose kernels launch with extra options: `k.f[grid](...)`
    becomes `f[grid](..., **options)`."""

    def __init__(self, module: Any, **options: Any) -> None:
        self._module, self._options = module, options

    def __getattr__(self, name: str) -> Any:
        kernel, options = getattr(self._module, name), self._options

        class Launch:
            def __getitem__(self, grid: Any) -> Callable[..., Any]:
                return lambda *args, **kwargs: kernel[grid](*args, **kwargs, **options)
        return Launch()


class ArtifactRecorder:
    """Records the compiled artifact each launch's slow path loads (through
    tile.driver.kernel_for): two ways whose cubins are byte for byte the same
    share one loaded kernel, so the artifact, not the newest loaded kernel,
    says what a way compiled to."""

    def __init__(self) -> None:
        self.last: Any = None
        self._kernel_for = tile_driver.kernel_for
        tile_driver.kernel_for = self._record

    def _record(self, artifact: Any, device: int) -> Any:
        self.last = artifact
        return self._kernel_for(artifact, device)

    def registers(self) -> str:
        if self.last is None:
            return "?"
        meta = self.last.metadata
        one_block = meta.get("registers_without_limit")
        return str(meta.get("registers", "?")) + (
            f" ({one_block} for grids of at most {meta.get('resident_blocks_without_limit')}"
            " blocks per SM)" if one_block else "")


def profile(case: Case, limits: list[int], rounds: int, rep: int,
            recorder: ArtifactRecorder) -> None:
    alloc = TorchAlloc(torch)
    bufs = case.make(alloc)
    tile_kernels = load_kernels("tile")
    # Triton only where bench/run.py runs it by default (its K=512 naive
    # matmul compiles for minutes); ratios are then against tile's own choice.
    modules_by_way: dict[str, Any] = {"tile": tile_kernels}
    if case.triton_default:
        modules_by_way["triton"] = load_kernels("triton")
    for limit in limits:
        modules_by_way[f"tile maxnreg={limit}"] = WithOptions(tile_kernels, maxnreg=limit)
    ways: dict[str, Callable[[], Any]] = {}
    print(f"== {case.id}: {case.shape}", flush=True)
    for way, module in modules_by_way.items():
        backend = "triton" if way == "triton" else "tile"
        recorder.last = None
        result, fn = first_call(torch, case, module, backend, bufs)
        registers = recorder.registers() if backend == "tile" else "-"
        detail = result.get("check_detail", result.get("error", ""))
        print(f"   {way:18s} check {result.get('check', '-')} {detail}, registers {registers}",
              flush=True)
        if fn is not None and result.get("check", "ok") == "ok":
            ways[way] = fn
    times: dict[str, list[float]] = {way: [] for way in ways}
    for r in range(rounds):
        order = list(ways)
        order = order[r % len(order):] + order[:r % len(order)]
        for way in order:
            times[way].append(bench_time(triton, ways[way], rep) * 1000)
    against = "triton" if times.get("triton") else "tile"
    base = statistics.median(times[against]) if times.get(against) else None
    for way, samples in times.items():
        median = statistics.median(samples)
        ratio = f"{base / median:.3f}x {against}" if base else ""
        print(f"   {way:18s} {median:9.1f} us  {ratio}  "
              f"({', '.join(f'{t:.1f}' for t in samples)})", flush=True)
    del bufs
    torch.cuda.empty_cache()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="*", default=DEFAULT_CASES,
                        help="bench/run.py case ids or patterns")
    parser.add_argument("--limits", nargs="*", type=int, default=[32, 40, 48, 56, 64, 80, 96, 128],
                        help="register limits (maxnreg) to compile each kernel under")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rep", type=int, default=100, help="do_bench's rep (ms)")
    args = parser.parse_args()
    recorder = ArtifactRecorder()
    for case in select(all_cases(), args.cases):
        profile(case, args.limits, args.rounds, args.rep, recorder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
