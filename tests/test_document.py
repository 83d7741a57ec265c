"""The rulebook and card pipeline: contents, fonts, tags, safety against hostile text."""

from __future__ import annotations

import dataclasses
import io
import re
import shutil
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from click.testing import CliRunner

from pdfcheck import MM, page_texts, pdffonts, qpdf_check
from pnp import assets
from pnp.cli import main
from pnp.render.document import DocumentError, compose, render, renderings

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def qwinto_pdf() -> bytes:
    return render("rulebook", "qwinto", "en")


def test_contents_page_numbers_are_right(qwinto_pdf: bytes) -> None:
    pages = page_texts(qwinto_pdf)
    contents_page = next(i for i, text in enumerate(pages) if text.startswith("Contents"))
    entries = re.findall(r"^(.+?) (\d+)$", pages[contents_page], re.M)
    assert len(entries) >= 8
    for title, number in entries:
        found = next(i + 1 for i, text in enumerate(pages) if i > contents_page
                     and re.search(rf"^{re.escape(title)}$", text, re.M))
        assert found == int(number), title


def test_tagged_with_language_bookmarks_and_page_numbers(qwinto_pdf: bytes) -> None:
    reader = pypdf.PdfReader(io.BytesIO(qwinto_pdf))
    root = reader.trailer["/Root"]
    assert root["/Lang"] == "en"
    assert root["/MarkInfo"]["/Marked"]
    assert "/StructTreeRoot" in root
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    assert "Scoring" in titles and "Decisions of this edition" in titles
    last = reader.pages[-1].extract_text()
    assert f"page {len(reader.pages)} of {len(reader.pages)}" in last
    assert reader.metadata.title == "Qwinto — Rules of play"


def test_fonts_embedded_and_structure_clean(qwinto_pdf: bytes, tmp_path: Path) -> None:
    path = tmp_path / "book.pdf"
    path.write_bytes(qwinto_pdf)
    fonts = pdffonts(path)
    assert fonts and all(line.split()[-5] == "yes" for line in fonts)
    assert all("Pnp" in line for line in fonts)
    assert qpdf_check(path).returncode == 0


def test_the_build_is_reproducible(qwinto_pdf: bytes) -> None:
    assert render("rulebook", "qwinto", "en") == qwinto_pdf


def test_standalone_html_inlines_its_style() -> None:
    page = render("rulebook", "qwinto", "en", fmt="html").decode()
    assert page.startswith("<!doctype html>")
    assert '<html lang="en">' in page
    assert "<style>" in page and 'rel="stylesheet"' not in page
    assert "<h1 id=\"scoring\">Scoring</h1>" in page


