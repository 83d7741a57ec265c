"""Each game's scoring script in JavaScript: one generator, two targets.

A game's script is a ``.js`` file of its folder (``pnp/games/<game>/sheet.js``, ``pad.js``,
``deal.js``...), named and filled in by the game's script module (:attr:`Game.scripts
<pnp.registry.Game.scripts>`), after the shared functions of ``js/common.js``. It is
used twice: inside the fillable PDF (:mod:`pnp.sheets.fillable`, Acrobat's form API) and
inside the scorer page (:mod:`pnp.scorer.page`, a browser). Both read the same functions, so
a total a phone shows is the one the PDF shows and, as the tests check on thousands of
generated games, the engine's.

Every script is ES5 (the PDF viewers' language) and names the box at fault with a
reason in words. Reasons are the engine's messages, in the page's language: each
module lists its messages (:data:`MESSAGES` here for the shared ones) with ``N_`` so
the catalogues carry their translations, and the script gets them as a table keyed by a
short name, filled by ``pnp_say(key, {placeholder: value})``.

Scripts that take the engine's input format itself (Ronda's deals, Spectacle's
positions) are ports of the engine: they stop at the first rule broken, with the
engine's message, by throwing ``{pnp: true, at: PATH, message: TEXT}``; ``at`` is the
place in the input (``"players/Ana/claimed/2"``) the page turns into the box at fault.

Every script pnp puts in a page or a PDF is such a package file, read by :func:`source`, and
takes what Python knows in one way: through **placeholders**, identifiers written ``$NAME``
(a dollar sign and upper case) that the script uses and never declares. :func:`source`
writes each one's value as JSON in its place, so a file is plain JavaScript for the linter
(``tests/js/eslint.config.js`` tells it the placeholders are globals) and the script made
from it is the file with its data filled in. (The scorer page writes its own data with the
JSON that keeps ``<`` out of a page's script; the service worker, whose game stands inside
its strings, is the one script with a word replaced instead: ``GAME``.)

>>> fill("var PNP = $TABLE; var most = $MOST;", {"TABLE": {"rows": 3}, "MOST": 40})
'var PNP = {"rows": 3}; var most = 40;'
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pnp import registry
from pnp.definitions.base import GameInfo
from pnp.i18n.catalogues import N_, translator

MESSAGES = {
    "whole": N_("{where}: expected a whole number, got {value}"),
    "span": N_("{where}: {value} is not from {low} to {high}"),
    "least": N_("{where}: {value} is not at least {low}"),
    "most": N_("{where}: {value} is not at most {high}"),
    "mapping": N_("{where}: expected a mapping, got {value}"),
    "list": N_("{where}: expected a list, got {value}"),
    "missing": N_("{where}: missing '{key}'"),
    "missing_top": N_("missing '{key}'"),
    "unknown": N_("{where}: unknown field {key} (expected {allowed})"),
    "unknown_top": N_("unknown field {key} (expected {allowed})"),
    "name_type": N_("{where}: expected a name, got {value}"),
    "name_number": N_("{where}: expected a name, got {value} (write it in quotes to use it "
                      "as a name)"),
    "name_blank": N_("{where}: a name cannot be blank, got {value}"),
    "name_long": N_("{where}: {value} is longer than {most} characters"),
    "name_control": N_("{where}: {value} holds a control character ({code}); a name is "
                       "plain text on one line"),
    "name_invisible": N_("{where}: {value} has an invisible character ({code})"),
    "name_letter": N_("{where}: {value} has no letter or digit"),
    "name_twice": N_("{where}: {name} is given twice (names {first} and {second})"),
    "players_count": N_("{where}: {given} given; the game is for {low} to {high} players"),
    "player_name": N_("{where}: name {index}"),
    "players": N_("players"),
    "player_n": N_("Player {n}"),
    "team_n": N_("Team {n}"),
    "nothing": N_("nothing"),
    "items": N_("a {kind} of {count} items"),
    "in": N_("{player}: {message}"),
}
"""Messages every script may say (the engine's, from :mod:`pnp.engine.common`)."""

SCRIPTS = Path(__file__).parent / "js"
"""The scripts shared by every game's page and sheet."""

PLACEHOLDER = re.compile(r"(?<![\w$])\$([A-Z][A-Z0-9_]*)(?![\w$])")
"""A placeholder in a package script: ``$TABLE``, ``$NAME_LENGTH``."""


def _sorted_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def fill(text: str, values: Mapping[str, Any],
         dump: Callable[[Any], str] = _sorted_json) -> str:
    """``text`` with each placeholder replaced by ``dump`` of its value in ``values``."""
    def value(found: re.Match[str]) -> str:
        if found.group(1) not in values:
            raise KeyError(f"no value for the script's placeholder ${found.group(1)}")
        return dump(values[found.group(1)])

    return PLACEHOLDER.sub(value, text)


@functools.cache
def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def source(folder: Path, name: str, dump: Callable[[Any], str] = _sorted_json,
           **values: Any) -> str:
    """The script ``name`` of ``folder`` (a folder of pnp's package, never an edition's) with
    its placeholders filled in from ``values`` (see :func:`fill`)."""
    return fill(_text(folder / name), values, dump)


def module(game: str, kind: str = "") -> registry.ScriptWriter:
    return registry.game(game).script(kind)


def messages(game: str, lang: str, kind: str = "") -> dict[str, str]:
    """Every message ``game``'s script for ``kind`` may say, translated into ``lang``."""
    _ = translator(lang, game)
    return {key: _(text) for key, text in {**MESSAGES, **module(game, kind).MESSAGES}.items()}


def common(game: str, lang: str, kind: str = "") -> str:
    """The shared functions with the messages of ``game``'s ``kind`` in ``lang``."""
    from pnp.engine.common import NAME_LENGTH

    return "\n" + source(SCRIPTS, "common.js", MESSAGES=messages(game, lang, kind),
                         NAME_LENGTH=NAME_LENGTH)


def library(game: str, rules: GameInfo, kind: str, lang: str) -> str:
    """``game``'s whole script for ``kind`` (its sheet, pad, deal...), messages in ``lang``."""
    found = module(game, kind)
    values = found.placeholders(rules, kind, translator(lang, game), lang)
    return common(game, lang, kind) + "\n" + source(registry.game(game).folder, found.SCRIPT,
                                                   **values)
