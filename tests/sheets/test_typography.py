"""French typography in every sheet, as extracted from the PDF: whatever the text came from
(a catalogue, a definition's own words, a line broken to fit), a narrow no-break space
stands before ; : ! ? and » and after «."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pdfcheck import page_of
from pnp.definitions import GAMES
from pnp.sheets.layout import layouts, render

SHEETS = [(game, kind) for game in GAMES for kind in layouts(game)]


def unspaced(chars: Sequence[str]) -> list[str]:
    """Each French mark in ``chars`` (a PDF's characters in the order drawn) without its
    narrow space, with the characters around it."""
    found = []
    for i, c in enumerate(chars):
        before = chars[i - 1] if i else ""
        after = chars[i + 1] if i + 1 < len(chars) else ""
        missing = (c in ";!?»" or (c == ":" and not before.isdigit())) and before != "\u202f"
        if missing or (c == "«" and after != "\u202f"):
            found.append("".join(chars[max(0, i - 12):i + 4]))
    return found


@pytest.mark.parametrize(("game", "kind"), SHEETS)
def test_french_sheets_keep_a_narrow_space_at_each_mark(game: str, kind: str) -> None:
    page = page_of(render(game, kind=kind, lang="fr"))
    assert unspaced([c["text"] for c in page.chars]) == []
