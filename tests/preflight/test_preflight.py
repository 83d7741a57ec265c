"""``pnp preflight``: each rule broken by a small PDF drawn here, and its clean twin passing.

Positions are worked by hand from what each test draws: a glyph's box (as pdfplumber
gives it) runs from its baseline minus the font's descent (DejaVu Sans: 0.24 em) up one
em, and starts at the point the text is drawn from.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp import preflight as checking
from pnp.build.incremental import build
from pnp.build.manifest import MANIFEST
from pnp.build.plan import plan
from pnp.cli import main
from pnp.draw import fonts
from pnp.errors import PreflightError
from pnp.preflight import Finding, check, check_bytes
from pnp.preflight.read import kind_of
from pnp.preflight.rules import COMMANDS

FONT = fonts.SYMBOLS
"""The bundled DejaVu Sans, every test's face."""
DESCENT = 0.24
"""DejaVu Sans's descent, in em (its FontDescriptor says -240)."""
A4 = (210.0, 297.0)

Draw = Callable[[Canvas], None]


def made(*pages: Draw, document: str | None = "sheet", size: tuple[float, float] = A4,
         bleed: tuple[float, float, float, float] | None = None) -> bytes:
    """A PDF of one page per drawing, in mm from the bottom-left corner, in :data:`FONT`."""
    fonts.register()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(size[0] * mm, size[1] * mm), invariant=1,
                    initialFontName=FONT)  # type: ignore[arg-type]
    if document:
        canvas.setKeywords(f"pnp:{document}")
    for draw in pages:
        if bleed:
            canvas.setBleedBox(tuple(v * mm for v in bleed))
        canvas.saveState()
        canvas.scale(mm, mm)
        draw(canvas)
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def text(x: float, y: float, words: str, points: float = 9.0, angle: float = 0) -> Draw:
    """``words`` from (x, y) mm, ``points`` high."""
    def draw(canvas: Canvas) -> None:
        canvas.saveState()
        canvas.translate(x, y)
        canvas.rotate(angle)
        canvas.setFont(FONT, points / mm)
        canvas.drawString(0, 0, words)
        canvas.restoreState()
    return draw


def rect(x: float, y: float, width: float, height: float, *, stroke: bool = True,
         fill: bool = False, line: float = 0.3, grey: float = 0.0) -> Draw:
    def draw(canvas: Canvas) -> None:
        canvas.saveState()
        canvas.setLineWidth(line)
        canvas.setFillGray(grey)
        canvas.rect(x, y, width, height, stroke=int(stroke), fill=int(fill))
        canvas.restoreState()
    return draw


def line(x0: float, y0: float, x1: float, y1: float, *, width: float = 0.2,
         dash: tuple[float, float] | None = None) -> Draw:
    def draw(canvas: Canvas) -> None:
        canvas.saveState()
        canvas.setLineWidth(width)
        if dash:
            canvas.setDash(*dash)
        canvas.line(x0, y0, x1, y1)
        canvas.restoreState()
    return draw


def page(*parts: Draw) -> Draw:
    def draw(canvas: Canvas) -> None:
        for part in parts:
            part(canvas)
    return draw


def top(baseline: float, points: float, descent: float = DESCENT) -> float:
    """The top of a glyph box, in mm from the page's top, for text on ``baseline`` mm."""
    return round(A4[1] - baseline - (1 - descent) * points / mm, 1)


def advance(words: str, points: float = 9.0) -> float:
    """How far ``words`` run, in mm (from the font's widths)."""
    fonts.register()
    return stringWidth(words, FONT, points) / mm


def found(data: bytes, rule: str | None = None) -> list[Finding]:
    return [f for f in check_bytes(data, "t.pdf") if rule is None or f.rule == rule]


# Type size --------------------------------------------------------------------------------


def test_type_under_6_pt_on_a_sheet_is_found_where_it_starts() -> None:
    data = made(page(text(20, 100, "tiny", 5.5), text(20, 150, "fine", 6)))
    assert found(data) == [Finding("t.pdf", 1, 20.0, top(100, 5.5), "type",
                                   "'tiny' is set in 5.5 pt (at least 6 pt on a sheet)")]


