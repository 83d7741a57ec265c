"""What a rulebook or reference card says: its Markdown and its game's definition, composed
into the book's HTML page (for any paper).

:func:`compose` renders ``templates/<kind>/<game>/<lang>.md`` in the
:mod:`~pnp.books.sandbox`, with the definition, the engine's worked example and tables in the
context. The Markdown becomes HTML, cleaned by nh3 (no scripts, styles or event handlers),
set in the language's typography, and placed in ``templates/<kind>.html.j2`` (autoescaped)
with a cover and a table of contents; the page may refer only to what
:mod:`pnp.books.references` allows. :mod:`pnp.books.pdf` lays it out, :mod:`pnp.books.screen`
makes it a standalone page, and :mod:`pnp.books.render` gives each format and paper.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import markdown
import nh3
from markupsafe import Markup

from pnp import registry
from pnp.assets import current, shown
from pnp.books.figures import Context as FigureContext
from pnp.books.figures import Figures
from pnp.books.layout import align_numbers, keep_together
from pnp.books.limits import TooSlow, time_limit
from pnp.books.references import Fault, Policy
from pnp.books.sandbox import MAX_TEXT, Sandbox, render_template
from pnp.definitions import check_game, load
from pnp.definitions.base import GameInfo
from pnp.draw.identity import lockup_svg
from pnp.engine.result import Result
from pnp.errors import DocumentError, FigureError, ReadError
from pnp.i18n.catalogues import translator, typography
from pnp.i18n.languages import language
from pnp.outputs.targets import sheet_file

KINDS = {"rulebook": "rulebooks", "card": "cards"}
PAPERS = {"rulebook": ("a4", "letter"), "card": ("a5",)}
"""The papers each kind of document is offered on, the first being the one it is laid out on."""

TAGS = {"h1", "h2", "h3", "h4", "p", "ul", "ol", "li", "strong", "em", "a", "table", "thead",
        "tbody", "tr", "th", "td", "blockquote", "code", "pre", "hr", "br", "img", "span",
        "div", "sup", "sub", "dl", "dt", "dd", "figure", "figcaption", "abbr", "aside"}
ATTRIBUTES = {"*": {"id", "class", "title", "lang"}, "a": {"href"}, "img": {"src", "alt"},
              "td": {"colspan", "rowspan"}, "th": {"colspan", "rowspan"}, "abbr": {"title"}}


MARKDOWN_SECONDS = 2.0
"""Processor time reading a document's Markdown may take (the longest bundled: 0.05 s)."""
PAGE_ESCAPES = jinja2.select_autoescape(["html", "j2"])
"""What the page template escapes: HTML and its includes (one function, so that the
compiled templates are kept for every book, :mod:`pnp.books.sandbox`)."""

@dataclass(frozen=True)
class Composed:
    """A document after composition, before layout."""

    game: str
    kind: str
    lang: str
    title: str
    html: str
    headings: tuple[tuple[str, str, int], ...]
    """(id, text, level) of each heading, in order: the table of contents."""
    figures: Figures | None = field(default=None, compare=False)
    """The drawings the page places (see :mod:`pnp.books.figures`)."""


def source(kind: str, game: str, lang: str) -> Path:
    return current().templates / KINDS[kind] / game / f"{lang}.md"


def compose(kind: str, game: str, lang: str, *, rules_dir: Path | None = None) -> Composed:
    """Render the text of a document into a complete HTML page (for any paper)."""
    game = check_game(game)
    if kind not in KINDS:
        raise DocumentError(f"unknown document kind '{kind}' (expected {', '.join(KINDS)})")
    rules = load(game, rules_dir)
    if lang not in rules.languages:
        raise DocumentError(f"{game} is published in {', '.join(rules.languages)}, "
                            f"not in '{lang}'")
    _ = translator(lang, game)
    example = worked_example(game, rules, lang)
    figures = Figures(FigureContext(game, rules, lang, _, example))
    context = {"rules": rules, "lang": lang, "direction": language(lang).direction, "_": _,
               "game": game, "example": example,
               "figure": figures.figure, "figure_ref": figures.figure_ref,
               "sheet_file": functools.partial(sheet_file, game, lang),
               **_game_context(game, rules)}
    path = source(kind, game, lang)
    if not path.is_file():
        raise DocumentError(f"{shown(path)}: missing (the {lang} text of the {game} {kind})")
    templates = current().templates
    texts = Sandbox(templates, autoescape=False, keep_trailing_newline=True)
    text = render_template(texts, f"{KINDS[kind]}/{game}/{lang}.md", context)
    converter = markdown.Markdown(extensions=["tables", "toc", "attr_list", "sane_lists",
                                              "def_list"],
                                  extension_configs={"toc": {"permalink": False}})
    try:
        with time_limit(MARKDOWN_SECONDS):
            body = nh3.clean(converter.convert(text), tags=TAGS, attributes=ATTRIBUTES,
                             url_schemes={"http", "https", "file", "data"}, link_rel=None)
    except RecursionError:
        raise DocumentError(f"{shown(path)}: nested too deeply to read as Markdown") from None
    except TooSlow:
        raise DocumentError(f"{shown(path)}: takes longer than {MARKDOWN_SECONDS:g} s to read "
                            f"as Markdown") from None
    try:
        body = figures.place(body)
    except FigureError as exc:
        raise DocumentError(f"{shown(path)}: {exc}") from None
    body = align_numbers(keep_together(typeset(body, lang)))
    policy = Policy(templates)
    refuse(policy.page(body), texts.read)
    if len(body) > MAX_TEXT:
        raise DocumentError(f"{shown(path)}: too long: more than {MAX_TEXT // 1024} KiB of "
                            f"HTML (the longest bundled rulebook has 30)")
    headings = tuple((ident, typography(text, lang), level) for ident, text, level
                     in _flatten(converter.toc_tokens))  # type: ignore[attr-defined]
    kind_title = _("Rules of play") if kind == "rulebook" else _("Reference card")
    title = f"{rules.name(lang)} — {kind_title}"
    design = Sandbox(templates, autoescape=PAGE_ESCAPES)
    identity = rules.print.identity
    colours = [tint.colour for tint in identity.colours]
    page = render_template(design, f"{kind}.html.j2", {
        **context, "body": Markup(body), "headings": headings, "title": title,
        "art": lambda name, **size: Markup(figures.art(name, **size)),
        "lockup": Markup(lockup_svg(identity, rules.name(lang), label=rules.name(lang))),
        "identity_style": "; ".join(
            [f"--game-{index}: {colour}" for index, colour in enumerate(colours, 1)]
            + [f"--game-ink: {identity.ink.colour}"]),
        "page_of": _page_of(_("page {page} of {pages}")), "created": _source_date()},
        limit=MAX_TEXT * 2)
    refuse(policy.page(page), design.read)
    return Composed(game, kind, lang, title, page, headings, figures)


