"""The cache of validated definitions: same results as validating, never stale, never in the way.

Three places keep a validated definition: this process's memory, the cache folder, and the
definitions shipped with the package (validated when it was built). Each test here has a
cache folder of its own and, unless it says otherwise, no shipped definitions.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pydantic
import pydantic_core
import pytest
import yaml
from pydantic import TypeAdapter

import pnp
import pnp.definitions
from pnp import assets, registry, version
from pnp.definitions import GAMES, cache, load, load_file, model_of, rules_dir, validation
from pnp.definitions import _load_cached as in_process
from pnp.definitions.shipping import compile_bundled
from pnp.errors import DefinitionError
from pnp.inputs import read_file

ROOT = Path(__file__).resolve().parents[2]

TOTALS: dict[str, Any] = {
    "qwinto": 43,
    "kwingto": {"Bea": 37, "Ana": 24, "Carla": 17},
    "ronda": {"Bea": 41},
    "spectacle": {"Bea": 5, "Ana": 4},
    "xactika": {},
}
"""What each example adds up to, as its comment says."""


def forget() -> None:
    """Drop every definition this process holds, as a new process would start."""
    in_process.cache_clear()
    pnp.definitions._LOADED.clear()


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache folder of the test's own, no shipped definitions, and no definition left
    over in memory."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    monkeypatch.setattr(cache, "SHIPPED", tmp_path / "shipped")
    forget()
    yield folder
    forget()


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[type]:
    """The models validated from now on."""
    calls: list[type] = []
    original = validation.validate

    def counting(model: type, *args: Any, **kwargs: Any) -> Any:
        calls.append(model)
        return original(model, *args, **kwargs)

    monkeypatch.setattr(validation, "validate", counting)
    return calls


def cached_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pickle"))


def fresh(game: str) -> Any:
    """A definition validated from ``rules/`` now, with no cache involved."""
    return load_file(rules_dir() / f"{game}.yaml", game)


def warm(game: str, folder: Path) -> Path:
    """Load ``game`` once so that its definition is cached; return the cache file."""
    load(game)
    forget()
    (path,) = [p for p in cached_files(folder) if p.name.startswith(f"{game}-")]
    return path


def totals(result: pnp.Result) -> Any:
    return result.total if result.single else result.totals


def qwinto_rules(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    folder.mkdir()
    shutil.copy(rules_dir() / "qwinto.yaml", folder)
    return folder


# Same results --------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_cached_definition_equals_a_fresh_validation(
        game: str, cache_dir: Path, validations: list[type]) -> None:
    warm(game, cache_dir)
    validations.clear()
    cached = load(game)
    assert validations == []
    assert type(cached) is model_of(game)
    assert cached == fresh(game)


@pytest.mark.parametrize("game", GAMES)
def test_scores_are_the_same_with_and_without_the_cache(game: str, cache_dir: Path) -> None:
    data = read_file(ROOT / "examples" / f"{game}.yaml")
    without = registry.game(game).engine.score(fresh(game), data)
    first = pnp.score(game, data)
    forget()
    assert cached_files(cache_dir)
    again = pnp.score(game, data)
    assert without.to_json() == first.to_json() == again.to_json()
    expected = TOTALS[game]
    if isinstance(expected, dict):
        assert expected.items() <= again.totals.items()
    else:
        assert again.total == expected


def test_a_warm_cache_validates_nothing(cache_dir: Path, validations: list[type]) -> None:
    data = read_file(ROOT / "examples/qwinto.yaml")
    assert pnp.score("qwinto", data).total == 43
    assert validations == [model_of("qwinto")]
    forget()
    validations.clear()
    assert pnp.score("qwinto", data).total == 43
    assert validations == []


SCORE_AND_REPORT = """\
import sys
from pathlib import Path
from pnp.definitions import cache
from pnp.cli import main
cache.SHIPPED = Path(sys.argv[2])
try:
    main(["score", "qwinto", sys.argv[1]])
except SystemExit as exit:
    print("EXIT", exit.code)
print("IMPORTED", sorted({name.partition(".")[0] for name in sys.modules
                          if name.partition(".")[0] in ("pydantic", "pydantic_core")}))
