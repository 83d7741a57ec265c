"""What ``pnp score`` loads: its game's engine, definition and texts, click and the readers,
nothing else, whether the definition comes shipped with pnp (a first run, an empty cache) or
from the cache (a warm one). How long that takes is measured by ``bench/score.py``.

Each run is a fresh interpreter, as a person starts it; what it imports is compared with what
``import click, yaml`` imports in the same interpreter.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pnp.definitions import GAMES, rules_dir
from pnp.definitions.shipping import compile_bundled

ROOT = Path(__file__).resolve().parents[2]

SCORE = """\
import sys
from pathlib import Path
from pnp.definitions import cache
from pnp.cli import main
cache.SHIPPED = Path(sys.argv[1])
try:
    main(["score", *sys.argv[2:]])
except SystemExit as exit:
    print("EXIT", exit.code)
print("MODULES", " ".join(sorted(sys.modules)))
"""

BARE = "import sys, click, yaml; print('MODULES', ' '.join(sorted(sys.modules)))"

NEEDED = {
    # the command, the readers, the report and the errors
    "pnp", "pnp.cli", "pnp.errors", "pnp.version", "pnp.registry", "pnp.assets",
    "pnp.outputs", "pnp.outputs.targets", "pnp.inputs", "pnp.reading", "pnp.report",
    "pnp.i18n", "pnp.i18n.catalogues", "pnp.i18n.languages", "pnp.i18n.words", "pnp.engine",
    "pnp.engine.common", "pnp.engine.result", "pnp.games",
    # the definition, from the shipped definitions or the cache
    "pnp.definitions", "pnp.definitions.base", "pnp.definitions.cache",
    "pnp.definitions.source", "pickle", "_pickle", "_compat_pickle", "copy", "_blake2",
    # the standard library's pieces those use: dataclasses for definitions and results,
    # names compared as Unicode, suggestions for a misspelt key, the locale's language
    "dataclasses", "unicodedata", "difflib", "heapq", "_heapq", "locale", "_locale",
}
"""Modules beyond a bare ``import click, yaml`` that any game's ``pnp score`` needs."""


def imported(*args: str, cache: Path) -> set[str]:
    env = {**os.environ, "LANG": "C", "LC_ALL": "C", "PNP_CACHE_DIR": str(cache)}
    run = subprocess.run([sys.executable, "-c", *args], capture_output=True, text=True,
                         check=True, env=env, cwd=ROOT)
    lines = run.stdout.splitlines()
    if "EXIT" in run.stdout:
        assert "EXIT 0" in lines, run.stdout + run.stderr
    return set(lines[-1].removeprefix("MODULES ").split())


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    return imported(BARE, cache=tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("shipped")
    compile_bundled(folder, rules_dir())
    return folder


ENGINE_PARTS = {"ronda": (".events",)}
"""The modules of a game's folder its engine is split into, beside ``engine``: scoring
loads them too (Ronda's input, read and checked, but not its cards played one by one)."""


def unneeded(game: str, loaded: set[str], bare: set[str]) -> set[str]:
    parts = ("", ".definition", ".engine", ".texts", *ENGINE_PARTS.get(game, ()))
    own = {f"pnp.games.{game}{part}" for part in parts}
    return loaded - bare - NEEDED - own


@pytest.mark.parametrize("game", GAMES)
def test_a_first_run_loads_only_what_scoring_needs(
        game: str, bare: set[str], shipped: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    loaded = imported(SCORE, str(shipped), game, f"examples/{game}.yaml", cache=cache)
    assert f"pnp.games.{game}.engine" in loaded
    assert unneeded(game, loaded, bare) == set()
    assert not cache.exists(), "the shipped definition was validated again"


@pytest.mark.parametrize("game", GAMES)
def test_a_run_on_a_warm_cache_loads_only_what_scoring_needs(
        game: str, bare: set[str], tmp_path: Path) -> None:
    """Without shipped definitions (say, a definition edited since pnp was built): the
    first run validates and caches, the next loads what a first run with them loads."""
    cache, nothing = tmp_path / "cache", tmp_path / "not-shipped"
    arguments = (SCORE, str(nothing), game, f"examples/{game}.yaml")
    first = imported(*arguments, cache=cache)
    assert "pydantic" in first
    assert unneeded(game, imported(*arguments, cache=cache), bare) == set()
