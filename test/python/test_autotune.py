"""The autotuner times every config and keeps the fastest per key
(tile.autotune with a do_bench that measures a stand-in kernel's cost)."""
from __future__ import annotations

from typing import Any

import pytest

import conftest  # noqa: F401  (import path)
import tile
from tile.runtime.autotuner import Autotuner


class Buffer:
    """Enough of a tensor for reset_to_zero / restore_value and the key's dtype."""

    dtype = "torch.float32"

    def __init__(self, value: float) -> None:
        self.value = value

    def zero_(self) -> "Buffer":
        self.value = 0.0
        return self

    def clone(self) -> "Buffer":
        return Buffer(self.value)

    def copy_(self, other: "Buffer") -> "Buffer":
        self.value = other.value
        return self


class Kernel:
    """A stand-in for a @jit function: records launches; a launch's cost is
    given by its BLOCK, and it adds to its output (so resets are visible)."""

    arg_names = ["out", "n", "BLOCK"]

    def __init__(self, cost: dict[int, float]) -> None:
        self.cost = cost
        self.launches: list[dict[str, Any]] = []

    def __getitem__(self, grid: Any):
        def run(out: Buffer, n: int, **kwargs: Any) -> None:
            if kwargs["BLOCK"] not in self.cost:
                raise tile.CompilationError("this config does not compile")
            self.launches.append(dict(kwargs, n=n, seen=out.value))
            out.value += 1.0
        return run


def tuned(kernel: Kernel, **options: Any) -> Autotuner:
    configs = [tile.Config({"BLOCK": b}, num_warps=w) for b, w in ((64, 2), (128, 4), (256, 8))]
    timed: list[Any] = []

    def do_bench(run: Any, quantiles: Any) -> float:
        assert quantiles == (0.5, 0.2, 0.8)  # as Triton's autotuner asks
        before = len(kernel.launches)
        run()
        timed.append(kernel.launches[before]["BLOCK"])
        return kernel.cost[kernel.launches[before]["BLOCK"]]

    tuner = tile.autotune(configs, key=["n"], do_bench=do_bench, **options)(kernel)
    tuner.timed = timed  # type: ignore[attr-defined]
    return tuner


def test_every_config_is_timed_and_the_fastest_kept_per_key():
    kernel = Kernel({64: 3.0, 128: 1.0, 256: 2.0})
    tuner = tuned(kernel)
    out = Buffer(0.0)
    tuner[(1,)](out, 1000)
    assert tuner.timed == [64, 128, 256]
    assert kernel.launches[-1]["BLOCK"] == 128 and kernel.launches[-1]["num_warps"] == 4
    tuner[(1,)](out, 1000)
    assert tuner.timed == [64, 128, 256]  # cached for n=1000
    kernel.cost[128] = 9.0
    tuner[(1,)](out, 2000)  # a new key: tuned again
    assert tuner.timed[3:] == [64, 128, 256] and kernel.launches[-1]["BLOCK"] == 256
    assert tuner.cache[(1000, "torch.float32")].kwargs == {"BLOCK": 128}


def test_the_key_spells_dtypes_as_str_does():
    """The key holds str() of each argument's dtype, as Triton's (remembered
    per dtype object; an unhashable one is spelled every time)."""
    class Dtype:
        calls = 0

        def __str__(self) -> str:
            Dtype.calls += 1
            return "torch.bfloat16"

    class Array:
        def __init__(self, dtype: Any) -> None:
            self.dtype = dtype

    tuner = tuned(Kernel({64: 1.0}))
    dtype = Dtype()
    for _ in range(3):
        assert tuner.tuning_key({"out": Array(dtype), "n": 7}) == (7, "torch.bfloat16")
    assert Dtype.calls == 1
    assert tuner.tuning_key({"out": Array(["f16"]), "n": 7}) == (7, "['f16']")


def test_configs_that_fail_are_skipped_and_all_failing_is_an_error():
    kernel = Kernel({128: 5.0})
    tuner = tuned(kernel)
    tuner[(1,)](Buffer(0.0), 10)
    assert kernel.launches[-1]["BLOCK"] == 128
    with pytest.raises(RuntimeError, match="no config compiled"):
        tuned(Kernel({}))[(1,)](Buffer(0.0), 10)


def test_reset_to_zero_and_restore_value():
    kernel = Kernel({64: 3.0, 128: 1.0, 256: 2.0})
    out = Buffer(5.0)
    tuned(kernel, reset_to_zero=["out"])[(1,)](out, 10)
    assert [launch["seen"] for launch in kernel.launches[:3]] == [0.0, 0.0, 0.0]
    # The real launch starts from zero too (as Triton's), not from the last
    # timed run's output.
    assert kernel.launches[-1]["seen"] == 0.0
    kernel = Kernel({64: 3.0, 128: 1.0, 256: 2.0})
    out = Buffer(5.0)
    tuned(kernel, restore_value=["out"])[(1,)](out, 10)
    assert kernel.launches[-1]["seen"] == 5.0  # the real launch sees the value from before
    assert out.value == 6.0


