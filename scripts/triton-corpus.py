#!/usr/bin/env python3
"""How many of the real kernels in Triton's own tests and tutorials does tile
compile for Hopper, with only the import changed?

    PYTHONPATH=python .venv/bin/python scripts/triton-corpus.py TRITON_CHECKOUT \
        [--max-per-test 16] [--jobs 2] [--timeout 60] [--json out.json]

It runs `python/test/unit/language/test_*.py` of a Triton checkout under
pytest, and each `python/tutorials/NN-*.py` as a script, with every
`triton.X` import resolved to `tile.X` (nothing else in the sources changes).
No GPU is needed: a launch `kernel[grid](...)` (and `kernel.warmup`) compiles
for sm_90a, the chip tile picks on an H100/H200, to PTX and returns without
running anything; torch tensors asked for on "cuda" are made on the CPU, and
torch.cuda answers as one H200 would. Each launch is recorded as compiled or
as tile's error. The unit of the figure is one pytest item (a test function
with one parametrization) for the tests and one kernel for the tutorials;
kernel definitions are counted too. docs/reliability.md says more.
"""
from __future__ import annotations

import argparse
import ast
import collections
import contextlib
import hashlib
import importlib
import importlib.abc
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest as _pytest

CHIP = "sm_90a"  # tile.driver.target_for((9, 0)): what a Hopper user compiles for
TILE_DIR = Path(__file__).resolve().parents[1] / "python" / "tile"
ENV_RECORDS, ENV_ITEM, ENV_SCRIPT = "CORPUS_RECORDS", "CORPUS_ITEM", "CORPUS_SCRIPT"
API_GAP = "tile lacks a Triton API"
INTERNALS = "Triton internals (triton._C, triton._filecheck)"
BROKEN_BUILD = "tile's compiler library did not load (a rebuild under way?)"

# Tests and tutorials that need a GPU other than Hopper, by file or by a word of
# the test's name / parameters (tests that check for Blackwell or AMD themselves
# skip on their own, with their reason).
POLICY_FILES = {
    "test_mxfp.py": "microscaling formats (mxfp/fp4): Blackwell/AMD only",
    "test_core_amd.py": "AMD only",
    "10-block-scaled-matmul.py": "block-scaled MMA: Blackwell/AMD only",
}
POLICY_WORDS = {
    "tcgen05": "tcgen05 (Blackwell)", "tmem": "tensor memory (Blackwell)",
    "blackwell": "Blackwell only", "mxfp": "mxfp (Blackwell/AMD)", "mxfp4": "mxfp (Blackwell/AMD)",
    "mxfp8": "mxfp (Blackwell/AMD)", "fp4": "fp4 (Blackwell/AMD)", "e2m1": "fp4 (Blackwell/AMD)",
    "nvfp4": "fp4 (Blackwell)", "hip": "AMD only", "amd": "AMD only", "cdna": "AMD only",
    "cdna3": "AMD only", "cdna4": "AMD only", "rdna": "AMD only", "wmma": "AMD only",
    "mfma": "AMD only", "gfx1250": "AMD only",
}


# --------------------------------------------------------------------------
# Records: one JSON line per event, appended by workers and their children.

