"""tile's and Triton's code for one bench kernel side by side, without a GPU:
both compile it for sm_90a from bench/kernels.py (Triton compiles for Hopper
without a GPU); for each, the toolkit's ptxas -v report (registers, spills,
wgmma serialization), the dynamic shared memory the launch asks for (which
bounds blocks per SM), and the loop bodies of the cubin's SASS (cuobjdump
from Triton's wheel) counted by opcode. From the repository
root, with Triton 3.6 (ANCHORS.md's; a newer Triton's PTX may need a newer
ptxas than the toolkit's):

    python3 -m venv /tmp/tv && /tmp/tv/bin/pip install triton==3.6.0 numpy torch
    PYTHONPATH=python /tmp/tv/bin/python bench/compare_sass.py attention06_bwd --head-dim 64
    PYTHONPATH=python /tmp/tv/bin/python bench/compare_sass.py attention06_bwd --head-dim 128 --causal
    PYTHONPATH=python /tmp/tv/bin/python bench/compare_sass.py matmul_tutorial03 --block 128x256x64

`--keep DIR` writes both PTX and SASS files there, and tile's IR. Kernels whose arguments are
pointers and scalars only (no tensor descriptors) can be compared this way;
the Triton side gets tile's specialization (16-divisible arguments, ints
equal to 1 as constants), as its JIT would give it for the same arguments.
"""
from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
import tempfile
import types
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch  # noqa: E402

from run import load_kernels  # noqa: E402

CHIP, CAPABILITY = "sm_90a", 90


def attention06_bwd(args: argparse.Namespace) -> tuple[str, tuple, dict, dict]:
    """Tutorial 06's `_attn_bwd` with `attention06_backward`'s launch config."""
    q = torch.empty(4, 32, args.n_ctx, args.head_dim, dtype=torch.float16)
    m = torch.empty(4, 32, args.n_ctx)
    arguments = (q, q, q, 0.125, q, q, q, q, m, m, *q.stride(), 32, args.n_ctx)
    constants = dict(BLOCK_M1=32, BLOCK_N1=128, BLOCK_M2=128, BLOCK_N2=32, BLK_SLICE_FACTOR=2,
                     HEAD_DIM=args.head_dim, CAUSAL=args.causal)
    return "_attn_bwd", arguments, constants, {"num_warps": 4, "num_stages": 5}


def matmul_tutorial03(args: argparse.Namespace) -> tuple[str, tuple, dict, dict]:
    """Tutorial 03's kernel at one of its configs (`--block MxNxK`)."""
    bm, bn, bk = (int(x) for x in args.block.split("x"))
    size = args.size
    dtype = torch.float16
    a = torch.empty(size, size, dtype=dtype)
    b = torch.empty(size, size, dtype=dtype)
    if args.weight_t:
        b = b.T
    c = torch.empty(size, size, dtype=dtype)
    config = next(cfg for cfg in load_kernels("tile").tutorial03_configs()
                  if (cfg.kwargs["BLOCK_SIZE_M"], cfg.kwargs["BLOCK_SIZE_N"],
                      cfg.kwargs["BLOCK_SIZE_K"]) == (bm, bn, bk))
    arguments = (a, b, c, size, size, size, *a.stride(), *b.stride(), *c.stride())
    return ("matmul_tutorial03", arguments, dict(config.kwargs),
            {"num_warps": config.num_warps, "num_stages": config.num_stages})


def column_sum(args: argparse.Namespace) -> tuple[str, tuple, dict, dict]:
    """bench/run.py's column sum of a size x size f32 matrix (`--block MxN`,
    the rows and columns of a block; 64x64 where --block is tutorial 03's)."""
    parts = [int(x) for x in args.block.split("x")]
    bm, bn = parts if len(parts) == 2 else (64, 64)
    x = torch.empty(args.size, args.size, dtype=torch.float32)
    out = torch.empty(args.size, dtype=torch.float32)
    return ("column_sum", (x, out, args.size, args.size, x.stride(0)),
            {"BLOCK_M": bm, "BLOCK_N": bn}, {})


