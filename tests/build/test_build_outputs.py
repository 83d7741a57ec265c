"""What a real ``pnp build`` writes, built in processes of its own: the same bytes every
time, contents pages that point where the chapters are, and the README's pictures.

Four clean builds run once for this module, with different hash seeds: every game,
language and paper, which also writes the README's preview pictures; German and Arabic
(every kind of file, every game, the right-to-left book); and two games in French twice,
with the same ``SOURCE_DATE_EPOCH``. The second build's files are the first's; the
last two are the same bytes, their landing pages and build records too.
"""

from __future__ import annotations

import re
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pdfplumber
import pypdf
import pytest
from builds import clean_environment
from PIL import Image, ImageChops

from pdfcheck import BOOK_MARGIN
from pnp.build.plan import plan

pytestmark = pytest.mark.early  # the four builds take minutes: started first
ROOT = Path(__file__).resolve().parents[2]
EPOCH = "1000000000"
"""``SOURCE_DATE_EPOCH`` for the dated builds: 2001-09-09T01:46:40Z."""
DATED = ["qwinto", "xactika", "--lang", "fr"]
BUILDS = {
    "seed 1": ("1", None, []),
    "seed 2": ("2", None, ["--lang", "de", "--lang", "ar"]),
    "seed 3, dated": ("3", EPOCH, DATED),
    "seed 4, dated": ("4", EPOCH, DATED),
}
"""Each build: its PYTHONHASHSEED, its SOURCE_DATE_EPOCH (None: unset), its options."""
RECORDS = {"index.html", ".pnp-build.json", ".pnp-plan.json"}
"""What a build writes of the whole build: a build of fewer files writes them otherwise."""
KINDS = {r"^\w+/\w+/\w+-(sheet|pad|aid|coto)-a4\.pdf$", r"-sheet-fillable-a4\.pdf$",
         r"-card-a5\.pdf$", r"-deck-poker-letter\.pdf$", r"-deck-calibration-long-a4\.pdf$",
         r"-rulebook-a4\.pdf$", r"-rulebook-letter\.pdf$", r"-rulebook-a4\.html$",
         r"-scorer\.html$", r"^thumbs/.+\.png$", r"^ronda/ar/"}
"""Every kind of file a build makes, each of which a hash seed might reorder."""


