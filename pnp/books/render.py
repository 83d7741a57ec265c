"""A book in each format and paper asked for, from one composition and one layout."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from pnp.books.compose import PAPERS, compose
from pnp.books.pdf import fit_paper, render_pdf
from pnp.books.screen import standalone_html
from pnp.errors import DocumentError


def renderings(kind: str, game: str, lang: str, outputs: Sequence[tuple[str, str]],
               rules_dir: Path | None = None) -> Iterator[bytes]:
    """Each ``(format, paper)`` of one document, from one composition and one layout.

    The bytes come one output at a time, so a caller can time and write each.
    """
    for fmt, paper in outputs:
        if fmt not in ("pdf", "html"):
            raise DocumentError(f"unknown format '{fmt}' (expected pdf or html)")
        if paper not in PAPERS.get(kind, (paper,)):
            raise DocumentError(f"unknown paper '{paper}' for a {kind} "
                                f"(expected {', '.join(PAPERS[kind])})")
    composed = compose(kind, game, lang, rules_dir=rules_dir)
    laid_out: bytes | None = None
    for fmt, paper in outputs:
        if fmt == "html":
            yield standalone_html(composed, paper).encode("utf-8")
            continue
        laid_out = laid_out or render_pdf(composed)
        yield on_paper(laid_out, kind, paper)


def on_paper(laid_out: bytes, kind: str, paper: str) -> bytes:
    """A ``kind`` of book laid out on its first paper, on ``paper``: the same pages, fitted
    (one layout serves every paper)."""
    return laid_out if paper == PAPERS[kind][0] else fit_paper(laid_out, paper)


def render(kind: str, game: str, lang: str, fmt: str = "pdf", paper: str | None = None,
           rules_dir: Path | None = None) -> bytes:
    """A rulebook or reference card as PDF or standalone HTML bytes."""
    paper = paper or PAPERS.get(kind, ("a4",))[0]
    return next(renderings(kind, game, lang, [(fmt, paper)], rules_dir))

