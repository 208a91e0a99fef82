"""`tile.autotune`, `tile.Config`, `tile.heuristics` (Triton's decorators).

The autotuner times every config on the device the first time it sees a key
(the values of the `key=` arguments and the dtypes of the tensor arguments),
launches the fastest and remembers it for that key, as Triton's does:

- the timer is `do_bench(kernel_call, quantiles=(0.5, 0.2, 0.8))` (the
  `do_bench=` given, else `tile.testing.do_bench`; with the deprecated
  `warmup=`/`rep=`, do_bench with those; with `use_cuda_graph=True`,
  `do_bench_cudagraph`), and the timings are compared median first;
- each timed call runs the config's `pre_hook`, then the autotuner's
  `pre_hook` (by default: `reset_to_zero` zeroes its arguments and
  `restore_value` saves copies of its own), the kernel, then `post_hook` (by
  default: the copies are restored), so every config is timed on the same
  input; after tuning, `pre_hook(args, reset_only=True)` (the real run
  starts from zero too);
- `prune_configs_by` (`early_config_prune`, `perf_model` with `top_k`);
- `cache_results=True` (or `tile.knobs.autotuning.cache`) keeps the timings
  on disk, in tile's cache directory, keyed by the kernel's source, the chip,
  the compiler, the tuning key and the configs (not for configs with a
  `pre_hook`, as in Triton).

A config that fails to compile or load (a CompilationError such as
OutOfResources, a DriverError) is timed as infinite; all failing is an error.
`TILE_PRINT_AUTOTUNING=1` prints each key's winner. Interpreted
(`TILE_INTERPRET=1`), it takes the first config: there is nothing to time.
"""
from __future__ import annotations

import hashlib
import json
import time
import warnings
from typing import Any, Callable, Mapping, Sequence

from .. import interpreter, knobs
from ..compiler.options import check_maxnreg, check_num_ctas, check_num_stages, check_num_warps
from ..errors import AutotunerError, CompilationError
from .jit import KernelInterface

# What the timer is asked for (Triton's): the median, then the 20th and 80th percentiles.
QUANTILES = (0.5, 0.2, 0.8)


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
        kwargs = {**self.kwargs, "num_warps": self.num_warps, "num_stages": self.num_stages}
        if self.maxnreg is not None:
            kwargs["maxnreg"] = self.maxnreg
        return kwargs

    def _identity(self) -> tuple[Any, ...]:
        return (*self.all_kwargs().items(), ("num_ctas", self.num_ctas), self.pre_hook)

    def __eq__(self, other: object) -> bool:  # as Triton's: by value
        return isinstance(other, Config) and self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __str__(self) -> str:  # Triton's
        items = [f"{k}: {v}" for k, v in self.kwargs.items()]
        return ", ".join(items + [f"num_warps: {self.num_warps}", f"num_ctas: {self.num_ctas}",
                                  f"num_stages: {self.num_stages}", f"maxnreg: {self.maxnreg}"])

    def __repr__(self) -> str:
        items = ", ".join(f"{k}: {v}" for k, v in self.kwargs.items())
        limit = "" if self.maxnreg is None else f", maxnreg: {self.maxnreg}"
        return f"Config({items}, num_warps: {self.num_warps}, num_stages: {self.num_stages}" \
            f"{limit})"


def _underlying_jit(fn: Any) -> Any:
    while hasattr(fn, "fn") and not hasattr(fn, "constexpr_names"):
        fn = fn.fn
    return fn


# str() of the dtypes seen, as Triton's key spells them: asked on every launch
# of a tuned kernel, and torch builds the string anew on each call.
_DTYPE_NAMES: dict[Any, str] = {}
_NO_DTYPE = object()


def _dtype_name(dtype: Any) -> str:
    try:
        return _DTYPE_NAMES[dtype]
    except KeyError:
        name = _DTYPE_NAMES[dtype] = str(dtype)
        return name
    except TypeError:  # unhashable
        return str(dtype)


def _sort_key(timing: Any) -> tuple[float, ...]:
    """Timings compare as Triton's lists do: the median first."""
    return tuple(timing) if isinstance(timing, (list, tuple)) else (timing,)


