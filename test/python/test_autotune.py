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

    def do_bench(run: Any) -> float:
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
