"""On-disk cache of compiled kernels.

One file per key holding a checksum line and a JSON payload. Writes go to a
temporary file in the same directory and are renamed into place (atomic on
POSIX), so concurrent processes never see a partial entry; an entry whose
checksum does not match (truncated, corrupted) is treated as a miss and
rewritten. A cache directory that cannot be written only warns.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any

_MAGIC = b"tile-cache-v1"


def default_cache_dir() -> Path:
    override = os.environ.get("TILE_CACHE_DIR")
    return Path(override) if override else Path.home() / ".cache" / "tile"


class FileCache:
    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_cache_dir()
        self._warned = False

    def path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            data = self.path(key).read_bytes()
        except OSError:
            return None
        header, _, payload = data.partition(b"\n")
        parts = header.split(b" ")
        if len(parts) != 2 or parts[0] != _MAGIC \
                or hashlib.sha256(payload).hexdigest().encode() != parts[1]:
            return None  # corrupt or truncated: recompile and overwrite
        try:
            return _decode(json.loads(payload))
        except (ValueError, KeyError):
            return None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        payload = json.dumps(_encode(entry), sort_keys=True).encode()
        data = _MAGIC + b" " + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
        target = self.path(key)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{key}.", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(temp, target)
            except BaseException:
                os.unlink(temp)
                raise
        except OSError as exc:
            if not self._warned:
                warnings.warn(f"tile: cannot write the kernel cache in {self.directory} "
                              f"({exc.strerror or exc}); kernels will be recompiled",
                              RuntimeWarning, stacklevel=3)
                self._warned = True


def _encode(entry: dict[str, Any]) -> dict[str, Any]:
    asm = dict(entry["asm"])
    asm["cubin"] = base64.b64encode(asm.get("cubin", b"")).decode()
    return {"asm": asm, "metadata": entry["metadata"]}


def _decode(payload: dict[str, Any]) -> dict[str, Any]:
    asm = dict(payload["asm"])
    asm["cubin"] = base64.b64decode(asm["cubin"])
    return {"asm": asm, "metadata": payload["metadata"]}
