"""Rule sets that are type-correct but absurd, or that the sheets cannot draw.

Each case copies the bundled ``rules/`` to a folder of its own, changes one field and runs
the real ``pnp validate --rules DIR``: it must refuse, naming the file, the line and the
field at fault. A few are also given to ``pnp sheet`` and ``pnp build``, which must refuse
them the same way and write nothing. Lines and fields are read off the bundled files.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnp.definitions import rules_dir
from refusal import assert_refused, pnp

CASES = [
    # colours and greys: every colour is a colour, every grey within 0..1
    ("qwinto", 'orange: "#F39A1E"', 'orange: "#GGGGGG"', None, "print.colours.orange"),
    ("qwinto", "greys: {orange: 0.62", "greys: {orange: 1.5", None, "print.greys.orange"),
    ("qwinto", "greys: {orange: 0.62", "greys: {orange: .nan", None, ""),
    ("ronda", 'ink: {colour: "#7B2D26"', 'ink: {colour: "#7B2D2G"', None, "print.ink.colour"),
    # players: min within max, max within what the sheets hold
    ("qwinto", "players: {min: 2, max: 6}", "players: {min: 6, max: 2}", None, "players"),
    ("kwingto", "players: {min: 2, max: 4}", "players: {min: 2, max: 1000000}", None,
     "players.max"),
    ("xactika", "players: {min: 2, max: 8}", "players: {min: 2, max: 9}", None, "players.max"),
    # a deck to print and shuffle: 9 counts of 4 shapes would be 6,561 cards
    ("xactika", "counts: [1, 2, 3]  ", "counts: [1, 2, 3, 4, 5, 6, 7, 8, 9]  ", "deck:",
     "deck: 6561 cards: more than 256"),
    # empty names, marks and texts
    ("qwinto", "name: {es: Qwinto,", 'name: {es: "",', None, "name.es"),
    ("qwinto", 'marks: {orange: "●"', 'marks: {orange: ""', None, "print.marks.orange"),
    ("qwinto", "en: The third die is orange, like the row it feeds.", 'en: "  "', None,
     "decisions[1].decision.en"),
    # duplicate ids
    ("qwinto", "  - id: every-column", "  - id: die-colour", "decisions:", "decisions"),
    ("spectacle", "  - id: setup-market", "  - id: setup-deck", "completion:", "completion"),
    ("kwingto", "    - {id: wins, example: 3}", "    - {id: games, example: 3}", "  formats:",
     "coto.formats"),
    # numbers bounded by the box they are printed in, counts by what is drawn
    ("qwinto", "failed_throw_penalty: 5", "failed_throw_penalty: 1000", None,
     "scoring.failed_throw_penalty"),
    ("qwinto", "failed_throw_penalty: 5", "failed_throw_penalty: 1" + "0" * 40, None, ""),
    ("qwinto", "columns: 12", "columns: 1000", None, "sheet.columns"),
    ("qwinto", "failed_throw_boxes: 4", "failed_throw_boxes: 1000", None,
     "sheet.failed_throw_boxes"),
    ("ronda", "target: 41", "target: 0", None, "target"),
    ("ronda", "target: 41", "target: 1000000000", None, "target"),
    ("kwingto", "spaces: 5 ", "spaces: 1000 ", None, "board.spaces"),
    # type-correct and bounded, but the renderers could not draw it as promised
    ("qwinto", "columns: 12", "columns: 30", None, "sheet.columns"),
    ("qwinto", "columns: 12", "columns: 11", "  rows:", "sheet.rows"),
    ("qwinto", "failed_throw_boxes: 4", "failed_throw_boxes: 9", None,
     "sheet.failed_throw_boxes"),
    ("kwingto", "failed_throws: 4 ", "failed_throws: 6 ", None, "end.failed_throws"),
    ("kwingto", "{id: games, example: 5}", "{id: games, example: 40}", "  formats:",
     "coto.formats"),
    ("xactika", "hands: 8", "hands: 30", None, "end.hands"),
    ("spectacle", "points: 5 ", "points: 200 ", None, "end.points"),
    ("spectacle", "reserved: 3 ", "reserved: 9 ", None, "limits.reserved"),
    # every text in exactly the game's languages: those its name is written in
    ("ronda", "fr: valet, ", "", None, "deck.faces[0].name: missing the text in 'fr'"),
    ("ronda", "fr: cavalier", "fr: cavalier, it: cavaliere", None,
     "deck.faces[1].name.it: 'it' is not one of the game's languages"),
    ("qwinto", "name: {es: Qwinto,", "name: {xx: Qwinto, es: Qwinto,", None,
     "name.xx: unknown language 'xx'"),
    ("qwinto", "name: {es: Qwinto,", "name: {ES: Qwinto,", None, "name.ES"),
]


def line_of(game: str, old: str, at: str | None) -> int:
    """The line a problem is reported at: the first that starts with ``at``, else the first
    that holds ``old``, in the bundled ``game``'s file."""
    lines = (rules_dir() / f"{game}.yaml").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1)
                if (line.startswith(at) if at else old in line))


