"""Rulebooks and reference cards: Markdown with Jinja2 values, laid out by WeasyPrint.

The pipeline, one stage a function so tests can look between them:

1. :func:`compose` renders ``templates/<kind>/<game>/<lang>.md`` in a sandboxed Jinja2
   environment (``StrictUndefined``: a missing value fails the build), with the
   definition, the engine's worked example and tables in the context. Templates are
   read only from inside the edition's templates folder (links followed), and their
   work is bounded in time, memory and length;
2. Markdown becomes HTML, cleaned by nh3 (no scripts, styles or event handlers), and
   is placed in ``templates/<kind>.html.j2`` (autoescaped) with a cover and a table
   of contents; the page may refer only to what :mod:`pnp.books.references` allows;
3. :func:`render_pdf` lays it out with WeasyPrint, whose URL fetcher reads only
   the edition's templates and pnp's fonts: anything else stops the build.
   :func:`standalone_html` inlines the images and style sheet instead, cleans the
   finished page as a browser reads it, and forbids the browser to load anything.

A rulebook is laid out once, on an A4 page whose text block also fits a US Letter
page; :func:`fit_paper` gives the Letter edition by recentring the page boxes. Both
editions have the same pages, so a page reference holds at any table, and the
layout (most of a build's time) is paid once for both.
"""

from __future__ import annotations

import contextlib
import functools
import html
import io
import math
import os
import re
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, cast

import jinja2
import markdown
import nh3
from jinja2 import nodes
from jinja2.exceptions import SecurityError
from jinja2.loaders import split_template_path
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from pnp.assets import FONTS, current, shown
from pnp.books.figures import Context as FigureContext
from pnp.books.figures import Figures, inline, overlay
from pnp.books.layout import align_numbers, keep_together
from pnp.books.references import (
    IMAGES,
    MAX_FETCHED,
    Fault,
    Policy,
    clipped,
    data_bytes,
    data_inside,
    image_type,
    loadable,
    read_inside,
)
from pnp.definitions import check_game, load
from pnp.definitions.base import GameInfo, in_language
from pnp.draw.identity import lockup_svg
from pnp.draw.paper import css_size, points
from pnp.engine.result import Result
from pnp.errors import DocumentError, FigureError, Outside, ReadError, Unreadable
from pnp.games import registry
from pnp.i18n.catalogues import LANGUAGES, translator, typography
from pnp.outputs.documents import keyword
from pnp.outputs.targets import sheet_file

KINDS = {"rulebook": "rulebooks", "card": "cards"}
PAPERS = {"rulebook": ("a4", "letter"), "card": ("a5",)}
"""The papers each kind of document is offered on, the first being the one it is laid out on."""

TAGS = {"h1", "h2", "h3", "h4", "p", "ul", "ol", "li", "strong", "em", "a", "table", "thead",
        "tbody", "tr", "th", "td", "blockquote", "code", "pre", "hr", "br", "img", "span",
        "div", "sup", "sub", "dl", "dt", "dd", "figure", "figcaption", "abbr", "aside"}
ATTRIBUTES = {"*": {"id", "class", "title", "lang"}, "a": {"href"}, "img": {"src", "alt"},
              "td": {"colspan", "rowspan"}, "th": {"colspan", "rowspan"}, "abbr": {"title"}}


