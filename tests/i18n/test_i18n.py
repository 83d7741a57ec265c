"""Translations: every message, document and decision exists in Spanish, English and French."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po
from click.testing import CliRunner

from pnp.cli import main
from pnp.definitions import GAMES, load
from pnp.i18n.catalogues import COMMON, default_language, translator
from pnp.i18n.completeness import catalogue_gaps, gaps, marked

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("lang", ["es", "fr"])
@pytest.mark.parametrize("domain", [COMMON, *GAMES])
def test_catalogue_translates_every_marked_message(domain: str, lang: str) -> None:
    assert marked(domain), f"no marked messages found for {domain}"
    assert [str(g) for g in catalogue_gaps(domain, lang)] == []


def test_report_finds_a_missing_translation_and_the_command_fails(locale: Path) -> None:
    po = locale / "fr" / "LC_MESSAGES" / "pnp.po"
    po.write_text(po.read_text().replace('msgstr "Classement"', 'msgstr ""'))
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
    ({"LANG": "pt_BR.UTF-8"}, "en"), ({"LANG": "C"}, "en"), ({}, "en"),
])
def test_default_language_follows_the_locale(monkeypatch: pytest.MonkeyPatch,
                                             env: dict[str, str], expected: str) -> None:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert default_language() == expected


# --- the translations gate: each rule it enforces, broken once ---------------------------

def edit_catalogue(locale: Path, lang: str, domain: str, change: Callable[[Catalog], None]) -> None:
    path = locale / lang / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as handle:
        catalogue = read_po(handle)
    change(catalogue)
    with path.open("wb") as handle:
        write_po(handle, catalogue)


def gate(*args: str) -> tuple[int, list[str]]:
    """``pnp [ARGS] translations --verbose``: its exit status and the gaps it lists."""
    run = CliRunner().invoke(main, [*args, "translations", "--verbose"])
    return run.exit_code, [line[2:] for line in run.output.splitlines()
                           if re.match(r"  \S", line)]


def test_the_gate_passes_with_everything_translated(locale: Path) -> None:
    assert gate() == (0, [])


def placeholder_message(catalogue: Catalog) -> Message:
    return next(m for m in catalogue if m.id and "{" in str(m.id) and m.string)


@pytest.mark.parametrize(("lang", "domain", "change", "gap"), [
    ("fr", "pnp", lambda c: setattr(c["Ranking"], "string", ""),
     "pnp (fr): message 'Ranking' is not translated"),
    ("es", "pnp", lambda c: c["Ranking"].flags.add("fuzzy"),
     "pnp (es): message 'Ranking' is not translated"),
    ("es", "pnp", lambda c: c.delete("Ranking"),
     "pnp (es): message 'Ranking' is not in pnp.po"),
    ("fr", "pnp", lambda c: c.add("A message no code uses", "Un message"),
     "pnp (fr): message 'A message no code uses' is no longer used"),
    ("es", "qwinto", lambda c: setattr(placeholder_message(c), "string", "sin marcador"),
     "qwinto (es): message {id!r}: placeholders differ"),
])
def test_the_gate_fails_on_a_catalogue_gap(locale: Path, lang: str, domain: str,
                                           change: Callable[[Catalog], None], gap: str) -> None:
    with (locale / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
        message = placeholder_message(read_po(handle))
    edit_catalogue(locale, lang, domain, change)
    assert gate() == (1, [gap.format(id=str(message.id))])


def test_the_gate_fails_on_a_missing_catalogue(locale: Path) -> None:
    (locale / "fr" / "LC_MESSAGES" / "kwingto.po").unlink()
    code, listed = gate()
    assert code == 1
    path = locale / "fr" / "LC_MESSAGES" / "kwingto.po"
    assert len(listed) == 1 and listed[0].startswith(f"kwingto (fr): no catalogue {path} ("), \
        listed


@pytest.fixture
def edition(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An edition of one's own (``pnp init``), whose texts and definitions the gate reads."""
    from pnp import assets

    monkeypatch.setattr(assets, "_current", None)  # what --project sets, undone after the test
    folder = tmp_path / "edition"
    assert CliRunner().invoke(main, ["init", str(folder)]).exit_code == 0
    assert gate("--project", str(folder)) == (0, [])
    return folder


@pytest.mark.parametrize(("path", "gap"), [
    ("templates/rulebooks/qwinto/fr.md", "qwinto (fr): no rulebook text"),
    ("templates/cards/ronda/es.md", "ronda (es): no reference card text"),
    ("templates/rulebooks/xactika/en.md", "xactika (en): no rulebook text"),
])
def test_the_gate_fails_on_a_missing_text(edition: Path, path: str, gap: str) -> None:
    (edition / path).unlink()
    code, listed = gate("--project", str(edition))
    assert code == 1
    assert len(listed) == 1 and listed[0].startswith(gap + " ("), listed


@pytest.mark.parametrize(("game", "section", "field", "kind"), [
    ("qwinto", "decisions", "decision", "decision"),
    ("ronda", "decisions", "why", "decision"),
    ("spectacle", "completion", "rule", "completion"),
])
def test_the_gate_fails_on_a_text_in_english_only(edition: Path, game: str, section: str,
                                                  field: str, kind: str) -> None:
    path = edition / "rules" / f"{game}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    entry = data[section][0]
    entry[field] = entry[field]["en"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert gate("--project", str(edition)) == (1, [
        f"{game} ({lang}): {kind} '{entry['id']}' is written in English only"
        for lang in load(game).languages if lang != "en"])
