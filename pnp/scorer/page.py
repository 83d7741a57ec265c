"""The scorer page: one self-contained HTML file per game and language, for a phone at the table.

The page holds everything it needs (styles, scripts, icons; the system's fonts) and makes no
network request: it works from ``file://``, a USB stick or any static host. Its scripts are
pnp's own, package files that no edition replaces (an edition restyles the page through its
``templates/scorer/page.html`` and ``scorer.css``):

- the game's **scoring script**, the very one the fillable sheet embeds
  (:mod:`pnp.scorer.scripts`: one generator, two targets), with its messages in the page's
  language;
- the page's **model** (``js/model.js`` beside this module, and the game's ``model.js`` in its
  folder): the game in progress as plain data, scored by that script, exported as the
  calculator's input (what ``pnp score`` reads) and imported from it. It uses no DOM, so the
  tests run it in QuickJS on thousands of games against the engine;
- the page's **view** (``js/view.js`` and the game's ``view.js``): the sheet drawn like the
  paper one, the totals and ranking, the faults on their boxes, undo, saving on the device.

Installing as an app needs a web app manifest and a service worker, which a browser only
takes from real files served over http(s), never from ``file://`` or from inside the page.
So :func:`manifest` and :func:`service_worker` are two tiny files that ``pnp build`` writes
beside each page; the page links and registers them only when it is served over http(s),
and works fully without them (from a file it then simply cannot be installed).

An edition is shared, so the page trusts none of its texts: its two templates are read as
every edition file is (:func:`~pnp.reading.text_inside`: inside the templates folder, a
regular file, at most :data:`MAX_TEMPLATE` bytes); a name from a definition reaches a script
as JSON with no ``<`` in it; and the page's Content-Security-Policy runs its own inline
scripts and style sheet only, each allowed by the hash of its text, and loads nothing.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from string import Template
from typing import Any

import nh3
import rcssmin
import rjsmin

from pnp import registry
from pnp.assets import current, shown
from pnp.books.compose import ATTRIBUTES, TAGS, compose
from pnp.books.references import inline_sources
from pnp.definitions import load
from pnp.definitions.base import GameInfo
from pnp.errors import ReadError, ScorerError
from pnp.i18n.catalogues import N_, Translate, translator
from pnp.i18n.languages import language
from pnp.reading import text_inside
from pnp.scorer import scripts as scoring

MAX_TEMPLATE = 64 * 1024
"""Bytes one template file of the page may have: the larger bundled one (``scorer.css``) has
about 15 000, and the whole page must open in a moment on a phone on a slow line."""

SCRIPTS = Path(__file__).parent / "js"
"""The page's own scripts, shared by every game: ``model.js``, ``<models>.model.js``,
``view.js`` and the service worker."""

TEXTS = {
    "scorer": N_("Scorer"),
    "player": N_("Player"),
    "players": N_("Players"),
    "name_of": N_("Name of player {n}"),
    "add_player": N_("Add a player"),
    "remove_player": N_("Remove this player"),
    "remove": N_("Remove"),
    "remove_last": N_("Remove the last player"),
    "total": N_("Total"),
    "ranking": N_("Ranking"),
    "undo": N_("Undo"),
    "undo_of": N_("Undo: {what}"),
    "nothing_to_undo": N_("Nothing to undo"),
    "last_change": N_("the last change"),
    "remove_of": N_("Remove {name}"),
    "remove_ask": N_("Remove {name} and everything written on their sheet?"),
    "fault_count": N_("To fix: {count}"),
    "new_game": N_("New game"),
    "new_game_ask": N_("Start a new game? The game on this device will be cleared."),
    "yes_new": N_("Start a new game"),
    "cancel": N_("Cancel"),
    "export": N_("Export"),
    "import": N_("Import"),
    "export_help": N_("The game as the calculator reads it: check it with "
                      "'pnp score {game} FILE'."),
    "download": N_("Download"),
    "copy": N_("Copy"),
    "copied": N_("Copied"),
    "close": N_("Close"),
    "import_help": N_("Open a game exported from this page, or paste it (JSON or YAML)."),
    "import_file": N_("File"),
    "import_text": N_("Game text"),
    "import_failed": N_("This is not a {game} game this page can read: {reason}"),
    "import_no_value": N_("line {line} is not a name followed by a colon and a value"),
    "import_indented": N_("line {line} is indented under nothing that opens above it"),
    "import_unclosed": N_("a list [ ] or a mapping { } is not closed or separated as it should be"),
    "theme": N_("Theme"),
    "theme_auto": N_("Theme: as the system"),
    "theme_light": N_("Theme: light"),
    "theme_dark": N_("Theme: dark"),
    "problems": N_("To fix"),
    "howto": N_("How to score"),
    "of_game": N_("{name} scorer"),
    "place": N_("{place}."),
    "unscored": N_("not scored until the boxes at fault are fixed"),
    "sheet_of": N_("Sheet of {name}"),
    "failed": N_("failed throws"),
    "colon": N_("{text}:"),
    "failed_box": N_("Failed throw {n}"),
    "each": N_("{points} each"),
    # Qwinto
    "pentagons": N_("pentagons"),
    # Kwingto
    "row_n": N_("row {n}"),
    "space_label": N_("Row {row}, space {space}"),
    "columns": N_("columns"),
    "flushes": N_("flushes"),
    "suit": N_("suit"),
    "spread": N_("complete column: highest − lowest"),
    "card_hint": N_("a card: rank then suit, as 10H, AS, Q♦"),
    # Xactika
    "mode": N_("Mode"),
    "hand": N_("hand"),
    "bid": N_("bid"),
    "tricks": N_("tricks"),
    "bid_label": N_("Hand {hand}, bid of {player}"),
    "tricks_label": N_("Hand {hand}, tricks of {player}"),
    "first_dealer": N_("First dealer"),
    # Ronda
    "setup": N_("Game"),
    "target": N_("Target"),
    "target_hint": N_("blank: {target}"),
    "before_of": N_("Points of {side} before the game"),
    "team_n": N_("Team {n}"),
    "team_of": N_("Team of {members}"),
    "advanced_end": N_("Advanced end (the dealer's last card)"),
    "aces_high": N_("Aces high"),
    "heavy_hidden": N_("Heavy hidden ronda"),
    "rising_chain": N_("Rising chain (links score {points})"),
    "deal_n": N_("Deal {n}"),
    "next_deal": N_("Next deal"),
    "deals": N_("Deals"),
    "deal_dealer": N_("{dealer} deals; {first} plays first."),
    "round_n": N_("Round {n}"),
    "add_call": N_("Add a call"),
    "add_play": N_("Add a scoring play"),
    "call": N_("call"),
    "calls": N_("calls"),
    "play": N_("scoring play"),
    "announced": N_("announced"),
    "bluff": N_("false call"),
    "hidden": N_("held, not announced"),
    "rank": N_("rank"),
    "who": N_("player"),
    "caida": N_("caída"),
    "no_caida": N_("no caída"),
    "link_n": N_("link {n}"),
    "mesa": N_("mesa"),
    "captured": N_("Cards captured"),
    "captured_of": N_("Cards captured by {side}"),
    "captured_hint": N_("at the end of the deal; blank while it is played"),
    "last_card": N_("Dealer's last card"),
    "last_captured": N_("did it capture?"),
    "last_yes": N_("yes"),
    "last_no": N_("no"),
    "sum": N_("sum"),
    "run": N_("total"),
    "cards": N_("cards"),
    "last": N_("last card"),
    "reached": N_("{side} reaches {target}: the game is won."),
    # Spectacle
    "nobles": N_("Nobles received"),
    "noble": N_("noble"),
    "nobles_short": N_("nobles"),
    "noble_n": N_("Noble {n}"),
    "bonus_given": N_("Bonus cards given for noble {n}"),
    "bonus_hint": N_("bonus cards given (optional)"),
    "add_noble": N_("Add a noble"),
    "claims": N_("Series and runs claimed"),
    "claim_n": N_("Claim {n}: its cards"),
    "claim_hint": N_("its cards: 7S 7H 7C"),
    "add_claim": N_("Add a claim"),
    "reserved": N_("Reserved cards"),
    "reserved_n": N_("Reserved card {n}"),
    "chips": N_("Chips held"),
    "chip_n": N_("Chip {n}"),
    "turns": N_("Turns played"),
    "end": N_("What ended the game"),
    "end_none": N_("not said"),
    "end_points": N_("a player reached the VP"),
    "end_deck": N_("the draw deck ran out"),
    "series": N_("series"),
    "runs": N_("runs"),
    "vp": N_("VP"),
    # Games kept and shared (history.js)
    "finish": N_("Finish and keep"),
    "share": N_("Share"),
    "export_csv": N_("Export CSV"),
    "kept_games": N_("Games kept: {count}"),
    "kept_already": N_("This game is already kept on this device."),
    "unsaved_full": N_("The device's storage is full: this game is not kept on it, and a "
                       "reload would lose what was typed since. Export it to keep a copy."),
    "unsaved_refused": N_("This device does not let the page keep this game: a reload would "
                          "lose it. Export it to keep a copy."),
    "kept_full": N_("The device's storage is full: this game was not kept. It is still here; "
                    "export it to keep a copy."),
    "kept_refused": N_("This device does not let the page keep games: this game was not kept. "
                       "It is still here; export it to keep a copy."),
    "kept_done": N_("Kept on this device: the game of {date}."),
    "kept_deleted": N_("The game of {date} is deleted; Undo puts it back."),
    "winner": N_("Winner: {names}"),
    "reopen": N_("Reopen"),
    "reopen_of": N_("Reopen the game of {date}"),
    "share_of": N_("Share the game of {date}"),
    "delete": N_("Delete"),
    "delete_of": N_("Delete the game of {date}"),
    "delete_ask": N_("Delete the game of {date} from this device?"),
    "figures": N_("Per player"),
    "fig_games": N_("Games"),
    "fig_wins": N_("Wins"),
    "fig_average": N_("Average"),
    "fig_best": N_("Best"),
    "csv_date": N_("Date"),
    "csv_game": N_("Game"),
    "csv_place": N_("Place"),
    "csv_winner": N_("Winner"),
    "shared": N_("Shared."),
    "shared_copied": N_("The result is copied and its picture downloaded."),
    "shared_downloaded": N_("The result's picture is downloaded; the text could not be copied."),
}
"""The page's own words; the games' words (colours, suits, modes) come from their definitions
and catalogues."""


def _read(name: str) -> str:
    """The text of the page's template ``name``: a regular file of the edition's templates
    folder (links followed), of at most :data:`MAX_TEMPLATE` bytes."""
    templates = current().templates
    try:
        return text_inside(templates, templates / "scorer" / name, MAX_TEMPLATE)
    except ReadError as exc:
        raise ScorerError(f"{_shown(name)}: {exc}") from None


def _shown(name: str) -> str:
    """The template ``name`` as a person would type it: the file asked for, not where its
    link leads."""
    return str(Path(shown(current().templates / "scorer")) / name)


def files(game: str) -> list[Path]:
    """The files ``game``'s page is made from (for the build's fingerprints): the edition's
    two templates and pnp's scripts."""
    edition = current()
    folder = edition.templates / "scorer"
    own = registry.game(game).folder
    return [folder / "page.html", folder / "scorer.css", SCRIPTS / "model.js",
            *(SCRIPTS / f"{m}.model.js" for m in registry.game(game).models),
            own / "model.js", SCRIPTS / "view.js", own / "view.js", SCRIPTS / "howto.js",
            SCRIPTS / "howto.css", SCRIPTS / "history.js", SCRIPTS / "history.css",
            *sorted((edition.templates / "cards" / game).glob("*.md")),
            edition.examples / f"{game}.yaml"]


