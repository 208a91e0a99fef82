"""tile's interpreter against Triton's own tl.randint / randint4x / rand / randn,
without Triton: the values Triton 3.6's interpreter (TRITON_INTERPRET=1) gives
for capture_triton_random.py's kernel are held below as literals, and tile's
interpreter (TILE_INTERPRET=1) runs the same kernel (that file loaded with
`triton` meaning tile) for the same seeds and offsets. The words and rand's f32
bits must agree bit for bit; randn within RANDN_ULPS (its f32 log, sqrt, cos
are NumPy's, which may differ by an ulp or so between CPUs and NumPy builds:
the README's "a few ulp"). To capture again (with Triton 3.6, whose values these
are; see capture_triton_random.py's docstring for the Python to use):

    /tmp/tv/bin/python test/python/capture_triton_random.py \
        .venv/lib/python3.11/site-packages

and replace EXPECTED with what it prints. test_random.py checks tile against a
plain-Python Philox (test/gpu/philox_reference.py), and against the installed
Triton's interpreter where there is one; this file needs no Triton, and checks
the literals' words and uniforms against that Philox too."""
from __future__ import annotations

import importlib.util
import struct
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conftest import REPO

import tile

sys.path.insert(0, str(REPO / "test" / "gpu"))
import philox_reference as ref  # noqa: E402

PROGRAM = Path(__file__).resolve().parent / "capture_triton_random.py"
RANDN_ULPS = 4

# Triton 3.6.0's interpreter (TRITON_INTERPRET=1), captured by
# test/python/capture_triton_random.py. Keys: (seed, the offsets' dtype, the first of BLOCK
# offsets); rows: its ROWS, each BLOCK words in hex.
EXPECTED = {
    (1234, "int32", 0): [
        "2090b348 9eeede35 3fc9c8d8 b6269a3e 14a762d7 ca2921c9 fd0ca21e b30e22ad",  # randint
        "2090b348 9eeede35 3fc9c8d8 b6269a3e 14a762d7 ca2921c9 fd0ca21e b30e22ad",  # randint4x 0
        "da7cf0ab 1cbe137c fc06fa38 23b73d6b eb02ba3a 3342f66b aa1ae8fe 6eb5361a",  # randint4x 1
        "4401906f fa277093 cc170b27 72cd7b67 0bb4bef5 b1f2cfa6 cc60c15c 925f4117",  # randint4x 2
        "cbca470e 147edd50 891d3b11 e87c375e f998a4bd 96051f38 b0287d17 865132fe",  # randint4x 3
        "3e8242cc 3f422243 3eff2722 3f13b2cb 3e253b16 3ed75b78 3cbcd777 3f19e3ba",  # rand bits
        "bee26ba3 3df28c60 3f943478 be42cee8 3f7b99b4 bf889569 bfa74836 3f2aafff",  # randn bits
    ],
    (-7, "int32", -3000): [
        "8ea227c7 da1a4912 b8f7e5df 29aff41f 9fa8172a de033966 28f4f838 8891873b",  # randint
        "8ea227c7 da1a4912 b8f7e5df 29aff41f 9fa8172a de033966 28f4f838 8891873b",  # randint4x 0
        "140a06c7 24de1b1d c1008adc cc572d13 0b124e04 7d756b66 28611430 e77b71b4",  # randint4x 1
        "5c3fd66c 849fa271 3264b739 a9e012a5 6ae3ea33 f96fdd89 edec91a2 630f5a71",  # randint4x 2
        "f0d584d6 aa080054 abe12254 47d9f449 03fa6fe3 b8d53b17 980ba748 9bfb36e0",  # randint4x 3
        "3f62bbaf 3e9796db 3f0e1033 3ea6bfcf 3f40afd1 3e87f319 3ea3d3e0 3f6edcf1",  # rand bits
        "3e8bc2f6 bebd0f85 bf8abf17 bf9d9d55 3f252b99 3fced4b3 bf1a83ef 3e08e0a5",  # randn bits
    ],
    (1099511627779, "int64", 4294967292): [
        "a03d7142 fc92db97 aab24846 c42c10bf be8bb596 c6e90611 db23a363 7885d117",  # randint
        "a03d7142 fc92db97 aab24846 c42c10bf be8bb596 c6e90611 db23a363 7885d117",  # randint4x 0
        "95360117 1719045e 6af35305 e34a4c75 96eb05aa d6b6fc5b 252ee5d6 e6d2e9fb",  # randint4x 1
        "e0fbf506 a14d0dcc 4d1d6731 91edbc51 b0691897 2f48c973 457b409d 6bb3c0cf",  # randint4x 2
        "868c27ea 63f1fbd0 45263c29 8856da3b 82599691 ad78d9be 013ca4c9 1c12b6b7",  # randint4x 3
        "3f3f851c 3cdb4919 3f2a9b6e 3eef4fbc 3f02e894 3ee45be7 3e937171 3f710ba1",  # rand bits
        "3ec50d3f 3f91c568 3eec2c8e 3e4b16f8 3effafe4 bf0f3144 becb56bd 3de9985f",  # randn bits
    ],
    (-2147483648, "int32", 2147483640): [
        "9b92ce0a 83d48f95 887c835d 936722e2 eb55af42 282789bd c70a1c7c b622297c",  # randint
        "9b92ce0a 83d48f95 887c835d 936722e2 eb55af42 282789bd c70a1c7c b622297c",  # randint4x 0
        "62cdf511 46e39a93 a233f0c9 db3e053e 60780143 3202fbad 8ed28dfa d184c11e",  # randint4x 1
        "ba12e0ff a166af5e 2f92405b 883b73df fe0472e5 cc6fb455 48fb5985 d937ea4a",  # randint4x 2
        "e801877e 8bbe8778 1e17957d b3fc15ed c61bff8f dbc0b1e3 3e2021ad 2ca7105b",  # randint4x 3
        "3f48da63 3f7856e0 3f6f06f8 3f5931b9 3e255285 3ea09e26 3ee3d78d 3f13bbac",  # rand bits
        "3dc3c566 be6e1eef bd23bd82 be07e1ba 3d33fb63 bf96bbed 3f7346a4 bf2f26d4",  # randn bits
    ],
    (9223372036854775783, "int64", -1099511627779): [
        "bfb70c56 7a005e75 eab2c00b 775e0520 63c73b78 fbf7f379 9b611417 e21aa238",  # randint
        "bfb70c56 7a005e75 eab2c00b 775e0520 63c73b78 fbf7f379 9b611417 e21aa238",  # randint4x 0
        "2f2b0c13 438080e3 8e1a017c ca94296d 4716a165 dcd6dfcf aa36aed3 7f346483",  # randint4x 1
        "3e817a08 1c93fdef 120af1ae e219d690 364eff9b 39560003 8c3004dc b6cfb7e2",  # randint4x 2
        "d932f59a 9b4018b7 17180175 17f9213a ca5b1410 5a6af57a 5f6c7363 fe2e12a1",  # randint4x 3
        "3f0091e6 3f7400bc 3e2a69ff 3f6ebc09 3f478e76 3d010190 3f493dd7 3e6f2aed",  # rand bits
        "bf4b99a2 be9c4b8e 3fba9d14 bea61c72 bf29dbac bed00ff9 beaab9a2 3fda221f",  # randn bits
    ],
}


