"""Reading the PDFs pnp produces, for the tests: pages with pdfplumber, fonts, structure."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path
from typing import Any

import pdfplumber

MM = 72 / 25.4
"""One millimetre in PDF points."""

BOOK_MARGIN = 23 * MM
"""A rulebook's text starts 25 mm inside its A4 page, with the running head and page number
just outside: cropping this much from top and bottom keeps the text and drops them."""


def page_of(data: bytes) -> Any:
    """The first page of a PDF, parsed by pdfplumber."""
    return pdfplumber.open(io.BytesIO(data)).pages[0]


def page_texts(data: bytes, margin: float = BOOK_MARGIN) -> list[str]:
    """The text of every page, leaving out ``margin`` points at the top and bottom."""
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [page.crop((0, margin, page.width, page.height - margin)).extract_text() or ""
                for page in pdf.pages]


BUNDLED_FACES = {"PnpSans-Regular", "PnpSans-Bold", "PnpSans-Black", "PnpSans-Italic",
                 "DejaVuSans", "DejaVuSans-Bold", "GentiumBookPlus", "GentiumBookPlus-Bold",
                 "GentiumBookPlus-Italic"}
"""The PostScript names of the faces in fonts/ (what pdffonts shows after the subset tag)."""


def font_faces(fonts: list[str]) -> set[str]:
    """The faces named in a :func:`pdffonts` table, without their subset tags."""
    return {line.split()[0].split("+")[-1] for line in fonts}


def pdffonts(path: Path) -> list[str]:
    """poppler's ``pdffonts`` table for ``path``, one line per font (headers left out)."""
    return subprocess.run(["pdffonts", str(path)], capture_output=True, text=True,
                          check=True).stdout.splitlines()[2:]


def qpdf_check(path: Path) -> subprocess.CompletedProcess[str]:
    """``qpdf --check`` on ``path``: returncode 0 when the structure is sound."""
    return subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)


def glyph_size(char: dict[str, Any]) -> float:
    """A glyph's size in points, measured across its baseline: pdfplumber's ``size`` for an
    upright glyph, the width of its box for one turned a quarter (whose height is its
    advance). The bundled sans's em box is exactly one em high."""
    return float(char["size"]) if char["upright"] else float(char["x1"] - char["x0"])


COMMAND_LINE = re.compile(r"\bpnp\s+[a-z]+|(?<![\w-])--[a-z]")
"""What a command line looks like in a page's text: ``pnp sheet``, ``--offset``."""


def command_lines(pdf: bytes) -> list[str]:
    """Every piece of command-line text on every page of ``pdf``."""
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return [found.group() for page in document.pages
                for found in COMMAND_LINE.finditer(page.extract_text() or "")]


Segment = tuple[float, float, float, float]


def stroked_segments(page: Any) -> list[Segment]:
    """Every stroked straight line on the page, rect edges included, as (x0, top, x1, bottom)
    in points with x0 <= x1 and top <= bottom: horizontal (top == bottom) or vertical."""
    found: list[Segment] = []
    for line in page.lines:
        if line.get("stroke", True):
            found.append((line["x0"], line["top"], line["x1"], line["bottom"]))
    for rect in page.rects:
        if rect["stroke"]:
            x0, top, x1, bottom = rect["x0"], rect["top"], rect["x1"], rect["bottom"]
            found += [(x0, top, x1, top), (x0, bottom, x1, bottom),
                      (x0, top, x0, bottom), (x1, top, x1, bottom)]
    return found


def doubled(segments: list[Segment], within: float) -> list[tuple[Segment, Segment]]:
    """Pairs of parallel strokes that run alongside each other (their spans overlap by more
    than a touch) less than ``within`` points apart: one border drawn twice, or two borders
    so close they read as one doubled line."""
    pairs = []
    across = [s for s in segments if abs(s[1] - s[3]) < 0.01 and s[2] - s[0] > 0.01]
    down = [s for s in segments if abs(s[0] - s[2]) < 0.01 and s[3] - s[1] > 0.01]
    for group, at, low, high in ((across, 1, 0, 2), (down, 0, 1, 3)):
        for index, a in enumerate(group):
            for b in group[index + 1:]:
                overlap = min(a[high], b[high]) - max(a[low], b[low])
                if overlap > 0.05 and abs(a[at] - b[at]) < within:
                    pairs.append((a, b))
    return pairs


# --- print rules measured on a sheet (see /work/shared/PRINT.md) -------------------------------

SHEET_BYTES = 40 * 1024
"""The most a printable sheet may weigh."""


def glyphs(page: Any) -> list[dict[str, Any]]:
    """The page's visible characters."""
    return [c for c in page.chars if c["text"].strip()]


def straddling(page: Any, tolerance: float = 0.05) -> list[tuple[str, dict[str, Any]]]:
    """Glyphs partly over a drawn box, band, curve or line: each must lie wholly inside a
    shape or wholly clear of it. Returns (glyph, shape) pairs."""
    found = []
    edges = (("x0", "x1"), ("top", "bottom"))
    for char in glyphs(page):
        for shape in page.rects + page.curves + page.lines:
            clear = any(char[high] <= shape[low] + tolerance or shape[high] <= char[low] + tolerance
                        for low, high in edges)
            inside = all(char[low] >= shape[low] - tolerance
                         and char[high] <= shape[high] + tolerance for low, high in edges)
            if not clear and not inside:
                found.append((char["text"], shape))
    return found


def cut_lines(page: Any) -> list[dict[str, Any]]:
    """The dashed lines between the copies of an N-up page."""
    return [line for line in page.lines if line.get("dash")]


def cut_clearance(page: Any) -> float:
    """The least distance, in mm, from a cut line to anything a copy draws."""
    drawn = [o for o in page.rects + page.curves + glyphs(page) if o not in cut_lines(page)]
    drawn += [line for line in page.lines if not line.get("dash")]
    distances = []
    for cut in cut_lines(page):
        if abs(cut["x0"] - cut["x1"]) < 0.1:
            distances += [min(abs(o["x0"] - cut["x0"]), abs(o["x1"] - cut["x0"])) for o in drawn]
        else:
            distances += [min(abs(o["top"] - cut["top"]), abs(o["bottom"] - cut["top"]))
                          for o in drawn]
    return min(distances) / MM


def drawn_bounds(page: Any) -> tuple[float, float, float, float]:
    """x0, top, x1, bottom (points) of everything drawn but the cut lines."""
    drawn = page.rects + page.curves + glyphs(page) + [
        line for line in page.lines if not line.get("dash")]
    return (min(o["x0"] for o in drawn), min(o["top"] for o in drawn),
            max(o["x1"] for o in drawn), max(o["bottom"] for o in drawn))


def counted_layouts(monkeypatch: Any) -> list[int]:
    """How many pages each layout WeasyPrint makes from now on has, in order (``monkeypatch``
    wraps its ``HTML.render`` for the test)."""
    import weasyprint

    made: list[int] = []
    render = weasyprint.HTML.render

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        document = render(self, *args, **kwargs)
        made.append(len(document.pages))
        return document

    monkeypatch.setattr(weasyprint.HTML, "render", counted)
    return made
