"""The preflight's reader (pdfium) measures built files as its former one (pdfminer) did.

``preflight.pdfminer_pages`` keeps the former reader as the reference: over one file of
each kind, both give the same findings and the same pages within 0.01 pt; so over an
Arabic card and rulebook page (right to left, shaped). A page drawn like one read before
(a deck variant's card faces) is measured as if read alone.
"""

from __future__ import annotations

import dataclasses
import io
import unicodedata
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner
from preflight.pdfminer_pages import differences, findings, pages
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnp.books.pdf import fit_paper
from pnp.cli import main
from pnp.outputs.documents import FIGURE
from pnp.preflight import check_bytes, read, rules
from pnp.preflight.fonts import shown
from pnp.preflight.page import Page
from pnp.preflight.read import SHAPES, drawing, read_pages
from pnp.preflight.rules import DRAWN, RUNS

MADE = {
    "sheet": ["sheet", "qwinto", "--per-page", "2"],
    "fillable pad": ["sheet", "xactika", "--fillable", "--paper", "letter"],
    "deck": ["deck", "xactika", "--size", "mini", "--offset", "1,0"],
}


def measured(data: bytes) -> list[Page]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return list(read_pages(data, "file.pdf", pdf, shown(pdf, []).forms))


def compared(data: bytes) -> None:
    reference = pages(data, "file.pdf")
    assert differences(reference, measured(data)) == []
    assert check_bytes(data, "file.pdf") == findings(data, "file.pdf")


@pytest.mark.parametrize("what", sorted(MADE))
def test_a_built_file_is_measured_as_pdfminer_measured_it(what: str, tmp_path: Path) -> None:
    out = tmp_path / "made.pdf"
    result = CliRunner().invoke(main, [*MADE[what], "--lang", "fr", "-o", str(out)])
    assert result.exit_code == 0, result.output
    compared(out.read_bytes())


@pytest.mark.parametrize(("kind", "game"), [("card", "kwingto"), ("rulebook", "ronda")])
def test_a_book_is_measured_as_pdfminer_measured_it(bookshelf: object, kind: str,
                                                    game: str) -> None:
    data = bookshelf.pdf(kind, game, "en")  # type: ignore[attr-defined]
    if kind == "rulebook":
        with pikepdf.open(io.BytesIO(data)) as pdf:
            assert any(str(name).startswith(f"/{FIGURE}") for page in pdf.pages
                       for name in page.Resources.get("/XObject", {}))
    compared(data)