def matmul_naive(args: argparse.Namespace) -> tuple[str, tuple, dict, dict]:
    """bench/run.py's naive matmul: size x size f32, K unrolled (`--k`), 32x64 blocks."""
    a = torch.empty(args.size, args.k, dtype=torch.float32)
    b = torch.empty(args.k, args.size, dtype=torch.float32)
    c = torch.empty(args.size, args.size, dtype=torch.float32)
    return ("matmul_naive", (a, b, c, args.size, args.size, a.stride(0), b.stride(0), c.stride(0)),
            {"K": args.k, "BLOCK_M": 32, "BLOCK_N": 64}, {})


def matmul_dot(args: argparse.Namespace) -> tuple[str, tuple, dict, dict]:
    """bench/run.py's `tl.dot` row: tutorial 03's loop without its `tl.assume`
    lines, f16, at `--block MxNxK` (bench: 128x128x64), 8 warps, 3 stages."""
    bm, bn, bk = (int(x) for x in args.block.split("x"))
    a = torch.empty(args.size, args.size, dtype=torch.float16)
    return ("matmul_dot", (a, a, a, args.size, args.size, args.size, *a.stride(), *a.stride(),
                           *a.stride()),
            {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8},
            {"num_warps": 8, "num_stages": 3})


CASES: dict[str, Callable[[argparse.Namespace], tuple[str, tuple, dict, dict]]] = {
    "attention06_bwd": attention06_bwd,
    "column_sum": column_sum,
    "matmul_dot": matmul_dot,
    "matmul_naive": matmul_naive,
    "matmul_tutorial03": matmul_tutorial03,
}


def unwrap(kernel: Any) -> Any:
    """The @jit function under autotune/heuristics wrappers."""
    while not isinstance(getattr(kernel, "fn", None), types.FunctionType):
        kernel = kernel.fn
    return kernel


def compile_tile(name: str, arguments: tuple, constants: dict, options: dict
                 ) -> tuple[str, str, int, dict, set, dict]:
    """tile's IR (the frontend's, before the passes), PTX and dynamic shared
    memory (bytes), the runtime parameters' types, the ones tile takes as
    divisible by 16, and every argument by name."""
    from tile.runtime.launch import compile_for_args
    jit = unwrap(getattr(load_kernels("tile"), name))
    compiled, _, bound = compile_for_args(jit, arguments, constants,
                                          {"target": CHIP, **options})
    signature = compiled.metadata["signature"]
    runtime = [p for p in jit.arg_names if p in signature]
    divisible = {runtime[int(n)] for n in
                 re.findall(r"%arg(\d+): [^,)]*\{tile\.divisibility = 16", compiled.asm["tile"])}
    return (compiled.asm["tile"], compiled.asm["ptx"], compiled.metadata["shared_bytes"],
            {p: signature[p] for p in runtime}, divisible, bound)


