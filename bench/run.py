#!/usr/bin/env python3
"""tile vs Triton vs PyTorch: the same kernel sources (bench/kernels.py), one process.

On a GPU machine with tile installed (the wheel: it JIT-compiles there),
torch and triton (see bench/README.md):

    TILE_CACHE_DIR=$(mktemp -d) python3 bench/run.py

runs every case under tile, Triton and torch, checks tile's (and Triton's)
results against torch, prints the table and writes $OUT/bench.md and
$OUT/bench.json when OUT is set. Compile times of both are measured there,
on their first calls with fresh caches.
"""
from __future__ import annotations

import argparse
import fnmatch
import importlib.util
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # paired, launch_floor
import launch_floor  # noqa: E402

ROOT = HERE.parent
KERNELS = HERE / "kernels.py"
TRITON_K512_ANCHOR = "377 s (ANCHORS.md)"

# ---------------------------------------------------------------------------
# Loading kernels.py under a backend
# ---------------------------------------------------------------------------


def load_kernels(backend: str) -> Any:
    """bench/kernels.py executed with `BACKEND` set, from its real path (so both
    @jit decorators can read the functions' source); once per backend (the tests
    load it here too)."""
    name = f"bench_kernels_{backend}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, KERNELS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.BACKEND = backend
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


# ---------------------------------------------------------------------------
# Buffers: torch tensors on the GPU
# ---------------------------------------------------------------------------

class TorchAlloc:
    def __init__(self, torch: Any) -> None:
        self.torch = torch

    def randn(self, shape: tuple[int, ...], dtype: str = "float32") -> Any:
        if dtype.startswith("float8"):  # torch has no fp8 randn: convert f16 values
            return self.randn(shape, "float16").to(getattr(self.torch, dtype))
        return self.torch.randn(shape, device="cuda", dtype=getattr(self.torch, dtype))

    def randint(self, shape: tuple[int, ...], low: int, high: int, dtype: str) -> Any:
        return self.torch.randint(low, high, shape, device="cuda",
                                  dtype=getattr(self.torch, dtype))

    def empty(self, shape: tuple[int, ...], dtype: str = "float32") -> Any:
        return self.torch.empty(shape, device="cuda", dtype=getattr(self.torch, dtype))


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------


@dataclass
class Case:
    id: str
    kernel: str
    shape: str
    make: Callable[[Any], dict]                      # alloc -> buffers
    launch: Callable[[Any, dict, str], None]         # (kernels module, buffers, backend)
    metric: str = "GB/s"                     # "GB/s", "TFLOP/s", "TOP/s" (int) or "us/launch"
    work: float = 0.0                                # bytes moved or flops
    check: Callable[[Any, dict], tuple] | None = None  # (torch, bufs) -> (got, expected, atol, rtol)
    output: str | None = "out"                       # buffer poisoned before the check
    torch_fn: Callable[[Any, dict], Callable[[], Any]] | None = None
    triton_default: bool = True                      # run Triton unless a flag asks
    triton_anchor: str | None = None                 # shown when Triton is not run
    reps: int = 100                                  # do_bench rep (ms)
    note: str = ""
    config: dict = field(default_factory=dict)       # shown in bench.json
    # The timed call, made once from (kernels module, buffers, backend), where
    # the figure is the host's cost: the kernel and its arguments looked up
    # before the loop, as a user's loop has them, not through `launch`.
    bind: Callable[[Any, dict, str], Callable[[], Any]] | None = None


