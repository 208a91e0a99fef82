"""`tile.autotune`, `tile.Config`, `tile.heuristics` (Triton's decorators).

The autotuner times every config on the device (`tile.testing.do_bench`, or
the `do_bench=` given) the first time it sees a key (the values of the
`key=` arguments and the dtypes of the tensor arguments), launches the
fastest and remembers it for that key. `prune_configs_by` (`early_config_prune`,
`perf_model` with `top_k`), `reset_to_zero` (zeroed before each timed run),
`restore_value` (saved before tuning, restored after), `pre_hook`/`post_hook`
and `warmup`/`rep` work as in Triton. A config that fails to compile or
launch is skipped; `TILE_PRINT_AUTOTUNING=1` prints each key's winner.
Interpreted (`TILE_INTERPRET=1`), it takes the first config: there is nothing to time.
"""
from __future__ import annotations

import time
from typing import Any, Callable, Mapping, Sequence

from .. import interpreter, knobs
from ..compiler.options import check_maxnreg, check_num_ctas, check_num_stages, check_num_warps
from ..errors import CompilationError
from .launch import bind_arguments, launch_jit


class Config:
    """Constexpr values and launch options tried by the autotuner."""

    def __init__(self, kwargs: Mapping[str, Any], num_warps: int = 4, num_stages: int = 3,
                 num_ctas: int = 1, maxnreg: int | None = None,
                 pre_hook: Callable[..., Any] | None = None) -> None:
        self.kwargs = dict(kwargs)
        self.num_warps = check_num_warps(num_warps)
        self.num_stages = check_num_stages(num_stages)
        self.num_ctas = check_num_ctas(num_ctas)
        self.maxnreg = check_maxnreg(maxnreg)
        self.pre_hook = pre_hook

    def all_kwargs(self) -> dict[str, Any]:
        limit = {} if self.maxnreg is None else {"maxnreg": self.maxnreg}
        return {**self.kwargs, "num_warps": self.num_warps, "num_stages": self.num_stages,
                **limit}

    def __repr__(self) -> str:
        items = ", ".join(f"{k}: {v}" for k, v in self.kwargs.items())
        limit = "" if self.maxnreg is None else f", maxnreg: {self.maxnreg}"
        return f"Config({items}, num_warps: {self.num_warps}, num_stages: {self.num_stages}" \
            f"{limit})"


def _underlying_jit(fn: Any) -> Any:
    while hasattr(fn, "fn") and not hasattr(fn, "constexpr_names"):
        fn = fn.fn
    return fn


