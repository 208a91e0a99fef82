#!/usr/bin/env python3
"""Builds the fuzzers' seed corpus and dictionary from the tests and examples.

    python3 fuzz/make-corpus.py OUT_DIR [--dict FILE]

Every test/**/*.mlir and examples/*.mlir is split at `// -----` lines (as
`tile-opt -split-input-file` does); each piece, without its RUN/CHECK
comment lines, becomes one seed file OUT_DIR/<path>-<n>.mlir. The
dictionary lists the tile op names (from TileOps.td), types, attributes and
keywords, so that mutations produce tokens the parser knows.
"""
import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_SEED = 16384  # bytes; also the fuzzers' -max_len
COMMENT = re.compile(r"^\s*//\s*([A-Z0-9_-]+(-[A-Z]+)?:|RUN|CHECK|expected-)")


def pieces(path: Path):
    text = path.read_text(errors="replace")
    chunk: list[str] = []
    for line in text.splitlines():
        if re.match(r"^\s*// -----", line):
            yield "\n".join(chunk)
            chunk = []
        elif COMMENT.match(line):
            continue
        else:
            # expected-error annotations trail code lines: drop them.
            chunk.append(re.sub(r"\s*// expected-.*$", "", line))
    yield "\n".join(chunk)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--dict")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    sources = sorted((ROOT / "test").rglob("*.mlir")) + sorted((ROOT / "examples").glob("*.mlir"))
    count = 0
    for src in sources:
        stem = str(src.relative_to(ROOT)).replace("/", "_").removesuffix(".mlir")
        for n, piece in enumerate(pieces(src)):
            if not piece.strip():
                continue
            if len(piece) > MAX_SEED:
                # Too big for a useful seed: one seed per top-level function
                # that is small enough (kernels of generated test files).
                funcs = re.split(r"(?m)^(?=func\.func )", piece)
                for m, func in enumerate(funcs):
                    if func.startswith("func.func ") and len(func) <= MAX_SEED:
                        (out / f"{stem}-{n}-{m}.mlir").write_text(func.strip() + "\n")
                        count += 1
                continue
            (out / f"{stem}-{n}.mlir").write_text(piece.strip() + "\n")
            count += 1
    print(f"{count} seeds from {len(sources)} files in {out}")

    if args.dict:
        tokens = set()
        ods = (ROOT / "include/tile/Dialect/Tile/IR/TileOps.td").read_text()
        tokens |= {f"tile.{m}" for m in re.findall(r'Tile_Op<"([a-z_]+)"', ods)}
        tokens |= {"!tile.block<", "!tile.ptr<", "#tile.blocked<vector = ", ", warps = ",
                   "tile.divisibility", "tile.num_warps", "mask", "other", "axis",
                   "sum", "max", "min", "custom", "func.func", "return", "arith.constant",
                   "scf.for", "scf.if", "scf.yield", "scf.while", "i1", "i8", "i16", "i32",
                   "i64", "f16", "bf16", "f32", "f64", "x", "// -----", "{", "}", "(", ")",
                   "<", ">", ":", "->", ",", "%", "^bb0", "private", "dense<"}
        for src in sources:
            tokens |= set(re.findall(r"\b(?:arith|math|scf|func)\.[a-z_]+", src.read_text()))
        with open(args.dict, "w") as f:
            for t in sorted(tokens):
                f.write('"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"\n')
        print(f"{len(tokens)} dictionary entries in {args.dict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
