"""The on-disk cache: hits, a miss on every part of the key, corruption,
read-only directories, and processes compiling at once."""
from __future__ import annotations

import importlib.util
import linecache
import multiprocessing
import os
import sys
import time
from pathlib import Path

import pytest

import tile
from tile.compiler import capi, pipeline
from tile.compiler.cache import FileCache

KERNEL = """
import tile
import tile.language as tl
{import_helper}

@tile.jit
def copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, {expr}, mask=offs < n)
"""
HELPER = """
import tile

@tile.jit
def twice(x):
    return x * {factor}
"""


class FakeBackend:
    """Stands in for libTileCAPI.so: counts compiles, returns the IR as 'PTX'."""

    def __init__(self, delay: float = 0.0) -> None:
        self.calls = 0
        self.delay = delay

    def __call__(self, ir: str, chip: str, num_warps: int, emit_cubin: bool = True,
                 num_stages: int | None = None, line_info: bool = True,
                 fp_fusion: bool = True, reflect_ftz: bool = True,
                 maxnreg: int | None = None, libdevice: str | None = None):
        self.calls += 1
        time.sleep(self.delay)
        return capi.BackendResult(
            llir="; llvm", ptx=f"// ptx for {chip}\n{ir}", cubin=b"\x7fELF" + bytes(64),
            metadata={"chip": chip, "kernels": [{"name": "copy", "num_warps": num_warps,
                                                 "threads": 32 * num_warps, "shared_bytes": 0,
                                                 "params": []}]})


@pytest.fixture
def backend(monkeypatch: pytest.MonkeyPatch) -> FakeBackend:
    fake = FakeBackend()
    monkeypatch.setattr(capi, "compile_ir", fake)
    monkeypatch.setattr(capi, "version", lambda: "fake-compiler-1")
    # The fake stands in for the library, also where it is not built.
    monkeypatch.setattr(capi, "available", lambda: True)
    return fake


_counter = 0


