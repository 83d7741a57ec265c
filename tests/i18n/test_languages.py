"""The languages' facts (``locale/<code>/language.yaml``): read, checked, and followed.

The typography a language gets is what its facts say: a language with French's facts set
like French, whatever its code. A file at fault is refused naming its file and line.
Reading the facts imports no Babel, so ``pnp score`` stays light.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.i18n.catalogues import NARROW_SPACE, typography

ROOT = Path(__file__).resolve().parents[2]


def test_pnp_s_own_languages_in_their_order() -> None:
    from pnp.i18n.languages import codes, language

    assert codes()[:3] == ("es", "en", "fr")
    assert [language(code).name for code in ("es", "en", "fr")] == [
        "Español", "English", "Français"]
    assert language("en").quotes == ("“", "”")
    assert all(language(code).direction in ("ltr", "rtl") for code in codes())


@pytest.fixture
def edition(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An edition whose locale folder holds a language ``zz`` with French's facts."""
    from pnp import assets

    monkeypatch.setattr(assets, "_current", None)
    folder = tmp_path / "edition"
    assert CliRunner().invoke(main, ["init", str(folder)]).exit_code == 0
    config = folder / "pnp.toml"
    config.write_text(config.read_text() + 'locale = "locale"\n', encoding="utf-8")
    (folder / "locale" / "zz").mkdir(parents=True)
    shutil.copy(ROOT / "pnp" / "i18n" / "locale" / "fr" / "language.yaml",
                folder / "locale" / "zz" / "language.yaml")
    return folder


def test_typography_follows_the_facts_not_the_code(edition: Path) -> None:
    from pnp import assets

    assets.use(assets.Edition.from_folder(edition))
    text = "l'as \"fort\" de Ana : oui!"
    assert typography(text, "zz") == typography(text, "fr") == (
        f"l’as «{NARROW_SPACE}fort{NARROW_SPACE}» d’Ana{NARROW_SPACE}: oui{NARROW_SPACE}!")
    assert typography("10:30, a:b", "zz") == "10:30, a:b"
    facts = edition / "locale" / "zz" / "language.yaml"
    facts.write_text('order: 9\nquotes: ["‹", "›"]\ndirection: rtl\nname: Zed\n',
                     encoding="utf-8")
    from pnp.i18n import languages

    languages._discover.cache_clear()  # the facts are read once a process: pnp's never change
    assert typography(text, "zz") == "l’as ‹fort› de Ana : oui!"
    assert (languages.language("zz").name, languages.language("zz").direction) == (
        "Zed", "rtl")


@pytest.mark.parametrize(("facts", "problem"), [
    ('order: 9\nquotes: ["«", "»"]\ndirection: down\n', ":3: direction: expected ltr or rtl"),
    ('order: 9\nquotes: ["«"]\ndirection: ltr\n', ":2: quotes: expected the opening and"),
    ('order: 0\nquotes: ["«", "»"]\ndirection: ltr\n', ":1: order: expected a whole number"),
    ('order: 9\nquotes: ["«", "»"]\ndirection: ltr\ncolour: red\n',
     ":4: colour: unknown fact"),
    ('order: 9\ndirection: ltr\n', ":1: missing required fact 'quotes'"),
    ('order: 9\nquotes: ["«", "»"]\ndirection: ltr\nfonts: {script: x}\n',
     ":4: fonts: unknown role 'script'"),
    ("order: [\n", ":1: invalid YAML"),
])
def test_facts_at_fault_are_refused_by_file_and_line(edition: Path, facts: str,
                                                     problem: str) -> None:
    path = edition / "locale" / "zz" / "language.yaml"
    path.write_text(facts, encoding="utf-8")
    run = CliRunner().invoke(main, ["--project", str(edition), "translations"])
    assert run.exit_code == 2
    assert f"locale/zz/language.yaml{problem}" in run.output, run.output


def test_a_link_out_of_the_locale_folder_is_refused(edition: Path, tmp_path: Path) -> None:
    path = edition / "locale" / "zz" / "language.yaml"
    outside = tmp_path / "elsewhere.yaml"
    shutil.move(path, outside)
    path.symlink_to(outside)
    run = CliRunner().invoke(main, ["--project", str(edition), "translations"])
    assert run.exit_code == 2
    assert "leads outside" in run.output


def test_reading_the_facts_imports_no_babel() -> None:
    code = ("import sys; from pnp.i18n.languages import known; from pnp.i18n.catalogues "
            "import typography; known(); typography('a \"b\"', 'fr'); "
            "print('babel' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert run.stdout.strip() == "False"
