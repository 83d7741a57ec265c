"""``index.html`` of a build folder: the landing page (:mod:`pnp.build.landing`) of what
was built there, with each game's facts and lockup read from its definition."""

from __future__ import annotations

import hashlib
import html
import json
from pathlib import Path

from pnp.build import landing
from pnp.build.manifest import Manifest
from pnp.errors import PnpError
from pnp.i18n.languages import known
from pnp.outputs.targets import thumbnail
from pnp.outputs.writing import read_own, write
from pnp.registry import GAMES

DOCTYPE = "<!doctype html>\n"
MADE_FROM = "<!-- made from {} -->\n"
"""The landing page's second line, after its doctype: a hash of all it was made from, so
that a build that changed none of it leaves the page as it is (laying it out is most of a
no-op build)."""


def write_index(out: Path, manifest: Manifest, rules_dir: Path, shared: str,
                force: bool = False) -> None:
    """``index.html``, the landing page of the files built in ``out`` from the definitions
    in ``rules_dir``; ``shared`` is the hash of pnp's code, fonts and templates
    (:func:`pnp.build.fingerprint.shared_inputs`). Kept as it is if made from the same, unless
    ``force``."""
    built = {key: entry for key, entry in manifest.items() if (out / key).exists()}
    thumbs = {key: thumbnail(Path(key)).as_posix() for key in built if key.endswith(".pdf")}
    thumbs = {key: thumb for key, thumb in thumbs.items() if (out / thumb).exists()}
    games = _landing_games(rules_dir)
    made_from = MADE_FROM.format(hashlib.sha256(json.dumps(
        [shared, built, thumbs, [list(vars(game).values()) for game in games],
         [repr(language) for language in known()]], sort_keys=True, default=str
    ).encode()).hexdigest())
    index = out / "index.html"
    kept = read_own(index)
    head = DOCTYPE + made_from
    if (not force and kept is not None and kept.startswith(head.encode())
            and kept.endswith(b"</html>\n")):
        return
    page = landing.page(built, games, thumbs.get)
    write(index, (head + page.removeprefix(DOCTYPE)).encode(), within=out)


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