TEMPLATE_SECONDS = 4.0
"""Time a document's templates may take to render (the longest bundled one takes 0.15 s)."""
TEMPLATE_MEMORY = 256 * 1024 * 1024
"""Memory a template may take while it renders, beyond what the process already uses."""
MAX_TEXT = 128 * 1024
"""Characters a document's text or its body in HTML may come to (its page, twice this).
The longest bundled page has about 31 000; WeasyPrint takes about 3 s to lay out this many."""
MAX_BITS = 4000
"""Bits a number computed in a template may have (about 1 200 digits)."""
MARKDOWN_SECONDS = 2.0
"""Processor time reading a document's Markdown may take (the longest bundled: 0.05 s)."""
LAYOUT_SECONDS = 6.0
"""Processor time WeasyPrint may take to lay out a document (the longest bundled: 1.5 s)."""


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
    if lang not in LANGUAGES:
        raise DocumentError(f"unknown language '{lang}' (expected {', '.join(LANGUAGES)})")
    rules = load(game, rules_dir)
    _ = translator(lang, game)
    example = worked_example(game, rules, lang)
    figures = Figures(FigureContext(game, rules, lang, _, example))
    context = {"rules": rules, "lang": lang, "_": _, "game": game, "example": example,
               "figure": figures.figure, "figure_ref": figures.figure_ref,
               "sheet_file": functools.partial(sheet_file, game, lang),
               **_game_context(game, rules)}
    path = source(kind, game, lang)
    if not path.is_file():
        raise DocumentError(f"{shown(path)}: missing (the {lang} text of the {game} {kind})")
    templates = current().templates
    texts = _Sandbox(templates, autoescape=False, keep_trailing_newline=True)
    text = _render(texts, f"{KINDS[kind]}/{game}/{lang}.md", context)
    converter = markdown.Markdown(extensions=["tables", "toc", "attr_list", "sane_lists",
                                              "def_list"],
                                  extension_configs={"toc": {"permalink": False}})
    try:
        with _time_limit(MARKDOWN_SECONDS):
            body = nh3.clean(converter.convert(text), tags=TAGS, attributes=ATTRIBUTES,
                             url_schemes={"http", "https", "file", "data"}, link_rel=None)
    except RecursionError:
        raise DocumentError(f"{shown(path)}: nested too deeply to read as Markdown") from None
    except _TooSlow:
        raise DocumentError(f"{shown(path)}: takes longer than {MARKDOWN_SECONDS:g} s to read "
                            f"as Markdown") from None
    try:
        body = figures.place(body)
    except FigureError as exc:
        raise DocumentError(f"{shown(path)}: {exc}") from None
    body = align_numbers(keep_together(typeset(body, lang)))
    policy = Policy(templates)
    _refuse(policy.page(body), texts.read)
    if len(body) > MAX_TEXT:
        raise DocumentError(f"{shown(path)}: too long: more than {MAX_TEXT // 1024} KiB of "
                            f"HTML (the longest bundled rulebook has 30)")
    headings = tuple((ident, typography(text, lang), level) for ident, text, level
                     in _flatten(converter.toc_tokens))  # type: ignore[attr-defined]
    kind_title = _("Rules of play") if kind == "rulebook" else _("Reference card")
    title = f"{rules.name(lang)} — {kind_title}"
    design = _Sandbox(templates, autoescape=jinja2.select_autoescape(["html", "j2"]))
    identity = rules.print.identity
    colours = [tint.colour for tint in identity.colours]
    page = _render(design, f"{kind}.html.j2", {
        **context, "body": Markup(body), "headings": headings, "title": title,
        "art": lambda name, **size: Markup(figures.art(name, **size)),
        "lockup": Markup(lockup_svg(identity, rules.name(lang), label=rules.name(lang))),
        "identity_style": "; ".join(
            [f"--game-{index}: {colour}" for index, colour in enumerate(colours, 1)]
            + [f"--game-ink: {identity.ink.colour}"]),
        "page_of": _page_of(_("page {page} of {pages}")), "created": _source_date()},
        limit=MAX_TEXT * 2)
    _refuse(policy.page(page), design.read)
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


def _refuse(fault: Fault | None, sources: Sequence[tuple[Path, str]]) -> None:
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


def render_pdf(composed: Composed) -> bytes:
    """Lay out and write a composed document as a tagged PDF (PDF/UA-1), on its first paper."""
    with _fonts() as fonts:
        pdf, places = _lay_out(composed, fonts)
    figures = composed.figures
    if figures is not None and figures.drawn:
        pdf = overlay(pdf, places, figures.pdf(), figures.drawn)
    return pdf


