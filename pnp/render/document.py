"""Rulebooks and reference cards: Markdown with Jinja2 values, laid out by WeasyPrint.

The pipeline, one stage a function so tests can look between them:

1. :func:`compose` renders ``templates/<kind>/<game>/<lang>.md`` in a sandboxed Jinja2
   environment (``StrictUndefined``: a missing value fails the build), with the
   definition, the engine's worked example and tables in the context;
2. Markdown becomes HTML, cleaned by nh3 (no scripts, styles or event handlers), and
   is placed in ``templates/<kind>.html.j2`` (autoescaped) with a cover and a table
   of contents;
3. :func:`render_pdf` lays it out with WeasyPrint, whose URL fetcher reads only
   the edition's templates and pnp's fonts: anything else stops the build.

A rulebook is laid out once, on an A4 page whose text block also fits a US Letter
page; :func:`fit_paper` gives the Letter edition by recentring the page boxes. Both
editions have the same pages, so a page reference holds at any table, and the
layout (most of a build's time) is paid once for both.
"""

from __future__ import annotations

import functools
import html
import importlib
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import markdown
import nh3
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from pnp.assets import FONTS, current, shown
from pnp.definitions import check_game, load
from pnp.definitions.base import in_language
from pnp.engines.result import Result
from pnp.errors import PnpError
from pnp.i18n import LANGUAGES, translator
from pnp.render.paper import css_size, points

KINDS = {"rulebook": "rulebooks", "card": "cards"}
PAPERS = {"rulebook": ("a4", "letter"), "card": ("a5",)}
"""The papers each kind of document is offered on, the first being the one it is laid out on."""

TAGS = {"h1", "h2", "h3", "h4", "p", "ul", "ol", "li", "strong", "em", "a", "table", "thead",
        "tbody", "tr", "th", "td", "blockquote", "code", "pre", "hr", "br", "img", "span",
        "div", "sup", "sub", "dl", "dt", "dd", "figure", "figcaption", "abbr", "aside"}
ATTRIBUTES = {"*": {"id", "class", "title", "lang"}, "a": {"href"}, "img": {"src", "alt"},
              "td": {"colspan", "rowspan"}, "th": {"colspan", "rowspan"}, "abbr": {"title"}}


class DocumentError(PnpError):
    """A rulebook or card that cannot be built: the message names the file and the cause."""


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
    context = {"rules": rules, "lang": lang, "_": _, "game": game,
               "example": worked_example(game, rules, lang), **_game_context(game, rules)}
    path = source(kind, game, lang)
    if not path.is_file():
        raise DocumentError(f"{shown(path)}: missing (the {lang} text of the {game} {kind})")
    text = _render(_markdown_environment(current().templates), path, context)
    converter = markdown.Markdown(extensions=["tables", "toc", "attr_list", "sane_lists",
                                              "def_list"],
                                  extension_configs={"toc": {"permalink": False}})
    body = nh3.clean(converter.convert(text), tags=TAGS, attributes=ATTRIBUTES,
                     url_schemes={"http", "https", "file", "data"}, link_rel=None)
    headings = tuple(_flatten(converter.toc_tokens))  # type: ignore[attr-defined]
    kind_title = _("Rules of play") if kind == "rulebook" else _("Reference card")
    title = f"{rules.name(lang)} — {kind_title}"
    page = _page_environment(current().templates).get_template(f"{kind}.html.j2").render(
        **context, body=Markup(body), headings=headings, title=title,
        page_of=_page_of(_("page {page} of {pages}")), created=_source_date())
    return Composed(game, kind, lang, title, page, headings)


def render_pdf(composed: Composed) -> bytes:
    """Lay out and write a composed document as a tagged PDF (PDF/UA-1), on its first paper."""
    import weasyprint

    fetcher = ProjectFetcher()
    size = f"@page {{ size: {css_size(PAPERS[composed.kind][0])}; }}\n"
    style = weasyprint.CSS(string=size + font_faces(), url_fetcher=fetcher,
                           font_config=_font_config())
    try:
        document = weasyprint.HTML(string=composed.html,
                                   base_url=current().templates.as_uri() + "/",
                                   url_fetcher=fetcher).render(stylesheets=[style],
                                                               font_config=_font_config())
        pdf: bytes = document.write_pdf(pdf_variant="pdf/ua-1", uncompressed_pdf=False)
    except weasyprint.urls.FatalURLFetchingError as exc:
        raise DocumentError(f"{shown(source(composed.kind, composed.game, composed.lang))}: "
                            f"{exc}") from None
    return pdf


