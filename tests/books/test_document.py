"""The rulebook and card pipeline: contents, fonts, tags, safety against hostile text."""

from __future__ import annotations

import dataclasses
import io
import itertools
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pdfplumber
import pypdf
import pytest
from click.testing import CliRunner

from pdfcheck import MM, page_texts, pdffonts, qpdf_check
from pnp import assets
from pnp.books.compose import compose
from pnp.books.limits import memory_allowance
from pnp.books.pdf import render_pdf
from pnp.books.references import CSP
from pnp.books.render import render
from pnp.cli import main
from pnp.errors import DocumentError

if TYPE_CHECKING:
    from conftest import Books

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def qwinto_pdf(bookshelf: Books) -> bytes:
    return bookshelf.pdf("rulebook", "qwinto", "en")


def test_contents_page_numbers_are_right(qwinto_pdf: bytes) -> None:
    pages = page_texts(qwinto_pdf)
    contents_page = next(i for i, text in enumerate(pages) if text.startswith("Contents"))
    # the contents share their page with the opening chapters, in two lists side by side:
    # their lines come first, two entries to a line, and the headings from that page on
    lines = pages[contents_page].split("\n")[1:]
    entries = []
    for line in itertools.takewhile(lambda text: re.search(r"\D \d+$", text), lines):
        entries += re.findall(r"(\D+?) (\d+)(?: |$)", line)
    assert len(entries) == 13 and entries[0] == ("Overview", "2")
    for title, number in entries:
        found = next(i + 1 for i, text in enumerate(pages) if i >= contents_page
                     and re.search(rf"^{re.escape(title)}$", text, re.M))
        assert found == int(number), title


def test_tagged_with_language_bookmarks_and_page_numbers(qwinto_pdf: bytes) -> None:
    reader = pypdf.PdfReader(io.BytesIO(qwinto_pdf))
    root = reader.trailer["/Root"]
    assert root["/Lang"] == "en"
    assert root["/MarkInfo"]["/Marked"]
    assert "/StructTreeRoot" in root
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    assert "Scoring" in titles and "About this edition" in titles
    last = reader.pages[-1].extract_text()
    assert f"page {len(reader.pages)} of {len(reader.pages)}" in last
    assert reader.metadata.title == "Qwinto — Rules of play"


def test_fonts_embedded_and_structure_clean(qwinto_pdf: bytes, tmp_path: Path) -> None:
    path = tmp_path / "book.pdf"
    path.write_bytes(qwinto_pdf)
    fonts = pdffonts(path)
    assert fonts and all(line.split()[-5] == "yes" for line in fonts)
    # Only the bundled faces: WeasyPrint names them by their @font-face families, the
    # figures (drawn by reportlab) by their own names, DejaVu Sans among them.
    assert all("Pnp" in line or "DejaVuSans" in line for line in fonts)
    assert qpdf_check(path).returncode == 0


def test_the_build_is_reproducible(qwinto_pdf: bytes) -> None:
    assert render("rulebook", "qwinto", "en") == qwinto_pdf


def test_standalone_html_inlines_its_style(bookshelf: Books) -> None:
    page = bookshelf.html("rulebook", "qwinto", "en")
    assert page.startswith("<!doctype html>")
    assert '<html lang="en" dir="ltr">' in page
    assert "<style>" in page and 'rel="stylesheet"' not in page
    assert "<h1 id=\"scoring\">Scoring</h1>" in page


def test_card_is_one_a5_page(bookshelf: Books) -> None:
    reader = pypdf.PdfReader(io.BytesIO(bookshelf.pdf("card", "qwinto", "en")))
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


def refused(words: str) -> pytest.RaisesContext[DocumentError]:
    """Expect a DocumentError whose message has ``words``."""
    return pytest.raises(DocumentError, match=re.escape(words))


CANARY = "canary-5e1f0c: the secret outside the edition"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the edition, holding a file no document may show."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.md").write_text(CANARY)
    return folder


