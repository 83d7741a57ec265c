"""The README and docs/ stay true: every input they show is accepted, every output they show
is real, every command line they quote is one pnp takes, every file and module they name
exists, and every link leads somewhere."""

from __future__ import annotations

import importlib
import re
import shlex
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

import pnp
from pnp.assets import use
from pnp.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
FOLDER_NOTES = [ROOT / folder / "README.md" for folder in ("templates", "fonts", "tests")]
"""The notes beside the folders, checked for the files and links they name."""
PAGES = [README, *DOCS, *FOLDER_NOTES]
TEXT = {page: page.read_text(encoding="utf-8") for page in PAGES}


def shown(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def test_the_readme_links_every_page_of_the_docs() -> None:
    linked = set(re.findall(r"\]\(docs/([\w-]+\.md)\)", TEXT[README]))
    assert linked == {page.name for page in DOCS}
    for name in ("commands", "input-formats", "editions", "printing", "architecture",
                 "adding-a-game"):
        assert f"{name}.md" in linked


def test_the_readme_gives_the_two_commands() -> None:
    makefile = (ROOT / "Makefile").read_text()
    for target in ("run", "test"):
        assert f"make {target}" in TEXT[README]
        assert re.search(rf"^{target}: ", makefile, re.M), target


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    outside_code = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return {slug(h) for h in re.findall(r"^#+ (.*)$", outside_code, re.M)}


@pytest.mark.parametrize("page", PAGES, ids=shown)
def test_every_link_leads_to_a_file_and_a_heading(page: Path) -> None:
    for target in re.findall(r"\]\(([^)\s]+)\)", TEXT[page]):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{shown(page)}: {target}"
        if anchor:
            assert anchor in anchors(linked.read_text(encoding="utf-8")), \
                f"{shown(page)}: {target}"


FOLDERS = ("pnp/", "tests/", "templates/", "rules/", "examples/", "fonts/", "bench/", "docs/")


@pytest.mark.parametrize("page", PAGES, ids=shown)
def test_every_file_and_module_named_exists(page: Path) -> None:
    """A path or module in backquotes is one of the tree's (placeholders such as ``<game>``,
    ``{es,fr}`` and the new game ``mygame`` aside), so no page names a module that moved."""
    prose = re.sub(r"^```.*?^```", "", TEXT[page], flags=re.S | re.M)
    for span in re.findall(r"`([^`\n]+)`", prose):
        if re.search(r"[<{*|$ ]|mygame", span):
            continue
        if span.startswith(FOLDERS):
            path = re.sub(r":\d+$", "", span)
            assert (ROOT / path).exists(), f"{shown(page)}: {span}"
        elif re.fullmatch(r"pnp(\.\w+)+(\(.*\))?", span) and not re.search(
                r"\.(toml|po|py|js|json|yaml|md|html|css)$", span):
            assert resolves(span.split("(")[0]), f"{shown(page)}: {span}"


def resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


def command_lines(text: str) -> list[str]:
    """The ``pnp`` command lines of the shell blocks, without their comments."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            command = line.split(" #")[0].split("|")[-1].strip()
            if command.startswith("pnp "):
                found.append(command)
    return found


def check_line(words: list[str]) -> None:
    """``words`` (after ``pnp``) name a command and options it has, with values it takes."""
    if words == ["--version"]:
        return
    command: click.Command = main
    arguments: list[click.Argument] = []
    while words:
        word = words.pop(0)
        if word.startswith("-") and word != "-":
            name, _, inline = word.partition("=")
            option = next((p for p in command.params if isinstance(p, click.Option)
                           and name in p.opts + p.secondary_opts), None)
            assert option is not None, f"{command.name} has no option {name}"
            if not option.is_flag:
                value = inline or words.pop(0)
                if isinstance(option.type, click.Choice | click.IntRange):
                    option.type(value, option, None)
        elif isinstance(command, click.Group):
            assert word in command.commands, f"no command {word}"
            command = command.commands[word]
            arguments = [p for p in command.params if isinstance(p, click.Argument)]
        else:
            assert arguments, f"{command.name}: too many arguments"
            argument = arguments[0] if arguments[0].nargs == -1 else arguments.pop(0)
            if isinstance(argument.type, click.Choice):
                argument.type(word, argument, None)
    assert command is not main, "no command"


@pytest.mark.parametrize("page", PAGES, ids=shown)
def test_every_command_line_shown_is_one_pnp_takes(page: Path) -> None:
    for line in command_lines(TEXT[page]):
        try:
            check_line(shlex.split(line)[1:])
        except (AssertionError, click.BadParameter) as exc:
            raise AssertionError(f"{shown(page)}: {line}: {exc}") from None


def test_the_check_of_command_lines_catches_a_wrong_one() -> None:
    for wrong in ("pnp scores qwinto", "pnp sheet qwinto --colour", "pnp sheet chess",
                  "pnp deck xactika --flip sideways", "pnp build --jobs 0", "pnp --lang en"):
        with pytest.raises((AssertionError, click.BadParameter)):
            check_line(shlex.split(wrong)[1:])


def test_every_command_and_option_is_in_the_commands_page() -> None:
    commands = TEXT[ROOT / "docs" / "commands.md"]
    headings = re.findall(r"^## (.*)$", commands, re.M)
    for name, command in main.commands.items():
        assert any(f"`pnp {name}`" in h for h in headings), name
        for param in command.params:
            if isinstance(param, click.Option):
                assert any(f"`{opt}" in commands for opt in param.opts), (name, param.opts)
    for option in main.params:
        assert any(f"`{opt}" in commands for opt in option.opts), option.opts


def test_every_input_format_shown_is_scored() -> None:
    """Every YAML block under a game's input format (Ronda shows a deal and a whole game)."""
    text = TEXT[ROOT / "docs" / "input-formats.md"]
    shown: dict[str, list[object]] = {}
    parts = re.split(r"^\*\*(\w+)\*\* —", text, flags=re.M)
    for game, part in zip(parts[1::2], parts[2::2], strict=True):
        if game.lower() in pnp.GAMES:
            part = part.split("\n## ")[0]
            shown[game.lower()] = [yaml.safe_load(block)
                                   for block in re.findall(r"```yaml\n(.*?)```", part, re.S)]
    assert sorted(shown) == sorted(pnp.GAMES)
    assert len(shown["ronda"]) == 2
    for game, blocks in shown.items():
        assert blocks, game
        for data in blocks:
            pnp.score(game, data)


def sessions(text: str) -> list[tuple[str, str]]:
    """Each ``$ pnp ...`` line of a text block and the output shown under it."""
    return re.findall(r"```text\n\$ (pnp [^\n]*)\n(.*?)```", text, re.S)


def with_the_examples(folder: Path) -> Path:
    (folder / "examples").symlink_to(ROOT / "examples")
    return folder


def with_a_sheet_that_does_not_rise(folder: Path) -> Path:
    """``bad.yaml`` as the input formats page shows it, just before the refusal."""
    text = TEXT[ROOT / "docs" / "input-formats.md"].split("$ pnp score qwinto bad.yaml")[0]
    (folder / "bad.yaml").write_text(re.findall(r"```yaml\n(.*?)```", text, re.S)[-1])
    return folder


def in_an_edition_with_a_misspelt_field(folder: Path) -> Path:
    edition = folder / "my-qwinto"
    assert CliRunner().invoke(main, ["init", str(edition)]).exit_code == 0
    rules = edition / "rules" / "qwinto.yaml"
    rules.write_text(rules.read_text().replace("failed_throw_penalty", "failed_penalty"))
    return edition


SESSIONS = {
    "pnp score qwinto examples/qwinto.yaml --lang en": with_the_examples,
    "pnp score qwinto bad.yaml": with_a_sheet_that_does_not_rise,
    "pnp validate": in_an_edition_with_a_misspelt_field,
}
"""Every command whose output a page shows, and how to make the folder it runs in."""


@pytest.mark.parametrize("page", PAGES, ids=shown)
def test_every_output_shown_is_what_the_command_prints(
        page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for number, (line, expected) in enumerate(sessions(TEXT[page])):
        assert line in SESSIONS, f"{shown(page)}: {line}: shown but not checked here"
        folder = tmp_path / str(number)
        folder.mkdir()
        monkeypatch.chdir(SESSIONS[line](folder))
        try:
            run = CliRunner().invoke(main, shlex.split(line)[1:])
        finally:
            use(None)
        assert run.output == expected, f"{shown(page)}: {line}"


def test_the_readme_shows_the_calculator_on_an_example() -> None:
    assert "$ pnp score qwinto examples/qwinto.yaml --lang en\n" in TEXT[README]
