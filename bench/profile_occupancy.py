"""The kernels that carry a second cubin for grids that fit at once, timed
three ways in one process: tile's main cubin (what the JIT launches for large
grids: the assembler's own, or under the occupancy limit), tile's cubin for
grids that fit at once (assembled for one block per SM, or the assembler's
own where the compile raised occupancy) and Triton's kernel. Run on the GPU
machine from the repository root:

    python3 bench/profile_occupancy.py

It prints each kernel's registers in both cubins and the grid size up to
which the launcher takes the second, then the median of
`triton.testing.do_bench` over five alternations for each way. The column
sums' grids (128 and 64 blocks) fit at once: the JIT launches their second
cubin. The naive matmul's (8192 blocks) does not: its second cubin is timed
at that grid all the same.
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch  # noqa: E402
import triton  # noqa: E402

from run import load_kernels  # noqa: E402
from tile.driver import modules  # noqa: E402

REPEATS = 5


def compare(label: str, kernel_name: str, grid: tuple[int, ...], args: Sequence[Any],
            launch: Callable[[Any], None], times: dict[tuple[str, str], list[float]]) -> None:
    tile_kernels, triton_kernels = load_kernels("tile"), load_kernels("triton")
    launch(tile_kernels)
    launch(triton_kernels)
    torch.cuda.synchronize()
    cubin, kernel = [(key[1], k) for key, k in modules._loaded.items()
                     if k.name == kernel_name][-1]
    small_grid = kernel.small_grid_kernel
    # The main cubin alone: the JIT's kernel launches the other for grids that fit.
    main_only = modules.Module(cubin, kernel.module.metadata).kernel(kernel_name)
    print(f"{label}: registers {kernel.meta.get('registers')} in the main cubin, "
          f"{kernel.meta.get('registers_without_limit')} in the one for grids that fit "
          f"at once, which grids of at most {kernel.small_grid_blocks} blocks run", flush=True)
    ways: list[tuple[str, Callable[[], Any]]] = [
        ("tile (JIT launch)", lambda: launch(tile_kernels)),
        ("triton", lambda: launch(triton_kernels)),
        ("tile main cubin", lambda: main_only.launch(grid, list(args)))]
    if small_grid is not None:
        ways.append(("tile small-grid cubin", lambda: small_grid.launch(grid, list(args))))
    for _ in range(REPEATS):
        for what, fn in ways:
            times.setdefault((label, what), []).append(triton.testing.do_bench(fn) * 1000)


def main() -> None:
    times: dict[tuple[str, str], list[float]] = {}
    for m, n in ((8192, 4096), (4096, 8192)):
        x = torch.randn((m, n), device="cuda", dtype=torch.float16)
        w = torch.randn((n,), device="cuda", dtype=torch.float16)
        b = torch.randn_like(w)
        y = torch.empty_like(x)
        mean = torch.empty((m,), device="cuda")
        rstd = torch.empty_like(mean)
        block = min(65536 // 2, 1 << (n - 1).bit_length())
        warps = min(max(block // 256, 1), 8)
        args = (x, y, w, b, mean, rstd, x.stride(0), n, 1e-5)
        compare(f"layer-norm {m}x{n}", "layer_norm_fwd", (m,), args,
                lambda k, m=m, args=args, block=block, warps=warps: k.layer_norm_fwd[(m,)](
                    *args, BLOCK_SIZE=block, num_warps=warps), times)
    x = torch.randn((4096, 4096), device="cuda")
    out = torch.empty_like(x)
    compare("cumsum 4096x4096", "row_cumsum", (4096,), (x, out, x.stride(0), 4096),
            lambda k: k.row_cumsum[(4096,)](x, out, x.stride(0), 4096, BLOCK=4096), times)
    x = torch.randn((8192, 8192), device="cuda")
    sums = torch.empty((8192,), device="cuda")
    for bm, bn in ((64, 64), (32, 128)):
        grid = (8192 // bn,)
        compare(f"column sum {bm}x{bn}", "column_sum", grid, (x, sums, 8192, 8192, x.stride(0)),
                lambda k, grid=grid, bm=bm, bn=bn: k.column_sum[grid](
                    x, sums, 8192, 8192, x.stride(0), BLOCK_M=bm, BLOCK_N=bn), times)
    # The naive matmul's grid (8192 blocks) does not fit at once: the JIT
    # launches its main cubin; the other is timed at that grid to see what
    # one block per SM's registers (loads in flight) would buy there.
    for kdim in (64, 128):
        a = torch.randn((4096, kdim), device="cuda")
        b = torch.randn((kdim, 4096), device="cuda")
        c = torch.empty((4096, 4096), device="cuda")
        args = (a, b, c, 4096, 4096, a.stride(0), b.stride(0), c.stride(0))
        compare(f"naive matmul K={kdim}", "matmul_naive", (128, 64), args,
                lambda k, args=args, kdim=kdim: k.matmul_naive[(128, 64)](
                    *args, K=kdim, BLOCK_M=32, BLOCK_N=64), times)
    for (label, what), samples in times.items():
        print(f"{label:20s} {what:20s} median {statistics.median(samples):6.1f} us  "
              f"({', '.join(f'{t:.1f}' for t in samples)})")


if __name__ == "__main__":
    main()