@pytest.mark.parametrize("text", [
    '# Hi\n\n{% include "secret.md" %}\n',
    '# Hi\n\n{% include "away/secret.md" %}\n',
    '# Hi\n\n{% import "away/secret.md" as secret %}{{ secret }}\n',
    '# Hi\n\n{% include ["nothing.md", "secret.md"] %}\n',
    '{% extends "secret.md" %}\n',
])
def test_a_link_leading_outside_the_templates_is_refused(hostile: Path, outside: Path,
                                                          text: str) -> None:
    templates = hostile.parents[2]
    (templates / "secret.md").symlink_to(outside / "secret.md")
    (templates / "away").symlink_to(outside, target_is_directory=True)
    hostile.write_text(text)
    line = text.count("\n", 0, text.index("{%")) + 1
    for fmt in ("pdf", "html"):
        with pytest.raises(DocumentError) as caught:
            render("rulebook", "qwinto", "en", fmt=fmt)
        message = str(caught.value)
        assert f"rulebooks/qwinto/en.md:{line}: not allowed:" in message
        assert "leads outside the edition's templates folder" in message
        assert CANARY not in message


def test_a_text_or_page_template_that_is_itself_a_link_outside_is_refused(
        hostile: Path, outside: Path) -> None:
    hostile.unlink()
    hostile.symlink_to(outside / "secret.md")
    with pytest.raises(DocumentError, match=r"en.md: not allowed: .* leads outside"):
        compose("rulebook", "qwinto", "en")
    hostile.unlink()
    hostile.write_text("# Hi\n")
    page = hostile.parents[2] / "rulebook.html.j2"
    page.unlink()
    page.symlink_to(outside / "secret.md")
    with pytest.raises(DocumentError, match=r"rulebook.html.j2: not allowed: .* leads outside"):
        compose("rulebook", "qwinto", "en")


def test_the_bundled_templates_reached_through_a_link_are_inside(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    """pnp's own templates folder is a link (pnp/data/templates): real paths on both sides."""
    (tmp_path / "linked").symlink_to(ROOT / "templates", target_is_directory=True)
    bundled = assets.Edition.bundled()
    monkeypatch.setattr(assets, "_current",
                        dataclasses.replace(bundled, templates=tmp_path / "linked"))
    assert "<h1 id=\"scoring\">Scoring</h1>" in compose("rulebook", "qwinto", "en").html


@pytest.mark.parametrize("fmt", ["pdf", "html"])
def test_a_missing_image_names_the_text_and_the_file(hostile: Path, fmt: str) -> None:
    hostile.write_text("# Hi\n\nSee ![x](missing.png) here.\n")
    with pytest.raises(DocumentError) as caught:
        render("rulebook", "qwinto", "en", fmt=fmt)
    assert str(caught.value).endswith("templates/rulebooks/qwinto/en.md:3: refers to missing.png, "
                                      "which is not a file in the edition's templates")


def test_the_layout_stops_at_a_missing_file_with_its_name(hostile: Path) -> None:
    """Behind the policy, WeasyPrint's fetcher itself refuses what it cannot read."""
    page = compose("rulebook", "qwinto", "en")
    for html_text, words in [('<img src="missing.png">', "missing.png, which is not a file"),
                             ('<img src="file:///etc/hostname">', "outside the edition's"),
                             ('<img src="http://198.51.100.7/x.png">', "outside the edition's")]:
        broken = dataclasses.replace(page, html=page.html.replace("<main>", "<main>" + html_text))
        with pytest.raises(DocumentError, match=words):
            render_pdf(broken)


REFERENCES = [
    "![x](file:///etc/passwd)",
    "![x](http://127.0.0.1:9/x.png)",
    "![x](//198.51.100.7/x.png)",
    '<img src="\\\\198.51.100.7\\x.png">',
    "![x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "![x](data:image/svg+xml,<svg/onload=alert(1)>)",
    "[x](file:///etc/passwd)",
    "[x](http://127.0.0.1:9/)",
    "[x](//198.51.100.7/)",
    '<a href="data:text/html,<script>alert(1)</script>">x</a>',
    "![x](../../../../../../etc/hostname)",
    "![x](rulebook.html.j2)",
    '<img src=" HTTP://127.0.0.1:9/x.png ">',
]


@pytest.mark.parametrize("fmt", ["pdf", "html"])
@pytest.mark.parametrize("reference", REFERENCES)
def test_both_editions_refuse_a_reference_outside_the_document(hostile: Path, fmt: str,
                                                                reference: str) -> None:
    hostile.write_text(f"# Hi\n\nSome text.\n\n{reference}\n")
    with pytest.raises(DocumentError) as caught:
        render("rulebook", "qwinto", "en", fmt=fmt)
    assert "rulebooks/qwinto/en.md:5: " in str(caught.value)


_ONE_PIXEL_PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FD"
                  "AAAAAElFTkSuQmCC")