def test_type_is_measured_across_the_baseline_when_turned() -> None:
    # turned a quarter, a glyph's box is as high as its advance ('i': 0.28 em): still 7 pt
    assert found(made(text(20, 100, "ii", 7, angle=90)), "type") == []
    [small] = found(made(text(20, 100, "ii", 5, angle=90)), "type")
    assert small.message == "'ii' is set in 5.0 pt (at least 6 pt on a sheet)"
    # the box of upright text at (20, 100) turned about its origin: it starts one
    # descent right of the baseline's x, and its top is the end of the text
    assert small.x == round(20 - (1 - DESCENT) * 5 / mm, 1)


def test_a_size_just_under_the_limit_shows_its_hundredths() -> None:
    [small] = found(made(text(20, 100, "x", 5.99)))
    assert small.message == "'x' is set in 5.99 pt (at least 6 pt on a sheet)"


def folio(number: int, points: float) -> Draw:
    return text(100, 12, f"page {number}", points)


def test_rulebook_body_needs_8_pt_and_its_running_matter_6() -> None:
    body = [page(text(25, 250, "The rules of the game.", 9), folio(n, 7)) for n in range(1, 4)]
    assert found(made(*body, document="rulebook")) == []
    small = [page(text(25, 250, "The rules of the game.", 9),
                  text(25, 200, "A caption under a figure.", 7.5), folio(1, 7)),
             page(text(25, 250, "More rules.", 9), folio(2, 5.5)),
             page(text(25, 250, "The end.", 9), folio(3, 7))]
    assert found(made(*small, document="rulebook")) == [
        Finding("t.pdf", 1, 25.0, top(200, 7.5), "type",
                "'A caption under a figure.' is set in 7.5 pt (at least 8 pt for a rulebook)"),
        Finding("t.pdf", 2, 100.0, top(12, 5.5), "type",
                "'page 2' is set in 5.5 pt (at least 6 pt for a running head or page number)")]


def test_small_text_at_the_foot_of_one_page_only_is_body_text() -> None:
    pages = [page(text(25, 250, "Rules.", 9), folio(1, 7)), page(text(25, 250, "Rules.", 9))]
    [finding] = found(made(*pages, document="rulebook"))
    assert (finding.page, finding.message) == (
        1, "'page 1' is set in 7.0 pt (at least 8 pt for a rulebook)")


# The paper's edge -------------------------------------------------------------------------


def test_text_within_6_mm_of_the_edge() -> None:
    near = made(page(text(5, 150, "edge"), text(100, 297 - 5.5 - (1 - DESCENT) * 9 / mm, "top")))
    assert found(near) == [
        Finding("t.pdf", 1, 100.0, 5.5, "text-edge",
                "'top' is 5.5 mm from the paper's edge (at least 6 mm)"),
        Finding("t.pdf", 1, 5.0, top(150, 9), "text-edge",
                "'edge' is 5.0 mm from the paper's edge (at least 6 mm)")]
    assert found(made(text(6.1, 150, "edge"))) == []


def test_text_drawn_off_the_paper() -> None:
    # a heading hidden 991 mm to the left of the page, as a style sheet may hide one
    [finding] = found(made(text(-991, 280, "Title")))
    assert finding == Finding("t.pdf", 1, -991.0, top(280, 9), "text-edge",
                              "'Title' runs off the paper (991.0 mm beyond its edge) "
                              "(at least 6 mm)")


def test_a_stroke_within_5_mm_of_the_edge_counting_half_its_width() -> None:
    # a crop mark, 0.2 mm thick, ending 4 mm from the left edge: its ink comes to 3.9 mm;
    # a line 5.2 mm from the bottom, 0.6 mm thick: its ink comes to 4.9 mm
    marks = made(page(line(4, 150, 9, 150), line(50, 5.2, 100, 5.2, width=0.6)))
    assert found(marks) == [
        Finding("t.pdf", 1, 3.9, 146.9, "mark-edge",
                "a line is 3.9 mm from the paper's edge (at least 5 mm)"),
        Finding("t.pdf", 1, 49.7, 291.5, "mark-edge",
                "a line is 4.9 mm from the paper's edge (at least 5 mm)")]
    assert found(made(page(line(5.2, 150, 9, 150), line(50, 5.4, 100, 5.4, width=0.6)))) == []


