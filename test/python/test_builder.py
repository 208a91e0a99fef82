"""The IR builder (tile.compiler.ir) is the one place that knows op syntax,
and it refuses malformed ops and types before MLIR's parser would."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import REPO

import tile.language as tl
from tile.compiler.ir import Builder, float_literal, quote
from tile.errors import TileError
from tile.language.types import block_type

FRONTEND = REPO / "python" / "tile"
# Op text in a string: a dialect prefix and an op name followed by an operand,
# an attribute or a placeholder ("tile.addf {x}", "arith.constant 0", "scf.for %").
OP_TEXT = re.compile(r"""(?<![@\w.])(tile|arith|math|scf|func)\.[a-z_]+ +[%{0-9(]""")


def test_only_the_builder_formats_op_text():
    offenders = []
    for path in sorted(FRONTEND.rglob("*.py")):
        if path.name == "ir.py" or "interpreter" in path.parts:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if OP_TEXT.search(line) and not line.lstrip().startswith("#"):
                offenders.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert not offenders, "op text outside compiler/ir.py:\n" + "\n".join(offenders)


@pytest.mark.parametrize("shape, message", [
    ((16, 0), "block shape 16x0: dimension 1 has extent 0; every extent must be positive"),
    ((-4,), "block shape -4: dimension 0 has extent -4"),
    ((65536, 65536), "block shape 65536x65536 has 4294967296 elements, more than the "
                     "2147483648 (2^31)"),
    ((), "a block needs at least one dimension"),
    ((4.0,), "dimension 0 is 4.0, not an integer"),
    ((True,), "dimension 0 is True, not an integer"),
])
def test_block_types_are_checked_when_made(shape, message):
    with pytest.raises(TileError, match=re.escape(message)):
        block_type(tl.float32, shape)


def test_constants_must_fit_their_type():
    b = Builder()
    b.constant(0xFFFFFFFF, tl.uint32)  # the all-ones bit pattern
    b.constant(-(2**31), tl.int32)
    with pytest.raises(TileError, match="the constant 4294967296 does not fit in int32"):
        b.constant(2**32, tl.int32)
    with pytest.raises(TileError, match="does not fit in int8"):
        b.constant(-129, tl.int8)
    text = b.block.render("")
    assert "arith.constant -1 : i32" in text and "arith.constant -2147483648 : i32" in text


def test_float_literals_are_rounded_to_their_type():
    # MLIR's parser rejects literals that overflow the type: they round to inf,
    # as a conversion would, and print as hex bits.
    assert float_literal(1e10, tl.float16) == "0x7C00"
    assert float_literal(-1e39, tl.float32) == "0xFF800000"
    assert float_literal(65504.0, tl.float16) == "65504.0"
    assert float_literal(0.01, tl.float32) == "0.01"  # the shortest text of the f32 value
    assert float_literal(1.0e300, tl.bfloat16) == "0x7F80"
    assert float_literal(3.0, tl.bfloat16) == "3.0"


def test_ops_check_their_operands():
    b = Builder()
    x = b.constant(1.0, tl.float32)
    i = b.constant(1, tl.int32)
    with pytest.raises(TileError, match="addf needs two float operands of one type"):
        b.binary("addf", x, i)
    with pytest.raises(TileError, match="arange's end 1099511627776 does not fit in int32"):
        b.arange(0, 2**40)
    with pytest.raises(TileError, match="expand_dims axis 5 is out of range"):
        b.expand_dims(b.arange(0, 4), 5)


def test_strings_escape_every_byte_outside_printable_ascii():
    assert quote('a"b\\c') == '"a\\22b\\5Cc"'
    assert quote("é\n") == '"\\C3\\A9\\0A"'
