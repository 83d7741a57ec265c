"""Catalogues: every message the code marks is translated in Spanish and French."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from pnp.definitions import GAMES
from pnp.i18n import LOCALE_DIR, default_language, translator

PACKAGE = Path(__file__).resolve().parents[1] / "pnp"
TEMPLATES = PACKAGE.parent / "templates"
DOMAINS = {"pnp": [PACKAGE / "report.py", PACKAGE / "cli.py", PACKAGE / "render" / "sheet.py",
                   PACKAGE / "render" / "document.py", *sorted(TEMPLATES.glob("*.html.j2"))],
           **{game: [p for p in (PACKAGE / "texts" / f"{game}.py",
                                 PACKAGE / "render" / f"{game}.py") if p.exists()]
              for game in GAMES}}
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def marked(domain: str) -> set[str]:
    def method(path: Path) -> str:
        return "jinja2.ext:babel_extract" if path.suffix == ".j2" else "python"

    return {str(message) for path in DOMAINS[domain]
            for _, message, _, _ in extract_from_file(method(path), str(path))}


@pytest.mark.parametrize("lang", ["es", "fr"])
@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_catalogue_translates_every_marked_message(domain: str, lang: str) -> None:
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as handle:
        catalogue = {str(m.id): m for m in read_po(handle) if m.id}
    wanted = marked(domain)
    assert wanted, f"no marked messages found for {domain}"
    missing = sorted(wanted - set(catalogue))
    assert not missing, f"{path.name} ({lang}) lacks {missing}"
    for message_id in wanted:
        message = catalogue[message_id]
        assert message.string and not message.fuzzy, f"{lang}: untranslated {message_id!r}"
        assert sorted(PLACEHOLDER.findall(message_id)) == sorted(
            PLACEHOLDER.findall(str(message.string))), f"{lang}: placeholders of {message_id!r}"
    stale = sorted(set(catalogue) - wanted)
    assert not stale, f"{path.name} ({lang}) keeps messages no code uses: {stale}"


def test_english_is_the_source_and_other_languages_translate() -> None:
    assert translator("en")("Ranking") == "Ranking"
    assert translator("es")("Ranking") == "Clasificación"
    assert translator("fr")("Ranking") == "Classement"


@pytest.mark.parametrize(("env", "expected"), [
    ({"LANG": "es_ES.UTF-8"}, "es"), ({"LC_ALL": "fr_FR.UTF-8", "LANG": "es_ES"}, "fr"),
    ({"LANG": "de_DE.UTF-8"}, "en"), ({"LANG": "C"}, "en"), ({}, "en"),
])
def test_default_language_follows_the_locale(monkeypatch: pytest.MonkeyPatch,
                                             env: dict[str, str], expected: str) -> None:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert default_language() == expected
