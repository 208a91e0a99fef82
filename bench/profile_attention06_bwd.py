"""Tutorial 06's backward kernel `_attn_bwd` once under tile and once under
Triton, in one process, for Nsight Compute to compare. Run on the GPU machine
from the repository root, e.g.:

    ncu --clock-control none -k regex:_attn_bwd$ --section SpeedOfLight \\
        --section WarpStateStats python3 bench/profile_attention06_bwd.py 128 causal

Arguments: the head dim (default 64) and `causal` (default not).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch  # noqa: E402

from run import load_kernels  # noqa: E402

BATCH, HEADS, N_CTX = 4, 32, 4096


def main() -> None:
    head_dim = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    causal = "causal" in sys.argv[2:]
    torch.manual_seed(0)
    shape = (BATCH, HEADS, N_CTX, head_dim)
    q, k, v, o, do = (torch.randn(shape, device="cuda", dtype=torch.float16)
                      for _ in range(5))
    m = torch.randn((BATCH, HEADS, N_CTX), device="cuda")
    for backend in ("tile", "triton"):
        kernels = load_kernels(backend)
        kernels.attention06_backward(q, k, v, o, m, do, causal, 0.5)
        torch.cuda.synchronize()
        print(f"{backend}: _attn_bwd ran (D{head_dim}, causal={causal})")


if __name__ == "__main__":
    main()