class Autotuner(KernelInterface):
    def __init__(self, fn: Any, arg_names: Sequence[str], configs: Sequence[Config],
                 key: Sequence[str], reset_to_zero: Sequence[str] | None = None,
                 restore_value: Sequence[str] | None = None,
                 pre_hook: Callable[..., Any] | None = None,
                 post_hook: Callable[..., Any] | None = None,
                 prune_configs_by: Mapping[str, Any] | None = None,
                 warmup: float | None = None, rep: float | None = None,
                 use_cuda_graph: bool = False, do_bench: Callable[..., Any] | None = None,
                 cache_results: bool = False) -> None:
        self.fn = fn
        self.arg_names = list(arg_names)
        self.configs = list(configs) or [Config({})]
        self.keys = list(key)
        self.prune_configs_by = dict(prune_configs_by or {})
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.cache_results = bool(cache_results or knobs.autotuning.cache)
        # Triton's hooks: a pre_hook or post_hook given replaces the default
        # one (reset_to_zero and restore_value's).
        self.user_defined_pre_hook = pre_hook is not None
        self.user_defined_post_hook = post_hook is not None
        self.pre_hook: Callable[..., Any] = pre_hook or self._default_pre_hook
        self.post_hook: Callable[..., Any] = post_hook or self._default_post_hook
        self.restore_copies: dict[str, Any] = {}
        self.num_warmups, self.num_reps, self.use_cuda_graph = warmup, rep, bool(use_cuda_graph)
        if warmup is not None or rep is not None or use_cuda_graph:
            warnings.warn("warmup, rep, and use_cuda_graph parameters are deprecated. See "
                          "https://github.com/triton-lang/triton/pull/4496 for details.",
                          DeprecationWarning, stacklevel=3)
        self._do_bench = do_bench
        self.cache: dict[tuple[Any, ...], Config] = {}
        self.configs_timings: dict[Config, Any] | None = None
        self.bench_time = 0.0
        self.best_config: Config | None = None
        self.__name__ = getattr(fn, "__name__", "kernel")
        self._jit = _underlying_jit(fn)  # the @jit function under the decorators

    # -- hooks -------------------------------------------------------------------

    def _default_pre_hook(self, args: dict[str, Any], reset_only: bool = False) -> None:
        for name in self.reset_to_zero:
            args[name].zero_()
        if not reset_only:
            self.restore_copies = {name: args[name].clone() for name in self.restore_value}

    def _default_post_hook(self, args: dict[str, Any], exception: BaseException | None) -> None:
        for name in self.restore_value:
            args[name].copy_(self.restore_copies[name])
        self.restore_copies = {}

    # -- what is tuned per key ---------------------------------------------------

    def tuning_key(self, named: Mapping[str, Any]) -> tuple[Any, ...]:
        """The values of the `key=` arguments, then the dtype of each argument
        that has one, as Triton's."""
        key = [named.get(k) for k in self.keys]
        for value in named.values():
            dtype = getattr(value, "dtype", _NO_DTYPE)
            if dtype is not _NO_DTYPE:
                key.append(_dtype_name(dtype))
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
                raise AutotunerError(f"{self.__name__}: no valid autotuner configs after "
                                     "pruning: early_config_prune should return at least one")
        model = self.prune_configs_by.get("perf_model")
        if model is not None:
            top_k = self.prune_configs_by.get("top_k", 1.0)
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(configs) * top_k)
            elif not isinstance(top_k, int):
                raise TypeError("Error while pruning configs, top_k must be either 1) a float "
                                "<= 1.0 or 2) an int")
            top_k = max(1, int(top_k))
            if len(configs) > top_k:
                estimated = sorted(configs, key=lambda c: model(**named, **c.all_kwargs(),
                                                                num_ctas=c.num_ctas))
                configs = estimated[:top_k]
        return list(configs)

    # -- timing ----------------------------------------------------------------------

    @property
    def do_bench(self) -> Callable[..., Any]:
        """The timer, called as Triton's: `do_bench(kernel_call, quantiles=...)`."""
        if self._do_bench is not None:
            return self._do_bench
        from .. import testing
        if self.use_cuda_graph:
            rep = 100 if self.num_reps is None else self.num_reps
            return lambda call, quantiles: testing.do_bench_cudagraph(
                call, rep=rep, quantiles=quantiles)
        if self.num_warmups is None and self.num_reps is None:
            from .driver import driver
            return driver.active.get_benchmarker()  # tile.testing.do_bench
        warmup = 25 if self.num_warmups is None else self.num_warmups
        rep = 100 if self.num_reps is None else self.num_reps
        return lambda call, quantiles: testing.do_bench(call, warmup=warmup, rep=rep,
                                                        quantiles=quantiles)

    def _bench(self, grid: Any, args: Sequence[Any], kwargs: Mapping[str, Any], stream: Any,
               named: Mapping[str, Any], config: Config) -> Any:
        if knobs.autotuning.print:
            print(f"Autotuning kernel {self.__name__} with config {config}")
        clashing = set(kwargs) & set(config.kwargs)
        if clashing:
            raise ValueError(f"{self.__name__}: {sorted(clashing)} are given by the caller and "
                             "tuned by the autotuner; pass them in one place")
        current = {**kwargs, **config.all_kwargs()}
        full = {**named, **current}

        def kernel_call() -> None:
            if config.pre_hook is not None:
                config.pre_hook(full)
            self.pre_hook(full)
            try:
                _launch(self.fn, grid, args, current, stream)
            except Exception as exc:
                self.post_hook(full, exception=exc)
                raise
            self.post_hook(full, exception=None)

        try:
            return self.do_bench(kernel_call, quantiles=QUANTILES)
        except (CompilationError, _launch_errors()) as exc:
            # This config does not fit (too many threads, registers, shared
            # memory: OutOfResources; an unsupported construct): skip it.
            if knobs.autotuning.print:
                print(f"Autotuning failed with {exc}")
            return [float("inf")] * len(QUANTILES)

    def select(self, grid: Any, args: Sequence[Any], kwargs: Mapping[str, Any], stream: Any,
               named: Mapping[str, Any]) -> Config:
        key = self.tuning_key(named)
        config = self.cache.get(key)
        if config is not None:
            return config
        configs = self.prune_configs(named, kwargs)
        if len(configs) == 1 or interpreter.enabled(self._jit):
            config = configs[0]  # nothing to choose, or interpreted: nothing to time
        else:
            timings = self._stored_timings(key, configs) if self.cache_results else None
            cached = timings is not None
            if timings is None:
                started = time.perf_counter()
                timings = {c: self._bench(grid, args, kwargs, stream, named, c) for c in configs}
                self.bench_time = time.perf_counter() - started
            config = min(timings, key=lambda c: _sort_key(timings[c]))
            if _sort_key(timings[config])[0] == float("inf"):
                raise RuntimeError(f"{self.__name__}: no config compiled and launched for "
                                   f"{dict(zip(self.keys, key))}: {configs}")
            if not cached:
                if self.cache_results:
                    self._store_timings(key, configs, timings)
                # As Triton: the real run starts from zero too, not from the
                # last timed run's output.
                self.pre_hook({**named, **kwargs, **config.all_kwargs()}, reset_only=True)
            self.configs_timings = timings
            if knobs.autotuning.print and not cached:
                print(f"tile autotuning for {self.__name__} took {self.bench_time:.2f}s; "
                      f"best config for {key}: {config}")
        self.cache[key] = config
        self.best_config = config
        return config

    # -- timings on disk (cache_results) ---------------------------------------------

    def _disk_key(self, key: tuple[Any, ...], configs: Sequence[Config]) -> str | None:
        """The cache key of this kernel's timings for `key`, or None where they
        cannot be kept (a config with a pre_hook, as in Triton)."""
        if any(c.pre_hook is not None for c in configs):
            return None
        from ..compiler import capi
        from ..compiler.pipeline import frontend_version
        from .launch import default_target
        parts = {"autotune": self._jit.cache_source(), "chip": default_target(),
                 "compiler": capi.version() if capi.available() else None,
                 "frontend": frontend_version(), "key": repr(key),
                 "configs": [str(c) for c in configs],
                 "knobs": [knobs.runtime.debug, knobs.runtime.override_arch,
                           knobs.compilation.disable_line_info, knobs.compilation.tma,
                           knobs.language.default_fp_fusion]}
        return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()

    def _stored_timings(self, key: tuple[Any, ...],
                        configs: Sequence[Config]) -> dict[Config, Any] | None:
        from ..compiler.cache import FileCache
        disk_key = self._disk_key(key, configs)
        stored = None if disk_key is None else FileCache().get_json(disk_key)
        if not isinstance(stored, dict) or [c for c, _ in stored.get("configs_timings", [])] \
                != [str(c) for c in configs]:
            return None
        return {c: t for c, (_, t) in zip(configs, stored["configs_timings"])}

    def _store_timings(self, key: tuple[Any, ...], configs: Sequence[Config],
                       timings: Mapping[Config, Any]) -> None:
        from ..compiler.cache import FileCache
        disk_key = self._disk_key(key, configs)
        if disk_key is not None:
            FileCache().put_json(disk_key, {"key": repr(key), "configs_timings": [
                (str(c), timings[c]) for c in configs]})

    # -- launching --------------------------------------------------------------------

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        def run(*args: Any, stream: Any = None, **kwargs: Any) -> Any:
            named = bind_arguments_partial(self._jit, args, kwargs)
            config = self.cache.get(self.tuning_key(named)) or \
                self.select(grid, args, kwargs, stream, named)
            tuned = config.all_kwargs()
            if config.pre_hook is not None:
                config.pre_hook({**named, **kwargs, **tuned})
            return _launch(self.fn, grid, args, {**kwargs, **tuned} if kwargs else tuned, stream)
        return run

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._jit(*args, **kwargs)

    def warmup(self, *args: Any, **kwargs: Any) -> list[Any]:
        """Compiles every config (after pruning) for these arguments; returns
        the artifacts. No GPU needed when a `target=` is given."""
        named = bind_arguments_partial(self._jit, args, kwargs)
        return [self.fn.warmup(*args, **kwargs, **config.all_kwargs())
                for config in self.prune_configs(named, kwargs)]


