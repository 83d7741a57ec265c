"""What a build reads, and a hash of it: a target whose hash has not changed is not rebuilt.

Each target's inputs are its game's definition, its texts and example (for a book) or its
page's scripts (for a scorer), and what every target shares: pnp's own code and catalogues,
the fonts and the page templates.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from pnp.assets import FONTS, PACKAGE, current
from pnp.errors import ReadError
from pnp.outputs.targets import Target
from pnp.reading import read_path

INPUT_LIMIT = 16 * 1024 * 1024
"""Bytes an input of a build (a definition, a text, a font) may have."""


def inputs(rules_dir: Path | None = None) -> list[tuple[str, Path]]:
    """What every command reads, by name: the current edition's definitions, texts and
    templates, examples and ``pnp.toml``, the definitions of ``rules_dir`` (``--rules``)
    or ``$PNP_RULES_DIR``, and pnp's own code, catalogues and fonts. No output goes there."""
    from pnp.registry import rules_dir as default_rules

    edition = current()
    named = [("the edition's definitions", edition.rules),
             ("the edition's texts and templates", edition.templates),
             ("the edition's examples", edition.examples),
             ("the definitions folder", rules_dir or default_rules()),
             ("pnp's fonts", FONTS), ("pnp's own code", PACKAGE)]
    if edition.config:
        named.append(("the edition's settings", edition.config))
    return named


def shared_inputs() -> list[Path]:
    """The files every target is made from: pnp's code and catalogues, fonts, page templates."""
    templates = current().templates
    code = [path for path in _tree(PACKAGE) if path.relative_to(PACKAGE).parts[0] != "data"]
    return [*code, *_tree(FONTS), *sorted(templates.glob("*.css")),
            *sorted(templates.glob("*.j2"))]


def own_inputs(target: Target, rules_dir: Path) -> list[Path]:
    """The files only this target's game and language are made from (the scorer's service
    worker is pnp's own script with the game's name written in: nothing but the code)."""
    if target.document == "scorer" and target.fmt == "js":
        return []
    files = [rules_dir / f"{target.game}.yaml"]
    if target.document == "scorer":
        from pnp.scorer.page import files as page_files

        return files + page_files(target.game)
    if target.document != "sheet":
        folder = "rulebooks" if target.document == "rulebook" else "cards"
        edition = current()
        files += [edition.templates / folder / target.game / f"{target.lang}.md",
                  edition.examples / f"{target.game}.yaml"]
    return files


@functools.cache
def _tree(folder: Path) -> tuple[Path, ...]:
    return tuple(sorted(p for p in folder.rglob("*")
                        if p.is_file() and "__pycache__" not in p.parts))


@functools.cache
def _digest(path: Path, _mtime: int, _size: int) -> str:
    """The hash of one input, read as every input is (a regular file, bounded): a pipe or
    device in the rules folder is "unreadable", and the definitions check then names it."""
    if not path.exists():
        return "absent"
    try:
        return hashlib.sha256(read_path(path, INPUT_LIMIT, "an input of pnp")).hexdigest()
    except ReadError:
        return "unreadable"


def files_digest(paths: Sequence[Path]) -> str:
    """One hash of the names and contents of ``paths`` (absent files count as such)."""
    digest = hashlib.sha256()
    for path in paths:
        stat = path.stat() if path.exists() else None
        name = path.relative_to(PACKAGE) if path.is_relative_to(PACKAGE) else path
        digest.update(name.as_posix().encode())
        digest.update(_digest(path, stat.st_mtime_ns if stat else 0,
                              stat.st_size if stat else 0).encode())
    return digest.hexdigest()


def fingerprint(target: Target, rules_dir: Path, shared: str | None = None,
                seen: dict[tuple[Path, ...], str] | None = None) -> str:
    """A hash of everything ``target`` is made from, and of how it is made.

    ``shared`` is :func:`files_digest` of :func:`shared_inputs`, computed once per build;
    ``seen`` keeps the hashes of the inputs of targets fingerprinted before in the same
    build (a game's language is the input of several papers and variants).
    """
    from pnp import __version__

    shared = shared or files_digest(shared_inputs())
    digest = hashlib.sha256(f"{__version__}|{json.dumps(asdict(target))}|{shared}".encode())
    own = tuple(own_inputs(target, rules_dir))
    seen = {} if seen is None else seen
    if own not in seen:
        seen[own] = files_digest(own)
    digest.update(seen[own].encode())
    return digest.hexdigest()