def _lay_out(composed: Composed, fonts: Any) -> tuple[bytes, dict[str, tuple[int, Any]]]:
    """The PDF WeasyPrint writes for ``composed`` with the font configuration ``fonts``,
    and where its figures go (see :func:`render_pdf`)."""
    import weasyprint

    fetcher = _fetcher()
    size = f"@page {{ size: {css_size(PAPERS[composed.kind][0])}; }}\n"
    text = shown(source(composed.kind, composed.game, composed.lang))
    base_url = current().templates.as_uri() + "/"

    def lay_out(page: str) -> Any:
        with _time_limit(LAYOUT_SECONDS):
            return weasyprint.HTML(string=page, base_url=base_url, url_fetcher=fetcher).render(
                stylesheets=[style], font_config=fonts)

    try:
        style = weasyprint.CSS(string=size + font_faces(), url_fetcher=fetcher,
                               font_config=fonts)
        document = lay_out(composed.html)
        fill = last_page_fill(document) if len(document.pages) > 2 else 1.0
        for spacing in SPACINGS:
            if fill >= SHORT_LAST_PAGE:
                break
            retry = lay_out(_spaced(composed.html, spacing))
            if (retry_fill := last_page_fill(retry)) > fill:
                document, fill = retry, retry_fill
        document.metadata.keywords = [keyword(composed.kind)]
        places = {name[len("art-"):]: (index, box)
                  for index, page in enumerate(document.pages)
                  for name, box in page.anchors.items() if name.startswith("art-")}
        with _time_limit(LAYOUT_SECONDS):
            pdf: bytes = document.write_pdf(pdf_variant="pdf/ua-1", uncompressed_pdf=False)
    except weasyprint.urls.FatalURLFetchingError as exc:
        raise DocumentError(f"{text}: {exc}") from None
    except _TooSlow:
        raise DocumentError(f"{text}: takes longer than {LAYOUT_SECONDS:g} s to lay out (too "
                            f"long, or its style makes too many pages)") from None
    except RecursionError:
        raise DocumentError(f"{text}: nested too deeply to lay out") from None
    except MemoryError:
        raise DocumentError(f"{text}: takes more memory to lay out than there is") from None
    return pdf, places


SHORT_LAST_PAGE = 0.2
"""A last page filled less than this (of its text block's height) is laid out again."""
SPACINGS = ("loose", "tight")
"""Classes of ``<html>`` the style sheet sets looser or closer, tried in turn when the last
page comes out nearly empty: the first pushes more lines onto it (which nearly always
works), the second pulls its lines back onto the page before; the fullest last page is
kept. A layout costs about as much as the first, so only the books that need it pay."""


def _spaced(page: str, spacing: str) -> str:
    """The page with ``spacing`` among its root element's classes."""
    return re.sub(r"<html\b", f'<html class="{spacing}"', page, count=1)


def last_page_fill(document: Any) -> float:
    """How much of its text block's height the last page of a laid-out document uses."""
    from weasyprint.formatting_structure import boxes

    page = document.pages[-1]._page_box  # WeasyPrint's layout tree: no public accessor
    top, height = page.content_box_y(), page.height
    bottom = top
    for child in page.children:
        if isinstance(child, boxes.MarginBox):
            continue
        for box in child.descendants():
            if isinstance(box, (boxes.LineBox, boxes.ReplacedBox)) or (
                    isinstance(box, boxes.BlockBox) and not box.children):
                bottom = max(bottom, box.position_y + box.margin_height())
    return float((bottom - top) / height) if height else 1.0


FACES = (("Pnp Serif", "normal", "normal", "GentiumBookPlus-Regular.ttf"),
         ("Pnp Serif", "bold", "normal", "GentiumBookPlus-Bold.ttf"),
         ("Pnp Serif", "normal", "italic", "GentiumBookPlus-Italic.ttf"),
         ("Pnp Sans", "normal", "normal", "PnpSans-Regular.ttf"),
         ("Pnp Sans", "bold", "normal", "PnpSans-Bold.ttf"),
         ("Pnp Sans", "normal", "italic", "PnpSans-Italic.ttf"),
         ("Pnp Display", "normal", "normal", "PnpSans-Black.ttf"),
         ("Pnp Symbols", "normal", "normal", "DejaVuSans.ttf"),
         ("Pnp Symbols", "bold", "normal", "DejaVuSans-Bold.ttf"))
"""The faces the style sheets may name: (family, weight, style, file in the bundled fonts).

The studio's pair: Gentium Book Plus to read, Lato for headings, tables and the cover. Neither
has the card suits and geometric marks; style sheets name "Pnp Symbols" (DejaVu Sans) after
them, and WeasyPrint takes those characters from it."""


