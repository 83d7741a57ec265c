"""The bundled fonts (``pnp/data/fonts``), registered once with reportlab.

Only these fonts appear in pnp's PDFs, always embedded (reportlab subsets TrueType). The
studio's typeface pair: Pnp Sans (Lato, renamed; see fonts/README.md) for display, labels and
sheets, Gentium Book Plus for reading (rulebooks, in :mod:`pnp.books.pdf`). Lato has no
geometric shapes or card suits
(■ ▲ ♠ ♥ ♦ ♣), so every face has a fallback in DejaVu Sans that takes the characters it lacks:
:func:`runs` splits a text between them, and the canvas of :mod:`pnp.draw.canvas` draws and
measures through it. A script Lato lacks (Arabic) is taken, before DejaVu, by the sans faces
the languages written in it name (``fonts: {sans: NotoSansArabic}`` in their
``language.yaml``: ``fonts/NotoSansArabic-Regular.ttf`` and ``-Bold.ttf``); such a face's
runs are shaped by HarfBuzz (joined letters), and :func:`placed` lays a line's runs out
left to right, a right-to-left line's from the right (:mod:`pnp.draw.bidi`).
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
SYMBOLS_FOR = {SANS: SYMBOLS, SANS_BOLD: SYMBOLS_BOLD, DISPLAY: SYMBOLS_BOLD}
"""The symbols face that takes, last, the characters a face lacks."""
BOLD = {SANS: False, SANS_BOLD: True, DISPLAY: True}
"""Whether a script's bold or regular face stands in for the face's missing letters."""


def scripts() -> dict[str, str]:
    """The faces of the scripts the Latin faces lack, by reportlab name: each sans face a
    known language names (``fonts.sans``) in its regular and bold, in the languages'
    order (those of the current edition's languages too)."""
    from pnp.i18n.languages import known

    families = tuple(language.fonts.get("sans", "") for language in known())
    return {family + ("-Bold" if bold else ""): file for family, bold, file in _faces(families)}


def book_faces() -> tuple[tuple[str, str, str, str], ...]:
    """The faces of the scripts the Latin pair lacks as the books' style sheets name them,
    after the Latin face (``"Pnp Serif", "NotoNaskhArabic"``): each serif and sans face a
    known language names, its family the name the language gives, regular and bold, as
    (family, weight, style, file)."""
    from pnp.i18n.languages import known

    families = tuple(language.fonts.get(role, "") for language in known()
                     for role in ("serif", "sans"))
    return tuple((family, "bold" if bold else "normal", "normal", file)
                 for family, bold, file in _faces(families))


@functools.cache
def _faces(families: tuple[str, ...]) -> tuple[tuple[str, bool, str], ...]:
    """Each family named (none for ``""``), regular then bold, once each: (family, bold,
    file in ``pnp/data/fonts``)."""
    return tuple(dict.fromkeys((family, bold, f"{family}-{'Bold' if bold else 'Regular'}.ttf")
                               for family in families if family for bold in (False, True)))


def fallback(font: str) -> tuple[str, ...]:
    """The faces that take, in turn, the characters ``font`` lacks."""
    return _fallback(font, tuple(scripts()))


@functools.cache
def _fallback(font: str, scripts: tuple[str, ...]) -> tuple[str, ...]:
    if font not in SYMBOLS_FOR:
        return ()
    bold = BOLD[font]
    return (*(name for name in scripts if name.endswith("-Bold") == bold), SYMBOLS_FOR[font])


@functools.cache
def register() -> None:
    """Register the bundled faces with reportlab (once per process)."""
    from reportlab.lib.fonts import addMapping

    for name in (*FILES, *scripts()):
        _face(name)
    addMapping(SANS, 0, 0, SANS)
    addMapping(SANS, 1, 0, SANS_BOLD)


@functools.cache
def _face(name: str) -> None:
    """Register one bundled face: measuring a title needs only its own face, so a build with
    nothing to draw (whose landing page measures the lockups) reads one font, not five."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    file = FILES.get(name) or scripts()[name]
    # Not ASCII-readable: reportlab would otherwise put all 95 ASCII glyphs in every
    # subset (7 KB a face); the ToUnicode map keeps the text searchable and copyable.
    pdfmetrics.registerFont(TTFont(name, str(FONTS / file), asciiReadable=False))


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
    others = fallback(font)
    if not others:
        return ((font, text),) if text else ()
    pieces: list[tuple[str, str]] = []
    for char in text:
        face = font
        if not (char.isspace() or _covers(font, char)):
            face = next((other for other in others[:-1] if _covers_face(other, char)),
                        others[-1])
        if pieces and pieces[-1][0] == face:
            pieces[-1] = (face, pieces[-1][1] + char)
        else:
            pieces.append((face, char))
    for face in {face for face, _run in pieces} - {font}:
        _face(face)
    return tuple(pieces)


def _covers_face(font: str, char: str) -> bool:
    _face(font)
    return _covers(font, char)


def extent(text: str, font: str) -> tuple[float, float]:
    """How far below and above the baseline the em boxes of ``text``'s faces reach, in ems
    (a script's face may reach further than the Latin one)."""
    from reportlab.pdfbase.pdfmetrics import getAscentDescent

    reach = [getAscentDescent(face, 1) for face, _run in runs(text, font)] or [(0.0, 0.0)]
    return min(low for _high, low in reach), max(high for high, _low in reach)


@functools.lru_cache(maxsize=65536)
def placed(text: str, font: str, size: float,
           rtl: bool = False) -> tuple[tuple[str, str, float], ...]:
    """``text`` as it is drawn from left to right: (face, run, width in points) pieces.

    A run in a script's face is shaped (a ``ShapedStr`` of its glyphs in visual order); a
    right-to-left run's pieces stand from the right, its other characters reversed and
    mirrored. A line with no right-to-left letters in a left-to-right language is
    :func:`runs` itself.
    """
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfbase.ttfonts import shapeStr

    from pnp.draw.bidi import MIRRORED, visual

    script = set(scripts())
    pieces: list[tuple[str, str, float]] = []
    for line, backwards in visual(text, rtl):
        faces = runs(line, font)
        for face, run in reversed(faces) if backwards else faces:
            if face in script:
                shaped = shapeStr(run, face, size, force=True)
                width = sum(glyph.x_advance for glyph in shaped.__shapeData__) * size / 1000
                pieces.append((face, shaped, width))
                continue
            if backwards:
                run = "".join(MIRRORED.get(char, char) for char in reversed(run))
            pieces.append((face, run, stringWidth(run, face, size)))
    return tuple(pieces)


def width(text: str, font: str, size: float) -> float:
    """The width of ``text`` in points, each character measured in the face that draws it
    (a script's letters as they join)."""
    return sum(piece[2] for piece in placed(text, font, size))
