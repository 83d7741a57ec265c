"""What a build makes: the targets of the chosen games, languages and papers (sheets and
their variants, reference cards, decks, rulebooks as PDF and HTML, the scorer page with its
app manifest and service worker), and the pieces of work they are grouped into.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pnp.build.fingerprint import files_digest, shared_inputs
from pnp.build.manifest import MANIFEST, PLAN_CACHE, claim, own
from pnp.draw.paper import PAPERS as SIZES
from pnp.outputs.targets import SCORER_FILES, Target
from pnp.outputs.writing import clear, read_own, write
from pnp.registry import DECKS, GAMES, check_game

PAPERS = tuple(SIZES)
"""The papers every sheet, deck and rulebook is built on."""
DECK_KINDS = ("poker", "calibration-long")
"""What the build makes of each deck: poker-size cards backed on the long edge, and the
calibration sheet that measures the printer's drift for that flip."""
BACK_MOVES = tuple((x, y) for y in (0.0, 1.0, -1.0) for x in (0.0, 1.0, -1.0))
"""The moves of the backs (mm right, mm up) the deck is built for, each its own file: the
calibration sheet tells a player whose printer shifts the backs which one to print. Steps of
1 mm, up to 1 mm each way: what is left over is hidden by the backs' 3 mm of bleed."""

Kinds = dict[str, dict[str, dict[str, Any]]]
"""Each game's sheet kinds: the copies per page each offers, and whether it has a fillable
variant (``{"qwinto": {"sheet": {"per_page": [1, 2, 4], "fillable": true}}}``)."""
KIND = re.compile(r"[a-z][a-z0-9]*")


def sheet_kinds(games: Sequence[str] = GAMES) -> Kinds:
    """Read the kinds from the sheet modules (this imports reportlab and the definitions)."""
    from pnp.sheets.fillable import FILLABLE
    from pnp.sheets.layout import layouts

    return {game: {kind: {"per_page": list(layout.per_page),
                          "fillable": (game, kind) in FILLABLE}
                   for kind, layout in layouts(game).items()} for game in games}


def cached_kinds(out: Path, shared: str) -> Kinds:
    """:func:`sheet_kinds`, kept in ``out`` while pnp's code is unchanged.

    A build with nothing to do then never imports the renderers.
    """
    cache = out / PLAN_CACHE
    try:
        data = json.loads(read_own(cache) or b"null")
        if data["shared"] == shared and _sound_kinds(data["kinds"]):
            return dict(data["kinds"])
    except (ValueError, KeyError, TypeError, RecursionError):
        pass
    kinds = sheet_kinds()
    claim(out)
    clear(out, Path(PLAN_CACHE), "json", own(read_own(out / MANIFEST)))
    write(cache, json.dumps({"shared": shared, "kinds": kinds}, sort_keys=True).encode(),
          within=out)
    return kinds


def _sound_kinds(kinds: Any) -> bool:
    """Whether ``kinds`` read from the cache has the shape of :data:`Kinds`, with names
    that make file names inside the build folder and nowhere else."""
    return (isinstance(kinds, dict) and set(kinds) == set(GAMES)
            and all(isinstance(offers, dict) and offers for offers in kinds.values())
            and all(isinstance(kind, str) and KIND.fullmatch(kind) and isinstance(offer, dict)
                    and set(offer) == {"per_page", "fillable"}
                    and isinstance(offer["fillable"], bool)
                    and isinstance(offer["per_page"], list) and offer["per_page"]
                    and all(type(n) is int and 1 <= n <= 64 for n in offer["per_page"])
                    for offers in kinds.values() for kind, offer in offers.items()))


def plan(games: Sequence[str] = GAMES, langs: Sequence[str] = (),
         papers: Sequence[str] = PAPERS, kinds: Kinds | None = None,
         rules_dir: Path | None = None) -> list[Target]:
    """Every target for these games, languages and papers, rulebooks first (the slowest).

    Each game is built in those of ``langs`` it is published in (:attr:`GameInfo.languages`;
    all of them when ``langs`` is empty)."""
    from pnp.definitions import load

    kinds = kinds or sheet_kinds(games)
    targets: list[Target] = []
    for game in games:
        check_game(game)
        for lang in load(game, rules_dir).languages:
            if langs and lang not in langs:
                continue
            for paper in papers:
                targets.append(Target(game, lang, "rulebook", paper))
                targets.append(Target(game, lang, "rulebook", paper, fmt="html"))
            targets.append(Target(game, lang, "card", "a5"))
            targets += [Target(game, lang, "scorer", "", fmt=fmt) for fmt in SCORER_FILES]
            if game in DECKS:
                targets += [Target(game, lang, "deck", paper, kind=kind, offset=offset)
                            for paper in papers for kind in DECK_KINDS
                            for offset in ([(0.0, 0.0)] if kind.startswith("calibration")
                                           else BACK_MOVES)]
            for paper in papers:
                for kind, offer in kinds[game].items():
                    targets.append(Target(game, lang, "sheet", paper, kind=kind))
                    targets.append(Target(game, lang, "sheet", paper, kind=kind,
                                          grayscale=True))
                    targets += [Target(game, lang, "sheet", paper, kind=kind, per_page=n)
                                for n in offer["per_page"] if n > 1]
                    if offer["fillable"]:
                        targets.append(Target(game, lang, "sheet", paper, kind=kind,
                                              fillable=True))
    return targets


def planned(out: Path, games: Sequence[str] = GAMES, langs: Sequence[str] = (),
            papers: Sequence[str] = PAPERS, shared: str | None = None,
            rules_dir: Path | None = None) -> list[Target]:
    """:func:`plan` of a build into ``out``, whose sheet kinds it keeps (:func:`cached_kinds`;
    under the folder's lock). ``shared`` is the digest of the inputs every target shares."""
    shared = shared or files_digest(shared_inputs())
    return plan(games, langs, papers, kinds=cached_kinds(out, shared), rules_dir=rules_dir)


def pieces(targets: Sequence[Target]) -> list[list[Target]]:
    """The targets grouped into pieces of work, the slowest first.

    A book's formats and papers are one piece: they share one composition and one layout.
    So are a deck's files of one language, paper and card size (the backs moved each way):
    they print the same face pages, which one worker's preflight then measures once
    (:data:`pnp.preflight.read.PAGES`). A sheet, drawn alone, is a piece of its own.
    Putting the slowest first keeps every worker busy to the end.
    """
    groups: dict[object, list[Target]] = {}
    for target in targets:
        key: object = (target.game, target.lang, target.document)
        if target.document == "sheet":
            key = target
        elif target.document == "deck":
            key = (target.game, target.lang, target.document, target.paper, target.kind)
        groups.setdefault(key, []).append(target)
    cost = {"rulebook": 0, "card": 1, "deck": 1, "scorer": 4}
    return sorted(groups.values(),
                  key=lambda group: cost.get(group[0].document, 2 if group[0].fillable else 3))
