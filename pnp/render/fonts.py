"""The bundled fonts (``pnp/data/fonts``), registered once with reportlab.

Only these fonts appear in pnp's PDFs, always embedded (reportlab subsets TrueType).
"""

from __future__ import annotations

import functools

from pnp.assets import FONTS

SANS = "PnpSans"
SANS_BOLD = "PnpSans-Bold"
FILES = {SANS: "DejaVuSans.ttf", SANS_BOLD: "DejaVuSans-Bold.ttf"}


@functools.cache
def register() -> None:
    """Register the bundled faces with reportlab (once per process)."""
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, file in FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(FONTS / file)))
    addMapping(SANS, 0, 0, SANS)
    addMapping(SANS, 1, 0, SANS_BOLD)