"""


def score_in_a_new_process(shipped: Path) -> str:
    """What ``pnp score`` of the Qwinto example prints in a fresh interpreter, as a person
    runs it, with ``shipped`` for the shipped definitions."""
    env = {**os.environ, "LANG": "C", "LC_ALL": "C"}
    command = [sys.executable, "-c", SCORE_AND_REPORT, str(ROOT / "examples/qwinto.yaml"),
               str(shipped)]
    run = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    assert "Total" in run.stdout and run.stdout.splitlines()[-3].endswith(" 43")
    assert "EXIT 0" in run.stdout
    return run.stdout


def test_pnp_score_imports_no_pydantic_on_a_warm_cache(cache_dir: Path, tmp_path: Path) -> None:
    """Without shipped definitions, the first run validates and caches, the next reads the
    cache and never imports pydantic."""
    runs = [score_in_a_new_process(tmp_path / "shipped") for _ in range(2)]
    assert "IMPORTED ['pydantic', 'pydantic_core']" in runs[0]
    assert "IMPORTED []" in runs[1]
    assert len(cached_files(cache_dir)) == 1


# Shipped with the package ---------------------------------------------------------------


def test_shipped_definitions_are_the_validated_ones(tmp_path: Path) -> None:
    made = compile_bundled(tmp_path / "shipped", rules_dir())
    assert sorted(path.name for path in made) == sorted(f"{game}.pickle" for game in GAMES)
    for game in GAMES:
        content = (rules_dir() / f"{game}.yaml").read_bytes()
        shipped = cache.read_shipped(game, content, model_of(game))
        assert type(shipped) is model_of(game)
        assert shipped == fresh(game)


def test_a_first_run_with_shipped_definitions_imports_no_pydantic(
        cache_dir: Path, tmp_path: Path) -> None:
    compile_bundled(tmp_path / "shipped", rules_dir())
    assert "IMPORTED []" in score_in_a_new_process(tmp_path / "shipped")
    assert not cache_dir.exists()


def test_shipped_definitions_validate_nothing_and_serve_only_their_own_bytes(
        tmp_path: Path, validations: list[type]) -> None:
    compile_bundled(tmp_path / "shipped", rules_dir())
    validations.clear()
    loaded = load("qwinto")
    assert validations == []
    assert loaded == fresh("qwinto")
    validations.clear()
    folder = qwinto_rules(tmp_path)
    path = folder / "qwinto.yaml"
    path.write_text(path.read_text().replace("failed_throw_penalty: 5", "failed_throw_penalty: 6"))
    assert load("qwinto", folder).scoring.failed_throw_penalty == 6
    assert validations == [model_of("qwinto")]


def test_shipped_definitions_of_another_build_are_not_used(
        tmp_path: Path, validations: list[type], monkeypatch: pytest.MonkeyPatch) -> None:
    compile_bundled(tmp_path / "shipped", rules_dir())
    validations.clear()
    monkeypatch.setattr(version, "VERSION", "0.0.0-another")
    loaded = load("qwinto")
    assert validations == [model_of("qwinto")]
    assert loaded == fresh("qwinto")


@pytest.mark.parametrize("damage", ["truncated", "writable by others"])
def test_a_damaged_shipped_definition_is_validated_again(
        damage: str, tmp_path: Path, validations: list[type]) -> None:
    (path, *_) = compile_bundled(tmp_path / "shipped", rules_dir())
    assert path.name == "qwinto.pickle"
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[:-10])
    else:
        path.chmod(0o666)
    validations.clear()
    loaded = load("qwinto")
    assert validations == [model_of("qwinto")]
    assert loaded == fresh("qwinto")


# Never stale ---------------------------------------------------------------------------


def test_an_edit_shows_at_once_even_with_the_same_size_and_time(tmp_path: Path) -> None:
    folder = qwinto_rules(tmp_path)
    path = folder / "qwinto.yaml"
    data = read_file(ROOT / "examples/qwinto.yaml")
    assert pnp.score("qwinto", data, folder).total == 43
    before = path.stat()
    path.write_text(path.read_text().replace("failed_throw_penalty: 5", "failed_throw_penalty: 6"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert pnp.score("qwinto", data, folder).total == 41
    forget()
    assert pnp.score("qwinto", data, folder).total == 41
    path.write_text(path.read_text().replace("failed_throw_penalty: 6", "failed_throw_penalty: 5"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert pnp.score("qwinto", data, folder).total == 43
    forget()
    assert pnp.score("qwinto", data, folder).total == 43


def test_scoring_follows_the_rules_folder_and_its_edits_between_calls(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``pnp.score`` keeps where the rules folder is, until ``$PNP_RULES_DIR`` or the current
    edition is another; an edit in that folder still shows at the next call."""
    folder = qwinto_rules(tmp_path)
    path = folder / "qwinto.yaml"
    data = read_file(ROOT / "examples/qwinto.yaml")
    monkeypatch.delenv("PNP_RULES_DIR", raising=False)
    assert pnp.score("qwinto", data).total == 43
    monkeypatch.setenv("PNP_RULES_DIR", str(folder))
    assert pnp.score("qwinto", data).total == 43
    path.write_text(path.read_text().replace("failed_throw_penalty: 5", "failed_throw_penalty: 6"))
    assert pnp.score("qwinto", data).total == 41  # 43 + 2 × 5 − 2 × 6
    monkeypatch.delenv("PNP_RULES_DIR")
    assert pnp.score("qwinto", data).total == 43
    monkeypatch.setattr(assets, "_current", dataclasses.replace(assets.current(), rules=folder))
    assert pnp.score("qwinto", data).total == 41
    monkeypatch.setattr(assets, "_current", None)
    assert pnp.score("qwinto", data).total == 43


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The definition files read from now on."""
    done: list[Path] = []
    original = pnp.definitions.read_bytes

    def counting(path: Path) -> bytes:
        done.append(path)
        return original(path)

    monkeypatch.setattr(pnp.definitions, "read_bytes", counting)
    return done


def test_an_unchanged_file_is_not_read_again_in_one_process(
        tmp_path: Path, reads: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """``pnp.score`` in a loop: once a file's times are too old to be ambiguous (made so
    here), only a changed file (another inode, size or time) is read again."""
    monkeypatch.setattr(pnp.definitions, "RACY", 0)
    folder = qwinto_rules(tmp_path)
    path = folder / "qwinto.yaml"
    data = read_file(ROOT / "examples/qwinto.yaml")
    assert [pnp.score("qwinto", data, folder).total for _ in range(3)] == [43, 43, 43]
    assert reads == [path]
    edited = folder / "edited.yaml"
    edited.write_text(path.read_text().replace("failed_throw_penalty: 5",
                                               "failed_throw_penalty: 6"))
    before = path.stat()
    os.utime(edited, ns=(before.st_atime_ns, before.st_mtime_ns))
    edited.replace(path)
    assert pnp.score("qwinto", data, folder).total == 41
    assert reads == [path, path]


def test_a_file_changed_just_now_is_read_at_every_load(
        tmp_path: Path, reads: list[Path]) -> None:
    """Its times may not yet tell it from a version written in the same tick."""
    folder = qwinto_rules(tmp_path)
    for _ in range(3):
        load("qwinto", folder)
    assert len(reads) == 3


@pytest.mark.parametrize(("old", "new", "message"), [
    (b"failed_throw_penalty: 5", b"failed_throw_penalty: -5",
     "scoring.failed_throw_penalty: input should be greater than or equal to 0, got -5"),
    (b"failed_throw_penalty: 5", b"failed_throw_penalty: \xff",
     "not UTF-8 text at byte"),
], ids=["invalid", "not UTF-8"])
def test_an_edit_that_breaks_the_file_is_reported_as_by_validation(
        old: bytes, new: bytes, message: str, tmp_path: Path, cache_dir: Path) -> None:
    folder = qwinto_rules(tmp_path)
    path = folder / "qwinto.yaml"
    load("qwinto", folder)
    path.write_bytes(path.read_bytes().replace(old, new))
    with pytest.raises(DefinitionError) as cached:
        load("qwinto", folder)
    with pytest.raises(DefinitionError) as validated:
        load_file(path, "qwinto")
    assert str(cached.value) == str(validated.value)
    assert message in str(cached.value)
    assert len(cached_files(cache_dir)) == 1


def test_a_missing_file_is_reported_as_before(tmp_path: Path, cache_dir: Path) -> None:
    with pytest.raises(DefinitionError, match=r"qwinto\.yaml: file not found"):
        load("qwinto", tmp_path)
    assert not cache_dir.exists()


def test_the_key_changes_with_what_changes_validation(monkeypatch: pytest.MonkeyPatch) -> None:
    content = (rules_dir() / "qwinto.yaml").read_bytes()
    key = cache.key("qwinto", content)
    assert cache.key("qwinto", content + b"\n") != key
    assert cache.key("kwingto", content) != key
    another_pydantic = cache._validator().replace(pydantic.VERSION, "2.0.0")
    changes: list[tuple[object, str, object]] = [
        (version, "VERSION", "0.0.0-test"),
        (cache, "_validator", lambda: another_pydantic),
        (sys, "version", "3.99.0"),
    ]
    for owner, name, value in changes:
        monkeypatch.setattr(owner, name, value)
        cache._environment.cache_clear()
        try:
            assert cache.key("qwinto", content) != key, name
        finally:
            monkeypatch.undo()
            cache._environment.cache_clear()
        assert cache.key("qwinto", content) == key


def test_the_key_knows_pydantic_without_importing_it() -> None:
    found = cache._validator()
    assert f"VERSION = '{pydantic.VERSION}'" in found
    compiled = Path(pydantic_core._pydantic_core.__file__)
    assert f"{compiled.name} {compiled.stat().st_size} " in found


# Never in the way ----------------------------------------------------------------------


def another_definition() -> bytes:
    """A pickled Qwinto definition that differs from the bundled one."""
    text = (rules_dir() / "qwinto.yaml").read_text()
    data = yaml.safe_load(text.replace("failed_throw_penalty: 5", "failed_throw_penalty: 6"))
    return pickle.dumps(TypeAdapter(model_of("qwinto")).validate_python(data))


DAMAGES = {
    "empty": lambda data: b"",
    "truncated": lambda data: data[: len(data) // 2],
    "garbage": lambda data: b"\x80\x05garbage" * 10,
    "another definition": lambda data: data[:cache.HEADER] + another_definition(),
    "another key": lambda data: (bytes(32) + cache.digest(another_definition())
                                 + another_definition()),
    "wrong object": lambda data: (data[:32] + cache.digest(pickle.dumps({}))
                                  + pickle.dumps({})),
}


@pytest.mark.parametrize("damage", DAMAGES.values(), ids=DAMAGES.keys())
def test_a_damaged_cache_file_is_validated_again(
        damage: Any, cache_dir: Path, validations: list[type]) -> None:
    path = warm("qwinto", cache_dir)
    path.write_bytes(damage(path.read_bytes()))
    validations.clear()
    loaded = load("qwinto")
    assert validations == [model_of("qwinto")]
    assert loaded == fresh("qwinto")


@pytest.mark.parametrize("mode", [0o666, 0o620, 0o602])
def test_a_cache_file_others_may_write_is_not_read(
        mode: int, cache_dir: Path, validations: list[type]) -> None:
    path = warm("qwinto", cache_dir)
    path.chmod(mode)
    validations.clear()
    loaded = load("qwinto")
    assert validations == [model_of("qwinto")]
    assert loaded == fresh("qwinto")


def test_a_cache_folder_others_may_write_is_not_used(
        cache_dir: Path, validations: list[type]) -> None:
    warm("qwinto", cache_dir)
    cache_dir.chmod(0o777)
    validations.clear()
    loaded = load("qwinto")
    assert validations == [model_of("qwinto")]
    assert loaded == fresh("qwinto")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="only root can give a file away")
def test_a_cache_file_of_another_user_is_not_read(
        cache_dir: Path, validations: list[type]) -> None:
    path = warm("qwinto", cache_dir)
    os.chown(path, 65534, 65534)
    validations.clear()
    loaded = load("qwinto")
    assert validations == [model_of("qwinto")]
    assert loaded == fresh("qwinto")


def test_a_symbolic_link_in_the_cache_is_not_followed(
        cache_dir: Path, tmp_path: Path, validations: list[type]) -> None:
    path = warm("qwinto", cache_dir)
    elsewhere = tmp_path / "elsewhere.pickle"
    path.rename(elsewhere)
    path.symlink_to(elsewhere)
    validations.clear()
    loaded = load("qwinto")
    assert validations == [model_of("qwinto")]
    assert loaded == fresh("qwinto")


def test_a_read_only_cache_folder_changes_nothing(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache_dir.mkdir(mode=0o500)

    def read_only(*args: Any, **kwargs: Any) -> Any:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr("tempfile.mkstemp", read_only)
    data = read_file(ROOT / "examples/qwinto.yaml")
    assert pnp.score("qwinto", data).total == 43
    forget()
    assert pnp.score("qwinto", data).total == 43
    assert list(cache_dir.iterdir()) == []


def test_a_full_disk_leaves_no_file_behind(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: Any, **kwargs: Any) -> Any:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    assert load("qwinto") == fresh("qwinto")
    assert list(cache_dir.iterdir()) == []


def test_a_cache_folder_that_is_a_file_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    monkeypatch.setenv("PNP_CACHE_DIR", str(not_a_folder))
    assert load("qwinto") == fresh("qwinto")
    forget()
    assert load("qwinto") == fresh("qwinto")


def test_the_cache_folder_is_private_and_bounded(
        cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "LIMIT", 3)
    folder = qwinto_rules(tmp_path)
    path = folder / "qwinto.yaml"
    original = path.read_text()
    unrelated = cache_dir / "notes.txt"
    for n in range(6):
        path.write_text(f"{original}\n# edit {n}\n")
        load("qwinto", folder)
        if n == 0:
            unrelated.write_text("not pnp's")
    assert cache_dir.stat().st_mode & 0o777 == 0o700
    files = cached_files(cache_dir)
    assert len(files) == 3
    assert all(p.stat().st_mode & 0o777 == 0o600 for p in files)
    assert unrelated.exists()


def test_the_cache_folder_follows_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert cache.folder() == tmp_path / "cache"
    monkeypatch.delenv("PNP_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.folder() == tmp_path / "xdg" / "pnp"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.folder() == tmp_path / "home" / ".cache" / "pnp"