def test_pruning():
    kernel = Kernel({64: 3.0, 128: 1.0, 256: 2.0})
    early = tuned(kernel, prune_configs_by={
        "early_config_prune": lambda configs, named: [c for c in configs
                                                      if c.kwargs["BLOCK"] != 128]})
    early[(1,)](Buffer(0.0), 10)
    assert early.timed == [64, 256] and kernel.launches[-1]["BLOCK"] == 256
    # As Triton's (tutorial 06 reads kwargs["N_CTX"]): the call's keyword
    # arguments come as keywords too.
    seen: list[Any] = []
    kernel = Kernel({64: 3.0, 128: 1.0, 256: 2.0})
    keyed = tuned(kernel, prune_configs_by={
        "early_config_prune": lambda configs, named, **kwargs: seen.append(
            (named["n"], kwargs)) or [c for c in configs if c.kwargs["BLOCK"] <= kwargs["n"]]})
    keyed[(1,)](Buffer(0.0), n=128)
    assert seen == [(128, {"n": 128})] and keyed.timed == [64, 128]
    kernel = Kernel({64: 3.0, 128: 1.0, 256: 2.0})
    model = tuned(kernel, prune_configs_by={
        "perf_model": lambda BLOCK, **_: -BLOCK, "top_k": 2})
    model[(1,)](Buffer(0.0), 10)
    assert model.timed == [256, 128] and kernel.launches[-1]["BLOCK"] == 128


def test_restore_value_restores_after_every_timed_run():
    # Every config is timed on the same input (Triton restores after each
    # benchmarked call), and the real launch sees it too.
    kernel = Kernel({64: 3.0, 128: 1.0, 256: 2.0})
    out = Buffer(5.0)
    tuned(kernel, restore_value=["out"])[(1,)](out, 10)
    assert [launch["seen"] for launch in kernel.launches] == [5.0, 5.0, 5.0, 5.0]
    assert out.value == 6.0


def test_a_pre_hook_or_post_hook_replaces_the_default_ones():
    calls: list[Any] = []
    kernel = Kernel({64: 3.0, 128: 1.0})
    out = Buffer(5.0)
    tuner = tuned(kernel, reset_to_zero=["out"],
                  pre_hook=lambda args, reset_only=False: calls.append(("pre", reset_only)),
                  post_hook=lambda args, exception: calls.append(("post", type(exception))))
    tuner[(1,)](out, 10)
    # No reset to zero (the hook given replaces it, as in Triton); a failing
    # config reaches the post_hook with its exception; after tuning the
    # pre_hook is called with reset_only=True.
    assert [launch["seen"] for launch in kernel.launches] == [5.0, 6.0, 7.0]
    assert calls == [("pre", False), ("post", type(None)), ("pre", False),
                     ("post", type(None)), ("pre", False), ("post", tile.CompilationError),
                     ("pre", True)]


def test_out_of_resources_configs_are_skipped():
    from tile.runtime.errors import OutOfResources

    class Greedy(Kernel):
        def __getitem__(self, grid: Any):
            run = super().__getitem__(grid)

            def checked(out: Buffer, n: int, **kwargs: Any) -> None:
                if kwargs["BLOCK"] == 128:
                    raise OutOfResources(300000, 232448, "shared memory")
                run(out, n, **kwargs)
            return checked

    kernel = Greedy({64: 3.0, 128: 1.0, 256: 2.0})
    tuner = tuned(kernel)
    tuner[(1,)](Buffer(0.0), 10)
    assert kernel.launches[-1]["BLOCK"] == 256
    assert tuner.configs_timings[tuner.configs[1]] == [float("inf")] * 3
    assert str(OutOfResources(300000, 232448, "shared memory")) == (
        "error: out of resource: shared memory, Required: 300000, Hardware limit: 232448. "
        "Reducing block sizes or `num_stages` may help.")


def test_unknown_options_are_a_type_error():
    with pytest.raises(TypeError, match="unexpected keyword argument 'use_cuda_graphs'"):
        tile.autotune([tile.Config({})], key=[], use_cuda_graphs=True)


