"""pnp as a person who never sees the checkout gets it: a wheel in a fresh environment.

The wheel and the sdist are built once, with pypa/build in isolated environments; the
wheel is installed into a new virtual environment with nothing of the checkout on its
path, and every command runs from an empty folder.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from pdfcheck import page_texts

pytestmark = pytest.mark.early  # the wheel, the sdist and their environments take minutes
ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_TOTAL = 43
"""The Qwinto example's total, worked by hand in tests/games/test_qwinto.py: 4 + 16 + 6 + 5 + 10
+ 12 − 2 × 5."""


def run(command: list[str], cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "PNP_RULES_DIR", "PNP_PROJECT", "VIRTUAL_ENV")}
    env["LANG"] = "C.UTF-8"
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=600)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} exited {result.returncode}:\n"
                             f"{result.stdout}\n{result.stderr}")
    return result


_LITTER = shutil.ignore_patterns(".git", ".venv", "*.egg-info", "output", "node_modules",
                                 "__pycache__", ".*_cache", ".hypothesis")


def _unshipped(folder: str, names: list[str]) -> set[str]:
    """What the copy leaves out: litter anywhere, and the checkout's own ``build/`` folder
    (not ``pnp/build/``, which is code)."""
    return set(_LITTER(folder, names)) | ({"build"} & set(names) if Path(folder) == ROOT else set())


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist, a wheel built from the tree and a wheel built from the sdist."""
    folder = tmp_path_factory.mktemp("dist")
    source = folder / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=_unshipped)
    run([sys.executable, "-m", "build", "--wheel", "--outdir", str(folder / "tree"),
         str(source)], source)
    run([sys.executable, "-m", "build", "--outdir", str(folder / "sdist"), str(source)], source)
    return folder


@pytest.fixture(scope="module")
def venv(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment with the wheel installed, and nothing else of the checkout."""
    folder = tmp_path_factory.mktemp("venv")
    run([sys.executable, "-m", "venv", str(folder)], folder)
    wheel = next((dist / "tree").glob("pnp-*.whl"))
    run([str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet",
         "--disable-pip-version-check", str(wheel)], folder)
    return folder


@pytest.fixture
def empty(tmp_path: Path) -> Path:
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder


def wheel_files(wheel: Path) -> dict[str, str]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: hashlib.sha256(archive.read(name)).hexdigest()
                for name in archive.namelist() if not name.endswith("RECORD")}


def test_the_sdist_builds_the_same_wheel_as_the_tree(dist: Path) -> None:
    from_tree = wheel_files(next((dist / "tree").glob("*.whl")))
    from_sdist = wheel_files(next((dist / "sdist").glob("*.whl")))
    assert from_tree == from_sdist
    with tarfile.open(next((dist / "sdist").glob("*.tar.gz"))) as archive:
        members = archive.getmembers()
    assert not [m.name for m in members if m.issym() or m.islnk()], "links in the sdist"


def test_the_wheel_carries_everything_pnp_reads(dist: Path) -> None:
    files = wheel_files(next((dist / "tree").glob("*.whl")))
    names = set(files)
    for folder in ("rules", "examples", "templates", "fonts"):
        checkout = {f"pnp/data/{folder}/{path.relative_to(ROOT / folder).as_posix()}":
                    hashlib.sha256(path.read_bytes()).hexdigest()
                    for path in (ROOT / folder).rglob("*") if path.is_file()}
        assert checkout
        assert checkout == {name: digest for name, digest in files.items()
                            if name.startswith(f"pnp/data/{folder}/")}
    code = {path.relative_to(ROOT).as_posix() for path in (ROOT / "pnp").rglob("*")
            if path.suffix in (".py", ".po", ".js") and "__pycache__" not in path.parts}
    assert code and code <= names
    assert {"pnp/__main__.py", "pnp/py.typed"} <= names
    licences = {name for name in names if "/licenses/" in name}
    assert licences == {"pnp-0.1.0.dist-info/licenses/LICENSE",
                        "pnp-0.1.0.dist-info/licenses/fonts/DejaVu-LICENSE.txt",
                        "pnp-0.1.0.dist-info/licenses/fonts/PnpSans-OFL.txt",
                        "pnp-0.1.0.dist-info/licenses/fonts/GentiumBookPlus-OFL.txt",
                        "pnp-0.1.0.dist-info/licenses/fonts/NotoArabic-OFL.txt"}


def test_the_metadata_is_what_a_package_index_expects(dist: Path) -> None:
    with zipfile.ZipFile(next((dist / "tree").glob("*.whl"))) as archive:
        metadata = archive.read("pnp-0.1.0.dist-info/METADATA").decode()
    import pnp

    assert f"Version: {pnp.__version__}\n" in metadata
    assert "License-Expression: MIT AND Bitstream-Vera AND OFL-1.1\n" in metadata
    for licence in ("DejaVu-LICENSE.txt", "PnpSans-OFL.txt", "GentiumBookPlus-OFL.txt",
                    "NotoArabic-OFL.txt"):
        assert f"License-File: fonts/{licence}\n" in metadata
    assert len(re.findall(r"^Classifier: ", metadata, re.M)) >= 10
    assert len(re.findall(r"^Project-URL: ", metadata, re.M)) >= 3
    assert "Requires-Python: >=3.11" in metadata


def test_every_command_works_from_an_empty_folder(venv: Path, empty: Path) -> None:
    pnp, python = str(venv / "bin" / "pnp"), str(venv / "bin" / "python")
    assert run([pnp, "--version"], empty).stdout.strip() == "pnp, version 0.1.0"
    assert run([python, "-m", "pnp", "--version"], empty).stdout.strip() == "pnp, version 0.1.0"
    where = run([python, "-c", "import pnp, sys; print(pnp.__file__); print(sys.path)"], empty)
    assert str(venv) in where.stdout.splitlines()[0]
    assert str(ROOT) not in where.stdout

    (empty / "q.yaml").write_text((ROOT / "examples" / "qwinto.yaml").read_text())
    score = run([pnp, "score", "qwinto", "q.yaml"], empty)
    assert score.stdout.splitlines()[-1].split() == ["Total", str(EXAMPLE_TOTAL)]
    assert run([pnp, "sheet", "qwinto", "--lang", "es"], empty).stdout.strip() == \
        "output/qwinto/es/qwinto-sheet-a4.pdf"
    assert run([pnp, "card", "ronda", "--lang", "fr"], empty).returncode == 0
    assert run([pnp, "deck", "xactika", "--lang", "en"], empty).returncode == 0
    assert run([pnp, "rulebook", "xactika", "--lang", "en", "--format", "html"],
               empty).returncode == 0
    assert "5 definitions are valid" in run([pnp, "validate"], empty).stdout
    assert run([pnp, "translations"], empty).returncode == 0
    build = run([pnp, "build", "kwingto", "--lang", "en", "--paper", "a4"], empty)
    assert "failed         0" in build.stdout
    built = {p.name for p in (empty / "output" / "kwingto" / "en").iterdir()}
    assert {"kwingto-rulebook-a4.pdf", "kwingto-rulebook-a4.html", "kwingto-card-a5.pdf",
            "kwingto-sheet-a4.pdf", "kwingto-sheet-fillable-a4.pdf",
            "kwingto-coto-a4.pdf"} <= built
    assert (empty / "output" / "index.html").is_file()
    made = {p.relative_to(empty).parts[0] for p in empty.rglob("*")}
    assert made == {"q.yaml", "output"}, "wrote outside ./output/"


FIRST_SCORE = """\
import sys
from pnp.cli import main
try:
    main(["score", "qwinto", "q.yaml"])
except SystemExit as exit:
    print("EXIT", exit.code)
print("VALIDATED", "pydantic" in sys.modules)
"""


def test_the_bundled_definitions_come_validated_in_the_wheel(
        dist: Path, venv: Path, empty: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The wheel carries each bundled definition as validated when it was built, so that a
    person's first ``pnp score`` (an empty cache) validates nothing and caches nothing."""
    names = set(wheel_files(next((dist / "tree").glob("*.whl"))))
    assert {f"pnp/definitions/shipped/{game}.pickle"
            for game in ("qwinto", "kwingto", "xactika", "ronda", "spectacle")} <= names
    cache = empty.parent / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(cache))
    (empty / "q.yaml").write_text((ROOT / "examples" / "qwinto.yaml").read_text())
    first = run([str(venv / "bin" / "python"), "-c", FIRST_SCORE], empty).stdout
    assert first.splitlines()[-3].split() == ["Total", str(EXAMPLE_TOTAL)]
    assert first.splitlines()[-2:] == ["EXIT 0", "VALIDATED False"]
    assert not cache.exists()


