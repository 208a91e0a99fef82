"""`tile.knobs` (Triton's `triton.knobs`) and the `arch=` launch option
whose default `runtime.override_arch` sets: each knob is its environment
variable, a knob that changes code recompiles, and a knob tile lacks is an
error, not a setting that does nothing."""
from __future__ import annotations

import os

import pytest

from test_compile import FakeTensor, backend  # noqa: F401 - the recording backend fixture

import tile
import tile.language as tl
from tile import knobs


@pytest.fixture(autouse=True)
def restore_knobs():
    with knobs.scope():
        yield


@tile.jit
def mul_add(data):
    ptrs = data + tl.arange(0, 128)
    tl.store(ptrs, tl.load(ptrs) * 1.5 + 1.0)


def test_knobs_are_their_environment_variables(monkeypatch):
    monkeypatch.delenv("TILE_OVERRIDE_ARCH", raising=False)
    assert knobs.runtime.override_arch is None
    knobs.runtime.override_arch = "sm80"
    assert os.environ["TILE_OVERRIDE_ARCH"] == "sm80"
    knobs.runtime.debug = True
    assert os.environ["TILE_DEBUG"] == "1" and knobs.runtime.debug
    monkeypatch.setenv("TILE_CACHE_DIR", "/tmp/elsewhere")
    assert knobs.cache.dir == "/tmp/elsewhere"
    del knobs.runtime.override_arch
    assert "TILE_OVERRIDE_ARCH" not in os.environ
    knobs.runtime.reset()
    assert "TILE_DEBUG" not in os.environ or os.environ["TILE_DEBUG"] != "1"


def test_scope_restores_what_was_set_inside():
    before = os.environ.get("TILE_OVERRIDE_ARCH")
    with knobs.runtime.scope():
        knobs.runtime.override_arch = "sm86"
        assert knobs.runtime.override_arch == "sm86"
    assert os.environ.get("TILE_OVERRIDE_ARCH") == before


def test_knobs_tile_lacks_are_errors():
    with pytest.raises(AttributeError, match="tile has no knob compilation.instrumentation_mode \\(its compilation knobs: disable_line_info, tma\\)"):
        knobs.compilation.instrumentation_mode = "consan"
    with pytest.raises(AttributeError, match="tile has no knob runtime.jit_cache_hook"):
        knobs.runtime.jit_cache_hook
    with pytest.raises(AttributeError, match="read-only"):
        knobs.nvidia.ptxas = "/bin/true"
    with pytest.raises(TypeError, match="is a bool"):
        knobs.runtime.interpret = "yes"
    assert knobs.nvidia.nvdisasm.path is None or knobs.nvidia.nvdisasm.path.endswith("nvdisasm")


def test_arch_picks_the_chip(backend):  # noqa: F811
    chips = []
    for arch in ("sm80", "sm_86", "sm90"):
        chips.append(mul_add.warmup(FakeTensor(1 << 20, "float32"), grid=(1,), arch=arch).metadata.target)
    assert chips == ["sm_80", "sm_86", "sm_90a"]
    with pytest.raises(ValueError, match="arch must name a chip tile compiles for"):
        mul_add.warmup(FakeTensor(1 << 20, "float32"), grid=(1,), arch="sm70")


def test_override_arch_recompiles_kernels_already_compiled(backend):  # noqa: F811
    first = mul_add.warmup(FakeTensor(1 << 20, "float32"), grid=(1,))
    knobs.runtime.override_arch = "sm89"
    again = mul_add.warmup(FakeTensor(1 << 20, "float32"), grid=(1,))
    assert again.metadata.target == "sm_89" != first.metadata.target
    with pytest.raises(ValueError, match="num_ctas > 1 requires NVIDIA SM90"):
        knobs.runtime.override_arch = "sm80"
        mul_add.warmup(FakeTensor(1 << 20, "float32"), grid=(1,), num_ctas=2)


