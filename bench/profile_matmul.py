"""Hardware counters for the 4096^3 f16 tl.dot matmul (bench's matmul_dot with
DOT_CONFIG, the same blocks for both) under tile and Triton, one launch each
after a warm-up: run under Nsight Compute on the GPU machine, from the
repository root:

    ncu --clock-control none \\
        --kernel-name regex:matmul_dot --launch-skip 2 --launch-count 2 \\
        --section SpeedOfLight --section WarpStateStats --section LaunchStats \\
        python3 bench/profile_matmul.py
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch  # noqa: E402

from run import DOT_CONFIG, load_kernels  # noqa: E402

M = N = K = 4096


def main() -> None:
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((K, N), device="cuda", dtype=torch.float16)
    c = torch.empty((M, N), device="cuda", dtype=torch.float16)
    expected = a.float() @ b.float()
    kernels = {backend: load_kernels(backend) for backend in ("tile", "triton")}
    for _ in range(2):  # the first round warms up, the second is profiled
        for backend, k in kernels.items():
            cfg = dict(DOT_CONFIG[backend])
            grid = ((M // cfg["BLOCK_M"]) * (N // cfg["BLOCK_N"]),)
            c.zero_()
            k.matmul_dot[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                               b.stride(1), c.stride(0), c.stride(1), **cfg)
            torch.cuda.synchronize()
            assert torch.allclose(c.float(), expected, atol=0.25, rtol=1e-2), backend
    print("ok")


if __name__ == "__main__":
    main()
