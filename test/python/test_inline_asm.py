"""tl.inline_asm_elementwise: the IR, the PTX (the user's asm, operands packed),
the errors for misuse, and the interpreter's refusal."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import assert_error_at_case, check_order, requires_library, verify

import tile
import tile.language as tl

THIS_FILE = Path(__file__).resolve()


@tile.jit
def asm_kernel(x_ptr, out_ptr, PACK: tl.constexpr, WARPS_ELEMENTS: tl.constexpr):
    offs = tl.arange(0, WARPS_ELEMENTS)
    x = tl.load(x_ptr + offs)  # uint8
    y = tl.inline_asm_elementwise("and.b32 $0, $1, 0x1F1F1F1F;", "=r,r", [x],
                                  dtype=tl.uint8, is_pure=True, pack=PACK)
    tl.store(out_ptr + offs, y)


def test_the_asm_op_carries_the_text_and_pack() -> None:
    ir = verify(tile.generate_ir(asm_kernel, "*u8,*u8", {"PACK": 4, "WARPS_ELEMENTS": 512}))
    line = next(line for line in ir.splitlines() if "tile.inline_asm" in line)
    assert '"and.b32 $0, $1, 0x1F1F1F1F;", "=r,r"' in line
    assert "{pack = 4 : i32, pure}" in line
    assert "(!tile.block<512xi8>) -> !tile.block<512xi8>" in line


@requires_library
def test_bytes_travel_packed_in_32_bit_registers() -> None:
    ptx = tile.compile(asm_kernel, "*u8,*u8", {"PACK": 4, "WARPS_ELEMENTS": 512},
                       emit_cubin=False).asm["ptx"]
    # 512 bytes over 128 threads: 4 per thread, one asm on one b32.
    assert ptx.count("and.b32") == 1
    assert "0x1F1F1F1F" in ptx


@requires_library
def test_the_layout_gives_each_thread_whole_packs() -> None:
    # 128 elements over 128 threads would be 1 per thread: the asm's layout
    # gives 4 to each of 32 threads instead (the other threads hold copies).
    ptx = tile.compile(asm_kernel, "*u8,*u8", {"PACK": 4, "WARPS_ELEMENTS": 128},
                       emit_cubin=False).asm["ptx"]
    assert ptx.count("0x1F1F1F1F") == 1


@tile.jit
def misuse(x_ptr, WHAT: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    if WHAT == "pack":
        tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32,
                                  is_pure=True, pack=0)
    if WHAT == "no_result":
        tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=(), is_pure=True,
                                  pack=1)
    if WHAT == "bool":
        tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x > 0], dtype=tl.int32,
                                  is_pure=True, pack=1)
    if WHAT == "scalar_pack":
        tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x_ptr.to(tl.int64)],
                                  dtype=tl.int64, is_pure=True, pack=2)


MISUSES = [
    ("pack", "tl.inline_asm_elementwise: pack must be a positive int, got 0"),
    ("no_result", "tl.inline_asm_elementwise needs at least one result dtype"),
    ("bool", "tl.inline_asm_elementwise takes and gives numbers, not int1"),
    ("scalar_pack", "scalars are one element: pack must be 1, got 2"),
]


@pytest.mark.parametrize("what, message", MISUSES, ids=[m[0] for m in MISUSES])
def test_misuse_is_a_located_error(what: str, message: str) -> None:
    with pytest.raises(tile.CompilationError) as info:
        tile.generate_ir(misuse, "*i32", {"WHAT": what})
    assert_error_at_case(info.value, THIS_FILE, what, message)


def test_the_interpreter_says_it_cannot_run_ptx(monkeypatch: pytest.MonkeyPatch) -> None:
    np = pytest.importorskip("numpy", reason="the interpreter needs NumPy")
    from tile.interpreter import InterpreterError
    monkeypatch.setenv("TILE_INTERPRET", "1")
    with pytest.raises(InterpreterError, match="the interpreter cannot run it"):
        asm_kernel[(1,)](np.zeros(16, np.uint8), np.zeros(16, np.uint8), PACK=4,
                         WARPS_ELEMENTS=16)


@tile.jit
def sm_and_time(out_ptr, time_ptr, get_smid: tl.constexpr):
    start = tl.extra.cuda.globaltimer()
    tl.store(out_ptr + tl.program_id(0), get_smid())
    tl.store(time_ptr, tl.extra.cuda.globaltimer() - start)


@requires_library
def test_special_registers_of_extra_cuda():
    # Passed as a constexpr, as Triton's test_smid does; each is one scalar.
    kernel = tile.compile(sm_and_time, "*i32,*i64", {"get_smid": tl.extra.cuda.smid},
                          emit_cubin=False)
    ir, ptx = kernel.asm["tile"], kernel.asm["ptx"]
    assert ir.count('"mov.u32 $0, %smid;", "=r" {pack = 1 : i32, pure}') == 1
    # The timer is not pure: its two reads stay two, in order around the store.
    reads = [line for line in ir.splitlines() if "%globaltimer" in line]
    assert len(reads) == 2 and all("pure" not in line for line in reads)
    check_order(ir, "%globaltimer", "%smid", "tile.store", "%globaltimer")
    assert "%smid;" in ptx and "%globaltimer;" in ptx


def test_special_registers_take_no_arguments():
    @tile.jit
    def wrong(out_ptr):
        tl.store(out_ptr, tl.extra.cuda.smid(1))

    with pytest.raises(tile.CompilationError, match="smid"):
        tile.generate_ir(wrong, "*i32")
