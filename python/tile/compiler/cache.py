"""On-disk cache of compiled kernels.

One file per key: a header line `tile-cache-v2 <key> <sha256>` and a JSON
payload, where the checksum covers the key and the payload. An entry thus
names its own key: one copied or linked over another key's file is a miss,
as is a truncated or corrupted one (it is recompiled and rewritten). Entries
are opened without following links and without blocking, and only regular
files are read, so a FIFO or device in the cache directory cannot hang a
compile. Writes go to a temporary file in the same directory and are renamed
into place (atomic on POSIX), so concurrent processes never see a partial
entry. A cache directory that cannot be written only warns.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import stat
import tempfile
import warnings
from pathlib import Path
from typing import Any

_MAGIC = b"tile-cache-v2"
_KEY = re.compile(r"[0-9a-f]{64}")
# No entry is this large (cubins are megabytes): a bigger file is not ours.
_MAX_ENTRY_BYTES = 1 << 30


def default_cache_dir() -> Path:
    """`TILE_CACHE_DIR` (tile.knobs.cache.dir), else ~/.cache/tile."""
    from .. import knobs
    return Path(knobs.cache.dir)


def _checksum(key: str, payload: bytes) -> bytes:
    return hashlib.sha256(key.encode() + b"\n" + payload).hexdigest().encode()


def _read_regular_file(path: Path) -> bytes | None:
    """The bytes of `path` if it is a regular file (not a link, FIFO, device
    or directory), read without blocking; None otherwise."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) \
        | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_ENTRY_BYTES:
            return None
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)


class FileCache:
    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_cache_dir()
        self._warned = False

    def path(self, key: str) -> Path:
        if not _KEY.fullmatch(key):
            raise ValueError(f"not a cache key: {key!r}")
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The compiled kernel (asm, metadata) stored under `key`, or None."""
        payload = self.get_json(key)
        try:
            return None if payload is None else _decode(payload)
        except (ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        self.put_json(key, _encode(entry))

    def get_json(self, key: str) -> Any:
        """The JSON value stored under `key` (a kernel, an autotuning result),
        or None: missing, another key's, corrupt or truncated."""
        data = _read_regular_file(self.path(key))
        if data is None:
            return None
        header, _, payload = data.partition(b"\n")
        parts = header.split(b" ")
        if len(parts) != 3 or parts[0] != _MAGIC or parts[1] != key.encode() \
                or parts[2] != _checksum(key, payload):
            return None  # another key's entry, corrupt or truncated: recompute
        try:
            return json.loads(payload)
        except ValueError:
            return None

    def put_json(self, key: str, value: Any) -> None:
        payload = json.dumps(value, sort_keys=True).encode()
        data = b" ".join([_MAGIC, key.encode(), _checksum(key, payload)]) + b"\n" + payload
        target = self.path(key)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{key}.", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(temp, target)  # also replaces a link or FIFO left there
            except BaseException:
                os.unlink(temp)
                raise
        except OSError as exc:
            if not self._warned:
                warnings.warn(f"tile: cannot write the kernel cache in {self.directory} "
                              f"({exc.strerror or exc}); kernels will be recompiled (and "
                              "autotuning results measured again)",
                              RuntimeWarning, stacklevel=3)
                self._warned = True


def _encode(entry: dict[str, Any]) -> dict[str, Any]:
    asm = dict(entry["asm"])
    asm["cubin"] = asm.get("cubin", b"")
    for name in _BINARY_ASM & asm.keys():
        asm[name] = base64.b64encode(asm[name]).decode()
    return {"asm": asm, "metadata": entry["metadata"]}


def _decode(payload: dict[str, Any]) -> dict[str, Any]:
    asm = dict(payload["asm"])
    if "cubin" not in asm:
        raise KeyError("cubin")  # not a kernel entry: get() recomputes
    for name in _BINARY_ASM & asm.keys():
        asm[name] = base64.b64decode(asm[name])
    return {"asm": asm, "metadata": payload["metadata"]}


# The asm entries that are bytes (stored as base64 in the JSON).
_BINARY_ASM = frozenset({"cubin", "cubin_without_limit"})