def compile_triton(name: str, signature: dict, divisible: set, bound: dict,
                   options: dict) -> tuple[str, int]:
    """Triton's PTX and dynamic shared memory (bytes) for the same signature,
    constants and specialization (its JIT makes an int argument equal to 1 a
    constant, as tile's does)."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    fn = unwrap(getattr(load_kernels("triton"), name))
    full: dict[str, str] = {}
    constexprs: dict[str, Any] = {}
    attrs = {}
    for index, param in enumerate(fn.arg_names):
        value = bound.get(param)
        if param not in signature or (signature[param].startswith("i") and value == 1):
            full[param] = "constexpr"
            constexprs[param] = value
            continue
        full[param] = signature[param]
        if param in divisible:
            attrs[(index,)] = [["tt.divisibility", 16]]
    source = ASTSource(fn=fn, signature=full, constexprs=constexprs, attrs=attrs)
    kernel = triton.compile(source, target=GPUTarget("cuda", CAPABILITY, 32), options=options)
    return kernel.asm["ptx"], kernel.metadata.shared


def tool(name: str) -> str:
    import triton
    found = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / name
    return str(found)


def assemble(ptx: str, directory: Path, stem: str) -> tuple[str, str]:
    """ptxas -v's report and the cubin's SASS."""
    import tile
    ptx_path, cubin = directory / f"{stem}.ptx", directory / f"{stem}.cubin"
    ptx_path.write_text(ptx)
    ptxas = tile.knobs.nvidia.ptxas.path or tool("ptxas")
    report = subprocess.run([ptxas, f"-arch={CHIP}", "-v", str(ptx_path), "-o", str(cubin)],
                            capture_output=True, text=True, check=True).stderr
    sass = subprocess.run([tool("cuobjdump"), "-sass", str(cubin)], capture_output=True,
                          text=True, check=True).stdout
    (directory / f"{stem}.sass").write_text(sass)
    return report, sass


def summary(report: str) -> str:
    registers = re.search(r"Used (\d+) registers", report)
    spills = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", report)
    serialized = sorted(set(re.findall(r"\((C75\d\d)\)", report)))
    return (f"{registers.group(1) if registers else '?'} registers, spill stores/loads "
            f"{spills.group(1) if spills else '?'}/{spills.group(2) if spills else '?'} bytes"
            + (f", ptxas {' '.join(serialized)}" if serialized else ""))


def loops(sass: str) -> list[tuple[int, collections.Counter]]:
    """Each loop's body (a backward branch's span) as opcode counts."""
    instructions = [(int(m.group(1), 16), m.group(2).strip()) for m in
                    re.finditer(r"^\s+/\*([0-9a-f]{4,})\*/\s+(.*?);", sass, re.M)]
    at = {address: i for i, (address, _) in enumerate(instructions)}
    found = []
    for i, (address, text) in enumerate(instructions):
        branch = re.search(r"BRA .*?0x([0-9a-f]+)", text)
        if not branch:
            continue
        target = int(branch.group(1), 16)
        if target >= address or target not in at or i - at[target] < 8:
            continue  # forward, or a spin on a barrier
        body = instructions[at[target]:i + 1]
        ops = collections.Counter(
            re.sub(r"^@!?U?P\w+\s+", "", t).split()[0].split(".")[0] for _, t in body)
        found.append((len(body), ops))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--head-dim", type=int, default=64)
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--causal", action="store_true")
    parser.add_argument("--block", default="128x256x64", help="tutorial 03: MxNxK")
    parser.add_argument("--size", type=int, default=4096)
    parser.add_argument("--k", type=int, default=128, help="naive matmul: the unrolled K")
    parser.add_argument("--weight-t", action="store_true", help="tutorial 03: B = w.T")
    parser.add_argument("--keep", type=Path,
                        help="write the PTX and SASS files here, and tile's IR (NAME.tile.mlir, "
                             "for tile-opt)")
    parser.add_argument("--top", type=int, default=12, help="opcodes shown per loop")
    args = parser.parse_args()
    name, arguments, constants, options = CASES[args.case](args)
    tile_ir, tile_ptx, tile_shared, signature, divisible, bound = compile_tile(
        name, arguments, constants, options)
    triton_ptx, triton_shared = compile_triton(name, signature, divisible, bound, options)
    with tempfile.TemporaryDirectory() as scratch:
        directory = args.keep or Path(scratch)
        directory.mkdir(parents=True, exist_ok=True)
        (directory / f"{name}.tile.mlir").write_text(tile_ir)
        for backend, ptx, shared in (("tile", tile_ptx, tile_shared),
                                     ("triton", triton_ptx, triton_shared)):
            report, sass = assemble(ptx, directory, f"{name}.{backend}")
            print(f"{backend}: {summary(report)}, {shared} bytes of dynamic shared memory")
            for length, ops in loops(sass):
                top = ", ".join(f"{op} {n}" for op, n in ops.most_common(args.top))
                print(f"  loop of {length} instructions: {top}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
