"""Translations: every message, document and decision exists in Spanish, English and French."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.definitions import GAMES
from pnp.i18n import COMMON, default_language, translator
from pnp.translations import catalogue_gaps, gaps, marked

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("lang", ["es", "fr"])
@pytest.mark.parametrize("domain", [COMMON, *GAMES])
def test_catalogue_translates_every_marked_message(domain: str, lang: str) -> None:
    assert marked(domain), f"no marked messages found for {domain}"
    assert [str(g) for g in catalogue_gaps(domain, lang)] == []


def test_report_finds_a_missing_translation_and_the_command_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pnp import i18n, translations

    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "pnp" / "locale", locale)
    po = locale / "fr" / "LC_MESSAGES" / "pnp.po"
    po.write_text(po.read_text().replace('msgstr "Classement"', 'msgstr ""'))
    monkeypatch.setattr(translations, "LOCALE_DIR", locale)
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    assert "pnp (fr): message 'Ranking' is not translated" in [str(g) for g in gaps()]
    run = CliRunner().invoke(main, ["translations", "--verbose"])
    assert run.exit_code == 1
    assert "pnp (fr): message 'Ranking' is not translated" in run.output


def test_game_words_do_not_leak_between_games() -> None:
    assert translator("es", "qwinto")("purple") == "morada"
    assert translator("es", "kwingto")("purple") == "purple"
    assert translator("es", "kwingto")("Ranking") == "Clasificación"


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
