"""The target a JIT compile, `tile.compile(..., target=None)` and
`triton.runtime.driver.active.get_current_target()` take: the current device's
chip; sm_90 when there is no GPU (no driver library, or no device); and the
launch path's clear error on a GPU tile cannot compile for. Against the fake
libcuda of gpu/tests (a Fake H200 9.0, A100 8.0 and T4 7.5, chosen with
CUDA_VISIBLE_DEVICES), in a subprocess per case: the driver is loaded once
per process."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, python_env, requires_library

FAKE_SOURCE = REPO / "gpu" / "tests" / "fake_libcuda.c"

PROBE = r"""
import json, sys
import tile
import tile.language as tl
from tile.runtime import driver

@tile.jit
def k(p):
    tl.store(p, 1.0)

result = {}
try:
    result["target"] = list(driver.active.get_current_target())
except Exception as exc:
    result["target_error"] = [type(exc).__name__, str(exc)]
try:
    compiled = tile.compile(k, "*fp32", target=None, emit_cubin=False)
    result["chip"] = compiled.metadata["chip"]
except Exception as exc:
    result["compile_error"] = [type(exc).__name__, str(exc)]
print(json.dumps(result))
"""


@pytest.fixture(scope="module")
def fake_libcuda(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("needs a C compiler to build gpu/tests/fake_libcuda.c")
    library = tmp_path_factory.mktemp("fake_cuda") / "libcuda.so.1"
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", str(library), str(FAKE_SOURCE)],
                   check=True)
    return library


def probe(libcuda: Path, visible: str | None, tmp_path: Path) -> dict:
    env = python_env()
    env["TILE_LIBCUDA"] = str(libcuda)
    env["TILE_CACHE_DIR"] = str(tmp_path / "cache")
    env.pop("CUDA_VISIBLE_DEVICES", None)
    env.pop("TILE_OVERRIDE_ARCH", None)
    if visible is not None:
        env["CUDA_VISIBLE_DEVICES"] = visible
    script = tmp_path / "probe.py"  # (a @tile.jit function is read from its file)
    script.write_text(PROBE)
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@requires_library
@pytest.mark.parametrize("visible, chip, arch", [("0", "sm_90a", 90), ("1", "sm_80", 80)])
def test_the_target_is_the_current_devices_chip(fake_libcuda: Path, tmp_path: Path,
                                                visible: str, chip: str, arch: int) -> None:
    found = probe(fake_libcuda, visible, tmp_path)
    assert found == {"target": ["cuda", arch, 32], "chip": chip}


def test_a_device_tile_cannot_target_is_the_launch_paths_error(fake_libcuda: Path,
                                                               tmp_path: Path) -> None:
    found = probe(fake_libcuda, "2", tmp_path)  # the Fake T4, compute capability 7.5
    expected = ("cuda:0 (Fake T4) has compute capability 7.5 (sm_75), which tile cannot "
                "compile for; supported: ")
    for key in ("target_error", "compile_error"):
        name, message = found[key]
        assert name == "DriverError" and message.startswith(expected), found
    # The launch path's error is the same one (tile.driver.target of the device).
    env_probe = r"""
import tile.driver as d
try:
    d.target(0)
except d.DriverError as exc:
    print(exc)
"""
    env = python_env()
    env.update(TILE_LIBCUDA=str(fake_libcuda), CUDA_VISIBLE_DEVICES="2")
    done = subprocess.run([sys.executable, "-c", env_probe], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.stdout.strip() == found["target_error"][1]


@requires_library
@pytest.mark.parametrize("how", ["no device", "no driver"])
def test_without_a_gpu_the_target_is_sm_90(fake_libcuda: Path, tmp_path: Path,
                                           how: str) -> None:
    library = fake_libcuda if how == "no device" else tmp_path / "missing" / "libcuda.so.1"
    found = probe(library, "" if how == "no device" else None, tmp_path)
    assert found == {"target": ["cuda", 90, 32], "chip": "sm_90"}


LOAD_PROBE = r"""
import ctypes, json, os
from tile import driver
from tile.runtime.errors import OutOfResources

def meta(name, shared, threads=128):
    return {"chip": "sm_90", "kernels": [{"name": name, "num_warps": threads // 32,
            "threads": threads, "shared_bytes": shared, "params": []}]}

found = []
fake = ctypes.CDLL(os.environ["TILE_LIBCUDA"])
for name, shared, max_threads in (("huge", 300 * 1024, 1024), ("wide", 0, 64)):
    fake.fake_set_func_max_threads(max_threads)
    try:
        driver.load_module(b"x", meta(name, shared)).kernel(name)
    except OutOfResources as exc:
        found.append([type(exc).__name__, exc.required, exc.limit, exc.name,
                      isinstance(exc, driver.LaunchError), str(exc)])
print(json.dumps(found))
"""


def test_loading_a_kernel_over_the_devices_limits_is_out_of_resources(
        fake_libcuda: Path, tmp_path: Path) -> None:
    env = python_env()
    env.update(TILE_LIBCUDA=str(fake_libcuda), CUDA_VISIBLE_DEVICES="0",
               TILE_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", LOAD_PROBE], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    shared, threads = json.loads(done.stdout.strip().splitlines()[-1])
    assert shared[:5] == ["LaunchOutOfResources", 307200, 232448, "shared memory", True]
    assert "kernel 'huge' needs 307200 bytes of shared memory, but Fake H200 allows 232448" \
        in shared[5]
    assert threads[:5] == ["LaunchOutOfResources", 128, 64, "threads", True]
    assert "kernel 'wide' needs 128 threads per block" in threads[5]
