"""A build folder and its manifest, ``<out>/.pnp-build.json``: what pnp made there, and
from what.

- **Only its own**: a build folder is one with a manifest (:func:`claim`); pnp builds into
  a new or empty one (a lone ``.gitkeep`` counts as empty) and marks it so at once, and
  refuses any other, or one inside what it reads (:func:`check_out`). In a build folder,
  what stands in the way of an output and was not made by pnp is refused, never removed
  (:func:`clear_way`).
- **Self-repairing**: state that cannot be read or trusted (a manifest entry of the wrong
  shape, an output whose size or SHA-256 no longer matches, a temporary file left by a
  killed build) means "rebuild", never a failure.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pnp.build.fingerprint import inputs
from pnp.errors import OutputError
from pnp.i18n.languages import codes
from pnp.outputs.targets import Target, thumbnail
from pnp.outputs.writing import (
    LOCK,
    TEMPORARY,
    check_outside,
    clear,
    create,
    folder,
    read_own,
    write,
)
from pnp.preflight import Finding, checker, from_record, sound_record
from pnp.registry import GAMES

MANIFEST = ".pnp-build.json"
PLAN_CACHE = ".pnp-plan.json"
"""Each game's sheet kinds, kept for the plan (:func:`pnp.build.plan.cached_kinds`)."""
SKIPPED = (".gitkeep", LOCK, PLAN_CACHE)
"""What a folder may hold and still be empty to :func:`check_out`: the file that keeps an
empty folder in git, and what a build writes before its manifest (or wrote, before pnp
wrote the manifest first)."""
OUTPUT_NAME = re.compile(r"[a-z0-9][a-z0-9-]*\.(?:pdf|html|js|webmanifest)")
SHA256 = re.compile(r"[0-9a-f]{64}")
MAX_FINDINGS = 100_000
"""Findings a manifest entry may keep (a deck today has a few thousand)."""

Manifest = dict[str, dict[str, Any]]
"""Each built file's entry, by its path relative to the build folder."""


def check_out(out: Path, rules_dir: Path | None = None) -> None:
    """Refuse to build into ``out``, before anything is written, unless it is a build
    folder (:func:`claim`), new or empty, and outside what pnp reads
    (:func:`pnp.build.fingerprint.inputs`)."""
    check_outside(out, inputs(rules_dir))
    if not os.path.lexists(out / MANIFEST) and not _empty(out):
        raise OutputError(f"{out}: holds files and is not a pnp build folder (it has no "
                          f"{MANIFEST}): build into a new or empty folder")


def _empty(out: Path) -> bool:
    """Whether ``out`` holds nothing but what :data:`SKIPPED` names and temporary files
    (or is no folder that can be listed: what makes it, or writes in it, says why)."""
    try:
        with os.scandir(out) as entries:
            return all(entry.name in SKIPPED or TEMPORARY.fullmatch(entry.name)
                       for entry in entries)
    except OSError:
        return True


def claim(out: Path, rules_dir: Path | None = None) -> None:
    """:func:`check_out`, then make ``out`` a build folder if it is not one: give it a
    manifest with no entries, before any other file, so that a build killed at once
    leaves a folder the next one recognises (under the folder's lock)."""
    check_out(out, rules_dir)
    mark(out)


def fresh(out: Path) -> bool:
    """Whether ``out`` is new or empty, and no build folder yet."""
    return not os.path.lexists(out / MANIFEST) and _empty(out)


def mark(out: Path) -> None:
    """Make ``out`` a build folder, unless it is one: a new or empty folder a command
    writes its file into by default (``pnp sheet``, into ./output/) becomes one, which a
    later ``pnp build`` may use."""
    folder(out)
    create(out / MANIFEST, manifest_bytes({}))


def clear_way(out: Path, targets: Sequence[Target], recorded: bytes | None) -> None:
    """:func:`pnp.outputs.writing.clear` the way of what a build writes: the files of
    ``targets`` and their thumbnails, the manifest and the index; ``recorded`` is the
    manifest's bytes, which say what pnp made."""
    made = own(recorded)
    files = [(Path(MANIFEST), "json"), (Path("index.html"), "html")]
    for target in targets:
        files.append((target.relative, target.fmt))
        if target.fmt == "pdf":
            files.append((thumbnail(target.relative), "png"))
    for relative, kind in files:
        clear(out, relative, kind, made)


