"""Hostile inputs read by pnp: numbers in another form than decimal, an edition's
``pnp.toml`` that is a pipe or nests without end, a working folder planted for ``pnp
init``, a rulebook's figure asked to draw more than the game has.

Each case runs the real command (``tests/refusal.py``: bounded in memory and processor
time) and must be refused in one line, exit 2, naming the file and what is wrong; the
expected words are worked out here from what was planted.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from pnp.errors import FormatError
from pnp.inputs import parse_text
from refusal import assert_refused, pnp

ROOT = Path(__file__).resolve().parents[2]


def line_of(text: str, start: str) -> int:
    """The line (from 1) of the first line of ``text`` that holds ``start``."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if start in line)


# Numbers: a score sheet's and a definition's are decimal. YAML 1.1 would read 017 as
# octal 15, 0x11 as 17, 1_2 as 12 and 1:30 (base 60) as 90, and say nothing.

NOT_DECIMAL = [
    ("017", '017 is not a decimal number (write 17, or "017" for text)'),
    ("-017", '-017 is not a decimal number (write -17, or "-017" for text)'),
    ("00", '00 is not a decimal number (write 0, or "00" for text)'),
    ("0x11", '0x11 is not a decimal number (write 17, or "0x11" for text)'),
    ("0b101", '0b101 is not a decimal number (write 5, or "0b101" for text)'),
    ("1_2", '1_2 is not a decimal number (write 12, or "1_2" for text)'),
    ("1:30", '1:30 is not a decimal number (write "1:30" for text)'),
    ("190:20:30", '190:20:30 is not a decimal number (write "190:20:30" for text)'),
    (".5", '.5 is not a decimal number (write 0.5, or ".5" for text)'),
    ("5.", '5. is not a decimal number (write 5.0, or "5." for text)'),
    ("01.5", '01.5 is not a decimal number (write 1.5, or "01.5" for text)'),
    ("1_000.0", '1_000.0 is not a decimal number (write 1000.0, or "1_000.0" for text)'),
    ("1:30.5", '1:30.5 is not a decimal number (write "1:30.5" for text)'),
    (".inf", "number '.inf' is out of range"),
    ("-.inf", "number '-.inf' is out of range"),
    (".nan", "number '.nan' is out of range"),
]

DECIMAL = [("17", 17), ("-17", -17), ("+5", 5), ("0", 0), ("-0", 0), ("0.5", 0.5),
           ("-1.25", -1.25), ("2.5e-3", 0.0025), ("1.0e+3", 1000.0),
           ('"017"', "017"), ("'1:30'", "1:30"), ("1e3", "1e3")]
"""Decimal numbers, read as written; quoted text stays text (``1e3`` is text in YAML 1.1)."""


@pytest.mark.parametrize(("written", "words"), NOT_DECIMAL)
def test_a_number_in_another_form_is_refused_with_its_line(written: str, words: str) -> None:
    with pytest.raises(FormatError) as refused:
        parse_text(f"a: 1\nrows:\n  x: [1, {written}]\n", "sheet.yaml")
    assert str(refused.value) == f"sheet.yaml:3: {words}"


@pytest.mark.parametrize(("written", "value"), DECIMAL)
def test_a_decimal_number_is_read_as_written(written: str, value: object) -> None:
    assert parse_text(f"n: {written}\n", "sheet.yaml") == {"n": value}


@pytest.mark.parametrize("written", ["017", "0x11", "+5", ".5", "5.", "1_0", "1:30"])
def test_json_has_only_decimal_numbers(written: str) -> None:
    with pytest.raises(FormatError, match=r"^sheet\.json:1: invalid JSON"):
        parse_text(f'{{"n": {written}}}', "sheet.json")


def test_a_key_written_as_an_octal_number_is_refused() -> None:
    with pytest.raises(FormatError, match=r"^s:2: 010 is not a decimal number"):
        parse_text("players:\n  010: {failed: 1}\n", "s")


@pytest.mark.parametrize("from_file", [True, False])
def test_the_calculator_refuses_an_octal_score(from_file: bool, tmp_path: Path) -> None:
    """The worked example with its 15 written 017: YAML 1.1 reads 15, and the sheet would
    score its 43 points as if nothing were wrong."""
    text = (ROOT / "examples" / "qwinto.yaml").read_text(encoding="utf-8")
    planted = text.replace("null, null, 15]", "null, null, 017]", 1)
    assert planted != text
    line = line_of(planted, "017]")
    if from_file:
        path = tmp_path / "sheet.yaml"
        path.write_text(planted, encoding="utf-8")
        run, name = pnp("score", "qwinto", str(path)), str(path)
    else:
        run, name = pnp("score", "qwinto", "-", stdin=planted.encode()), "stdin"
    assert_refused(run, f'error: {name}:{line}: 017 is not a decimal number '
                        f'(write 17, or "017" for text)')