def test_a_books_letter_pages_are_its_a4_pages_moved(bookshelf: object,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A book's Letter edition is its A4 pages on other paper (:func:`fit_paper`): read
    once, moved, they are what the former reader measures on the Letter file itself."""
    a4, letter = (bookshelf.pdf("rulebook", "ronda", "en", paper)  # type: ignore[attr-defined]
                  for paper in ("a4", "letter"))
    forget()
    check_bytes(a4, "file.pdf")
    read_again: list[int] = []
    reading = read._Reader.page
    monkeypatch.setattr(read._Reader, "page",
                        lambda self: read_again.append(self.number) or reading(self))
    compared(letter)
    assert read_again == []


def test_a_page_on_other_paper_is_judged_by_that_papers_edges() -> None:
    """A box 4 mm from A4's left edge is 6.95 mm from Letter's (2.95 mm wider on each side);
    one 12 mm below A4's top edge is 3.2 mm below Letter's (8.8 mm shorter at the top).
    Half the 1 pt line reaches 0.18 mm further out."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, invariant=1)
    canvas.setLineWidth(1)
    canvas.rect(4 * mm, 100 * mm, 20 * mm, 10 * mm)
    canvas.rect(100 * mm, (297 - 12 - 10) * mm, 20 * mm, 10 * mm)
    canvas.save()
    a4 = buffer.getvalue()
    letter = fit_paper(a4, "letter")

    def edges(data: bytes) -> list[tuple[float, float, str]]:
        return [(f.x, f.y, f.message) for f in check_bytes(data, "file.pdf")
                if f.rule == "mark-edge"]

    forget()
    assert edges(a4) == [(3.8, 187.0 - 0.2, "a box is 3.8 mm from the paper's edge "
                                              "(at least 5 mm)")]
    assert edges(letter) == [(102.8, 3.0, "a box is 3.0 mm from the paper's edge "
                                             "(at least 5 mm)")]
    compared(letter)


def test_an_arabic_book_is_measured_as_pdfminer_measured_it(bookshelf: object) -> None:
    """Right-to-left lines, which pdfium reads in reading order (each run turned round, its
    brackets mirrored), and glyphs of several widths for one letter (its initial, medial and
    final forms), measured as pdfminer measures them: the card, and a rulebook page with
    marks, lam-alefs, a glyph standing for no text, Latin names, digits and brackets."""
    card = bookshelf.pdf("card", "ronda", "ar")  # type: ignore[attr-defined]
    # pdfium reads a presentation form as its letter: the card's title has three
    reference = [dataclasses.replace(page, glyphs=[
        dataclasses.replace(g, text=unicodedata.normalize("NFKC", g.text)) for g in page.glyphs])
        for page in pages(card, "file.pdf")]
    assert differences(reference, measured(card)) == []
    assert check_bytes(card, "file.pdf") == findings(card, "file.pdf")
    book = bookshelf.pdf("rulebook", "ronda", "ar")  # type: ignore[attr-defined]
    page = pages(book, "file.pdf")[5]
    texts = [g.text for g in page.glyphs]
    assert {"", "(", ")", "«", "»"} <= set(texts)
    assert any(len(t) == 2 for t in texts) and any(t.isascii() and t.isalpha() for t in texts)
    assert any(t.isdigit() for t in texts) and any(
        t and unicodedata.category(t[0]) == "Mn" for t in texts)
    assert differences([page], measured(book)[5:6]) == []
    assert check_bytes(book, "file.pdf") == findings(book, "file.pdf")


def test_the_comparison_sees_a_glyph_moved_by_a_fiftieth_of_a_point() -> None:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", 12)
    canvas.drawString(100, 700, "Qwinto")
    canvas.save()
    reference = pages(buffer.getvalue(), "file.pdf")
    page = measured(buffer.getvalue())[0]
    glyphs = list(page.glyphs)
    glyphs[2] = dataclasses.replace(glyphs[2], box=(glyphs[2].box[0] + 0.02, *glyphs[2].box[1:]))
    assert len(differences(reference, [dataclasses.replace(page, glyphs=glyphs)])) == 1


def test_a_faulty_file_has_the_findings_pdfminer_gave() -> None:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1)
    canvas.setFont("Helvetica", 5)
    canvas.drawString(8, 700, "pnp build --grayscale")
    canvas.setLineWidth(0.5)  # pdfminer takes a width never set for 0, pdfium for 1 (the PDF's)
    canvas.rect(40, 695, 60, 30, stroke=1, fill=0)
    canvas.setDash(3, 2)
    canvas.line(300, 2, 300, 840)
    canvas.drawString(301, 400, "close to the cut")
    canvas.save()
    data = buffer.getvalue()
    found = check_bytes(data, "file.pdf")
    assert {f.rule for f in found} >= {"type", "text-edge", "overlap", "command-line",
                                       "cut-line", "mark-edge", "font"}
    assert found == findings(data, "file.pdf")
    compared(data)


def forget() -> None:
    """Empty what this process keeps of the pages it measured."""
    for memo in (SHAPES, DRAWN, RUNS, read.PAGES, rules.PAGES):
        memo.kept.clear()


def test_a_deck_variant_is_measured_as_when_read_alone(tmp_path: Path) -> None:
    variants = []
    for offset in ("1,0", "0,-1"):
        out = tmp_path / f"deck-{offset}.pdf"
        result = CliRunner().invoke(main, ["deck", "xactika", "--size", "mini", "--offset",
                                           offset, "--lang", "es", "-o", str(out)])
        assert result.exit_code == 0, result.output
        variants.append(out.read_bytes())
    first, second = variants
    forget()
    alone = measured(second), check_bytes(second, "file.pdf")
    forget()
    check_bytes(first, "file.pdf")
    kept = {page.whole: page.number for _paper, page in read.PAGES.kept.values()}
    again = measured(second)
    # each face page is the first variant's, the same in all it is made of: the pages of
    # backs, moved, are not
    assert [page.number for page in again if page.whole in kept] == \
        list(range(1, len(again) + 1, 2))
    assert all(kept[page.whole] == page.number for page in again if page.whole in kept)
    assert ([dataclasses.replace(page, known=b"") for page in again],
            check_bytes(second, "file.pdf")) == (
        [dataclasses.replace(page, known=b"") for page in alone[0]], alone[1])
    compared(second)