def font_faces() -> str:
    """``@font-face`` rules for the bundled fonts, wherever pnp is installed.

    They are not in the edition's style sheets, which a publisher may copy anywhere.
    """
    return "".join(f'@font-face {{ font-family: "{family}"; font-weight: {weight}; '
                   f'font-style: {style}; src: url("{(FONTS / file).as_uri()}"); }}\n'
                   for family, weight, style, file in FACES)


FONT_FOLDER = "pnp-fonts-"
"""How the folders WeasyPrint writes a layout's fonts into are named, before the process id."""


@contextlib.contextmanager
def _fonts() -> Iterator[Any]:
    """A font configuration for one document, and the folder WeasyPrint copies the fonts
    it loads into (about 5 MB in the temporary folder), removed after the layout: when
    it fails and when the process is asked to stop (SIGTERM) too. A process killed
    outright (SIGKILL) cannot remove it: the next one to lay out a document does.

    WeasyPrint itself removes the folder only when the configuration is collected, which
    a process that ends never does. A configuration costs about 50 ms a document."""
    import shutil
    import signal
    import tempfile
    import threading

    from weasyprint.text.fonts import FontConfiguration

    _remove_abandoned(Path(tempfile.gettempdir()))
    asked: list[int] = []

    def stop(number: int, _frame: Any) -> None:
        asked.append(number)
        raise _Stopped

    armed = (threading.current_thread() is threading.main_thread()
             and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)
    if armed:
        signal.signal(signal.SIGTERM, stop)
    folder: Path | None = None
    try:
        folder = Path(tempfile.mkdtemp(prefix=f"{FONT_FOLDER}{os.getpid()}-"))
        config = FontConfiguration()
        config._folder = folder  # where WeasyPrint writes the fonts (no public setting)
        yield config
    except _Stopped:
        pass
    finally:
        if armed:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    if asked:  # even if WeasyPrint swallowed the exception (it catches all around SVG)
        os.kill(os.getpid(), signal.SIGTERM)
        raise SystemExit(128 + signal.SIGTERM)


class _Stopped(BaseException):
    """SIGTERM during a layout, raised where the process is, so that its fonts are removed
    before it ends as SIGTERM ends it."""


def _remove_abandoned(temporary: Path) -> None:
    """Remove the font folders of pnp processes that no longer run."""
    import shutil

    for folder in temporary.glob(f"{FONT_FOLDER}*-*"):
        pid = folder.name[len(FONT_FOLDER):].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue


def fit_paper(pdf: bytes, paper: str) -> bytes:
    """The same pages on ``paper``: every page box recentred on what was laid out.

    Nothing is scaled or moved; the page only grows or shrinks around its centre, which
    is why the rulebook's margins leave room for both A4 and Letter.
    """
    import pikepdf

    width, height = points(paper)
    with pikepdf.open(io.BytesIO(pdf)) as document:
        for page in document.pages:
            x0, y0, x1, y1 = (float(v) for v in page.MediaBox)
            dx, dy = (x1 - x0 - width) / 2, (y1 - y0 - height) / 2
            box = pikepdf.Array([round(v, 3) for v in (x0 + dx, y0 + dy, x1 - dx, y1 - dy)])
            for name in ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox", "/ArtBox"):
                if name == "/MediaBox" or name in page.obj:
                    page.obj[name] = box
        output = io.BytesIO()
        document.save(output, deterministic_id=True)
    return output.getvalue()


def renderings(kind: str, game: str, lang: str, outputs: Sequence[tuple[str, str]],
               rules_dir: Path | None = None) -> Iterator[bytes]:
    """Each ``(format, paper)`` of one document, from one composition and one layout.

    The bytes come one output at a time, so a caller can time and write each.
    """
    for fmt, paper in outputs:
        if fmt not in ("pdf", "html"):
            raise DocumentError(f"unknown format '{fmt}' (expected pdf or html)")
        if paper not in PAPERS.get(kind, (paper,)):
            raise DocumentError(f"unknown paper '{paper}' for a {kind} "
                                f"(expected {', '.join(PAPERS[kind])})")
    composed = compose(kind, game, lang, rules_dir=rules_dir)
    laid_out: bytes | None = None
    for fmt, paper in outputs:
        if fmt == "html":
            yield standalone_html(composed, paper).encode("utf-8")
            continue
        laid_out = laid_out or render_pdf(composed)
        yield laid_out if paper == PAPERS[kind][0] else fit_paper(laid_out, paper)


