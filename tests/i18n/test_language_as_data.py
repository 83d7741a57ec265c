"""A language is data: an edition adds one, and every material is built in it.

The edition (``pnp init``, then ``locale = "locale"`` in its ``pnp.toml``) brings a
pseudo-language, ``eo``: its facts, catalogues made here from the English messages with
their vowels accented (``Rúlés óf pláy``), the same accented texts in every definition text
and in its rulebooks and cards. Qwinto (sheets in every variant, a fillable sheet) and
Xactika (a deck, its pad and stats sheets) are built in it once for the module: each PDF's
extracted text and each page hold the pseudo-language's words, every HTML page says its
language, and the landing page offers it. Nothing in pnp names the language.

A second check reads pnp's Python and JavaScript for language codes in string literals: only
the source language, English, may be named.
"""

from __future__ import annotations

import io
import re
import shutil
import tokenize
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.books import pdf, webfonts
from pnp.cli import main
from pnp.i18n.catalogues import COMMON
from pnp.i18n.completeness import marked

ROOT = Path(__file__).resolve().parents[2]
CODE = "eo"
GAMES = ("qwinto", "xactika")
FACE = "GentiumBookPlus"
"""A bundled family no bundled language names: the pseudo-language's serif."""
ACCENTED = str.maketrans("aeiouAEIOU", "áéíóúÁÉÍÓÚ")
KEPT = re.compile(r"\{[^{}]*\}|\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}|<[^>]*>|`[^`]*`|\]\([^)]*\)"
                  r"|^\|?[\s:|-]+\|?$|&\w+;|\[\^?\w+\]", re.M | re.S)
"""What the pseudo-translation leaves as it is: placeholders, template code, markup, code,
link targets, table rules, entities and footnote marks."""


def pseudo(text: str) -> str:
    """``text`` with the vowels of its words accented, its placeholders and markup kept."""
    out, at = [], 0
    for kept in KEPT.finditer(text):
        out += [text[at:kept.start()].translate(ACCENTED), kept.group()]
        at = kept.end()
    return "".join([*out, text[at:].translate(ACCENTED)])


def texts_of(data: Any, languages: set[str]) -> Iterator[dict[str, Any]]:
    """Every text of a definition's data: a mapping whose keys are its game's languages."""
    if isinstance(data, dict):
        if data and set(data) == languages:
            yield data
            return
        for value in data.values():
            yield from texts_of(value, languages)
    elif isinstance(data, list):
        for value in data:
            yield from texts_of(value, languages)


def catalogue(domain: str) -> bytes:
    made = Catalog(locale="en", domain=domain)
    for message in sorted(marked(domain)):
        made.add(message, pseudo(message))
    out = io.BytesIO()
    write_po(out, made)
    return out.getvalue()