def test_a_page_made_of_the_same_bytes_has_the_same_findings() -> None:
    """A page measured before is taken whole, findings included, only when all it is made
    of is the same: another string, or the same content shown in another font, is measured
    again."""
    def drawn(text: str, font: str = "Helvetica") -> bytes:
        """``text`` at 20 pt from x = 525 pt in ``font``, named in the resources only: the
        content and the font's name (/F1) are the same whatever the font. Courier's 12 pt
        advance takes 'small' within 6 mm of the edge, Helvetica's narrower letters not."""
        buffer = io.BytesIO()
        canvas = Canvas(buffer, invariant=1)
        canvas.setFont("Helvetica", 20)
        canvas.drawString(525, 400, text)
        canvas.save()
        with pikepdf.open(io.BytesIO(buffer.getvalue())) as pdf:
            pdf.pages[0].Resources.Font.F1.BaseFont = pikepdf.Name(f"/{font}")
            out = io.BytesIO()
            pdf.save(out)
        return out.getvalue()

    def edge(data: bytes) -> list[str]:
        return [f.message for f in check_bytes(data, "a.pdf") if f.rule == "text-edge"]

    forget()
    assert edge(drawn("small")) == edge(drawn("small")) == []
    assert edge(drawn("small", "Courier")) == [
        "'small' is 3.6 mm from the paper's edge (at least 6 mm)"]
    assert edge(drawn("small")) == []
    assert edge(drawn("smaller", "Courier")) == [
        "'smaller' runs off the paper (4.8 mm beyond its edge) (at least 6 mm)"]



def drawn(data: bytes) -> bytes:
    """The digest of what draws the shapes of the first page of ``data``."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        return drawing(page, [float(v) for v in page.mediabox])


def labelled(label: str, line: float = 0.5, width: float = 80) -> bytes:
    """A page with a box (drawn by a form it places) and ``label`` set from inside it (the
    longer, across its edge)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1)
    canvas.beginForm("box")
    canvas.setLineWidth(line)
    canvas.rect(100, 690, width, 30, stroke=1, fill=0)
    canvas.endForm()
    canvas.doForm("box")
    canvas.setFont("Helvetica", 12)
    canvas.drawString(110, 700, label)
    canvas.save()
    return buffer.getvalue()


def test_pages_drawn_alike_are_known_by_their_shapes_and_checked_by_their_glyphs() -> None:
    forget()
    inside, across = labelled("Qwinto"), labelled("Qwinto Kwingto")
    thicker, wider = labelled("Qwinto", line=3), labelled("Qwinto Kwingto", width=100)
    digests = [drawn(data) for data in (inside, across, thicker, wider)]
    assert digests[0] == digests[1] and len(set(digests)) == 3
    for _ in range(2):  # the second time, its runs' findings are kept
        assert not any(f.rule == "overlap" for f in check_bytes(inside, "file.pdf"))
    assert measured(across)[0].known == digests[1]
    found = check_bytes(across, "file.pdf")
    # Helvetica's widths put the 'g' at 176.68-183.36 pt, across the box's right edge at
    # 180 (its ink 179.75-180.25): 183.36 - 180.25 = 3.11 pt beyond it, 1.1 mm
    assert [f.message for f in found if f.rule == "overlap"] == [
        "'Qwinto Kwingto' runs across the edge of a box by 1.1 mm"]
    compared(across)
    assert not any(f.rule == "overlap" for f in check_bytes(wider, "file.pdf"))
    forget()
    assert check_bytes(across, "file.pdf") == found
