"""Hardware counters for tutorial 05's layer-norm forward at 8192x4096 f16 (bench's
layer_norm_fwd with the tutorial's launch) under tile and Triton, one launch each
after a warm-up: run under Nsight Compute on the GPU machine, from the
repository root:

    ncu --clock-control none \\
        --kernel-name regex:layer_norm_fwd --launch-skip 2 --launch-count 2 \\
        --section SpeedOfLight --section MemoryWorkloadAnalysis \\
        --section WarpStateStats --section LaunchStats --section Occupancy \\
        python3 bench/profile_layer_norm.py
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch  # noqa: E402

from run import load_kernels  # noqa: E402

M, N = 8192, 4096
EPS = 1e-5


def main() -> None:
    x = torch.randn((M, N), device="cuda", dtype=torch.float16)
    w = torch.randn((N,), device="cuda", dtype=torch.float16)
    b = torch.randn((N,), device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    mean = torch.empty((M,), device="cuda")
    rstd = torch.empty((M,), device="cuda")
    expected = torch.nn.functional.layer_norm(x.float(), (N,), w.float(), b.float(), EPS)
    block = min(65536 // 2, 1 << (N - 1).bit_length())
    num_warps = min(max(block // 256, 1), 8)
    kernels = {backend: load_kernels(backend) for backend in ("tile", "triton")}
    for _ in range(2):  # the first round warms up, the second is profiled
        for backend, k in kernels.items():
            y.zero_()
            k.layer_norm_fwd[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, EPS,
                                   BLOCK_SIZE=block, num_warps=num_warps)
            torch.cuda.synchronize()
            assert torch.allclose(y.float(), expected, atol=2e-2, rtol=1e-2), backend
    print("ok")


if __name__ == "__main__":
    main()