def _grid1(n: int, block: int) -> tuple[int]:
    return ((n + block - 1) // block,)


def case_vector_add() -> Case:
    n, block = 1 << 28, 1024

    def make(alloc: Any) -> dict:
        return {"x": alloc.randn((n,)), "y": alloc.randn((n,)), "out": alloc.empty((n,))}

    def launch(k: Any, b: dict, backend: str) -> None:
        k.vector_add[_grid1(n, block)](b["x"], b["y"], b["out"], n, BLOCK=block)

    return Case("vector_add", "vector add", "2^28 f32, BLOCK 1024", make, launch,
                work=3 * n * 4,
                check=lambda t, b: (b["out"], b["x"] + b["y"], 0.0, 0.0),
                torch_fn=lambda t, b: (lambda: t.add(b["x"], b["y"], out=b["out"])),
                config={"n": n, "BLOCK": block})


def case_matrix_add(m: int, n: int, tm: int, tn: int) -> Case:
    def make(alloc: Any) -> dict:
        return {"a": alloc.randn((m, n)), "b": alloc.randn((m, n)), "out": alloc.empty((m, n))}

    def launch(k: Any, b: dict, backend: str) -> None:
        grid = ((m + tm - 1) // tm, (n + tn - 1) // tn)
        k.matrix_add[grid](b["a"], b["b"], b["out"], m, n, b["a"].stride(0),
                           TILE_M=tm, TILE_N=tn)

    return Case(f"matrix_add_{m}x{n}_{tm}x{tn}", "2-D add", f"{m}x{n} f32, tile {tm}x{tn}",
                make, launch, work=3 * m * n * 4,
                check=lambda t, b: (b["out"], b["a"] + b["b"], 0.0, 0.0),
                torch_fn=lambda t, b: (lambda: t.add(b["a"], b["b"], out=b["out"])),
                config={"M": m, "N": n, "TILE_M": tm, "TILE_N": tn})


def case_softmax(rows: int, cols: int, num_warps: int) -> Case:
    block = 1 << (cols - 1).bit_length()

    def make(alloc: Any) -> dict:
        return {"x": alloc.randn((rows, cols)), "out": alloc.empty((rows, cols))}

    def launch(k: Any, b: dict, backend: str) -> None:
        k.softmax[(rows,)](b["out"], b["x"], cols, b["x"].stride(0), b["out"].stride(0),
                           BLOCK=block, num_warps=num_warps)

    return Case(f"softmax_{rows}x{cols}", "row softmax",
                f"{rows}x{cols} f32, BLOCK {block}, {num_warps} warps", make, launch,
                work=2 * rows * cols * 4,
                check=lambda t, b: (b["out"], t.softmax(b["x"], dim=1), 1e-6, 1e-4),
                torch_fn=lambda t, b: (lambda: t.softmax(b["x"], dim=1)),
                config={"rows": rows, "cols": cols, "BLOCK": block, "num_warps": num_warps})


def case_matmul_naive(kdim: int, triton_default: bool = True,
                      anchor: str | None = None) -> Case:
    m = n = 4096
    bm, bn = 32, 64

    def make(alloc: Any) -> dict:
        return {"a": alloc.randn((m, kdim)), "b": alloc.randn((kdim, n)),
                "out": alloc.empty((m, n))}

    def launch(k: Any, b: dict, backend: str) -> None:
        grid = ((m + bm - 1) // bm, (n + bn - 1) // bn)
        k.matmul_naive[grid](b["a"], b["b"], b["out"], m, n, b["a"].stride(0),
                             b["b"].stride(0), b["out"].stride(0), K=kdim, BLOCK_M=bm,
                             BLOCK_N=bn)

    return Case(f"matmul_naive_k{kdim}", "naive matmul (static_range K)",
                f"4096x4096, K={kdim} f32, tile {bm}x{bn}", make, launch,
                metric="TFLOP/s", work=2 * m * n * kdim,
                check=lambda t, b: (b["out"], t.matmul(b["a"], b["b"]), 1e-3, 1e-4),
                torch_fn=lambda t, b: (lambda: t.matmul(b["a"], b["b"])),
                triton_default=triton_default, triton_anchor=anchor,
                config={"M": m, "N": n, "K": kdim, "BLOCK_M": bm, "BLOCK_N": bn})


# tl.dot blocks: tutorial 03's Hopper-sized tile, the same for both backends.
DOT_CONFIG = {
    "triton": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8,
               "num_warps": 8, "num_stages": 3},
    "tile": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8,
             "num_warps": 8, "num_stages": 3},
}


def case_matmul_dot(dtype: str) -> Case:
    m = n = k_ = 4096
    short = {"float16": "f16", "bfloat16": "bf16"}[dtype]

    def make(alloc: Any) -> dict:
        return {"a": alloc.randn((m, k_), dtype), "b": alloc.randn((k_, n), dtype),
                "out": alloc.empty((m, n), dtype)}

    def launch(k: Any, b: dict, backend: str) -> None:
        cfg = dict(DOT_CONFIG[backend])
        grid = (((m + cfg["BLOCK_M"] - 1) // cfg["BLOCK_M"])
                * ((n + cfg["BLOCK_N"] - 1) // cfg["BLOCK_N"]),)
        a, bb, c = b["a"], b["b"], b["out"]
        k.matmul_dot[grid](a, bb, c, m, n, k_, a.stride(0), a.stride(1), bb.stride(0),
                           bb.stride(1), c.stride(0), c.stride(1), **cfg)

    def check(t: Any, b: dict) -> tuple:
        expected = t.matmul(b["a"].float(), b["b"].float())
        # |C| ~ sqrt(4096) = 64: f16 rounds at 0.03, bf16 at 0.25 there.
        atol = 0.25 if dtype == "float16" else 1.0
        return b["out"].float(), expected, atol, 1e-2

    blocks = ", ".join(f"{be} {c['BLOCK_M']}x{c['BLOCK_N']}x{c['BLOCK_K']} w{c['num_warps']}"
                       for be, c in DOT_CONFIG.items())
    return Case(f"matmul_dot_{short}", "tl.dot matmul", f"4096^3 {short}; {blocks}", make,
                launch, metric="TFLOP/s", work=2 * m * n * k_, check=check,
                torch_fn=lambda t, b: (lambda: t.matmul(b["a"], b["b"])), reps=200,
                note="the same blocks for both backends",
                config={"dtype": dtype, **{f"{be}": c for be, c in DOT_CONFIG.items()}})


def _matmul_128x128x64(kernel: str, label: str, note: str, dtype: str, size: int,
                       weight_t: bool,
                       run: Callable[[Any, dict, dict], None]) -> Case:
    """A size^3 matmul of bench/kernels.py's `kernel` on 128x128x64 blocks,
    8 warps, 3 stages, in both backends: b["a"] (M x K), b["b"] (K x N, or
    N x K stored for B = w.T) and b["out"]; `run(k, b, cfg)` launches it."""
    m = n = k_ = size
    short = {"float16": "f16", "bfloat16": "bf16"}[dtype]
    cfg = {"BM": 128, "BN": 128, "BK": 64, "num_warps": 8, "num_stages": 3}

    def make(alloc: Any) -> dict:
        return {"a": alloc.randn((m, k_), dtype),
                "b": alloc.randn((n, k_) if weight_t else (k_, n), dtype),
                "out": alloc.empty((m, n), dtype)}

    def product(t: Any, b: dict) -> Any:
        return t.matmul(b["a"], b["b"].T if weight_t else b["b"])

    def check(t: Any, b: dict) -> tuple:
        expected = t.matmul(b["a"].float(), (b["b"].T if weight_t else b["b"]).float())
        return b["out"].float(), expected, 0.25 if dtype == "float16" else 1.0, 1e-2

    suffix = "_wt" if weight_t else ""
    return Case(f"matmul_{kernel}_{short}_{size}{suffix}", label,
                f"{size}^3 {short}{', B = w.T' if weight_t else ''}; 128x128x64 w8 s3",
                make, lambda k, b, backend: run(k, b, cfg), metric="TFLOP/s",
                work=2 * m * n * k_, check=check,
                torch_fn=lambda t, b: (lambda: product(t, b)), reps=200, note=note,
                config={"dtype": dtype, "weight_t": weight_t, **cfg})


def _grid_128(b: dict) -> tuple[int, int]:
    m, n = b["out"].shape
    return ((m + 127) // 128, (n + 127) // 128)


def case_matmul_block_pointer(dtype: str, size: int, weight_t: bool = False) -> Case:
    """bench/kernels.py block_pointer_matmul: operands and result through block
    pointers (B = w.T: column-major B), which tile copies with TMA, the maps
    encoded at launch (TILE_TMA=0: cp.async)."""

    def run(k: Any, b: dict, cfg: dict) -> None:
        a, w, c = b["a"], b["b"].T if weight_t else b["b"], b["out"]
        k.block_pointer_matmul[_grid_128(b)](a, w, c, size, size, size, *a.stride(),
                                             *w.stride(), *c.stride(), **cfg)

    return _matmul_128x128x64("block_pointer", "block-pointer matmul",
                              "tl.make_block_ptr with boundary checks; the same blocks for "
                              "both backends", dtype, size, weight_t, run)


def case_matmul_descriptor(dtype: str, size: int, weight_t: bool = False) -> Case:
    """bench/kernels.py descriptor_matmul: operands from host tensor descriptors,
    which Triton copies with TMA, and tile too (TILE_TMA=0: cp.async)."""

    def run(k: Any, b: dict, cfg: dict) -> None:
        a_desc = k.TensorDescriptor.from_tensor(b["a"], [cfg["BM"], cfg["BK"]])
        b_desc = k.TensorDescriptor.from_tensor(
            b["b"], [cfg["BN"], cfg["BK"]] if weight_t else [cfg["BK"], cfg["BN"]])
        k.descriptor_matmul[_grid_128(b)](a_desc, b_desc, b["out"], size, size, size,
                                          TRANSPOSED_B=weight_t, **cfg)

    return _matmul_128x128x64("descriptor", "descriptor matmul",
                              "host TensorDescriptors; the same blocks for both backends",
                              dtype, size, weight_t, run)


def case_matmul_tutorial03(dtype: str, size: int, weight_t: bool = False) -> Case:
    """Tutorial 03's kernel; `weight_t`: B is the transpose of a row-major N x K
    weight (`x @ w.T`, a linear layer), so its K dimension is the contiguous one."""
    m = n = k_ = size
    short = {"float16": "f16", "bfloat16": "bf16", "float8_e5m2": "fp8e5",
             "float32": "f32"}[dtype]
    fp8, f32 = dtype.startswith("float8"), dtype == "float32"

    def torch_matmul(t: Any, b: dict) -> Callable[[], Any]:
        # f32: cuBLAS on tf32 too, as both backends' tl.dot (Triton's default).
        t.backends.cuda.matmul.allow_tf32 = f32
        return lambda: t.matmul(b["a"], b["b"])

    def make(alloc: Any) -> dict:
        b = alloc.randn((n, k_), dtype).t() if weight_t else alloc.randn((k_, n), dtype)
        return {"a": alloc.randn((m, k_), dtype), "b": b, "out": alloc.empty((m, n), "float16")}

    tuned: set[str] = set()

    def launch(k: Any, b: dict, backend: str) -> None:
        a, bb, c = b["a"], b["b"], b["out"]
        if backend not in tuned:
            # Each case tunes for its own operands: the tutorial's key (M, N, K
            # and the dtypes) does not tell a K-major B from a row-major one.
            k.matmul_tutorial03.cache.clear()
            tuned.add(backend)
        grid = lambda meta: (((m + meta["BLOCK_SIZE_M"] - 1) // meta["BLOCK_SIZE_M"])  # noqa: E731
                             * ((n + meta["BLOCK_SIZE_N"] - 1) // meta["BLOCK_SIZE_N"]),)
        k.matmul_tutorial03[grid](a, bb, c, m, n, k_, a.stride(0), a.stride(1), bb.stride(0),
                                  bb.stride(1), c.stride(0), c.stride(1))

    def check(t: Any, b: dict) -> tuple:
        expected = t.matmul(b["a"].float(), b["b"].float())
        # |C| ~ sqrt(K); the output is f16.
        return b["out"].float(), expected, 0.25 * (size / 4096) ** 0.5 * 4, 1e-2

    suffix, what = ("_wt", ", B = w.T (K-major)") if weight_t else ("", "")
    return Case(f"matmul_tutorial03_{short}_{size}{suffix}", "tutorial-03 matmul (autotuned)",
                f"{size}^3 {short}{what}, tutorial 03's 4 configs", make, launch,
                metric="TFLOP/s",
                work=2 * m * n * k_, check=check,
                # torch.matmul has no fp8 (the tutorial compares Triton alone there).
                torch_fn=None if fp8 else torch_matmul,
                reps=200,
                note="both backends autotune over the tutorial's configs; "
                     + ("no torch (torch.matmul has no fp8); both run fp8 wgmma" if fp8
                        else "f32 inputs read as tf32 (Triton's default); torch is cuBLAS "
                        "with allow_tf32" if f32 else "torch is cuBLAS"),
                config={"dtype": dtype, "size": size, "b_k_major": weight_t})


def case_matmul_tutorial03_int8(size: int) -> Case:
    """Tutorial 03's kernel on int8 with an int32 accumulator and output, B the
    transpose of a row-major weight (K-major, as torch's int8 matmul takes it);
    torch is cuBLAS's int8 GEMM (torch._int_mm)."""
    m = n = k_ = size

    def make(alloc: Any) -> dict:
        return {"a": alloc.randint((m, k_), -128, 128, "int8"),
                "b": alloc.randint((n, k_), -128, 128, "int8").t(),
                "out": alloc.empty((m, n), "int32")}

    tuned: set[str] = set()

    def launch(k: Any, b: dict, backend: str) -> None:
        a, bb, c = b["a"], b["b"], b["out"]
        if backend not in tuned:
            k.matmul_tutorial03_int8.cache.clear()
            tuned.add(backend)
        grid = lambda meta: (((m + meta["BLOCK_SIZE_M"] - 1) // meta["BLOCK_SIZE_M"])  # noqa: E731
                             * ((n + meta["BLOCK_SIZE_N"] - 1) // meta["BLOCK_SIZE_N"]),)
        k.matmul_tutorial03_int8[grid](a, bb, c, m, n, k_, a.stride(0), a.stride(1),
                                       bb.stride(0), bb.stride(1), c.stride(0), c.stride(1))

    def check(t: Any, b: dict) -> tuple:
        # Exact: f64 holds every sum of 4096 int8 products.
        return b["out"].double(), t.matmul(b["a"].double(), b["b"].double()), 0.0, 0.0

    return Case(f"matmul_tutorial03_int8_{size}_wt", "tutorial-03 matmul (autotuned)",
                f"{size}^3 int8 -> int32, B = w.T (K-major), tutorial 03's 4 configs", make,
                launch, metric="TOP/s", work=2 * m * n * k_, check=check,
                torch_fn=lambda t, b: (lambda: t._int_mm(b["a"], b["b"])), reps=200,
                note="tutorial 03's kernel with an int32 accumulator; both backends "
                     "autotune over its configs; torch is cuBLAS (torch._int_mm)",
                config={"dtype": "int8", "size": size, "b_k_major": True})


def case_row_cumsum(rows: int, cols: int) -> Case:
    block = 1 << (cols - 1).bit_length()

    def make(alloc: Any) -> dict:
        return {"x": alloc.randn((rows, cols)), "out": alloc.empty((rows, cols))}

    def launch(k: Any, b: dict, backend: str) -> None:
        k.row_cumsum[(rows,)](b["x"], b["out"], b["x"].stride(0), cols, BLOCK=block)

    def check(t: Any, b: dict) -> tuple:
        # Sums of up to 4096 N(0, 1) terms: |x| ~ 64; f32 order differences ~1e-4.
        return b["out"], t.cumsum(b["x"].double(), dim=1).float(), 2e-3, 1e-4

    return Case(f"row_cumsum_{rows}x{cols}", "row cumsum", f"{rows}x{cols} f32, one row "
                f"per program, BLOCK {block}", make, launch, work=2 * rows * cols * 4,
                check=check, torch_fn=lambda t, b: (lambda: t.cumsum(b["x"], dim=1, out=b["out"])),
                config={"rows": rows, "cols": cols, "BLOCK": block})


def case_column_sum(m: int, n: int, bm: int, bn: int) -> Case:
    def make(alloc: Any) -> dict:
        return {"x": alloc.randn((m, n)), "out": alloc.empty((n,))}

    def launch(k: Any, b: dict, backend: str) -> None:
        k.column_sum[((n + bn - 1) // bn,)](b["x"], b["out"], m, n, b["x"].stride(0),
                                            BLOCK_M=bm, BLOCK_N=bn)

    def check(t: Any, b: dict) -> tuple:
        return b["out"], b["x"].double().sum(dim=0).float(), 2e-2, 1e-4

    return Case(f"column_sum_{m}x{n}_{bm}x{bn}", "column sum (loop over rows)",
                f"{m}x{n} f32, tile {bm}x{bn}, {(n + bn - 1) // bn} programs", make, launch,
                work=m * n * 4 + n * 4, check=check,
                torch_fn=lambda t, b: (lambda: t.sum(b["x"], dim=0, out=b["out"])),
                config={"M": m, "N": n, "BLOCK_M": bm, "BLOCK_N": bn})


def case_transpose(kind: str, m: int, n: int, bm: int, bn: int) -> Case:
    def make(alloc: Any) -> dict:
        return {"x": alloc.randn((m, n)), "out": alloc.empty((n, m))}

    def launch(k: Any, b: dict, backend: str) -> None:
        kernel = k.transpose_strided if kind == "strided" else k.transpose_trans
        grid = ((m + bm - 1) // bm, (n + bn - 1) // bn)
        kernel[grid](b["x"], b["out"], m, n, b["x"].stride(0), b["out"].stride(0),
                     BLOCK_M=bm, BLOCK_N=bn)

    what = "strided store" if kind == "strided" else "tl.trans"
    return Case(f"transpose_{kind}_{m}x{n}_{bm}x{bn}", f"transpose, {what}",
                f"{m}x{n} f32, tile {bm}x{bn}", make, launch, work=2 * m * n * 4,
                check=lambda t, b: (b["out"], b["x"].t(), 0.0, 0.0),
                torch_fn=lambda t, b: (lambda: b["out"].copy_(b["x"].t())),
                config={"M": m, "N": n, "BLOCK_M": bm, "BLOCK_N": bn, "kind": kind})


def case_layer_norm(m: int, n: int) -> Case:
    eps = 1e-5

    def make(alloc: Any) -> dict:
        return {"x": alloc.randn((m, n), "float16"), "w": alloc.randn((n,), "float16"),
                "b": alloc.randn((n,), "float16"), "out": alloc.empty((m, n), "float16"),
                "mean": alloc.empty((m,)), "rstd": alloc.empty((m,))}

    def launch(k: Any, b: dict, backend: str) -> None:
        # The tutorial's launch: the row in one block, 8 warps at most.
        block = min(65536 // 2, 1 << (n - 1).bit_length())
        num_warps = min(max(block // 256, 1), 8)
        k.layer_norm_fwd[(m,)](b["x"], b["out"], b["w"], b["b"], b["mean"], b["rstd"],
                               b["x"].stride(0), n, eps, BLOCK_SIZE=block,
                               num_warps=num_warps)

    def check(t: Any, b: dict) -> tuple:
        expected = t.nn.functional.layer_norm(b["x"].float(), (n,), b["w"].float(),
                                              b["b"].float(), eps)
        return b["out"].float(), expected, 2e-2, 1e-2

    return Case(f"layer_norm_fwd_{m}x{n}", "layer-norm forward (tutorial 05)",
                f"{m}x{n} f16", make, launch, work=2 * m * n * 2, check=check,
                torch_fn=lambda t, b: (lambda: t.nn.functional.layer_norm(
                    b["x"], (n,), b["w"], b["b"], eps)),
                note="GB/s counts x read once and y written, as the tutorial does",
                config={"M": m, "N": n})


def case_launch_overhead(autotuned: bool = False) -> Case:
    """A cached launch of a tiny kernel from the timing loop; `autotuned`:
    through `@autotune` (two configs, key `n`, tuned on the first call) as
    tutorial 03's matmul launches."""
    n, block = 128, 128

    def make(alloc: Any) -> dict:
        return {"x": alloc.randn((n,))}

    def bind(k: Any, b: dict, backend: str) -> Callable[[], None]:
        x = b["x"]
        if autotuned:
            tuned = k.tiny_tuned_kernel
            return lambda: tuned[(1,)](x, n)
        kernel = k.tiny_kernel
        return lambda: kernel[(1,)](x, n, BLOCK=block)

    def torch_bind(t: Any, b: dict) -> Callable[[], Any]:
        x = b["x"]
        return lambda: x.add_(1)

    call = "`kernel[(1,)](x, n)` (`@autotune`, 2 configs, key `n`)" if autotuned \
        else "`kernel[(1,)](x, n, BLOCK=128)`"
    return Case("launch_overhead_autotuned" if autotuned else "launch_overhead",
                "host launch overhead, autotuned" if autotuned else "host launch overhead",
                "tiny kernel, cached, 1 program", make,
                lambda k, b, backend: bind(k, b, backend)(), metric="us/launch",
                output=None, torch_fn=torch_bind, bind=bind,
                note="median over repeats of (N launches + 1 synchronize) / N, each launch "
                     f"{call} (torch: `x.add_(1)`) from the loop",
                config={"n": n, "BLOCK": "tuned" if autotuned else block})


ATTENTION_CONFIG = {"BLOCK_M": 128, "BLOCK_N": 64, "num_warps": 8, "num_stages": 3}


def attention_flops(batch: int, heads: int, n_ctx: int, head_dim: int, causal: bool) -> float:
    """Two matmuls of n_ctx x n_ctx x head_dim per head; causal does half."""
    return 4 * batch * heads * n_ctx * n_ctx * head_dim * (0.5 if causal else 1.0)


def sdpa_check(causal: bool) -> Callable[[Any, dict], tuple]:
    """An attention case's check: `out` against torch's SDPA in f32."""
    def check(t: Any, b: dict) -> tuple:
        expected = t.nn.functional.scaled_dot_product_attention(
            b["q"].float(), b["k"].float(), b["v"].float(), is_causal=causal)
        return b["out"].float(), expected, 2e-2, 1e-2
    return check


def sdpa_torch_fn(causal: bool) -> Callable[[Any, dict], Callable[[], Any]]:
    """torch's scaled_dot_product_attention on an attention case's buffers."""
    return lambda t, b: (lambda: t.nn.functional.scaled_dot_product_attention(
        b["q"], b["k"], b["v"], is_causal=causal))


def case_attention(batch: int, heads: int, n_ctx: int, head_dim: int, causal: bool) -> Case:
    shape = (batch, heads, n_ctx, head_dim)

    def make(alloc: Any) -> dict:
        return {"q": alloc.randn(shape, "float16"), "k": alloc.randn(shape, "float16"),
                "v": alloc.randn(shape, "float16"), "out": alloc.empty(shape, "float16")}

    def launch(k: Any, b: dict, backend: str) -> None:
        grid = (n_ctx // ATTENTION_CONFIG["BLOCK_M"], batch * heads)
        k.attention_fwd[grid](b["q"], b["k"], b["v"], b["out"], head_dim ** -0.5, n_ctx,
                              HEAD_DIM=head_dim, CAUSAL=causal, **ATTENTION_CONFIG)

    kind = "causal" if causal else "non-causal"
    flops = attention_flops(batch, heads, n_ctx, head_dim, causal)
    cfg = ATTENTION_CONFIG
    return Case(f"attention_fwd_d{head_dim}_{'causal' if causal else 'full'}",
                "attention forward (FA2, pointers)",
                f"B{batch} H{heads} N{n_ctx} D{head_dim} f16 {kind}; "
                f"{cfg['BLOCK_M']}x{cfg['BLOCK_N']} w{cfg['num_warps']} s{cfg['num_stages']}",
                make, launch, metric="TFLOP/s", work=flops, check=sdpa_check(causal),
                torch_fn=sdpa_torch_fn(causal),
                note="bench/kernels.py attention_fwd for both backends (tutorial 06 needs "
                     "tensor descriptors); torch is scaled_dot_product_attention",
                config={"shape": list(shape), "causal": causal, **cfg})


def case_attention06(batch: int, heads: int, n_ctx: int, head_dim: int, causal: bool,
                     host_descriptors: bool = True) -> Case:
    """Tutorial 06's forward with its host descriptors, or (`host_descriptors`
    False) with the descriptors its kernel makes from q, k, v and o."""
    shape = (batch, heads, n_ctx, head_dim)

    def make(alloc: Any) -> dict:
        return {"q": alloc.randn(shape, "float16"), "k": alloc.randn(shape, "float16"),
                "v": alloc.randn(shape, "float16")}

    def launch(k: Any, b: dict, backend: str) -> None:
        b["out"], _ = k.attention06(b["q"], b["k"], b["v"], causal, head_dim ** -0.5,
                                    host_descriptors)

    kind = "causal" if causal else "non-causal"
    flops = attention_flops(batch, heads, n_ctx, head_dim, causal)
    where = "host" if host_descriptors else "in-kernel"
    return Case(f"attention06_fwd_d{head_dim}_{'causal' if causal else 'full'}_n{n_ctx}"
                f"{'' if host_descriptors else '_inkernel'}",
                f"attention forward (tutorial 06: {where} tensor descriptors, autotuned)",
                f"B{batch} H{heads} N{n_ctx} D{head_dim} f16 {kind}; autotuned",
                make, launch, metric="TFLOP/s",
                work=flops, check=sdpa_check(causal), output=None,
                torch_fn=sdpa_torch_fn(causal),
                note="bench/kernels.py attention06 (tutorial 06's forward and host code) for "
                     "both backends: Triton's descriptors are TMA, tile's too (TILE_TMA=0: "
                     "cp.async and masked loads); each autotunes over the same configs",
                config={"shape": list(shape), "causal": causal,
                        "host_descriptors": host_descriptors,
                        "configs": "bench/kernels.py TUTORIAL06_CONFIGS"})


def case_attention06_backward(batch: int, heads: int, n_ctx: int, head_dim: int,
                              causal: bool) -> Case:
    """Tutorial 06's backward (bench/kernels.py attention06_backward) for the
    same forward outputs in both backends (the first backend's forward makes
    them)."""
    shape = (batch, heads, n_ctx, head_dim)
    scale = head_dim ** -0.5

    def make(alloc: Any) -> dict:
        return {name: alloc.randn(shape, "float16") for name in ("q", "k", "v", "do")}

    def launch(k: Any, b: dict, backend: str) -> None:
        if "o" not in b:
            b["o"], b["M"] = k.attention06(b["q"], b["k"], b["v"], causal, scale)
        b["dq"], b["dk"], b["dv"] = k.attention06_backward(
            b["q"], b["k"], b["v"], b["o"], b["M"], b["do"], causal, scale)

    def check(t: Any, b: dict) -> tuple:
        q, k_, v = (b[n].float().requires_grad_() for n in ("q", "k", "v"))
        out = t.nn.functional.scaled_dot_product_attention(q, k_, v, is_causal=causal)
        out.backward(b["do"].float())
        got = t.cat([b[n].float() for n in ("dq", "dk", "dv")])
        return got, t.cat([q.grad, k_.grad, v.grad]), 5e-2, 5e-2

    kind = "causal" if causal else "non-causal"
    # Triton's convention: backward is 2.5 forwards (2, and 0.5 recomputed).
    flops = 2.5 * attention_flops(batch, heads, n_ctx, head_dim, causal)
    return Case(f"attention06_bwd_d{head_dim}_{'causal' if causal else 'full'}_n{n_ctx}",
                "attention backward (tutorial 06)",
                f"B{batch} H{heads} N{n_ctx} D{head_dim} f16 {kind}; 4 warps, 5 stages",
                make, launch, metric="TFLOP/s", work=flops, check=check, output=None,
                note="bench/kernels.py attention06_backward (tutorial 06's backward kernel "
                     "and host code) for both backends; torch's SDPA backward needs its own "
                     "forward's autograd graph, so torch is not timed",
                config={"shape": list(shape), "causal": causal})


def all_cases() -> list[Case]:
    return [
        case_vector_add(),
        case_matrix_add(8192, 8192, 16, 32),
        case_matrix_add(8192, 8192, 64, 64),
        case_matrix_add(8191, 8193, 32, 128),
        case_softmax(8192, 1024, 4),
        case_softmax(4096, 4096, 8),
        case_matmul_naive(128),
        case_matmul_naive(64),
        case_matmul_naive(512, triton_default=False, anchor=TRITON_K512_ANCHOR),
        case_matmul_dot("float16"),
        case_matmul_dot("bfloat16"),
        case_matmul_tutorial03("float16", 4096),
        case_matmul_tutorial03("bfloat16", 4096),
        case_matmul_tutorial03("float16", 8192),
        case_matmul_tutorial03("bfloat16", 8192),
        case_matmul_tutorial03("float16", 4096, weight_t=True),
        # The tutorial's fp8 inputs: B transposed, K-major.
        case_matmul_tutorial03("float8_e5m2", 4096, weight_t=True),
        case_matmul_tutorial03("float32", 4096),
        case_matmul_tutorial03("float32", 4096, weight_t=True),
        case_matmul_tutorial03_int8(4096),
        case_matmul_descriptor("float16", 4096),
        case_matmul_descriptor("float16", 4096, weight_t=True),
        case_matmul_block_pointer("float16", 4096),
        case_matmul_block_pointer("float16", 4096, weight_t=True),
        case_row_cumsum(4096, 4096),
        case_column_sum(8192, 8192, 64, 64),
        case_column_sum(8192, 8192, 32, 128),
        case_transpose("strided", 8192, 8192, 64, 64),
        case_transpose("trans", 8192, 8192, 64, 64),
        case_layer_norm(8192, 4096),
        case_layer_norm(4096, 8192),
        case_attention(4, 32, 4096, 64, False),
        case_attention(4, 32, 4096, 64, True),
        case_attention(4, 32, 4096, 128, False),
        case_attention06(4, 32, 4096, 64, False),
        case_attention06(4, 32, 4096, 64, True),
        case_attention06(4, 32, 4096, 128, False),
        case_attention06(4, 32, 4096, 128, True),
        case_attention06(4, 32, 16384, 64, False),
        case_attention06(4, 32, 16384, 64, True),
        case_attention06(4, 32, 16384, 128, False),
        case_attention06(4, 32, 16384, 128, True),
        case_attention06(4, 32, 4096, 64, True, host_descriptors=False),
        case_attention06(4, 32, 4096, 128, True, host_descriptors=False),
        case_attention06_backward(4, 32, 4096, 64, False),
        case_attention06_backward(4, 32, 4096, 64, True),
        case_attention06_backward(4, 32, 4096, 128, True),
        case_launch_overhead(),
        case_launch_overhead(autotuned=True),
    ]


def select(cases: list[Case], patterns: list[str] | None) -> list[Case]:
    if not patterns:
        return cases
    chosen = [c for c in cases
              if any(fnmatch.fnmatch(c.id, p) or p in c.id for p in patterns)]
    if not chosen:
        sys.exit(f"no case matches {patterns}; cases: {', '.join(c.id for c in cases)}")
    return chosen


# ---------------------------------------------------------------------------
# GPU run
# ---------------------------------------------------------------------------


def bench_time(triton: Any, fn: Callable[[], Any], rep: int) -> float:
    """Median milliseconds by triton.testing.do_bench."""
    try:
        return float(triton.testing.do_bench(fn, warmup=max(10, rep // 4), rep=rep,
                                             return_mode="median"))
    except TypeError:  # an older do_bench without return_mode
        return float(triton.testing.do_bench(fn, warmup=max(10, rep // 4), rep=rep,
                                             quantiles=[0.5]))


def launch_overhead_us(torch: Any, fn: Callable[[], Any], launches: int, repeats: int,
                       synchronized: bool = True) -> float:
    """Median microseconds per launch of `launches` calls of `fn`, timed with
    the synchronize after them (`synchronized`) or without it."""
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(launches):
            fn()
        if synchronized:
            torch.cuda.synchronize()
        samples.append((time.perf_counter() - t0) / launches * 1e6)
        torch.cuda.synchronize()
    return statistics.median(samples)


def check_result(torch: Any, case: Case, bufs: dict) -> tuple[bool, str]:
    got, expected, atol, rtol = case.check(torch, bufs)
    got, expected = got.float(), expected.float()
    if not torch.isfinite(got).all():
        return False, "non-finite values"
    ok = torch.allclose(got, expected, atol=atol, rtol=rtol)
    err = (got - expected).abs().max().item()
    return bool(ok), f"max abs err {err:.3g}"


def poison(torch: Any, case: Case, bufs: dict) -> None:
    if case.output:
        out = bufs[case.output]
        # Integer outputs have no NaN: a value no int8 product sum here reaches.
        out.fill_(float("nan") if out.is_floating_point() else -2**31)
    torch.cuda.synchronize()


def first_call(torch: Any, case: Case, module: Any, backend: str,
               bufs: dict) -> tuple[dict, Callable[[], Any] | None]:
    """First call (timed) and correctness check; the launch to time, or None
    after an error (in the result)."""
    res: dict[str, Any] = {}
    fn = case.bind(module, bufs, backend) if case.bind is not None else \
        (lambda: case.launch(module, bufs, backend))
    try:
        if case.metric != "us/launch":
            poison(torch, case, bufs)
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        res["first_call_s"] = time.perf_counter() - t0
        if case.check is not None:
            ok, detail = check_result(torch, case, bufs)
            res["check"] = "ok" if ok else "FAIL"
            res["check_detail"] = detail
    except Exception as exc:
        res["error"] = f"{type(exc).__name__}: {exc}"
        traceback.print_exc()
        return res, None
    return res, fn


def time_once(torch: Any, triton: Any, case: Case, fn: Callable[[], Any],
              args: argparse.Namespace) -> float:
    """One timing of `fn`: µs per launch for the launch-overhead case, else
    do_bench's median in ms."""
    if isinstance(fn, launch_floor.DriverFloor):  # the driver's own, timed in C
        return fn.per_launch_us(args.launches, args.launch_repeats)
    if case.metric == "us/launch":
        return launch_overhead_us(torch, fn, args.launches, args.launch_repeats)
    return bench_time(triton, fn, max(10, int(case.reps * args.rep_scale)))


def time_alternating(torch: Any, triton: Any, case: Case,
                     runs: dict[str, tuple[dict, Callable[[], Any] | None]],
                     args: argparse.Namespace) -> None:
    """Times each backend's launch `args.rounds` times, the backends taking
    turns (the first of each round rotating), and records the median over
    rounds: the card's clock drifts by several percent over a run, and turns
    spread that drift over all backends instead of charging it to one."""
    order = [backend for backend, (_, fn) in runs.items() if fn is not None]
    samples: dict[str, list[float]] = {backend: [] for backend in order}
    for r in range(args.rounds):
        for k in range(len(order)):
            backend = order[(r + k) % len(order)]
            res, fn = runs[backend]
            if fn is None or "error" in res:
                continue
            try:
                samples[backend].append(time_once(torch, triton, case, fn, args))
            except Exception as exc:
                res["error"] = f"{type(exc).__name__}: {exc}"
                traceback.print_exc()
    unit = "us" if case.metric == "us/launch" else "ms"
    for backend, values in samples.items():
        res = runs[backend][0]
        if values and "error" not in res:
            res[unit] = statistics.median(values)
            res[f"{unit}_rounds"] = values


def time_paired(torch: Any, timer: Any, case: Case,
                runs: dict[str, tuple[dict, Callable[[], Any] | None]],
                args: argparse.Namespace) -> dict[str, float] | None:
    """Triton's and torch's time over tile's, and tile's over its own, by
    bench/paired.py (one launch of each in turn, `args.pairs` pairs): None
    for the launch-overhead case, where there is no kernel time to pair, and
    where tile has no timing."""
    tile_res, tile_fn = runs["tile"]
    if case.metric == "us/launch" or args.pairs <= 0 or tile_fn is None or "error" in tile_res:
        return None
    ratios = {"tile": timer.ratio(tile_fn, tile_fn, args.pairs)}
    for backend in ("triton", "torch"):
        res, fn = runs.get(backend, ({}, None))
        if fn is not None and "error" not in res:
            ratios[backend] = timer.ratio(tile_fn, fn, args.pairs)
    return ratios


def floor_note(driver: dict, tile: dict) -> str:
    """The launch row's note on the driver's own floor, timed in its rounds."""
    if "not_measured" in driver:
        return f"the driver's floor not measured ({driver['not_measured']})"
    if "us" not in driver:
        return f"the driver's floor: {driver.get('error', 'no timing')}"
    note = (f"the driver's floor in the same rounds (`cuLaunchKernel` from C with its "
            f"arguments packed once, bench/launch_floor.c): {driver['us']:.2f} µs/launch")
    if "us" in tile:
        note += f", tile {tile['us'] - driver['us']:.2f} µs above it"
    return note


def throughput(case: Case, ms: float | None) -> float | None:
    if ms is None or ms <= 0:
        return None
    per_s = case.work / (ms * 1e-3)
    return per_s / 1e9 if case.metric == "GB/s" else per_s / 1e12


def run_gpu(cases: list[Case], args: argparse.Namespace) -> int:
    triton_cache = tempfile.mkdtemp(prefix="bench-triton-cache-")
    os.environ["TRITON_CACHE_DIR"] = triton_cache  # Triton really compiles
    os.environ["TILE_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-tile-cache-")  # so does tile
    import torch
    import triton
    import triton.testing  # noqa: F401
    import tile

    if not torch.cuda.is_available():
        sys.exit("the benchmarks need a CUDA GPU")
    torch.backends.cuda.matmul.allow_tf32 = False  # fp32 reference/baseline: no TF32
    torch.backends.cudnn.allow_tf32 = False
    torch.manual_seed(0)

    from paired import PairedTimer

    timer = PairedTimer(torch)
    kt = load_kernels("tile")
    kr = load_kernels("triton") if not args.no_triton else None
    alloc = TorchAlloc(torch)
    device = torch.cuda.get_device_name()
    print(f"device: {device}; torch {torch.__version__}, triton {triton.__version__}, "
          f"tile {tile.__version__}; Python {platform.python_version()}")

    # One-time start-up of each backend, kept out of the per-case figures.
    startup: dict[str, float] = {}
    x = alloc.randn((256,))
    torch.cuda.synchronize()
    for backend, module in (("tile", kt), ("triton", kr)):
        if module is None:
            continue
        t0 = time.perf_counter()
        try:
            module.warmup_kernel[(1,)](x, 256, BLOCK=256)
            torch.cuda.synchronize()
            startup[backend] = time.perf_counter() - t0
        except Exception as exc:
            print(f"{backend} warm-up failed: {exc}", file=sys.stderr)
    print("one-time start-up (first launch of a warm-up kernel): "
          + ", ".join(f"{b} {s:.3f} s" for b, s in startup.items()))

    rows = []
    floor: Any = None  # bench/launch_floor.c, loaded for the launch row
    t_start = time.perf_counter()
    for case in cases:
        print(f"== {case.id}", flush=True)
        row: dict[str, Any] = {"id": case.id, "kernel": case.kernel, "shape": case.shape,
                               "metric": case.metric, "config": case.config, "note": case.note}
        try:
            bufs = case.make(alloc)
            torch.cuda.synchronize()
        except Exception as exc:
            row["error"] = f"allocation: {exc}"
            rows.append(row)
            continue
        runs = {"tile": first_call(torch, case, kt, "tile", bufs)}
        run_triton = kr is not None and (case.triton_default or
                                          (case.id == "matmul_naive_k512" and args.triton_k512))
        if run_triton:
            runs["triton"] = first_call(torch, case, kr, "triton", bufs)
        if case.torch_fn is not None and not args.no_torch:
            try:
                runs["torch"] = ({}, case.torch_fn(torch, bufs))
            except Exception as exc:
                runs["torch"] = ({"error": f"{type(exc).__name__}: {exc}"}, None)
        if case.metric == "us/launch":
            if floor is None:
                floor = launch_floor.load()
            runs["driver"] = ({"not_measured": floor}, None) if isinstance(floor, str) else \
                ({}, launch_floor.DriverFloor(floor))
        time_alternating(torch, triton, case, runs, args)
        if "driver" in runs:
            driver_res, driver_floor = runs["driver"]
            try:
                if driver_floor is not None:
                    driver_floor.verify()
            except Exception as exc:
                driver_res["error"] = f"{type(exc).__name__}: {exc}"
            row["note"] = f"{case.note}; {floor_note(driver_res, runs['tile'][0])}"
        try:
            paired = time_paired(torch, timer, case, runs, args)
        except Exception as exc:
            paired = {"error": f"{type(exc).__name__}: {exc}"}
            traceback.print_exc()
        if paired is not None:
            row["paired"] = paired
        for backend, (res, _) in runs.items():
            row[backend] = res
        row["tile"]["compile_s"] = row["tile"].get("first_call_s")
        if run_triton:
            row["triton"]["compile_s"] = row["triton"].get("first_call_s")
        else:
            row["triton"] = {"skipped": True, "anchor": case.triton_anchor}
        for backend in ("tile", "triton", "torch"):
            r = row.get(backend) or {}
            if "ms" in r:
                r["throughput"] = throughput(case, r["ms"])
        del bufs
        torch.cuda.empty_cache()
        rows.append(row)
        print("   " + format_row(row)[0], flush=True)
        if "driver" in row:
            print(f"   {case.id}: {row['note']}", flush=True)
    total = time.perf_counter() - t_start

    meta = {"device": device, "torch": torch.__version__, "triton": triton.__version__,
            "tile": tile.__version__, "python": platform.python_version(),
            "date": time.strftime("%Y-%m-%d %H:%M:%S"), "startup_s": startup,
            "rounds": args.rounds, "pairs": args.pairs,
            "triton_cache_dir": triton_cache, "total_s": total}
    md = render_markdown(rows, meta)
    print()
    print(md)
    out = os.environ.get("OUT")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        (Path(out) / "bench.md").write_text(md)
        (Path(out) / "bench.json").write_text(json.dumps({"meta": meta, "rows": rows},
                                                         indent=2, default=str) + "\n")
        print(f"wrote {out}/bench.md and {out}/bench.json")
    bad = any((r.get("tile") or {}).get("check") == "FAIL" or "error" in (r.get("tile") or {})
              for r in rows)
    return 1 if bad else 0


# ---------------------------------------------------------------------------
# Table
# ---------------------------------------------------------------------------

HEADER = ["kernel", "shape", "tile time", "tile", "Triton time", "Triton", "torch",
          "tile/Triton", "paired tile/Triton (tile/tile)", "paired tile/torch",
          "tile compile*", "Triton compile", "tile check"]


def _time(r: dict | None) -> str:
    if not r:
        return "—"
    if "error" in r:
        return "ERROR"
    if r.get("skipped"):
        return "not run"
    if "us" in r:
        return f"{r['us']:.2f} µs"
    if "ms" in r:
        ms = r["ms"]
        return f"{ms * 1e3:.1f} µs" if ms < 1 else f"{ms:.3f} ms"
    return "—"


def _rate(r: dict | None, metric: str) -> str:
    if not r or "error" in r or r.get("skipped"):
        return "—"
    if metric == "us/launch":
        return f"{r['us']:.2f} µs/launch" if "us" in r else "—"
    value = r.get("throughput")
    if value is None:
        return "—"
    return f"{value:.0f} GB/s" if metric == "GB/s" else f"{value:.2f} {metric}"


def format_row(row: dict) -> list[str]:
    metric = row["metric"]
    tile_r, tri_r, torch_r = row.get("tile"), row.get("triton"), row.get("torch")
    ratio = "—"
    if tile_r and tri_r and "error" not in tile_r and "error" not in tri_r:
        if metric == "us/launch" and tile_r.get("us") and tri_r.get("us"):
            ratio = f"{tri_r['us'] / tile_r['us']:.2f}x"
        elif tile_r.get("ms") and tri_r.get("ms"):
            ratio = f"{tri_r['ms'] / tile_r['ms']:.2f}x"
    paired = row.get("paired") or {}
    if "error" in paired:
        paired_triton = paired_torch = "ERROR"
    else:
        paired_triton = (f"{paired['triton']:.3f}x ({paired['tile']:.3f}x)"
                         if "triton" in paired else "—")
        paired_torch = f"{paired['torch']:.3f}x" if "torch" in paired else "—"
    tc = (tile_r or {}).get("compile_s")
    tile_compile = f"{tc:.3f} s" if tc is not None else (
        "FAILED" if (tile_r or {}).get("compile_error") else "—")
    if tri_r and tri_r.get("skipped"):
        tri_compile = (f"{tri_r['anchor']}, not measured in this run" if tri_r.get("anchor")
                       else "not run")
    elif tri_r and tri_r.get("compile_s") is not None:
        tri_compile = f"{tri_r['compile_s']:.3f} s"
    else:
        tri_compile = "—"
    check = (tile_r or {}).get("check", "—")
    if tile_r and "error" in tile_r:
        check = "ERROR"
    if check == "FAIL":
        check = f"FAIL ({tile_r.get('check_detail', '')})"
    if tri_r and tri_r.get("check") == "FAIL":
        check += " (Triton FAIL too)"
    torch_cell = _rate(torch_r, metric)
    if torch_r and "error" in torch_r:
        torch_cell = "ERROR"
    line = " | ".join([row["kernel"], row["shape"], _time(tile_r), _rate(tile_r, metric),
                       _time(tri_r), _rate(tri_r, metric), torch_cell, ratio, paired_triton,
                       paired_torch, tile_compile, tri_compile, check])
    return [line]


def render_markdown(rows: list[dict], meta: dict) -> str:
    lines = [f"# tile vs Triton vs torch — {meta['device']}", "",
             f"torch {meta['torch']}, Triton {meta['triton']}, tile {meta['tile']}, "
             f"Python {meta['python']}, {meta['date']}. Times: median over "
             f"{meta['rounds']} rounds, the backends taking turns, of "
             "`triton.testing.do_bench`'s median; GB/s counts bytes read + written; "
             "tile/Triton = Triton time / tile time (> 1: tile faster). Paired: the "
             "median over pairs of one launch of each, taking turns, each after an L2 "
             "flush and a GPU spin longer than the launch's host work, timed by its "
             "own CUDA events (bench/paired.py), of the other's "
             "time over tile's; in brackets tile against itself, the pairing's noise "
             "floor. The paired ratios hold within the card's drift, which moves the "
             "do_bench rows by a few percent.", "",
             "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    for row in rows:
        lines.append("| " + format_row(row)[0] + " |")
    lines += ["",
              "\\* Compile times, tile's and Triton's: wall clock of the first call here "
              "(JIT compile + load + launch + synchronize), fresh `TILE_CACHE_DIR` and "
              "`TRITON_CACHE_DIR`.",
              "One-time start-up, not included above: "
              + ", ".join(f"{b} {s:.3f} s" for b, s in meta.get("startup_s", {}).items()) + ".",
              f"Triton's K=512 naive matmul compile is skipped unless `--triton-k512`; "
              f"{TRITON_K512_ANCHOR} is the anchor figure, not measured in this run.",
              f"Benchmark wall time: {meta['total_s']:.0f} s."]
    notes = [f"- {r['id']}: {r['note']}" for r in rows if r.get("note")]
    errors = []
    for r in rows:
        for backend in ("tile", "triton", "torch"):
            e = (r.get(backend) or {}).get("error")
            if e:
                errors.append(f"- {r['id']} ({backend}): {e}")
        if r.get("error"):
            errors.append(f"- {r['id']}: {r['error']}")
    if notes:
        lines += ["", "Notes:"] + notes
    if errors:
        lines += ["", "Errors:"] + errors
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", nargs="+", metavar="PATTERN",
                        help="case ids or fnmatch patterns/substrings (default: all); "
                             "--list shows them")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("--triton-k512", action="store_true",
                        help="also compile Triton's naive matmul at K=512 (minutes!)")
    parser.add_argument("--no-triton", action="store_true", help="skip Triton")
    parser.add_argument("--no-torch", action="store_true", help="skip the torch baselines")
    parser.add_argument("--rep-scale", type=float, default=1.0,
                        help="scale do_bench's rep (ms) of every case (default 1)")
    parser.add_argument("--launches", type=int, default=2000,
                        help="launches per repeat for the launch-overhead case")
    parser.add_argument("--launch-repeats", type=int, default=7)
    parser.add_argument("--pairs", type=int, default=200,
                        help="pairs of launches for the paired ratios (0: none)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="timings per backend, the backends taking turns; each row "
                             "reports the median (default 3)")
    args = parser.parse_args(argv)

    cases = all_cases()
    if args.list:
        for c in cases:
            print(f"{c.id:<28} {c.kernel}: {c.shape}")
        return 0
    cases = select(cases, args.cases)
    return run_gpu(cases, args)


if __name__ == "__main__":
    sys.exit(main())
