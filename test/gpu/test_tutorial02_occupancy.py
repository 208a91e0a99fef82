"""Triton tutorial 02's host code: device properties from
`driver.active.utils.get_device_properties`, `kernel.warmup(...)`,
`_init_handles()`, `n_regs`, `metadata.shared`, an occupancy-sized grid and
`kernel[grid](...)` with every argument positional, constexprs too, on the
tutorial's kernel (examples/python/tutorials/02_fused_softmax.py). Compiled on
the GPU (the interpreter has no registers to count)."""
from __future__ import annotations

import pytest

import tile as triton
from conformance_cases import T02
from tile.runtime.driver import driver

pytestmark = [pytest.mark.gpu]


def test_tutorial02_softmax_sizes_its_grid_from_the_kernels_registers() -> None:
    import torch
    device = torch.device("cuda", torch.cuda.current_device())
    properties = driver.active.utils.get_device_properties(device.index)
    assert properties["multiprocessor_count"] == torch.cuda.get_device_properties(
        device).multi_processor_count
    assert properties["warpSize"] == 32 and properties["max_num_regs"] >= 65536
    assert properties["max_shared_mem"] >= 48 * 1024
    torch.manual_seed(0)
    x = torch.randn(1823, 781, device=device)
    y = torch.empty_like(x)
    n_rows, n_cols = x.shape
    num_warps, num_stages = 8, 4 if properties["max_shared_mem"] > 200000 else 2
    kernel = T02.softmax_kernel.warmup(y, x, x.stride(0), y.stride(0), n_rows, n_cols,
                                       BLOCK_SIZE=triton.next_power_of_2(n_cols),
                                       num_stages=num_stages, num_warps=num_warps, grid=(1,))
    kernel._init_handles()
    assert 0 < kernel.n_regs <= 255 and kernel.n_spills >= 0
    occupancy = properties["max_num_regs"] // (kernel.n_regs * properties["warpSize"]
                                                 * num_warps)
    if kernel.metadata.shared:
        occupancy = min(occupancy, properties["max_shared_mem"] // kernel.metadata.shared)
    num_programs = min(properties["multiprocessor_count"] * occupancy, n_rows)
    kernel[(num_programs, 1, 1)](y, x, x.stride(0), y.stride(0), n_rows, n_cols,
                                 triton.next_power_of_2(n_cols), num_stages)
    torch.testing.assert_close(y, torch.softmax(x, axis=1))
