"""Writing output files so that none is ever seen half-written, nor written where not asked.

Every file goes to a uniquely named temporary file beside it (``.NAME.XXXXXXXX.tmp``),
renamed into place: a reader, a concurrent writer or a build killed midway sees the old
file or the new one, never a part. A file a person names is written only if it is (or will
be) a regular file; pnp's own files inside a build folder replace whatever is in their way.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from pnp.errors import PnpError

if sys.platform != "win32":
    import fcntl

TEMPORARY = re.compile(r"\..+\.(?:pdf|html|png|json)\.(?:[a-z0-9_]{8}\.)?tmp")
"""pnp's temporary names: ``.NAME.XXXXXXXX.tmp`` (and ``.NAME.tmp``, from earlier pnp)."""
LOCK = ".pnp-build.lock"
"""The file in a build folder whose lock one build at a time holds."""

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)
"""Opening flags: never through a link, never waiting on a pipe (where the system has them)."""

_held: set[str] = set()
"""The folders whose lock this process holds (a build's nested calls take it once)."""


class OutputError(PnpError):
    """A file or folder that pnp was told to write and cannot, or must not."""


def write(path: Path, data: bytes, within: Path | None = None) -> None:
    """Write ``data`` to ``path`` through a unique temporary file renamed into place.

    A path a person gave (``within`` is None) must be, or become, a regular file: an
    existing device, pipe, folder or link to one is refused, and a link to a regular
    file is written through. With ``within`` (a build folder), ``path`` is pnp's own: a
    folder or file in its way below ``within`` is removed.
    """
    if within is None:
        path = place(path)
    else:
        _clear(path)
    folder(path.parent, within)
    name = path.name if len(path.name) < 200 else path.name[:200]
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise _cannot("cannot write", path, exc) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            if sys.platform != "win32":
                fcntl.flock(handle, fcntl.LOCK_EX)  # in use: not stale (clean_temporaries)
                os.fchmod(handle.fileno(), 0o666 & ~_umask())
            handle.write(data)
            handle.flush()
            if sys.platform != "win32":
                os.replace(temporary, path)
        if sys.platform == "win32":  # where an open file cannot be renamed
            os.replace(temporary, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise _cannot("cannot write", path, exc) from None
        raise


def place(path: Path) -> Path:
    """Where :func:`write` will put a person's file ``path``, checked before any work is
    done: a regular file (or a link to one) or nothing yet, in a folder or where one can
    be made."""
    path = _regular(path)
    check_folder(path.parent)
    return path


def check_folder(path: Path) -> None:
    """Refuse a folder ``path`` that cannot be, because it or a parent is something else."""
    blocking = _first_non_folder(path, None)
    if blocking is not None:
        raise OutputError(f"{blocking}: not a folder")


def folder(path: Path, within: Path | None = None) -> Path:
    """Make the folder ``path`` (and its parents), refusing a file in the way.

    With ``within``, anything but a folder in the way below ``within`` is removed instead
    (by this worker or, at the same moment, another: then the next try finds the folder).
    """
    for _ in range(3):
        try:
            path.mkdir(parents=True, exist_ok=True)
            return path
        except (FileExistsError, NotADirectoryError):
            blocking = _first_non_folder(path, within)
            if within is None:
                raise OutputError(f"{blocking or path}: not a folder") from None
            if blocking is not None:
                _remove(blocking)
        except OSError as exc:
            raise _cannot("cannot make this folder", path, exc) from None
    raise OutputError(f"{path}: cannot make this folder: something keeps replacing it")


def writable_folder(path: Path) -> Path:
    """:func:`folder`, then proof that a file can be written in it (before long work)."""
    folder(path)
    try:
        fd, probe = tempfile.mkstemp(prefix=".pnp-probe.json.", suffix=".tmp", dir=path)
    except OSError as exc:
        raise _cannot("cannot write in this folder", path, exc) from None
    os.close(fd)
    os.unlink(probe)
    return path


@contextlib.contextmanager
def locked(path: Path, waiting: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the lock of the folder ``path`` (:data:`LOCK` inside it) while in the block.

    Another process holding it is waited for; ``waiting`` is called once when that
    happens. Nested calls in one process take it once. Where ``fcntl`` is missing
    (Windows) there is no lock.
    """
    key = str(path.resolve())
    if key in _held or sys.platform == "win32":
        yield
        return
    folder(path)
    handle = _lock_file(path / LOCK)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting:
                waiting()
            fcntl.flock(handle, fcntl.LOCK_EX)
        _held.add(key)
        try:
            yield
        finally:
            _held.discard(key)
    finally:
        os.close(handle)


def clean_temporaries(path: Path) -> list[Path]:
    """Remove pnp's temporary files under ``path`` left by killed processes; return them.

    A temporary file still being written is locked by its writer and kept.
    """
    removed = []
    for top, _folders, names in os.walk(path):
        for name in names:
            if not TEMPORARY.fullmatch(name):
                continue
            candidate = Path(top, name)
            try:
                if not stat.S_ISREG(candidate.lstat().st_mode):
                    continue
                handle = os.open(candidate, os.O_RDONLY | NOFOLLOW | NONBLOCK)
            except OSError:
                continue
            try:
                if sys.platform != "win32":
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                candidate.unlink()
                removed.append(candidate)
            except OSError:
                continue
            finally:
                os.close(handle)
    return removed


def read_own(path: Path, limit: int = 16 * 1024 * 1024) -> bytes | None:
    """The bytes of pnp's own file ``path`` (a manifest, a built file), or None unless it
    is a regular file, not a link, of at most ``limit`` bytes: whatever else is there
    cannot be trusted, and is rebuilt."""
    try:
        handle = os.open(path, os.O_RDONLY | NOFOLLOW | NONBLOCK)
    except OSError:
        return None
    try:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode) or status.st_size > limit:
            return None
        with os.fdopen(handle, "rb", closefd=False) as reader:
            return reader.read(status.st_size + 1)
    except OSError:
        return None
    finally:
        os.close(handle)


def _regular(path: Path) -> Path:
    """``path``, or the regular file its link names: where a person's file may be written."""
    if not path.name or path.name in (".", ".."):
        raise OutputError(f"{path}: not a file name")
    try:
        status = path.lstat()
    except (FileNotFoundError, NotADirectoryError):
        return path
    except OSError as exc:
        raise _cannot("cannot write", path, exc) from None
    if stat.S_ISLNK(status.st_mode):
        try:
            real = path.resolve(strict=True)
        except (OSError, RuntimeError):
            raise OutputError(f"{path}: a link to nothing; name a file instead") from None
        if not real.is_file():
            raise OutputError(f"{path}: a link to {real}, which is not a regular file")
        return real
    if stat.S_ISDIR(status.st_mode):
        raise OutputError(f"{path}: a folder; name a file inside it")
    if not stat.S_ISREG(status.st_mode):
        raise OutputError(f"{path}: not a regular file (a device, pipe or socket); "
                          f"name a file instead")
    return path


def _clear(path: Path) -> None:
    """Remove a folder where pnp's own file ``path`` goes (any other entry is renamed over)."""
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        if stat.S_ISDIR(path.lstat().st_mode):
            _remove(path)


def _remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        if stat.S_ISDIR(path.lstat().st_mode):
            shutil.rmtree(path)
        else:
            path.unlink()


def _first_non_folder(path: Path, within: Path | None) -> Path | None:
    """The first of ``path`` and its parents (below ``within``, if given) that exists and
    is not a folder."""
    chain = [*reversed(path.parents), path]
    if within is not None:
        chain = [p for p in chain if p != within and p.is_relative_to(within)]
    for step in chain:
        if (step.exists() or step.is_symlink()) and not step.is_dir():
            return step
    return None


def _lock_file(path: Path) -> int:
    """Open the lock file, replacing whatever else (a folder, a link) has its name."""
    flags = os.O_RDWR | os.O_CREAT | NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        return os.open(path, flags, 0o666)
    except OSError:
        with contextlib.suppress(OSError):
            if not stat.S_ISREG(path.lstat().st_mode):
                _remove(path)
    try:
        return os.open(path, flags, 0o666)
    except OSError as exc:
        raise _cannot("cannot lock this folder", path.parent, exc) from None


def _cannot(what: str, path: Path, exc: OSError) -> OutputError:
    """``path: cannot write: Permission denied``: what failed and the system's reason."""
    return OutputError(f"{path}: {what}: {exc.strerror or type(exc).__name__}")


@functools.cache
def _umask() -> int:
    """The process's file mode mask (read once: setting it is the only way to read it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