def _program() -> ModuleType:
    """capture_triton_random.py with `triton` (and triton.language) meaning
    tile (and tile.language)."""
    spec = importlib.util.spec_from_file_location("capture_triton_random_by_tile", PROGRAM)
    module = importlib.util.module_from_spec(spec)
    saved = {key: sys.modules.get(key) for key in ("triton", "triton.language")}
    sys.modules["triton"], sys.modules["triton.language"] = tile, tile.language
    try:
        spec.loader.exec_module(module)
    finally:
        for key, value in saved.items():
            if value is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = value
    return module


def _words(rows: list[str]) -> list[list[int]]:
    return [[int(word, 16) for word in row.split()] for row in rows]


def _f32_line(bits: int) -> int:
    """f32 bits on a line where adjacent floats are 1 apart (-0 and +0 at 0)."""
    magnitude = bits & 0x7FFFFFFF
    return -magnitude if bits >> 31 else magnitude


def test_the_captured_cases_are_the_programs() -> None:
    program = _program()
    assert list(EXPECTED) == program.CASES
    assert all(len(rows) == len(program.ROWS) for rows in EXPECTED.values())
    assert all(len(row.split()) == program.BLOCK for rows in EXPECTED.values() for row in rows)


@pytest.mark.parametrize("seed, dtype, first", list(EXPECTED))
def test_tritons_words_and_uniforms_are_the_reference_philox(seed: int, dtype: str,
                                                             first: int) -> None:
    """The literals themselves: Triton's words are Philox 4x32-10's (the
    reference gives Random123's known answers), its uniforms the reference's."""
    offsets = range(first, first + len(EXPECTED[(seed, dtype, first)][0].split()))
    words = ref.randint4x(seed, offsets, wide_offsets=dtype == "int64")
    randint, *randint4x, rand, _ = _words(EXPECTED[(seed, dtype, first)])
    assert randint == words[0]
    assert randint4x == words
    assert [struct.unpack("f", struct.pack("I", bits))[0] for bits in rand] == ref.uniform(words[0])


@pytest.mark.parametrize("seed, dtype, first", list(EXPECTED))
def test_tiles_interpreter_gives_tritons_values(seed: int, dtype: str, first: int,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    monkeypatch.setenv("TILE_INTERPRET", "1")
    program = _program()
    block = program.BLOCK
    offsets = np.array(range(first, first + block), dtype=dtype)
    out = np.zeros(len(program.ROWS) * block, np.int32)
    program.random_values[(1,)](seed, offsets, out, BLOCK=block)
    words = (out.astype(np.int64) & 0xFFFFFFFF).tolist()
    got = [words[row * block:(row + 1) * block] for row in range(len(program.ROWS))]
    expected = _words(EXPECTED[(seed, dtype, first)])
    for name, row, want in zip(program.ROWS, got, expected):
        if name == "randn bits":
            ulps = [abs(_f32_line(a) - _f32_line(b)) for a, b in zip(row, want)]
            assert max(ulps) <= RANDN_ULPS, (name, [f"{w:08x}" for w in row], ulps)
        else:
            assert [f"{w:08x}" for w in row] == [f"{w:08x}" for w in want], name
