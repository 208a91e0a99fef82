"""Tutorial 06's forward (bench/kernels.py attention06) per autotune config,
tile and Triton in one process: which config each backend's autotuner would
pick, and by how much. Run on the GPU machine from the repository root:

    python3 bench/profile_attention06.py [HEAD_DIM ...]

For each head dim (default 64 and 128), causal and not, it prints the median
time (triton.testing.do_bench) of every config of TUTORIAL06_CONFIGS that the
tutorial's prune keeps, per backend.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch  # noqa: E402
import triton.testing  # noqa: E402

from run import load_kernels  # noqa: E402

BATCH, HEADS, N_CTX = 4, 32, 4096


def config_name(config) -> str:
    return (f"BM{config.kwargs['BLOCK_M']} BN{config.kwargs['BLOCK_N']} "
            f"w{config.num_warps} s{config.num_stages}")


def main() -> None:
    head_dims = [int(a) for a in sys.argv[1:]] or [64, 128]
    kernels = {backend: load_kernels(backend) for backend in ("tile", "triton")}
    for head_dim in head_dims:
        shape = (BATCH, HEADS, N_CTX, head_dim)
        q, k, v = (torch.randn(shape, device="cuda", dtype=torch.float16) for _ in range(3))
        for causal in (False, True):
            print(f"== D{head_dim} {'causal' if causal else 'non-causal'}")
            for backend, module in kernels.items():
                tuner = module.attention06_fwd
                all_configs = list(tuner.configs)
                for config in all_configs:
                    if config.kwargs["BLOCK_N"] > head_dim or (
                            causal and config.kwargs["BLOCK_M"] < config.kwargs["BLOCK_N"]):
                        continue
                    tuner.configs = [config]
                    tuner.cache.clear()
                    run = lambda: module.attention06(q, k, v, causal, head_dim ** -0.5)  # noqa: E731
                    try:
                        ms = triton.testing.do_bench(run)
                        print(f"   {backend:6s} {config_name(config):22s} {ms * 1e3:9.1f} us")
                    except Exception as error:  # noqa: BLE001 (a config a backend refuses)
                        print(f"   {backend:6s} {config_name(config):22s} {type(error).__name__}")
                tuner.configs = all_configs
                tuner.cache.clear()


if __name__ == "__main__":
    main()