def test_a_fill_is_art_and_may_reach_the_edge() -> None:
    assert found(made(rect(0, 0, 50, 50, stroke=False, fill=True, grey=0.8))) == []


# Text across shapes -----------------------------------------------------------------------


def test_a_label_whose_end_a_box_covers() -> None:
    # 'failed' at 9 pt from x = 20 mm ends at 28.8 mm; the box's ink starts at 27.85 mm,
    # across its last glyph: 'd', from 26.8 mm
    assert round(20 + advance("failed"), 1) == 28.8
    label = made(page(text(20, 100, "failed"), rect(28, 96, 10, 10)))
    d = 20 + advance("faile")
    inside, outside = 20 + advance("failed") - 27.85, 27.85 - d
    assert found(label) == [Finding("t.pdf", 1, round(d, 1), top(100, 9), "overlap",
                                    f"'failed' runs across the edge of a box by "
                                    f"{min(inside, outside):.1f} mm")]


def test_text_wholly_inside_a_box_or_clear_of_it_is_fine() -> None:
    inside = made(page(rect(18, 96, 16, 8), text(20, 99, "label")))
    clear = made(page(rect(40, 96, 16, 8), text(20, 99, "label")))
    assert found(inside) == found(clear) == []


def test_a_glyph_on_a_hairline_border_of_its_box() -> None:
    # the box's bottom edge at y = 99.2 mm, its 0.3 mm line reaching down to 99.05: the
    # glyphs' boxes go down to 99 - 0.24 em = 98.24 mm, 0.81 mm out of the box
    [finding] = found(made(page(rect(18, 99.2, 20, 8), text(20, 99, "label"))))
    assert finding.message == "'label' runs across the edge of a box by 0.8 mm"


def test_a_glyph_inside_a_box_but_on_its_heavy_line() -> None:
    # the box's bottom edge at y = 98.1 mm is below the glyphs' boxes (98.24 mm), but its
    # 0.6 mm line reaches up to 98.4 mm: 0.16 mm into them
    [finding] = found(made(page(rect(18, 98.1, 20, 8, line=0.6), text(20, 99, "label"))))
    assert finding.message == "'label' runs across the edge of a box by 0.2 mm"
    assert found(made(page(rect(18, 97.8, 20, 8, line=0.6), text(20, 99, "label")))) == []


def test_text_running_into_a_coloured_band() -> None:
    [finding] = found(made(page(rect(40, 95, 60, 10, stroke=False, fill=True, grey=0.5),
                                text(30, 99, "purple"))))
    assert finding.message.startswith("'purple' runs across the edge of a band")


def test_white_without_a_stroke_on_white_paper_is_not_a_shape() -> None:
    white = rect(40, 95, 60, 10, stroke=False, fill=True, grey=1.0)
    assert found(made(page(white, text(30, 99, "purple")))) == []
    on_colour = page(rect(0, 80, 210, 40, stroke=False, fill=True, grey=0.5), white,
                     text(30, 99, "purple"))
    assert [f.message[:30] for f in found(made(on_colour))] == ["'purple' runs across the edge "]


def test_a_line_through_text_and_an_underline() -> None:
    struck = made(page(text(20, 100, "word"), line(15, 101, 40, 101)))
    assert [f.message for f in found(struck)] == ["'word' runs across the edge of a line"]
    underlined = made(page(text(20, 100, "word"), line(20, 99.5, 28, 99.5)))
    assert [f.message for f in found(underlined)] == [
        "'word' is underlined: a line runs through its glyphs (on paper a link is not "
        "underlined)"]


def test_spaces_are_not_glyphs() -> None:
    # the line runs through the middle of the space between the words only
    gap = 20 + (advance("name") + advance("name ")) / 2
    assert found(made(page(text(20, 100, "name here"), line(gap, 95, gap, 105, width=0.1)))) == []


def test_a_form_field_is_not_a_shape() -> None:
    def field(canvas: Canvas) -> None:
        canvas.acroForm.textfield(name="total", x=20 * mm, y=98 * mm, width=8 * mm,
                                  height=8 * mm, borderWidth=0, fontName="Helvetica")

    def fillable(canvas: Canvas) -> None:
        canvas.saveState()
        canvas.scale(1 / mm, 1 / mm)
        field(canvas)
        canvas.restoreState()
        text(21, 100, "total")(canvas)

    assert found(made(fillable)) == []


