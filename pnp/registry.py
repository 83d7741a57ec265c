"""The games pnp knows, and where each stage finds a game's code.

Every stage asks this registry for a game's parts; none builds a module name of its own. A
game's code lives in its folder, ``pnp/games/<name>/``, in modules named for what they are:

- ``definition``: the pydantic model of ``rules/<name>.yaml`` (``Definition``);
- ``engine``: the pure engine that checks and scores (``score(rules, data)``);
- ``texts``: the words of the engine's breakdown (``describe``, ``describe_note``);
- ``glossary``: one word for each of its ideas in each language (``GLOSSARY``), which
  ``pnp translations`` gates;
- ``sheets``: the sheets and pads it prints (``LAYOUTS``);
- ``figures``: the rulebooks' figures and cover drawings (``FIGURES``);
- ``page``: what its phone scorer page is told (``config``);
- the modules that write its scripts (:attr:`Game.scripts`) and its deck, where it has one.

The parts are imported when first asked for, so that ``pnp score`` loads the engine and the
definition and nothing that draws. The parts every stage calls the same way come typed as
their contract (:class:`Engine`, :class:`Texts`, :class:`Page`, :class:`ScriptWriter`): a
module found by name is taken to keep it, as the tests of each game exercise. Those only a
renderer reads come as the module, and the stage that reads one names the type of what it
reads. A part is always given its own game's definition, which its module types as the
game's own class; the contracts take the base class, which is what the stages hold.
"""

from __future__ import annotations

import difflib
import importlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, cast

from pnp.errors import UnknownGameError

if TYPE_CHECKING:
    from pnp.definitions.base import GameInfo
    from pnp.engine.result import Item, Note, Result
    from pnp.i18n.catalogues import Translate


class Engine(Protocol):
    """A game's ``engine``: pure, it checks and scores."""

    def score(self, rules: GameInfo, data: Any) -> Result:
        """Check ``data`` (the calculator's input, plain data) and score it."""


class Texts(Protocol):
    """A game's ``texts``: its engine's breakdown in words."""

    def describe(self, item: Item, _: Translate) -> str: ...

    def describe_note(self, note: Note, _: Translate) -> str: ...


class Page(Protocol):
    """A game's ``page``: what its phone scorer page is told of the definition."""

    def config(self, rules: GameInfo, lang: str, _: Translate) -> dict[str, Any]: ...


class ScriptWriter(Protocol):
    """A module of a game's folder that writes one of its scripts (:attr:`Game.scripts`): the
    ``.js`` file it fills in, what that script may say and what it is filled in with."""

    SCRIPT: str
    """Its script's file, in the game's folder."""
    EPILOGUE: str | None
    """For a fillable sheet's script, a file of the game's folder run after the sheet's
    driver and filled in with the same values, or ``None``."""
    MESSAGES: Mapping[str, str]
    """What the script may say beyond the shared messages, by key (marked with ``N_``)."""

    def placeholders(self, rules: GameInfo, kind: str, _: Translate,
                     lang: str) -> Mapping[str, Any]: ...


@dataclass(frozen=True)
class Game:
    """One game: its name (its folder, its YAML file and its gettext domain) and what it has
    beyond what every game has."""

    name: str
    page: str
    """The kind of script its scorer page runs (a key of :attr:`scripts`' modules)."""
    models: tuple[str, ...] = ()
    """The shared model scripts its page needs before its own (``sheets`` for a grid)."""
    fillable: tuple[str, ...] = ()
    """The kinds of sheet offered as fillable PDFs."""
    scripts: Mapping[str, str] = field(default_factory=lambda: {"": "fillable"})
    """The module of its folder that writes the script of each kind (``""``: every other)."""
    deck: bool = False
    """Whether it has a card deck to print (its folder's ``deck`` module)."""

    def part(self, name: str) -> ModuleType:
        """The module ``name`` of the game's folder."""
        return importlib.import_module(f"pnp.games.{self.name}.{name}")

    @property
    def engine(self) -> Engine:
        return cast("Engine", self.part("engine"))

    @property
    def texts(self) -> Texts:
        return cast("Texts", self.part("texts"))

    @property
    def sheets(self) -> ModuleType:
        """Its sheets: ``LAYOUTS`` (see :func:`pnp.sheets.layout.layouts`)."""
        return self.part("sheets")

    @property
    def figures(self) -> ModuleType:
        """Its figures: ``FIGURES`` (see :func:`pnp.books.figures.builders`)."""
        return self.part("figures")

    @property
    def page_config(self) -> Page:
        return cast("Page", self.part("page"))

    @property
    def deck_maker(self) -> ModuleType:
        """Its deck: ``grid``, ``render`` and ``render_calibration``."""
        if not self.deck:
            raise UnknownGameError(f"{self.name} has no deck")
        return self.part("deck")

    def definition(self) -> type[GameInfo]:
        """The definition's model class."""
        model: type[GameInfo] = self.part("definition").Definition
        return model

    def script(self, kind: str = "") -> ScriptWriter:
        """The module that writes the script of ``kind`` (its sheet, pad, deal...)."""
        return cast("ScriptWriter", self.part(self.scripts.get(kind, self.scripts[""])))

    @property
    def folder(self) -> Path:
        """The game's folder in the package (its code and its scripts)."""
        return Path(__file__).parent / "games" / self.name


REGISTRY: Mapping[str, Game] = {game.name: game for game in (
    Game("qwinto", page="sheet", models=("sheets",), fillable=("sheet",)),
    Game("kwingto", page="sheet", models=("sheets",), fillable=("sheet",)),
    Game("xactika", page="pad", fillable=("pad",), deck=True),
    Game("ronda", page="deal", fillable=("pad", "pad3", "teams"),
         scripts={"": "fillable", "deal": "scripts"}),
    Game("spectacle", page="position", scripts={"": "scripts"}),
)}
"""Every game pnp knows, in the order they are listed to people: one line per game."""

GAMES = tuple(REGISTRY)
"""The games' names, in order."""

DECKS = tuple(game.name for game in REGISTRY.values() if game.deck)
"""The games with a card deck to print (the ``deck`` module of their folder)."""


def game(name: str) -> Game:
    """The game called ``name``, or a refusal with a suggestion."""
    return REGISTRY[check_game(name)]


def rules_dir() -> Path:
    """Where definitions are read from: ``$PNP_RULES_DIR``, else the current edition's."""
    from pnp.assets import current

    env = os.environ.get("PNP_RULES_DIR")
    return Path(env) if env else current().rules


def check_game(name: str) -> str:
    """Return ``name`` if pnp knows it, else raise with a suggestion."""
    if name in REGISTRY:
        return name
    close = difflib.get_close_matches(name, GAMES, n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else f" (known games: {', '.join(GAMES)})"
    raise UnknownGameError(f"unknown game '{name}'{hint}")