def bind_arguments_partial(jit: Any, args: Sequence[Any], kwargs: Mapping[str, Any]
                           ) -> dict[str, Any]:
    """Arguments by name before the tuned constexprs are known."""
    named = dict(getattr(jit, "_default_values", {}))
    named.update(zip(jit.arg_names, args))
    named.update(kwargs)
    return named


def _launch_errors() -> type[BaseException]:
    from ..driver import DriverError
    return DriverError


def _launch(fn: Any, grid: Any, args: Sequence[Any], kwargs: Mapping[str, Any],
            stream: Any) -> Any:
    """`fn[grid](*args, **kwargs)` on `stream` (None: the current stream); fn
    is a @jit function or another decorator over one."""
    if stream is not None:
        return fn[grid](*args, stream=stream, **kwargs)
    return fn[grid](*args, **kwargs)


class Heuristics(KernelInterface):
    """Computes constexprs from the other arguments: `values = {"EVEN": lambda args: ...}`."""

    def __init__(self, fn: Any, arg_names: Sequence[str],
                 values: Mapping[str, Callable[[dict[str, Any]], Any]]) -> None:
        self.fn = fn
        self.arg_names = list(arg_names)
        self.values = dict(values)
        self.__name__ = getattr(fn, "__name__", "kernel")
        self._jit = _underlying_jit(fn)

    @property
    def configs(self) -> Any:
        return getattr(self.fn, "configs", None)

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        def run(*args: Any, stream: Any = None, **kwargs: Any) -> Any:
            named = bind_arguments_partial(self._jit, args, kwargs)
            extra = {name: rule(named) for name, rule in self.values.items()}
            return _launch(self.fn, grid, args, {**kwargs, **extra}, stream)
        return run