"""A PNG of one pixel: an inline image is what its bytes say (the PNG signature alone
is no image)."""


def test_the_html_edition_is_self_contained_and_forbids_loading(hostile: Path) -> None:
    from PIL import Image

    Image.new("RGB", (4, 4), (200, 0, 0)).save(hostile.parents[2] / "dot.png")
    hostile.write_text("# Hi\n\n![a dot](dot.png) [up](#hi) [pnp](https://pnp.example/) "
                       f"![inline](data:image/png;base64,{_ONE_PIXEL_PNG})\n")
    page = render("rulebook", "qwinto", "en", fmt="html").decode()
    head = page.split("<head>", 1)[1]
    assert head.lstrip().startswith(f'<meta http-equiv="Content-Security-Policy" '
                                    f'content="{CSP}">')
    assert "default-src 'none'" in CSP and "connect-src" not in CSP
    references = re.findall(r'\b(?:src|href)="([^"]*)"', page) + re.findall(r"url\(([^)]*)\)",
                                                                               page)
    assert "#hi" in references and "https://pnp.example/" in references
    for reference in references:
        assert reference.startswith(("#", "data:image/png;base64,", "data:font/woff2;base64,",
                                     "https://")), reference
    assert '<a href="https://pnp.example/">' in page
    assert page.count("data:image/png;base64,") == 2 and "dot.png" not in page


@pytest.mark.parametrize(("file", "change", "message"), [
    ("rulebook.html.j2", ("</head>", '<script src="http://127.0.0.1:9/x.js"></script></head>'),
     "the element <script> is not allowed"),
    ("rulebook.html.j2", ("</head>", '<meta http-equiv="refresh" content="0;url=http://x/">'
                          "</head>"), "http-equiv"),
    ("rulebook.html.j2", ("</head>", '<link rel="prefetch" href="http://127.0.0.1:9/"></head>'),
     "may only name a style sheet"),
    ("rulebook.html.j2", ("</style>", '@import "http://127.0.0.1:9/y.css";</style>'),
     "refers to http://127.0.0.1:9/y.css"),
    ("rulebook.html.j2", ("<main>", '<main style="background: url(file:///etc/passwd)">'),
     "refers to file:///etc/passwd"),
    ("rulebook.html.j2", ("<main>", '<main onmouseover="alert(1)">'), "'onmouseover'"),
    ("rulebook.html.j2", ("<main>", "<main><!-- --!><img src=http://127.0.0.1:9/c.png>-->"),
     "a comment may not hold < or >"),
    ("rulebook.html.j2", ("<main>", "<main><![CDATA[ > <img src=http://127.0.0.1:9/>]]>"),
     "<![...]> is not allowed"),
    ("print.css", ("html {", "body { background: url(http://127.0.0.1:9/p.png) }\nhtml {"),
     "print.css:18: refers to http://127.0.0.1:9/p.png"),
    ("print.css", ("html {", '@import url("../../../../../etc/passwd");\nhtml {'),
     "print.css:18: refers to ../../../../../etc/passwd, outside"),
    ("print.css", ("html {", "@font-face { font-family: X; src: \\75rl(//h/f.ttf) }\nhtml {"),
     "print.css:18: refers to //h/f.ttf"),
])
def test_a_page_template_or_style_sheet_may_not_refer_outside(
        hostile: Path, file: str, change: tuple[str, str], message: str) -> None:
    path = hostile.parents[2] / file
    text = path.read_text()
    assert change[0] in text
    path.write_text(text.replace(change[0], change[1], 1))
    for fmt in ("pdf", "html"):
        with pytest.raises(DocumentError, match=re.escape(message)) as caught:
            render("rulebook", "qwinto", "en", fmt=fmt)
        assert file in str(caught.value)


