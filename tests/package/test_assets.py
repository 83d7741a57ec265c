"""Where pnp reads its files from: the bundled data inside the package, or an edition."""

from __future__ import annotations

import importlib.resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import assets
from pnp.assets import Edition
from pnp.cli import main
from pnp.errors import EditionError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def bundled() -> object:
    yield
    assets.use(None)


def test_the_package_reads_the_repository_folders_through_its_own_data() -> None:
    assert importlib.resources.files("pnp") / "data" == assets.DATA
    for name in ("rules", "templates", "examples", "fonts"):
        assert (assets.DATA / name).resolve() == ROOT / name
    edition = Edition.bundled()
    assert edition.rules == assets.DATA / "rules" and edition.config is None
    assert (edition.rules / "qwinto.yaml").read_bytes() == (ROOT / "rules/qwinto.yaml").read_bytes()


def test_no_module_climbs_out_of_the_package() -> None:
    offenders = [path.name for path in (ROOT / "pnp").rglob("*.py")
                 if "parents[" in path.read_text() or ".parent.parent" in path.read_text()]
    assert offenders == []


def test_init_copies_what_a_publisher_edits(tmp_path: Path) -> None:
    made = assets.init(tmp_path / "mine")
    assert [p.name for p in made] == ["examples", "pnp.toml", "rules", "templates"]
    edition = Edition.from_folder(tmp_path / "mine")
    assert edition.rules == (tmp_path / "mine" / "rules").resolve()
    assert edition.config == (tmp_path / "mine" / "pnp.toml").resolve()
    assert (edition.templates / "rulebooks" / "ronda" / "fr.md").read_text() == \
        (ROOT / "templates/rulebooks/ronda/fr.md").read_text()
    assert sorted(p.name for p in edition.rules.iterdir()) == sorted(
        p.name for p in (ROOT / "rules").iterdir())
    assert [p.name for p in tmp_path.iterdir()] == ["mine"], "a staging folder was left"


def test_init_refuses_a_folder_in_use_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "notes.txt").write_text("mine")
    with pytest.raises(EditionError, match="already exists"):
        assets.init(tmp_path / "used")
    assert [p.name for p in (tmp_path / "used").iterdir()] == ["notes.txt"]
    (tmp_path / "empty").mkdir()
    assets.init(tmp_path / "empty")
    assert (tmp_path / "empty" / "pnp.toml").is_file()


def test_an_edition_may_replace_only_some_folders(tmp_path: Path) -> None:
    (tmp_path / "defs").mkdir()
    (tmp_path / "pnp.toml").write_text('[edition]\nrules = "defs"\n')
    edition = Edition.from_folder(tmp_path)
    assert edition.rules == (tmp_path / "defs").resolve()
    assert edition.templates == assets.DATA / "templates"
    assert edition.examples == assets.DATA / "examples"


@pytest.mark.parametrize(("toml", "message"), [
    ('[edition]\nrule = "rules"\n', "unknown setting 'edition.rule'"),
    ('[editions]\n', "unknown setting 'editions'"),
    ('[edition]\nrules = "nowhere"\n', "edition.rules: no folder"),
    ('[edition]\nrules = 3\n', "edition.rules: expected a folder name"),
    ('edition = "x"\n', "edition: expected a table"),
    ('[edition\n', "invalid TOML"),
])
def test_a_bad_pnp_toml_is_named_with_its_setting(tmp_path: Path, toml: str,
                                                  message: str) -> None:
    (tmp_path / "pnp.toml").write_text(toml)
    with pytest.raises(EditionError, match=message):
        Edition.from_folder(tmp_path)


def test_commands_read_the_edition_of_the_current_folder(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PNP_RULES_DIR", raising=False)
    monkeypatch.delenv("PNP_PROJECT", raising=False)
    assets.init(tmp_path / "mine")
    rules = tmp_path / "mine" / "rules" / "qwinto.yaml"
    rules.write_text(rules.read_text().replace("failed_throw_penalty: 5",
                                               "failed_throw_penalty: 6"))
    example = str(ROOT / "examples" / "qwinto.yaml")
    monkeypatch.chdir(tmp_path / "mine")
    here = CliRunner().invoke(main, ["score", "qwinto", example, "--lang", "en"])
    assert here.exit_code == 0, here.output
    assert here.output.splitlines()[-1].split() == ["Total", "41"]  # 43 + 2 × 5 − 2 × 6
    monkeypatch.chdir(tmp_path)
    plain = CliRunner().invoke(main, ["score", "qwinto", example, "--lang", "en"])
    assert plain.output.splitlines()[-1].split() == ["Total", "43"]
    chosen = CliRunner().invoke(main, ["--project", "mine", "score", "qwinto", example])
    assert chosen.output.splitlines()[-1].split() == ["Total", "41"]


def test_a_missing_edition_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--project", str(tmp_path), "validate"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "pnp.toml: not found" in result.output
    assert "Traceback" not in result.output


def test_init_from_the_command_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["init", str(tmp_path / "mine")])
    assert result.exit_code == 0, result.output
    assert "pnp.toml" in result.output and "pnp build" in result.output
    again = CliRunner().invoke(main, ["init", str(tmp_path / "mine")])
    assert again.exit_code == 2 and "already exists" in again.output


def test_init_under_a_file_says_so(tmp_path: Path) -> None:
    (tmp_path / "afile.txt").write_text("x")
    with pytest.raises(EditionError, match=r"afile\.txt: not a folder"):
        assets.init(tmp_path / "afile.txt" / "mine")
    with pytest.raises(EditionError, match="nowhere: no such folder"):
        assets.init(tmp_path / "nowhere" / "mine")