def test_card_is_one_a5_page() -> None:
    reader = pypdf.PdfReader(io.BytesIO(render("card", "qwinto", "en")))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (148, 210)


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the templates whose English Qwinto rulebook a test may rewrite."""
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", templates)
    bundled = assets.Edition.bundled()
    monkeypatch.setattr(assets, "_current", dataclasses.replace(bundled, templates=templates))
    return templates / "rulebooks" / "qwinto" / "en.md"


@pytest.mark.parametrize(("text", "message"), [
    ("# Hi\n\n![secret](file:///etc/passwd)\n", "refers to file:///etc/passwd, outside"),
    ('# Hi\n\n<img src="http://198.51.100.7/x.png">\n', "refers to http://198.51.100.7/x.png"),
    ("# Hi\n\n![x](../../../../../etc/hostname)\n", "outside the edition's templates"),
    ("# Hi\n\n{{ ''.__class__.__mro__[1].__subclasses__() }}\n", ":3: not allowed"),
    ("# Hi\n\n{{ rules.__class__.__init__.__globals__ }}\n", ":3: not allowed"),
    ('# Hi\n\n{% include "../../../../etc/passwd" %}\n', "en.md"),
    ("# Hi\n\nA {{ no_such_value }}.\n", "en.md:3: 'no_such_value' is undefined"),
    ("# Hi\n\n{% if %}\n", "en.md:3:"),
])
def test_hostile_text_fails_with_a_clear_error(hostile: Path, text: str, message: str) -> None:
    hostile.write_text(text)
    with pytest.raises(DocumentError) as caught:
        render("rulebook", "qwinto", "en")
    assert message in str(caught.value)
    assert "root:" not in str(caught.value)


@pytest.mark.parametrize("text", [
    "# Hi\n\n<style>body { background: url(http://198.51.100.7/x.png) }</style>\n",
    '# Hi\n\n<p style="background: url(file:///etc/passwd)">x</p>\n',
    "# Hi\n\n<script>document.write('x')</script>\n",
    '# Hi\n\n<a href="javascript:alert(1)" onclick="alert(2)">x</a>\n',
])
def test_hostile_markup_is_removed_before_layout(hostile: Path, text: str) -> None:
    hostile.write_text(text)
    page = compose("rulebook", "qwinto", "en").html
    body = page.split("<main>")[1]
    for banned in ("<style", "style=", "<script", "javascript:", "onclick", "198.51.100.7"):
        assert banned not in body
    render("rulebook", "qwinto", "en")


def test_cli_writes_rulebook_and_card(tmp_path: Path) -> None:
    runner = CliRunner()
    book = runner.invoke(main, ["rulebook", "qwinto", "--lang", "en", "--format", "html",
                                "-o", str(tmp_path / "r.html")])
    assert book.exit_code == 0, book.output
    assert (tmp_path / "r.html").read_text().startswith("<!doctype html>")
    card = runner.invoke(main, ["card", "qwinto", "--lang", "en", "-o", str(tmp_path / "c.pdf")])
    assert card.exit_code == 0, card.output
    assert (tmp_path / "c.pdf").read_bytes().startswith(b"%PDF")


@pytest.fixture(scope="module")
def editions() -> dict[str, bytes]:
    """The longest rulebook on both papers, made together as the build makes them."""
    papers = ["a4", "letter"]
    return dict(zip(papers, renderings("rulebook", "ronda", "es", [("pdf", p) for p in papers]),
                    strict=True))


def test_the_letter_edition_has_the_a4_pages_on_letter_paper(editions: dict[str, bytes]) -> None:
    a4, letter = (pdfplumber.open(io.BytesIO(editions[p])).pages for p in ("a4", "letter"))
    assert len(a4) == len(letter) >= 8
    for page_a4, page_letter in zip(a4, letter, strict=True):
        assert (round(page_a4.width / MM, 1), round(page_a4.height / MM, 1)) == (210.0, 297.0)
        assert (round(page_letter.width / MM, 1), round(page_letter.height / MM, 1)) == \
               (215.9, 279.4)
        assert page_a4.extract_text() == page_letter.extract_text()
    assert editions["letter"] == render("rulebook", "ronda", "es", paper="letter")
    a4_reader, letter_reader = (pypdf.PdfReader(io.BytesIO(editions[p])) for p in ("a4", "letter"))
    root = letter_reader.trailer["/Root"]
    assert root["/Lang"] == "es" and "/StructTreeRoot" in root and root["/MarkInfo"]["/Marked"]
    assert [i.title for i in letter_reader.outline if not isinstance(i, list)] == \
           [i.title for i in a4_reader.outline if not isinstance(i, list)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_mark_is_well_inside_either_paper(editions: dict[str, bytes], paper: str,
                                                tmp_path: Path) -> None:
    pdf = pdfplumber.open(io.BytesIO(editions[paper]))
    for number, page in enumerate(pdf.pages, 1):
        left, top, right, bottom = page.bbox
        marks = page.chars + page.rects + page.lines + page.curves
        assert marks
        nearest = min(min(m["x0"] - left, m["top"] - top, right - m["x1"], bottom - m["bottom"])
                      for m in marks)
        assert nearest >= 10 * MM, (paper, number, nearest / MM)
    path = tmp_path / f"book-{paper}.pdf"
    path.write_bytes(editions[paper])
    assert qpdf_check(path).returncode == 0
