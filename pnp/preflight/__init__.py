"""``pnp preflight``: measure every page of a built PDF against the rules of print.

Each page is measured the way pdfplumber measures it — pdfminer's layout of every glyph
(its box and size), rect, line and curve (with stroke, fill, line width and dash), read
from pdfium's objects (:mod:`pnp.preflight.read`) — and
each finding names the file, the page and a position in millimetres from the top-left
corner of the page as printed (its MediaBox, wherever that box starts: pdfplumber's own
coordinates keep the box's offset). What is drawn is measured as drawn: clipping paths
are not applied and painting order is not judged (a shape a later fill hides still
counts), as pdfplumber applies neither; pnp's pages draw nothing they rely on a clip or
a cover to hide. The rules:

``type``
    Glyphs of at least 6 pt on sheets, reference cards and decks (the calibration sheet
    included); 8 pt in a rulebook, where only the *running matter* may be smaller, down
    to 6 pt: a line of text that is the topmost or the bottommost of its page and stands
    at about the same height (within :data:`RUNNING_DRIFT`) as the topmost or bottommost
    line of at least half the pages (two at least) — the running heads and page numbers.
    Captions, table cells, notes and figure legends are body text. A glyph's size is its
    em measured across its baseline: for a glyph turned a quarter, the width of its box
    (pdfplumber's ``size`` is the box's height, there its advance).
``figures``
    A rulebook's figure — a sheet, card or board drawn by pnp's own renderers, placed as a
    form XObject named ``PnpFigure…`` (:func:`pnp.books.figures.overlay`) — is measured as
    one picture, like an image: nothing may run across its edge, and what is inside it is
    not read as the book's text. It is the component at a reduced size (each renderer's
    own output passes the rules at full size), marked as an artifact, and every word a
    reader needs from it is in its caption and legend, which are body text.
``text-edge`` and ``mark-edge``
    No glyph within 6 mm of the paper's edge; no stroke (a crop mark, a cut line, a
    border) within 5 mm, counting half its line width. Fills are art, not marks.
``bleed``
    On a page that declares a BleedBox inside its paper (a deck), everything drawn lies
    wholly inside the BleedBox (card art, which may run into the bleed but not beyond
    it) or wholly outside it (crop marks and labels, which may not run into it).
``overlap``
    A glyph may sit wholly inside a drawn shape or wholly clear of it, never across its
    edge: its box must not meet the shape's outline, thickened by half the line width
    where it is stroked. Shapes are rects, lines (dashed cut lines and underlines too:
    on paper a link is not underlined) and curves. Not shapes: form fields (widget
    annotations), paths neither stroked nor filled, and white fills without a stroke
    unless they lie on a coloured fill (white on white paper is not seen). Spaces are
    not glyphs.
``cut-line``
    On a sheet, a cut line is a dashed straight line across at least three quarters of
    the page (a dashed line inside one copy is none); no glyph or shape may come within
    3 mm of it, counting half the line width of stroked shapes.
``command-line``
    No command-line text on any page: every page of every built file is for players,
    who are told what to do in words. Found: ``pnp`` followed by one of its commands,
    and long options (``--grayscale``).
``font``
    Every font text is shown with is embedded (FontFile, FontFile2 or FontFile3; Type 3
    fonts are embedded by nature), in the pages, the forms they place and the
    annotations' appearances. A form field's font is one of the standard fonts every
    viewer carries, used when a player types: it is a finding only where an appearance
    shows text with it.
``structure``
    The file opens without a warning from qpdf (pikepdf) and passes its syntax check, the
    steps of ``qpdf --check``; each page's content is parsed once, for this and for the
    fonts and forms it shows, and the forms the pages place are parsed too (what qpdf says
    of them is told after their page's).

What a file is (sheet, card, deck, rulebook) is read from the ``pnp:KIND`` keyword every
pnp renderer writes in the PDF's Keywords (:mod:`pnp.outputs.documents`); a PDF without it
(not made by pnp) is judged by its name (``-rulebook-``, ``-card-``, ``-deck-``), else as a
sheet.

Findings that concern the whole file (structure) have page 0 and no position. Input is
bounded: at most :data:`MAX_BYTES` bytes and :data:`MAX_PAGES` pages, else the file is
refused (:class:`PreflightError`), as is a file that is not a readable PDF. Pages are read
by pdfium (C); a form placed again and again (a deck's back on every card) is measured once,
and so is what pages alike share, in one process (a build's worker). A page made of the
same content and resources (fonts included) as one read before is not read again
(:data:`pnp.preflight.read.PAGES`): on the same paper it has that page's findings (a deck
variant's faces), on other paper its objects are moved and judged again (a book's Letter
edition of its A4 pages). Otherwise a page's shapes are those of the last page whose
content (what its strings say left out: only text shows it) and resources other than
fonts were the same, and a run of text on it has the findings the same run had there
(:data:`pnp.preflight.read.SHAPES`, :data:`pnp.preflight.rules.RUNS`).
``tests/preflight/pdfminer_pages.py`` keeps the former pdfminer reader, against which the
tests and ``bench/preflight.py`` compare this one.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pnp.errors import PreflightError, ReadError
from pnp.preflight.fonts import font_findings, opened, shown, structure
from pnp.preflight.page import Finding
from pnp.preflight.read import RECURRING, first_line, kind_of, read_pages, unreadable
from pnp.preflight.rules import page_findings, running_type
from pnp.reading import MiB, read_path

__all__ = ["MAX_BYTES", "MAX_PAGES", "RULES", "Finding", "Known", "Record", "check",
           "check_bytes", "check_files", "checker", "from_record", "pdfs_under", "record",
           "sound_record"]

MAX_BYTES = 64 * MiB
MAX_PAGES = 500


def check(path: str | os.PathLike[str]) -> list[Finding]:
    """Every finding on the PDF at ``path``; :class:`PreflightError` if it cannot be read."""
    try:
        data = read_path(path, MAX_BYTES, "a PDF pnp checks")
    except ReadError as exc:
        raise PreflightError(os.fspath(path), str(exc)) from None
    return check_bytes(data, os.fspath(path))


def check_bytes(data: bytes, name: str) -> list[Finding]:
    """Every finding on the PDF ``data``, whose findings name it ``name``."""
    if len(data) > MAX_BYTES:
        raise PreflightError(name, f"larger than {MAX_BYTES // MiB} MiB, not a PDF pnp checks")
    import pikepdf

    try:
        pdf = pikepdf.open(io.BytesIO(data))
    except (pikepdf.PdfError, ValueError) as exc:
        raise PreflightError(name, f"not a readable PDF ({first_line(exc)})") from None
    with pdf:
        pages = len(pdf.pages)
        if pages > MAX_PAGES:
            raise PreflightError(name, f"{pages} pages, more than the {MAX_PAGES} pnp checks")
        document = kind_of(pdf, name)
        problems = opened(pdf)
        with unreadable(name):
            content = shown(pdf, problems)
        findings = structure(problems, name)
        measured = list(read_pages(data, name, pdf, content.forms, document in RECURRING))
    for page in measured:
        findings += page_findings(page, document, name)
    findings += font_findings(content.unembedded, measured, name)
    findings += running_type(measured, document, name)
    return sorted(set(findings), key=lambda f: (f.page, f.y, f.x, f.rule, f.message))


RULES = ("type", "text-edge", "mark-edge", "bleed", "overlap", "cut-line", "command-line",
         "font", "structure")


Record = list[Any]
"""A finding as the build's manifest keeps it: ``[page, x, y, rule, message]`` (the file
is the manifest's key)."""


