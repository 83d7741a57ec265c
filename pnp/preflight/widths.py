"""Fonts' widths as their PDF dictionaries give them, by the text each glyph stands for."""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

STANDARD_DESCENTS = {
    **dict.fromkeys(("Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique",
                     "Arial", "Arial,Bold", "Arial,Italic", "Arial,BoldItalic"), -0.207),
    **dict.fromkeys(("Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique",
                     "CourierNew", "CourierNew,Bold", "CourierNew,Italic",
                     "CourierNew,BoldItalic"), -0.194),
    **dict.fromkeys(("Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic",
                     "TimesNewRoman", "TimesNewRoman,Bold", "TimesNewRoman,Italic",
                     "TimesNewRoman,BoldItalic"), -0.217),
    "Symbol": 0.0, "ZapfDingbats": 0.0}
"""The descents (in ems) of the standard fonts a viewer carries, by name, as Adobe's font
metrics give them (pdfium's stand-in fonts have their own): pdfminer's."""


Widths = dict[str, tuple[float, ...]]
"""A font's widths (in ems) by the text its glyphs stand for: several where glyphs of
different widths stand for one text (an Arabic letter's initial, medial and final forms),
told apart by the width pdfium gives the glyph it shows (see
:meth:`pnp.preflight.read._Reader.advance`)."""


def font_widths(document: Any) -> dict[bytes, Widths]:
    """Each embedded font program's widths by the text of its glyphs."""
    import pikepdf

    found: dict[bytes, Widths] = {}
    seen: set[tuple[int, int]] = set()

    def resources(holder: Any, depth: int = 0) -> None:
        res = holder.get("/Resources")
        if not isinstance(res, pikepdf.Dictionary) or depth > 8:
            return
        fonts = res.get("/Font")
        for font in (fonts.values() if isinstance(fonts, pikepdf.Dictionary) else []):
            if isinstance(font, pikepdf.Dictionary) and font.is_indirect \
                    and font.objgen not in seen:
                seen.add(font.objgen)
                read(font)
        xobjects = res.get("/XObject")
        for xobject in (xobjects.values() if isinstance(xobjects, pikepdf.Dictionary) else []):
            if isinstance(xobject, pikepdf.Stream) and xobject.is_indirect \
                    and xobject.objgen not in seen and xobject.get("/Subtype") == "/Form":
                seen.add(xobject.objgen)
                resources(xobject, depth + 1)

    def read(font: Any) -> None:
        with contextlib.suppress(Exception):
            composite = font.get("/Subtype") == "/Type0"
            described = font.DescendantFonts[0] if composite else font
            descriptor = described.get("/FontDescriptor")
            program = next((descriptor[k] for k in ("/FontFile2", "/FontFile", "/FontFile3")
                            if isinstance(descriptor, pikepdf.Dictionary) and k in descriptor),
                           None)
            if program is None or "/ToUnicode" not in font:
                return
            texts = to_unicode(bytes(font.ToUnicode.get_stream_buffer()))
            widths: dict[int, float] = {}
            if composite:
                default = float(described.get("/DW", 1000))
                array = list(described.get("/W", []))
                i = 0
                while i + 1 < len(array):
                    if isinstance(array[i + 1], pikepdf.Array):
                        for n, w in enumerate(array[i + 1]):
                            widths[int(array[i]) + n] = float(w)
                        i += 2
                    else:
                        for code in range(int(array[i]), int(array[i + 1]) + 1):
                            widths[code] = float(array[i + 2])
                        i += 3
            else:
                default = float(descriptor.get("/MissingWidth", 0))
                first = int(font.get("/FirstChar", 0))
                widths = {first + n: float(w) for n, w in enumerate(font.get("/Widths", []))}
            table: dict[str, list[float]] = {}
            for code, text in texts.items():
                width = widths.get(code, default) / 1000
                same = table.setdefault(text, [])
                if width not in same:
                    same.append(width)
            found.setdefault(hashlib.sha256(program.get_stream_buffer()).digest(),
                             {text: tuple(same) for text, same in table.items()})

    for page in document.pages:
        resources(page.obj)
    return found


BFCHAR = re.compile(rb"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]*)>")
BFRANGE = re.compile(rb"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]*)>")


def to_unicode(cmap: bytes) -> dict[int, str]:
    """A ToUnicode CMap's codes and their text (bfchar and bfrange with a start)."""
    found: dict[int, str] = {}
    for block in re.findall(rb"beginbf(char|range)(.*?)endbf\1", cmap, re.S):
        if block[0] == b"char":
            for first, second in BFCHAR.findall(block[1]):
                found.setdefault(int(first, 16), _utf16(second))
            continue
        for first, second, third in BFRANGE.findall(block[1]):
            low, high, start = int(first, 16), int(second, 16), _utf16(third)
            for n, code in enumerate(range(low, min(high, low + 65535) + 1)):
                found.setdefault(code, start[:-1] + chr(ord(start[-1]) + n) if start else "")
    return found


def _utf16(digits: bytes) -> str:
    return bytes.fromhex(digits.decode()).decode("utf-16-be", "replace")


@dataclass
class Font:
    """A font a page shows text with, as pdfium has it and as its dictionary gives its widths."""

    handle: Any
    name: str
    """Its BaseFont."""
    descent: float
    """In ems, as its FontDescriptor gives it."""
    widths: Widths | None
    """Its glyphs' widths, by their text, as its PDF dictionary gives them."""
    pdfium: dict[str, float] = field(default_factory=dict)
    """Its glyphs' widths in ems as pdfium has them, by their text."""
    several: frozenset[str] = field(init=False)
    """The texts its dictionary has several widths for."""

    def __post_init__(self) -> None:
        self.several = frozenset(text for text, widths in (self.widths or {}).items()
                                 if len(widths) > 1)

    def advance(self, text: str, pdfium: Any, own: float | None = None) -> tuple[float, float]:
        """How far a glyph moves the pen, in ems: its width in the font's dictionary
        (else as pdfium has it); and how far pdfium moves it (the width pdfium has for the
        first glyph it finds standing for ``text``). Where the dictionary has several widths
        for ``text``, the one nearest ``own`` (the width of the glyph shown, as measured),
        both times."""
        widths = self.widths.get(text) if self.widths is not None else None
        if own is None and not text:  # its ToUnicode gives it no text: pdfium has no width
            own = widths[0] if widths else 0.0
        if own is None:
            if text not in self.pdfium:
                width = ctypes.c_float()
                pdfium.FPDFFont_GetGlyphWidth(self.handle, ord(text[0]), 1.0, width)
                self.pdfium[text] = float(width.value)
            own = self.pdfium[text]
        if not widths:
            return own, own
        if len(widths) == 1:
            return widths[0], own
        nearest = min(widths, key=lambda width: abs(width - own))
        return nearest, nearest
