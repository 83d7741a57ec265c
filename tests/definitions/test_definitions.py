"""Loading and validating game definitions: every problem, with its file, line and field."""

from __future__ import annotations

import shutil
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.definitions import GAMES, load, load_file, validate_all
from pnp.errors import DefinitionError, UnknownGameError

ROOT = Path(__file__).resolve().parents[2]
QWINTO = (ROOT / "rules/qwinto.yaml").read_text()


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def broken(tmp_path: Path, *replacements: tuple[str, str]) -> Path:
    text = QWINTO
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "qwinto.yaml"
    path.write_text(text)
    return path


def problems(path: Path) -> list[str]:
    with pytest.raises(DefinitionError) as caught:
        load_file(path, "qwinto")
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize("game", GAMES)
def test_every_definition_loads_and_records_its_decisions(game: str) -> None:
    definition = load(game)
    assert definition.game == game
    assert definition.decisions, f"{game} records no decisions"
    assert all(d.decision and d.why for d in definition.decisions)
    assert len({d.id for d in definition.decisions}) == len(definition.decisions)


def test_definitions_are_frozen() -> None:
    rules = load("qwinto")
    with pytest.raises(FrozenInstanceError, match="failed_throw_penalty"):
        rules.scoring.failed_throw_penalty = 3  # type: ignore[misc]


def test_unknown_key_names_file_line_path_and_suggests(tmp_path: Path) -> None:
    path = broken(tmp_path, ("failed_throw_penalty: 5", "failed_penalty: 5"))
    line = line_of(path.read_text(), "failed_penalty")
    found = problems(path)
    assert f"{path}:{line}: scoring.failed_penalty: unknown field 'failed_penalty' " \
           "(did you mean 'failed_throw_penalty'?)" in found
    assert any("scoring.failed_throw_penalty: missing required field" in p for p in found)


def test_wrong_type_names_the_line_and_the_value(tmp_path: Path) -> None:
    path = broken(tmp_path, ("failed_throw_penalty: 5", "failed_throw_penalty: x"))
    line = line_of(path.read_text(), "failed_throw_penalty")
    assert problems(path) == [
        f"{path}:{line}: scoring.failed_throw_penalty: expected an integer, got 'x'"]


def test_all_problems_are_reported_at_once(tmp_path: Path) -> None:
    path = broken(tmp_path, ("failed_throw_penalty: 5", "failed_throw_penalty: '5'"),
                  ("columns: 12", "columns: -1"),
                  ("{colour: yellow, first_column: 2,", "{colour: yellow, first_colum: 2,"))
    text = path.read_text()
    found = problems(path)
    assert len(found) == 4, found
    assert f"{path}:{line_of(text, 'columns: -1')}: sheet.columns: " \
           "input should be greater than or equal to 1, got -1" in found
    assert f"{path}:{line_of(text, 'first_colum:')}: sheet.rows[1].first_colum: unknown field " \
           "'first_colum' (did you mean 'first_column'?)" in found


def test_cross_field_rules_are_checked(tmp_path: Path) -> None:
    path = broken(tmp_path, ("- {column: 4, row: orange}", "- {column: 5, row: orange}"))
    [problem] = problems(path)
    line = line_of(path.read_text(), "pentagons:")
    assert problem.startswith(f"{path}:{line}: sheet.pentagons: ")
    assert "pentagon in column 5: that column does not have a box in every row" in problem


def test_a_row_problem_points_at_the_row(tmp_path: Path) -> None:
    path = broken(tmp_path, ("first_column: 2, boxes: 9, gap_column: 7",
                             "first_column: 2, boxes: 9, gap_column: 12"))
    line = line_of(path.read_text(), "gap_column: 12")
    assert problems(path) == [f"{path}:{line}: sheet.rows[1]: gap column 12 is not inside "
                              "columns 2-11"]


def test_yaml_syntax_error_has_its_line(tmp_path: Path) -> None:
    path = broken(tmp_path, ("columns: 12", "columns: [12"))
    [problem] = problems(path)
    assert problem.startswith(f"{path}:")
    assert "invalid YAML" in problem


def test_file_must_name_its_game(tmp_path: Path) -> None:
    path = broken(tmp_path, ("game: qwinto", "game: qwintto"))
    assert problems(path) == [f"{path}:3: game: expected 'qwinto' (the file's name), got 'qwintto'"]


def test_unknown_game_suggests_the_closest() -> None:
    with pytest.raises(UnknownGameError, match="did you mean 'xactika'"):
        load("xactica")