def config(game: str, rules: GameInfo, lang: str, _: Translate) -> dict[str, Any]:
    """What the page's model and view need to know of ``game``, in ``lang``."""
    made: dict[str, Any] = {"game": game, "lang": lang, "name": rules.name(lang),
                            "players": {"min": rules.players.min, "max": rules.players.max}}
    made.update(registry.game(game).page_config.config(rules, lang, _))
    return made


def texts(lang: str, game: str) -> dict[str, str]:
    """The page's words in ``lang``."""
    _ = translator(lang, game)
    return {key: _(text) for key, text in TEXTS.items()}


def script(game: str, lang: str = "en", rules_dir: Path | None = None) -> str:
    """The page's scoring script and model: what the tests run in QuickJS."""
    rules = load(game, rules_dir)
    _ = translator(lang, game)
    return "\n".join([
        scoring.library(game, rules, registry.game(game).page, lang),
        scoring.source(SCRIPTS, "model.js", _json, CONFIG=config(game, rules, lang, _)),
        *(scoring.source(SCRIPTS, f"{m}.model.js") for m in registry.game(game).models),
        scoring.source(registry.game(game).folder, "model.js")])


def view(game: str, lang: str = "en", rules_dir: Path | None = None) -> str:
    """The page's view: the shared one and the game's, with the page's words in ``lang``,
    and the "How to score" panel."""
    return "\n".join([scoring.source(SCRIPTS, "view.js", _json, TEXTS=texts(lang, game)),
                      scoring.source(registry.game(game).folder, "view.js"),
                      scoring.source(SCRIPTS, "howto.js", _json,
                                     HOWTO=howto(game, lang, rules_dir)),
                      scoring.source(SCRIPTS, "history.js"),
                      "start();", "howto();", "keptStart();"])