# Cut lines --------------------------------------------------------------------------------


def cut(y: float = 148.5) -> Draw:
    return line(6, y, 204, y, width=0.4, dash=(3, 3))


def test_a_copy_within_3_mm_of_a_cut_line() -> None:
    # the cut line at y = 148.5 mm; above it, a box whose 0.4 mm line reaches down to
    # 150.3 mm; below it, text whose glyphs' tops are at 144 + 0.76 em = 146.4 mm
    near = made(page(cut(), rect(30, 150.5, 40, 20, line=0.4), text(30, 144, "name")))
    assert found(near) == [
        Finding("t.pdf", 1, 29.8, 126.3, "cut-line",
                "a box is 1.8 mm from a cut line (at least 3 mm)"),
        Finding("t.pdf", 1, 30.0, top(144, 9), "cut-line",
                "'name' is 2.1 mm from a cut line (at least 3 mm)")]
    # 3.1 mm each side
    clear = made(page(cut(), rect(30, 151.8, 40, 20, line=0.4), text(30, 143, "name")))
    assert found(clear) == []


def test_a_dashed_line_inside_a_copy_is_no_cut_line() -> None:
    assert found(made(page(line(30, 100, 90, 100, dash=(1, 0.8)), rect(30, 101, 40, 10)))) == []


def test_cut_lines_are_a_sheets_rule() -> None:
    drawing = page(cut(), rect(30, 150.5, 40, 20))
    assert found(made(drawing, document="card"), "cut-line") == []
    assert found(made(drawing, document="sheet"), "cut-line")


# A deck's bleed ---------------------------------------------------------------------------

BLEED = (10.0, 10.0, 200.0, 287.0)


def test_marks_outside_the_bleed_and_art_inside_it() -> None:
    art = rect(10, 10, 190, 277, stroke=False, fill=True, grey=0.3)
    marks = page(art, line(5.5, 20, 9.5, 20), text(8.5, 100, "sheet 1", 7, angle=90))
    assert found(made(marks, document="deck", bleed=BLEED)) == []


def test_a_crop_mark_running_into_the_bleed() -> None:
    # 0.2 mm thick, from 6 to 12 mm: its ink from 5.9, 2.1 mm into the bleed
    [finding] = found(made(line(6, 20, 12, 20), document="deck", bleed=BLEED))
    assert finding == Finding("t.pdf", 1, 5.9, 276.9, "bleed",
                              "a mark runs into the bleed: a line by 2.1 mm")


def test_card_art_drawn_beyond_the_bleed() -> None:
    frame = rect(7, 7, 196, 283, stroke=False, fill=True, grey=0.3)
    [finding] = found(made(frame, document="deck", bleed=BLEED))
    assert finding == Finding("t.pdf", 1, 7.0, 7.0, "bleed",
                              "card art runs beyond the bleed: a band by 3.0 mm")


def test_a_label_across_the_bleed_edge() -> None:
    [finding] = found(made(text(8, 100, "label", 7), document="deck", bleed=BLEED))
    assert finding.rule == "bleed" and finding.message.startswith("'label' runs across the edge")


def test_a_page_whose_bleed_box_is_its_paper_has_no_bleed_wherever_the_paper_starts() -> None:
    # WeasyPrint's Letter pages start their MediaBox (and BleedBox) away from (0, 0)
    data = made(rect(0, 0, 100, 100, stroke=False, fill=True, grey=0.3), document="rulebook")
    pdf = pikepdf.open(io.BytesIO(data))
    paper = pikepdf.Array([-8.362, 24.945, 595.276 - 8.362, 841.89 + 24.945])
    pdf.pages[0].MediaBox = pdf.pages[0].BleedBox = paper
    shifted = io.BytesIO()
    pdf.save(shifted)
    assert found(shifted.getvalue(), "bleed") == []


# Rulebook figures -------------------------------------------------------------------------


