"""Ahead-of-time compilation: a cubin and a C header that launches it with the
CUDA driver API, usable with no Python (and no compiler) at run time.

    python -m tile.aot kernel.py:fn --signature "*fp32,*fp32,i32" \\
        --constexpr BLOCK=1024 --target sm_90 --num-warps 4 -o out/

writes out/<fn>.cubin and out/<fn>.h. The header embeds the cubin and defines
`CUresult <fn>_launch(CUstream, unsigned gridX, unsigned gridY, unsigned gridZ,
<parameters>)`, loading the module on first use (cuModuleLoadData,
cuModuleGetFunction) and calling cuLaunchKernel. Where the compile limited the
kernel's registers to fit more blocks on an SM (`occupancy_maxnreg` in the
metadata), the cubin is that one, for every grid: the JIT launcher's switch to
the assembler's own cubin for small grids is not in the header.

A host tensor descriptor parameter (`"tensordesc<fp16[64,64]>"`) is its parts:
`d_base`, `d_shape_0_`, ..., `d_strides_0_`, ...; its tensor map is not an argument: the
launch function encodes it from them (cuTensorMapEncodeTiled, on every launch) when the
kernel reads it with TMA, and passes zeros when it does not. A tensor map the kernel makes
itself (a hidden parameter with a "recipe" in the metadata) is no argument either: it is
encoded from the parameters the recipe names (its extents and strides are products of
integer parameters, computed as cuuint64_t).
"""
from __future__ import annotations

import argparse
import ast
import importlib.util
import re
import sys
from pathlib import Path
from typing import Any, Mapping, Sequence

from .compiler.pipeline import CompiledKernel, compile
from .compiler.kernel import Specialization
from .driver.errors import DriverError
from .driver.packing import tensor_map_encoding, tensor_map_recipe
from .errors import CompilationError

# Kernel parameter C types by the metadata's type names.
_C_TYPES = {"i1": "int8_t", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t",
            "i64": "int64_t", "f16": "uint16_t", "bf16": "uint16_t", "f32": "float",
            "f64": "double", "ptr": "CUdeviceptr"}
_SIGNATURE_C_TYPES = {"i1": "int8_t", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t",
                      "i64": "int64_t", "u8": "uint8_t", "u16": "uint16_t", "u32": "uint32_t",
                      "u64": "uint64_t", "fp16": "uint16_t", "bf16": "uint16_t",
                      "fp32": "float", "fp64": "double"}


def load_kernel(spec: str) -> Any:
    """`path/to/file.py:function` -> the @tile.jit function."""
    path_text, _, name = spec.rpartition(":")
    if not path_text or not name:
        raise SystemExit(f"tile.aot: expected FILE.py:FUNCTION, got {spec!r}")
    path = Path(path_text).resolve()
    sys.path.insert(0, str(path.parent))
    module_spec = importlib.util.spec_from_file_location(path.stem, path)
    if module_spec is None or module_spec.loader is None:
        raise SystemExit(f"tile.aot: cannot import {path}")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    if not hasattr(module, name):
        raise SystemExit(f"tile.aot: {path} has no function {name!r}")
    return getattr(module, name)


def parse_constexpr(text: str) -> tuple[str, Any]:
    name, sep, value = text.partition("=")
    if not sep:
        raise SystemExit(f"tile.aot: --constexpr takes NAME=VALUE, got {text!r}")
    try:
        return name.strip(), ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return name.strip(), value  # a bare string such as ACTIVATION=leaky_relu


def c_identifier(name: str) -> str:
    return re.sub(r"\W", "_", name)


_TENSOR_MAP_SUFFIX = ".tensor_map"
_TENSOR_MAP_DATA_TYPES = {1: "UINT8", 2: "UINT16", 4: "UINT32", 8: "UINT64"}
_TENSOR_MAP_SWIZZLES = {0: "NONE", 32: "32B", 64: "64B", 128: "128B"}


def _tensor_map_code(param: Mapping[str, Any], params: Sequence[Mapping[str, Any]],
                     kernel: str) -> str:
    """The C statements that make the tensor map of a "tensormap" parameter
    in aligned storage, as the C launcher of tile.driver makes it: a host
    descriptor's (`d.tensor_map`) encoded from the launch's `d.base`,
    `d.shape[i]` and `d.strides[i]` arguments, a hidden one's from the
    parameters its recipe names, or zeros where the kernel does not read it."""
    name = str(param["name"])
    var = c_identifier(name)
    # (Aligned as cuda.h aligns CUtensorMap in C11: to 128 bytes.)
    lines = [f"  unsigned char {var}_storage[128 + 128];",
             f"  CUtensorMap *{var} = (CUtensorMap *)(((uintptr_t){var}_storage + 127) & "
             "~(uintptr_t)127);"]
    where = f"kernel {kernel!r} parameter {name!r}"
    encoding = tensor_map_encoding(param, where)
    recipe = tensor_map_recipe(param, params, where)
    if encoding is None:
        return "\n".join(lines + [f"  memset({var}, 0, 128);"])
    if recipe is not None:
        base, shape_terms, stride_terms = recipe
        address = c_identifier(str(params[base]["name"]))
        shape = [_monomial_code(term, params) for term in shape_terms]
        strides = [_monomial_code(term, params) for term in stride_terms[:-1]]
    else:
        address, shape, strides = _descriptor_parts(name, len(encoding[0]), params, kernel)
    return "\n".join(lines + _encode_code(var, encoding, address, shape, strides))