def own(recorded: bytes | None) -> Callable[[Path], bool]:
    """What pnp made in a build folder, by path relative to it: the build folder's own
    files, the files its manifest (``recorded``) names, whatever their entries hold, and
    their thumbnails."""
    try:
        data = json.loads(recorded or b"null")
    except (ValueError, RecursionError):
        data = None
    made = {Path(name) for name in (MANIFEST, PLAN_CACHE, LOCK)}
    for key in data if isinstance(data, dict) else ():
        relative = Path(key)
        if (key and not relative.is_absolute() and "\\" not in key
                and all(part not in (".", "..") for part in key.split("/"))):
            made |= {relative, thumbnail(relative)}
    return made.__contains__


def intact(out: Path, target: Target, entry: dict[str, Any]) -> bool:
    """Whether ``target``'s file is still the one the manifest's ``entry`` records: a
    regular file of its size and SHA-256 (one truncated or replaced from outside is
    rebuilt), with its thumbnail if it is a PDF."""
    data = read_own(out / target.relative, entry["size"])
    if data is None or len(data) != entry["size"]:
        return False
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        return False
    if target.fmt != "pdf":
        return True
    with contextlib.suppress(OSError):
        return stat.S_ISREG((out / thumbnail(target.relative)).lstat().st_mode)
    return False


def read_manifest(out: Path) -> tuple[Manifest, bytes | None]:
    """The manifest's sound entries, and its bytes: an unreadable manifest, or an entry of
    another shape, is left out, and its files are rebuilt."""
    recorded = read_own(out / MANIFEST)
    try:
        data = json.loads(recorded or b"null")
    except (ValueError, RecursionError):
        return {}, recorded
    if not isinstance(data, dict):
        return {}, recorded
    return {key: entry for key, entry in data.items() if _sound_entry(key, entry)}, recorded


def _sound_entry(key: str, entry: Any) -> bool:
    """Whether a manifest entry is one :func:`pnp.build.incremental.build` writes:
    ``game/lang/name`` with the fingerprint, size, pages and SHA-256 of the file, and the
    preflight's findings with what measured them (nothing, for an HTML page)."""
    parts = key.split("/")
    return (len(parts) == 3 and parts[0] in GAMES and parts[1] in codes()
            and OUTPUT_NAME.fullmatch(parts[2]) is not None
            and isinstance(entry, dict)
            and set(entry) == {"hash", "size", "pages", "sha256", "checker", "findings"}
            and all(isinstance(entry[name], str) and SHA256.fullmatch(entry[name])
                    for name in ("hash", "sha256"))
            and all(type(entry[name]) is int and 0 <= entry[name] < 2 ** 48
                    for name in ("size", "pages"))
            and isinstance(entry["checker"], str)
            and (entry["checker"] == "" or SHA256.fullmatch(entry["checker"]) is not None)
            and isinstance(entry["findings"], list) and len(entry["findings"]) <= MAX_FINDINGS
            and all(sound_record(kept) for kept in entry["findings"]))


def checker_of(target: Target) -> str:
    """What measures ``target``'s findings: the preflight, for a PDF; nothing for a page."""
    return checker() if target.fmt == "pdf" else ""


def kept_findings(path: Path, entry: dict[str, Any]) -> tuple[Finding, ...]:
    """The findings a manifest ``entry`` keeps for the file at ``path``."""
    return tuple(from_record(str(path), kept) for kept in entry["findings"])


def recorded(out: Path) -> dict[Path, tuple[str, tuple[Finding, ...]]]:
    """The findings the build in ``out`` keeps, by file (its resolved path): the SHA-256
    of the bytes they were measured on, and the findings, if today's preflight measured
    them."""
    manifest, _ = read_manifest(out)
    return {(out / key).resolve(): (entry["sha256"], kept_findings(out / key, entry))
            for key, entry in manifest.items() if entry["checker"] == checker()}


def manifest_bytes(manifest: Manifest) -> bytes:
    return json.dumps(manifest, indent=1, sort_keys=True).encode()


def write_manifest(out: Path, manifest: Manifest) -> None:
    write(out / MANIFEST, manifest_bytes(manifest), within=out)
