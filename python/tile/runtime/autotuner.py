"""`tile.autotune`, `tile.Config`, `tile.heuristics` (Triton's decorators).

Without a GPU nothing can be measured: the autotuner keeps its configs and
uses the first. With `tile.driver` providing `benchmark(callable) -> seconds`,
each config is timed once per key and the fastest is remembered.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from .launch import bind_arguments, launch_jit


class Config:
    """Constexpr values and launch options tried by the autotuner."""

    def __init__(self, kwargs: Mapping[str, Any], num_warps: int = 4, num_stages: int = 3,
                 num_ctas: int = 1, maxnreg: int | None = None,
                 pre_hook: Callable[..., Any] | None = None) -> None:
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

    def all_kwargs(self) -> dict[str, Any]:
        return {**self.kwargs, "num_warps": self.num_warps, "num_stages": self.num_stages}

    def __repr__(self) -> str:
        items = ", ".join(f"{k}: {v}" for k, v in self.kwargs.items())
        return f"Config({items}, num_warps: {self.num_warps}, num_stages: {self.num_stages})"


def _underlying_jit(fn: Any) -> Any:
    while hasattr(fn, "fn") and not hasattr(fn, "constexpr_names"):
        fn = fn.fn
    return fn


class Autotuner:
    def __init__(self, fn: Any, configs: Sequence[Config], key: Sequence[str],
                 prune_configs_by: Mapping[str, Any] | None = None,
                 reset_to_zero: Sequence[str] | None = None, **options: Any) -> None:
        self.fn = fn
        self.configs = list(configs) or [Config({})]
        self.key = list(key)
        self.prune_configs_by = prune_configs_by or {}
        self.reset_to_zero = list(reset_to_zero or [])
        self.best: dict[tuple[Any, ...], Config] = {}
        self.__name__ = getattr(fn, "__name__", "kernel")

    def select(self, named_args: Mapping[str, Any],
               benchmark: Callable[[Config], float] | None) -> Config:
        """The config for these arguments: benchmarked once per key when a
        benchmark is available, else the first config."""
        key = tuple(named_args.get(k) for k in self.key)
        if key not in self.best:
            candidates = self.configs
            prune = self.prune_configs_by.get("early_config_prune")
            if prune is not None:
                candidates = list(prune(candidates, dict(named_args))) or candidates
            if benchmark is None or len(candidates) == 1:
                self.best[key] = candidates[0]
            else:
                self.best[key] = min(candidates, key=benchmark)
        return self.best[key]

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        def run(*args: Any, stream: Any = None, **kwargs: Any) -> Any:
            jit = _underlying_jit(self.fn)
            named = bind_arguments_partial(jit, args, kwargs)
            config = self.select(named, _driver_benchmark(self, grid, args, kwargs, stream))
            return _launch(self.fn, grid, args, {**kwargs, **config.all_kwargs()}, stream)
        return run

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _underlying_jit(self.fn)(*args, **kwargs)


def bind_arguments_partial(jit: Any, args: Sequence[Any], kwargs: Mapping[str, Any]
                           ) -> dict[str, Any]:
    """Arguments by name before the tuned constexprs are known."""
    named = dict(zip(jit.arg_names, args))
    named.update(kwargs)
    return named


def _driver_benchmark(tuner: Autotuner, grid: Any, args: Sequence[Any],
                      kwargs: Mapping[str, Any], stream: Any) -> Callable[[Config], float] | None:
    try:
        from .. import driver  # type: ignore[attr-defined]
        bench = driver.benchmark
    except (ImportError, AttributeError):
        return None
    def measure(config: Config) -> float:
        return bench(lambda: _launch(tuner.fn, grid, args,
                                     {**kwargs, **config.all_kwargs()}, stream))
    return measure


def _launch(fn: Any, grid: Any, args: Sequence[Any], kwargs: Mapping[str, Any],
            stream: Any) -> Any:
    if isinstance(fn, (Autotuner, Heuristics)):
        return fn[grid](*args, stream=stream, **kwargs)
    return launch_jit(fn, grid, *args, stream=stream, **kwargs)


class Heuristics:
    """Computes constexprs from the other arguments: `values = {"EVEN": lambda args: ...}`."""

    def __init__(self, fn: Any, values: Mapping[str, Callable[[dict[str, Any]], Any]]) -> None:
        self.fn = fn
        self.values = dict(values)
        self.__name__ = getattr(fn, "__name__", "kernel")

    @property
    def configs(self) -> Any:
        return getattr(self.fn, "configs", None)

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        def run(*args: Any, stream: Any = None, **kwargs: Any) -> Any:
            named = bind_arguments_partial(_underlying_jit(self.fn), args, kwargs)
            extra = {name: rule(named) for name, rule in self.values.items()}
            return _launch(self.fn, grid, args, {**kwargs, **extra}, stream)
        return run


def autotune(configs: Sequence[Config], key: Sequence[str], prune_configs_by: Any = None,
             reset_to_zero: Any = None, restore_value: Any = None, warmup: Any = None,
             rep: Any = None, do_bench: Any = None, **options: Any) -> Callable[[Any], Autotuner]:
    def decorator(fn: Any) -> Autotuner:
        return Autotuner(fn, configs, key, prune_configs_by, reset_to_zero)
    return decorator


def heuristics(values: Mapping[str, Callable[[dict[str, Any]], Any]]) -> Callable[[Any], Heuristics]:
    def decorator(fn: Any) -> Heuristics:
        return Heuristics(fn, values)
    return decorator


__all__ = ["Config", "Autotuner", "Heuristics", "autotune", "heuristics", "bind_arguments"]
