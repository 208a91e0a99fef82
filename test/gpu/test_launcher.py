"""The C launcher on a real GPU: CUDA-graph capture, streams, CuPy arrays,
launches from a thread with no context and under another context, the
device's target, the assembler the JIT used, the autotuner timing."""
from __future__ import annotations

import pytest

import tile
import tile.language as tl

pytestmark = pytest.mark.gpu


@tile.jit
def axpy(x_ptr, y_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(y_ptr + offs, mask=mask) + alpha * tl.load(x_ptr + offs,
                                                                             mask=mask),
             mask=mask)


def grid(meta):
    return (tile.cdiv(meta["n"], meta["BLOCK"]),)


def test_target_and_assembler():
    import torch
    from tile import driver
    x = torch.ones(1000, device="cuda")
    y = torch.zeros(1000, device="cuda")
    axpy[grid](x, y, 1000, 2.0, BLOCK=256)
    torch.cuda.synchronize()
    assert torch.equal(y, torch.full_like(y, 2.0))
    compiled = next(iter(axpy._compiled.values()))
    major, minor = torch.cuda.get_device_capability()
    assert compiled.metadata["target"] == driver.target_for((major, minor))
    assert compiled.metadata["assembler"], compiled.metadata
    print("target", compiled.metadata["target"], "assembler", compiled.metadata["assembler"],
          "libdevice", compiled.metadata["libdevice"])


def test_cuda_graph_capture_and_replay():
    import torch
    x = torch.ones(4096, device="cuda")
    y = torch.zeros(4096, device="cuda")
    axpy[grid](x, y, 4096, 1.0, BLOCK=512)  # compile and load before capturing
    torch.cuda.synchronize()
    y.zero_()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(3):
            axpy[grid](x, y, 4096, 1.0, BLOCK=512)
    torch.cuda.synchronize()
    assert torch.equal(y, torch.zeros_like(y))  # captured, not run
    for _ in range(5):
        graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(y, torch.full_like(y, 15.0))


