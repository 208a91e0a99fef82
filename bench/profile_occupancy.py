"""The kernels whose compile raised occupancy, timed three ways in one
process: tile's cubin under the occupancy limit (what the JIT launches for
large grids), tile's assembler-own cubin (what it launches for grids that fit
at once without the limit) and Triton's kernel. Run on the GPU machine from
the repository root:

    python3 bench/profile_occupancy.py

It prints each kernel's registers with and without the limit and the grid
size below which the launcher takes the assembler's own cubin, then the
median of `triton.testing.do_bench` over five alternations for each way.
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
    limited = [k for k in modules._loaded.values() if k.name == kernel_name][-1]
    own = limited.small_grid_kernel
    print(f"{label}: registers {limited.meta.get('registers')} under the limit, "
          f"{limited.meta.get('registers_without_limit')} without; grids of at most "
          f"{limited.small_grid_blocks} blocks run the latter", flush=True)
    ways: list[tuple[str, Callable[[], Any]]] = [
        ("tile (JIT launch)", lambda: launch(tile_kernels)),
        ("triton", lambda: launch(triton_kernels)),
        ("tile limited cubin", lambda: limited.launch(grid, list(args)))]
    if own is not None:
        ways.append(("tile own cubin", lambda: own.launch(grid, list(args))))
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
    for (label, what), samples in times.items():
        print(f"{label:20s} {what:20s} median {statistics.median(samples):6.1f} us  "
              f"({', '.join(f'{t:.1f}' for t in samples)})")


if __name__ == "__main__":
    main()
