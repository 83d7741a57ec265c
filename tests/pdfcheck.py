"""Reading the PDFs pnp produces, for the tests: pages with pdfplumber, fonts, structure."""

from __future__ import annotations

import io
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
