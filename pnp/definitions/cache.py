"""A cache of validated definitions on disk, so that a command starts without validating.

Validating a definition builds pydantic's schemas first, which costs more than the rest of
a ``pnp score`` run. A validated definition is therefore pickled under a key that hashes
the file's bytes with everything that changes what validation produces: the game, pnp's
version, the source of ``pnp/definitions/*.py``, pydantic's and Python's versions.
Unpickling a model only sets its fields; it needs no schema.

The folder is ``$PNP_CACHE_DIR``, else ``$XDG_CACHE_HOME/pnp``, else ``~/.cache/pnp``.
Only files that are ours and that no one else may write are read; each carries its key
and the hash of its contents, so a stale, corrupt or truncated file is never used. Any
failure, reading or writing, counts as a miss: the cache never changes a result and
never raises. At most :data:`LIMIT` files are kept.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import re
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pnp.games import GAMES

LIMIT = 32
"""Files kept in the cache folder; the oldest written go first."""

HEADER = 64
"""Each file starts with its key and the SHA-256 of the pickle that follows."""

NAME = re.compile(rf"\.?(?:{'|'.join(GAMES)})-[0-9a-f]{{64}}\.pickle(?:\..+\.tmp)?")
"""The names of cache files and of their temporary files, the only files pruned."""

T = TypeVar("T")


def folder() -> Path | None:
    """Where cached definitions live (``None`` when there is no home to find it in)."""
    if env := os.environ.get("PNP_CACHE_DIR"):
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "pnp"
    try:
        return Path.home() / ".cache" / "pnp"
    except (RuntimeError, KeyError):
        return None


def key(game: str, content: bytes) -> bytes:
    """The cache key of ``game``'s definition file whose bytes are ``content``."""
    digest = hashlib.sha256(_environment())
    digest.update(game.encode() + b"\0")
    digest.update(content)
    return digest.digest()


@functools.cache
def _environment() -> bytes:
    import pydantic
    import pydantic_core

    import pnp

    digest = hashlib.sha256()
    for part in (pnp.__version__, pydantic.VERSION, pydantic_core.__version__, sys.version,
                 sys.implementation.cache_tag or ""):
        digest.update(part.encode() + b"\0")
    for path in sorted(Path(__file__).parent.glob("*.py")):
        source = path.read_bytes()
        digest.update(f"{path.name}\0{len(source)}\0".encode() + source)
    return digest.digest()


def read(game: str, cache_key: bytes, model: type[T]) -> T | None:
    """The definition cached under ``cache_key`` if it is there and sound, else ``None``."""
    try:
        where = folder()
        if where is None or not _trusted(os.stat(where), stat.S_ISDIR):
            return None
        fd = os.open(where / _name(game, cache_key), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with open(fd, "rb") as handle:
            if not _trusted(os.fstat(handle.fileno()), stat.S_ISREG):
                return None
            data = handle.read()
        if (len(data) <= HEADER or data[:32] != cache_key
                or hashlib.sha256(data[HEADER:]).digest() != data[32:HEADER]):
            return None
        value = pickle.loads(data[HEADER:])
    except Exception:
        return None
    return value if type(value) is model else None


def write(game: str, cache_key: bytes, value: object) -> None:
    """Cache ``value`` under ``cache_key``, quietly doing nothing when that fails."""
    try:
        where = folder()
        if where is None:
            return
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        where.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _trusted(os.stat(where), stat.S_ISDIR):
            return
        import tempfile

        name = _name(game, cache_key)
        fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=where)
        try:
            with open(fd, "wb") as handle:
                handle.write(cache_key + hashlib.sha256(payload).digest() + payload)
            os.replace(temporary, where / name)
        except BaseException:
            os.unlink(temporary)
            raise
        _prune(where)
    except Exception:
        return


def _name(game: str, cache_key: bytes) -> str:
    return f"{game}-{cache_key.hex()}.pickle"


def _trusted(status: os.stat_result, kind: Callable[[int], bool]) -> bool:
    """Of the ``kind`` expected, ours, and writable by no one else."""
    uid = getattr(os, "getuid", None)
    return (kind(status.st_mode) and (uid is None or status.st_uid == uid())
            and not status.st_mode & 0o022)


def _prune(where: Path) -> None:
    entries = []
    with os.scandir(where) as scan:
        for entry in scan:
            if NAME.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                entries.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.path))
    for _, path in sorted(entries, reverse=True)[LIMIT:]:
        with contextlib.suppress(OSError):
            os.unlink(path)