def emit(event: dict[str, Any]) -> None:
    path = os.environ.get(ENV_RECORDS)
    if not path:
        return
    event.setdefault("id", os.environ.get(ENV_ITEM, ""))
    line = (json.dumps(event, default=str) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


class CorpusTimeout(BaseException):
    """The per-test time limit ran out (a BaseException: `except Exception` in
    a test does not swallow it)."""


class MissingAPI(Exception):
    """A Triton name that tile does not have was used."""


# --------------------------------------------------------------------------
# `triton.X` -> `tile.X`. A module tile lacks imports as a stand-in whose every
# name raises MissingAPI when used, so that one missing import does not hide a
# whole file (a real user's import would fail at once; the report says which).

class _MissingMeta(type):
    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        raise MissingAPI(f"tile lacks {cls.triton_name}")

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise MissingAPI(f"tile lacks {cls.triton_name}")


def placeholder(triton_name: str) -> Any:
    """A stand-in for a missing name; an Exception class, so `except X:` and
    `pytest.raises(X)` still parse."""
    return _MissingMeta(triton_name.rsplit(".", 1)[-1], (Exception,), {"triton_name": triton_name})


class StandInModule(types.ModuleType):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.__path__: list[str] = []  # a package: its submodules import too

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return placeholder(f"{self.__name__}.{name}")


class TritonToTile(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name == "triton" or name.startswith("triton."):
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec: Any) -> types.ModuleType:
        if spec.name == "triton._internal_testing":
            return testing_shim()
        tile_name = "tile" + spec.name[len("triton"):]
        try:
            return importlib.import_module(tile_name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not tile_name.startswith(exc.name):
                raise
        emit({"ev": "stand_in", "module": spec.name})
        return StandInModule(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        pass


def install_alias() -> None:
    import tile
    sys.modules["triton"] = tile
    sys.meta_path.insert(0, TritonToTile())


def testing_shim() -> types.ModuleType:
    """Our stand-in for `triton._internal_testing` (Triton's test helpers, not
    its language): a CUDA Hopper device, the dtype lists, NumPy <-> torch."""
    import numpy as np
    import torch
    import tile
    m = types.ModuleType("triton._internal_testing")
    m.int_dtypes = ["int8", "int16", "int32", "int64"]
    m.uint_dtypes = ["uint8", "uint16", "uint32", "uint64"]
    m.integral_dtypes = m.int_dtypes + m.uint_dtypes
    m.float_dtypes = ["float16", "float32", "float64"]
    m.float_dtypes_with_bfloat16 = m.float_dtypes + ["bfloat16"]
    m.dtypes = m.integral_dtypes + m.float_dtypes
    m.dtypes_with_bfloat16 = m.dtypes + ["bfloat16"]
    m.torch_float8_dtypes = ["float8_e4m3fn", "float8_e5m2"]
    m.torch_dtypes = ["bool"] + m.int_dtypes + ["uint8"] + m.float_dtypes + ["bfloat16"]
    m.tma_dtypes = sorted(set(m.dtypes_with_bfloat16) - {"int64", "uint64", "float64"})
    device = {"is_cuda": True, "is_hopper": True, "is_hopper_or_newer": True,
              "is_ampere_or_newer": True, "supports_tma": True, "supports_ws": True}
    for name in ("is_interpreter", "is_blackwell", "is_blackwell_ultra", "is_rubin", "is_sm12x",
                 "is_xpu", "is_hip", "is_hip_cdna", "is_hip_cdna2", "is_hip_cdna3",
                 "is_hip_cdna4", "is_hip_rdna", "is_hip_rdna3", "is_hip_rdna4",
                 "is_hip_gfx1250", "is_hip_cdna3_or_newer", "supports_clc", *device):
        setattr(m, name, (lambda v: lambda *a, **k: v)(device.get(name, False)))
    m.get_arch = lambda: "90"
    m.get_current_target = lambda: tile.runtime.driver.active.get_current_target()
    m.tma_skip_msg = lambda *a: "needs TMA"
    m.requires_tma = __import__("pytest").mark.skipif(False, reason="")

    def numpy_random(shape: Any, dtype_str: str, rs: Any = None, low: Any = None,
                     high: Any = None) -> Any:
        shape = (shape,) if isinstance(shape, int) else shape
        rs = rs or np.random.RandomState(17)
        if dtype_str in m.integral_dtypes:
            info = np.iinfo(dtype_str)
            lo = info.min if low is None else max(low, info.min)
            hi = info.max if high is None else min(high, info.max)
            x = rs.randint(lo, hi, shape, dtype=dtype_str)
            x[x == 0] = 1  # no zero divisors
            return x
        if "float8" in dtype_str:
            return rs.randint(20, 40, shape, dtype=np.int8)
        if dtype_str in m.float_dtypes:
            return rs.normal(0, 1, shape).astype(dtype_str)
        if dtype_str == "bfloat16":  # float32 values that bfloat16 holds exactly
            bits = rs.normal(0, 1, shape).astype("float32").view("uint32")
            return (bits & np.uint32(0xFFFF0000)).view("float32")
        if dtype_str in ("bool", "int1", "bool_"):
            return rs.normal(0, 1, shape) > 0
        raise RuntimeError(f"unknown dtype {dtype_str}")

    float8 = {"float8e4nv": "float8_e4m3fn", "float8e5": "float8_e5m2",
              "float8e4b8": "float8_e4m3fnuz", "float8e5b16": "float8_e5m2fnuz"}

    def to_triton(x: Any, device: Any, dst_type: str | None = None) -> Any:
        # Triton's helper wraps unsigned and fp8 data with triton.reinterpret;
        # tile has none, so they become torch's own uint / float8 tensors.
        if x.dtype.name in m.uint_dtypes:
            return torch.from_numpy(x).to(device)
        if dst_type and "float8" in dst_type:
            if dst_type not in float8:
                raise MissingAPI(f"tile lacks triton.reinterpret (for {dst_type})")
            return torch.from_numpy(x).to(device).view(getattr(torch, float8[dst_type]))
        if x.dtype.name == "float32" and dst_type == "bfloat16":
            return torch.tensor(x, device=device).bfloat16()
        return torch.tensor(x, device=device)

    def to_numpy(x: Any) -> Any:
        x = getattr(x, "base", x)
        return (x.float() if x.dtype is torch.bfloat16 else x).cpu().numpy()

    def torch_dtype_name(dtype: Any) -> str:
        return dtype.name if isinstance(dtype, tile.language.dtype) else str(dtype)[6:]

    m.numpy_random, m.to_triton, m.to_numpy = numpy_random, to_triton, to_numpy
    m.torch_dtype_name = torch_dtype_name
    m.unwrap_tensor = lambda t: getattr(t, "base", t)
    m.str_to_triton_dtype = lambda s: getattr(tile.language, {"bool": "int1"}.get(s, s))
    m.default_alloc_fn = lambda size, align, _: torch.empty(size, dtype=torch.int8, device="cuda")
    m.__getattr__ = lambda name: placeholder(f"triton._internal_testing.{name}")
    return m


# --------------------------------------------------------------------------
# A simulated H200: "cuda" tensors live on the CPU, torch.cuda answers.

def simulate_hopper() -> None:
    import torch
    from torch.overrides import TorchFunctionMode

    def cpu(value: Any) -> Any:
        if isinstance(value, torch.device) and value.type == "cuda":
            return torch.device("cpu")
        if isinstance(value, str) and value.startswith("cuda"):
            return "cpu"
        if isinstance(value, int) and not isinstance(value, bool):
            return "cpu"  # device=0
        return value

    from torch.utils._pytree import tree_map
    F = torch.nn.functional
    # Reference computations that are slow on the CPU and whose values
    # nobody reads (no kernel ran): only their shapes are computed.
    heavy = {torch.matmul, torch.mm, torch.bmm, torch.addmm, torch.baddbmm, torch.einsum,
             torch.Tensor.matmul, torch.Tensor.__matmul__, F.linear,
             F.scaled_dot_product_attention}

    def meta(x: Any) -> Any:
        return x.to("meta") if isinstance(x, torch.Tensor) else x

    def empty(x: Any) -> Any:
        return torch.empty(x.shape, dtype=x.dtype) if isinstance(x, torch.Tensor) else x

    class CudaOnCpu(TorchFunctionMode):
        def __torch_function__(self, func: Any, types: Any, args: Any = (),
                               kwargs: Any = None) -> Any:
            if func in heavy:
                return tree_map(empty, func(*tree_map(meta, args), **tree_map(meta, kwargs or {})))
            kwargs = dict(kwargs or {})
            if "device" in kwargs:
                kwargs["device"] = cpu(kwargs["device"])
            if func in (torch.Tensor.cuda, torch.Tensor.pin_memory):
                return args[0]
            if func in (torch.Tensor.to, torch.Tensor.new_empty):
                args = tuple(a if isinstance(a, int) else cpu(a) for a in args)
            owner = getattr(func, "__self__", None)
            if owner is torch.Tensor.is_cuda:
                return True  # as on the GPU
            if owner is torch.Tensor.device:
                return torch.device("cuda", 0)
            return func(*args, **kwargs)

    props = types.SimpleNamespace(name="NVIDIA H200 (simulated)", major=9, minor=0,
                                  multi_processor_count=132, total_memory=141 << 30,
                                  max_shared_memory_per_block_optin=232448, warp_size=32,
                                  L2_cache_size=60 << 20, regs_per_multiprocessor=65536)
    cuda = torch.cuda
    cuda.is_available = lambda: True
    cuda.device_count = lambda: 1
    cuda.current_device = lambda: 0
    cuda.get_device_capability = lambda *a: (9, 0)
    cuda.get_device_name = lambda *a: props.name
    cuda.get_device_properties = lambda *a: props
    cuda.synchronize = lambda *a: None
    cuda.set_device = lambda *a: None
    cuda.device = lambda *a: contextlib.nullcontext()
    # No kernel ran, so outputs are garbage: value checks pass, and a test or
    # tutorial goes on to its next launch.
    torch.allclose = lambda *a, **k: True
    torch.testing.assert_close = lambda *a, **k: None
    # Triton's `driver.active.utils.get_device_properties` (tutorial 02, the
    # tests that size their tiles by shared memory), as an H200 answers it.
    from tile.runtime.driver import DeviceUtils
    h200 = {"max_shared_mem": props.max_shared_memory_per_block_optin, "max_num_regs": 65536,
            "multiprocessor_count": props.multi_processor_count, "warpSize": 32,
            "sm_clock_rate": 1980000, "mem_clock_rate": 3201000, "mem_bus_width": 6144,
            "max_threads_per_sm": 2048}
    DeviceUtils.get_device_properties = lambda self, device: dict(h200)
    from tile.runtime.driver import CudaDriver
    CudaDriver.get_current_device = lambda self: 0
    CudaOnCpu().__enter__()  # for the whole process


# --------------------------------------------------------------------------
# Compile-only launches.

_expected_failure_depth = 0  # > 0 inside `pytest.raises(...)`
_tuning: list[int] = []  # the autotuning session under way (one per tuning key), if any
_sessions = iter(range(1, 1 << 62))
_dropped_options = [n for n in os.environ.get("CORPUS_DROP_OPTIONS", "").split(",") if n]


def describe(exc: BaseException) -> dict[str, Any]:
    """An exception as the report groups it: kind, message, where in tile."""
    from tile.errors import CompilationError, TileError
    frames = traceback.extract_tb(exc.__traceback__)
    in_tile = [f for f in frames if str(TILE_DIR) in f.filename]
    cause = exc.__cause__ or exc.__context__
    if isinstance(exc, CompilationError) and cause is not None:
        # Where the error arose in tile, not codegen's re-raise with a location.
        in_tile = [f for f in traceback.extract_tb(cause.__traceback__)
                   if str(TILE_DIR) in f.filename] or in_tile
    where = (f"{Path(in_tile[-1].filename).relative_to(TILE_DIR.parent)}:{in_tile[-1].lineno}"
             f" in {in_tile[-1].name}") if in_tile else ""
    last = frames[-1].filename if frames else ""
    if isinstance(exc, CorpusTimeout):
        kind = "timeout"
    elif "libTileCAPI" in str(exc):
        kind = BROKEN_BUILD
    elif isinstance(exc, CompilationError):
        kind = "compile error" if exc.filename else "compile error (no location)"
    elif isinstance(exc, TileError):
        kind = "tile error (no location)"
    elif isinstance(exc, MissingAPI) and str(exc).startswith("tile lacks triton._"):
        kind = INTERNALS
    elif isinstance(exc, MissingAPI) or _is_tile_attribute_error(exc) or (
            isinstance(exc, NotImplementedError) and in_tile):
        kind = API_GAP
    elif in_tile and str(TILE_DIR) in last:
        # A `raise` of tile's own is a diagnostic without a location; any other
        # exception from inside tile (AttributeError, KeyError...) is a bug.
        deliberate = (frames[-1].line or "").lstrip().startswith("raise")
        kind = "tile error (no location)" if deliberate else "exception inside tile"
    elif "/torch/" in last or "not implemented for" in str(exc):
        kind = "torch on the CPU"
    else:
        kind = "test or harness"
    message = getattr(exc, "message", None) or str(exc)
    if not message.strip() and frames:  # a bare `assert`: its line
        message = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}: {frames[-1].line}"
    first = message.strip().splitlines()[0] if message.strip() else ""
    first = re.sub(r"^.*?:\d+:\d+: error: ", "", first)
    return {"kind": kind, "type": type(exc).__name__, "message": first[:300], "where": where,
            "in_raises": getattr(exc, "_corpus_in_raises", False)}


def _is_tile_attribute_error(exc: BaseException) -> bool:
    if isinstance(exc, ImportError):
        return "tile" in str(exc)
    if not isinstance(exc, AttributeError):
        return False
    obj = getattr(exc, "obj", None)
    owner = (obj.__name__ if isinstance(obj, types.ModuleType) else
             obj.__module__ if isinstance(obj, type) else type(obj).__module__)
    return str(owner).startswith("tile")


def _kernel_name(jit: Any) -> str:
    code = jit.fn.__code__
    return f"{Path(code.co_filename).name}:{code.co_firstlineno}:{jit.__qualname__}"


def recorded_compile(jit: Any, run: Callable[[], Any], options: dict[str, Any]) -> Any:
    """Runs one compile and records it; errors propagate as a launch's would."""
    kernel = _kernel_name(jit)
    facts = {"kernel": kernel, "negative": _expected_failure_depth > 0,
             "tuning": _tuning[-1] if _tuning else 0}
    # The scalar keyword arguments (constexprs, num_warps...), for a reproducer.
    config = {k: v for k, v in options.items() if isinstance(v, (bool, int, float, str))}
    emit({"ev": "begin", "kernel": kernel})
    started = time.perf_counter()
    try:
        result = run()
    except BaseException as exc:
        emit({"ev": "launch", **facts, "ok": False, "seconds": time.perf_counter() - started,
              "error": describe(exc), "config": config})
        raise
    emit({"ev": "launch", **facts, "ok": True, "seconds": time.perf_counter() - started})
    return result


def compile_only(emit_cubin: bool) -> None:
    """`kernel[grid](...)` and `kernel.warmup(...)` compile, record, and return."""
    import functools
    import pytest
    from tile import testing
    from tile.compiler import pipeline
    from tile.runtime import autotuner, jit as jit_module, launch

    launch.compile = functools.partial(pipeline.compile, emit_cubin=emit_cubin)
    launch.default_target = lambda: CHIP

    def launch_grid(jit: Any, grid: Any) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> None:
            kwargs.pop("stream", None)  # as tile's C dispatcher does
            for name in _dropped_options:  # --drop-launch-option: a what-if
                if name not in jit.arg_names:
                    kwargs.pop(name, None)

            def compile_and_check_grid() -> None:  # tile's slow_launch, minus the driver
                if jit._global_reads:
                    jit.forget_stale_kernels()
                options = launch.split_options(jit, kwargs)
                launch.bind_arguments(jit, args, kwargs)
                options.setdefault("target", CHIP)
                _, _, named = launch.compile_for_args(jit, args, kwargs, options)
                launch.normalize_grid(grid, named)
            recorded_compile(jit, compile_and_check_grid, dict(kwargs))
        return run

    warmup = jit_module.JITFunction.warmup
    jit_module.JITFunction.__getitem__ = launch_grid
    jit_module.JITFunction.warmup = lambda self, *a, **k: recorded_compile(
        self, lambda: warmup(self, *a, **k), k)

    def do_bench(fn: Callable[[], Any], *args: Any, quantiles: Any = None,
                 return_mode: str = "mean", **kw: Any) -> Any:
        fn()  # once: it compiles
        return testing._summarize([1.0], quantiles, return_mode)
    testing.do_bench = testing.do_bench_cudagraph = do_bench

    select = autotuner.Autotuner.select

    def tuning(self: Any, *args: Any, **kwargs: Any) -> Any:
        _tuning.append(next(_sessions))
        try:
            return select(self, *args, **kwargs)
        finally:
            _tuning.pop()
    autotuner.Autotuner.select = tuning

    run_benchmark = testing.Mark._run

    def first_point_only(self: Any, bench: Any, save_path: str, show_plots: bool,
                         print_data: bool, **kwargs: Any) -> Any:
        bench.x_vals = bench.x_vals[:1]  # one point of each sweep (sampled)
        return run_benchmark(self, bench, "", False, False, **kwargs)
    testing.Mark._run = first_point_only

    real_raises = pytest.raises

    @contextlib.contextmanager
    def expecting_failure() -> Iterator[None]:
        global _expected_failure_depth
        _expected_failure_depth += 1
        try:
            yield
        finally:
            _expected_failure_depth -= 1

    class Raises:
        def __init__(self, inner: Any) -> None:
            self.inner, self.scope = inner, expecting_failure()

        def __enter__(self) -> Any:
            self.scope.__enter__()
            return self.inner.__enter__()

        def __exit__(self, *exc: Any) -> Any:
            self.scope.__exit__(None, None, None)
            if exc[1] is not None:  # it may go on: the test expected another error
                with contextlib.suppress(AttributeError, TypeError):
                    exc[1]._corpus_in_raises = True
            return self.inner.__exit__(*exc)

    def raises(*args: Any, **kwargs: Any) -> Any:
        if len(args) > 1:  # pytest.raises(E, fn, *args)
            with expecting_failure():
                return real_raises(*args, **kwargs)
        return Raises(real_raises(*args, **kwargs))
    pytest.raises = raises


def install(emit_cubin: bool = False) -> None:
    os.environ.pop("TILE_INTERPRET", None)
    os.environ.pop("TRITON_INTERPRET", None)
    install_alias()
    simulate_hopper()
    compile_only(emit_cubin)


def install_in_child() -> None:
    """Called by the sitecustomize of subprocesses that tests start."""
    install(os.environ.get("CORPUS_CUBIN") == "1")


# --------------------------------------------------------------------------
# Worker side: the pytest plugin (this module is the plugin) and tutorials.

_plugin_options: dict[str, Any] = {}


def policy_reason(nodeid: str) -> str | None:
    words = re.split(r"[^a-z0-9]+", nodeid.lower())
    return next((POLICY_WORDS[w] for w in words if w in POLICY_WORDS), None)


def select_items(items: list[Any], max_per_test: int, shard: int, shards: int,
                 done: set[str]) -> tuple[list[Any], int]:
    """At most `max_per_test` parametrizations per test function, picked by
    the hash of their ids (deterministic), then this shard's share."""
    groups: dict[str, list[Any]] = collections.defaultdict(list)
    for item in items:
        groups[item_id(item).split("[")[0]].append(item)
    kept = []
    for group in groups.values():
        ordered = sorted(group, key=lambda i: hashlib.sha256(item_id(i).encode()).hexdigest())
        kept.extend(ordered[:max_per_test] if max_per_test > 0 else ordered)
    order = {id(item): n for n, item in enumerate(items)}
    kept.sort(key=lambda i: order[id(i)])
    mine = [item for n, item in enumerate(kept) if n % shards == shard]
    return [item for item in mine if item_id(item) not in done], len(kept)


def item_id(item: Any) -> str:
    """`file::Class::test[params]`, whatever the rootdir."""
    return "::".join([_plugin_options["file"]] + item.nodeid.split("::")[1:])


def pytest_collection_modifyitems(session: Any, config: Any, items: list[Any]) -> None:
    o = _plugin_options
    kept, sampled = select_items(items, o["max_per_test"], o["shard"], o["shards"], o["done"])
    emit({"ev": "collected", "file": o["file"], "total": len(items), "sampled": sampled,
          "shard": o["shard"]})
    items[:] = kept


@contextlib.contextmanager
def lenient_tile_names() -> Iterator[None]:
    """While test files import, a name a tile module lacks (`tl.float8e4b15`
    in a parametrize list) is a stand-in, so that the file's other tests still
    run; the tests that use it then fail on it. Kernels compile afterwards,
    with tile's modules as they are."""
    modules = [m for n, m in list(sys.modules.items())
               if (n == "tile" or n.startswith("tile.")) and isinstance(m, types.ModuleType)
               and "__getattr__" not in vars(m)]

    def lenient(module: types.ModuleType) -> Callable[[str], Any]:
        def missing(name: str) -> Any:
            if name.startswith("_"):  # probes (pytest looks for `_mock_name`)
                raise AttributeError(name)
            triton_name = "triton" + module.__name__[4:] + "." + name
            emit({"ev": "stand_in", "module": triton_name})
            return placeholder(triton_name)
        return missing
    for m in modules:
        m.__getattr__ = lenient(m)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for m in modules:
            del m.__getattr__


@_pytest.hookimpl(hookwrapper=True)
def pytest_collection(session: Any) -> Any:
    with lenient_tile_names():
        yield


def pytest_collectreport(report: Any) -> None:
    if report.failed:
        emit({"ev": "collect_error", "file": _plugin_options["file"],
              "message": str(report.longrepr).strip().splitlines()[-1][:300]})


def pytest_runtest_protocol(item: Any, nextitem: Any) -> Any:
    os.environ[ENV_ITEM] = item_id(item)
    emit({"ev": "start"})
    reason = policy_reason(item_id(item))
    if reason is not None:
        emit({"ev": "end", "outcome": "policy", "reason": reason})
        return True  # not run
    return None


def _alarm(signum: int, frame: Any) -> None:
    raise CorpusTimeout(f"over the {_plugin_options['timeout']} s limit")


def pytest_runtest_setup(item: Any) -> None:
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, _plugin_options["timeout"])


def pytest_runtest_teardown(item: Any) -> None:
    signal.setitimer(signal.ITIMER_REAL, 0)


_OUTCOME = _pytest.StashKey[dict]()  # an item's outcome, kept across its phases


@_pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Any:
    outcome = yield
    report = outcome.get_result()
    state = item.stash.setdefault(_OUTCOME, {"outcome": "passed"})
    if call.when == "teardown":
        emit({"ev": "end", **state})
    elif report.skipped and state["outcome"] == "passed":
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        state.update(outcome="skipped", reason=str(reason).removeprefix("Skipped: ")[:200])
    elif report.failed and state["outcome"] == "passed":
        state.update(outcome="failed", error=describe(call.excinfo.value))


@_pytest.fixture
def device() -> str:
    return "cuda"


@_pytest.fixture
def fresh_triton_cache(tmp_path: Path) -> Iterator[str]:
    os.environ["TILE_CACHE_DIR"], old = str(tmp_path), os.environ["TILE_CACHE_DIR"]
    yield str(tmp_path)
    os.environ["TILE_CACHE_DIR"] = old


@_pytest.fixture
def fresh_knobs() -> Iterator[Any]:
    """Triton's: the knobs, restored after the test."""
    import tile
    with tile.knobs.scope():
        yield tile.knobs


fresh_knobs_including_libraries = fresh_knobs


@_pytest.fixture
def with_allocator() -> Iterator[None]:
    import tile
    import torch
    tile.set_allocator(lambda size, align, _: torch.empty(size, dtype=torch.int8))
    yield
    tile.set_allocator(None)


class TolerantTestModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports the test files of one directory a top-level statement at a
    time: a statement that fails (a decorator naming a dtype tile lacks, a
    helper kernel with an option tile refuses) is recorded and skipped, and
    the rest of the file still runs."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        file = self.directory / f"{name}.py"
        if "." in name or not file.is_file():
            return None
        return importlib.util.spec_from_file_location(name, file, loader=self)

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        import __future__
        path = str(module.__file__)
        flags = 0
        for stmt in ast.parse(Path(path).read_text(), path).body:
            if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
                for alias in stmt.names:
                    flags |= getattr(__future__, alias.name).compiler_flag
            code = compile(ast.Module([stmt], []), path, "exec", flags=flags, dont_inherit=True)
            try:
                exec(code, module.__dict__)
            except Exception as exc:  # noqa: B902 - recorded, the file goes on
                emit({"ev": "import_error", "module": module.__name__, "line": stmt.lineno,
                      "names": defined_names(stmt), "error": describe(exc)})


def defined_names(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
        return [stmt.name]
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
    return [n.id for t in targets if t is not None for n in ast.walk(t) if isinstance(n, ast.Name)]


def run_tests(unit: dict[str, Any]) -> int:
    _plugin_options.update(unit, done=set(unit["done"]))
    sys.meta_path.insert(0, TolerantTestModules(Path(unit["path"]).parent))
    ini = Path(unit["tmp"]) / "pytest.ini"
    ini.write_text("[pytest]\n")
    args = [unit["path"], "-q", "-c", str(ini), "--rootdir", unit["tmp"], "--noconftest",
            "-p", "no:cacheprovider", "--assert=plain", "--capture=sys", "-W", "ignore", "--tb=no",
            "-o", "console_output_style=classic"] + (["-k", unit["k"]] if unit["k"] else [])
    return int(_pytest.main(args, plugins=[sys.modules[__name__]]))


def tutorial_kernels(path: Path) -> list[str]:
    """The @triton.jit functions of a tutorial that no other one calls (its
    kernels, not its device helpers), as `file:line:name`."""
    tree = ast.parse(path.read_text())
    jitted = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(
                "jit" in ast.unparse(d) for d in node.decorator_list):
            jitted[node.name] = node
    called = {n.func.id for f in jitted.values() for n in ast.walk(f)
              if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    # A decorated function's code starts at its first decorator.
    return [f"{path.name}:{min(d.lineno for d in f.decorator_list)}:{name}"
            for name, f in jitted.items() if name not in called]


def run_tutorial(unit: dict[str, Any]) -> int:
    import runpy
    _plugin_options.update(unit)  # the alarm reads the timeout there
    os.environ[ENV_ITEM] = unit["file"]
    os.chdir(unit["tmp"])  # its CSV files and plots land there
    sys.argv = [unit["path"]]
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, unit["timeout"])
    emit({"ev": "start"})
    state: dict[str, Any] = {"outcome": "passed"}
    try:
        runpy.run_path(unit["path"], run_name="__main__")
    except BaseException as exc:  # noqa: B902 - any end of the script is recorded
        state = {"outcome": "failed", "error": describe(exc)}
    signal.setitimer(signal.ITIMER_REAL, 0)
    emit({"ev": "end", **state})
    return 0


# --------------------------------------------------------------------------
# Driver side: units of work in subprocesses, a watchdog, restarts after crashes.

@dataclass
class Unit:
    file: str
    path: str
    kind: str  # "tests" or "tutorial"
    shard: int = 0
    shards: int = 1
    records: list[dict[str, Any]] = field(default_factory=list)
    problem: str = ""  # a worker that failed outside any test


def read_records(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(errors="replace").splitlines():
        with contextlib.suppress(json.JSONDecodeError):
            out.append(json.loads(line))
    return out


def run_unit(unit: Unit, args: argparse.Namespace, work: Path, site: Path) -> None:
    """Runs `unit` to the end, restarting its worker after a crash or a hang
    (the item that was running is recorded as such)."""
    tag = f"{unit.file}.{unit.shard}"
    records = work / f"{tag}.jsonl"
    done: set[str] = set()
    for attempt in range(200):
        tmp = work / f"{tag}.tmp{attempt}"
        tmp.mkdir()
        spec = {"file": unit.file, "path": unit.path, "kind": unit.kind, "shard": unit.shard,
                "shards": unit.shards, "done": sorted(done), "tmp": str(tmp),
                "max_per_test": args.max_per_test, "k": args.k, "timeout": args.timeout
                if unit.kind == "tests" else args.tutorial_timeout}
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(site), str(TILE_DIR.parent), os.environ.get("PYTHONPATH", "")]),
            **{ENV_RECORDS: str(records), ENV_SCRIPT: str(Path(__file__).resolve()),
               "TILE_CACHE_DIR": str(work / "cache"), "CORPUS_CUBIN": "1" if args.cubin else "0",
               "CORPUS_DROP_OPTIONS": ",".join(args.drop_launch_option),
               "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "Agg"})
        log = open(work / f"{tag}.log", "ab")
        offset = log.tell()
        (tmp / "unit.json").write_text(json.dumps(spec))  # the done list can be long
        proc = subprocess.Popen([sys.executable, __file__, "--worker", str(tmp / "unit.json")],
                                env=env, stdout=log, stderr=log, start_new_session=True,
                                cwd=tmp)
        killed = watch(proc, records, spec["timeout"] + 30)
        log.close()
        events = read_records(records)
        ended = {e["id"] for e in events if e["ev"] == "end"}
        started = [e["id"] for e in events if e["ev"] == "start" and e["id"] not in ended
                   and e["id"] not in done]
        if not started:
            if killed or proc.returncode not in (0, 1, 5):  # pytest: ok, failures, no tests
                unit.problem = (f"the worker {'hung' if killed else 'exited'} outside any "
                                f"test (exit {proc.returncode}); see {tag}.log")
            break
        # The worker died in `started[-1]`: record it, then go on without it.
        lost = started[-1]
        tail = (work / f"{tag}.log").read_bytes()[offset:].decode(errors="replace")
        what = (f"timeout (killed after {spec['timeout'] + 30:.0f} s without progress)"
                if killed else f"crash (exit {proc.returncode})")
        emit_to(records, {"ev": "end", "id": lost, "outcome": "died", "how": what,
                          "stderr": _crash_lines(tail)})
        done |= ended | {lost}
    unit.records = read_records(records)


def _crash_lines(log: str) -> str:
    """What the dying worker said: C++ assertion or LLVM lines, and the
    innermost Python frame of faulthandler's dump."""
    lines = log.splitlines()
    found = (re.search(r"(assert|abort|LLVM ERROR|terminate called|Fatal Python error).*", ln,
                       re.I) for ln in lines)
    keep = [m.group(0).strip() for m in found if m]
    fatal = next((i for i, ln in enumerate(lines) if "Fatal Python error" in ln), None)
    if fatal is not None:
        keep += [ln.strip() for ln in lines[fatal:fatal + 6] if ln.strip().startswith("File")][:1]
    return " / ".join(keep[-4:])[:600]


def emit_to(path: Path, event: dict[str, Any]) -> None:
    with open(path, "a") as f:
        f.write(json.dumps(event) + "\n")


def watch(proc: subprocess.Popen[bytes], records: Path, limit: float) -> bool:
    """Waits for the worker; kills its process group when one item has run
    for `limit` seconds (a hang in C++ that the in-process alarm cannot stop)."""
    last_size, since = -1, time.monotonic()
    while proc.poll() is None:
        time.sleep(1)
        size = records.stat().st_size if records.exists() else 0
        if size != last_size:
            last_size, since = size, time.monotonic()
        elif time.monotonic() - since > limit:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return True
    return False


SITECUSTOMIZE = f"""import os, sys
if os.environ.get("{ENV_SCRIPT}") and os.environ.get("CORPUS_CHILD"):
    import importlib.util
    spec = importlib.util.spec_from_file_location("triton_corpus", os.environ["{ENV_SCRIPT}"])
    module = sys.modules["triton_corpus"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.install_in_child()
"""


# --------------------------------------------------------------------------
# Verdicts and the report.

COMPILED, FAILED, BEFORE, NEGATIVE, NO_LAUNCH, SKIPPED = (
    "compiled", "failed in tile", "failed before launch", "negative test", "no kernel launched",
    "skipped")
COLUMNS = [COMPILED, FAILED, BEFORE, NEGATIVE, NO_LAUNCH, SKIPPED]


@dataclass
class Verdict:
    file: str
    item: str
    status: str
    reason: dict[str, Any]  # kind / message / where / example for grouping


def outcomes(launches: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    """The failed launches that count, and whether any compiled. An autotuner
    drops the configs that do not compile (as Triton drops those out of
    resources): its tuning for one key fails only when no config compiled."""
    failed = [la for la in launches if not la["tuning"] and not la["ok"]]
    sessions: dict[int, list[dict[str, Any]]] = collections.defaultdict(list)
    for la in launches:
        if la["tuning"]:
            sessions[la["tuning"]].append(la)
    failed += [s[0] for s in sessions.values() if not any(la["ok"] for la in s)]
    return failed, any(la["ok"] for la in launches)


def item_verdict(file: str, item: str, launches: list[dict[str, Any]],
                 end: dict[str, Any] | None, begun: list[dict[str, Any]]) -> Verdict:
    end = end or {"outcome": "died", "how": "no end recorded"}
    outcome = end["outcome"]
    if outcome == "policy":
        return Verdict(file, item, SKIPPED, {"kind": "policy", "message": end["reason"]})
    if outcome == "skipped" and not launches:
        return Verdict(file, item, SKIPPED, {"kind": "test skips itself",
                                            "message": end.get("reason", "")})
    positive = [la for la in launches if not la["negative"]]
    failed, compiled = outcomes(positive)
    if outcome == "died" and len(begun) > len(launches):  # died inside a compile
        kernel = begun[-1]["kernel"]
        return Verdict(file, item, FAILED, {"kind": end["how"].split(" (")[0], "where": kernel,
                                           "message": end.get("stderr") or end["how"]})
    if launches and not positive:  # every launch sits in a `pytest.raises`
        accepted = any(la["ok"] for la in launches)
        return Verdict(file, item, NEGATIVE, {"kind": "negative", "message":
                       "tile accepted a kernel the test expects to fail" if accepted else
                       "tile rejected it, as the test expects"})
    if failed and not compiled and outcome == "passed":  # the test caught tile's error itself
        return Verdict(file, item, NEGATIVE, {"kind": "negative", "message":
                       "tile rejected it, as the test expects"})
    if failed:
        return Verdict(file, item, FAILED, failed[0]["error"])
    if compiled:
        return Verdict(file, item, COMPILED, {})
    if not positive and end.get("error", {}).get("in_raises"):
        return Verdict(file, item, NEGATIVE, {"kind": "negative", "message":
                       "stopped before a launch, where the test expects an error: " +
                       end["error"]["message"]})
    if outcome == "passed":
        return Verdict(file, item, NO_LAUNCH, {"kind": "no launch", "message": ""})
    if outcome == "died":
        return Verdict(file, item, BEFORE, {"kind": end["how"].split(" (")[0],
                                            "message": end.get("stderr") or end["how"]})
    return Verdict(file, item, BEFORE, end.get("error", {"kind": "?", "message": ""}))


def verdicts_of(unit: Unit) -> list[Verdict]:
    by_item: dict[str, dict[str, Any]] = collections.defaultdict(
        lambda: {"launches": [], "begun": [], "end": None})
    collect_errors, import_errors = [], {}
    for e in unit.records:
        if e["ev"] == "import_error" and e["module"] == Path(unit.file).stem:
            import_errors.update({name: e for name in e["names"]})
        slot = by_item[e.get("id", "")]
        if e["ev"] == "launch":
            slot["launches"].append(e)
        elif e["ev"] == "begin":
            slot["begun"].append(e)
        elif e["ev"] == "end":
            slot["end"] = e
        elif e["ev"] == "collect_error":
            collect_errors.append(e)
    if unit.kind == "tutorial":
        return tutorial_verdicts(unit, by_item.get(unit.file, {"launches": [], "end": None}))
    out = [item_verdict(unit.file, item, s["launches"], s["end"], s["begun"])
           for item, s in by_item.items() if item and s["end"] is not None or s["begun"]]
    for v in out:  # "name 'x' is not defined" where the definition of x failed
        match = re.match(r"name '(\w+)' is not defined", v.reason.get("message", ""))
        if v.status == BEFORE and match and match.group(1) in import_errors:
            root = import_errors[match.group(1)]["error"]
            v.reason = {**root, "message": f"{root['message']} (at import, via {match.group(1)})"}
    if unit.shard == 0:  # test functions whose definition failed: one item each
        for name, e in import_errors.items():
            if name.startswith(("test_", "Test")):
                out.append(Verdict(unit.file, f"{unit.file}::{name}", BEFORE,
                                   {**e["error"], "message": e["error"]["message"] +
                                    " (at import: the test is not collected)"}))
    if collect_errors and unit.shard == 0:  # the file did not import: count its tests
        n = len(re.findall(r"^\s*def test_", Path(unit.path).read_text(), re.M))
        reason = {"kind": "the test file does not import", "message": collect_errors[0]["message"]}
        out += [Verdict(unit.file, f"{unit.file}::test {i}", BEFORE, reason) for i in range(n)]
    return out


def tutorial_verdicts(unit: Unit, slot: dict[str, Any]) -> list[Verdict]:
    """One verdict per kernel of the tutorial; a kernel never launched was not
    reached (the script stopped before it, for the reason recorded)."""
    launches: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    for la in slot["launches"]:
        launches[la["kernel"]].append(la)
    end = slot["end"] or {"outcome": "died", "how": "no end recorded"}
    out = []
    kernels = tutorial_kernels(Path(unit.path))
    for kernel in kernels + [k for k in launches if k not in kernels]:
        mine = launches.get(kernel, [])
        if not mine:
            why = end.get("error") or {"kind": "not launched by the tutorial", "message": ""}
            status = NO_LAUNCH if end["outcome"] == "passed" else BEFORE
            out.append(Verdict(unit.file, kernel, status, why))
        else:
            out.append(item_verdict(unit.file, kernel, mine, {"outcome": "failed"}, []))
    return out


def normalize(message: str) -> str:
    """Groups messages that differ only in numbers, kernel names or types."""
    message = re.sub(r"^\w+\(\): ", "KERNEL(): ", message)
    message = re.sub(r"\b\d+\b", "N", message)
    message = re.sub(r"\[(N, )*N\]", "[...]", message)
    return re.sub(r"\b(u?int|fp|float|bf|i)N\b", "T", message)


def report(units: list[Unit], args: argparse.Namespace, seconds: float) -> dict[str, Any]:
    verdicts = [v for u in units for v in verdicts_of(u)]
    per_file: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for v in verdicts:
        per_file[v.file][v.status] += 1
    sampled: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    stand_ins: dict[str, set[str]] = collections.defaultdict(set)
    for u in units:
        for e in u.records:
            if e["ev"] == "collected" and e["shard"] == 0:
                sampled[u.file] = [e["total"], e["sampled"]]
            if e["ev"] == "stand_in":
                stand_ins[e["module"]].add(u.file)
    total: collections.Counter[str] = collections.Counter()
    for c in per_file.values():
        total.update(c)

    out = ["# tile on Triton's tests and tutorials (compile only, " + CHIP + ")", ""]
    broken = sum(v.reason.get("kind") == BROKEN_BUILD for v in verdicts)
    if broken:
        out += [f"**Warning: in {broken} items {BROKEN_BUILD}; the figures are not valid.**", ""]
    out.append(f"tile {git_state(TILE_DIR.parents[1])}; Triton checkout `{args.triton}` "
               f"{git_state(args.triton)}; {len(verdicts)} items in {seconds / 60:.1f} min; "
               + (f"at most {args.max_per_test} parametrizations per test function (sampled by "
                  "hash)" if args.max_per_test > 0 else "every parametrization") +
               f", {args.timeout} s per test. Unit: one pytest "
               "item (test function x parametrization); one kernel for the tutorials.")
    if args.drop_launch_option:
        out += ["", f"**What-if run: launch options {args.drop_launch_option} removed from "
                "every launch; not the figure with only the import changed.**"]
    out.append("")

    def rates(c: collections.Counter[str], gaps: int) -> str:
        reached = c[COMPILED] + c[FAILED]
        a = f"{100 * c[COMPILED] / reached:.0f}%" if reached else "-"
        b = f"{100 * c[COMPILED] / (reached + gaps):.0f}%" if reached + gaps else "-"
        return f"{a} | {b}"

    def gaps_of(file: str | None) -> int:
        return sum(1 for v in verdicts if v.status == BEFORE and (file is None or v.file == file)
                   and v.reason.get("kind") in (API_GAP, "the test file does not import"))

    out.append("| file | collected / sampled | " + " | ".join(COLUMNS) +
               " | compiled / reached | incl. API gaps |")
    out.append("|---" * (len(COLUMNS) + 4) + "|")
    for file in sorted(per_file, key=lambda f: (f[0].isdigit(), f)):
        c = per_file[file]
        col = f"{sampled[file][0]} / {sampled[file][1]}" if file in sampled else "script"
        out.append(f"| {file} | {col} | " + " | ".join(str(c[k]) for k in COLUMNS) +
                   f" | {rates(c, gaps_of(file))} |")
    out.append("| **total** | | " + " | ".join(f"**{total[k]}**" for k in COLUMNS) +
               f" | **{rates(total, gaps_of(None))}** |")
    tests = collections.Counter(v.status for v in verdicts if not v.file[0].isdigit())
    tests_gaps = sum(1 for v in verdicts if not v.file[0].isdigit() and v.status == BEFORE
                     and v.reason.get("kind") in (API_GAP, "the test file does not import"))
    out += ["", f"**unit/language tests only: {tests[COMPILED]} of "
            f"{tests[COMPILED] + tests[FAILED]} items that reached tile's compiler compiled "
            f"({rates(tests, tests_gaps).split(' | ')[0]}); counting the items stopped by a "
            f"missing Triton API as failures: {rates(tests, tests_gaps).split(' | ')[1]}.**", ""]
    out += ["*reached* = compiled + failed in tile. *failed before launch* = the test stopped "
            "before its first launch (a Triton API tile lacks, torch on the CPU, the harness); "
            "*negative test* = every launch sits where the test expects an error "
            "(`pytest.raises`); *skipped* = the test's own skip or the Blackwell/AMD policy.", ""]

    # Kernel definitions: compiled wherever launched, in some launches, never.
    kernels: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    dropped: list[dict[str, Any]] = []
    for u in units:
        for e in u.records:
            if e["ev"] == "launch" and not e["negative"]:
                kernels[f"{u.file}/{e['kernel']}"].append(e)  # tuning ids are per process
                if e["tuning"] and not e["ok"]:
                    dropped.append(e)
    kinds = collections.Counter()
    for launches in kernels.values():
        failed, compiled = outcomes(launches)
        kinds["all" if compiled and not failed else "some" if compiled else "none"] += 1
    out += [f"Kernel definitions launched: {len(kernels)}; compiled wherever launched: "
            f"{kinds['all']}; in some launches only: {kinds['some']}; never: {kinds['none']}.", ""]
    # Test functions, each counted once whatever its number of parametrizations.
    functions: dict[str, set[str]] = collections.defaultdict(set)
    for v in verdicts:
        if not v.file[0].isdigit():
            functions[v.item.split("[")[0]].add(v.status)
    reached = [f for f, st in functions.items() if st & {COMPILED, FAILED}]
    clean = [f for f in reached if FAILED not in functions[f]]
    out += [f"unit/language test functions: {len(functions)}; {len(reached)} reached tile's "
            f"compiler, and in {len(clean)} of them ({100 * len(clean) / max(1, len(reached)):.0f}%)"
            " every item that reached it compiled.", ""]

    def grouped(status: str, title: str, limit: int) -> None:
        groups: dict[tuple[str, str], list[Verdict]] = collections.defaultdict(list)
        for v in verdicts:
            if v.status == status:
                groups[(v.reason.get("kind", ""), normalize(v.reason.get("message", "")))].append(v)
        out.extend([f"## {title}", "", "| count | kind | message | where in tile | example |",
                    "|---|---|---|---|---|"])
        for (kind, _), vs in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:limit]:
            r = vs[0].reason
            msg = r.get("message", "").replace("|", "\\|").replace("\n", " / ")
            out.append(f"| {len(vs)} | {kind} | `{msg[:160]}` | {r.get('where', '')} | "
                       f"`{vs[0].item[:90]}` |")
        out.append("")

    grouped(FAILED, "Failures in tile, by message", args.top)
    grouped(BEFORE, "Failures before any launch, by message", args.top)
    grouped(SKIPPED, "Skipped, by reason", args.top)
    grouped(NEGATIVE, "Negative tests", 5)
    bugs = [v for v in verdicts if v.reason.get("kind") == "exception inside tile" or (
        v.status == FAILED and v.reason.get("kind", "").startswith(("crash", "timeout")))]
    out += ["## Crashes and hangs in a compile, exceptions from inside tile (bugs)", ""]
    out += [f"- `{v.item}`: {v.reason.get('kind')}: `{v.reason.get('message', '')[:200]}` "
            f"({v.reason.get('where', '')})".replace("\n", " / ") for v in bugs] or ["none"]
    lenient = [v.item for v in verdicts if v.status == NEGATIVE
               and v.reason["message"].startswith("tile accepted")]
    out += ["", "## Kernels tile compiles that Triton's tests expect to be rejected", ""]
    out += [f"- `{item}`" for item in lenient] or ["none"]
    groups = collections.Counter(normalize(e["error"]["message"]) for e in dropped)
    out += ["", "## Autotuner configs that did not compile (dropped, as Triton drops those "
            "out of resources)", ""]
    out += [f"- {n} x `{msg[:200]}`" for msg, n in groups.most_common(args.top)] or ["none"]
    out.append("")
    problems = [f"- {u.file} shard {u.shard}: {u.problem}" for u in units if u.problem]
    if problems:
        out += ["## Workers that failed outside a test (their items are missing)", ""] + \
            problems + [""]
    if stand_ins:
        out += ["## Triton modules and names tile lacks, imported as stand-ins", "",
                "(A user's import would fail; here the rest of the file still runs. "
                "Names are stand-ins only while test files import.)", ""]
        out += [f"- `{m}`: {', '.join(sorted(fs))}" for m, fs in sorted(stand_ins.items())]
    print("\n".join(out))
    return {"totals": dict(total), "per_file": {f: dict(c) for f, c in per_file.items()},
            "sampled": sampled, "verdicts": [v.__dict__ for v in verdicts]}


def git_state(path: Path) -> str:
    """`at <commit>` (`+ changes` when the work tree differs), or nothing."""
    def git(*a: str) -> str:
        done = subprocess.run(["git", "-C", str(path), *a], capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""
    commit = git("rev-parse", "--short", "HEAD")
    if not commit:
        return ""
    return f"at {commit}" + (" + changes" if git("status", "--porcelain", "-uno") else "")


def units_of(triton: Path, only: str | None, shards_for_core: int) -> tuple[list[Unit], list[str]]:
    tests = sorted((triton / "python/test/unit/language").glob("test_*.py"))
    tutorials = sorted((triton / "python/tutorials").glob("[0-9][0-9]-*.py"))
    if not tests:
        raise SystemExit(f"{triton}: no python/test/unit/language/test_*.py: not a Triton checkout")
    units, skipped = [], []
    for path in tests + tutorials:
        if only and not re.search(only, path.name):
            continue
        if path.name in POLICY_FILES:
            skipped.append(f"{path.name}: {POLICY_FILES[path.name]}")
            continue
        kind = "tests" if path.name.startswith("test_") else "tutorial"
        shards = shards_for_core if path.name == "test_core.py" else 1
        units += [Unit(path.name, str(path), kind, s, shards) for s in range(shards)]
    return units, skipped


def preflight() -> None:
    """tile imports and compiles a copy kernel, or the run would measure nothing."""
    check = ("import tile, tile.language as tl\n"
             "@tile.jit\ndef k(X, N: tl.constexpr):\n"
             "    tl.store(X + tl.arange(0, N), tl.arange(0, N))\n"
             f"tile.compile(k, {{'X': '*i32'}}, {{'N': 16}}, target='{CHIP}', emit_cubin=False)\n")
    with tempfile.TemporaryDirectory(prefix="triton-corpus-check-") as tmp:
        (Path(tmp) / "check.py").write_text(check)  # tile reads a kernel's source file
        env = dict(os.environ, TILE_CACHE_DIR=tmp, PYTHONPATH=os.pathsep.join(
            [str(TILE_DIR.parent), os.environ.get("PYTHONPATH", "")]))
        done = subprocess.run([sys.executable, str(Path(tmp) / "check.py")], env=env,
                              capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"tile cannot compile a copy kernel here:\n{done.stderr[-2000:]}")


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        unit = json.loads(Path(sys.argv[2]).read_text())
        install(os.environ.get("CORPUS_CUBIN") == "1")
        os.environ["CORPUS_CHILD"] = "1"  # the processes tests start install it too
        sys.exit(run_tests(unit) if unit["kind"] == "tests" else run_tutorial(unit))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("triton", type=Path, help="a Triton checkout (its python/ directory)")
    parser.add_argument("--max-per-test", type=int, default=16,
                        help="parametrizations per test function (0: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=float, default=60, help="seconds per test")
    parser.add_argument("--tutorial-timeout", type=float, default=300)
    parser.add_argument("--only", help="regex on file names")
    parser.add_argument("-k", help="pytest's -k expression, to rerun some tests")
    parser.add_argument("--cubin", action="store_true", help="assemble with ptxas too")
    parser.add_argument("--drop-launch-option", action="append", default=[], metavar="NAME",
                        help="what-if: remove this keyword from launches (e.g. num_ctas)")
    parser.add_argument("--top", type=int, default=25, help="message groups per table")
    parser.add_argument("--json", type=Path, help="also write the verdicts here")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    args = parser.parse_args()

    units, policy_files = units_of(args.triton.resolve(), args.only, max(1, 2 * args.jobs))
    preflight()
    work = Path(tempfile.mkdtemp(prefix="triton-corpus-"))
    site = work / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    if importlib.util.find_spec("tabulate") is None:  # tutorial 04 prints with it
        (site / "tabulate.py").write_text(
            "def tabulate(rows, headers=(), **kwargs):\n"
            "    return '\\n'.join(' '.join(map(str, r)) for r in [headers, *rows])\n")
    started = time.monotonic()
    # Big units first so that the pool ends together.
    queue = sorted(units, key=lambda u: -(Path(u.path).stat().st_size / u.shards))
    lock = threading.Lock()

    def worker() -> None:
        while True:
            with lock:
                if not queue:
                    return
                unit = queue.pop(0)
            try:
                run_unit(unit, args, work, site)
            except Exception:  # noqa: B902 - the other units still run
                traceback.print_exc()
                print(f"{unit.file} shard {unit.shard}: the driver failed; its items are "
                      "missing from the report", file=sys.stderr)
            print(f"[{time.monotonic() - started:5.0f}s] {unit.file} shard {unit.shard}",
                  file=sys.stderr)
    threads = [threading.Thread(target=worker) for _ in range(args.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    result = report(units, args, time.monotonic() - started)
    if policy_files:
        print("\nFiles skipped by policy: " + "; ".join(policy_files))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, default=str))
    if args.keep:
        print(f"\nwork directory: {work}", file=sys.stderr)
    else:
        import shutil
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