def record(finding: Finding) -> Record:
    return [finding.page, finding.x, finding.y, finding.rule, finding.message]


def from_record(file: str, kept: Record) -> Finding:
    page, x, y, rule, message = kept
    return Finding(file, page, x, y, rule, message)


def sound_record(kept: Any) -> bool:
    """Whether ``kept`` (read from a manifest) is a finding :func:`record` writes."""
    return (isinstance(kept, list) and len(kept) == 5 and type(kept[0]) is int
            and 0 <= kept[0] <= MAX_PAGES
            and all(type(v) in (int, float) and math.isfinite(v) and abs(v) < 1e5
                    for v in kept[1:3])
            and kept[3] in RULES and isinstance(kept[4], str) and 0 < len(kept[4]) <= 600)


@functools.cache
def checker() -> str:
    """What findings were measured with: this package's code and the readers' versions. A
    finding kept from another checker is measured again."""
    from importlib.metadata import PackageNotFoundError, version

    digest = hashlib.sha256()
    for module in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(module.read_bytes())
    for package in ("pypdfium2", "pikepdf"):
        try:
            digest.update(f"{package} {version(package)}".encode())
        except PackageNotFoundError:
            digest.update(package.encode())
    return digest.hexdigest()


Known = Mapping[Path, tuple[str, Sequence[Finding]]]
"""Findings already measured, by file: the SHA-256 of the bytes they were measured on."""


def check_files(files: Sequence[Path], known: Known | None = None) -> list[Finding]:
    """Every finding on ``files``, each read once; a file whose bytes are those of a
    finding in ``known`` (a build's manifest) is not measured again."""
    known = known or {}
    found: list[Finding] = []
    for path in files:
        name = os.fspath(path)
        try:
            data = read_path(path, MAX_BYTES, "a PDF pnp checks")
        except ReadError as exc:
            raise PreflightError(name, str(exc)) from None
        kept = known.get(path.resolve())
        if kept and kept[0] == hashlib.sha256(data).hexdigest():
            found += [dataclasses.replace(f, file=name) for f in kept[1]]
        else:
            found += check_bytes(data, name)
    return found


def pdfs_under(folder: Path) -> list[Path]:
    """Every PDF below ``folder``, in order (pnp's temporary files left out)."""
    if not folder.is_dir():
        raise PreflightError(os.fspath(folder), "no such folder (build first with 'pnp build', "
                                                "or name the PDFs to check)")
    return sorted(p for p in folder.rglob("*.pdf") if p.is_file() and not p.name.startswith("."))