def _descriptor_parts(name: str, rank: int, params: Sequence[Mapping[str, Any]],
                      kernel: str) -> tuple[str, list[str], list[str]]:
    """The C parameters a host descriptor's map `d.tensor_map` is encoded
    from: the address `d_base`, extents `d.shape[i]` and strides but the
    last `d.strides[i]` (outermost first), as cuuint64_t expressions."""
    names = {str(p["name"]) for p in params}
    prefix = name[:-len(_TENSOR_MAP_SUFFIX)] if name.endswith(_TENSOR_MAP_SUFFIX) else ""
    base = f"{prefix}.base"
    shape = [f"{prefix}.shape[{i}]" for i in range(rank)]
    strides = [f"{prefix}.strides[{i}]" for i in range(rank - 1)]
    missing = [n for n in [base, *shape, *strides] if n not in names]
    if not prefix or missing:
        raise ValueError(f"tile.aot: kernel {kernel!r} reads the tensor map {name!r} with "
                         f"TMA, but has no parameters {missing or [base]} to encode it from")
    return (c_identifier(base), [f"(cuuint64_t){c_identifier(n)}" for n in shape],
            [f"(cuuint64_t){c_identifier(n)}" for n in strides])


def _monomial_code(term: tuple[int, tuple[int, ...]], params: Sequence[Mapping[str, Any]]
                   ) -> str:
    """A recipe's extent or stride, `scale` times integer parameters, as a
    cuuint64_t product (wrapping as the kernel's own 64-bit arithmetic)."""
    scale, indices = term
    factors = [f"(cuuint64_t){c_identifier(str(params[j]['name']))}" for j in indices]
    if scale != 1 or not factors:
        # (An unsigned literal: any 64-bit scale, negative ones modulo 2^64.)
        literal = str(scale) if 0 <= scale < 2**31 else f"{scale % 2**64}ull"
        factors.insert(0, f"(cuuint64_t){literal}")
    return " * ".join(factors)


def _encode_code(var: str, encoding: tuple[tuple[int, ...], int, int], address: str,
                 shape: Sequence[str], strides: Sequence[str]) -> list[str]:
    """The cuTensorMapEncodeTiled call that writes map `var` for the C
    expressions `address`, `shape` (outermost first) and `strides` (elements,
    outermost first, all but the last), returning its error."""
    box, swizzle, element = encoding
    rank = len(box)
    # The driver's order: innermost first; strides in bytes, all but the last.
    dims = ", ".join(reversed(shape))
    byte_strides = ", ".join(f"{n} * {element}" for n in reversed(strides)) or "0"
    boxes = ", ".join(str(n) for n in reversed(box))
    return [
        "  {",
        f"    const cuuint64_t dims[{rank}] = {{{dims}}};",
        f"    const cuuint64_t strides[{max(rank - 1, 1)}] = {{{byte_strides}}};",
        f"    const cuuint32_t box[{rank}] = {{{boxes}}};",
        f"    const cuuint32_t element_strides[{rank}] = {{{', '.join(['1'] * rank)}}};",
        f"    r = cuTensorMapEncodeTiled({var}, CU_TENSOR_MAP_DATA_TYPE_"
        f"{_TENSOR_MAP_DATA_TYPES[element]}, {rank}, (void *)(uintptr_t){address},",
        "                               dims, strides, box, element_strides, "
        "CU_TENSOR_MAP_INTERLEAVE_NONE,",
        f"                               CU_TENSOR_MAP_SWIZZLE_{_TENSOR_MAP_SWIZZLES[swizzle]}, "
        "CU_TENSOR_MAP_L2_PROMOTION_L2_128B,",
        "                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);",
        "    if (r != CUDA_SUCCESS) return r;",
        "  }"]