@pytest.mark.parametrize("css", [
    "body { background: url(http://127.0.0.1:9/s.png) }",
    "body { background: -webkit-image-set('http://127.0.0.1:9/s.png' 1x) }",
    "body { background: \\75 rl(//127.0.0.1:9/s.png) }",
    "@import 'other.css';",
    "body { background: url(dot.png) }",
])
def test_the_screen_style_sheet_may_refer_to_nothing(hostile: Path, css: str) -> None:
    screen = hostile.parents[2] / "screen.css"
    screen.write_text(screen.read_text() + css + "\n")
    with pytest.raises(DocumentError, match=r"screen\.css:\d+: refers to .*outside the page"):
        render("rulebook", "qwinto", "en", fmt="html")


@pytest.mark.parametrize(("text", "message"), [
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
     ":3: takes longer than 2 s to render"),
    ("{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}"
     "{{ f(40) }}", ":3: takes longer than 2 s to render"),
    ("{{ 'a' * 100000000000 }}", ":3: repeats a text or list"),
    ("{{ range(100000)|list * 1000 }}", ":3: repeats a text or list"),
    ("{{ 10 ** 100000 }}", ":3: 10 ** 100000 is too large a number"),
    ("{{ 10.0 ** 400 }}", ":3: computes too large a number"),
    ("{% set ns = namespace(x=3) %}{% for i in range(40) %}{% set ns.x = ns.x * ns.x %}"
     "{% endfor %}", ":3: multiplies numbers into too large a number"),
    ("{{ range(10 ** 10)|list }}", ":3: Range too big"),
    ("{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}", ":3: nested too deeply"),
    ('{% include "rulebooks/qwinto/en.md" %}', ":3: nested too deeply"),
    ("{% set ns = namespace(s='ab') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}"
     "{% endfor %}", ":3: takes more than 256 MiB of memory"),
    ("{{ 'a'|center(2 ** 40) }}", ":3: takes more than 256 MiB of memory"),
    ("{% for i in range(100000) %}{{ 'a' * 100 }}{% endfor %}", ":3: too long: more than"),
    ("{{ lipsum(10 ** 8) }}", ":3: 'lipsum' is undefined"),
    ("{{ 1 / 0 }}", ":3: division by zero"),
])
def test_template_work_is_bounded(hostile: Path, monkeypatch: pytest.MonkeyPatch, text: str,
                                  message: str) -> None:
    monkeypatch.setattr("pnp.books.sandbox.TEMPLATE_SECONDS", 2.0)
    hostile.write_text(f"# Hi\n\n{text}\n")
    with pytest.raises(DocumentError) as caught:
        compose("rulebook", "qwinto", "en")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 500