@pytest.mark.parametrize("options, timer, expected", [
    ({"warmup": 5, "rep": 7}, "do_bench", {"warmup": 5, "rep": 7}),
    ({"rep": 7}, "do_bench", {"warmup": 25, "rep": 7}),
    ({"use_cuda_graph": True}, "do_bench_cudagraph", {"rep": 100}),
    ({"use_cuda_graph": True, "rep": 9}, "do_bench_cudagraph", {"rep": 9}),
    ({}, "do_bench", {}),
])
def test_the_timer_and_its_warmup_and_rep(monkeypatch: pytest.MonkeyPatch, options: dict,
                                          timer: str, expected: dict):
    """warmup=/rep= reach tile.testing.do_bench, use_cuda_graph=True times
    with do_bench_cudagraph (deprecated options, as in Triton: a warning)."""
    from tile import testing
    seen: list[Any] = []
    kernel = Kernel({64: 3.0, 128: 1.0, 256: 2.0})

    def fake(name: str):
        def bench(fn: Any, quantiles: Any = None, **kwargs: Any) -> list[float]:
            before = len(kernel.launches)
            fn()
            seen.append((name, kwargs, quantiles))
            return [kernel.cost[kernel.launches[before]["BLOCK"]]] * 3
        return bench

    monkeypatch.setattr(testing, "do_bench", fake("do_bench"))
    monkeypatch.setattr(testing, "do_bench_cudagraph", fake("do_bench_cudagraph"))
    configs = [tile.Config({"BLOCK": b}) for b in (64, 128, 256)]
    if options:
        with pytest.warns(DeprecationWarning, match="warmup, rep, and use_cuda_graph"):
            tuner = tile.autotune(configs, key=["n"], **options)(kernel)
    else:
        tuner = tile.autotune(configs, key=["n"])(kernel)
    tuner[(1,)](Buffer(0.0), 10)
    assert seen == [(timer, expected, (0.5, 0.2, 0.8))] * 3
    assert kernel.launches[-1]["BLOCK"] == 128
    assert tuner.configs_timings == {configs[0]: [3.0] * 3, configs[1]: [1.0] * 3,
                                     configs[2]: [2.0] * 3}


@tile.jit
def cached_kernel(out, n, BLOCK: tile.language.constexpr):
    tile.language.store(out + tile.language.arange(0, BLOCK), n)


@pytest.mark.parametrize("how", ["cache_results", "knob"])
def test_cache_results_keeps_the_timings_on_disk(monkeypatch: pytest.MonkeyPatch,
                                                 isolated_cache, how: str):
    from tile.runtime import autotuner
    launched: list[dict] = []
    monkeypatch.setattr(autotuner, "_launch",
                        lambda fn, grid, args, kwargs, stream: launched.append(dict(kwargs)))
    cost = {16: 2.0, 32: 1.0, 64: 3.0}
    timed: list[int] = []

    def do_bench(run: Any, quantiles: Any) -> list[float]:
        run()
        timed.append(launched[-1]["BLOCK"])
        return [cost[launched[-1]["BLOCK"]]] * 3

    def make() -> Any:
        configs = [tile.Config({"BLOCK": b}) for b in (16, 32, 64)]
        if how == "knob":
            monkeypatch.setenv("TILE_CACHE_AUTOTUNING", "1")
            return tile.autotune(configs, key=["n"], do_bench=do_bench)(cached_kernel)
        return tile.autotune(configs, key=["n"], do_bench=do_bench,
                             cache_results=True)(cached_kernel)

    make()[(1,)](Buffer(0.0), 10)
    assert timed == [16, 32, 64] and launched[-1]["BLOCK"] == 32
    assert list(isolated_cache.rglob("*.json"))  # the timings, in tile's cache directory
    fresh = make()  # as in a new process: from disk, nothing timed
    fresh[(1,)](Buffer(0.0), 10)
    assert timed == [16, 32, 64] and launched[-1]["BLOCK"] == 32
    assert fresh.configs_timings == {c: [cost[c.kwargs["BLOCK"]]] * 3 for c in fresh.configs}
    fresh[(1,)](Buffer(0.0), 20)  # another key: timed
    assert timed == [16, 32, 64] * 2
    cost[16] = 0.5  # other configs are another entry
    other = tile.autotune([tile.Config({"BLOCK": b}, num_warps=2) for b in (16, 32, 64)],
                          key=["n"], do_bench=do_bench, cache_results=True)(cached_kernel)
    other[(1,)](Buffer(0.0), 10)
    assert timed[6:] == [16, 32, 64] and launched[-1]["BLOCK"] == 16


def test_without_cache_results_nothing_is_kept(monkeypatch: pytest.MonkeyPatch, isolated_cache):
    from tile.runtime import autotuner
    monkeypatch.delenv("TILE_CACHE_AUTOTUNING", raising=False)
    monkeypatch.setattr(autotuner, "_launch", lambda *a: None)
    tuner = tile.autotune([tile.Config({"BLOCK": b}) for b in (16, 32)], key=["n"],
                          do_bench=lambda run, quantiles: run() or 1.0)(cached_kernel)
    tuner[(1,)](Buffer(0.0), 10)
    assert not list(isolated_cache.rglob("*.json"))
