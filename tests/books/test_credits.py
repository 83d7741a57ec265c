"""The credits, last in every rulebook: designer, source and licence in a line or two each,
in every language, read from the PDF; and the definition's licence, which a source either
states or leaves to one decision of this edition."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pypdf
import pytest
from languages import published

from pnp.definitions import load, load_file
from pnp.definitions.base import Text
from pnp.errors import DefinitionError
from pnp.i18n.catalogues import typography

if TYPE_CHECKING:
    from conftest import Books

ROOT = Path(__file__).resolve().parents[2]
HEADING = {"en": "Credits", "es": "Créditos", "fr": "Crédits", "de": "Impressum"}
LABEL = {"en": "Licence", "es": "Licencia", "fr": "Licence", "de": "Lizenz"}
"""The credits' words in each language whose book the PDF gives back in reading order."""


def letters(text: str) -> str:
    """``text`` without spaces, line breaks or hyphens, which the layout adds or moves."""
    return re.sub(r"[\s\-\u00ad]", "", text)


def credits_of(pdf: bytes, lang: str) -> str:
    """The book's text from its last credits heading on."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    text = "\n".join(page.extract_text() for page in reader.pages[-2:])
    heading = text.rindex(HEADING[lang], 0, text.rindex(LABEL[lang]))  # not a running head
    return text[heading:]


@pytest.mark.parametrize(("game", "lang"), published(HEADING))
def test_the_credits_name_designer_source_and_licence(bookshelf: Books, game: str,
                                                     lang: str) -> None:
    rules = load(game)
    credits = letters(credits_of(bookshelf.pdf("rulebook", game, lang), lang))
    for designer in rules.credits.designers:
        assert letters(designer) in credits
    licence = next(d.decision for d in rules.decisions if d.id == "licence")
    assert isinstance(licence, Text)
    assert letters(LABEL[lang]) in credits
    assert letters(typography(licence(lang), lang)) in credits


def changed(tmp_path: Path, game: str, *edits: tuple[str, str]) -> Path:
    path = tmp_path / f"{game}.yaml"
    shutil.copy(ROOT / "rules" / f"{game}.yaml", path)
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return path


NO_DECISION = ("  - id: licence\n    applies: credits\n",
               "  - id: old-licence\n    applies: wording\n")
STATED = ("  licence: null ",
          "  licence: {es: CC BY 4.0, en: CC BY 4.0, fr: CC BY 4.0, de: CC BY 4.0, ar: CC BY 4.0} ")


def test_a_silent_source_needs_the_licence_decision(tmp_path: Path) -> None:
    with pytest.raises(DefinitionError, match=r"credits\.licence is null, so a decision 'licence'"):
        load_file(changed(tmp_path, "kwingto", NO_DECISION))


def test_a_stated_licence_is_printed_and_not_decided_again(tmp_path: Path) -> None:
    with pytest.raises(DefinitionError, match=r"decision 'licence' repeats the credits\.licence"):
        load_file(changed(tmp_path, "ronda", STATED))
    rules = load_file(changed(tmp_path, "ronda", STATED, NO_DECISION))
    assert {rules.licence(lang) for lang in rules.languages} == {"CC BY 4.0"}


def test_the_licence_decision_is_the_only_one_for_the_credits(tmp_path: Path) -> None:
    with pytest.raises(DefinitionError, match="only the decision 'licence' applies to the credits"):
        load_file(changed(tmp_path, "xactika", ("  - id: licence\n    applies: credits\n",
                                                "  - id: licence\n    applies: play\n")))


def test_a_definition_written_before_licences_still_loads(tmp_path: Path) -> None:
    """An edition made by an earlier pnp has no ``licence`` in its credits nor a decision for
    it: it loads, and its credits state no licence."""
    path = changed(tmp_path, "spectacle", NO_DECISION)
    text = path.read_text(encoding="utf-8")
    line = next(line for line in text.splitlines(keepends=True)
                if line.startswith("  licence: null"))
    path.write_text(text.replace(line, ""), encoding="utf-8")
    rules = load_file(path)
    assert {rules.licence(lang) for lang in rules.languages} == {""}
