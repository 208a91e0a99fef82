"""Run Triton-C kernels, auto-tuned on the GPU.

``tile-cc kernel.tc -DSIZE=[256, 512, 1024] --emit=cubin -o k.cubin`` writes one
cubin per value (``k.SIZE256.cubin`` ... each with its launch facts JSON) and the
index ``k.variants.json``. Compiling needs no GPU; choosing does: the first call
for each new input-size key launches every variant, times it with CUDA events
(``torch.cuda.Event``) and keeps the fastest for that key::

    from tile import tritonc
    add = tritonc.load("k.variants.json")
    add(lambda p: (cdiv(n, p["SIZE"]),), [x, y, z, n], key=(n,))
    add.best((n,))          # {'SIZE': 1024}

The grid is a function of the variant's parameters (the tuned -D values, as
ints where they parse). Timing launches the kernel several times with the
caller's arguments, so a kernel that reads what it writes (``x += 1``) must
not be tuned on live data, as with Triton's autotuner.
"""
from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Hashable, Mapping, Sequence, Union

from . import driver

Grid = Union[Sequence[int], Callable[[Mapping[str, Any]], Sequence[int]]]


def _parameter(value: str) -> Any:
    """A -D value as the grid function sees it: an int where it is one."""
    try:
        return int(value, 0)
    except ValueError:
        return value


@dataclass
class Variant:
    """One compiled value of the tuned parameters."""
    params: dict[str, Any]
    kernel: driver.Kernel
    num_warps: int

    def grid(self, grid: Grid) -> Sequence[int]:
        return grid(self.params) if callable(grid) else grid


class TunedKernel:
    """The variants of one kernel, with the fastest remembered per key."""

    def __init__(self, variants: list[Variant], warmup: int = 2, reps: int = 10):
        if not variants:
            raise driver.DriverError("no variants to tune")
        self.variants = variants
        self.warmup = warmup
        self.reps = reps
        self.cache: dict[Hashable, Variant] = {}
        self.timings: dict[Hashable, list[tuple[dict[str, Any], float]]] = {}

    @staticmethod
    def default_key(args: Sequence[Any]) -> tuple:
        """The integer arguments: the sizes, for the usual kernel signature."""
        return tuple(a for a in args if isinstance(a, int) and not isinstance(a, bool))

    def __call__(self, grid: Grid, args: Sequence[Any], key: Hashable = None,
                 stream: Any = None) -> None:
        key = self.default_key(args) if key is None else key
        variant = self.cache.get(key)
        if variant is None:
            variant = self.cache[key] = self.tune(grid, args, key)
        variant.kernel.launch(variant.grid(grid), args, stream)

    def best(self, key: Hashable) -> dict[str, Any] | None:
        """The parameters chosen for ``key`` (None before its first call)."""
        variant = self.cache.get(key)
        return dict(variant.params) if variant else None

    def tune(self, grid: Grid, args: Sequence[Any], key: Hashable = None) -> Variant:
        """Times every variant on ``args`` and returns the fastest (median of reps)."""
        import torch
        results: list[tuple[float, int]] = []
        for index, variant in enumerate(self.variants):
            dims = variant.grid(grid)
            for _ in range(self.warmup):
                variant.kernel.launch(dims, args)
            times = []
            for _ in range(self.reps):
                start = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                start.record()
                variant.kernel.launch(dims, args)
                end.record()
                end.synchronize()
                times.append(start.elapsed_time(end))
            results.append((statistics.median(times), index))
        self.timings[key] = [(dict(self.variants[i].params), ms) for ms, i in results]
        return self.variants[min(results)[1]]


def load(index: str | Path, name: str | None = None, device: int | None = None,
         warmup: int = 2, reps: int = 10) -> TunedKernel:
    """Loads the cubins listed by a ``*.variants.json`` index (``--emit=cubin``).

    ``name`` picks the kernel when the source has several ``__global__`` ones.
    """
    index = Path(index)
    data = json.loads(index.read_text())
    if data.get("emit") != "cubin":
        raise driver.DriverError(f"{index} lists {data.get('emit')} files; compile the "
                                 "variants with tile-cc --emit=cubin")
    variants = []
    for entry in data["variants"]:
        cubin = index.parent / entry["file"]
        metadata = entry.get("launch")
        module = driver.load_module(cubin, metadata, device)
        params = {k: _parameter(v) for k, v in entry.get("defines", {}).items()}
        variants.append(Variant(params, module.kernel(name), int(entry.get("num_warps", 4))))
    return TunedKernel(variants, warmup=warmup, reps=reps)
