"""A cache of validated definitions on disk, so that a command starts without validating.

Validating a definition imports pydantic and builds its schemas, which costs more than the
rest of a ``pnp score`` run. A validated definition is therefore pickled under a key that
hashes the file's bytes with everything that changes what validation produces: the game,
pnp's version, the source of ``pnp/definitions/*.py``, pydantic's and pydantic-core's
versions (found without importing them) and Python's. Unpickling a definition only sets
the fields of plain dataclasses: a warm cache imports no pydantic at all.

The folder is ``$PNP_CACHE_DIR``, else ``$XDG_CACHE_HOME/pnp``, else ``~/.cache/pnp``.
Only files that are ours and that no one else may write are read; each carries its key
and the hash of its contents, so a stale, corrupt or truncated file is never used. Any
failure, reading or writing, counts as a miss: the cache never changes a result and
never raises. At most :data:`LIMIT` files are kept.

The bundled definitions also come validated with the package, in :data:`SHIPPED` (written
when pnp is built, see :mod:`pnp.definitions.shipping`), so that a first run validates
nothing either. Their key leaves out pydantic and Python, which the build's may differ
from: what they hold is plain dataclasses of pnp's own, which either reads the same.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import re
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pnp import version
from pnp.registry import GAMES

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python without hashlib's own BLAKE2
    from hashlib import blake2b

LIMIT = 32
"""Files kept in the cache folder; the oldest written go first."""

SHIPPED = Path(__file__).parent / "shipped"
"""The bundled definitions as validated when pnp was built, ``<game>.pickle``."""

HEADER = 64
"""Each file starts with its key and the hash of the pickle that follows, 32 bytes each."""

NAME = rf"\.?(?:{'|'.join(GAMES)})-[0-9a-f]{{64}}\.pickle(?:\..+\.tmp)?"
"""The names of cache files and of their temporary files, the only files pruned (compiled
when first pruning, by :mod:`re`'s cache)."""

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


def digest(*parts: bytes) -> bytes:
    """The 32-byte BLAKE2b hash of ``parts`` one after the other.

    Taken from ``_blake2``, the module ``hashlib`` itself wraps: importing ``hashlib``
    loads OpenSSL first, some 3 ms of every ``pnp score``.
    """
    hasher = blake2b(digest_size=32)
    for part in parts:
        hasher.update(part)
    return hasher.digest()


def key(game: str, content: bytes) -> bytes:
    """The cache key of ``game``'s definition file whose bytes are ``content``."""
    return digest(_environment(), game.encode() + b"\0", content)


def shipped_key(game: str, content: bytes) -> bytes:
    """The key of ``game``'s definition, whose bytes are ``content``, in :data:`SHIPPED`."""
    return digest(f"{version.VERSION}\0".encode(), _sources(), game.encode() + b"\0", content)


@functools.cache
def _environment() -> bytes:
    """The hash of everything besides the file that changes what validation produces."""
    parts = [f"{part}\0".encode() for part in (
        version.VERSION, sys.version, sys.implementation.cache_tag or "", _validator())]
    return digest(*parts, _sources())


@functools.cache
def _sources() -> bytes:
    """The hash of the code that validates."""
    parts = []
    for path in _definition_sources():
        source = path.read_bytes()
        parts.append(f"{path.name}\0{len(source)}\0".encode() + source)
    return digest(*parts)


def _definition_sources() -> list[Path]:
    """The code that validates: this folder's and each game's ``definition.py`` (listed
    without :meth:`Path.glob`, whose patterns cost more to compile than the files to read)."""
    here = Path(__file__).parent
    return sorted([*(here / name for name in os.listdir(here) if name.endswith(".py")),
                   *(here.parent / "games" / game / "definition.py" for game in GAMES)])


def _validator() -> str:
    """Pydantic's and pydantic-core's versions, found without importing them (which is what
    the cache saves): pydantic's ``version.py``, which names pydantic's version and the one
    pydantic-core it runs with, and the name, size and time of pydantic-core's compiled
    module, in case that was changed on its own."""
    try:
        source = (_package("pydantic") / "version.py").read_text(encoding="utf-8")
        compiled = [f"{p.name} {p.stat().st_size} {p.stat().st_mtime_ns}"
                    for p in sorted(_package("pydantic_core").glob("_pydantic_core.*"))]
    except Exception:
        return "pydantic not found"
    return "\0".join([source, *compiled])


def _package(name: str) -> Path:
    import importlib.util

    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(name)
    return Path(next(iter(spec.submodule_search_locations)))


def read(game: str, cache_key: bytes, model: type[T]) -> T | None:
    """The definition cached under ``cache_key`` if it is there and sound, else ``None``."""
    try:
        where = folder()
        if where is None or not _trusted(os.stat(where), stat.S_ISDIR):
            return None
    except Exception:
        return None
    return _read(where / _name(game, cache_key), cache_key, model, _trusted)


def read_shipped(game: str, content: bytes, model: type[T]) -> T | None:
    """``game``'s definition from :data:`SHIPPED` if its bytes were ``content``, else ``None``."""
    return _read(SHIPPED / f"{game}.pickle", shipped_key(game, content), model, _packaged)


def _read(path: Path, cache_key: bytes, model: type[T],
          trusted: Callable[[os.stat_result, Callable[[int], bool]], bool]) -> T | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with open(fd, "rb") as handle:
            if not trusted(os.fstat(handle.fileno()), stat.S_ISREG):
                return None
            data = handle.read()
        if (len(data) <= HEADER or data[:32] != cache_key
                or digest(data[HEADER:]) != data[32:HEADER]):
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
        where.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _trusted(os.stat(where), stat.S_ISDIR):
            return
        _write(where / _name(game, cache_key), cache_key, value)
        _prune(where)
    except Exception:
        return


def ship(where: Path, game: str, content: bytes, value: object) -> Path:
    """Write ``value``, ``game``'s definition validated from ``content``, as it is shipped
    in :data:`SHIPPED` (``where``, in the package being built)."""
    where.mkdir(parents=True, exist_ok=True)
    path = where / f"{game}.pickle"
    _write(path, shipped_key(game, content), value)
    path.chmod(0o644)
    return path


def _write(path: Path, cache_key: bytes, value: object) -> None:
    """Write ``value`` under ``cache_key`` at ``path``, whole or not at all."""
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    import tempfile

    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with open(fd, "wb") as handle:
            handle.write(cache_key + digest(payload) + payload)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _name(game: str, cache_key: bytes) -> str:
    return f"{game}-{cache_key.hex()}.pickle"


def _trusted(status: os.stat_result, kind: Callable[[int], bool]) -> bool:
    """Of the ``kind`` expected, ours, and writable by no one else."""
    uid = getattr(os, "getuid", None)
    return (kind(status.st_mode) and (uid is None or status.st_uid == uid())
            and not status.st_mode & 0o022)


def _packaged(status: os.stat_result, kind: Callable[[int], bool]) -> bool:
    """Of the ``kind`` expected, owned by whoever owns pnp's code (an installation made by
    another user, such as root, is theirs), and writable by no one else."""
    return (kind(status.st_mode) and status.st_uid == os.stat(__file__).st_uid
            and not status.st_mode & 0o022)


def _prune(where: Path) -> None:
    entries = []
    with os.scandir(where) as scan:
        for entry in scan:
            if re.fullmatch(NAME, entry.name) and entry.is_file(follow_symlinks=False):
                entries.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.path))
    for _, path in sorted(entries, reverse=True)[LIMIT:]:
        with contextlib.suppress(OSError):
            os.unlink(path)
