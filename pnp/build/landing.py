"""``output/index.html``: the landing page of a build, as a player and a printer would want it.

A card per game with its title lockup, its facts and a "print these first" set; every file
with a human label ("Score sheet · 4 per sheet · black & white"), its first page and its size;
filters for paper and language (their script is ``landing.js`` beside this module); how to
print. Pure: the build hands it the manifest and the definitions, and writes what it returns.
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.i18n.catalogues import translator
from pnp.i18n.languages import codes, language
from pnp.outputs.targets import Target, target_of
from pnp.registry import REGISTRY
from pnp.sheets.layout import layouts

PAGE_LANGUAGE = "en"
"""The language the page itself is written in: its sentences and every file's label."""
NBSP, NBHY = "\u00a0", "\u2011"
"""The no-break space and hyphen that keep a label's phrases whole (see :func:`label`)."""
PAPER_NAMES = {"a4": "A4", "letter": "Letter", "a5": "A5"}
FIRST_ORDER = ("rulebook", "sheet", "card", "calibration", "deck", "scorer")
"""The first set's order, whichever paper the filter shows."""
FIRST_KINDS = ("sheet", "pad", "aid")
"""The sheet a new player prints first, whichever of these the game has."""


def role(target: Target) -> str:
    """What a built file is to a player: its document, but ``calibration`` for a deck's
    calibration sheet (one of :data:`FIRST_ORDER`)."""
    if target.document == "deck" and target.kind.startswith("calibration"):
        return "calibration"
    return target.document


def label(target: Target) -> str:
    """The file as the page names it, in plain words of the page's language: a sheet by its
    layout's own title (``Score sheet · 4 per sheet · black & white``), a deck by its cards
    and how far its backs are moved. A line breaks after a ``·`` or between two words of a
    phrase, never inside ``4 per sheet``, ``black & white``, ``1 mm`` or ``poker-size``."""
    if target.document == "rulebook":
        return "Rulebook" if target.fmt == "pdf" else "Rulebook, web page"
    if target.document == "card":
        return f"Reference card{NBSP}(A5)"
    if role(target) == "calibration":
        return "Deck calibration sheet"
    if target.document == "deck":
        x, y = target.offset
        moves = ([f"{abs(x):g}{NBSP}mm {'right' if x > 0 else 'left'}"] if x else []) + (
            [f"{abs(y):g}{NBSP}mm {'up' if y > 0 else 'down'}"] if y else [])
        cards = f"Deck of {target.kind}{NBHY}size cards"
        return (f"{cards}, backs moved {' and '.join(moves)}" if moves
                else f"{cards}, two{NBHY}sided")
    if target.document == "scorer":
        return "Scorer for a phone"
    title = translator(PAGE_LANGUAGE, target.game)(layouts(target.game)[target.kind].title)
    parts = [title[:1].upper() + title[1:]]
    if target.per_page > 1:
        parts.append(f"{target.per_page}{NBSP}per{NBSP}sheet")
    if target.fillable:
        parts.append("fillable")
    if target.grayscale:
        parts.append(f"black{NBSP}&{NBSP}white")
    return f"{NBSP}· ".join(parts)


def describe(key: str) -> Target | None:
    """The file a manifest key such as ``qwinto/en/qwinto-sheet-grayscale-2up-a4.pdf`` names,
    if the page lists it: a PDF or web page pnp makes (a sheet of a layout its game offers)."""
    target = target_of(key)
    if target is None or target.fmt not in ("pdf", "html") or target.game not in REGISTRY:
        return None
    return None if target.document == "sheet" and target.kind not in layouts(target.game) \
        else target


@dataclass(frozen=True)
class Game:
    """What the landing page shows of a game beside its files."""

    game: str
    name: str
    players: str
    minutes: int | None
    lockup: str
    """The title lockup as inline SVG."""