def broken(tmp_path: Path, game: str, old: str, new: str) -> Path:
    """A copy of the bundled rules with ``old`` replaced by ``new`` in ``game``'s file."""
    rules = tmp_path / "rules"
    shutil.copytree(rules_dir(), rules)
    path = rules / f"{game}.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return rules


@pytest.mark.parametrize(("game", "old", "new", "at", "field"), CASES,
                         ids=[f"{c[0]}-{c[4] or c[2][:20]}-{c[2][-12:]}" for c in CASES])
def test_validate_refuses(tmp_path: Path, game: str, old: str, new: str, at: str | None,
                          field: str) -> None:
    line = line_of(game, old, at)
    rules = broken(tmp_path, game, old, new)
    assert_refused(pnp("validate", "--rules", str(rules)), f"{game}.yaml:{line}: {field}")


SHEETS = [
    ("qwinto", "sheet", "columns: 12", "columns: 30", None, "sheet.columns"),
    ("qwinto", "sheet", "failed_throw_boxes: 4", "failed_throw_boxes: 9", None,
     "sheet.failed_throw_boxes"),
    ("xactika", "pad", "players: {min: 2, max: 8}", "players: {min: 2, max: 9}", None,
     "players.max"),
    ("kwingto", "coto", "{id: games, example: 5}", "{id: games, example: 40}", "  formats:",
     "coto.formats"),
]


@pytest.mark.parametrize(("game", "kind", "old", "new", "at", "field"), SHEETS,
                         ids=[f"{c[0]}-{c[5]}" for c in SHEETS])
def test_sheet_refuses_what_it_cannot_draw(tmp_path: Path, game: str, kind: str, old: str,
                                           new: str, at: str | None, field: str) -> None:
    line = line_of(game, old, at)
    rules = broken(tmp_path, game, old, new)
    out = tmp_path / "out.pdf"
    run = pnp("sheet", game, "--kind", kind, "--rules", str(rules), "-o", str(out))
    assert_refused(run, f"{game}.yaml:{line}: {field}", "writing boxes" if "max" in field
                   or "columns" in field or "formats" in field else "fit")
    assert not out.exists()


def test_build_refuses_once(tmp_path: Path) -> None:
    rules = broken(tmp_path, "qwinto", "columns: 12", "columns: 30")
    out = tmp_path / "output"
    run = pnp("build", "qwinto", "--lang", "en", "--paper", "a4", "--rules", str(rules),
              "--out", str(out))
    assert_refused(run, f"qwinto.yaml:{line_of('qwinto', 'columns: 12', None)}: sheet.columns")
    assert len(run.stderr.splitlines()) == 1
    assert not list(out.rglob("*.pdf"))


def test_bundled_rules_are_drawable() -> None:
    run = pnp("validate")
    assert run.code == 0, run.stderr
