"""The bundled fonts (``pnp/data/fonts``), registered once with reportlab.

Only these fonts appear in pnp's PDFs, always embedded (reportlab subsets TrueType). The
studio's typeface pair: Pnp Sans (Lato, renamed; see fonts/README.md) for display, labels and
sheets, Gentium Book Plus for reading (rulebooks, in :mod:`pnp.books.pdf`). Lato has no
geometric shapes or card suits
(■ ▲ ♠ ♥ ♦ ♣), so every face has a fallback in DejaVu Sans that takes the characters it lacks:
:func:`runs` splits a text between them, and the canvas of :mod:`pnp.draw.canvas` draws and
measures through it.
"""

from __future__ import annotations

import functools

from pnp.assets import FONTS

SANS = "PnpSans"
SANS_BOLD = "PnpSans-Bold"
DISPLAY = "PnpDisplay"
"""The title lockups' face: Lato Black."""
SYMBOLS = "PnpSymbols"
SYMBOLS_BOLD = "PnpSymbols-Bold"
FILES = {SANS: "PnpSans-Regular.ttf", SANS_BOLD: "PnpSans-Bold.ttf", DISPLAY: "PnpSans-Black.ttf",
         SYMBOLS: "DejaVuSans.ttf", SYMBOLS_BOLD: "DejaVuSans-Bold.ttf"}
FALLBACK = {SANS: SYMBOLS, SANS_BOLD: SYMBOLS_BOLD, DISPLAY: SYMBOLS_BOLD}
"""The face that takes the characters a face lacks."""


@functools.cache
def register() -> None:
    """Register the bundled faces with reportlab (once per process)."""
    from reportlab.lib.fonts import addMapping

    for name in FILES:
        _face(name)
    addMapping(SANS, 0, 0, SANS)
    addMapping(SANS, 1, 0, SANS_BOLD)


@functools.cache
def _face(name: str) -> None:
    """Register one bundled face: measuring a title needs only its own face, so a build with
    nothing to draw (whose landing page measures the lockups) reads one font, not five."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    # Not ASCII-readable: reportlab would otherwise put all 95 ASCII glyphs in every
    # subset (7 KB a face); the ToUnicode map keeps the text searchable and copyable.
    pdfmetrics.registerFont(TTFont(name, str(FONTS / FILES[name]), asciiReadable=False))


@functools.cache
def _covers(font: str, char: str) -> bool:
    from reportlab.pdfbase import pdfmetrics

    face = getattr(pdfmetrics.getFont(font), "face", None)
    return face is None or ord(char) in face.charToGlyph


@functools.lru_cache(maxsize=65536)
def runs(text: str, font: str) -> tuple[tuple[str, str], ...]:
    """``text`` cut into (face, run) pieces: each character in ``font`` or in its fallback.

    Kept, as sheets and decks draw the same few labels thousands of times. The faces it
    names are registered (the fallback only if it takes a character).
    """
    if font in FILES:
        _face(font)
    fallback = FALLBACK.get(font)
    if fallback is None:
        return ((font, text),) if text else ()
    pieces: list[tuple[str, str]] = []
    for char in text:
        face = font if char.isspace() or _covers(font, char) else fallback
        if pieces and pieces[-1][0] == face:
            pieces[-1] = (face, pieces[-1][1] + char)
        else:
            pieces.append((face, char))
    if any(face == fallback for face, _run in pieces):
        _face(fallback)
    return tuple(pieces)


def width(text: str, font: str, size: float) -> float:
    """The width of ``text`` in points, each character measured in the face that draws it."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return sum(stringWidth(run, face, size) for face, run in runs(text, font))