_TAG = re.compile(r"(<[^>]*>)")
_VERBATIM = {"code", "pre", "script", "style"}


def typeset(fragment: str, lang: str) -> str:
    r"""The text of an HTML fragment in ``lang``'s typography (see
    :func:`pnp.i18n.catalogues.typography`), its markup and its code left as they are. Each
    piece of text is read after the last character of the one before, so that a quotation
    mark or a French colon that follows markup (``<strong>Note</strong>:``) is set as if the
    markup were not there.

    >>> typeset("<p><strong>Note</strong> : l'as <code>a:b</code></p>", "fr")
    '<p><strong>Note</strong>\u202f: l’as <code>a:b</code></p>'
    """
    parts = _TAG.split(fragment)
    texts: list[int] = []
    verbatim = 0
    for index, part in enumerate(parts):
        if index % 2:
            name = re.match(r"</?\s*(\w+)", part)
            if name and name[1].lower() in _VERBATIM and not part.endswith("/>"):
                verbatim += -1 if part.startswith("</") else 1
            continue
        if verbatim > 0 or not part:
            continue
        text = html.unescape(part)
        before = html.unescape(parts[texts[-1]])[-1:] if texts else ""
        done = typography(before + text, lang)
        if before and done[0] != before:
            previous = html.unescape(parts[texts[-1]])
            parts[texts[-1]] = html.escape(previous[:-1] + done[0], quote=False)
        parts[index] = html.escape(done[len(before):], quote=False)
        texts.append(index)
    return "".join(parts)


def refuse(fault: Fault | None, sources: Sequence[tuple[Path, str]]) -> None:
    """Stop at ``fault``, naming the file and line it comes from: its own, or the first
    of ``sources`` (path, text) that has its clue."""
    if fault is None:
        return
    if fault.file is not None:
        where = f"{shown(fault.file)}:{fault.line}" if fault.line else shown(fault.file)
    else:
        where = shown(sources[0][0]) if sources else "?"
        for path, text in sources:
            if fault.clue and (index := text.find(fault.clue)) >= 0:
                where = f"{shown(path)}:{text.count(chr(10), 0, index) + 1}"
                break
    raise DocumentError(f"{where}: {fault.message}")



def worked_example(game: str, rules: GameInfo, lang: str) -> dict[str, Any]:
    """The game's example input scored by the engine, with each line in words."""
    from pnp.reading import load_yaml, text_inside

    engine, texts = registry.game(game).engine, registry.game(game).texts
    examples = current().examples
    path = examples / f"{game}.yaml"
    try:
        text = text_inside(examples, path)
    except ReadError as exc:
        raise DocumentError(f"{shown(path)}: {exc}") from None
    try:
        data = load_yaml(text)
    except ReadError as exc:
        raise DocumentError(f"{shown(path)}:{exc.line or 1}: {exc.message}") from None
    result: Result = engine.score(rules, data)
    _ = translator(lang, game)
    players = {name: {"total": score.total,
                      "lines": [{"text": texts.describe(item, _), "points": item.points}
                                for item in score.items]}
               for name, score in result.scores.items()}
    return {"input": data, "result": result.to_json(), "players": players,
            "total": result.total if result.single else None,
            "totals": result.totals, "ranking": [list(g) for g in result.ranking],
            "notes": [texts.describe_note(n, _) for n in result.notes]}


def _game_context(game: str, rules: GameInfo) -> dict[str, Any]:
    """Tables a game's documents quote: its engine's ``tables(rules)``, where it has one."""
    tables = getattr(registry.game(game).engine, "tables", None)
    return dict(tables(rules)) if tables else {}


def _flatten(tokens: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    out = []
    for token in tokens:
        out.append((token["id"], html.unescape(token["name"]), token["level"]))
        out.extend(_flatten(token["children"]))
    return out


def _page_of(message: str) -> str:
    """``"page {page} of {pages}"`` as a CSS ``content`` value with live counters."""
    parts = re.split(r"(\{page\}|\{pages\})", message)
    css = []
    for part in parts:
        if part == "{page}":
            css.append("counter(page)")
        elif part == "{pages}":
            css.append("counter(pages)")
        elif part:
            css.append('"' + part.replace("\\", "\\\\").replace('"', '\\"') + '"')
    return " ".join(css)


def _source_date() -> str | None:
    """The build date from ``SOURCE_DATE_EPOCH`` (ISO 8601), or none: no date, same bytes."""
    import datetime
    import os

    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch.isdigit():
        return None
    moment = datetime.datetime.fromtimestamp(int(epoch), tz=datetime.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