def test_an_error_in_an_included_text_names_that_file_and_line(hostile: Path) -> None:
    (hostile.parent / "part.md").write_text("One\nTwo {{ 1 / 0 }}\n")
    (hostile.parent / "broken.md").write_text("One\n{% if %}\n")
    hostile.write_text('# Hi\n\n{% include "rulebooks/qwinto/part.md" %}\n')
    with pytest.raises(DocumentError, match=r"qwinto/part\.md:2: division by zero"):
        compose("rulebook", "qwinto", "en")
    hostile.write_text('# Hi\n\n{% include "rulebooks/qwinto/broken.md" %}\n')
    with pytest.raises(DocumentError, match=r"qwinto/broken\.md:2: Expected an expression"):
        compose("rulebook", "qwinto", "en")


def test_an_error_in_the_page_template_names_it(hostile: Path) -> None:
    page = hostile.parents[2] / "rulebook.html.j2"
    page.write_text(page.read_text().replace("<main>", "<main>{{ 1 / 0 }}"))
    with pytest.raises(DocumentError, match=r"rulebook\.html\.j2:38: division by zero"):
        compose("rulebook", "qwinto", "en")


def test_reading_the_markdown_is_bounded(hostile: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pnp.books.compose.MARKDOWN_SECONDS", 0.3)
    hostile.write_text("# Hi\n\n" + "[" * 20000 + "x" + "]" * 20000 + "\n")
    with refused("en.md: takes longer than 0.3 s to read as Markdown"):
        compose("rulebook", "qwinto", "en")


def test_a_document_too_long_or_too_deep_is_refused(hostile: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # the size is what is judged here (reading it takes 0.3-0.5 s of processor time, more
    # on a loaded machine; test_reading_the_markdown_is_bounded judges the time)
    monkeypatch.setattr("pnp.books.compose.MARKDOWN_SECONDS", 60.0)
    hostile.write_text("# Hi\n\n" + "| a " * 12000 + "|\n" + "|---" * 12000 + "|\n")
    with refused("en.md: too long: more than 128 KiB of HTML"):
        compose("rulebook", "qwinto", "en")
    hostile.write_text("# Hi\n\n" + "<div>" * 3000 + "deep" + "</div>" * 3000 + "\n")
    with refused("en.md: nested too deeply to lay out"):
        render("rulebook", "qwinto", "en")


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_the_layout_is_bounded_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """(A timer signal that lands in hypothesis's garbage-collection hook, loaded by other
    tests, is reported as unraisable there; the timer then fires again.)"""
    monkeypatch.setattr("pnp.books.pdf.LAYOUT_SECONDS", 0.05)
    with refused("en.md: takes longer than 0.05 s to lay out"):
        render("rulebook", "qwinto", "en")


def test_the_memory_allowance_stops_a_large_allocation_and_is_lifted_after() -> None:
    import resource

    before = resource.getrlimit(resource.RLIMIT_AS)
    with pytest.raises(MemoryError), memory_allowance(64 * 1024 * 1024):
        bytearray(256 * 1024 * 1024)
    assert resource.getrlimit(resource.RLIMIT_AS) == before
    assert len(bytearray(256 * 1024 * 1024)) == 256 * 1024 * 1024


def test_a_worked_example_outside_the_edition_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path, outside: Path) -> None:
    examples = tmp_path / "examples"
    shutil.copytree(ROOT / "examples", examples)
    (outside / "qwinto.yaml").write_text(f"secret: {CANARY}\n")
    (examples / "qwinto.yaml").unlink()
    (examples / "qwinto.yaml").symlink_to(outside / "qwinto.yaml")
    bundled = assets.Edition.bundled()
    monkeypatch.setattr(assets, "_current", dataclasses.replace(bundled, examples=examples))
    with refused("qwinto.yaml: leads outside the edition's examples"):
        compose("card", "qwinto", "en")


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
def editions(bookshelf: Books) -> dict[str, bytes]:
    """The longest rulebook on both papers, the Letter one from the A4 layout as the build
    makes it."""
    return {paper: bookshelf.pdf("rulebook", "ronda", "es", paper) for paper in ("a4", "letter")}


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
