#!/usr/bin/env python3
"""Writes python/tile/language/extra/cuda/libdevice_functions.py: the
functions of `tl.extra.cuda.libdevice` with their overloads, derived from the
signatures in libdevice.10.bc (read with llvm-dis) and Triton's naming (the
`__nv_` symbol without its prefix, float/double pairs under one name, signed
and unsigned integer families under one name).

    python3 scripts/gen-libdevice.py [/usr/local/cuda/nvvm/libdevice/libdevice.10.bc]
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "python/tile/language/extra/cuda/libdevice_functions.py"
LLVM_TYPES = {"float": "fp32", "double": "fp64", "i32": "int32", "i64": "int64",
              "i16": "int16"}
# Integer families: Triton name -> [(symbol, argument dtype)]; unsigned
# overloads take uint32/uint64.
FAMILIES = {
    "clz": [("clz", "int32"), ("clzll", "int64")],
    "popc": [("popc", "int32"), ("popcll", "int64")],
    "brev": [("brev", "int32"), ("brevll", "int64")],
    "ffs": [("ffs", "int32"), ("ffsll", "int64")],
    "abs": [("abs", "int32"), ("llabs", "int64"), ("fabsf", "fp32"), ("fabs", "fp64")],
    "min": [("min", "int32"), ("umin", "uint32"), ("llmin", "int64"), ("ullmin", "uint64"),
            ("fminf", "fp32"), ("fmin", "fp64")],
    "max": [("max", "int32"), ("umax", "uint32"), ("llmax", "int64"), ("ullmax", "uint64"),
            ("fmaxf", "fp32"), ("fmax", "fp64")],
    "mulhi": [("mulhi", "int32"), ("umulhi", "uint32"), ("mul64hi", "int64"),
              ("umul64hi", "uint64")],
    "umulhi": [("umulhi", "int32"), ("umulhi", "uint32"), ("umul64hi", "int64"),
               ("umul64hi", "uint64")],
    "mul24": [("mul24", "int32"), ("umul24", "uint32")],
    "hadd": [("hadd", "int32"), ("uhadd", "uint32")],
    "rhadd": [("rhadd", "int32"), ("urhadd", "uint32")],
    "sad": [("sad", "int32"), ("usad", "uint32")],
    "isnan": [("isnanf", "fp32"), ("isnand", "fp64")],
    "isinf": [("isinff", "fp32"), ("isinfd", "fp64")],
    "signbit": [("signbitf", "fp32"), ("signbitd", "fp64")],
    "isfinited": [("isfinited", "fp64")],
    "finitef": [("finitef", "fp32")],
    "rsqrt_rn": [("frsqrt_rn", "fp32")],
    "fast_dividef": [("fast_fdividef", "fp32")],
}
ROUNDED = re.compile(r"^([fd])(div|add|mul|sub|rcp|sqrt)_(rn|rz|rd|ru)$")
FMA_ROUNDED = re.compile(r"^fma(f?)_(rn|rz|rd|ru)$")


def signatures(path: str) -> dict[str, tuple[str, list[str]]]:
    text = subprocess.run(["/usr/lib/llvm-22/bin/llvm-dis", path, "-o", "-"], check=True,
                          capture_output=True, text=True).stdout
    found = {}
    for match in re.finditer(r"^define [^@]*?(\w+) @__nv_(\w+)\(([^)]*)\)", text, re.M):
        result, name, args = match.groups()
        types = [a.split()[0] for a in args.split(",") if a.strip()]
        if result in LLVM_TYPES and all(t in LLVM_TYPES for t in types):
            found[name] = (LLVM_TYPES[result], [LLVM_TYPES[t] for t in types])
    return found


def unsigned_like(dtype: str, name: str) -> str:
    """A uint type for the integer arguments of unsigned conversions."""
    if dtype.startswith("int") and name.startswith(("uint", "ull", "u")):
        return "u" + dtype
    return dtype


def derive(found: dict[str, tuple[str, list[str]]]) -> dict[str, list[tuple]]:
    table: dict[str, list[tuple]] = {}
    used: set[str] = set()

    def add(name: str, symbol: str, args: list[str], result: str) -> None:
        table.setdefault(name, []).append((tuple(args), f"__nv_{symbol}", result))
        used.add(symbol)

    for name, members in FAMILIES.items():
        for symbol, dtype in members:
            result, args = found[symbol]
            argtypes = [dtype if a == dtype.lstrip("u") else a for a in args]
            out = dtype if result == dtype.lstrip("u") else result
            add(name, symbol, argtypes, out)
    for symbol, (result, args) in sorted(found.items()):
        if symbol in used:
            continue
        rounded, fma = ROUNDED.match(symbol), FMA_ROUNDED.match(symbol)
        if rounded:
            add(f"{rounded[2]}_{rounded[3]}", symbol, args, result)
        elif fma:
            add(f"fma_{fma[2]}", symbol, args, result)
        elif symbol.endswith("f") and symbol[:-1] in found and "fp32" in args:
            add(symbol[:-1], symbol, args, result)  # erff: erf on fp32
        elif symbol + "f" in found and "fp64" in args:
            add(symbol, symbol, args, result)  # erf on fp64
        elif "ieee" not in symbol:
            # Conversions name their types: uint2float_rn takes a uint32,
            # float_as_uint gives one.
            source, _, target = symbol.replace("_as_", "2").partition("2")
            add(symbol, symbol, [unsigned_like(a, source) for a in args],
                unsigned_like(result, target) if target else result)
    return table


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"
    table = derive(signatures(path))
    lines = ['"""Generated by scripts/gen-libdevice.py from libdevice.10.bc: Triton\'s names',
             "of the libdevice functions, each with its overloads",
             '(argument dtypes, symbol, result dtype). Do not edit."""', "",
             "FUNCTIONS: dict[str, list[tuple[tuple[str, ...], str, str]]] = {"]
    for name in sorted(table):
        lines.append(f"    {name!r}: [")
        for args, symbol, result in table[name]:
            lines.append(f"        ({args!r}, {symbol!r}, {result!r}),")
        lines.append("    ],")
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"{OUT.relative_to(ROOT)}: {len(table)} functions, "
          f"{sum(len(v) for v in table.values())} overloads")


if __name__ == "__main__":
    main()