def load_kernel(directory: Path, expr: str = "tl.load(x_ptr + offs, mask=offs < n)",
                helper_factor: int | None = None, name: str = "cache_kernel"):
    """Writes `name.py` (and a helper module) and imports it under a fresh module
    name, so a test can change a source and load it again."""
    global _counter
    _counter += 1
    import_helper = ""
    if helper_factor is not None:
        (directory / f"{name}_helper.py").write_text(HELPER.format(factor=helper_factor))
        sys.modules.pop(f"{name}_helper", None)
        import_helper = f"from {name}_helper import twice"
        expr = "twice(tl.load(x_ptr + offs, mask=offs < n))"
    path = directory / f"{name}.py"
    path.write_text(KERNEL.format(import_helper=import_helper, expr=expr))
    linecache.checkcache(str(path))  # inspect reads sources through linecache
    sys.path.insert(0, str(directory))
    try:
        spec = importlib.util.spec_from_file_location(f"{name}_{_counter}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(directory))
    return module.copy


SIGNATURE = {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32"}


def compile_copy(kernel, **overrides):
    options = dict(signature=SIGNATURE, constexprs={"BLOCK": 128}, target="sm_90",
                   num_warps=4)
    options.update(overrides)
    return tile.compile(kernel, **options)


def test_artifact_and_hit(tmp_path, backend, isolated_cache):
    kernel = load_kernel(tmp_path)
    first = compile_copy(kernel)
    assert set(first.asm) == {"tile", "llir", "ptx", "cubin"}
    assert first.asm["cubin"].startswith(b"\x7fELF")
    assert first.metadata["name"] == "copy" and first.metadata.threads == 128
    assert first.metadata["signature"] == SIGNATURE
    second = compile_copy(kernel)
    assert backend.calls == 1, "the second compile must be a cache hit"
    assert second.asm == first.asm and second.metadata == first.metadata
    assert any(isolated_cache.rglob("*.json"))


@pytest.mark.parametrize("change", [
    {"signature": {**SIGNATURE, "x_ptr": "*fp16"}},
    {"constexprs": {"BLOCK": 256}},
    {"target": "sm_80"},
    {"num_warps": 8},
    {"specialization": tile.Specialization(divisible_by_16=frozenset({"x_ptr"}))},
    {"specialization": tile.Specialization(equal_to_1=frozenset({"n"}))},
])
def test_miss_on_each_option(tmp_path, backend, change):
    kernel = load_kernel(tmp_path)
    compile_copy(kernel)
    compile_copy(kernel, **change)
    assert backend.calls == 2
    compile_copy(kernel, **change)
    assert backend.calls == 2


def test_miss_on_source_change(tmp_path, backend):
    compile_copy(load_kernel(tmp_path))
    compile_copy(load_kernel(tmp_path))  # the same source reloaded: same key
    assert backend.calls == 1
    compile_copy(load_kernel(tmp_path, expr="tl.load(x_ptr + offs, mask=offs < n) + 1.0"))
    assert backend.calls == 2
    compile_copy(load_kernel(tmp_path, name="moved_kernel"))  # the IR names the file
    assert backend.calls == 3


def test_miss_on_called_function_source_change(tmp_path, backend):
    compile_copy(load_kernel(tmp_path, helper_factor=2))
    compile_copy(load_kernel(tmp_path, helper_factor=2))
    assert backend.calls == 1
    compile_copy(load_kernel(tmp_path, helper_factor=3))
    assert backend.calls == 2


def test_miss_on_compiler_version(tmp_path, backend, monkeypatch):
    kernel = load_kernel(tmp_path)
    compile_copy(kernel)
    monkeypatch.setattr(capi, "version", lambda: "fake-compiler-2")
    compile_copy(kernel)
    assert backend.calls == 2


def test_corrupt_entry_is_rebuilt(tmp_path, backend, isolated_cache):
    kernel = load_kernel(tmp_path)
    good = compile_copy(kernel)
    (entry,) = isolated_cache.rglob("*.json")
    data = entry.read_bytes()
    entry.write_bytes(data[: len(data) // 2])  # truncated
    rebuilt = compile_copy(kernel)
    assert backend.calls == 2 and rebuilt.asm == good.asm
    assert entry.read_bytes() == data  # rewritten whole
    entry.write_bytes(data.replace(b"ptx for", b"PTX FOR"))  # same size, wrong checksum
    compile_copy(kernel)
    assert backend.calls == 3


def test_unwritable_cache_warns_and_compiles(tmp_path, backend, monkeypatch):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("TILE_CACHE_DIR", str(blocker / "cache"))
    kernel = load_kernel(tmp_path)
    with pytest.warns(RuntimeWarning, match="cannot write the kernel cache"):
        compiled = compile_copy(kernel)
    assert compiled.asm["ptx"].startswith("// ptx for sm_90")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="needs POSIX permissions and a non-root user")
def test_read_only_cache_dir_warns_and_compiles(tmp_path, backend, monkeypatch):
    read_only = tmp_path / "ro"
    read_only.mkdir()
    read_only.chmod(0o555)
    monkeypatch.setenv("TILE_CACHE_DIR", str(read_only))
    try:
        with pytest.warns(RuntimeWarning):
            compile_copy(load_kernel(tmp_path))
    finally:
        read_only.chmod(0o755)


def _compile_in_child(kernel, barrier, results, block: int = 128) -> None:
    try:
        barrier.wait()
        compiled = compile_copy(kernel, constexprs={"BLOCK": block})
        results.put((compiled.asm["ptx"], compiled.metadata["name"], block))
    except BaseException as exc:  # report instead of leaving the parent waiting
        results.put(("error", repr(exc)))


def _run_concurrently(tmp_path: Path, processes: int,
                      blocks: list[int] | None = None) -> list[tuple[str, str, int]]:
    context = multiprocessing.get_context("fork")  # children inherit the (fake) backend
    barrier = context.Barrier(processes)
    results = context.Queue()
    kernel = load_kernel(tmp_path)  # loaded once; forked children inherit it
    blocks = blocks or [128] * processes
    workers = [context.Process(target=_compile_in_child,
                               args=(kernel, barrier, results, blocks[i]))
               for i in range(processes)]
    for worker in workers:
        worker.start()
    outputs = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    return outputs


def test_processes_compiling_at_once(tmp_path, monkeypatch, isolated_cache):
    if not capi.available():  # the real library when built, else a slow fake
        monkeypatch.setattr(capi, "compile_ir", FakeBackend(delay=0.2))
        monkeypatch.setattr(capi, "version", lambda: "fake-compiler-1")
        monkeypatch.setattr(capi, "available", lambda: True)
    outputs = _run_concurrently(tmp_path, 4)
    assert all(ptx != "error" for ptx, _, _ in outputs), outputs
    assert len(set(outputs)) == 1, "every process must get the same kernel"
    entries = list(isolated_cache.rglob("*.json"))
    assert len(entries) == 1 and not list(isolated_cache.rglob("*.tmp"))
    assert FileCache(isolated_cache).get(entries[0].stem) is not None


def test_processes_compiling_same_and_different_kernels_at_once(tmp_path, monkeypatch,
                                                               isolated_cache):
    if not capi.available():
        monkeypatch.setattr(capi, "compile_ir", FakeBackend(delay=0.2))
        monkeypatch.setattr(capi, "version", lambda: "fake-compiler-1")
        monkeypatch.setattr(capi, "available", lambda: True)
    blocks = [64, 128, 256, 64, 128, 256]
    outputs = _run_concurrently(tmp_path, len(blocks), blocks)
    assert all(ptx != "error" for ptx, _, _ in outputs), outputs
    by_block: dict[int, set[str]] = {}
    for ptx, _, block in outputs:
        by_block.setdefault(block, set()).add(ptx)
    # Each specialization: one kernel, whoever compiled it; different ones differ.
    assert all(len(kernels) == 1 for kernels in by_block.values())
    assert len({next(iter(k)) for k in by_block.values()}) == 3
    entries = list(isolated_cache.rglob("*.json"))
    assert len(entries) == 3 and not list(isolated_cache.rglob("*.tmp"))


def _hammer(directory: str, key: str, index: int, rounds: int) -> None:
    cache = FileCache(directory)
    for round_ in range(rounds):
        cache.put(key, {"asm": {"tile": "x" * 50000, "ptx": f"{index}:{round_}",
                                "cubin": bytes([index]) * 1000}, "metadata": {}})
        entry = cache.get(key)
        assert entry is not None and len(entry["asm"]["tile"]) == 50000


def test_concurrent_writers_never_expose_partial_entries(tmp_path):
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_hammer, args=(str(tmp_path), "ab" * 32, i, 30))
               for i in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0


def test_frontend_version_is_part_of_the_key(tmp_path, backend, monkeypatch):
    kernel = load_kernel(tmp_path)
    compile_copy(kernel)
    monkeypatch.setattr(pipeline, "frontend_version", lambda: "another frontend")
    compile_copy(kernel)
    assert backend.calls == 2


def test_cache_dir_default_and_override(monkeypatch):
    monkeypatch.delenv("TILE_CACHE_DIR")
    assert FileCache().directory == Path.home() / ".cache" / "tile"
    monkeypatch.setenv("TILE_CACHE_DIR", "/some/where")
    assert FileCache().directory == Path("/some/where")




# -- what the key covers: globals, plain helpers, defaults ---------------------

GLOBAL_KERNEL = """
import os
import tile
import tile.language as tl

G = int(os.environ["TILE_TEST_G"])
SCALE = {scale}


def plain_helper(n):
    return n * {helper_factor}


@tile.jit
def copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr = {default}):
    offs = tl.arange(0, G)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs) * SCALE + plain_helper(BLOCK), mask=offs < n)
"""


def load_source(directory: Path, text: str, name: str = "global_kernel"):
    global _counter
    _counter += 1
    path = directory / f"{name}.py"
    path.write_text(text)
    linecache.checkcache(str(path))
    spec = importlib.util.spec_from_file_location(f"{name}_{_counter}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def global_kernel(directory: Path, monkeypatch, g: int = 64, scale: str = "2.0",
                  helper_factor: int = 1, default: int = 4):
    monkeypatch.setenv("TILE_TEST_G", str(g))
    return load_source(directory, GLOBAL_KERNEL.format(scale=scale, helper_factor=helper_factor,
                                                       default=default))


def compile_global(module):
    return tile.compile(module.copy, SIGNATURE, {}, target="sm_90", num_warps=4)


def test_module_global_is_part_of_the_key(tmp_path, backend, monkeypatch):
    first = compile_global(global_kernel(tmp_path, monkeypatch, g=64))
    second = compile_global(global_kernel(tmp_path, monkeypatch, g=128))
    assert backend.calls == 2, "G=128 must not hit G=64's entry"
    assert "!tile.block<64xi32>" in first.asm["ptx"]
    assert "!tile.block<128xi32>" in second.asm["ptx"]
    compile_global(global_kernel(tmp_path, monkeypatch, g=128))
    assert backend.calls == 2  # the same value again: a hit
    compile_global(global_kernel(tmp_path, monkeypatch, g=128, scale="3.0"))
    assert backend.calls == 3
    compile_global(global_kernel(tmp_path, monkeypatch, g=128, scale="3"))  # int, not float
    assert backend.calls == 4


def test_plain_helper_edit_and_default_value_change_the_key(tmp_path, backend, monkeypatch):
    compile_global(global_kernel(tmp_path, monkeypatch))
    compile_global(global_kernel(tmp_path, monkeypatch, helper_factor=2))
    assert backend.calls == 2, "an edited plain helper must not hit the old entry"
    compile_global(global_kernel(tmp_path, monkeypatch, helper_factor=2, default=8))
    assert backend.calls == 3


def test_global_changed_in_process_recompiles_at_launch(tmp_path, backend, monkeypatch):
    module = global_kernel(tmp_path, monkeypatch, g=64)
    args = (FakeArray(), FakeArray(), 16)
    first = module.copy.warmup(*args, target="sm_90")
    assert module.copy.warmup(*args, target="sm_90") is first and backend.calls == 1
    module.G = 32
    second = module.copy.warmup(*args, target="sm_90")
    assert backend.calls == 2 and "!tile.block<32xi32>" in second.asm["ptx"]


class FakeArray:
    """A device array as far as argument typing goes."""
    dtype = "float32"

    def data_ptr(self) -> int:
        return 1 << 20


def test_a_global_that_is_no_compile_time_value_is_an_error(tmp_path, backend):
    module = load_source(tmp_path, """
import tile
import tile.language as tl

SIZES = [16, 32]


@tile.jit
def copy(x_ptr, y_ptr, n):
    tl.store(y_ptr + tl.arange(0, SIZES[0]), 1.0)
""", name="list_global")
    with pytest.raises(tile.CompilationError) as info:
        tile.compile(module.copy, SIGNATURE, {}, target="sm_90")
    error = info.value
    assert error.filename.endswith("list_global.py") and error.line == 10
    assert "reads the global 'SIZES', a list" in error.message
    assert backend.calls == 0


# -- entries that are not what they claim --------------------------------------

def test_entry_copied_over_another_keys_entry_is_a_miss(tmp_path, backend, isolated_cache):
    kernel = load_kernel(tmp_path)
    compile_copy(kernel, constexprs={"BLOCK": 64})
    compile_copy(kernel, constexprs={"BLOCK": 128})
    small, large = sorted(isolated_cache.rglob("*.json"), key=lambda p: p.stat().st_mtime_ns)
    large.write_bytes(small.read_bytes())  # BLOCK=64's entry under BLOCK=128's key
    rebuilt = compile_copy(kernel, constexprs={"BLOCK": 128})
    assert backend.calls == 3 and "!tile.block<128xi32>" in rebuilt.asm["ptx"]
    assert FileCache(isolated_cache).get(large.stem) is not None  # rewritten


def test_entry_linked_to_another_keys_entry_is_a_miss(tmp_path, backend, isolated_cache):
    kernel = load_kernel(tmp_path)
    compile_copy(kernel, constexprs={"BLOCK": 64})
    compile_copy(kernel, constexprs={"BLOCK": 128})
    small, large = sorted(isolated_cache.rglob("*.json"), key=lambda p: p.stat().st_mtime_ns)
    large.unlink()
    large.symlink_to(small)
    rebuilt = compile_copy(kernel, constexprs={"BLOCK": 128})
    assert backend.calls == 3 and "!tile.block<128xi32>" in rebuilt.asm["ptx"]
    assert not large.is_symlink()  # replaced by a real entry


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")
def test_fifo_in_place_of_an_entry_does_not_block(tmp_path, backend, isolated_cache):
    import signal
    kernel = load_kernel(tmp_path)
    compile_copy(kernel)
    (entry,) = isolated_cache.rglob("*.json")
    entry.unlink()
    os.mkfifo(entry)

    def hung(*_):
        raise AssertionError("reading the cache blocked on a FIFO")
    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)
    try:
        compile_copy(kernel)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert backend.calls == 2 and entry.is_file()


def test_entry_header_names_its_key(tmp_path, backend, isolated_cache):
    compile_copy(load_kernel(tmp_path))
    (entry,) = isolated_cache.rglob("*.json")
    magic, key, checksum = entry.read_bytes().split(b"\n", 1)[0].split(b" ")
    assert magic == b"tile-cache-v2" and key.decode() == entry.stem and len(checksum) == 64
