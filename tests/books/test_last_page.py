"""A book whose last page would come out nearly empty is laid out once more, its back matter
(the edition's rulings and the credits) set smaller or starting a page, and never more."""

from __future__ import annotations

import dataclasses
import io
import shutil
from pathlib import Path
from typing import Any

import pdfplumber
import pytest

from pdfcheck import counted_layouts
from pnp import assets
from pnp.books import pdf
from pnp.books.compose import compose
from tests.books.test_rulebook_figures import BOTTOM, TOP, text_block_fill

ROOT = Path(__file__).resolve().parents[2]
FILLER = {
    ("spectacle", "es"): ("Los jugadores acuerdan quién reparte primero y lo mantienen toda "
                          "la noche."),
    ("qwinto", "en"): " ".join(["The players agree on who deals first and keep to it all evening."]
                               * 8),
}
"""A paragraph put before a rulebook's back matter: the Spanish Spectacle rulebook's last
page then holds a line or two, which its back matter set smaller pulls back; the English
Qwinto rulebook's a few, and its back matter is too short to pull them back."""


@pytest.fixture
def layouts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many pages each layout WeasyPrint makes has, in order; figures stay where the
    text places them (no layout sends one further down, :func:`pnp.books.pdf.floats`),
    so that only the last page's refit lays a book out again."""
    monkeypatch.setattr(pdf, "floats", lambda document: [])
    return counted_layouts(monkeypatch)


@pytest.fixture
def longer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
           ) -> tuple[str, str]:
    """The templates with the :data:`FILLER` of the (game, language) the test is given
    before that rulebook's back matter."""
    game, lang = request.param
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", templates)
    text = templates / "rulebooks" / game / f"{lang}.md"
    include = '{% include "about.md.j2" %}'
    filler = FILLER[(game, lang)]
    text.write_text(text.read_text().replace(include, f"{filler}\n\n{include}", 1))
    bundled = assets.Edition.bundled()
    monkeypatch.setattr(assets, "_current", dataclasses.replace(bundled, templates=templates))
    return game, lang


def _pages(book: bytes) -> list[Any]:
    return list(pdfplumber.open(io.BytesIO(book)).pages)


def _first_and_final(monkeypatch: pytest.MonkeyPatch, game: str,
                     lang: str) -> tuple[list[Any], list[Any]]:
    composed = compose("rulebook", game, lang)
    with monkeypatch.context() as first_only:
        first_only.setattr(pdf, "SHORT_LAST_PAGE", 0.0)
        first = _pages(pdf.render_pdf(composed))
    return first, _pages(pdf.render_pdf(composed))


def _chapter(pages: list[Any], title: str) -> int:
    """The index of the page where the chapter ``title`` (set at 16 pt) starts."""
    return next(i for i, page in enumerate(pages)
                if title in page.filter(lambda o: o.get("size", 0) > 15).extract_text())


def _text_block(page: Any) -> str:
    """What a page says between its running head and its page number."""
    return str(page.filter(lambda o: TOP < o.get("top", 0) < BOTTOM).extract_text())


@pytest.mark.parametrize("longer", [("spectacle", "es")], indirect=True)
def test_a_short_last_page_pulled_back_by_a_smaller_back_matter(
        monkeypatch: pytest.MonkeyPatch, layouts: list[int], longer: tuple[str, str]) -> None:
    """The longer Spanish Spectacle rulebook's last page holds a line or two when it is laid
    out as it comes; its back matter set smaller brings them back, and nothing before it
    moves."""
    first, final = _first_and_final(monkeypatch, *longer)
    assert text_block_fill(first[-1]) < 0.1
    assert layouts == [len(first), len(first), len(final)]
    assert len(final) == len(first) - 1 and text_block_fill(final[-1]) >= 0.5
    start = _chapter(first, "Sobre esta edición")
    assert [_text_block(p) for p in final[2:start]] == [_text_block(p) for p in first[2:start]]
    page = final[start]
    heading = min(line["top"] for line in page.extract_text_lines()
                  if line["text"] == "Sobre esta edición")
    body = {round(c["size"], 1) for c in page.chars if "Serif" in c["fontname"]}
    back = {round(c["size"], 1) for c in page.chars
            if "Serif" in c["fontname"] and heading < c["top"] < BOTTOM}
    assert max(body) == 10.5 and back and max(back) < 10.4, (body, back)


@pytest.mark.parametrize("longer", [("qwinto", "en")], indirect=True)
def test_a_short_last_page_filled_by_a_back_matter_on_a_page_of_its_own(
        monkeypatch: pytest.MonkeyPatch, layouts: list[int], longer: tuple[str, str]) -> None:
    """With more rules before it, the English Qwinto rulebook's back matter is too short to
    pull the last page's lines back: it starts a page of its own, which it fills."""
    first, final = _first_and_final(monkeypatch, *longer)
    assert text_block_fill(first[-1]) < 0.15
    assert layouts == [len(first), len(first), len(final)]
    assert len(final) == len(first) and text_block_fill(final[-1]) >= 0.3
    start = _chapter(final, "About this edition")
    assert start > _chapter(first, "About this edition")
    assert text_block_fill(final[start - 1]) >= 0.25
    block = [c for c in final[start].chars if c["top"] > TOP - 2]
    heading = [c for c in block if c["size"] > 15]
    assert min(c["top"] for c in heading) <= min(c["top"] for c in block)


def test_a_book_whose_last_page_is_full_enough_is_laid_out_once(layouts: list[int]) -> None:
    pages = _pages(pdf.render_pdf(compose("rulebook", "qwinto", "en")))
    assert layouts == [len(pages)] and text_block_fill(pages[-1]) >= 0.5