FACES = (("Pnp Serif", "normal", "normal", "DejaVuSerif.ttf"),
         ("Pnp Serif", "bold", "normal", "DejaVuSerif-Bold.ttf"),
         ("Pnp Serif", "normal", "italic", "DejaVuSerif-Italic.ttf"),
         ("Pnp Sans", "normal", "normal", "DejaVuSans.ttf"),
         ("Pnp Sans", "bold", "normal", "DejaVuSans-Bold.ttf"))
"""The faces the style sheets may name: (family, weight, style, file in the bundled fonts)."""


def font_faces() -> str:
    """``@font-face`` rules for the bundled fonts, wherever pnp is installed.

    They are not in the edition's style sheets, which a publisher may copy anywhere.
    """
    return "".join(f'@font-face {{ font-family: "{family}"; font-weight: {weight}; '
                   f'font-style: {style}; src: url("{(FONTS / file).as_uri()}"); }}\n'
                   for family, weight, style, file in FACES)


@functools.cache
def _font_config() -> Any:
    """One font configuration per process: the bundled fonts are loaded once, not per document."""
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


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
    """The same document for a screen: one file, its style sheet inlined, printing on ``paper``."""
    css = (current().templates / "screen.css").read_text(encoding="utf-8")
    css += f"@page {{ size: {css_size(paper)}; }}\n"
    return re.sub(r'<link rel="stylesheet" href="[^"]+">',
                  lambda _match: f"<style>\n{css}</style>", composed.html, count=1)


def worked_example(game: str, rules: Any, lang: str) -> dict[str, Any]:
    """The game's example input scored by the engine, with each line in words."""
    import yaml

    engine = importlib.import_module(f"pnp.engines.{game}")
    texts = importlib.import_module(f"pnp.texts.{game}")
    data = yaml.safe_load((current().examples / f"{game}.yaml").read_text(encoding="utf-8"))
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


def _game_context(game: str, rules: Any) -> dict[str, Any]:
    """Tables a game's documents quote: its engine's ``tables(rules)``, where it has one."""
    engine = importlib.import_module(f"pnp.engines.{game}")
    tables = getattr(engine, "tables", None)
    return dict(tables(rules)) if tables else {}


class ProjectFetcher:
    """WeasyPrint's fetcher, allowed to read only the edition's templates and pnp's fonts."""

    def __init__(self) -> None:
        from weasyprint.urls import URLFetcher

        self._inner = URLFetcher(allowed_protocols={"file", "data"})
        self._readable = (current().templates.resolve(), FONTS.resolve())

    def fetch(self, url: str, headers: Any = None) -> Any:
        from urllib.parse import unquote, urlparse

        from weasyprint.urls import FatalURLFetchingError

        parsed = urlparse(url)
        if parsed.scheme == "data":
            return self._inner.fetch(url, headers)
        if parsed.scheme == "file":
            path = Path(unquote(parsed.path)).resolve()
            if any(path.is_relative_to(folder) for folder in self._readable):
                return self._inner.fetch(url, headers)
        raise FatalURLFetchingError(
            f"refers to {url}, outside the edition's templates and pnp's fonts")

    def __call__(self, url: str) -> Any:
        return self.fetch(url)


@functools.cache
def _markdown_environment(templates: Path) -> SandboxedEnvironment:
    env = SandboxedEnvironment(loader=jinja2.FileSystemLoader(templates),
                               undefined=jinja2.StrictUndefined, autoescape=False,
                               keep_trailing_newline=True)
    env.filters["signed"] = _signed
    env.filters["tr"] = in_language
    return env


@functools.cache
def _page_environment(templates: Path) -> SandboxedEnvironment:
    env = SandboxedEnvironment(loader=jinja2.FileSystemLoader(templates),
                               undefined=jinja2.StrictUndefined,
                               autoescape=jinja2.select_autoescape(["html", "j2"]))
    env.filters["signed"] = _signed
    env.filters["tr"] = in_language
    return env


def _render(env: SandboxedEnvironment, path: Path, context: dict[str, Any]) -> str:
    try:
        return env.from_string(path.read_text(encoding="utf-8")).render(context)
    except jinja2.TemplateSyntaxError as exc:
        raise DocumentError(f"{shown(path)}:{exc.lineno}: {exc.message}") from None
    except SecurityError as exc:
        raise DocumentError(f"{shown(path)}:{_line_of(exc)}: not allowed: {exc}") from None
    except jinja2.UndefinedError as exc:
        raise DocumentError(f"{shown(path)}:{_line_of(exc)}: {exc}") from None
    except jinja2.TemplateError as exc:
        raise DocumentError(f"{shown(path)}:{_line_of(exc)}: {exc}") from None


def _line_of(exc: BaseException) -> str:
    """The template line an error came from, read off its traceback."""
    tb = exc.__traceback__
    line = "?"
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = str(tb.tb_lineno)
        tb = tb.tb_next
    return line


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