def test_validate_command_reports_every_problem_and_exits_2(tmp_path: Path) -> None:
    for game in GAMES:
        shutil.copy(ROOT / "rules" / f"{game}.yaml", tmp_path / f"{game}.yaml")
    runner = CliRunner()
    ok = runner.invoke(main, ["validate", "--rules", str(tmp_path)])
    assert ok.exit_code == 0, ok.output
    broken(tmp_path, ("failed_throw_penalty: 5", "failed_throw_penalty: x"),
           ("columns: 12", "columns: 0"))
    assert len(validate_all(tmp_path)) == 2
    bad = runner.invoke(main, ["validate", "--rules", str(tmp_path)])
    assert bad.exit_code == 2
    lines = bad.output.strip().splitlines()
    assert len(lines) == 2
    assert all(line.startswith("error: ") and "qwinto.yaml:" in line for line in lines)


def test_many_problems_show_two_and_a_count_unless_all_are_asked(tmp_path: Path) -> None:
    for game in GAMES:
        shutil.copy(ROOT / "rules" / f"{game}.yaml", tmp_path / f"{game}.yaml")
    broken(tmp_path, ("failed_throw_penalty: 5", "failed_throw_penalty: x"),
           ("columns: 12", "columns: 0"), ("min: 1, max: 18", "min: a, max: b"))
    runner = CliRunner()
    short = runner.invoke(main, ["validate", "--rules", str(tmp_path)]).output.splitlines()
    assert len(short) == 3
    assert short[2] == "error: and 2 more problems ('pnp validate --all' lists every one)"
    every = runner.invoke(main, ["validate", "--all", "--rules", str(tmp_path)])
    assert every.exit_code == 2
    assert every.output.splitlines()[:2] == short[:2]
    assert len(every.output.splitlines()) == 4


@pytest.mark.parametrize(("game", "old", "new", "on", "message"), [
    ("kwingto", 'column_tint: {colour: "#DDEAF6"', 'column_tint: {colour: "#DDEAF"',
     "column_tint", "print.column_tint.colour: '#DDEAF' is not a colour like #1F5C7A"),
    ("spectacle", 'H: "#C62828"', 'H: "red"', "suits: {S:",
     "print.suits.H: 'red' is not a colour like #1F5C7A"),
    ("ronda", 'ink: {colour: "#7B2D26"', 'ink: {colour: "#7B2D2"', '"#7B2D2"',
     "print.ink.colour: '#7B2D2' is not a colour like #1F5C7A"),
    ("ronda", 'ink: {colour: "#7B2D26", grey: 0.2}', 'ink: {colour: "#7B2D26", grey: 1.2}',
     "grey: 1.2",
     "print.ink.grey: input should be less than or equal to 1, got 1.2"),
    ("spectacle", "values: [1, 2, 5, 10]", 'values: [1, "2", 5, 10]', "values: [1,",
     "chips.values[1]: expected an integer, got '2'"),
    ("xactika", "icon: ball,", "icon: ballz,", "icon: ballz",
     "deck.shapes[0].icon: input should be 'ball', 'cube', 'cone' or 'star', got 'ballz'"),
    ("xactika", "  values: {min: 4, max: 12}", "  values: [4, 12]", "values: [4, 12]",
     "deck.values: expected a mapping, got [4, 12]"),
    ("kwingto", "- {letter: S,", "- {lettre: S,", "lettre",
     "deck.suits[0].letter: missing required field\n"
     "deck.suits[0].lettre: unknown field 'lettre' (did you mean 'letter'?)"),
    ("spectacle", "chip: {es: ficha,", "chip: {ess: ficha,", "chip: {ess",
     "terms.chip: missing the text in 'es' (the game's languages, as its name is written: "
     "es, en, fr, de)\n"
     "terms.chip.ess: 'ess' is not one of the game's languages (as its name is written: "
     "es, en, fr, de; did you mean 'es'?)"),
], ids=["colour", "colour in a mapping", "pattern", "grey", "strict integer", "literal",
        "not a mapping", "did you mean, in a list", "did you mean, in a mapping"])
def test_each_kind_of_problem_is_reported_as_before(
        game: str, old: str, new: str, on: str, message: str, tmp_path: Path) -> None:
    """One field of each kind, in each game: the messages pnp gave when its definitions
    were pydantic models, word for word, on the line of the field (one per line)."""
    text = (ROOT / "rules" / f"{game}.yaml").read_text()
    assert text.count(old) == 1, old
    path = tmp_path / f"{game}.yaml"
    path.write_text(text.replace(old, new))
    with pytest.raises(DefinitionError) as caught:
        load_file(path, game)
    line = line_of(path.read_text(), on)
    assert [str(p) for p in caught.value.problems] == [
        f"{path}:{line}: {each}" for each in message.splitlines()]
