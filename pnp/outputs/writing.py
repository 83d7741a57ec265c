"""Writing output files so that none is ever seen half-written, nor written where not asked.

Every file goes to a uniquely named temporary file beside it (``.NAME.XXXXXXXX.tmp``),
renamed into place: a reader, a concurrent writer or a build killed midway sees the old
file or the new one, never a part (and a hard link to the old file keeps the old bytes).

pnp replaces only what it made. A file a person names is written only if it is (or will
be) a regular file, and replaces only an empty file or one of the kind written (a PDF by
a PDF, :data:`KINDS`). In a build folder, :func:`clear` makes the way for pnp's own files
before they are written: what the build made (its manifest says which files) is removed
from their way, anything else is refused, never removed.
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
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from pnp.errors import OutputError

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


KINDS: dict[str, tuple[str, tuple[bytes, ...]]] = {
    "pdf": ("a PDF", (b"%PDF-",)),
    "png": ("a PNG picture", (b"\x89PNG\r\n\x1a\n",)),
    "html": ("an HTML page", (b"<!doctype html", b"<html")),
    "json": ("JSON", (b"{", b"[")),
    "webmanifest": ("a web app manifest", (b"{",)),
    "js": ("pnp's service worker", (b"// pnp scorer:",)),
}
"""What pnp writes, by kind: its name in a message, and how its files start (a text's
after a byte order mark and blanks, in any case)."""
HEAD = 64
"""Bytes of a file read to tell its kind."""


def write(path: Path, data: bytes, within: Path | None = None) -> None:
    """Write ``data`` to ``path`` through a unique temporary file renamed into place.

    A path a person gave (``within`` is None) is checked by :func:`place` (a link to a
    regular file is written through). With ``within`` (a build folder), ``path`` is pnp's
    own, its way cleared by :func:`clear`: whatever still stands there is refused (a
    folder) or renamed over (a file, a link), and nothing in its way is removed.
    """
    if within is None:
        path = place(path, kind_of(data))
    folder(path.parent)
    with _temporary(path, data) as temporary:
        os.replace(temporary, path)


def create(path: Path, data: bytes) -> bool:
    """Make the new file ``path`` holding the few bytes ``data``, unless something has
    that name already (then leave it); whether it was made. A kill in the middle may leave
    it empty: for a file whose being there is what counts (a build folder's manifest)."""
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o666)
    except FileExistsError:
        return False
    except OSError as exc:
        raise _cannot("cannot write", path, exc) from None
    try:
        os.write(handle, data)
    except OSError as exc:
        raise _cannot("cannot write", path, exc) from None
    finally:
        os.close(handle)
    return True


@contextlib.contextmanager
def _temporary(path: Path, data: bytes) -> Iterator[str]:
    """A temporary file beside ``path`` holding ``data``, to be put in place in the block
    (while it is locked: a build's :func:`clean_temporaries` leaves it), then removed."""
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
                yield temporary
        if sys.platform == "win32":  # where an open file cannot be renamed
            yield temporary
    except OSError as exc:
        raise _cannot("cannot write", path, exc) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def place(path: Path, kind: str | None = None, inputs: Sequence[tuple[str, Path]] = ()) -> Path:
    """Where :func:`write` will put a person's file ``path``, checked before any work is
    done: a regular file (or a link to one) or nothing yet, in a folder or where one can
    be made; not inside ``inputs`` (what pnp reads, named); and, if it exists, empty or of
    the ``kind`` written (:data:`KINDS`; None: any file that holds something is refused)."""
    path = _regular(path)
    check_outside(path, inputs)
    check_folder(path.parent)
    head = _head(path)
    if head and not (kind and is_kind(head, kind)):
        what = KINDS[kind][0] if kind else "empty"
        raise OutputError(f"{path}: cannot write over it: it is not {what}, and pnp replaces "
                          f"only an empty file or one of the kind it writes (name another)")
    return path


def kind_of(data: bytes) -> str | None:
    """The kind (:data:`KINDS`) of what ``data`` starts with, or None."""
    return next((kind for kind in KINDS if is_kind(data[:HEAD], kind)), None)


def is_kind(head: bytes, kind: str) -> bool:
    """Whether a file that starts with ``head`` is of ``kind``."""
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip().lower()
    return any(head.startswith(start) or text.startswith(start.lower())
               for start in KINDS[kind][1])


def check_outside(path: Path, inputs: Sequence[tuple[str, Path]]) -> None:
    """Refuse an output ``path`` that is one of ``inputs`` (what pnp reads: a name for
    people, and a file or folder) or inside one."""
    if not inputs:
        return
    try:
        real = path.resolve()
    except (OSError, RuntimeError):
        return  # a name the system cannot follow: writing it fails, and says why
    for what, given in inputs:
        where = given.resolve()
        if real == where or real.is_relative_to(where):
            place = "is" if real == where else "inside"
            raise OutputError(f"{path}: {place} {what} ({where}), which pnp reads: write "
                              f"outputs somewhere else")


