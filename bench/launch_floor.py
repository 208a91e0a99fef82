"""bench/launch_floor.c in this process: built with the machine's C compiler
as a shared library and loaded, after torch has made the device's primary
context current (the caller's job), so that the driver's own floor is timed
beside the Python launchers on the same host at the same time."""
from __future__ import annotations

import ctypes
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "launch_floor.c"


def load() -> ctypes.CDLL | str:
    """The library, or why there is none (no C compiler, a failed build)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return "no C compiler on this machine"
    library = Path(tempfile.mkdtemp(prefix="launch-floor-")) / "liblaunch_floor.so"
    built = subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-DLAUNCH_FLOOR_LIBRARY",
                            "-o", str(library), str(SOURCE), "-ldl"],
                           capture_output=True, text=True)
    if built.returncode != 0:
        return f"{compiler} could not build {SOURCE.name}: {built.stderr.strip()}"
    lib = ctypes.CDLL(str(library))
    lib.launch_floor_us.restype = ctypes.c_double
    lib.launch_floor_us.argtypes = [ctypes.c_int]
    return lib


class DriverFloor:
    """bench/run.py's launch row for C: `cuLaunchKernel` of a like kernel
    with its arguments packed once, timed in C as run.py times each backend
    (`launches` launches and a synchronize, after 50 warm-up launches)."""

    def __init__(self, lib: ctypes.CDLL) -> None:
        self.lib = lib

    def per_launch_us(self, launches: int, repeats: int) -> float:
        """Median over `repeats` of the microseconds per launch of
        `launches` launches and the synchronize after them, after 50 warm-up
        launches (run.launch_overhead_us, in C)."""
        self.lib.launch_floor_us(50)  # a failure here fails every call after it
        samples = [self.lib.launch_floor_us(launches) for _ in range(repeats)]
        if min(samples) < 0:
            raise RuntimeError("launch_floor_us failed (its message is on stderr)")
        return statistics.median(samples)

    def verify(self) -> None:
        """Raises unless every launch so far ran (each adds 1 to the kernel's
        array)."""
        if self.lib.launch_floor_verify() != 0:
            raise RuntimeError("launch_floor: the C launches did not all run")