def test_stream_argument_and_current_stream():
    import torch
    x = torch.ones(2048, device="cuda")
    y = torch.zeros(2048, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        axpy[grid](x, y, 2048, 3.0, BLOCK=256)  # torch's current stream: `side`
    axpy[grid](x, y, 2048, 1.0, BLOCK=256, stream=side)  # an explicit stream
    side.synchronize()
    assert torch.equal(y, torch.full_like(y, 4.0))


def _current_context(cuda) -> int | None:
    import ctypes
    context = ctypes.c_void_p()
    assert cuda.cuCtxGetCurrent(ctypes.byref(context)) == 0
    return context.value


def test_a_thread_with_no_current_context_launches_in_the_kernels():
    """The driver refuses the launch with no context current; the launcher
    then makes the kernel's current and launches again."""
    import ctypes
    import threading
    import torch
    from tile.driver.bindings import driver
    cuda = driver()
    x = torch.ones(1024, device="cuda")
    y = torch.zeros(1024, device="cuda")
    axpy[grid](x, y, 1024, 1.0, BLOCK=256)  # compiled and loaded here
    torch.cuda.synchronize()
    kernel_context = _current_context(cuda)
    seen: list[object] = []

    def launch() -> None:
        try:
            assert cuda.cuCtxSetCurrent(None) == 0
            axpy[grid](x, y, 1024, 2.0, BLOCK=256, stream=0)
            seen.append(_current_context(cuda))
            assert cuda.cuCtxSynchronize() == 0
        except BaseException as exc:  # reported by the main thread
            seen.append(exc)

    thread = threading.Thread(target=launch)
    thread.start()
    thread.join()
    assert seen == [kernel_context], seen
    torch.cuda.synchronize()
    assert torch.equal(y, torch.full_like(y, 3.0))


def test_a_launch_under_another_context_restores_it():
    """With a second context of the same device current, the launch runs in
    the kernel's context (the driver refuses the other) and leaves the
    second one current."""
    import ctypes
    import torch
    from tile.driver.bindings import driver
    cuda = driver()
    create = getattr(cuda.lib, "cuCtxCreate_v2", None)
    if create is None:
        pytest.skip("this driver has no cuCtxCreate_v2")
    x = torch.ones(1024, device="cuda")
    y = torch.zeros(1024, device="cuda")
    axpy[grid](x, y, 1024, 1.0, BLOCK=256)
    torch.cuda.synchronize()
    kernel_context = _current_context(cuda)
    other = ctypes.c_void_p()
    device = ctypes.c_int()
    assert cuda.cuCtxGetDevice(ctypes.byref(device)) == 0
    assert create(ctypes.byref(other), 0, device) == 0  # current from here
    try:
        assert _current_context(cuda) == other.value != kernel_context
        axpy[grid](x, y, 1024, 2.0, BLOCK=256, stream=0)
        assert _current_context(cuda) == other.value
    finally:
        assert cuda.cuCtxSetCurrent(kernel_context) == 0
        cuda.lib.cuCtxDestroy_v2(other)
        assert cuda.cuCtxSetCurrent(kernel_context) == 0
    torch.cuda.synchronize()
    assert torch.equal(y, torch.full_like(y, 3.0))


def test_cupy_arrays():
    cupy = pytest.importorskip("cupy")
    x = cupy.ones(1000, dtype=cupy.float32)
    y = cupy.zeros(1000, dtype=cupy.float32)
    axpy[grid](x, y, 1000, 5.0, BLOCK=128, stream=cupy.cuda.get_current_stream().ptr)
    cupy.cuda.get_current_stream().synchronize()
    assert bool((y == 5.0).all())


def test_autotuner_times_configs_on_the_device():
    import torch

    @tile.autotune(configs=[tile.Config({"BLOCK": b}, num_warps=w)
                            for b, w in ((128, 1), (1024, 4), (4096, 8))], key=["n"],
                   reset_to_zero=["y_ptr"])
    @tile.jit
    def tuned(x_ptr, y_ptr, n, alpha, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(y_ptr + offs, tl.load(y_ptr + offs, mask=mask) + alpha * tl.load(
            x_ptr + offs, mask=mask), mask=mask)

    n = 1 << 22
    x = torch.ones(n, device="cuda")
    y = torch.zeros(n, device="cuda")
    tuned[grid](x, y, n, 1.0)
    torch.cuda.synchronize()
    assert tuned.configs_timings is not None and len(tuned.configs_timings) == 3
    # As Triton's: [median, 20th, 80th percentile] per config, in ms.
    assert all(len(t) == 3 and t[1] <= t[0] <= t[2] and t[0] > 0
               for t in tuned.configs_timings.values()), tuned.configs_timings
    assert tuned.best_config is min(tuned.configs_timings, key=tuned.configs_timings.get)
    assert torch.equal(y, torch.ones_like(y))  # reset before each timed run; one real run
    print("autotuner timings (ms):", {str(c): t for c, t in tuned.configs_timings.items()})


@tile.jit
def rotate_through_grid_barrier(x_ptr, scratch_ptr, out_ptr, arrived_ptr,
                                BLOCK: tl.constexpr):
    # Each program publishes its block, waits for every program (a grid
    # barrier, which only a co-resident grid is sure to pass), then reads
    # its neighbour's block.
    pid = tl.program_id(0)
    n = tl.num_programs(0)
    offs = tl.arange(0, BLOCK)
    tl.store(scratch_ptr + pid * BLOCK + offs, tl.load(x_ptr + pid * BLOCK + offs) * 2.0)
    tl.debug_barrier()
    tl.atomic_add(arrived_ptr, 1, sem="release")
    while tl.atomic_add(arrived_ptr, 0, sem="acquire") < n:
        pass
    tl.debug_barrier()
    neighbour = (pid + 1) % n
    tl.store(out_ptr + pid * BLOCK + offs, tl.load(scratch_ptr + neighbour * BLOCK + offs))


def test_launch_cooperative_grid_runs_a_grid_barrier_and_refuses_a_grid_too_large():
    import torch
    from tile.driver import CudaError
    programs = torch.cuda.get_device_properties(0).multi_processor_count
    x = torch.randn(programs * 128, device="cuda")
    scratch = torch.empty_like(x)
    out = torch.empty_like(x)
    arrived = torch.zeros(1, dtype=torch.int32, device="cuda")
    rotate_through_grid_barrier[(programs,)](x, scratch, out, arrived, BLOCK=128,
                                             launch_cooperative_grid=True)
    torch.cuda.synchronize()
    assert arrived.item() == programs
    assert torch.equal(out.view(programs, 128), (x * 2).view(programs, 128).roll(-1, 0))
    # More blocks than the device holds at once: refused by the driver, where
    # a plain launch of the same grid (with no barrier) runs.
    too_many = programs * 64 * 16
    y = torch.zeros(too_many * 128, device="cuda")
    with pytest.raises(CudaError, match="COOPERATIVE_LAUNCH_TOO_LARGE"):
        axpy[(too_many,)](y, y, y.numel(), 1.0, BLOCK=128, launch_cooperative_grid=True)
    axpy[(too_many,)](y, y, y.numel(), 1.0, BLOCK=128)
    torch.cuda.synchronize()