def howto(game: str, lang: str = "en", rules_dir: Path | None = None) -> str:
    """The sections of ``game``'s reference card in ``lang`` that tell how to score, in the
    card's own HTML (:func:`~pnp.books.compose.compose`), their headings one level under the
    panel's. The game's page module names them by their place in the card (``HOWTO``, the
    first being 1: the same in every language); without it, or where an edition's card has fewer
    sections, the card's last section; a card without sections, none. The card's classes are
    prefixed ``howto-``, apart from the page's own."""
    card = compose("card", game, lang, rules_dir=rules_dir)
    sections = [ident for ident, _, level in card.headings if level == 1]
    if not sections:
        return ""  # an edition's card of another shape: no panel
    chosen = tuple(number for number in getattr(registry.game(game).page_config, "HOWTO", ())
                   if number <= len(sections)) or (len(sections),)
    first = card.html.index(f'<h1 id="{sections[chosen[0] - 1]}"')
    flat = nh3.clean(card.html[first:], tags=TAGS - {"div"}, attributes=ATTRIBUTES,
                     clean_content_tags={"script", "style", "header", "footer", "nav"},
                     link_rel=None)
    parts = re.split(r"(?=<h1[\s>])", flat.lstrip())[1:]
    kept = "".join(parts[number - chosen[0]] for number in chosen).strip()
    kept = re.sub(r'class="([^"]*)"', lambda found: 'class="{}"'.format(
        " ".join(f"howto-{name}" for name in found[1].split())), kept)
    return re.sub(r"(</?)h1\b", r"\1h3", kept)