def _first_set(entries: list[Target], paper: str) -> list[Target]:
    """What to print first on ``paper``: the rulebook, the first sheet, the card, the deck."""
    def pick(test: Callable[[Target], bool]) -> list[Target]:
        return [e for e in entries if test(e)][:1]

    first_kind = next((k for k in FIRST_KINDS if any(e.kind == k for e in entries)), "")
    return (pick(lambda e: e.document == "rulebook" and e.fmt == "pdf" and e.paper == paper)
            + pick(lambda e: e.document == "sheet" and e.kind == first_kind and e.paper == paper
                   and e.per_page == 1 and not e.grayscale and not e.fillable)
            + pick(lambda e: e.document == "card")
            + pick(lambda e: role(e) == "calibration" and e.paper == paper)
            + pick(lambda e: role(e) == "deck" and e.paper == paper and not any(e.offset)))


def _wrap_name(name: str) -> str:
    """A file name that may wrap only after its hyphens and dots, never inside a word."""
    return "<wbr>".join(html.escape(part) for part in re.split(r"(?<=[-.])", name))


def _size(size: int) -> str:
    return f"{size / 1024:.0f}\u00a0KB" if size >= 1024 else f"{size}\u00a0B"


PHONE_BOXES = ('<svg viewBox="0 0 40 36">' + "".join(
    f'<rect x="{2 + 9.5 * column}" y="{2 + 8.5 * row}" width="7" height="6" rx="1" fill="none" '
    f'stroke="#7d8a95" stroke-width=".6"/>' for row in range(4) for column in range(4))
    + "</svg>")
"""The rows of writing boxes a scorer's picture shows on its phone."""


def _phone(game: Game) -> str:
    """The picture of a scorer: a phone showing the page's bar with the game's name over its
    lockup and rows of boxes. A scorer's page is drawn by its scripts, so no picture of it
    can be made without a browser; this one says what the file is, not how it looks."""
    return ('<span class="web-thumb phone-thumb" aria-hidden="true"><span class="phone-screen">'
            f'<span class="phone-bar">{html.escape(game.name)}</span>'
            f'<span class="phone-lockup">{game.lockup}</span>'
            f'<span class="phone-boxes">{PHONE_BOXES}</span></span></span>')


def _item(entry: Target, manifest: Mapping[str, Mapping[str, Any]], game: Game,
          thumbnail: Callable[[str], str | None] | None) -> str:
    """One file's link, with its first page from ``thumbnail``; without one (a scorer), a QR
    code of its address where the page is served by ``pnp serve`` (a file opened from disk
    has no address a phone could use)."""
    key = entry.relative.as_posix()
    info = manifest[key]
    thumb = thumbnail(key) if thumbnail else None
    if thumb is None and thumbnail and entry.document == "rulebook" and entry.fmt == "html":
        thumb = thumbnail(dataclasses.replace(entry, fmt="pdf").relative.as_posix())
    qr = thumbnail is None
    paper_name = PAPER_NAMES.get(entry.paper, "")
    where = ", ".join(p for p in (language(entry.lang).name, paper_name) if p)
    where_shown = _in_language(entry.lang) + (f", {paper_name}" if paper_name else "")
    if thumb:
        picture = (f'<img src="{html.escape(thumb)}" loading="lazy" '
                   f'alt="First page of the {html.escape(game.name)} '
                   f'{html.escape(label(entry).lower())} ({html.escape(where)})">')
    elif entry.document == "scorer":
        picture = _phone(game)
    else:
        picture = f'<span class="web-thumb" aria-hidden="true">{game.lockup}</span>'
    pages = info.get("pages") or 0
    details = [entry.fmt.upper()]
    if pages:
        details.append(f"{pages}\u00a0page{'s' if pages > 1 else ''}")
    details.append(_size(int(info.get("size", 0))))
    paper = entry.paper if entry.paper in ("a4", "letter") else "any"
    return (f'<li data-paper="{paper}" data-lang="{entry.lang}">'
            f'<a href="{html.escape(key)}">{picture}'
            f'<span class="label">{html.escape(label(entry))}</span>'
            f'<span class="where">{where_shown} · {" · ".join(details)}</span>'
            f'<span class="file">{_wrap_name(entry.relative.name)}</span></a>'
            + (f'<span class="qr" data-qr="{html.escape(key)}" '
               f'data-alt="QR code: open the {html.escape(game.name)} scorer '
               f'({html.escape(where)}) on a phone"></span>' if qr else "")
            + "</li>")


