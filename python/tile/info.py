"""`python -m tile.info`: what this installation of tile uses.

The compile library, the PTX assembler and libdevice it found, and the GPUs
the driver sees with the chip tile compiles for on each.
"""
from __future__ import annotations

import sys

import tile
from tile.compiler import capi, toolchain


def main() -> int:
    print(f"tile {tile.__version__} ({tile.__file__})")
    print(f"compile library: {capi.library_path()} "
          f"({'found' if capi.available() else 'MISSING'})")
    try:
        print(toolchain.toolchain().describe())
    except toolchain.ToolchainError as exc:
        print(f"toolchain: {exc}")
    from tile import driver
    try:
        count = driver.device_count()
    except driver.DriverError as exc:
        print(f"GPUs: none usable ({exc})")
        return 0
    for ordinal in range(count):
        dev = driver.device(ordinal)
        try:
            target = dev.target
        except driver.DriverError as exc:
            target = f"not supported: {exc}"
        print(f"cuda:{ordinal}: {dev.name}, compute capability "
              f"{dev.capability[0]}.{dev.capability[1]}, target {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