def pnp_build(out: Path, seed: str, epoch: str | None, options: list[str]) -> None:
    """``pnp build`` in a process of its own, into a new folder, with a definition cache
    of its own and no edition or rules folder named in the environment (the bundled
    games are built, whatever an earlier test or the user's shell set). What it printed
    is kept beside the folder (:func:`summary`)."""
    env = {**clean_environment(out), "PYTHONHASHSEED": seed}
    if epoch is not None:
        env["SOURCE_DATE_EPOCH"] = epoch
    if not options:
        options = ["--previews", str(out) + "-previews"]
    run = subprocess.run([sys.executable, "-m", "pnp", "build", "--out", str(out), *options],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    out.with_name(out.name + ".stdout").write_text(run.stdout, encoding="utf-8")


def summary(out: Path) -> dict[str, int]:
    """The counts the build into ``out`` printed at its end."""
    printed = out.with_name(out.name + ".stdout").read_text(encoding="utf-8")
    return {what: int(count) for what, count in
            re.findall(r"^(built|skipped|failed|findings) +(\d+)$", printed, re.MULTILINE)}


def contents(folder: Path) -> dict[str, bytes]:
    """Every file a build left, by path (the lock file aside, which a build only locks)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".pnp-build.lock"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("builds")
    made = {}
    for name, (seed, epoch, options) in BUILDS.items():
        out = folder / name.replace(" ", "-").replace(",", "")
        pnp_build(out, seed, epoch, options)
        made[name] = out
    return made


def test_a_full_build_makes_every_file_and_passes_the_preflight(
        builds: dict[str, Path]) -> None:
    """Every game in every language on both papers: nothing fails, and the preflight each
    worker runs on what it made finds nothing."""
    assert summary(builds["seed 1"]) == {"built": len(plan()), "skipped": 0, "failed": 0,
                                         "findings": 0}


def test_a_build_with_another_hash_seed_writes_the_same_bytes(
        builds: dict[str, Path]) -> None:
    every, some = contents(builds["seed 1"]), contents(builds["seed 2"])
    compared = sorted(set(some) - RECORDS)
    assert [name for name in compared if name not in every] == []
    assert [name for name in compared if every[name] != some[name]] == []
    assert [k for k in sorted(KINDS) if not any(re.search(k, name) for name in compared)] == []


def test_two_builds_of_the_same_files_write_the_same_bytes(builds: dict[str, Path]) -> None:
    first, second = contents(builds["seed 3, dated"]), contents(builds["seed 4, dated"])
    assert sorted(first) == sorted(second)
    assert [name for name in first if first[name] != second[name]] == []
    assert set(first) >= RECORDS


def test_the_dated_build_is_dated_and_the_other_is_not(builds: dict[str, Path]) -> None:
    path = "xactika/fr/xactika-rulebook-a4.pdf"
    dated = pypdf.PdfReader(builds["seed 3, dated"] / path).metadata
    undated = pypdf.PdfReader(builds["seed 1"] / path).metadata
    assert dated.get("/CreationDate", "").startswith("D:20010909014640")
    assert "/CreationDate" not in undated
    page = "xactika/fr/xactika-rulebook-a4.html"
    assert 'content="2001-09-09T01:46:40Z"' in (builds["seed 3, dated"] / page).read_text()


# --- contents pages ----------------------------------------------------------------------------

RIGHT_TO_LEFT = {"ar"}
"""The shipped languages written from right to left (Ronda's Arabic)."""


def unmarked(text: str) -> str:
    """``text`` without the marks set over or under a letter (Arabic's shadda): the PDF
    draws each as a glyph of its own, which pdfplumber places apart from its letter."""
    return "".join(char for char in text if not unicodedata.combining(char))


def reading(line: dict[str, Any], lang: str) -> str:
    """The text of a line pdfplumber read (its glyphs from left to right, as drawn) in
    reading order, :func:`unmarked`. A right-to-left line is read back glyph by glyph, the
    last first: a glyph for two letters (Arabic's lam-alef) keeps their order, and numbers
    are written as they are read."""
    text = line["text"]
    if lang not in RIGHT_TO_LEFT:
        return unmarked(text)
    glyphs, at = [], 0
    for char in line["chars"]:  # the glyphs of the text, each in its place in it
        while text.startswith(" ", at):
            glyphs.append(" ")
            at += 1
        if text.startswith(char["text"], at):  # not a glyph drawn twice in one place
            glyphs.append(char["text"])
            at += len(char["text"])
    assert at == len(text), (text, [char["text"] for char in line["chars"]])
    return re.sub(r"\d+", lambda number: number[0][::-1], unmarked("".join(glyphs[::-1])))


def lines(page: Any, lang: str) -> list[dict[str, Any]]:
    """The page's lines of text, top to bottom, each with its ``text`` in reading order
    (:func:`reading`)."""
    return [{**line, "text": reading(line, lang)} for line in page.extract_text_lines()]


def listing(page: Any, lang: str) -> list[tuple[str, int]]:
    """The entries of the contents on ``page``, in reading order, with their page numbers
    (none if the page has no contents).

    The contents share their page with the opening chapters, in two lists side by side
    (the first on the right in a right-to-left book): after the contents' title come lines
    of one or two entries, each a title and its page, and a title may hold a number
    ("Variant for 3 or 4 players 8"); so each list is read down its own half of the page.
    """
    run = []
    for line in lines(page, lang)[1:]:
        if not re.search(r" \d+$", line["text"]):
            break
        run.append(line)
    if len(run) < 5:
        return []
    top, bottom, middle = run[0]["top"] - 1, run[-1]["bottom"] + 1, page.width / 2
    assert not [char["text"] for char in page.chars if top <= char["top"] <= bottom
                and char["x0"] < middle < char["x1"]], "an entry crosses the page's middle"
    halves = [page.crop((0, top, middle, bottom)), page.crop((middle, top, page.width, bottom))]
    entries = []
    for half in halves[::-1] if lang in RIGHT_TO_LEFT else halves:
        for line in lines(half, lang):
            entry = re.fullmatch(r"(.+) (\d+)", line["text"])
            assert entry, line["text"]
            entries.append((entry[1], int(entry[2])))
    return entries


def chapters(outline: list[object], reader: pypdf.PdfReader,
             depth: int = 0) -> list[tuple[str, int]]:
    """The bookmarks of chapters and sections (the two levels a contents page lists), in
    order, with the page each opens (from 1)."""
    found: list[tuple[str, int]] = []
    for item in outline:
        if isinstance(item, list):
            found += chapters(item, reader, depth + 1) if depth < 1 else []
        else:
            found.append((str(item.title), reader.get_destination_page_number(item) + 1))
    return found


def test_every_contents_page_points_where_its_chapters_start(builds: dict[str, Path]) -> None:
    books = sorted(builds["seed 1"].glob("*/*/*-rulebook-a4.pdf"))
    # es, en, fr and de for each of the five games, and ar for Ronda: 5 × 4 + 1
    assert len(books) == 21
    for book in books:
        name, lang = book.relative_to(builds["seed 1"]).as_posix(), book.parent.name
        reader = pypdf.PdfReader(book)
        bookmarks = [(unmarked(title), page) for title, page in chapters(reader.outline, reader)]
        with pdfplumber.open(book) as pdf:
            pages = [page.filter(lambda thing: thing["object_type"] != "char"
                                 or unmarked(thing["text"]) != "")
                     .crop((0, BOOK_MARGIN, page.width, page.height - BOOK_MARGIN))
                     for page in pdf.pages]
            at = next(i for i, page in enumerate(pages) if listing(page, lang))
            entries = listing(pages[at], lang)
            texts = [[line["text"] for line in lines(page, lang)] for page in pages]
        assert entries == bookmarks, name
        for title, number in entries:
            # the first page from the last chapter's on (from the contents' own, which the
            # opening chapters share) where a line is the title alone
            at = next(i for i in range(at, len(texts)) if title in texts[i])
            assert at + 1 == number, (name, title, number, at + 1)
        letter = book.with_name(book.name.replace("-a4.pdf", "-letter.pdf"))
        assert len(pypdf.PdfReader(letter).pages) == len(pages), letter.name


# --- the README's pictures ---------------------------------------------------------------------

PREVIEWS = ROOT / "docs" / "previews"
CHANNEL = 8
"""A pixel differs when one of its channels moves by more than this (of 255)..."""
PIXELS = 0.0001
"""...and a picture matches while at most this share of its pixels differ (24 of a sheet's
414 × 585): room for another release of the PDF rasteriser to smooth a few edges
otherwise, none for a changed colour, a moved line or a changed digit (one digit of the
Qwinto sheet's penalty: 49 pixels). The same rasteriser draws the same pixels: the
difference is then none at all."""


def test_the_readme_pictures_are_a_fresh_builds(builds: dict[str, Path]) -> None:
    """The pictures in docs/previews/ are what ``make previews`` draws from a build of
    today's sources (after a change to the sheets' look, run it and commit the pictures)."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    shown = sorted({name for page in pages for name in
                    re.findall(r"\((?:docs/)?previews/([\w-]+\.png)\)",
                               page.read_text(encoding="utf-8"))})
    fresh = Path(str(builds["seed 1"]) + "-previews")
    assert shown == sorted(p.name for p in PREVIEWS.glob("*.png")) == \
           sorted(p.name for p in fresh.glob("*.png"))
    stale = {}
    for name in shown:
        committed = Image.open(PREVIEWS / name).convert("RGB")
        drawn = Image.open(fresh / name).convert("RGB")
        if committed.size != drawn.size:
            stale[name] = f"{committed.size} against {drawn.size}"
            continue
        bands = ImageChops.difference(committed, drawn).split()
        masks = [band.point(lambda level: 255 if level > CHANNEL else 0) for band in bands]
        moved = ImageChops.lighter(ImageChops.lighter(masks[0], masks[1]),
                                   masks[2]).histogram()[255]
        if moved > PIXELS * committed.width * committed.height:
            stale[name] = f"{moved} of {committed.width * committed.height} pixels differ"
    assert stale == {}, "run `make previews`: " + repr(stale)