def render(kind: str, game: str, lang: str, fmt: str = "pdf", paper: str | None = None,
           rules_dir: Path | None = None) -> bytes:
    """A rulebook or reference card as PDF or standalone HTML bytes."""
    paper = paper or PAPERS.get(kind, ("a4",))[0]
    return next(renderings(kind, game, lang, [(fmt, paper)], rules_dir))


def standalone_html(composed: Composed, paper: str) -> str:
    """The same document for a screen: one file, printing on ``paper``, that refers to
    nothing outside itself. Its style sheet is ``screen.css``, inlined; its images are
    inlined; a Content-Security-Policy forbids the browser to load anything."""
    templates = current().templates
    screen = templates / "screen.css"
    try:
        css = read_inside(templates, screen)
    except Unreadable as exc:
        raise DocumentError(f"{shown(screen)}: {exc}") from None
    policy = Policy(templates, standalone=True)
    _refuse(policy.css(css, screen), [])
    css += f"@page {{ size: {css_size(paper)}; }}\n"
    page = policy.for_screen(composed.html, css)
    design = templates / f"{composed.kind}.html.j2"
    try:
        sources = [(design, read_inside(templates, design))]
    except Unreadable:
        sources = [(design, "")]
    _refuse(policy.page(page), sources)
    if composed.figures is not None:
        page = inline(page, composed.figures.drawn)
    return policy.finished(page, composed.lang)


def worked_example(game: str, rules: GameInfo, lang: str) -> dict[str, Any]:
    """The game's example input scored by the engine, with each line in words."""
    from pnp.reading import load_yaml

    engine, texts = registry.game(game).engine, registry.game(game).texts
    examples = current().examples
    path = examples / f"{game}.yaml"
    try:
        data = load_yaml(read_inside(examples, path))
    except Unreadable as exc:
        raise DocumentError(f"{shown(path)}: {exc}") from None
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


