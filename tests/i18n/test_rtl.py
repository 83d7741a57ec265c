"""Right-to-left languages, read from what is drawn: Arabic letters joined as they are written,
a line's words from the right, a pad's first column on the right, a book's text from the right.

The joined forms expected are Unicode's presentation forms, looked up by hand in its Arabic
Presentation Forms-B table (U+FE70–U+FEFF), not asked of the code under test.
"""

from __future__ import annotations

import io
import itertools
import json
import subprocess
import unicodedata
from pathlib import Path
from typing import Any

import pdfplumber
import pytest

from pnp.definitions import load
from pnp.draw import fonts
from pnp.draw.canvas import new_canvas
from pnp.games.ronda.definition import Definition as Ronda
from pnp.i18n.languages import known

RTL = next(language.code for language in known() if language.direction == "rtl")
LTR = "en"
JS = Path(__file__).parents[1] / "js"

GAME = "لعبة"
""""game": lam, ain, beh, teh marbuta; lam starts the word, ain and beh join on both sides."""
GAME_DRAWN = "\ufe94\ufe92\ufecc\ufedf"
"""The same, as it stands from left to right: teh marbuta final, beh medial, ain medial, lam
initial (none of them isolated)."""
LINE = ("الورقة", "الأولى", "تربح")
"""Three words, the first read first: it must stand rightmost."""


def _draw(lang: str, *lines: tuple[float, str]) -> bytes:
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (120, 60), title="t", subject="s", lang=lang, document="sheet")
    canvas.setFont(fonts.SANS, 12)
    for y, text in lines:
        canvas.drawRightString(320, y, text)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _rows(pdf: bytes) -> list[list[dict[str, Any]]]:
    """The page's characters by line, each line left to right."""
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        chars = [c for c in document.pages[0].chars if c["text"].strip()]
    rows: dict[float, list[dict[str, Any]]] = {}
    for char in chars:  # by baseline, from the top
        rows.setdefault(-round(float(char["matrix"][5]), 1), []).append(char)
    return [sorted(row, key=lambda c: float(c["x0"])) for _y, row in sorted(rows.items())]


def _logical(drawn: str) -> str:
    """What a reader reads in a right-to-left run drawn ``drawn`` from the left."""
    return unicodedata.normalize("NFKC", drawn[::-1])


def test_arabic_letters_are_drawn_joined_and_read_back_as_written() -> None:
    (row,) = _rows(_draw(RTL, (100, GAME)))
    drawn = "".join(str(c["text"]) for c in row)
    assert drawn == GAME_DRAWN
    assert _logical(drawn) == GAME
    assert {str(c["fontname"]).split("+")[-1] for c in row} == {"NotoSansArabic-Regular"}


def test_the_first_word_of_a_right_to_left_line_stands_rightmost() -> None:
    (row,) = _rows(_draw(RTL, (100, " ".join(LINE))))
    words: list[list[dict[str, Any]]] = [[row[0]]]
    for before, char in itertools.pairwise(row):
        if float(char["x0"]) - float(before["x1"]) > 1.5:
            words.append([])
        words[-1].append(char)
    read = [_logical("".join(str(c["text"]) for c in word)) for word in reversed(words)]
    assert read == list(LINE)


def test_digits_in_a_right_to_left_line_read_left_to_right_at_its_left() -> None:
    (row,) = _rows(_draw(RTL, (100, f"{GAME} 41")))
    drawn = "".join(str(c["text"]) for c in row)
    assert drawn == "41" + GAME_DRAWN


def test_a_left_to_right_line_is_drawn_as_before() -> None:
    (row,) = _rows(_draw(LTR, (100, "Ronda 41")))
    assert "".join(str(c["text"]) for c in row) == "Ronda41"
    assert float(row[-1]["x1"]) == pytest.approx(320, abs=0.01)


def _tiles(lang: str) -> tuple[float, float]:
    """The x of the first and the second side's letter in the pad's row of names."""
    from pnp.sheets.layout import render

    rules = load("ronda")
    assert isinstance(rules, Ronda)
    first, second = (side.mark for side in rules.print.sides[:2])
    with pdfplumber.open(io.BytesIO(render("ronda", kind="pad", lang=lang))) as document:
        chars = document.pages[0].chars
    rows: dict[float, dict[str, float]] = {}
    for char in chars:
        if char["text"] in (first, second):
            rows.setdefault(round(float(char["top"])), {})[char["text"]] = float(char["x0"])
    names = next(row for _top, row in sorted(rows.items()) if len(row) == 2)
    return names[first], names[second]


