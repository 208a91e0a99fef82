"""Hardware counters for the masked 2-D add (8191x8193, tile 32x128) under
tile and Triton, one launch each after a warm-up: run under Nsight Compute on
the GPU machine, from the repository root:

    ncu --clock-control none \\
        --kernel-name regex:matrix_add --launch-skip 2 --launch-count 2 \\
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats \\
        python3 bench/profile_matrix_add.py
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch  # noqa: E402

from run import load_kernels  # noqa: E402

M, N, TM, TN = 8191, 8193, 32, 128


def main() -> None:
    a = torch.randn((M, N), device="cuda")
    b = torch.randn((M, N), device="cuda")
    out = torch.empty((M, N), device="cuda")
    grid = ((M + TM - 1) // TM, (N + TN - 1) // TN)
    kernels = {backend: load_kernels(backend) for backend in ("tile", "triton")}
    for _ in range(2):  # the first round warms up, the second is profiled
        for backend, k in kernels.items():
            k.matrix_add[grid](a, b, out, M, N, a.stride(0), TILE_M=TM, TILE_N=TN)
            torch.cuda.synchronize()
            assert torch.equal(out, a + b), backend
    print("ok")


if __name__ == "__main__":
    main()
