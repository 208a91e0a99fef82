"""gpu/ab_wheels.sh without a GPU: two stand-in wheels of a package named
`tile` (each says which it is), one command under both, taking turns; each
wheel's runs import it from their own folder with their own kernel cache."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "gpu" / "ab_wheels.sh"
# What each run prints: the wheel it imported and the cache it was given.
PROBE = ("import os, tile; "
         "print('probe', tile.NAME, tile.__file__, os.environ['TILE_CACHE_DIR'])")


def make_wheel(folder: Path, name: str) -> Path:
    """A minimal pure-Python wheel of `tile` whose NAME is `name`."""
    folder.mkdir(parents=True)
    wheel = folder / "tile-0.0.1-py3-none-any.whl"
    info = "tile-0.0.1.dist-info"
    files = {
        "tile/__init__.py": f"NAME = {name!r}\n",
        f"{info}/METADATA": "Metadata-Version: 2.1\nName: tile\nVersion: 0.0.1\n",
        f"{info}/WHEEL": ("Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                          "Tag: py3-none-any\n"),
    }
    files[f"{info}/RECORD"] = "".join(f"{path},,\n" for path in [*files, f"{info}/RECORD"])
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


def run_ab(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, OUT=str(tmp_path / "out"), TMPDIR=str(tmp_path),
               # install-wheel.sh runs `python3 -m pip`: this interpreter's.
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          env=env, timeout=300)


@pytest.fixture
def wheels(tmp_path: Path) -> list[Path]:
    if subprocess.run([sys.executable, "-m", "pip", "--version"],
                      capture_output=True).returncode != 0:
        pytest.skip("this interpreter has no pip; install-wheel.sh installs with it")
    return [make_wheel(tmp_path / name, name) for name in ("first", "second")]


def probe(log: Path) -> tuple[str, str, str]:
    found = re.search(r"^probe (\S+) (\S+) (\S+)$", log.read_text(), re.M)
    assert found, log.read_text()
    return found.group(1), found.group(2), found.group(3)


def test_wheels_take_turns_each_in_its_own_site(tmp_path: Path, wheels: list[Path]) -> None:
    result = run_ab(tmp_path, "-r", "2", *map(str, wheels), "--", "python3", "-c", PROBE)
    assert result.returncode == 0, result.stdout + result.stderr
    out = tmp_path / "out"
    runs = {(n, r): probe(out / f"ab-{n}-{r}.log") for n in (1, 2) for r in (1, 2)}
    for r in (1, 2):
        assert runs[(1, r)][0] == "first" and runs[(2, r)][0] == "second"
    # One site and one cache per wheel, kept over the rounds.
    for n in (1, 2):
        assert runs[(n, 1)][1:] == runs[(n, 2)][1:]
    assert runs[(1, 1)][1] != runs[(2, 1)][1] and runs[(1, 1)][2] != runs[(2, 1)][2]
    for n in (1, 2):
        assert runs[(n, 1)][2].startswith(str(Path(runs[(n, 1)][1]).parents[1]))
    # Round 1 in list order, round 2 reversed.
    order = re.findall(r"^== round (\d), wheel (\d): exit 0$", result.stdout, re.M)
    assert order == [("1", "1"), ("1", "2"), ("2", "2"), ("2", "1")], result.stdout
    listed = (out / "ab.txt").read_text().splitlines()
    assert [line.split(":")[0] for line in listed] == ["1", "2"]
    assert str(wheels[0]) in listed[0] and str(wheels[1]) in listed[1]


def test_a_failing_command_fails_the_run(tmp_path: Path, wheels: list[Path]) -> None:
    result = run_ab(tmp_path, *map(str, wheels), "--", "python3", "-c", "raise SystemExit(3)")
    assert result.returncode == 1
    assert "wheel 1: exit 3" in result.stdout and "wheel 2: exit 3" in result.stdout


def test_missing_wheel_and_usage(tmp_path: Path, wheels: list[Path]) -> None:
    missing = run_ab(tmp_path, str(wheels[0]), str(tmp_path / "absent.whl"), "--", "true")
    assert missing.returncode == 2
    assert "absent.whl" in missing.stdout + missing.stderr
    assert not (tmp_path / "out" / "ab-1-1.log").exists()  # nothing ran
    usage = run_ab(tmp_path, str(wheels[0]))
    assert usage.returncode == 2 and "usage:" in usage.stderr
