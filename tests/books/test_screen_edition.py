"""The HTML edition of a rulebook as a browser shows it, measured in headless Chromium."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from browser import need_driver
from scorer.test_scorer import VIEWPORTS
from scorer.test_view_page import browse

if TYPE_CHECKING:
    from conftest import Books

ENTRY = 24.0
"""The step from one contents entry to the next on screen, in CSS pixels: a line of the
screen's text (16 px at a line height of 1.5)."""


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_the_contents_are_one_list_on_a_screen(bookshelf: Books, tmp_path: Path,
                                               viewport: str) -> None:
    """Print sets a book's contents in two lists side by side; a screen shows them as one,
    each entry a line below the one before, with no gap where print's second list starts."""
    page = tmp_path / "qwinto-rulebook.html"
    page.write_text(bookshelf.html("rulebook", "qwinto", "en"), encoding="utf-8")
    plan = [{"url": page.as_uri(), "viewport": VIEWPORTS[viewport], "ready": ".toc",
             "steps": [{"read": "rows", "of": ".toc li", "as": "entries"},
                       {"read": "rows", "of": ".toc ol", "as": "lists"}]}]
    seen = browse(need_driver(), plan, tmp_path)[0]
    assert len(seen["lists"]) == 2  # print's two lists are there
    tops = [entry["top"] for entry in seen["entries"]]
    steps = {round(below - above, 1) for above, below in itertools.pairwise(tops)}
    assert steps == {ENTRY}, steps