def test_line_info_fp_fusion_and_reflect_ftz_reach_the_compile_and_recompile(backend):  # noqa: F811
    x = FakeTensor(1 << 20, "float32")
    knobs.language.default_fp_fusion = False
    mul_add.warmup(x, grid=(1,))
    assert backend.flags[-1] == (True, False, True)  # line info: Triton's default
    # The launch option wins over the knob's default.
    mul_add.warmup(x, grid=(1,), enable_fp_fusion=True)
    assert backend.flags[-1] == (True, True, True)
    calls = len(backend.calls)
    mul_add.warmup(x, grid=(1,), enable_fp_fusion=True)
    assert len(backend.calls) == calls  # memoized with its flags
    knobs.language.reset()
    knobs.compilation.disable_line_info = True
    mul_add.warmup(x, grid=(1,))
    assert backend.flags[-1] == (False, True, True)
    mul_add.warmup(x, grid=(1,), enable_fp_fusion=False)
    assert backend.flags[-1] == (False, False, True)
    with pytest.raises(TypeError, match="enable_fp_fusion is True or False, got 0"):
        mul_add.warmup(x, grid=(1,), enable_fp_fusion=0)
    knobs.compilation.reset()
    tile.compile(mul_add, "*fp32", options={"enable_fp_fusion": False}, target="sm_80")
    assert backend.flags[-1] == (True, False, True)
    calls = len(backend.calls)
    mul_add.warmup(x, grid=(1,), enable_reflect_ftz=False)
    assert backend.flags[-1] == (True, True, False) and len(backend.calls) == calls + 1


def test_maxnreg_reaches_the_compile_from_launches_configs_and_options(backend):  # noqa: F811
    x = FakeTensor(1 << 20, "float32")
    mul_add.warmup(x, grid=(1,), num_warps=2)  # compiled anew here: no earlier test asks it
    assert backend.register_limits[-1] is None
    mul_add.warmup(x, grid=(1,), maxnreg=42)
    assert backend.register_limits[-1] == 42
    calls = len(backend.calls)
    mul_add.warmup(x, grid=(1,), maxnreg=42)
    assert len(backend.calls) == calls  # memoized with its limit
    tile.compile(mul_add, "*fp32", options={"maxnreg": 64}, target="sm_80")
    assert backend.register_limits[-1] == 64
    config = tile.Config({}, num_warps=4, maxnreg=128)
    assert config.all_kwargs()["maxnreg"] == 128 and "maxnreg: 128" in repr(config)
    assert "maxnreg" not in tile.Config({}).all_kwargs()
    for bad, error, message in [(0, ValueError, "maxnreg must be from 1 to 255 registers "
                                                "per thread, got 0"),
                                (256, ValueError, "got 256"),
                                (True, TypeError, "maxnreg must be an int, got True")]:
        with pytest.raises(error, match=message):
            mul_add.warmup(x, grid=(1,), maxnreg=bad)
        with pytest.raises(error, match=message):
            tile.Config({}, maxnreg=bad)


def test_extern_libs_names_the_libdevice_the_compile_links(backend, tmp_path):  # noqa: F811
    x = FakeTensor(1 << 20, "float32")
    copy = tmp_path / "libdevice.10.bc"
    copy.write_bytes(b"BC")  # the fake backend does not read it
    mul_add.warmup(x, grid=(1,), maxnreg=200)  # compiled anew here: no earlier test asks it
    assert backend.libdevices[-1] is None
    mul_add.warmup(x, grid=(1,), extern_libs={"libdevice": str(copy)})
    assert backend.libdevices[-1] == str(copy)
    tile.compile(mul_add, "*fp32", options={"extern_libs": {"libdevice": copy}},
                 target="sm_80")
    assert backend.libdevices[-1] == str(copy)
    for bad, error, message in [
            ({"libdevice": str(tmp_path / "none.bc")}, ValueError,
             "extern_libs: the libdevice .*none.bc does not exist or is not a file"),
            ({"ocml": "ocml.bc"}, ValueError, "tile links only libdevice .* not ocml"),
            ("libdevice.bc", TypeError, "extern_libs is a dict of library name to bitcode path")]:
        with pytest.raises(error, match=message):
            mul_add.warmup(x, grid=(1,), extern_libs=bad)