def header_text(compiled: CompiledKernel, function: str) -> str:
    """The C header: embedded cubin, launch-facts macros, and the launch function."""
    md = compiled.metadata
    kernel = md["name"]
    prefix = c_identifier(function)
    # Tensor maps are made in the launch function from the descriptor's
    # parts, or from the parameters a hidden one's recipe names.
    maps = "".join(_tensor_map_code(p, md["params"], kernel) + "\n" for p in md["params"]
                   if p.get("type") == "tensormap")
    params = [(c_identifier(p["name"]), _param_c_type(p, md)) for p in md["params"]
              if p.get("type") != "tensormap"]
    cubin = compiled.asm["cubin"]
    rows = [", ".join(f"0x{b:02x}" for b in cubin[i:i + 16]) for i in range(0, len(cubin), 16)]
    args = "".join(f", {ctype} {name}" for name, ctype in params)
    pointers = ", ".join(f"(void *){c_identifier(p['name'])}" if p.get("type") == "tensormap"
                         else f"(void *)&{c_identifier(p['name'])}"
                         for p in md["params"]) or "NULL"
    guard = f"TILE_AOT_{prefix.upper()}_H"
    # The kernel's shared memory is dynamic: each launch asks for it, the
    # function opting in once beyond the default 48 KiB, with the largest
    # shared carveout (as tile.driver's modules do).
    shared = md.get("shared_bytes", 0)
    return f"""/* Generated by `python -m tile.aot`: kernel {kernel} for {md.get("target")}.
 * Launch facts: {md["num_warps"]} warps ({md["threads"]} threads) per program,
 * {shared} bytes of dynamic shared memory. Needs only the CUDA driver (link with -lcuda).
 * Signature: {", ".join(f"{k}: {v}" for k, v in md.get("signature", {}).items())}
 * Constexprs: {", ".join(f"{k}={v}" for k, v in md.get("constexprs", {}).items()) or "none"} */
#ifndef {guard}
#define {guard}

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define {prefix.upper()}_NUM_WARPS {md["num_warps"]}
#define {prefix.upper()}_THREADS {md["threads"]}
#define {prefix.upper()}_SHARED_BYTES {shared}

static const unsigned char {prefix}_cubin[{len(cubin)}] = {{
  {(","  + chr(10) + "  ").join(rows)}
}};

/* Loads the module on first use (not thread-safe: call once from one thread
 * first, or guard it), then launches a gridX x gridY x gridZ grid. */
static inline CUresult {prefix}_launch(CUstream stream, unsigned gridX, unsigned gridY,
                                      unsigned gridZ{args}) {{
  static CUmodule module = NULL;
  static CUfunction function = NULL;
  CUresult r;
  if (function == NULL) {{
    r = cuModuleLoadData(&module, {prefix}_cubin);
    if (r != CUDA_SUCCESS) return r;
    r = cuModuleGetFunction(&function, module, "{kernel}");
    if (r != CUDA_SUCCESS) return r;
    if ({prefix.upper()}_SHARED_BYTES > 48 * 1024) {{
      r = cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             {prefix.upper()}_SHARED_BYTES);
      if (r != CUDA_SUCCESS) return r;
      r = cuFuncSetCacheConfig(function, CU_FUNC_CACHE_PREFER_SHARED);
      if (r != CUDA_SUCCESS) return r;
    }}
  }}
{maps}  void *params[] = {{{pointers}}};
  return cuLaunchKernel(function, gridX, gridY, gridZ, {prefix.upper()}_THREADS, 1, 1,
                        {prefix.upper()}_SHARED_BYTES, stream, params, NULL);
}}

#endif /* {guard} */
"""


def _param_c_type(param: Mapping[str, Any], md: Mapping[str, Any]) -> str:
    signature = md.get("signature", {})
    if param.get("type") != "ptr" and param.get("name") in signature:
        return _SIGNATURE_C_TYPES.get(signature[param["name"]], "int32_t")
    return _C_TYPES.get(param.get("type", "i32"), "int32_t")


def write_artifacts(compiled: CompiledKernel, out_dir: Path, function: str) -> list[Path]:
    text = header_text(compiled, function)
    out_dir.mkdir(parents=True, exist_ok=True)
    cubin = out_dir / f"{function}.cubin"
    cubin.write_bytes(compiled.asm["cubin"])
    header = out_dir / f"{function}.h"
    header.write_text(text)
    return [cubin, header]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tile.aot", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kernel", help="FILE.py:FUNCTION")
    parser.add_argument("--signature", "-s", required=True,
                        help='runtime parameter types in order, e.g. "*fp32,*fp32,i32"')
    parser.add_argument("--constexpr", "-c", action="append", default=[],
                        metavar="NAME=VALUE")
    parser.add_argument("--target", default="sm_90")
    parser.add_argument("--num-warps", type=int, default=None)
    parser.add_argument("--num-stages", type=int, default=None,
                        help="Triton's num_stages (default 3; 1: no software pipelining)")
    parser.add_argument("--divisible-by-16", default="",
                        help="comma-separated parameters known to be multiples of 16")
    parser.add_argument("--name", help="name of the launch function (default: the kernel's)")
    parser.add_argument("-o", "--out-dir", default=".")
    args = parser.parse_args(argv)
    kernel = load_kernel(args.kernel)
    constexprs = dict(parse_constexpr(c) for c in args.constexpr)
    divisible = frozenset(n.strip() for n in args.divisible_by_16.split(",") if n.strip())
    try:
        compiled = compile(kernel, args.signature, constexprs, target=args.target,
                           num_warps=args.num_warps, num_stages=args.num_stages,
                           specialization=Specialization(divisible_by_16=divisible))
    except CompilationError as exc:
        print(exc, file=sys.stderr)
        return 1
    try:
        paths = write_artifacts(compiled, Path(args.out_dir), args.name or compiled.name)
    except (ValueError, DriverError) as exc:  # a tensor map it cannot make
        print(exc, file=sys.stderr)
        return 1
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
