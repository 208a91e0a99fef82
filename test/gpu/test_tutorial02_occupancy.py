"""Triton tutorial 02's host code: device properties from
`driver.active.utils.get_device_properties`, `kernel.warmup(...)`,
`_init_handles()`, `n_regs`, `metadata.shared`, an occupancy-sized grid and
`kernel[grid](...)` with every argument positional, constexprs too. Compiled
on the GPU (the interpreter has no registers to count)."""
from __future__ import annotations

import pytest

import tile as triton
import tile.language as tl
from tile.runtime.driver import driver

pytestmark = [pytest.mark.gpu]


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        row = tl.load(row_start_ptr + col_offsets, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        tl.store(output_ptr + row_idx * output_row_stride + col_offsets,
                 numerator / denominator, mask=mask)


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
    kernel = softmax_kernel.warmup(y, x, x.stride(0), y.stride(0), n_rows, n_cols,
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
