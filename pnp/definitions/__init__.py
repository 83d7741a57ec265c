"""Game definitions: ``rules/<game>.yaml`` read into typed, frozen objects.

>>> load("qwinto").players.max
6
>>> from pnp.games.qwinto.definition import Definition
>>> load("qwinto", model=Definition).scoring.failed_throw_penalty
5
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar, overload

from pnp import registry
from pnp.assets import Edition, current
from pnp.assets import shown as _shown
from pnp.definitions import cache
from pnp.definitions.base import GameInfo, Text
from pnp.definitions.source import decode_text, line_of, load_with_lines, read_bytes
from pnp.errors import DefinitionError, Problem, YamlSyntaxError
from pnp.reading import Where
from pnp.registry import GAMES, check_game, rules_dir

__all__ = ["GAMES", "Check", "check_game", "load", "load_file", "locate", "model_of", "rules_dir",
           "validate_all"]

D = TypeVar("D", bound=GameInfo)
"""A game's own definition class."""


def model_of(game: str) -> type[GameInfo]:
    """The definition class of ``game``."""
    return registry.game(game).definition()


@overload
def load(game: str, directory: Path | None = None) -> GameInfo: ...


@overload
def load(game: str, directory: Path | None = None, *, model: type[D]) -> D: ...


def load(game: str, directory: Path | None = None, *,
         model: type[GameInfo] = GameInfo) -> GameInfo:
    """Load and validate ``game``'s definition from ``directory`` (default :func:`rules_dir`).

    A file loaded before in this process, and unchanged since, is not read again (see
    :func:`_unchanged`; one ``os.stat`` per call tells); one that validated before is read
    from :mod:`pnp.definitions.cache`. ``model`` is the game's own definition class, for a
    caller that knows the game: the definition comes typed as one (and is refused if it is
    not).
    """
    path = _path(game, directory)
    try:
        status = os.stat(path)
    except OSError:
        status = None
    known = _LOADED.get(path)
    if known is not None and status is not None and known[0] == _unchanged(status):
        definition = known[1]
    else:
        definition = _read(Path(path), game, status)
    if not isinstance(definition, model):
        raise TypeError(f"the {game} definition is not a {model.__module__}.{model.__name__}")
    return definition


def _path(game: str, directory: Path | None) -> str:
    """The file of ``game``'s definition in ``directory``, else in :func:`rules_dir`, which
    is resolved again only when ``$PNP_RULES_DIR`` or the current edition is another."""
    global _FOLDER
    if directory is not None:
        return os.path.join(directory, f"{check_game(game)}.yaml")
    variable, edition = os.environ.get("PNP_RULES_DIR"), current()
    if _FOLDER[0] != variable or _FOLDER[1] is not edition:
        _FOLDER = (variable, edition, {})
    paths = _FOLDER[2]
    path = paths.get(game)
    if path is None:
        path = paths[game] = os.path.join(rules_dir(), f"{check_game(game)}.yaml")
    return path


_FOLDER: tuple[str | None, Edition | None, dict[str, str]] = (None, None, {})
"""What :func:`rules_dir` was resolved for last (``$PNP_RULES_DIR`` and the current
edition) and the definitions' files found in it, by game."""


RACY = 2_000_000_000
"""Nanoseconds within which a file's times may not tell two versions apart: a file's clock
ticks coarsely (some milliseconds; two seconds on FAT), so one written again in the same
tick may keep its size and times. A file changed this recently is read on every load."""

KEPT = 32
"""Definition files whose definitions this process keeps; the first loaded go first."""

_LOADED: dict[str, tuple[tuple[int, ...], GameInfo]] = {}
"""Definitions loaded in this process, by file, with what :func:`_unchanged` saw of it."""


def _unchanged(status: os.stat_result) -> tuple[int, ...]:
    """What tells a file's versions apart without reading it: the file (device and inode:
    a file replaced or a link pointed elsewhere is another), its size, and its times of
    change, of which only ``st_ctime`` cannot be set back by hand."""
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns,
            status.st_ctime_ns)


def _read(path: Path, game: str, status: os.stat_result | None) -> GameInfo:
    """``game``'s definition at ``path``, read through the hardened reader; kept for the next
    :func:`load` if ``status`` (taken before reading) was not too recent to tell."""
    try:
        content = read_bytes(path)
    except YamlSyntaxError as exc:
        raise DefinitionError([Problem(_shown(path), exc.line, "", exc.message)]) from None
    try:
        definition = _load_cached(str(path), game, content)
    except (YamlSyntaxError, DefinitionError):
        definition = load_file(path, game)
    if status is not None and time.time_ns() - max(status.st_mtime_ns,
                                                   status.st_ctime_ns) > RACY:
        if len(_LOADED) >= KEPT:
            del _LOADED[next(iter(_LOADED))]
        _LOADED[str(path)] = (_unchanged(status), definition)
    return definition


