"""Tutorial 03's matmul under each of its autotune configs, tile and Triton
interleaved in one process: shows whether a gap between the autotuned rows of
bench/run.py is one config's or every config's. Run on the GPU machine from
the repository root:

    python3 bench/profile_tutorial03.py [size] [dtype] [rounds] [config]

(defaults 4096, float16, 3, every config; a config such as 64x256x32 keeps
the configs whose name starts so, e.g. to profile one under ncu, where tile's
launch comes first and Triton's second). Each round times every config under both
backends with `triton.testing.do_bench` (median); the table gives the median
over rounds in TFLOP/s and tile/Triton, then which config each backend's
autotuner picked. Then the paired timing: per config, PAIRS launches of each
backend taking turns one launch at a time, each after an L2 flush and timed
by its own CUDA events, so that both see the same clocks and power state;
it gives the median of the per-pair ratios, and beside it the same for tile
against itself (the pairing's own noise floor).
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch  # noqa: E402
import triton  # noqa: E402

from paired import PAIRS, PairedTimer  # noqa: E402
from run import load_kernels  # noqa: E402

BACKENDS = ("tile", "triton")


def config_name(config: Any) -> str:
    kw = config.kwargs
    return (f"{kw['BLOCK_SIZE_M']}x{kw['BLOCK_SIZE_N']}x{kw['BLOCK_SIZE_K']} "
            f"w{config.num_warps} s{config.num_stages}")


def main() -> None:
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    dtype = getattr(torch, sys.argv[2] if len(sys.argv) > 2 else "float16")
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    wanted = sys.argv[4] if len(sys.argv) > 4 else ""
    torch.manual_seed(0)
    a = torch.randn((size, size), device="cuda", dtype=dtype)
    b = torch.randn((size, size), device="cuda", dtype=dtype)
    c = torch.empty((size, size), device="cuda", dtype=torch.float16)
    expected = (a.float() @ b.float()).half()
    kernels = {backend: load_kernels(backend) for backend in BACKENDS}
    configs = [cfg for cfg in kernels["triton"].tutorial03_configs()
               if config_name(cfg).startswith(wanted)]
    if not configs:
        raise SystemExit(f"no tutorial 03 config starts with {wanted!r}")

    def launcher(backend: str, config: Any):
        fn = kernels[backend].matmul_tutorial03.fn  # the @jit under the autotuner
        kw = config.kwargs
        grid = (triton.cdiv(size, kw["BLOCK_SIZE_M"]) * triton.cdiv(size, kw["BLOCK_SIZE_N"]),)
        return lambda: fn[grid](a, b, c, size, size, size, a.stride(0), a.stride(1),
                                b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                                num_warps=config.num_warps, num_stages=config.num_stages,
                                **kw)

    runs = {(backend, i): launcher(backend, cfg) for i, cfg in enumerate(configs)
            for backend in BACKENDS}
    for (backend, i), run in runs.items():
        c.zero_()
        run()
        torch.cuda.synchronize()
        err = (c.float() - expected.float()).abs().max().item()
        assert err <= 0.25 * (size / 4096) ** 0.5 * 4, (backend, config_name(configs[i]), err)
    samples: dict[tuple[str, int], list[float]] = {key: [] for key in runs}
    for _ in range(rounds):
        for key, run in runs.items():
            samples[key].append(triton.testing.do_bench(run, warmup=25, rep=200))
    flops = 2 * size ** 3
    print(f"tutorial 03, {size}^3 {str(dtype).removeprefix('torch.')}, median of {rounds} rounds")
    print(f"{'config':22s} {'tile TFLOP/s':>12s} {'Triton':>8s} {'tile/Triton':>11s}")
    for i, cfg in enumerate(configs):
        ms = {backend: statistics.median(samples[(backend, i)]) for backend in BACKENDS}
        tf = {backend: flops / ms[backend] / 1e9 for backend in BACKENDS}
        print(f"{config_name(cfg):22s} {tf['tile']:12.1f} {tf['triton']:8.1f} "
              f"{ms['triton'] / ms['tile']:10.3f}x")
    paired(torch, runs, configs)
    args = (a, b, c, size, size, size, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
            c.stride(0), c.stride(1))
    grid = lambda meta: (triton.cdiv(size, meta["BLOCK_SIZE_M"])  # noqa: E731
                         * triton.cdiv(size, meta["BLOCK_SIZE_N"]),)
    for backend in BACKENDS:
        tuned = kernels[backend].matmul_tutorial03
        tuned[grid](*args)
        torch.cuda.synchronize()
        print(f"{backend} autotuner picked: {config_name(tuned.best_config)}")


def paired(torch: Any, runs: dict, configs: list) -> None:
    """The paired timing of the docstring: tile/Triton and tile/tile."""
    timer = PairedTimer(torch)
    print(f"paired: median over {PAIRS} pairs of one launch each, L2 flushed before each")
    print(f"{'config':22s} {'tile/Triton':>11s} {'tile/tile':>10s}")
    for i, cfg in enumerate(configs):
        tile = runs[("tile", i)]
        versus_triton = timer.ratio(tile, runs[("triton", i)])
        versus_tile = timer.ratio(tile, tile)
        print(f"{config_name(cfg):22s} {versus_triton:10.3f}x {versus_tile:9.3f}x")


if __name__ == "__main__":
    main()