def page(manifest: Mapping[str, Mapping[str, Any]], games: list[Game],
         thumbnail: Callable[[str], str | None]) -> str:
    """The landing page for the built files of ``manifest`` (keys relative to the build
    folder); ``thumbnail(key)`` is the first page's picture, if there is one."""
    from pnp.scorer.scripts import source

    entries: dict[str, list[Target]] = {}
    for key in sorted(manifest):
        entry = describe(key)
        if entry is not None:
            entries.setdefault(entry.game, []).append(entry)
    cards = []
    for game in games:
        mine = entries.get(game.game, [])
        if not mine:
            continue
        facts = [f"{game.players} players"] + ([f"about {game.minutes} minutes"]
                                              if game.minutes else [])
        known = codes()
        chosen = sorted(dict.fromkeys(
            e for lang in known for paper in ("a4", "letter")
            for e in _first_set([x for x in mine if x.lang == lang], paper)),
            key=lambda e: (known.index(e.lang), FIRST_ORDER.index(role(e))))
        first = [_item(e, manifest, game, thumbnail) for e in chosen]
        scorers = [e for e in mine if e.document == "scorer"]
        phone = "".join(_item(e, manifest, game, None) for e in scorers)
        others = [_item(e, manifest, game, thumbnail) for e in mine
                  if e not in chosen and e not in scorers]
        cards.append(
            f'<article class="game" id="{game.game}" aria-labelledby="{game.game}-title">'
            f'<header><h2 id="{game.game}-title">{game.lockup}'
            f'<span class="visually-hidden">{html.escape(game.name)}</span></h2>'
            f'<p class="facts">{html.escape(" · ".join(facts))}</p></header>'
            f'<section class="set"><h3>Print these first</h3>'
            f'<ul class="files first">{"".join(first)}</ul></section>'
            + (f'<section class="set"><h3>Score on a phone</h3>'
               f'<ul class="files phone">{phone}</ul></section>' if phone else "")
            + f'<details><summary><span>Every file for {html.escape(game.name)} '
            f'(<span class="count">{len(others)}</span> more)</span></summary>'
            f'<ul class="files">{"".join(others)}</ul></details>'
            f"</article>")
    nav = "".join(f'<a href="#{g.game}">{html.escape(g.name)}</a>' for g in games
                  if g.game in entries)
    built = [e for game in games for e in entries.get(game.game, [])]
    made = TEMPLATE.format(nav=nav, filters=_filters(built), games="\n".join(cards),
                           policy=POLICY, script=source(Path(__file__).parent, "landing.js"))
    return made.replace(POLICY, html.escape(_policy(made), quote=False), 1)


def _filters(built: list[Target]) -> str:
    """The paper and language buttons: one for each paper and language the files shown
    were built in (and "All" where there are several languages), the first one chosen."""
    papers = [p for p in ("a4", "letter") if any(e.paper == p for e in built)] or ["a4"]
    languages = [lang for lang in codes() if any(e.lang == lang for e in built)]
    choices = (["all"] if len(languages) != 1 else []) + languages

    def button(name: str, value: str, words: str, index: int) -> str:
        return (f'<label><input type="radio" name="{name}" value="{value}"'
                f'{" checked" if index == 0 else ""}> {words}</label>')

    return ('<fieldset><legend>Paper</legend>'
            + "".join(button("paper", paper, PAPER_NAMES[paper], i)
                      for i, paper in enumerate(papers))
            + '</fieldset><fieldset><legend>Language</legend>'
            + "".join(button("lang", lang, "All" if lang == "all" else _in_language(lang), i)
                      for i, lang in enumerate(choices))
            + "</fieldset>")