def test_nothing_installed_refers_to_the_checkout(venv: Path) -> None:
    checkout = str(ROOT).encode()
    site = next(venv.glob("lib/python*/site-packages"))
    installed = [p for p in site.glob("pnp*/**/*") if p.is_file()]
    assert len(installed) > 100
    assert [p for p in installed if checkout in p.read_bytes()] == []
    assert [p for p in site.glob("pnp/data/*") if p.is_symlink()] == []


def test_a_publishers_own_edition(venv: Path, empty: Path) -> None:
    pnp = str(venv / "bin" / "pnp")
    (empty / "q.yaml").write_text((ROOT / "examples" / "qwinto.yaml").read_text())
    run([pnp, "init", "mine"], empty)
    edition = empty / "mine"
    assert {p.name for p in edition.iterdir()} == {"pnp.toml", "rules", "templates",
                                                  "examples"}
    rules = edition / "rules" / "qwinto.yaml"
    text = rules.read_text()
    assert "  failed_throw_penalty: 5\n" in text
    rules.write_text(text.replace("  failed_throw_penalty: 5\n", "  failed_throw_penalty: 7\n"))

    run([pnp, "build", "qwinto", "--lang", "en", "--paper", "a4"], edition)
    built = edition / "output" / "qwinto" / "en"
    sheet = page_texts((built / "qwinto-sheet-a4.pdf").read_bytes(), margin=0)[0]
    assert "−7 −7 −7 −7" in sheet and "−5" not in sheet
    book = (built / "qwinto-rulebook-a4.html").read_text()
    assert "<td>Each failed throw</td>\n<td>−7</td>" in book
    mine = run([pnp, "score", "qwinto", "../q.yaml"], edition)
    assert mine.stdout.splitlines()[-1].split() == ["Total", str(EXAMPLE_TOTAL - 2 * 2)]
    elsewhere = run([pnp, "--project", "mine", "score", "qwinto", "q.yaml"], empty)
    assert elsewhere.stdout == mine.stdout

    bundled = run([pnp, "score", "qwinto", "q.yaml"], empty)
    assert bundled.stdout.splitlines()[-1].split() == ["Total", str(EXAMPLE_TOTAL)]
    again = run([pnp, "init", "mine"], empty, check=False)
    assert again.returncode == 2 and again.stderr.count("\n") == 1
    assert "already exists" in again.stderr