@functools.lru_cache(maxsize=32)
def _load_cached(path: str, game: str, content: bytes) -> GameInfo:
    """``content`` validated, or as shipped with pnp (the bundled definitions, see
    :data:`cache.SHIPPED`), or read from the cache if it validated before.

    A file that does not validate raises here and is read again by :func:`load_file`,
    so that its problems are reported exactly as by ``pnp validate``.
    """
    model = model_of(game)
    definition = cache.read_shipped(game, content, model)
    if definition is not None:
        return definition
    cache_key = cache.key(game, content)
    definition = cache.read(game, cache_key, model)
    if definition is None:
        text = decode_text(content)
        definition = _validated(text, _shown(Path(path)), game)
        cache.write(game, cache_key, definition)
    return definition


def load_file(path: Path, game: str | None = None) -> GameInfo:
    """Load one definition file; ``game`` defaults to the file's stem."""
    game = check_game(game or path.stem)
    shown = _shown(path)
    try:
        text = decode_text(read_bytes(path))
    except YamlSyntaxError as exc:
        raise DefinitionError([Problem(shown, exc.line, "", exc.message)]) from None
    return _validated(text, shown, game)


def _validated(text: str, shown: str, game: str) -> GameInfo:
    from pnp.definitions import validation

    try:
        data, lines = load_with_lines(text)
    except YamlSyntaxError as exc:
        problem = Problem(shown, exc.line, "", exc.message)
        raise DefinitionError([problem]) from None
    model = model_of(game)
    if not isinstance(data, dict):
        raise DefinitionError([Problem(shown, 1, "", "expected a mapping at the top level")])
    problems = []
    if data.get("game") != game:
        problems.append(Problem(shown, lines.get(("game",), 1), "game",
                                f"expected '{game}' (the file's name), got {data.get('game')!r}"))
    try:
        definition = validation.validate(model, data, shown, lines)
    except DefinitionError as exc:
        problems.extend(exc.problems)
    else:
        problems.extend(Problem(shown, line_of(lines, where), validation.format_path(where),
                                message) for where, message in languages_problems(definition))
    if problems:
        raise DefinitionError(problems)
    return definition


def languages_problems(definition: GameInfo) -> list[tuple[Where, str]]:
    """Texts of ``definition`` not written in exactly its game's languages (those of its
    ``name:``), and languages of its ``name:`` that pnp does not know, by field."""
    from pnp.i18n.languages import codes

    languages = tuple(definition.name)
    known = codes()
    found: list[tuple[Where, str]] = [
        (("name", code), f"unknown language '{code}' (pnp knows {', '.join(known)}; an "
                         f"edition adds one in its locale folder)")
        for code in languages if code not in known]
    named = ", ".join(languages)
    for where, text in _texts(definition, ()):
        if where == ("name",):
            continue
        for code in languages:
            if code not in text:
                found.append((where, f"missing the text in '{code}' (the game's languages, "
                                     f"as its name is written: {named})"))
        for code in text:
            if code not in languages:
                close = difflib.get_close_matches(code, languages, n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                found.append(((*where, code), f"'{code}' is not one of the game's languages "
                                              f"(as its name is written: {named}{hint})"))
    return found


def _texts(value: object, where: Where) -> Iterator[tuple[Where, Text]]:
    """Every :class:`Text` inside ``value``, with where it is."""
    if isinstance(value, Text):
        yield where, value
    elif isinstance(value, tuple):
        for index, item in enumerate(value):
            yield from _texts(item, (*where, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(item, (*where, key))
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _texts(getattr(value, field.name), (*where, field.name))


def locate(game: str, found: list[tuple[Where, str]],
           directory: Path | None = None) -> list[Problem]:
    """Problems found in ``game``'s valid definition (by field), with the file and line."""
    path = (directory or rules_dir()) / f"{check_game(game)}.yaml"
    _data, lines = load_with_lines(decode_text(read_bytes(path)))
    from pnp.definitions.validation import format_path

    return [Problem(_shown(path), line_of(lines, where), format_path(where), message)
            for where, message in found]


Check = Callable[[str, GameInfo], list[tuple[Where, str]]]
"""What a stage above finds wrong, by field, in a definition that validates (the sheets'
:func:`pnp.sheets.layout.drawable`): given to :func:`validate_all`, so that the definitions
import no renderer."""


def validate_all(directory: Path | None = None, check: Check | None = None) -> list[Problem]:
    """Every problem in every definition (an empty list when all are sound), including what
    ``check`` finds in those that validate."""
    problems: list[Problem] = []
    for game in GAMES:
        path = (directory or rules_dir()) / f"{game}.yaml"
        try:
            definition = load_file(path, game)
        except DefinitionError as exc:
            problems.extend(exc.problems)
            continue
        if check is not None:
            problems.extend(locate(game, check(game, definition), directory))
    return problems