def _fetcher() -> Any:
    """WeasyPrint's fetcher, allowed to read only the edition's templates and pnp's fonts
    (and inline ``data:``): anything else stops the layout, naming what was refused. What
    it reads of the edition (and any ``data:``) must be :func:`loadable`: a PNG or JPEG
    image within bounds, or neither markup nor another kind of image."""
    import mimetypes
    from urllib.parse import urlsplit
    from urllib.request import url2pathname

    from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

    templates = current().templates.resolve()
    fonts = FONTS.resolve()

    class ProjectFetcher(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> Any:
            parts = urlsplit(url)
            if parts.scheme.lower() == "data":
                try:
                    data = data_bytes(url)
                    loadable(data)
                except Unreadable as exc:
                    raise FatalURLFetchingError(f"refers to {clipped(url, 40)}: {exc}") from None
                return super().fetch(url, headers)
            if parts.scheme.lower() == "file" and parts.netloc in ("", "localhost"):
                path = Path(url2pathname(parts.path)).resolve()
                if path.is_relative_to(fonts) and path.is_file():
                    return super().fetch(url, headers)
                if path.is_relative_to(templates):
                    name = clipped(str(path.relative_to(templates)))
                    if not path.is_file():
                        raise FatalURLFetchingError(f"refers to {name}, which is not a file in "
                                                    f"the edition's templates")
                    try:
                        data = data_inside(templates, path, MAX_FETCHED, "a file to lay out")
                        kind = image_type(data) if path.suffix.lower() in IMAGES else None
                        loadable(data)
                    except Unreadable as exc:
                        raise FatalURLFetchingError(f"refers to {name}: {exc}") from None
                    kind = kind or mimetypes.guess_type(path.name)[0]
                    return URLFetcherResponse(path.as_uri(), data,
                                              {"Content-Type": kind or "application/octet-stream"})
            raise FatalURLFetchingError(
                f"refers to {clipped(url)}, outside the edition's templates and pnp's fonts")

    return ProjectFetcher(allowed_protocols={"file", "data"}, fail_on_errors=True)


class _Refused(jinja2.TemplateRuntimeError):
    """A template that went past a bound: too long, too slow, too big a number."""


class _EditionLoader(jinja2.BaseLoader):
    """Reads templates from the edition's templates folder and nowhere else: a name
    whose file, or a folder on its way, is a link leading outside is refused."""

    def __init__(self, templates: Path, read: list[tuple[Path, str]]) -> None:
        self.templates = templates
        self.read = read

    def get_source(self, environment: jinja2.Environment,
                   template: str) -> tuple[str, str, Callable[[], bool]]:
        if isinstance(environment, _Sandbox):
            environment.check()
        path = self.templates.joinpath(*split_template_path(template))
        try:
            text = read_inside(self.templates, path)
        except Unreadable as exc:
            if not os.path.lexists(path):
                raise jinja2.TemplateNotFound(
                    template, f"no template '{clipped(template)}' in the edition's templates"
                ) from None
            if isinstance(exc, Outside):
                raise SecurityError(f"'{clipped(template)}' {exc}") from None
            raise _Refused(f"'{clipped(template)}' {exc}") from None
        self.read.append((path, text))
        return text, str(path), lambda: True


class _Sandbox(SandboxedEnvironment):
    """The environment a document's templates render in: sandboxed, reading only the
    edition's templates, and bounded in time (every loop step, call and filter checks
    the deadline), in the numbers and sequences it computes, and (see :func:`_render`)
    in memory and length."""

    intercepted_binops = frozenset({"*", "**", "+"})

    def __init__(self, templates: Path, **options: Any) -> None:
        self.templates = templates
        self.read: list[tuple[Path, str]] = []
        """(path, text) of every template read, the first being the one rendered."""
        super().__init__(loader=_EditionLoader(templates, self.read),
                         undefined=jinja2.StrictUndefined, optimized=False,
                         **options)
        self.deadline = math.inf
        del self.globals["lipsum"]
        self.filters.update(signed=_signed, tr=in_language, pnp_steps=self._steps)
        self.filters = {name: self._timed(function) for name, function in self.filters.items()}

    def check(self) -> None:
        if time.monotonic() > self.deadline:
            raise _Refused(f"takes longer than {TEMPLATE_SECONDS:g} s to render "
                           f"(a loop too long?)")

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        for loop in tree.find_all(nodes.For):
            loop.iter = nodes.Filter(loop.iter, "pnp_steps", [], [], None, None,
                                     lineno=loop.lineno)
        return tree

    def _steps(self, items: Any) -> Iterator[Any]:
        """A loop's items, checking the deadline at each step."""
        for item in items:
            self.check()
            yield item

    def _timed(self, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.check()
            return function(*args, **kwargs)

        return timed

    def call(self, context: jinja2.runtime.Context, obj: Any, /, *args: Any,
             **kwargs: Any) -> Any:
        self.check()
        return super().call(context, obj, *args, **kwargs)

    def getattr(self, obj: Any, attribute: str) -> Any:
        self.check()
        return super().getattr(obj, attribute)

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any,
                   right: Any) -> Any:
        self.check()
        numbers = isinstance(left, int) and isinstance(right, int)
        if operator == "**" and numbers and right > 0 and abs(left) > 1 and \
                right * abs(left).bit_length() > MAX_BITS:
            raise _Refused(f"{clipped(str(left), 20)} ** {clipped(str(right), 20)} is too "
                           f"large a number")
        if operator == "*" and numbers and left.bit_length() + right.bit_length() > MAX_BITS:
            raise _Refused("multiplies numbers into too large a number")
        sequences = (str, list, tuple)
        if operator == "*" and not numbers:
            count, items = (right, left) if isinstance(right, int) else (left, right)
            if isinstance(count, int) and isinstance(items, sequences) and \
                    len(items) * count > MAX_TEXT:
                raise _Refused(f"repeats a text or list into more than {MAX_TEXT} items")
        if operator == "+" and isinstance(left, sequences) and isinstance(right, sequences) \
                and len(left) + len(right) > MAX_TEXT:
            raise _Refused(f"joins texts or lists into more than {MAX_TEXT} items")
        return super().call_binop(context, operator, left, right)


def _render(env: _Sandbox, name: str, context: dict[str, Any], limit: int = MAX_TEXT) -> str:
    """``name`` rendered in ``env``, within the deadline, the memory allowance and
    ``limit`` characters; whatever goes wrong is one line naming the file and line."""
    env.deadline = time.monotonic() + TEMPLATE_SECONDS
    main = env.templates / name
    parts: list[str] = []
    size = 0
    try:
        with _memory_allowance(TEMPLATE_MEMORY), _time_limit(TEMPLATE_SECONDS):
            generator = cast(Generator[str, None, None],
                             env.get_template(name).generate(context))
            for part in generator:
                size += len(part)
                try:
                    if size > limit:
                        raise _Refused(f"too long: more than {limit // 1024} KiB of text")
                    env.check()
                except _Refused as exc:
                    generator.throw(exc)  # raised where the template is, for its line
                parts.append(part)
    except _TooSlow as exc:  # one call that ran past the deadline, which only loops check
        slow = _Refused(f"takes longer than {TEMPLATE_SECONDS:g} s to render")
        raise DocumentError(_failure(slow.with_traceback(exc.__traceback__), main)) from None
    except Exception as exc:  # a publisher's template may fail in any way: say where
        raise DocumentError(_failure(exc, main)) from None
    return "".join(parts)


def _failure(exc: Exception, main: Path) -> str:
    """The one line saying where and why a template failed."""
    file, line = _template_frame(exc.__traceback__) or (str(main), 0)
    if isinstance(exc, jinja2.TemplateSyntaxError):
        file, line = exc.filename or str(main), exc.lineno
    if isinstance(exc, MemoryError):
        why = f"takes more than {TEMPLATE_MEMORY // 1024 // 1024} MiB of memory to render"
    elif isinstance(exc, RecursionError):
        why = "nested too deeply (a macro or include that calls itself?)"
    elif isinstance(exc, OverflowError) and not str(exc).startswith("Range"):
        why = "computes too large a number"
    elif isinstance(exc, SecurityError):
        why = f"not allowed: {exc}"
    elif isinstance(exc, jinja2.TemplateSyntaxError):
        why = exc.message or "syntax error"
    else:
        why = str(exc) or type(exc).__name__
    where = f"{shown(Path(file))}:{line}" if line else shown(Path(file))
    return f"{where}: {clipped(' '.join(why.split()), 300)}"


def _template_frame(tb: TracebackType | None) -> tuple[str, int] | None:
    """The file and line of the innermost template frame of a traceback, as Jinja
    rewrites it (its frames stand for template lines)."""
    found = None
    while tb is not None:
        if "__jinja_exception__" in tb.tb_frame.f_globals:
            found = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    return found


class _TooSlow(BaseException):
    """Raised by :func:`_time_limit`'s timer: a BaseException, so that no library's
    ``except Exception`` takes it for one of its own failures."""


RETRY_SECONDS = 0.05


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`_TooSlow` once the process has spent ``seconds`` more of processor
    time in the block, and again every 50 ms after, since a signal that arrives inside a
    callback the interpreter runs for a library (a garbage-collection hook, a C
    callback) is swallowed there. It takes the process's profiling timer, so only in the
    main thread and when nothing else uses that timer; elsewhere the block runs
    unbounded."""
    import signal
    import threading

    if (threading.current_thread() is not threading.main_thread()
            or signal.getitimer(signal.ITIMER_PROF) != (0.0, 0.0)):
        yield
        return

    def expire(_signal: int, _frame: Any) -> None:
        raise _TooSlow

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds, RETRY_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


@contextlib.contextmanager
def _memory_allowance(extra: int) -> Iterator[None]:
    """For a while, let the process take only ``extra`` more bytes of memory (address
    space): a template that would take more fails with a MemoryError then, instead of
    taking the machine's memory. Where the limit cannot be read, nothing changes."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        with open("/proc/self/statm", encoding="ascii") as statm:
            used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (ImportError, OSError, ValueError):
        used = -1
    if used < 0:
        yield
        return
    limit = min(value for value in (used + extra, soft, hard)
                if value != resource.RLIM_INFINITY)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


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


def _signed(value: int) -> str:
    """``-5`` as ``−5`` and ``5`` as ``+5``: points as people write them."""
    return f"+{value}" if value > 0 else str(value).replace("-", "−")