def with_figure(body: Draw, figure: Draw, name: str, at: tuple[float, float]) -> bytes:
    """A rulebook page drawn by ``body`` with the page drawn by ``figure`` placed on it at
    ``at`` (mm), half size, as a form XObject called ``name``."""
    pdf = pikepdf.open(io.BytesIO(made(body, document="rulebook")))
    drawing = pikepdf.open(io.BytesIO(made(figure, document=None, size=(80, 40))))
    form = pdf.copy_foreign(drawing.pages[0].as_form_xobject())
    page = pdf.pages[0]
    placed = page.add_resource(form, pikepdf.Name.XObject, pikepdf.Name(f"/{name}"))
    page.contents_add(f"q 0.5 0 0 0.5 {at[0] * mm:.3f} {at[1] * mm:.3f} cm {placed} Do Q"
                      .encode("ascii"))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


# A drawn sheet: 5 pt labels, one across the edge of its box
SHEET = page(rect(5, 5, 70, 30), text(10, 20, "orange", 5), text(72, 20, "total", 5))


def test_a_figure_is_one_picture_whose_own_text_is_not_the_books() -> None:
    body = page(text(25, 250, "The rules of the game.", 9))
    assert found(with_figure(body, SHEET, "PnpFigure0", (40, 150))) == []
    # the same drawing placed by anything else is read as the book's text
    rules = {f.rule for f in found(with_figure(body, SHEET, "Fm0", (40, 150)))}
    assert rules == {"type", "overlap"}


def test_text_across_a_figure_is_found() -> None:
    # the figure covers 40-80 mm across and 150-170 mm up; the words run into it
    body = page(text(25, 250, "The rules of the game.", 9), text(30, 160, "across", 9))
    [finding] = found(with_figure(body, SHEET, "PnpFigure0", (40, 150)))
    assert finding.rule == "overlap"
    assert finding.message.startswith("'across' runs across the edge of an image")


# Command lines, fonts, structure ----------------------------------------------------------


def test_command_line_text_on_a_page_for_players() -> None:
    page_text = page(text(20, 200, "Print it with pnp sheet qwinto --grayscale."),
                     text(20, 180, "A pnp-made sheet — score it as you go."))
    [command, option] = found(made(page_text, document="rulebook"))
    assert command == Finding("t.pdf", 1, round(20 + advance("Print it with "), 1),
                              top(200, 9), "command-line",
                              "command-line text 'pnp sheet' on a page for players "
                              "(say it in words)")
    assert option == Finding("t.pdf", 1, round(20 + advance("Print it with pnp sheet qwinto "), 1),
                             top(200, 9), "command-line",
                             "command-line text '--grayscale' on a page for players "
                             "(say it in words)")


def test_command_line_text_set_word_by_word() -> None:
    # words placed one by one, as a typesetter may, with no space glyph between them
    words = page(text(20, 200, "run"), text(20 + advance("run "), 200, "pnp"),
                 text(20 + advance("run pnp "), 200, "score"))
    [command] = found(made(words, document="card"))
    assert command == Finding("t.pdf", 1, round(20 + advance("run "), 1), top(200, 9),
                              "command-line", "command-line text 'pnp score' on a page for "
                                              "players (say it in words)")


def test_commands_known_to_the_preflight_are_pnps() -> None:
    assert set(COMMANDS) == set(main.commands)


def test_a_font_not_embedded() -> None:
    def helvetica(canvas: Canvas) -> None:
        canvas.setFont("Helvetica", 9 / mm)
        canvas.drawString(20, 100, "plain")

    # Helvetica's descent is 0.207 em
    [finding] = found(made(helvetica))
    assert finding == Finding("t.pdf", 1, 20.0, top(100, 9, descent=0.207), "font",
                              "font Helvetica is not embedded")


def test_a_form_fields_standard_font_is_not_a_finding_until_it_shows_text() -> None:
    def field(value: str) -> Draw:
        def draw(canvas: Canvas) -> None:
            canvas.saveState()
            canvas.scale(1 / mm, 1 / mm)
            canvas.acroForm.textfield(name="n", value=value, x=20 * mm, y=100 * mm,
                                      width=30 * mm, height=8 * mm, fontName="Helvetica")
            canvas.restoreState()
        return draw

    assert found(made(field("")), "font") == []
    [shown] = found(made(field("Ann")), "font")
    assert shown.message == "font Helvetica is not embedded"
    assert (shown.x, shown.y) == (20.0, 297.0 - 108)


