"""Writes deeply nested tile IR or Triton-C to stdout, for the nesting tests.

    python3 nested.py if N        N nested scf.if in a kernel (N + 2 brackets deep)
    python3 nested.py for N       N nested scf.for storing in the innermost
    python3 nested.py ptr N       an argument of N nested !tile.ptr<
    python3 nested.py tc-if N     Triton-C: N nested `if`
    python3 nested.py tc-block N  Triton-C: N nested blocks `{`
    python3 nested.py tc-parens N Triton-C: an expression in N parentheses
    python3 nested.py tc-terms N  Triton-C: a sum of N terms
    python3 nested.py tc-unary N  Triton-C: N unary minus signs
    python3 nested.py tc-macro N  Triton-C: macros doubling N times (2^N tokens)
    python3 nested.py tc-chain N  Triton-C: N macros each naming the next
"""
import sys


def tile_if(n: int) -> str:
    body = "".join(f"scf.if %c{i % 2} {{\n" for i in range(n))
    return ("func.func @k(%p: !tile.ptr<f32>, %c0: i1, %c1: i1) {\n"
            "  %v = tile.load %p : !tile.ptr<f32>\n"
            f"{body}  tile.store %p, %v : !tile.ptr<f32>\n" + "}\n" * n +
            "  return\n}\n")


def tile_for(n: int) -> str:
    body = "".join(f"scf.for %i{i} = %c0 to %n step %c1 : i32 {{\n" for i in range(n))
    return ("func.func @k(%p: !tile.ptr<f32>, %n: i32, %x: f32) {\n"
            "  %c0 = arith.constant 0 : i32\n  %c1 = arith.constant 1 : i32\n"
            f"{body}  tile.store %p, %x : !tile.ptr<f32>\n" + "}\n" * n +
            "  return\n}\n")


def tile_ptr(n: int) -> str:
    return ("func.func @k(%x: " + "!tile.ptr<" * n + "f32" + ">" * n +
            ") {\n  return\n}\n")


def kernel(body: str, prelude: str = "") -> str:
    return (prelude + "__global__ void k(int *p, int c) {\n  int x = 0;\n" + body +
            "  *p = x;\n}\n")


def tc(kind: str, n: int) -> str:
    if kind == "tc-if":
        return kernel("if (c) {\n" * n + "x = x + 1;\n" + "}\n" * n)
    if kind == "tc-block":
        return kernel("{\n" * n + "x = x + 1;\n" + "}\n" * n)
    if kind == "tc-parens":
        return kernel("  x = " + "(" * n + "c" + ")" * n + ";\n")
    if kind == "tc-terms":
        return kernel("  x = " + " + ".join(["c"] * n) + ";\n")
    if kind == "tc-unary":
        return kernel("  x = " + "- " * n + "c;\n")
    if kind == "tc-macro":
        defines = "#define M0 c\n" + "".join(
            f"#define M{i + 1} M{i} + M{i}\n" for i in range(n))
        return kernel(f"  x = M{n};\n", defines)
    if kind == "tc-chain":
        defines = "".join(f"#define M{i} M{i + 1}\n" for i in range(n)) + f"#define M{n} c\n"
        return kernel("  x = M0;\n", defines)
    raise SystemExit(f"unknown kind {kind}")


def main() -> None:
    kind, n = sys.argv[1], int(sys.argv[2])
    writers = {"if": tile_if, "for": tile_for, "ptr": tile_ptr}
    sys.stdout.write(writers[kind](n) if kind in writers else tc(kind, n))


if __name__ == "__main__":
    main()
