"""libdevice's bit functions (popc, clz, brev, ffs) on int32 and int64 operands,
compiled on the GPU and interpreted (TILE_INTERPRET=1), against Python's
integers: counted at the operand's width, in two's complement."""
from __future__ import annotations

import pytest

import tile
import tile.language as tl
from conformance_cases import device
from tile.language.extra.cuda import libdevice

pytestmark = [pytest.mark.gpu, pytest.mark.interpretable]


@tile.jit
def libdevice_bits(x_ptr, y_ptr, out32_ptr, out64_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)  # int32
    y = tl.load(y_ptr + offs)  # int64
    tl.store(out32_ptr + offs, libdevice.popc(x))
    tl.store(out32_ptr + BLOCK + offs, libdevice.clz(x))
    tl.store(out32_ptr + 2 * BLOCK + offs, libdevice.brev(x))
    tl.store(out32_ptr + 3 * BLOCK + offs, libdevice.ffs(x))
    tl.store(out32_ptr + 4 * BLOCK + offs, libdevice.popc(y))
    tl.store(out32_ptr + 5 * BLOCK + offs, libdevice.clz(y))
    tl.store(out32_ptr + 6 * BLOCK + offs, libdevice.ffs(y))
    tl.store(out64_ptr + offs, libdevice.brev(y))


def test_libdevice_bit_functions_count_the_bits_of_the_operand_type() -> None:
    import torch
    dev = device(torch)
    x32 = [0, 1, -1, -2**31, 12, 2**31 - 1, 6, 1 << 20]
    x64 = [0, 1, -1, -2**63, 12, 2**62, 6, 1 << 40]
    out32 = torch.zeros(7 * 8, dtype=torch.int32, device=dev)
    out64 = torch.zeros(8, dtype=torch.int64, device=dev)
    libdevice_bits[(1,)](torch.tensor(x32, dtype=torch.int32, device=dev),
                         torch.tensor(x64, dtype=torch.int64, device=dev), out32, out64, BLOCK=8)

    def expected(values: list[int], width: int) -> dict[str, list[int]]:
        bits = [v % (1 << width) for v in values]  # two's complement
        return {"popc": [bin(b).count("1") for b in bits],
                "clz": [width - b.bit_length() for b in bits],
                "brev": [int(format(b, f"0{width}b")[::-1], 2) for b in bits],
                "ffs": [(b & -b).bit_length() for b in bits]}
    e32, e64 = expected(x32, 32), expected(x64, 64)
    rows = out32.reshape(7, 8).tolist()
    assert rows[:4] == [e32["popc"], e32["clz"], [v - (v >> 31 << 32) for v in e32["brev"]],
                        e32["ffs"]]
    assert rows[4:] == [e64["popc"], e64["clz"], e64["ffs"]]
    assert out64.tolist() == [v - (v >> 63 << 64) for v in e64["brev"]]
