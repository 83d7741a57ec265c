"""Pictures of built PDFs: the thumbnail of each on the landing page, and the README's
previews (``pnp build --previews docs/previews``)."""

from __future__ import annotations

import io
from pathlib import Path

from pnp.errors import PnpError
from pnp.outputs.writing import read_own, write

THUMBNAIL_DPI = 24
PREVIEW_DPI = 50
PREVIEWS = {
    "qwinto-sheet": "qwinto/en/qwinto-sheet-a4.pdf",
    "kwingto-sheet": "kwingto/en/kwingto-sheet-a4.pdf",
    "kwingto-coto": "kwingto/en/kwingto-coto-a4.pdf",
    "xactika-pad": "xactika/en/xactika-pad-a4.pdf",
    "xactika-stats": "xactika/en/xactika-stats-a4.pdf",
    "xactika-deck": "xactika/en/xactika-deck-poker-a4.pdf",
    "ronda-pad": "ronda/en/ronda-pad-a4.pdf",
    "ronda-pad3": "ronda/en/ronda-pad3-a4.pdf",
    "ronda-teams": "ronda/en/ronda-teams-a4.pdf",
    "spectacle-aid": "spectacle/en/spectacle-aid-a4.pdf",
    "qwinto-rulebook": "qwinto/en/qwinto-rulebook-a4.pdf",
}
"""The pictures in ``docs/previews/`` that the README shows, and the built file each is the
first page of."""


def write_thumbnail(pdf: bytes, picture: Path, out: Path) -> int:
    """Write the first page as a small PNG beside the index; return the page count."""
    png, pages = first_page(pdf, THUMBNAIL_DPI)
    write(picture, png, within=out)
    return pages


def first_page(pdf: bytes, dpi: float) -> tuple[bytes, int]:
    """The first page of ``pdf`` as PNG bytes at ``dpi``, and the number of pages."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = len(document)
        image = document[0].render(scale=dpi / 72).to_pil()
    finally:
        document.close()
    png = io.BytesIO()
    image.save(png, format="PNG")
    return png.getvalue(), pages


def write_previews(out: Path, folder: Path) -> list[Path]:
    """The README's pictures (:data:`PREVIEWS`) from the files built in ``out``."""
    written = []
    for name, built in PREVIEWS.items():
        source = out / built
        pdf = read_own(source)
        if pdf is None:
            raise PnpError(f"{source}: not built, so its preview cannot be made "
                           f"(build English on A4 first)")
        png, _pages = first_page(pdf, PREVIEW_DPI)
        picture = folder / f"{name}.png"
        write(picture, png)
        written.append(picture)
    return written
