"""Prebuilt artifacts: a machine with the compiler exports kernels
(TILE_EXPORT_DIR); a machine without it (a GPU box without LLVM) loads them
(TILE_PREBUILT_DIR) by a key that leaves out the compiler build and the
checkout's directory."""
from __future__ import annotations

from pathlib import Path

import pytest

import tile
import tile.language as tl
from tile.compiler import capi

pytestmark = pytest.mark.skipif(not capi.available(), reason="needs build/lib/libTileCAPI.so")


@tile.jit
def scale(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


def test_export_then_load_without_compiler(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TILE_EXPORT_DIR", str(tmp_path / "prebuilt"))
    built = tile.compile(scale, "*fp32,i32", {"BLOCK": 256})
    assert any((tmp_path / "prebuilt").rglob("*")), "nothing was exported"

    monkeypatch.delenv("TILE_EXPORT_DIR")
    monkeypatch.setenv("TILE_LIBRARY", str(tmp_path / "no-such-library.so"))
    assert not capi.available()
    monkeypatch.setenv("TILE_PREBUILT_DIR", str(tmp_path / "prebuilt"))
    loaded = tile.compile(scale, "*fp32,i32", {"BLOCK": 256})
    assert loaded.asm["cubin"] == built.asm["cubin"]
    assert loaded.metadata["threads"] == built.metadata["threads"]

    # Another specialization was never exported: a clear error, not a crash.
    with pytest.raises(capi.CompilerUnavailableError, match="no prebuilt artifact"):
        tile.compile(scale, "*fp32,i32", {"BLOCK": 512})


def test_missing_prebuilt_dir_is_explained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILE_LIBRARY", str(tmp_path / "no-such-library.so"))
    monkeypatch.delenv("TILE_PREBUILT_DIR", raising=False)
    with pytest.raises(capi.CompilerUnavailableError, match="TILE_PREBUILT_DIR is not set"):
        tile.compile(scale, "*fp32,i32", {"BLOCK": 256})