class Autotuner:
    def __init__(self, fn: Any, configs: Sequence[Config], key: Sequence[str],
                 prune_configs_by: Mapping[str, Any] | None = None,
                 reset_to_zero: Sequence[str] | None = None,
                 restore_value: Sequence[str] | None = None,
                 pre_hook: Callable[..., Any] | None = None,
                 post_hook: Callable[..., Any] | None = None,
                 warmup: float | None = None, rep: float | None = None,
                 do_bench: Callable[..., float] | None = None) -> None:
        self.fn = fn
        self.configs = list(configs) or [Config({})]
        self.keys = list(key)
        self.prune_configs_by = dict(prune_configs_by or {})
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.pre_hook = pre_hook
        self.post_hook = post_hook
        self.warmup_ms = 25 if warmup is None else warmup
        self.rep_ms = 100 if rep is None else rep
        self._do_bench = do_bench
        self.cache: dict[tuple[Any, ...], Config] = {}
        self.configs_timings: dict[Config, float] | None = None
        self.bench_time = 0.0
        self.best_config: Config | None = None
        self.__name__ = getattr(fn, "__name__", "kernel")
        self.arg_names = list(_underlying_jit(fn).arg_names)

    # -- what is tuned per key ---------------------------------------------------

    def tuning_key(self, named: Mapping[str, Any]) -> tuple[Any, ...]:
        key = [named.get(k) for k in self.keys]
        key += [str(v.dtype) for v in named.values() if hasattr(v, "dtype")]
        return tuple(key)

    def prune_configs(self, named: Mapping[str, Any],
                      call_kwargs: Mapping[str, Any] | None = None) -> list[Config]:
        """As Triton's: `early_config_prune(configs, named_args, **kwargs)` gets
        the arguments by name and the call's keyword arguments."""
        configs = self.configs
        early = self.prune_configs_by.get("early_config_prune")
        if early is not None:
            configs = list(early(configs, dict(named), **dict(call_kwargs or {})))
            if not configs:
                raise ValueError(f"{self.__name__}: early_config_prune left no config")
        model = self.prune_configs_by.get("perf_model")
        if model is not None:
            top_k = self.prune_configs_by.get("top_k", 1.0)
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(configs) * top_k)
            top_k = max(1, int(top_k))
            if len(configs) > top_k:
                estimated = sorted(configs, key=lambda c: model(**named, **c.all_kwargs(),
                                                                num_ctas=c.num_ctas))
                configs = estimated[:top_k]
        return list(configs)

    # -- timing ----------------------------------------------------------------------

    def _bench(self, grid: Any, args: Sequence[Any], kwargs: Mapping[str, Any], stream: Any,
               named: Mapping[str, Any], config: Config) -> float:
        clashing = set(kwargs) & set(config.kwargs)
        if clashing:
            raise ValueError(f"{self.__name__}: {sorted(clashing)} are given by the caller and "
                             "tuned by the autotuner; pass them in one place")
        full = {**named, **config.all_kwargs()}

        def run() -> None:
            if config.pre_hook is not None:
                config.pre_hook(full)
            self._pre(named)
            _launch(self.fn, grid, args, {**kwargs, **config.all_kwargs()}, stream)
            if self.post_hook is not None:
                self.post_hook(full, exception=None)

        try:
            if self._do_bench is not None:  # Triton's do_bench=: called with the run alone
                return float(self._do_bench(run))
            return _default_do_bench(run, self.warmup_ms, self.rep_ms)
        except (CompilationError, _launch_errors()) as exc:
            # This config does not fit (too many threads, registers, shared
            # memory, an unsupported construct): skip it.
            if self.post_hook is not None:
                self.post_hook(full, exception=exc)
            return float("inf")

    def _pre(self, named: Mapping[str, Any]) -> None:
        for name in self.reset_to_zero:
            named[name].zero_()
        if self.pre_hook is not None:
            self.pre_hook(dict(named))

    def select(self, grid: Any, args: Sequence[Any], kwargs: Mapping[str, Any], stream: Any,
               named: Mapping[str, Any]) -> Config:
        key = self.tuning_key(named)
        config = self.cache.get(key)
        if config is not None:
            return config
        configs = self.prune_configs(named, kwargs)
        if len(configs) == 1 or interpreter.enabled(_underlying_jit(self.fn)):
            config = configs[0]  # nothing to choose, or interpreted: nothing to time
        else:
            saved = {n: named[n].clone() for n in self.restore_value}
            started = time.perf_counter()
            timings = {c: self._bench(grid, args, kwargs, stream, named, c) for c in configs}
            self.bench_time = time.perf_counter() - started
            for name, value in saved.items():
                named[name].copy_(value)
            # As Triton: the real run starts from zero too, not from the last
            # timed run's output.
            for name in self.reset_to_zero:
                named[name].zero_()
            config = min(timings, key=timings.__getitem__)
            if timings[config] == float("inf"):
                raise RuntimeError(f"{self.__name__}: no config compiled and launched for "
                                   f"{dict(zip(self.keys, key))}: {configs}")
            self.configs_timings = timings
            if knobs.autotuning.print:
                print(f"tile autotuning for {self.__name__} took {self.bench_time:.2f}s; "
                      f"best config for {key}: {config}")
        self.cache[key] = config
        self.best_config = config
        return config

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        def run(*args: Any, stream: Any = None, **kwargs: Any) -> Any:
            named = bind_arguments_partial(_underlying_jit(self.fn), args, kwargs)
            config = self.select(grid, args, kwargs, stream, named)
            full = {**named, **config.all_kwargs()}
            if config.pre_hook is not None:
                config.pre_hook(full)
            result = _launch(self.fn, grid, args, {**kwargs, **config.all_kwargs()}, stream)
            return result
        return run

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _underlying_jit(self.fn)(*args, **kwargs)

    def warmup(self, *args: Any, **kwargs: Any) -> list[Any]:
        """Compiles every config (after pruning) for these arguments; returns
        the artifacts. No GPU needed when a `target=` is given."""
        named = bind_arguments_partial(_underlying_jit(self.fn), args, kwargs)
        return [self.fn.warmup(*args, **kwargs, **config.all_kwargs())
                for config in self.prune_configs(named, kwargs)]


def bind_arguments_partial(jit: Any, args: Sequence[Any], kwargs: Mapping[str, Any]
                           ) -> dict[str, Any]:
    """Arguments by name before the tuned constexprs are known."""
    named = dict(getattr(jit, "_default_values", {}))
    named.update(zip(jit.arg_names, args))
    named.update(kwargs)
    return named


def _default_do_bench(fn: Callable[[], Any], warmup: float, rep: float) -> float:
    """The median milliseconds of `fn` on the device."""
    from .. import testing
    return float(testing.do_bench(fn, warmup=warmup, rep=rep, quantiles=(0.5,)))


def _launch_errors() -> type[BaseException]:
    from ..driver import DriverError
    return DriverError


def _launch(fn: Any, grid: Any, args: Sequence[Any], kwargs: Mapping[str, Any],
            stream: Any) -> Any:
    if isinstance(fn, (Autotuner, Heuristics)) or not hasattr(fn, "constexpr_names"):
        if stream is not None:
            return fn[grid](*args, stream=stream, **kwargs)
        return fn[grid](*args, **kwargs)
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
             reset_to_zero: Any = None, restore_value: Any = None, pre_hook: Any = None,
             post_hook: Any = None, warmup: Any = None, rep: Any = None, do_bench: Any = None,
             **options: Any) -> Callable[[Any], Autotuner]:
    """Triton's `@triton.autotune(configs=[...], key=[...])`."""
    def decorator(fn: Any) -> Autotuner:
        return Autotuner(fn, configs, key, prune_configs_by, reset_to_zero, restore_value,
                         pre_hook, post_hook, warmup, rep, do_bench)
    return decorator


def heuristics(values: Mapping[str, Callable[[dict[str, Any]], Any]]) -> Callable[[Any], Heuristics]:
    def decorator(fn: Any) -> Heuristics:
        return Heuristics(fn, values)
    return decorator


__all__ = ["Config", "Autotuner", "Heuristics", "autotune", "heuristics", "bind_arguments"]