def test_the_pads_first_side_stands_on_the_right_in_a_right_to_left_language() -> None:
    first, second = _tiles(LTR)
    assert first < second
    first, second = _tiles(RTL)
    assert first > second


def _book_lines(direction: str) -> list[tuple[float, float]]:
    """Each line's left and right edge (points) of a short book page set with the rulebooks'
    style sheet in ``direction``."""
    import weasyprint

    from pnp.assets import current
    from pnp.books.pdf import font_faces

    text = "الورقة الأولى تربح" if direction == "rtl" else "The first card wins"
    page = (f'<html dir="{direction}"><body><main><p>{text}</p><ul><li>{text}</li></ul>'
            f'<table><tr><td>{text}</td><td class="num">41</td></tr></table></main></body></html>')
    css = (current().templates / "print.css").read_text(encoding="utf-8")
    pdf = weasyprint.HTML(string=page).write_pdf(
        stylesheets=[weasyprint.CSS(string=font_faces() + css)])
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        width = float(document.pages[0].width)
    return [(float(row[0]["x0"]), width - float(row[-1]["x1"])) for row in _rows(pdf)]


def test_a_right_to_left_book_sets_its_text_from_the_right_edge_of_its_column() -> None:
    margin = 16 / 25.4 * 72  # the first page's side margins
    ltr, rtl = _book_lines("ltr"), _book_lines("rtl")
    paragraph, item, cell = ltr[:3]
    assert paragraph[0] == pytest.approx(margin, abs=0.5)
    assert item[0] > paragraph[0] + 3  # the list's indent (its bullet in it), from the left
    assert cell[0] < paragraph[0] + 10  # the table, from the left
    paragraph, item, cell = rtl[:3]
    assert paragraph[1] == pytest.approx(margin, abs=0.5)
    assert item[1] > paragraph[1] + 3  # the list's indent (its bullet in it), from the right
    assert cell[1] < paragraph[1] + 10  # the table, from the right
    assert paragraph[0] > margin + (178 - 116) / 25.4 * 72  # and the measure's edge


SEATS = """
import { launch } from "./launch.mjs";
const [executablePath, ...pages] = process.argv.slice(1);
const browser = await launch(executablePath);
const seen = [];
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  for (const url of pages) {
    await page.goto(url);
    await page.locator('[data-at="players/1/name"]').waitFor({ state: "attached" });
    seen.push(await page.evaluate(() => ({
      dir: document.documentElement.dir,
      seats: [0, 1].map((i) => document.querySelector(`[data-at="players/${i}/name"]`)
        .getBoundingClientRect().left),
    })));
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
"""


def test_a_right_to_left_scorer_page_seats_its_first_player_on_the_right(
        tmp_path: Path) -> None:
    """Ronda's phone page at 390 px, in English and in the right-to-left language, in one
    browser: the page says its direction, and the first seat's name box stands right of the
    second's only where the language reads from the right."""
    from browser import need_chromium
    from pnp.scorer import page as scorer

    urls = []
    for lang in (LTR, RTL):
        path = tmp_path / f"ronda-{lang}.html"
        path.write_bytes(scorer.render("ronda", lang))
        urls.append(path.as_uri())
    done = subprocess.run(["node", "--input-type=module", "-e", SEATS, need_chromium(), *urls],
                          capture_output=True, text=True, check=False, timeout=300, cwd=JS)
    assert done.returncode == 0, done.stderr[-2000:]
    ltr, rtl = json.loads(done.stdout)
    assert ltr["dir"] == "ltr" and ltr["seats"][0] < ltr["seats"][1]
    assert rtl["dir"] == "rtl" and rtl["seats"][0] > rtl["seats"][1]


def test_a_right_to_left_title_is_written_in_svg_as_it_stands() -> None:
    """A lockup's SVG text in a right-to-left script: its joined forms from the left, kept in
    that order by the reader (WeasyPrint reorders nothing, a browser would reorder again).
    "روندا": reh and waw join nothing after them, so reh, waw and alef stand alone, noon
    starts a join and dal ends it."""
    from pnp.draw.identity import lockup_svg

    svg = lockup_svg(load("ronda").print.identity, "روندا")
    assert '<text' in svg and ">\ufe8d\ufeaa\ufee7\ufeed\ufead</text>" in svg
    assert 'direction="ltr" unicode-bidi="bidi-override"' in svg
    assert "روندا" not in svg.split("</title>")[1]