def test_structure_qpdf_warns_about() -> None:
    data = made(text(20, 100, "fine"))
    assert found(data) == []
    broken = data.replace(b"startxref", b"startxref\n0\n%", 1)
    [warning] = found(broken)
    assert (warning.page, warning.rule) == (0, "structure")
    assert warning.message.startswith("qpdf: ")
    assert str(warning).startswith("t.pdf: qpdf: ")


def test_a_page_whose_content_does_not_parse_is_told_as_qpdf_check_tells_it() -> None:
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.pages[0].obj.Contents = pdf.make_stream(b"q 1 0 0 1 0 0 cm ] ) Q (unterminated")
    written = io.BytesIO()
    pdf.save(written)
    [told] = found(written.getvalue())
    where = "WARNING: page object 3 0 stream 4 0 (content, offset"
    assert told.message == (f"qpdf: {where} 17): treating unexpected array close token as "
                            f"null; {where} 19): unexpected ); {where} 23): EOF while reading "
                            f"token")


def test_a_file_pdf_cannot_open_is_refused_without_a_memory_address() -> None:
    with pytest.raises(PreflightError) as refused:
        checking.check_bytes(b"%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n", "t.pdf")
    assert "0x" not in str(refused.value) and "stream <" not in str(refused.value)


def test_a_damaged_stream_is_told_the_same_at_every_check() -> None:
    data = made(text(20, 100, "fine"))
    start = data.index(b"FlateDecode")
    start = data.index(b"stream", start) + 20
    broken = data[:start] + b"\x00garbage!!\xff" + data[start + 11:]
    [first], [again] = found(broken), found(broken)
    assert first.rule == "structure" and "decoding stream data" in first.message
    assert "<" not in first.message and "WARNING" not in first.message
    assert first == again


def test_what_a_file_is_comes_from_its_keyword_before_its_name() -> None:
    import pikepdf

    def kind(data: bytes, name: str) -> str:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            return kind_of(pdf, name)

    marked = made(text(20, 100, "x"), document="rulebook")
    assert kind(marked, "qwinto-sheet-a4.pdf") == "rulebook"
    foreign = made(text(20, 100, "x"), document=None)
    assert kind(foreign, "x-rulebook-a4.pdf") == "rulebook"
    assert kind(foreign, "x-deck-poker-a4.pdf") == "deck"
    assert kind(foreign, "whatever.pdf") == "sheet"


def test_unreadable_input_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(PreflightError, match="not a readable PDF"):
        checking.check_bytes(b"%PDF-1.4 nothing else", "x.pdf")
    with pytest.raises(PreflightError, match="file not found"):
        check(tmp_path / "missing.pdf")
    with pytest.raises(PreflightError, match="a folder, not a file"):
        check(tmp_path)


def test_page_count_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checking, "MAX_PAGES", 2)
    with pytest.raises(PreflightError, match="3 pages, more than the 2"):
        check_bytes(made(text(20, 100, "a"), text(20, 100, "b"), text(20, 100, "c")), "x.pdf")


# The command ------------------------------------------------------------------------------


def test_the_command_exit_codes_and_lines(tmp_path: Path) -> None:
    clean = tmp_path / "clean.pdf"
    clean.write_bytes(made(text(20, 100, "fine")))
    small = tmp_path / "small.pdf"
    small.write_bytes(made(text(20, 100, "tiny", 5)))
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"not a pdf at all")
    runner = CliRunner()
    run = runner.invoke(main, ["preflight", str(clean)])
    assert (run.exit_code, run.stdout) == (0, "1 PDF: no findings\n")
    run = runner.invoke(main, ["preflight", str(clean), str(small)])
    assert run.exit_code == 1
    assert run.stdout == (f"{small}:page 1: (20.0, {top(100, 5):.1f}) mm: 'tiny' is set in "
                          f"5.0 pt (at least 6 pt on a sheet)\n")
    assert run.stderr == "1 findings in 1 of 2 PDFs\n"
    run = runner.invoke(main, ["preflight", str(clean), str(bad)])
    assert run.exit_code == 2
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.output
    assert run.stderr.startswith(f"error: {bad}: not a readable PDF")
    run = runner.invoke(main, ["preflight", str(tmp_path / "nothing.pdf")])
    assert run.exit_code == 2 and run.stderr.count("\n") == 1