@pytest.mark.parametrize(("game", "before", "after", "words"), [
    ("qwinto", "failed_throw_penalty: 5", "failed_throw_penalty: 05",
     '05 is not a decimal number (write 5, or "05" for text)'),
    ("kwingto", "grey: 0.4}", "grey: .4}", '.4 is not a decimal number (write 0.4, or ".4"'),
    ("ronda", "target: 41", "target: 0x29", '0x29 is not a decimal number (write 41, or'),
])
def test_validate_refuses_a_definition_number_in_another_form(
        game: str, before: str, after: str, words: str, tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    path = rules / f"{game}.yaml"
    text = path.read_text(encoding="utf-8")
    assert before in text
    planted = text.replace(before, after, 1)
    path.write_text(planted, encoding="utf-8")
    assert_refused(pnp("validate", "--rules", "rules", cwd=tmp_path),
                   f"error: rules/{game}.yaml:{line_of(planted, after)}: {words}")


# An edition's pnp.toml.

def edition_with(tmp_path: Path, make: Callable[[Path], object]) -> Path:
    """A folder ``ed`` whose ``pnp.toml`` is what ``make`` makes of its path."""
    folder = tmp_path / "ed"
    folder.mkdir()
    make(folder / "pnp.toml")
    return folder


def test_a_pnp_toml_that_is_a_named_pipe_does_not_hang(tmp_path: Path) -> None:
    edition_with(tmp_path, os.mkfifo)
    assert_refused(pnp("--project", "ed", "validate", cwd=tmp_path),
                   "error: ed/pnp.toml: a named pipe (FIFO), not a file")


def test_a_pnp_toml_pipe_in_the_working_folder_is_refused(tmp_path: Path) -> None:
    folder = edition_with(tmp_path, os.mkfifo)
    assert_refused(pnp("validate", cwd=folder), "error: pnp.toml: a named pipe (FIFO)")


@pytest.mark.parametrize("toml", [
    "a = " + "[" * 5000 + "]" * 5000 + "\n",
    "a = " + "{b = " * 5000 + "1" + "}" * 5000 + "\n",
    "[edition]\nrules = " + "[" * 20000 + "\n",
])
def test_a_pnp_toml_nested_without_end_is_one_line(toml: str, tmp_path: Path) -> None:
    edition_with(tmp_path, lambda path: path.write_text(toml, encoding="utf-8"))
    assert_refused(pnp("--project", "ed", "validate", cwd=tmp_path),
                   "error: ed/pnp.toml: nested too deeply to read")


def test_a_pnp_toml_larger_than_64_kib_is_refused(tmp_path: Path) -> None:
    """Read in 64 KiB: an edition's settings are a few lines."""
    text = "[edition]\n" + "# " + "x" * (64 * 1024) + "\n"
    edition_with(tmp_path, lambda path: path.write_text(text, encoding="utf-8"))
    assert_refused(pnp("--project", "ed", "validate", cwd=tmp_path),
                   "error: ed/pnp.toml: larger than 65536 bytes")


def test_a_pnp_toml_folder_name_no_path_can_hold_is_one_line(tmp_path: Path) -> None:
    text = '[edition]\nrules = "a\\u0000b"\ntemplates = "' + "t" * 5000 + '"\n'
    edition_with(tmp_path, lambda path: path.write_text(text, encoding="utf-8"))
    assert_refused(pnp("--project", "ed", "validate", cwd=tmp_path),
                   "error: ed/pnp.toml: edition.rules: no folder 'a\\x00b'")


# pnp init and a working folder planted beside the new edition.

def tree(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder`` (links not followed): a file's bytes, a link's target."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        found[key] = (f"-> {os.readlink(path)}" if path.is_symlink() else "folder"
                      if path.is_dir() else path.read_bytes())
    return found


def test_init_never_writes_through_a_planted_link(tmp_path: Path) -> None:
    """``.ed.pnp-init``, the name pnp once staged ``ed`` in, planted as a link to another
    folder: that folder must not receive the edition, and the link stays as it was."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "notes.txt").write_text("mine\n")
    (tmp_path / ".ed.pnp-init").symlink_to(victim)
    planted = tmp_path / ".ee.pnp-init"
    planted.mkdir()
    (planted / "keep.txt").write_text("not pnp's\n")
    before = tree(tmp_path)
    for name in ("ed", "ee"):
        run = pnp("init", name, cwd=tmp_path)
        assert run.code == 0, run.stderr
        assert sorted(p.name for p in (tmp_path / name).iterdir()) == [
            "examples", "pnp.toml", "rules", "templates"]
    after = tree(tmp_path)
    assert {k: v for k, v in after.items() if not k.startswith(("ed", "ee"))} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".ed.pnp-init", ".ee.pnp-init", "ed", "ee", "victim"], "a working folder was left"


def test_init_refuses_a_link_as_the_new_folder(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (tmp_path / "ed").symlink_to(empty)
    assert_refused(pnp("init", "ed", cwd=tmp_path), "error: ed: is a link")
    assert list(empty.iterdir()) == [] and (tmp_path / "ed").is_symlink()


# Figures a rulebook text asks for: no more than the game has.

FIGURE_CALLS = [
    ("spectacle", 'figure("claims", series=', 'figure("claims", series=["2S"] * 40000) }}',
     "figure 'claims': series: 40000 cards, more than the deck's 52"),
    ("spectacle", 'figure("claims", series=',
     'figure("claims", series=["2S", "3S", "4S"]) }}',
     "figure 'claims': series: [2S 3S 4S] is a run, not a series"),
    ("spectacle", 'figure("noble", visit=visit)',
     'figure("noble", visit={"noble": "KS", "bonus": ["10S"] * 2000}) }}',
     "figure 'noble': visit, bonus: 2000 cards, more than the deck's 52"),
    ("spectacle", 'figure("noble", visit=visit)',
     'figure("noble", visit={"noble": "KS", "bonus": ["10S"] * 9}) }}',
     "figure 'noble': visit, bonus: 10S is given twice"),
    ("xactika", 'figure("trick", plays=plays', 'figure("trick", plays=plays * 10000) }}',
     "figure 'trick': plays: 40000 given; the game is for 2 to 8 players"),
    ("xactika", 'figure("trick", plays=plays',
     'figure("trick", plays=[{"who": "A", "card": [1] * 5000}, {"who": "B", '
     '"card": [1, 1, 1, 1]}]) }}',
     "figure 'trick': plays: play 1: card: 5000 counts, expected one per shape"),
    ("xactika", 'figure("trick", plays=plays', 'figure("trick", plays=plays, shape="x") }}',
     "figure 'trick': shape: 'x' is not a shape of the deck"),
    ("kwingto", 'figure("example")', 'figure("example", player="Zed") }}',
     "figure 'example': player: 'Zed' is not a player of the worked example"),
]


@pytest.mark.parametrize(("game", "before", "call", "words"), FIGURE_CALLS,
                         ids=[words.split(":")[0] + " " + words.split(": ")[1]
                              for *_, words in FIGURE_CALLS])
def test_a_figure_asked_for_more_than_the_game_has_is_refused(
        game: str, before: str, call: str, words: str, made: Path, tmp_path: Path) -> None:
    """2,000 cards in one figure made a 2 MB page; 40,000 ran a minute past the 4 s the
    templates have (a figure is drawn in one call, which the template's deadline does not
    interrupt). Each must be refused at once, within refusal.py's processor time."""
    edition = tmp_path / "edition"
    shutil.copytree(made, edition, symlinks=True)
    text_path = edition / "templates" / "rulebooks" / game / "en.md"
    lines = text_path.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(n for n, line in enumerate(lines) if before in line)
    lines[number] = "{{ " + call + "\n"
    text_path.write_text("".join(lines), encoding="utf-8")
    out = tmp_path / "book.html"
    run = pnp("rulebook", game, "--lang", "en", "--format", "html", "-o", str(out),
              cwd=edition)
    assert_refused(run, f"error: templates/rulebooks/{game}/en.md:{number + 1}: {words}")
    assert not out.exists()


def test_a_cover_drawing_must_have_a_width(made: Path, tmp_path: Path) -> None:
    edition = tmp_path / "edition"
    shutil.copytree(made, edition, symlinks=True)
    page = edition / "templates" / "rulebook.html.j2"
    text = page.read_text(encoding="utf-8")
    assert 'art("components", width=146)' in text
    page.write_text(text.replace('art("components", width=146)',
                                 'art("components", width=-146)'), encoding="utf-8")
    run = pnp("rulebook", "qwinto", "--lang", "en", "--format", "html", "-o",
              str(tmp_path / "b.html"), cwd=edition)
    assert_refused(run, "drawing 'components': width: expected millimetres, a number above "
                        "0, got -146")


CANARY = "canary-7f3a the text that never leaves its folder"


@pytest.mark.parametrize("folder", ["rules", "examples"])
def test_a_definition_or_example_linked_outside_the_edition_is_not_read(
        folder: str, made: Path, tmp_path: Path) -> None:
    """A shared edition's link cannot hand pnp a file from elsewhere: the canary, written
    as a definition would be (so that a reader quoting its values would show it), is
    refused by its link and never printed."""
    edition = tmp_path / "edition"
    shutil.copytree(made, edition, symlinks=True)
    outside = tmp_path / "outside.yaml"
    outside.write_text(f"game: {CANARY}\nname: {CANARY}\n", encoding="utf-8")
    linked = edition / folder / "qwinto.yaml"
    linked.unlink()
    linked.symlink_to(outside)
    run = (pnp("validate", cwd=edition) if folder == "rules"
           else pnp("rulebook", "qwinto", "--lang", "en", "-o", str(tmp_path / "book.pdf"),
                    cwd=edition))
    assert_refused(run, f"{folder}/qwinto.yaml: leads outside the edition's {folder} folder")
    assert CANARY not in run.stdout + run.stderr
    assert not (tmp_path / "book.pdf").exists()
