"""Captures Triton's own tl.randint / randint4x / rand / randn values for
test_random_captured.py, which holds them as literals and checks tile's
interpreter against them.

This file is a Triton program, unchanged: the test loads it with `triton`
meaning tile; run as a script, it runs the kernel in Triton's interpreter
(TRITON_INTERPRET=1, on the CPU) and prints the EXPECTED literal. It needs
Triton and torch in one Python (Triton 3.6's interpreter takes torch tensors,
not NumPy arrays); with Triton 3.6 in /tmp/tv and torch in the checkout's .venv:

    /tmp/tv/bin/python test/python/capture_triton_random.py \
        .venv/lib/python3.11/site-packages

(the optional argument is appended to sys.path after Triton is imported, so
that torch comes from there and Triton from /tmp/tv). Not collected by pytest
(not test_*.py).
"""
import triton
import triton.language as tl

BLOCK = 8
# (seed, offsets' dtype, first offset): the offsets are first .. first + 7.
# Seeds: small, negative, 64-bit, the least int32, a large int64 (the key is
# the seed's 64 bits); offsets: int32 (counter high word 0), negative, int64
# across 2**32 (high word 0 then 1), the top of int32, negative int64.
CASES = [
    (1234, "int32", 0),
    (-7, "int32", -3000),
    (2**40 + 3, "int64", 2**32 - 4),
    (-2**31, "int32", 2**31 - 8),
    (2**63 - 25, "int64", -2**40 - 3),
]


@triton.jit
def random_values(seed, offsets_ptr, out_ptr, BLOCK: tl.constexpr):
    """Rows of `out` (int32): randint, randint4x's four words, and the f32
    bits of rand and randn, at the loaded offsets."""
    i = tl.arange(0, BLOCK)
    offsets = tl.load(offsets_ptr + i)
    tl.store(out_ptr + i, tl.randint(seed, offsets).to(tl.int32, bitcast=True))
    r0, r1, r2, r3 = tl.randint4x(seed, offsets)
    tl.store(out_ptr + BLOCK + i, r0.to(tl.int32, bitcast=True))
    tl.store(out_ptr + 2 * BLOCK + i, r1.to(tl.int32, bitcast=True))
    tl.store(out_ptr + 3 * BLOCK + i, r2.to(tl.int32, bitcast=True))
    tl.store(out_ptr + 4 * BLOCK + i, r3.to(tl.int32, bitcast=True))
    tl.store(out_ptr + 5 * BLOCK + i, tl.rand(seed, offsets).to(tl.int32, bitcast=True))
    tl.store(out_ptr + 6 * BLOCK + i, tl.randn(seed, offsets).to(tl.int32, bitcast=True))


ROWS = ["randint", "randint4x 0", "randint4x 1", "randint4x 2", "randint4x 3", "rand bits",
        "randn bits"]


def _capture() -> None:
    import os
    import sys
    if os.environ.get("TRITON_INTERPRET") != "1":
        # The kernel was decorated at import: rerun with the interpreter on.
        os.environ["TRITON_INTERPRET"] = "1"
        os.execv(sys.executable, [sys.executable, *sys.argv])
    sys.path.extend(sys.argv[1:])
    import torch
    print(f"# Triton {triton.__version__}'s interpreter (TRITON_INTERPRET=1), "
          "captured by test/python/capture_triton_random.py")
    print("EXPECTED = {")
    for seed, dtype, first in CASES:
        offsets = torch.arange(first, first + BLOCK, dtype=getattr(torch, dtype))
        out = torch.zeros(len(ROWS) * BLOCK, dtype=torch.int32)
        random_values[(1,)](seed, offsets, out, BLOCK=BLOCK)
        words = [w & 0xFFFFFFFF for w in out.tolist()]
        print(f'    ({seed}, "{dtype}", {first}): [')
        for row, name in enumerate(ROWS):
            values = " ".join(f"{w:08x}" for w in words[row * BLOCK:(row + 1) * BLOCK])
            print(f'        "{values}",  # {name}')
        print("    ],")
    print("}")


if __name__ == "__main__":
    _capture()