def test_the_command_reads_a_folder_and_defaults_to_output(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    run = runner.invoke(main, ["preflight"])
    assert run.exit_code == 2
    assert run.stderr == ("error: output: no such folder (build first with 'pnp build', or name "
                          "the PDFs to check)\n")
    (tmp_path / "output" / "a").mkdir(parents=True)
    (tmp_path / "output" / "a" / "one.pdf").write_bytes(made(text(20, 100, "tiny", 5)))
    (tmp_path / "output" / "two.pdf").write_bytes(made(text(20, 100, "fine")))
    run = runner.invoke(main, ["preflight"])
    assert run.exit_code == 1
    assert run.stdout.startswith("output/a/one.pdf:page 1: (20.0, ")


# The build --------------------------------------------------------------------------------


SHEETS = [t for t in plan(["spectacle"], ["en"], ["a4"]) if t.document == "sheet"]


def fake_check(data: bytes, name: str) -> list[Finding]:
    """A finding that says which bytes it was measured on."""
    return [Finding(name, 1, 1.0, 2.0, "type", f"measured {hashlib.sha256(data).hexdigest()}")]


@pytest.fixture(scope="module")
def aids(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Spectacle's English A4 sheets, built once, with :func:`fake_check` for a preflight
    (the workers are forked from this process, so they measure with it)."""
    import pnp.build.make

    out = tmp_path_factory.mktemp("aids") / "out"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pnp.build.make, "check_bytes", fake_check)
        summary = build(SHEETS, out, jobs=2)
    assert summary.count("built") == len(SHEETS)
    return out


def test_the_build_keeps_each_files_findings_and_does_not_measure_again(
        aids: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    shutil.copytree(aids, out)
    manifest = json.loads((out / MANIFEST).read_text())
    expected = []
    for key, entry in manifest.items():
        digest = hashlib.sha256((out / key).read_bytes()).hexdigest()
        assert entry["findings"] == [[1, 1.0, 2.0, "type", f"measured {digest}"]], key
        expected.append(f"{out / key}:page 1: (1.0, 2.0) mm: measured {digest}")
    import pnp.build.make

    def refuse(*args: object) -> list[Finding]:
        raise AssertionError("measured again")

    monkeypatch.setattr(pnp.build.make, "check_bytes", refuse)
    monkeypatch.setattr(checking, "check_bytes", refuse)
    again = build(SHEETS, out, jobs=2)
    assert again.count("skipped") == len(SHEETS)
    assert sorted(str(f) for f in again.findings) == sorted(expected)
    run = CliRunner().invoke(main, ["preflight", str(out)])
    assert run.exit_code == 1
    assert sorted(run.stdout.splitlines()) == sorted(expected)


def test_what_the_build_measures_is_what_the_command_measures(tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(SHEETS, out, jobs=2)
    manifest = json.loads((out / MANIFEST).read_text())
    for key, entry in manifest.items():
        assert [checking.from_record(str(out / key), kept) for kept in entry["findings"]] == \
            check(out / key), key


def test_the_command_measures_a_file_changed_since_its_build(aids: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(aids, out)
    aid = out / "spectacle/en/spectacle-aid-a4.pdf"
    aid.write_bytes(made(text(20, 100, "tiny", 5)))
    run = CliRunner().invoke(main, ["preflight", str(out)])
    lines = [line for line in run.stdout.splitlines() if line.startswith(f"{aid}:")]
    assert lines == [f"{aid}:page 1: (20.0, {top(100, 5):.1f}) mm: 'tiny' is set in 5.0 pt "
                     f"(at least 6 pt on a sheet)"]


def test_the_build_command_prints_findings_and_exits_1(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import pnp.build.make

    monkeypatch.setattr(pnp.build.make, "check_bytes", lambda data, name: [
        Finding(name, 1, 1.0, 2.0, "type", "'x' is set in 5.0 pt (at least 6 pt on a sheet)")])
    run = CliRunner().invoke(main, ["build", "spectacle", "--lang", "en", "--paper", "a4",
                                    "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert run.exit_code == 1
    lines = run.stderr.splitlines()
    assert (f"{tmp_path / 'out'}/spectacle/en/spectacle-aid-a4.pdf:page 1: (1.0, 2.0) mm: 'x' is "
            f"set in 5.0 pt (at least 6 pt on a sheet)") in lines
    assert "findings       5\n" in run.stdout
