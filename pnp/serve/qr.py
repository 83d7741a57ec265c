"""QR codes of the addresses pnp serves, drawn by segno: SVG for pages, text for a terminal.

Both draw the same code: error correction level M (15 % of the code may be lost or
covered), boosted where that fits in the same size, and the four-module quiet zone the
standard asks for, dark modules on white.
"""

from __future__ import annotations

import io

import segno

from pnp.errors import QrError

ERROR = "m"
QUIET = 4
"""Modules of white around the code."""
LONGEST = 1024
"""Characters of the longest address a code is made of: ten times any of pnp's own, and
well within what a code holds (2,331 bytes at level M)."""


def _code(url: str) -> segno.QRCode:
    if len(url) > LONGEST:
        raise QrError(f"an address of {len(url)} characters is too long for a QR code "
                      f"(at most {LONGEST})")
    return segno.make(url, error=ERROR, micro=False)


def svg(url: str, title: str | None = None) -> str:
    """The QR code of ``url`` as an ``<svg>`` element to put inline in a page.

    It has no XML declaration and no width or height, only a ``viewBox`` (one unit a
    module), so the page's CSS sets its size; the class ``pnp-qr``; ``title`` as its
    accessible name. It is drawn black on a white square, whatever the page's colours,
    and loads nothing: it fits a page whose Content-Security-Policy forbids loading.
    """
    out = io.BytesIO()
    _code(url).save(out, kind="svg", border=QUIET, dark="#000", light="#fff", xmldecl=False,
                    svgns=True, omitsize=True, title=title, svgclass="pnp-qr", lineclass=None,
                    nl=False)
    return out.getvalue().decode("utf-8")


HALVES = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
"""The character of two modules one above the other (dark is True)."""
INK = "\x1b[30;107m"
"""Black on bright white: a terminal's own colours may be light on dark, which a camera
reads inverted."""
PLAIN = "\x1b[0m"


def terminal(url: str, colour: bool = True) -> str:
    """The QR code of ``url`` as lines of text, two rows of modules a line (half blocks).

    With ``colour``, each line is drawn black on white whatever the terminal's colours;
    without, the blocks are the dark modules (for a file or a light background).
    """
    rows = [[bool(module) for module in row] for row in _code(url).matrix_iter(border=QUIET)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    lines = ["".join(HALVES[top, bottom] for top, bottom in zip(upper, lower, strict=True))
             for upper, lower in zip(rows[::2], rows[1::2], strict=True)]
    if colour:
        lines = [f"{INK}{line}{PLAIN}" for line in lines]
    return "\n".join(lines) + "\n"
