"""Where libdevice and the PTX assembler come from (tile.compiler.toolchain)."""
from __future__ import annotations

from pathlib import Path

import pytest

import conftest  # noqa: F401  (import path)
from tile.compiler import toolchain


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A clean environment: no CUDA_HOME, no toolkit, no NVIDIA packages."""
    for name in ("CUDA_HOME", "CUDA_PATH", "TILE_ASSEMBLER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    monkeypatch.setattr(toolchain, "DEFAULT_TOOLKIT", tmp_path / "no-toolkit")
    monkeypatch.setattr(toolchain, "_nvidia_dirs", lambda: [])
    monkeypatch.setattr(toolchain, "_bundled_libdevice_root", lambda: tmp_path / "no-bundle")
    monkeypatch.setattr(toolchain, "_triton_dirs", lambda: [])
    monkeypatch.setattr(toolchain, "_driver_major", lambda: None)
    toolchain.clear_cache()
    yield tmp_path
    toolchain.clear_cache()


def touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"")
    path.chmod(0o755)
    return path


def fake_ptxas(path: Path, release: str) -> Path:
    """A ptxas that answers --version as NVIDIA's does."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\necho 'Cuda compilation tools, release %s, V%s.0'\n"
                    % (release, release))
    path.chmod(0o755)
    return path


def test_nothing_found_is_a_clear_error(tree):
    found = toolchain.toolchain()
    assert found.assembler == "none" and found.libdevice is None
    with pytest.raises(toolchain.ToolchainError, match="no PTX assembler found.*nvidia-nvjitlink"):
        found.require_assembler()


def test_ptxas_before_nvjitlink(tree, monkeypatch):
    """ptxas assembles a whole program, nvJitLink relocatable code (which
    spills more): a ptxas found wins; TILE_ASSEMBLER keeps one kind."""
    nvidia = tree / "site" / "nvidia"
    jit = touch(nvidia / "cu13" / "lib" / "libnvJitLink.so.13")
    touch(nvidia / "cu13" / "nvvm" / "libdevice" / "libdevice.10.bc")
    monkeypatch.setattr(toolchain, "_nvidia_dirs", lambda: [nvidia])
    toolchain.clear_cache()
    found = toolchain.toolchain()
    assert found.nvjitlink == jit and found.libdevice_root == nvidia / "cu13"
    assert found.source == "python packages"
    broken = touch(nvidia / "cuda_nvcc" / "bin" / "ptxas")  # does not run: passed over
    toolchain.clear_cache()
    assert toolchain.toolchain().nvjitlink == jit
    ptxas = fake_ptxas(broken, "12.8")
    toolchain.clear_cache()
    assert toolchain.toolchain().ptxas == ptxas
    monkeypatch.setenv("TILE_ASSEMBLER", "nvjitlink")
    assert toolchain.toolchain().nvjitlink == jit
    monkeypatch.setenv("TILE_ASSEMBLER", "gcc")
    with pytest.raises(toolchain.ToolchainError, match="TILE_ASSEMBLER='gcc'"):
        toolchain.toolchain()


def test_newest_ptxas_wins(tree, monkeypatch):
    """Of several ptxas, the newest release assembles (Triton's 12.8 over a
    12.6 wheel's); a tie keeps the order; nvJitLink only without a ptxas."""
    nvidia = tree / "site" / "nvidia"
    wheel = fake_ptxas(nvidia / "cuda_nvcc" / "bin" / "ptxas", "12.6")
    triton_ptxas = fake_ptxas(tree / "site" / "triton" / "backends" / "nvidia" / "bin" / "ptxas",
                              "12.8")
    monkeypatch.setattr(toolchain, "_nvidia_dirs", lambda: [nvidia])
    monkeypatch.setattr(toolchain, "_triton_dirs", lambda: [tree / "site" / "triton"])
    monkeypatch.setattr(toolchain, "_nvjitlink_version", lambda path: (13, 0))
    touch(nvidia / "cu13" / "lib" / "libnvJitLink.so.13")
    toolchain.clear_cache()
    found = toolchain.toolchain()
    assert found.ptxas == triton_ptxas and found.version == (12, 8), found
    assert found.source == "Triton's package" and "CUDA 12.8" in found.describe()
    fake_ptxas(wheel, "12.8")  # a tie: NVIDIA's wheel comes first
    toolchain.clear_cache()
    assert toolchain.toolchain().ptxas == wheel
    # A release newer than the driver's CUDA major version is passed over.
    fake_ptxas(wheel, "13.0")
    monkeypatch.setattr(toolchain, "_driver_major", lambda: 12)
    toolchain.clear_cache()
    assert toolchain.toolchain().ptxas == triton_ptxas
    monkeypatch.setattr(toolchain, "_driver_major", lambda: 13)
    toolchain.clear_cache()
    assert toolchain.toolchain().ptxas == wheel


def test_bundled_libdevice_comes_first(tree, monkeypatch):
    bundle = tree / "bundle"
    touch(bundle / "nvvm" / "libdevice" / "libdevice.10.bc")
    touch(tree / "no-toolkit" / "nvvm" / "libdevice" / "libdevice.10.bc")
    ptxas = fake_ptxas(tree / "no-toolkit" / "bin" / "ptxas", "13.0")
    monkeypatch.setattr(toolchain, "_bundled_libdevice_root", lambda: bundle)
    toolchain.clear_cache()
    found = toolchain.toolchain()
    assert found.libdevice_root == bundle and found.ptxas == ptxas


def test_cuda_home_wins(tree, monkeypatch):
    nvidia = tree / "site" / "nvidia"
    touch(nvidia / "cu13" / "lib" / "libnvJitLink.so.13")
    monkeypatch.setattr(toolchain, "_nvidia_dirs", lambda: [nvidia])
    home = tree / "cuda"
    ptxas = touch(home / "bin" / "ptxas")
    touch(home / "nvvm" / "libdevice" / "libdevice.10.bc")
    monkeypatch.setenv("CUDA_HOME", str(home))
    found = toolchain.toolchain()
    assert found.ptxas == ptxas and found.libdevice_root == home and found.source == "CUDA_HOME"
    monkeypatch.setenv("CUDA_HOME", str(tree / "nowhere"))
    with pytest.raises(toolchain.ToolchainError, match="CUDA_HOME=.*nowhere has no nvvm"):
        toolchain.toolchain()