@pytest.fixture(scope="module")
def edition(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The edition with the pseudo-language, made current for the module."""
    from pnp import assets

    folder = tmp_path_factory.mktemp("language") / "edition"
    assert CliRunner().invoke(main, ["init", str(folder)]).exit_code == 0
    config = folder / "pnp.toml"
    config.write_text(config.read_text() + 'locale = "locale"\n', encoding="utf-8")
    facts = folder / "locale" / CODE
    (facts / "LC_MESSAGES").mkdir(parents=True)
    (facts / "language.yaml").write_text(
        'order: 9\nname: Pseudo\nquotes: ["«", "»"]\ndirection: ltr\n'
        f"fonts: {{serif: {FACE}}}\n", encoding="utf-8")
    for domain in (COMMON, *GAMES):
        (facts / "LC_MESSAGES" / f"{domain}.po").write_bytes(catalogue(domain))
    for game in GAMES:
        path = folder / "rules" / f"{game}.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for text in list(texts_of(data, set(data["name"]))):
            text[CODE] = pseudo(text["en"])
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False),
                        encoding="utf-8")
        for kind in ("rulebooks", "cards"):
            english = folder / "templates" / kind / game / "en.md"
            (english.parent / f"{CODE}.md").write_text(
                pseudo(english.read_text(encoding="utf-8")), encoding="utf-8")
    previous = assets.current()
    assets.use(assets.Edition.from_folder(folder))
    yield folder
    assets.use(None if previous is assets.Edition.bundled() else previous)


@pytest.fixture(scope="module")
def built(edition: Path) -> tuple[Path, Any]:
    """Both games built in the pseudo-language on A4 (a deck with its backs in place)."""
    from pnp.build import run
    from pnp.build.plan import plan

    targets = [t for t in plan(GAMES, [CODE], ["a4"])
               if t.document != "deck" or t.offset == (0.0, 0.0)]
    out = edition / "output"
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(edition)
        summary = run(out, targets=targets)
    return out, summary


def test_the_edition_s_language_joins_pnp_s(edition: Path) -> None:
    from pnp.definitions import load
    from pnp.i18n.languages import codes, language

    assert codes()[-1] == CODE and {"es", "en", "fr"} <= set(codes())
    assert language(CODE).name == "Pseudo"
    assert all(load(game).languages[-1] == CODE for game in GAMES)
    assert CODE not in load("ronda").languages


def test_the_books_offer_the_faces_its_language_names(edition: Path) -> None:
    """The faces the style sheets may name are those of the languages known when a book is
    laid out, not when pnp was imported (this module imports the books' modules before the
    edition is current)."""
    assert (FACE, "bold", "normal", f"{FACE}-Bold.ttf") in pdf.faces()
    assert f'font-family: "{FACE}"; font-weight: normal' in pdf.font_faces()
    assert [face.file for face in webfonts.faces()[FACE.lower()]] == \
        [f"{FACE}-Regular.ttf", f"{FACE}-Bold.ttf"]


def test_the_gate_checks_the_new_language(edition: Path) -> None:
    from pnp.assets import shown
    from pnp.i18n.completeness import gaps

    assert [str(gap) for gap in gaps() if gap.lang == CODE] == []
    card = edition / "templates" / "cards" / "qwinto" / f"{CODE}.md"
    card.rename(edition / "card.md")
    try:
        assert [str(gap) for gap in gaps() if gap.lang == CODE] == [
            f"qwinto ({CODE}): no reference card text ({shown(card)})"]
    finally:
        (edition / "card.md").rename(card)


def test_every_material_is_built_in_it_and_passes_the_preflight(built: tuple[Path, Any]) -> None:
    out, summary = built
    assert summary.count("failed") == 0, [o.line for o in summary.outcomes]
    assert summary.findings == []
    made = {path.relative_to(out).as_posix() for path in out.rglob("*") if path.is_file()}
    for game in GAMES:
        mine = {name for name in made if name.startswith(f"{game}/{CODE}/")}
        kinds = {re.sub(r"-a4|-\d+up|-bw|-fillable", "", name.split("/")[-1]) for name in mine}
        assert {f"{game}-rulebook.pdf", f"{game}-rulebook.html", f"{game}-card-a5.pdf",
                f"{game}-scorer.html"} <= kinds, sorted(mine)
    assert any(name.endswith("-fillable-a4.pdf") for name in made if "qwinto" in name)
    assert any("deck-poker" in name for name in made if "xactika" in name)
    assert any("calibration" in name for name in made if "xactika" in name)


def pdf_text(path: Path, pages: int = 2) -> str:
    """The text of the first ``pages`` pages of the PDF at ``path``."""
    return "\n".join(page.extract_text() or "" for page in PdfReader(path).pages[:pages])


def words(text: str) -> set[str]:
    """The pseudo-language's words in ``text``: those with an accented vowel."""
    return {word for word in re.findall(r"\w+", text) if re.search("[áéíóú]", word, re.I)}


def test_each_pdf_is_written_in_it(built: tuple[Path, Any]) -> None:
    from pnp.i18n.catalogues import translator

    out, _summary = built
    pdfs = sorted(out.glob(f"*/{CODE}/*.pdf"))
    assert len(pdfs) > 10
    assert {path.name: len(words(pdf_text(path))) >= 2 for path in pdfs} == {
        path.name: True for path in pdfs}
    rules_of_play = translator(CODE, "qwinto")("Rules of play")
    assert rules_of_play == "Rúlés óf pláy"
    book = pdf_text(out / "qwinto" / CODE / "qwinto-rulebook-a4.pdf", pages=99)
    assert rules_of_play in book and "Rules of play" not in book


def test_each_page_says_its_language_and_is_written_in_it(built: tuple[Path, Any]) -> None:
    out, _summary = built
    pages = sorted(out.glob(f"*/{CODE}/*.html"))
    assert len(pages) == 2 * len(GAMES)
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert re.search(rf'<html lang="{CODE}" dir="ltr"[\s>]', html), page.name
        assert len(words(html)) >= 5, page.name  # a scorer's words are in its script
    landing = (out / "index.html").read_text(encoding="utf-8")
    assert f'<input type="radio" name="lang" value="{CODE}"' in landing
    assert f'<span lang="{CODE}" dir="ltr">Pseudo</span>' in landing


def test_a_right_to_left_language_sets_its_pages_right_to_left(edition: Path) -> None:
    """The facts' direction, not the code, makes a page ``dir="rtl"``."""
    from pnp.books.compose import compose
    from pnp.i18n import languages

    facts = edition / "locale" / CODE / "language.yaml"
    before = facts.read_text(encoding="utf-8")
    facts.write_text(before.replace("direction: ltr", "direction: rtl"), encoding="utf-8")
    languages._discover.cache_clear()
    try:
        page = compose("card", "qwinto", CODE).html
        assert re.search(rf'<html lang="{CODE}" dir="rtl"[\s>]', page)
    finally:
        facts.write_text(before, encoding="utf-8")
        languages._discover.cache_clear()


def test_cli_offers_it_and_refuses_a_game_not_published_in_it(edition: Path) -> None:
    from pnp.definitions import load

    published = ", ".join(load("ronda").languages)
    runner = CliRunner()
    help_text = runner.invoke(main, ["--project", str(edition), "build", "--help"]).output
    assert f"|{CODE}]" in help_text
    run = runner.invoke(main, ["--project", str(edition), "card", "ronda", "--lang", CODE,
                               "-o", str(edition / "card.pdf")])
    assert run.exit_code == 2
    assert run.output.strip().splitlines() == [
        f"error: ronda is published in {published}, not in '{CODE}'"]


# --- no code names a language ------------------------------------------------------------

SOURCE_LANGUAGE = "en"
CODES = re.compile(r"""^(['"])([a-z]{2})\1$""")


def literals(path: Path) -> Iterator[tuple[int, str]]:
    """The short string literals of a Python file (docstrings and comments are not code)."""
    with path.open("rb") as handle:
        for token in tokenize.tokenize(handle.readline):
            if token.type == tokenize.STRING:
                yield token.start[0], token.string


def js_literals(path: Path) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = re.sub(r"//.*$", "", line)
        for found in re.finditer(r"""(['"`])[^'"`\\]{2}\1""", code):
            yield number, found.group()


def named_languages() -> list[str]:
    """Each literal of pnp's code that is a language code pnp knows, other than English."""
    from pnp.i18n.languages import LOCALE

    known = {path.parent.name for path in LOCALE.glob("*/language.yaml")} - {SOURCE_LANGUAGE}
    found = []
    for path in sorted((ROOT / "pnp").rglob("*")):
        if "node_modules" in path.parts or "data" in path.relative_to(ROOT / "pnp").parts[:1]:
            continue
        reader = literals if path.suffix == ".py" else js_literals if path.suffix == ".js" \
            else None
        if reader is None:
            continue
        for number, literal in reader(path):
            code = CODES.match(literal)
            if code and code[2] in known:
                found.append(f"{path.relative_to(ROOT)}:{number}: {literal}")
    return found


def test_no_code_names_a_language() -> None:
    assert named_languages() == []


def test_the_search_finds_a_language_named_in_code(tmp_path: Path) -> None:
    planted = tmp_path / "pnp"
    shutil.copytree(ROOT / "pnp" / "i18n", planted / "i18n",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (planted / "planted.py").write_text('LANG = "fr"\n"""A docstring: \'es\'."""\n',
                                        encoding="utf-8")
    (planted / "planted.js").write_text('const lang = "es"; // "fr"\n', encoding="utf-8")
    globals()["ROOT"], before = tmp_path, ROOT
    try:
        assert named_languages() == ['pnp/planted.js:1: "es"', 'pnp/planted.py:1: "fr"']
    finally:
        globals()["ROOT"] = before