def render(game: str, lang: str = "en", rules_dir: Path | None = None) -> bytes:
    """The scorer page of ``game`` in ``lang``, as UTF-8 bytes."""
    rules = load(game, rules_dir)
    name = rules.name(lang)
    words = texts(lang, game)
    css = (scoring.source(SCRIPTS, "howto.css") + scoring.source(SCRIPTS, "history.css")
           + _read("scorer.css"))
    if re.search(r"</style", css, re.IGNORECASE):
        raise ScorerError(f"{_shown('scorer.css')}: holds '</style', which would end the "
                          f"page's style sheet")
    css = rcssmin.cssmin(css)
    score = _script_text(rjsmin.jsmin(script(game, lang, rules_dir)))
    shown_view = _script_text(rjsmin.jsmin(view(game, lang, rules_dir)))
    template = Template(_read("page.html"))
    try:
        page = template.substitute(
            lang=lang, dir=language(lang).direction, game=game,
            title=html.escape(words["of_game"].replace("{name}", name)),
            name=html.escape(name), scorer=html.escape(words["scorer"]), css=css, csp=_POLICY,
            score=score, view=shown_view)
    except KeyError as exc:
        raise ScorerError(f"{_shown('page.html')}: unknown placeholder ${exc.args[0]}") from None
    except ValueError as exc:
        raise ScorerError(f"{_shown('page.html')}: {exc}") from None
    first = re.search(r"<(?:script|style)\b", page, re.IGNORECASE)
    if _POLICY not in page[:first.start() if first else None]:
        raise ScorerError(f"{_shown('page.html')}: needs its policy before any script or "
                          f"style: add <meta http-equiv=\"Content-Security-Policy\" "
                          f"content=\"$csp\"> after <meta charset>")
    page = page.replace(_POLICY, html.escape(_policy(page), quote=False), 1)
    return page.encode("utf-8")


