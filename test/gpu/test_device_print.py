"""tl.device_print / print (printf from the device) and tl.device_assert / assert
(with TILE_DEBUG=1 or @tile.jit(debug=True)), compiled on the GPU and interpreted
(TILE_INTERPRET=1). Each launch runs in a child process: printf output reaches
the process's stdout when the kernel finishes, and a failed device assertion
leaves the CUDA context unusable."""
from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import tile
import tile.language as tl
from tile.language import float8

pytestmark = [pytest.mark.gpu, pytest.mark.interpretable]

THIS_FILE = Path(__file__).resolve()


@tile.jit
def print_values(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.device_print("x", x)
    tl.device_print("n", n)  # print("n", n) in a compiled kernel; Python's in the interpreter
    tl.device_print("bits", x, hex=True)
    grid = tl.reshape(offs, (2, BLOCK // 2))
    tl.device_print("pair ", grid, (grid - 3).to(tl.uint32))
    q = x.to(tl.float8e5)  # an fp8 block: its values, and in hex its bits
    tl.device_print("q", q)
    tl.device_print("qbits", q, hex=True)


@tile.jit
def check_values(x_ptr, BLOCK: tl.constexpr, STATEMENT: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    if STATEMENT:
        assert x < 100, "x is too big"
    else:
        tl.device_assert(x < 100, "x is too big", mask=offs != 2)


CHILD = """
import sys
sys.path[:0] = {path!r}
import torch
import test_device_print as t
from conformance_cases import device
dev = device(torch)
what = sys.argv[1]
if what == "print":
    x = torch.tensor([1.5, -2.0, 0.25, 3.0, 7.0, 8.0, 9.0, 10.0], device=dev)
    t.print_values[(2,)](x, 5, BLOCK=8, num_warps=1)
else:
    x = torch.tensor([1.0, 2.0, 300.0, 4.0, 5.0, 600.0, 7.0, 8.0], device=dev)
    if what == "masked":
        x[5] = 6.0
    t.check_values[(1,)](x, BLOCK=8, STATEMENT=what == "statement")
if dev == "cuda":
    torch.cuda.synchronize()
print("finished")
"""


def run_child(what: str, **env: str) -> subprocess.CompletedProcess:
    code = CHILD.format(path=[str(THIS_FILE.parent)] + sys.path)
    return subprocess.run([sys.executable, "-c", code, what], capture_output=True, text=True,
                          timeout=300, env={**os.environ, **env})


def f32_hex(value: float) -> str:
    return f"0x{struct.unpack('<I', struct.pack('<f', value))[0]:08x}"


def test_device_print_prints_each_element_once_with_its_index() -> None:
    child = run_child("print")
    assert child.returncode == 0, child.stderr
    lines = [line for line in child.stdout.splitlines() if line.startswith("pid ")]
    values = [1.5, -2.0, 0.25, 3.0, 7.0, 0.0, 0.0, 0.0]  # masked to n = 5
    expected = []
    for pid in (0, 1):
        head = f"pid ({pid}, 0, 0)"
        expected += [f"{head} idx ({i}) x: {v:f}" for i, v in enumerate(values)]
        expected.append(f"{head} n: 5")
        expected += [f"{head} idx ({i}) bits: {f32_hex(v)}" for i, v in enumerate(values)]
        for i in range(8):
            at = f"idx ({i // 4}, {i % 4})"
            expected.append(f"{head} {at} pair: (operand 0) {i}")
            expected.append(f"{head} {at} pair: (operand 1) {(i - 3) % 2**32}")
        e5m2 = float8.FORMATS["fp8e5"]  # the values are exact in fp8e5
        expected += [f"{head} idx ({i}) q: {v:f}" for i, v in enumerate(values)]
        expected += [f"{head} idx ({i}) qbits: 0x{float8.encode(v, e5m2):02x}"
                     for i, v in enumerate(values)]
    # The GPU's threads print in no particular order.
    assert sorted(lines) == sorted(expected)
    assert "finished" in child.stdout


@pytest.mark.parametrize("what", ["call", "statement"])
def test_device_assert_stops_the_kernel_with_debugging_on(what: str) -> None:
    child = run_child(what, TILE_DEBUG="1")
    assert child.returncode != 0 and "finished" not in child.stdout
    output = child.stdout + child.stderr
    assert "x is too big" in output
    if os.environ.get("TILE_INTERPRET", "0") not in ("", "0"):
        # The interpreter names the line (and for tl.device_assert the failing
        # element: 5, as the mask skips element 2); `assert` runs as Python's.
        assert str(THIS_FILE) in output
        if what == "call":
            assert "device assertion failed at index (5,): x is too big" in output
        else:
            assert "AssertionError: x is too big" in output
    else:
        assert "device-side assert" in output or "Assertion" in output


@pytest.mark.parametrize("what, env", [("call", {"TILE_DEBUG": "0"}),
                                       ("statement", {"TILE_DEBUG": "0"}),
                                       ("masked", {"TILE_DEBUG": "1"})])
def test_device_assert_passes_without_debugging_or_a_failing_element(
        what: str, env: dict[str, str]) -> None:
    child = run_child(what, **env)
    assert child.returncode == 0, child.stderr
    assert "finished" in child.stdout
