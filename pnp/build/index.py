"""``index.html`` of a build folder: the landing page (:mod:`pnp.build.landing`) of what
was built there, with each game's facts and lockup read from its definition."""

from __future__ import annotations

import html
from pathlib import Path

from pnp.build import landing
from pnp.build.manifest import Manifest
from pnp.errors import PnpError
from pnp.outputs.targets import thumbnail
from pnp.outputs.writing import write
from pnp.registry import GAMES


def write_index(out: Path, manifest: Manifest, rules_dir: Path) -> None:
    """``index.html``, the landing page of the files built in ``out`` from the definitions
    in ``rules_dir``."""

    def picture(key: str) -> str | None:
        thumb = thumbnail(Path(key))
        return thumb.as_posix() if key.endswith(".pdf") and (out / thumb).exists() else None

    built = {key: entry for key, entry in manifest.items() if (out / key).exists()}
    page = landing.page(built, _landing_games(rules_dir), picture)
    write(out / "index.html", page.encode(), within=out)


def _landing_games(rules_dir: Path) -> list[landing.Game]:
    """Each game's name, facts and lockup for the landing page (a definition that does not
    load is shown by its name alone: the build has reported it already)."""
    from pnp.definitions import load
    from pnp.draw.identity import lockup_svg

    games = []
    for game in GAMES:
        try:
            rules = load(game, rules_dir)
        except PnpError:
            games.append(landing.Game(game, game.capitalize(), "", None, html.escape(game)))
            continue
        name = rules.name("en")
        players = (f"{rules.players.min}" if rules.players.min == rules.players.max
                   else f"{rules.players.min}–{rules.players.max}")
        try:
            lockup = lockup_svg(rules.print.identity, name, label=name)
        except OSError:  # the fonts that measure a band's title are unreadable: say so in words
            lockup = html.escape(name)
        games.append(landing.Game(game, name, players, rules.minutes, lockup))
    return games