def manifest(game: str, lang: str, rules_dir: Path | None = None) -> bytes:
    """The web app manifest that makes the page installable (served beside it)."""
    rules = load(game, rules_dir)
    name = texts(lang, game)["of_game"].replace("{name}", rules.name(lang))
    data = {"name": name, "short_name": rules.name(lang), "lang": lang,
            "dir": language(lang).direction,
            "start_url": f"{game}-scorer.html", "scope": "./", "display": "standalone",
            "background_color": "#ffffff", "theme_color": "#1f5c7a",
            "icons": [{"src": ICON, "sizes": "any", "type": "image/svg+xml",
                       "purpose": "any"}]}
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def service_worker(game: str) -> bytes:
    """The service worker that keeps the page for offline use (served beside it): its file
    writes the page's files and cache with ``GAME`` for the game's name, inside strings where
    a placeholder could not stand."""
    return scoring.source(SCRIPTS, "service-worker.js").replace("GAME", game).encode("utf-8")


ICON = ("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'%3E"
        "%3Crect width='64' height='64' rx='12' fill='%231f5c7a'/%3E%3Crect x='14' y='12' "
        "width='36' height='40' rx='3' fill='%23fff'/%3E%3Cpath d='M20 22h24M20 30h24M20 38h14"
        "' stroke='%231f5c7a' stroke-width='3'/%3E%3C/svg%3E")
"""The app's icon: a score pad, drawn inline."""

_IN_SCRIPT = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                           "\u2028": "\\u2028", "\u2029": "\\u2029"})
"""What JSON may not hold inside a page's script: ``<`` (``</script``, ``<!--``,
``<script`` in any case end or derail it), and with it ``>``, ``&`` and the two line
separators older engines read as the end of a line."""

_UNSAFE = re.compile(r"<(?=!--|/?script)", re.IGNORECASE)
"""What would end or derail an HTML script element, in any case: ``</script``, ``<script``
and ``<!--``."""


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True).translate(_IN_SCRIPT)


def _script_text(source: str) -> str:
    """``source`` fit to stand in a ``<script>`` element: the ``<`` of what would end or
    derail it written ``\\x3C``, which means ``<`` in a string, template or regular
    expression (the HTML standard's advice; the page's own code has none outside them)."""
    return _UNSAFE.sub(r"\\x3C", source)


_POLICY = "\x00policy\x00"
"""Where the page's policy goes, until the page it is made from is whole."""


def _policy(page: str) -> str:
    """The page's Content-Security-Policy: its own inline scripts and style sheets, each by
    the hash of its text, and nothing else but ``data:`` icons and, served over http(s), its
    manifest and service worker."""
    sources = inline_sources(page)
    return (f"default-src 'none'; script-src {sources['script']}; "
            f"style-src {sources['style']}; img-src data:; manifest-src 'self'; "
            "worker-src 'self'; base-uri 'none'; form-action 'none'")
