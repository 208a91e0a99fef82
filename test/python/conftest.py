"""Shared helpers: import path, tile-opt verification, the compile library."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# TILE_TEST_INSTALLED=1 tests the installed package (CI installs the wheel);
# otherwise the checkout's python/ comes first.
INSTALLED = os.environ.get("TILE_TEST_INSTALLED") == "1"
if not INSTALLED:
    sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import tile  # noqa: E402
from tile.compiler import capi  # noqa: E402

if INSTALLED and Path(tile.__file__).resolve().is_relative_to(REPO / "python"):
    raise RuntimeError(f"TILE_TEST_INSTALLED=1 but tile comes from the checkout ({tile.__file__})")


def python_env() -> dict[str, str]:
    """The environment for a Python subprocess that imports the same tile."""
    if INSTALLED:
        return dict(os.environ)
    return dict(os.environ, PYTHONPATH=str(REPO / "python"))


def tile_opt_path() -> Path:
    return Path(os.environ.get("TILE_OPT", REPO / "build" / "bin" / "tile-opt"))


requires_tile_opt = pytest.mark.skipif(
    not tile_opt_path().is_file(),
    reason=f"tile-opt not built ({tile_opt_path()}); set TILE_OPT or build the project")

requires_library = pytest.mark.skipif(
    not capi.available(),
    reason=f"compile library not built ({capi.library_path()}); set TILE_LIBRARY or build it")


def run_tile_opt(ir: str, *passes: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(tile_opt_path()), *passes, "-"], input=ir,
                          capture_output=True, text=True, timeout=120)


def verify(ir: str) -> str:
    """Asserts that tile-opt parses, verifies, canonicalizes and inlines the IR."""
    if not tile_opt_path().is_file():
        return ir  # structural checks still run; tile-opt checks need the build
    result = run_tile_opt(ir, "--canonicalize", "--inline")
    assert result.returncode == 0, f"tile-opt rejected the IR:\n{result.stderr}\n{ir}"
    return result.stdout


def check_order(text: str, *patterns: str) -> None:
    """FileCheck-like: each pattern occurs, in this order."""
    position = 0
    for pattern in patterns:
        found = text.find(pattern, position)
        assert found >= 0, f"expected {pattern!r} after offset {position} in:\n{text}"
        position = found + len(pattern)


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own kernel cache directory."""
    cache = tmp_path / "tile-cache"
    monkeypatch.setenv("TILE_CACHE_DIR", str(cache))
    return cache


def marked_line(path: Path, marker: str) -> int:
    """The line of `path` ending with the comment `# marker`."""
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        if line.rstrip().endswith(f"# {marker}"):
            return number
    raise AssertionError(f"no line marked {marker} in {path}")


def assert_error_at(error: Exception, path: Path, marker: str, snippet: str | None = None) -> None:
    """`error` is a CompilationError at the marked line of `path` (and at the
    column of `snippet` there, if given), shown with the line and a caret."""
    line = marked_line(path, marker)
    assert getattr(error, "filename", None) == str(path), str(error)
    assert error.line == line, str(error)  # type: ignore[attr-defined]
    text = str(error)
    assert text.startswith(f"{path}:{line}:"), text
    if snippet is not None:
        source_line = Path(path).read_text().splitlines()[line - 1]
        assert error.col == source_line.index(snippet) + 1, text  # type: ignore[attr-defined]
        assert text.splitlines()[1] == source_line


def line_after_case(path: Path, what: str) -> int:
    """The line after `if WHAT == "<what>":` in `path`: a kernel's faulty use,
    one per case of a parametrized error test."""
    lines = path.read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if f'WHAT == "{what}":' in line) + 1


def assert_error_at_case(error: Exception, path: Path, what: str, message: str) -> None:
    """`error` (a CompilationError or InterpreterError) says `message` at case
    `what`'s use in `path`."""
    assert message in str(error)
    assert (error.filename, error.line) == (str(path), line_after_case(path, what))
