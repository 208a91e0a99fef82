"""Compiles kernels through the installed wheel: what the wheel was found to
use, that libdevice got linked, that no LLVM/MLIR library was loaded.

    python scripts/wheel-smoke.py          # from any venv with the wheel installed
Exit status 0 when all holds; prints what it used.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TILE_CACHE_DIR", tempfile.mkdtemp(prefix="tile-smoke-"))

import tile  # noqa: E402
import tile.language as tl  # noqa: E402
from tile.compiler import capi, toolchain  # noqa: E402


@tile.jit
def sine(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.sin(tl.load(x_ptr + offs, mask=mask)), mask=mask)


def main() -> int:
    print("tile:", Path(tile.__file__).parent)
    print("compile library:", capi.library_path())
    print(toolchain.toolchain().describe())
    for chip in ("sm_80", "sm_86", "sm_89", "sm_90a"):
        k = tile.compile(sine, "*fp64,*fp64,i32", {"BLOCK": 256}, target=chip)
        # f64 sin is libdevice's __nv_sin: called in the LLVM IR, linked by the PTX.
        assert "__nv_sin" in k.asm["llir"] and "__nv_sin" not in k.asm["ptx"], chip
        assert f".target {chip}" in k.asm["ptx"], chip
        assert k.asm["cubin"][:4] == b"\x7fELF", chip
        print(f"{chip}: ptx {len(k.asm['ptx'])} B, cubin {len(k.asm['cubin'])} B, "
              f"assembler {k.metadata['assembler']}")
    maps = Path("/proc/self/maps").read_text()
    loaded = sorted({line.split()[-1] for line in maps.splitlines()
                     if "libLLVM" in line or "libMLIR" in line})
    assert not loaded, f"LLVM/MLIR libraries were loaded: {loaded}"
    print("no libLLVM/libMLIR loaded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