def autotune(configs: Sequence[Config], key: Sequence[str], prune_configs_by: Any = None,
             reset_to_zero: Any = None, restore_value: Any = None, pre_hook: Any = None,
             post_hook: Any = None, warmup: Any = None, rep: Any = None,
             use_cuda_graph: bool = False, do_bench: Any = None,
             cache_results: bool = False) -> Callable[[Any], Autotuner]:
    """Triton's `@triton.autotune(configs=[...], key=[...])` (see the module)."""
    def decorator(fn: Any) -> Autotuner:
        return Autotuner(fn, _underlying_jit(fn).arg_names, configs, key, reset_to_zero,
                         restore_value, pre_hook=pre_hook, post_hook=post_hook,
                         prune_configs_by=prune_configs_by, warmup=warmup, rep=rep,
                         use_cuda_graph=use_cuda_graph, do_bench=do_bench,
                         cache_results=cache_results)
    return decorator


def heuristics(values: Mapping[str, Callable[[dict[str, Any]], Any]]) -> Callable[[Any], Heuristics]:
    def decorator(fn: Any) -> Heuristics:
        return Heuristics(fn, _underlying_jit(fn).arg_names, values)
    return decorator


__all__ = ["Config", "Autotuner", "Heuristics", "autotune", "heuristics", "QUANTILES"]
