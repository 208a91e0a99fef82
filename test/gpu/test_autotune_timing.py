"""The autotuner and the timers on the device: `do_bench_cudagraph`, the
autotuner's `use_cuda_graph=` and `warmup=`/`rep=` (Triton's deprecated
options), `restore_value` restored after every timed run, `cache_results`, and
a config over the chip's shared memory skipped as Triton's OutOfResources."""
from __future__ import annotations

import pytest

import tile
import tile.language as tl
from tile.runtime.errors import OutOfResources

pytestmark = [pytest.mark.gpu]


@tile.jit
def add_one(y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(y_ptr + offs, mask=mask) + 1.0, mask=mask)


def grid(meta):
    return (tile.cdiv(meta["n"], meta["BLOCK"]),)


def test_do_bench_cudagraph_times_a_kernel() -> None:
    import torch
    n = 1 << 20
    y = torch.zeros(n, device="cuda")
    median, low, high = tile.testing.do_bench_cudagraph(
        lambda: add_one[grid](y, n, BLOCK=1024), rep=20, quantiles=(0.5, 0.2, 0.8))
    assert 0 < low <= median <= high < 10, (low, median, high)
    assert tile.testing.do_bench_cudagraph(lambda: add_one[grid](y, n, BLOCK=1024),
                                           return_mode="min") > 0


@pytest.mark.parametrize("options", [{"use_cuda_graph": True}, {"warmup": 5, "rep": 10},
                                     {"use_cuda_graph": True, "rep": 10}])
def test_deprecated_timer_options_time_every_config(options: dict) -> None:
    import torch
    with pytest.warns(DeprecationWarning):
        tuned = tile.autotune([tile.Config({"BLOCK": b}) for b in (128, 1024, 4096)],
                              key=["n"], restore_value=["y_ptr"], **options)(add_one)
    n = 1 << 22
    y = torch.full((n,), 5.0, device="cuda")
    tuned[grid](y, n)
    torch.cuda.synchronize()
    # restore_value after every timed run: the real run sees the original data.
    assert torch.equal(y, torch.full_like(y, 6.0))
    timings = tuned.configs_timings
    assert len(timings) == 3 and all(t[1] <= t[0] <= t[2] and t[0] > 0
                                     for t in timings.values()), timings
    assert tuned.best_config is min(timings, key=timings.get)


def test_cache_results_reuses_the_timings(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    import torch
    monkeypatch.setenv("TILE_CACHE_DIR", str(tmp_path))

    def make():
        return tile.autotune([tile.Config({"BLOCK": b}) for b in (256, 2048)], key=["n"],
                             reset_to_zero=["y_ptr"], cache_results=True)(add_one)

    n = 1 << 20
    y = torch.zeros(n, device="cuda")
    first = make()
    first[grid](y, n)
    again = make()
    again[grid](y, n)
    torch.cuda.synchronize()
    assert again.configs_timings == first.configs_timings  # read back, not measured
    assert again.best_config == first.best_config
    # Reset after the timing, then one real run each (from disk, nothing is
    # timed, so nothing is reset: as Triton).
    assert torch.equal(y, torch.full_like(y, 2.0))


@tile.jit
def big_gather(x_ptr, i_ptr, o_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    tl.store(o_ptr + offs, tl.gather(tl.load(x_ptr + offs), tl.load(i_ptr + offs), 1))


def test_a_config_over_the_shared_memory_is_out_of_resources_and_skipped() -> None:
    import torch
    r, c = 64, 1024  # 256 KiB of f32 through shared memory: more than a block has
    x = torch.randn(r * c, device="cuda")
    index = torch.randint(0, c, (r * c,), device="cuda", dtype=torch.int32)
    out = torch.zeros_like(x)
    with pytest.raises(OutOfResources) as info:
        big_gather[(1,)](x, index, out, R=r, C=c, num_warps=32)
    assert info.value.name == "shared memory" and info.value.required == 262144
    assert info.value.required > info.value.limit
    assert isinstance(info.value, tile.CompilationError) and info.value.line is not None

    tuned = tile.autotune([tile.Config({"R": r}, num_warps=32), tile.Config({"R": 16})],
                          key=[])(big_gather)
    tuned[(1,)](x, index, out, C=c)
    torch.cuda.synchronize()
    assert tuned.best_config.kwargs == {"R": 16}
    assert tuned.configs_timings[tuned.configs[0]] == [float("inf")] * 3
    rows = x[:16 * c].reshape(16, c)
    expected = torch.gather(rows, 1, index[:16 * c].reshape(16, c).long())
    assert torch.equal(out[:16 * c].reshape(16, c), expected)