def clear(out: Path, relative: Path, kind: str, own: Callable[[Path], bool]) -> None:
    """Make the way in the build folder ``out`` for pnp's file ``out/relative`` of
    ``kind``, before it is written: remove what stands in it if pnp made it, else refuse.

    ``own`` says, by path relative to ``out``, what pnp made. In the way of one of the
    file's folders, a file (or link, pipe) goes if pnp made it; at the file's place, a
    folder goes if all it holds are pnp's files and temporary files and empty folders, and
    a regular file stays (to be renamed over) if pnp made it, is empty or is of ``kind``.
    A link or a pipe there is renamed over: it holds no bytes, and what it names is left.
    """
    path = out / relative
    for step in [out.joinpath(*relative.parts[:n]) for n in range(1, len(relative.parts))]:
        try:
            if step.is_dir():
                continue
            step.lstat()
        except FileNotFoundError:
            return
        except OSError as exc:
            raise _cannot("cannot make this folder", step, exc) from None
        if not own(step.relative_to(out)):
            raise OutputError(f"{step}: in the way of pnp's folder {step.name}/, and not made "
                              f"by pnp: move it away, or build into another folder")
        _remove_own(step)
        return
    try:
        status = path.lstat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _cannot("cannot write", path, exc) from None
    if stat.S_ISDIR(status.st_mode):
        stranger = _stranger(path, out, own)
        if stranger is not None:
            raise OutputError(f"{stranger}: in the way of pnp's {relative.as_posix()}, and not "
                              f"made by pnp: move it away, or build into another folder")
        _remove_own(path)
    elif stat.S_ISREG(status.st_mode) and not own(relative):
        head = _head(path)
        if head and not is_kind(head, kind):
            raise OutputError(f"{path}: in the way of pnp's {relative.as_posix()}, and not made "
                              f"by pnp (not {KINDS[kind][0]}): move it away, or build into "
                              f"another folder")


def _stranger(top: Path, out: Path, own: Callable[[Path], bool]) -> Path | None:
    """The first entry under the folder ``top`` that pnp did not make (folders aside), if
    any: what ``own`` does not name and no pnp temporary file."""
    def unreadable(exc: OSError) -> None:
        raise exc

    try:
        for where, folders, names in os.walk(top, onerror=unreadable):
            for name in folders + names:
                entry = Path(where, name)
                if name in folders and not entry.is_symlink():
                    continue
                if not ((TEMPORARY.fullmatch(name) and stat.S_ISREG(entry.lstat().st_mode))
                        or own(entry.relative_to(out))):
                    return entry
    except OSError as exc:
        raise _cannot("cannot look inside", Path(exc.filename or top), exc) from None
    return None


def _remove_own(path: Path) -> None:
    """:func:`_remove` what :func:`clear` found to be pnp's."""
    try:
        _remove(path)
    except OSError as exc:
        raise _cannot("cannot remove", path, exc) from None


def _head(path: Path) -> bytes:
    """The first bytes of the regular file ``path`` (nothing if there is none): what
    tells its kind."""
    try:
        handle = os.open(path, os.O_RDONLY | NONBLOCK)
    except FileNotFoundError:
        return b""
    except OSError as exc:
        raise _cannot("cannot write over it: cannot read it", path, exc) from None
    try:
        return os.read(handle, HEAD)
    except OSError as exc:
        raise _cannot("cannot write over it: cannot read it", path, exc) from None
    finally:
        os.close(handle)


def check_folder(path: Path) -> None:
    """Refuse a folder ``path`` that cannot be, because it or a parent is something else."""
    blocking = _first_non_folder(path)
    if blocking is not None:
        raise OutputError(f"{blocking}: not a folder")


def folder(path: Path) -> Path:
    """Make the folder ``path`` (and its parents), refusing a file in the way."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise OutputError(f"{_first_non_folder(path) or path}: not a folder") from None
    except OSError as exc:
        raise _cannot("cannot make this folder", path, exc) from None
    return path


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


def _remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        if stat.S_ISDIR(path.lstat().st_mode):
            shutil.rmtree(path)
        else:
            path.unlink()


def _first_non_folder(path: Path) -> Path | None:
    """The first of ``path`` and its parents that exists and is not a folder."""
    for step in [*reversed(path.parents), path]:
        if (step.exists() or step.is_symlink()) and not step.is_dir():
            return step
    return None


def _lock_file(path: Path) -> int:
    """Open the lock file, replacing whatever else has its name (a link, a pipe, a folder
    of nothing but folders and temporary files); a folder that holds files is refused."""
    flags = os.O_RDWR | os.O_CREAT | NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        return os.open(path, flags, 0o666)
    except OSError:
        with contextlib.suppress(OSError):
            if stat.S_ISDIR(path.lstat().st_mode):
                clear(path.parent, Path(path.name), "json", lambda _relative: False)
            elif not stat.S_ISREG(path.lstat().st_mode):
                path.unlink()
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
