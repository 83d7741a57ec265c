"""Settings for the whole test session, and what its tests share."""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis's two wall-clock checks (a case's 200 ms deadline, and the "too slow" health
# check on generating cases) fail a sound test on a busy machine, so neither is kept; each
# test says how many cases it runs. `make test` takes the default profile; CI (where `CI`
# is set) the "ci" one, which runs the same cases each time (a red CI is one a developer
# can replay), prints the blob that replays a failure, and keeps no database in its fresh
# clone. HYPOTHESIS_PROFILE chooses one by name.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", settings.get_profile("default"), derandomize=True,
                          print_blob=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI")
                                     else "default"))


ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    """Keep the definition cache of every test run out of the user's own cache folder."""
    config.addinivalue_line("markers", "early: a module of few tests whose fixtures take "
                                       "minutes (see pytest_collection_modifyitems)")
    folder = tempfile.mkdtemp(prefix="pnp-test-cache-")
    os.environ["PNP_CACHE_DIR"] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules marked ``early`` first, then those of most tests: ``make test`` hands whole
    modules to its workers in this order (xdist's ``--dist loadscope`` with
    ``--no-loadscope-reorder``). xdist alone starts the modules of most tests first, which
    left the full builds, a module of six tests and four minutes, to run alone at the end."""
    def module(item: pytest.Item) -> str:
        return item.nodeid.split("::", 1)[0]

    tests = Counter(module(item) for item in items)
    early = {module(item) for item in items if item.get_closest_marker("early")}
    items.sort(key=lambda item: (module(item) not in early,
                                 0 if module(item) in early else -tests[module(item)]))


@functools.cache
def _composed(kind: str, game: str, lang: str) -> Any:
    from pnp.books.compose import compose

    return compose(kind, game, lang)


@functools.cache
def _laid_out(kind: str, game: str, lang: str) -> bytes:
    from pnp.books.pdf import render_pdf

    return render_pdf(_composed(kind, game, lang))


@functools.cache
def _pdf(kind: str, game: str, lang: str, paper: str) -> bytes:
    from pnp.books.render import on_paper

    return on_paper(_laid_out(kind, game, lang), kind, paper)


@functools.cache
def _html(kind: str, game: str, lang: str, paper: str) -> str:
    from pnp.books.screen import standalone_html

    return standalone_html(_composed(kind, game, lang), paper)


@dataclass(frozen=True)
class Books:
    """The bundled rulebooks and reference cards as :func:`pnp.books.render.render` gives
    them, each composed and laid out at most once a test run (the Letter edition from the
    A4 layout, as a build makes it). They follow from the code and the bundled files
    alone; a test that changes a definition, the edition or the environment renders its own.
    """

    def composed(self, kind: str, game: str, lang: str) -> Any:
        """The document after composition (:func:`pnp.books.compose.compose`)."""
        return _composed(kind, game, lang)

    def pdf(self, kind: str, game: str, lang: str, paper: str | None = None) -> bytes:
        """The PDF on ``paper`` (the first the kind is offered on unless told)."""
        from pnp.books.compose import PAPERS

        return _pdf(kind, game, lang, paper or PAPERS[kind][0])

    def html(self, kind: str, game: str, lang: str, paper: str | None = None) -> str:
        """The standalone HTML page, printing on ``paper``."""
        from pnp.books.compose import PAPERS

        return _html(kind, game, lang, paper or PAPERS[kind][0])


@pytest.fixture(scope="session")
def bookshelf() -> Books:
    """The bundled rulebooks and cards, shared by the whole test run (see :class:`Books`)."""
    return Books()