def _in_language(code: str) -> str:
    """A language's name in itself, marked up as written in it (and in its direction)."""
    facts = language(code)
    return (f'<span lang="{code}" dir="{facts.direction}">'
            f"{html.escape(facts.name)}</span>")


POLICY = "\x00policy\x00"
"""Where the page's Content-Security-Policy goes, until the page is whole."""


def _policy(made: str) -> str:
    """The page's policy: no script or style sheet but its own (by their hashes), no
    plug-in, no ``<base>``, no form; pictures and links as the page has them."""
    from pnp.books.references import inline_sources

    sources = inline_sources(made)
    return (f"script-src {sources['script']}; style-src {sources['style']}; "
            "object-src 'none'; base-uri 'none'; form-action 'none'")


TEMPLATE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Print-and-play files</title>
<style>
:root {{ --ink: #1d1b22; --muted: #5d5966; --line: #dcd8e2; --paper: #faf9f7; --accent: #2f5d8a; }}
* {{ box-sizing: border-box; }}
body {{ margin: 0; font: 1rem/1.5 Lato, "Helvetica Neue", Arial, sans-serif; color: var(--ink);
       background: var(--paper); }}
.visually-hidden {{ position: absolute; width: 1px; height: 1px; overflow: hidden;
                    clip: rect(0 0 0 0); white-space: nowrap; }}
.top {{ background: #fff; border-bottom: 1px solid var(--line); padding: 1.2rem 1.5rem 1rem; }}
.top h1 {{ margin: 0 0 .3rem; font-size: 1.6rem; }}
.top p {{ margin: 0 0 .8rem; color: var(--muted); max-width: 46rem; }}
nav.games {{ display: flex; flex-wrap: wrap; gap: .4rem 1rem; margin-bottom: .8rem; }}
nav.games a {{ color: var(--accent); font-weight: bold; }}
.filters {{ display: flex; flex-wrap: wrap; gap: .6rem 1.6rem; align-items: center; }}
.filters fieldset {{ border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap;
                     gap: .3rem; }}
.filters legend {{ float: left; margin-right: .5rem; font-weight: bold; line-height: 44px; }}
.filters label {{ position: relative; display: inline-flex; align-items: center;
                 justify-content: center; padding: 0 .85rem; border: 1px solid var(--line);
                 border-radius: 999px; background: #fff; min-height: 44px; cursor: pointer;
                 white-space: nowrap; }}
.filters input {{ position: absolute; opacity: 0; width: 1px; height: 1px; margin: 0; }}
.filters label:hover {{ border-color: var(--accent); }}
.filters label:has(input:checked) {{ background: var(--accent); border-color: var(--accent);
                                     color: #fff; }}
.filters label:has(input:focus-visible) {{ outline: 3px solid #e8a33d; outline-offset: 2px; }}
.empty {{ margin: 0; color: var(--muted); }}
main {{ padding: 1rem 1.5rem 3rem; display: grid; gap: 1.5rem; }}
.game, section.how {{ background: #fff; border: 1px solid var(--line); border-radius: 12px;
                     padding: 1.2rem 1.4rem; }}
.game h2 {{ margin: 0; line-height: 0; }}
.game h2 svg {{ height: 2.6rem; width: auto; max-width: 100%; }}
.facts {{ margin: .5rem 0 0; color: var(--muted); }}
.game h3 {{ font-size: 1rem; margin: 1.2rem 0 .5rem; }}
.files {{ list-style: none; padding: 0; margin: 0; display: grid; gap: .8rem;
          grid-template-columns: repeat(auto-fill, minmax(10.5rem, 1fr)); }}
.files li a {{ display: flex; flex-direction: column; gap: .15rem; color: inherit;
              text-decoration: none; padding: .4rem; border-radius: 8px; min-height: 44px; }}
.files li a:hover, .files li a:focus-visible {{ background: #f0eef4; }}
.files img, .web-thumb {{ display: block; width: 100%; aspect-ratio: 1 / 1.1; object-fit: contain;
                         object-position: top; background: #fff; border: 1px solid var(--line);
                         border-radius: 4px; }}
.web-thumb {{ display: flex; align-items: center; justify-content: center; padding: .8rem; }}
.web-thumb svg {{ width: 100%; height: auto; }}
.phone-thumb {{ padding: 0; background: #f3f1ee; }}
.phone-screen {{ display: flex; flex-direction: column; gap: .4rem; width: 50%;
                aspect-ratio: 9 / 17; overflow: hidden; background: #eef2f5;
                border: 4px solid #2b2930; border-radius: 12px; }}
.phone-bar {{ background: #1f5c7a; color: #fff; font-size: .6rem; font-weight: bold;
             line-height: 1.2; padding: .3rem .35rem; }}
.phone-lockup {{ padding: 0 .3rem; }}
.phone-boxes {{ margin: 0 .3rem; background: #fff; border-radius: 3px; }}
.phone-boxes svg {{ display: block; width: 100%; height: auto; }}
.label {{ font-weight: bold; line-height: 1.3; }}
.where, .file {{ font-size: .82rem; color: var(--muted); }}
.file {{ overflow-wrap: normal; word-break: normal; }}
details {{ margin-top: 1rem; }}
summary {{ cursor: pointer; font-weight: bold; min-height: 44px; display: flex;
           align-items: center; }}
details .files {{ margin-top: .6rem; }}
.qr img {{ display: block; width: 7rem; height: 7rem; margin: .3rem .4rem; }}
section.how h2 {{ margin-top: 0; font-size: 1.2rem; }}
section.how li {{ margin: .3rem 0; }}
code {{ font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .9em;
        background: #f0eef4; padding: .05rem .3rem; border-radius: 4px; }}
[hidden] {{ display: none !important; }}
@media (max-width: 40rem) {{
  .top, main {{ padding-left: 1rem; padding-right: 1rem; }}
  .filters {{ display: grid; gap: .5rem; }}
  .filters legend {{ float: none; line-height: 1.5; padding: 0 0 .2rem; }}
  .filters label {{ padding: 0 .6rem; }}
  .files {{ grid-template-columns: repeat(2, minmax(0, 1fr)); }}
}}
@media (max-width: 22.5rem) {{
  .filters fieldset {{ gap: .2rem; }}
  .filters label {{ padding: 0 .4rem; }}
}}
</style></head>
<body>
<div class="top">
<h1>Print-and-play files</h1>
<p>Rulebooks, score sheets, reference cards and decks for every game. Choose your paper and
language, print the first set, and you are ready to play.</p>
<nav class="games" aria-label="Games">{nav}<a href="#how-title">How to print</a></nav>
<form class="filters" aria-label="Show files for">{filters}</form>
</div>
<main>
<p class="empty" hidden>Nothing was built for this paper and language: choose another.</p>
{games}
<section class="how" aria-labelledby="how-title">
<h2 id="how-title">How to print</h2>
<ul>
<li>Print at <strong>100 %</strong> (“Actual size”), never “Fit to page”: the boxes and cards
are drawn to size.</li>
<li>Sheets and reference cards are one-sided; print as many sheets as you have players.
“Black &amp; white” sheets tell the rows apart by shade and mark, for printers without colour.
“Fillable” sheets add up as you type in a PDF viewer on a computer.</li>
<li>Decks are printed on both sides: choose two-sided printing, flipping on the
<strong>long edge</strong>. Print the <strong>calibration sheet</strong> first and hold it up to
a light: if the marks on the back do not sit on the marks on the front, your printer shifts
the backs, and the sheet tells you by how much.</li>
<li>Cut along the cut lines; the crop marks at the edges show where the cards end.</li>
</ul>
<p>Made with pnp. To rebuild these files after changing a game's rules, run
<code>pnp build</code>; <code>pnp serve --lan</code> shows them on a phone on the same network.</p>
</section>
</main>
<script>
{script}</script>
</body></html>
"""
