"""A composed book laid out into a PDF by WeasyPrint, and fitted to the other papers.

:func:`render_pdf` lays the page out with the bundled fonts (:func:`font_faces`, copied into a
folder of their own that goes with the layout), through a fetcher that reads only the
edition's templates and pnp's fonts: anything else stops the build. Each layout costs as
much as the rest of the book's making, so a book is laid out once when its text places its
figures where they fit, as the bundled texts do. Where a first layout leaves a page a third
empty before a figure, and what follows the figure could fill it, the book is laid out once
more with the figure further down (:func:`floats`), kept if it is fuller. A last page left
nearly empty is laid out once more, with the back matter set smaller or starting a page, as
the layout before tells (:func:`refit`).

A rulebook is laid out once, on an A4 page whose text block also fits a US Letter page;
:func:`fit_paper` gives the Letter edition by recentring the page boxes. Both editions have
the same pages, so a page reference holds at any table, and the layout (most of a build's
time) is paid once for both.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pnp.assets import FONTS, current, shown
from pnp.books.compose import PAPERS, Composed, source
from pnp.books.figures import overlay
from pnp.books.images import IMAGES, MAX_FETCHED, data_bytes, image_type, loadable
from pnp.books.layout import HEADINGS, deferred
from pnp.books.limits import TooSlow, time_limit
from pnp.books.references import clipped
from pnp.draw import fonts
from pnp.draw.paper import css_size, points
from pnp.errors import DocumentError, ReadError
from pnp.outputs.documents import keyword
from pnp.reading import read_inside

LAYOUT_SECONDS = 6.0
"""Processor time WeasyPrint may take to lay out a document, and to write it (the longest
bundled: 0.7 s and 0.3 s)."""


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

    def lay_out(html: str, *refitted: str) -> Any:
        sheets = [style, *(weasyprint.CSS(string=css, font_config=fonts) for css in refitted)]
        with time_limit(LAYOUT_SECONDS):
            return weasyprint.HTML(string=html, base_url=base_url,
                                   url_fetcher=fetcher).render(stylesheets=sheets,
                                                               font_config=fonts)

    try:
        style = weasyprint.CSS(string=size + font_faces(), url_fetcher=fetcher,
                               font_config=fonts)
        html = composed.html
        document = lay_out(html)
        moves = floats(document)
        if moves:  # one more layout, kept if it leaves less of the pages empty
            moved = deferred(html, moves)
            retry = lay_out(moved)
            if len(retry.pages) <= len(document.pages) and shortfall(retry) < shortfall(document):
                document, html = retry, moved
        fill = last_page_fill(document) if len(document.pages) > 2 else 1.0
        refitted = refit(document) if fill < SHORT_LAST_PAGE else None
        if refitted is not None:
            retry = lay_out(html, refitted)
            if (len(retry.pages), -last_page_fill(retry)) < (len(document.pages), -fill):
                document = retry
        document.metadata.keywords = [keyword(composed.kind)]
        places = {name[len("art-"):]: (index, box)
                  for index, page in enumerate(document.pages)
                  for name, box in page.anchors.items() if name.startswith("art-")}
        with time_limit(LAYOUT_SECONDS):
            pdf: bytes = document.write_pdf(pdf_variant="pdf/ua-1", uncompressed_pdf=False)
    except weasyprint.urls.FatalURLFetchingError as exc:
        raise DocumentError(f"{text}: {exc}") from None
    except TooSlow:
        raise DocumentError(f"{text}: takes longer than {LAYOUT_SECONDS:g} s to lay out (too "
                            f"long, or its style makes too many pages)") from None
    except RecursionError:
        raise DocumentError(f"{text}: nested too deeply to lay out") from None
    except MemoryError:
        raise DocumentError(f"{text}: takes more memory to lay out than there is") from None
    return pdf, places


MOST_EMPTY = 1 / 3
"""The most of its text block's height a page but the last may leave empty at its foot: a
page that ends above it before a figure sends the figure further down (:func:`floats`)."""


def floats(document: Any) -> list[tuple[int, int]]:
    """Where the figures that leave a page too empty go instead, told from a first layout:
    for each page but the last that ends more than :data:`MOST_EMPTY` empty before a
    figure (or a group kept together that ends with one), the figure's index among the
    blocks of ``<main>`` and how many of the blocks after it go before it, as many as
    fill the room left (:func:`pnp.books.layout.deferred` moves them).

    A figure stays in its chapter (it never passes an ``h1``) and in order with the other
    figures, and what goes before it never ends with a heading or an introduction, which
    would then be parted from what they introduce. A figure stays where it is when what may
    go before it would still leave the page more than :data:`MOST_EMPTY` empty: the layout
    that moved it would not be worth its cost.
    """
    moves = []
    for before, page in zip(document.pages, document.pages[1:], strict=False):
        empty = 1 - page_fill(before)
        if empty <= MOST_EMPTY:
            continue
        main = next((box for box in page._page_box.descendants() if box.element_tag == "main"),
                    None)  # WeasyPrint's layout tree
        if main is None or not main.children or not _figure(main.children[0].element):
            continue
        height = float(before._page_box.height)
        taken: list[float] = []
        for box in main.children[1:]:
            if (box.element_tag == "h1" or _figure(box.element)
                    or sum(taken) + float(box.margin_height()) > (empty - SAFETY) * height):
                break
            taken.append(float(box.margin_height()))
        while taken and _introduces(main.children[len(taken)].element):
            taken.pop()
        if taken and empty - sum(taken) / height <= MOST_EMPTY:
            moves.append((list(main.element).index(main.children[0].element), len(taken)))
    return moves


def _figure(element: Any) -> bool:
    """Whether a block of ``<main>`` is a figure, or a group kept together ending with one."""
    if element.tag == "figure":
        return True
    inner = list(element)
    return (element.tag == "div" and "keep" in (element.get("class") or "").split()
            and bool(inner) and inner[-1].tag == "figure")


def _introduces(element: Any) -> bool:
    return bool(element.tag in HEADINGS or "keep-next" in (element.get("class") or "").split())


def shortfall(document: Any) -> float:
    """How much more than :data:`MOST_EMPTY` the pages but the last leave empty, summed."""
    return sum(max(0.0, 1 - page_fill(page) - MOST_EMPTY) for page in document.pages[1:-1])


SHORT_LAST_PAGE = 0.2
"""A last page filled less than this (of its text block's height) is laid out again."""
SAFETY = 0.03
"""How far (of a text block's height) :func:`refit`'s foresight may be wrong: what a page
leaves blank at its foot when lines flow onto the next (a line kept with the next, a
heading kept with its first lines)."""
BACK_MATTER = "back-matter"
"""The class of the back matter's heading (the edition's rulings, then the credits): what
may be set smaller, or start a page, so that the last page does not come out nearly
empty."""
SMALLEST_BACK_MATTER = 0.85
"""The back matter is set no smaller than this, of its size (about 9 pt for 10.5 pt)."""
CHAPTER_END = 0.25
"""How full (of its text block's height) the page that ends the rules must be, at least,
for the back matter to start the next page."""


def refit(document: Any) -> str | None:
    """A style sheet that lays the book out again with a last page that is not nearly empty,
    told from its first layout, or None if the back matter cannot make one.

    Only the back matter changes, so the pages before it stay as they were and the second
    layout is as foreseen. Where the back matter, set smaller (down to
    :data:`SMALLEST_BACK_MATTER`), gives up the room the last page's lines need on the page
    before, it is set only as much smaller as that takes: each of its paragraphs then takes
    as many lines as its words fill, at the smaller size. Otherwise, the back matter starts
    a page, if the rules then end on a page :data:`CHAPTER_END` full and the last page is
    still the last, and no longer nearly empty.
    """
    from weasyprint.formatting_structure import boxes

    start: float | None = None
    # Each paragraph of the back matter (each part on a page): its lines, their height (of
    # a text block's) and their length in lines as full as its own (all but the last).
    paragraphs: list[tuple[int, float, float]] = []
    for page in document.pages:
        top, height = page._page_box.content_box_y(), float(page._page_box.height)
        for child in page._page_box.children:  # WeasyPrint's layout tree
            if isinstance(child, boxes.MarginBox):
                continue
            for box in child.descendants():
                if box.element_tag == "h1":
                    if start is None and BACK_MATTER in (box.element.get("class") or "").split():
                        start = float(box.position_y - top) / height
                elif start is not None and isinstance(box, boxes.BlockContainerBox):
                    lines = [line for line in box.children if isinstance(line, boxes.LineBox)]
                    if not lines:
                        continue
                    widths = [float(line.width) for line in lines]
                    full = sum(widths[:-1]) / (len(lines) - 1) if len(lines) > 1 else 1.0
                    paragraphs.append((len(lines),
                                       sum(float(line.margin_height()) for line in lines)
                                       / len(lines) / height,
                                       sum(widths) / full if full else len(lines)))
    if start is None:
        return None

    def given_up(scale: float) -> float:
        """The room the back matter gives up set at ``scale`` of its size."""
        return sum((lines - min(lines, max(1, math.ceil(scale * length - 0.01))) * scale) * high
                   for lines, high, length in paragraphs)

    last = last_page_fill(document)
    needed = max(0.0, last - (1 - page_fill(document.pages[-2]))) + SAFETY
    for percent in range(99, round(100 * SMALLEST_BACK_MATTER) - 1, -1):
        if given_up(percent / 100) >= needed:
            return f".{BACK_MATTER} ~ :not(h1) {{ font-size: {percent / 100:.2f}em; }}"
    if start >= CHAPTER_END and SHORT_LAST_PAGE + SAFETY <= last + 1 - start <= 1 - SAFETY:
        return f".{BACK_MATTER} {{ break-before: page; }}"
    return None


def last_page_fill(document: Any) -> float:
    """How much of its text block's height the last page of a laid-out document uses."""
    return page_fill(document.pages[-1])


def page_fill(page: Any) -> float:
    """How much of its text block's height a laid-out page uses."""
    from weasyprint.formatting_structure import boxes

    box = page._page_box  # WeasyPrint's layout tree: no public accessor
    top, height = box.content_box_y(), box.height
    bottom = top
    for child in box.children:
        if isinstance(child, boxes.MarginBox):
            continue
        for inner in child.descendants():
            if isinstance(inner, (boxes.LineBox, boxes.ReplacedBox)) or (
                    isinstance(inner, boxes.BlockBox) and not inner.children):
                bottom = max(bottom, inner.position_y + inner.margin_height())
    return float((bottom - top) / height) if height else 1.0


PAIR = (("Pnp Serif", "normal", "normal", "GentiumBookPlus-Regular.ttf"),
        ("Pnp Serif", "bold", "normal", "GentiumBookPlus-Bold.ttf"),
        ("Pnp Serif", "normal", "italic", "GentiumBookPlus-Italic.ttf"),
        ("Pnp Sans", "normal", "normal", "PnpSans-Regular.ttf"),
        ("Pnp Sans", "bold", "normal", "PnpSans-Bold.ttf"),
        ("Pnp Sans", "normal", "italic", "PnpSans-Italic.ttf"),
        ("Pnp Display", "normal", "normal", "PnpSans-Black.ttf"),
        ("Pnp Symbols", "normal", "normal", "DejaVuSans.ttf"),
        ("Pnp Symbols", "bold", "normal", "DejaVuSans-Bold.ttf"))
"""The studio's faces the style sheets may name: (family, weight, style, file in the bundled
fonts).

The studio's pair: Gentium Book Plus to read, Lato for headings, tables and the cover. Neither
has the card suits and geometric marks; style sheets name "Pnp Symbols" (DejaVu Sans) after
them, and WeasyPrint takes those characters from it."""


def faces() -> tuple[tuple[str, str, str, str], ...]:
    """The faces the style sheets may name: the studio's (:data:`PAIR`) and the scripts'
    faces the languages known now name (:func:`pnp.draw.fonts.book_faces`: an edition's
    languages too)."""
    return (*PAIR, *fonts.book_faces())


def font_faces() -> str:
    """``@font-face`` rules for the bundled fonts, wherever pnp is installed.

    They are not in the edition's style sheets, which a publisher may copy anywhere.
    """
    return "".join(f'@font-face {{ font-family: "{family}"; font-weight: {weight}; '
                   f'font-style: {style}; src: url("{(FONTS / file).as_uri()}"); }}\n'
                   for family, weight, style, file in faces())


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
                except ReadError as exc:
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
                        data = read_inside(templates, path, MAX_FETCHED, "a file to lay out")
                        kind = image_type(data) if path.suffix.lower() in IMAGES else None
                        loadable(data)
                    except ReadError as exc:
                        raise FatalURLFetchingError(f"refers to {name}: {exc}") from None
                    kind = kind or mimetypes.guess_type(path.name)[0]
                    return URLFetcherResponse(path.as_uri(), data,
                                              {"Content-Type": kind or "application/octet-stream"})
            raise FatalURLFetchingError(
                f"refers to {clipped(url)}, outside the edition's templates and pnp's fonts")

    return ProjectFetcher(allowed_protocols={"file", "data"}, fail_on_errors=True)

