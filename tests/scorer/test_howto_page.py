"""The scorer pages' "How to score" and Qwinto's orientation, on a phone (issue 25, defect 13).

One Chromium run opens every game's page in every language at 390×844: the panel is there in
the page's language, holds the very text of the reference card's sections it names, fits one
screen, is open on a first visit and closed on the next, and stays open once a player opens
it. On Qwinto's upright sheet the columns are numbered beside the boxes, and every place a
message cites (a box, a column) is one the page shows in the same words.
"""

from __future__ import annotations

import re
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import pnp
from browser import need_driver
from pnp.books.compose import compose
from pnp.scorer import page as scorer
from scorer.test_view_page import browse

JS = Path(__file__).parents[1] / "js"
LANGS = ("en", "es", "fr")
PHONE = (390, 844)

TITLES = {"en": "How to score", "es": "Cómo se puntúa", "fr": "Comment compter les points"}
"""The panel's title, as a player reads it in each language."""

SECTIONS = {"qwinto": (3, 4, 5), "kwingto": (4,), "spectacle": (4,), "xactika": (4,),
            "ronda": (2, 3)}
"""The reference card's sections (the first is 1) that tell how to score: Qwinto's placing,
end and scoring; Kwingto's scoring; Spectacle's end and scoring; Xactika's modes and scoring;
Ronda's calls, and caída and mesa."""

QWINTO_TYPED = [("players/0/v/orange_1", "5"), ("players/0/v/yellow_2", "5"),
                ("players/0/v/orange_2", "4")]
"""Orange's first box (column 3) and yellow's second (column 3 too) hold the same number, and
orange's second box (column 4) is lower than its first."""

QWINTO_FIRST_COLUMNS = {"orange": 3, "yellow": 2, "purple": 1}
"""The column of each row's first box, as the paper sheet staggers them."""


class _Sections(HTMLParser):
    """The text of each of a card page's top sections, by number (0: before the first)."""

    def __init__(self) -> None:
        super().__init__()
        self.inside, self.section, self.texts = False, 0, defaultdict[int, str](str)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.inside = self.inside or tag == "main"
        self.section += self.inside and tag == "h1"

    def handle_endtag(self, tag: str) -> None:
        self.inside = self.inside and tag != "main"

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.texts[self.section] += data


def _card_text(game: str, lang: str, sections: tuple[int, ...]) -> str:
    """The text of the card's ``sections``, read from the card's page: every character,
    white space aside."""
    card = _Sections()
    card.feed(compose("card", game, lang).html)
    return _plain("".join(card.texts[n] for n in sections))


def _plain(text: str) -> str:
    return "".join(text.split())


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], dict[str, Any]]:
    """Each page at phone size: the panel on the first visit, on the next one, and after a
    player opens it and reloads; on Qwinto, the sheet once the boxes are typed."""
    chromium = need_driver()
    folder = tmp_path_factory.mktemp("howto")
    pages, keys = [], []
    toggle = {"tap": "details.howto summary"}
    for game in pnp.GAMES:
        for lang in LANGS:
            path = folder / f"{game}-{lang}.html"
            path.write_bytes(scorer.render(game, lang))
            steps: list[dict[str, Any]] = [
                {"read": "howto", "as": "first"}, {"read": "lang"},
                {"read": "barBottom", "as": "bar"}, {"read": "scrollWidth"},
                {"reload": True}, {"read": "howto", "as": "again"},
                toggle, {"reload": True}, {"read": "howto", "as": "reopened"}, toggle]
            if game == "qwinto":
                steps += [{"type": f'[data-path="{at}"]', "text": text}
                          for at, text in QWINTO_TYPED]
                steps += [{"scroll": 0}, {"read": "qwinto"}]
            pages.append({"url": path.as_uri(), "viewport": PHONE, "steps": steps})
            keys.append((game, lang))
    return dict(zip(keys, browse(chromium, pages, folder), strict=True))


@pytest.mark.parametrize("game", pnp.GAMES)
def test_each_page_says_how_to_score_in_its_cards_words(
        game: str, seen: dict[tuple[str, str], dict[str, Any]]) -> None:
    for lang in LANGS:
        page = seen[game, lang]
        first, bar = page["first"], page["bar"]
        assert first is not None, (game, lang)
        assert page["lang"] == lang
        assert first["title"] == TITLES[lang]
        assert _plain(first["text"]) == _card_text(game, lang, SECTIONS[game]), (game, lang)
        # open on a first visit, within one screen under the page's bar, never wider
        assert first["open"]
        assert first["top"] >= bar and first["bottom"] <= PHONE[1], (game, lang, first)
        assert page["scrollWidth"] <= PHONE[0]
        assert first["wider"] == 0, (game, lang, first["wider"])  # its tables fit it too
        assert not page["again"]["open"]
        assert page["reopened"]["open"]


def test_qwinto_upright_sheet_numbers_its_columns_and_messages_cite_what_it_shows(
        seen: dict[tuple[str, str], dict[str, Any]]) -> None:
    for lang in LANGS:
        sheet = seen["qwinto", lang]["qwinto"]
        numbers = {int(n["text"]): n for n in sheet["numbers"]}
        assert sorted(numbers) == list(range(1, 13)), lang
        boxes = {b["at"].rsplit("/", 1)[1]: b for b in sheet["boxes"]}
        labels = {b["label"]: b for b in sheet["boxes"]}

        def column_of(box: dict[str, Any], numbers: dict[int, Any] = numbers) -> int:
            """The number shown on the box's line (upright: the rows run down the screen)."""
            across = [n for n, shown in numbers.items()
                      if shown["top"] <= box["y"] <= shown["bottom"]]
            assert len(across) == 1, (box, across)
            return across[0]

        # the rows run from the top down: each row's first box is on its column's line, and
        # every later box lower than the one before
        for colour, column in QWINTO_FIRST_COLUMNS.items():
            assert column_of(boxes[f"{colour}_1"]) == column, (lang, colour)
            ys = [boxes[f"{colour}_{n}"]["y"] for n in range(1, 10)]
            assert ys == sorted(ys), (lang, colour)
        assert sheet["faults"], lang
        for message in sheet["faults"]:
            cited = [label for label in labels if label in message]
            assert cited, (lang, message)
            for label in cited:  # a box is named by the column it stands on
                assert column_of(labels[label]) == int(re.findall(r"\d+", label)[-1]), label
            rows = {labels[label]["at"].rsplit("/", 1)[1].split("_")[0] for label in cited}
            stood = {column_of(box) for at, box in boxes.items() if at.split("_")[0] in rows}
            for found in re.finditer(r"\b(?:column|columna|colonne) (\d+)", message):
                # every column cited is one the cited row has a box on, as the numbers show
                assert int(found[1]) in stood, message
        assert any(re.search(r"\b(?:column|columna|colonne) 3\b", m) for m in sheet["faults"])
