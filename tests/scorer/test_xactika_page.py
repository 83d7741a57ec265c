"""Xactika's scorer page in Chromium, filled in as players fill it in at the table: the rule
the ranking states for each mode, the first dealer's list and each hand's dealer as names are
typed, and the dealer's forbidden bid and a hand's wrong trick count each said once, the moment
the box that makes them is typed.

The pages are driven by ``tests/js/scorer-view.mjs``, one browser for the module's three pages:
each test's steps are run there, what the page shows read after each, and asserted here. Every
expected text is written here by hand from the rules (``rules/xactika.yaml``) and the
catalogues' words.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from browser import need_driver
from pnp.scorer import page as scorer
from scorer.test_scorer import VIEWPORTS, at
from scorer.test_view_page import browse


def tap(selector: str) -> dict[str, Any]:
    return {"click": selector}


def typed(path: str, text: str) -> dict[str, Any]:
    """The box of ``path`` tapped, emptied and ``text`` typed into it."""
    return {"type": at(path), "text": text}


def texts(key: str, selector: str) -> dict[str, Any]:
    return {"read": "texts", "of": selector, "as": key}


def attributes(key: str, selector: str, name: str) -> dict[str, Any]:
    return {"read": "attributes", "of": [selector, name], "as": key}


def note(key: str) -> dict[str, Any]:
    return texts(key, "#board .note.win")


def dealers(key: str) -> dict[str, Any]:
    return texts(key, "[data-dealer]")


def faults(key: str) -> dict[str, Any]:
    return texts(key, "#problems li")


def invalid(key: str) -> dict[str, Any]:
    return attributes(key, '[aria-invalid="true"]', "data-at")


NAMES = [typed(f"v/name_{seat}", name)
         for seat, name in enumerate(["Ana", "Bea", "Cris", "Dani"], start=1)]

BID_GAME = [
    note("no_mode"), texts("dealer_list", '[data-path="first_dealer"] option'),
    dealers("dealers"),
    tap('[data-mode="win"]'), note("win"),
    tap('[data-mode="lose"]'), note("lose"),
    tap('[data-mode="bid"]'), note("bid"),
    *NAMES,
    texts("named_list", '[data-path="first_dealer"] option'),
    attributes("bid_label", '[data-path="v/bid_1_2"]', "aria-label"),
    {"select": at("first_dealer"), "value": "2"}, dealers("named_dealers"),
    *[typed(f"v/bid_1_{seat}", "2") for seat in (4, 1, 2)], faults("three_bids"),
    typed("v/bid_1_3", "2"), faults("dealer_bid"), invalid("dealer_bid_boxes"),
    typed("v/bid_1_3", "1"), faults("bids_fixed"), invalid("bids_fixed_boxes"),
    *[typed(f"v/tricks_1_{seat}", taken) for seat, taken in ((4, "1"), (1, "2"), (2, "2"))],
    typed("v/tricks_1_3", "2"), faults("tricks"), invalid("tricks_boxes"),
    typed("v/tricks_1_3", "3"), faults("tricks_fixed"),
    texts("who", "#board .rank .who"), texts("points", "#board .rank .points"),
    tap('[data-act="export"]'), {"read": "value", "of": "#export-text", "as": "exported"},
    tap("#export-dialog [data-close]"),
    tap('[data-mode="win"]'), faults("bids_left"),
]
"""A bid game's first hand, typed as test_a_bid_game_filled_in_hand_by_hand asserts it."""

IN_LANGUAGE = [
    note("note"), texts("dealer_list", '[data-path="first_dealer"] option'),
    dealers("dealers"),
    tap('[data-mode="bid"]'), note("bid"),
    attributes("box", '[data-path="v/bid_1_1"]', "placeholder"),
    attributes("label", '[data-path="v/bid_1_1"]', "aria-label"),
    *NAMES, *[typed(f"v/bid_1_{seat}", "2") for seat in (2, 3, 4, 1)], faults("dealer"),
    *[typed(f"v/tricks_1_{seat}", "2") for seat in range(1, 5)],
    tap('[data-mode="win"]'), faults("bids_left"),
]
"""The steps of test_the_page_in_spanish_and_french."""


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """What each language's page showed along its steps (the browser raised no error)."""
    chromium = need_driver()
    folder = tmp_path_factory.mktemp("xactika")
    plans = []
    for lang, steps in (("en", BID_GAME), ("es", IN_LANGUAGE), ("fr", IN_LANGUAGE)):
        page = folder / f"xactika-{lang}.html"
        page.write_bytes(scorer.render("xactika", lang))
        plans.append({"url": page.as_uri(), "viewport": VIEWPORTS["phone"], "steps": steps})
    seen = browse(chromium, plans, folder)
    for one in seen:
        assert "missing" not in one, one["missing"]
    return dict(zip(("en", "es", "fr"), seen, strict=True))


def test_a_bid_game_filled_in_hand_by_hand(shown: dict[str, dict[str, Any]]) -> None:
    seen = shown["en"]
    # No mode yet: the ranking states what each mode makes win, as the rules define them.
    assert " ".join(seen["no_mode"]) == (
        "Play to win, Play to bid: the highest total wins. "
        "Play to lose: the lowest total wins."), seen["no_mode"]
    assert seen["dealer_list"] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert seen["dealers"][:5] == ["Player 1 deals", "Player 2 deals", "Player 3 deals",
                                   "Player 4 deals", "Player 1 deals"]
    assert " ".join(seen["win"]) == "Take as many tricks as you can; the highest total wins."
    assert " ".join(seen["lose"]) == "Take as few tricks as you can; the lowest total wins."
    assert " ".join(seen["bid"]) == (
        "Take exactly the tricks you bid in each hand; the highest total wins.")

    # The names are in the list at once, and in every box's name.
    assert seen["named_list"] == ["Ana", "Bea", "Cris", "Dani"]
    assert seen["bid_label"] == ["Hand 1, bid of Bea"]
    assert seen["named_dealers"][:5] == ["Cris deals", "Dani deals", "Ana deals", "Bea deals",
                                         "Cris deals"]

    # Cris deals hand 1, so bids last: the bid that makes the bids add up to 8 is refused as
    # it is typed, once, on Cris's box.
    assert seen["three_bids"] == []
    assert seen["dealer_bid"] == ["hand 1: bids add up to 8; Cris, the dealer, may not bid 2"]
    assert "v/bid_1_3" in seen["dealer_bid_boxes"]
    assert seen["bids_fixed"] == [] and seen["bids_fixed_boxes"] == []

    # Tricks that add up to 7: said once, when the last count is typed.
    assert seen["tricks"] == ["hand 1, tricks: they add up to 7, but a hand has 8"]
    assert {f"v/tricks_1_{seat}" for seat in range(1, 5)} <= set(seen["tricks_boxes"])
    assert seen["tricks_fixed"] == []
    # Ana and Bea made their bids (2 each), Cris bid 1 and took 3 (-2), Dani bid 2 took 1 (-1).
    assert seen["who"] == ["Ana", "Bea", "Dani", "Cris"]
    assert seen["points"] == ["2", "2", "\u22121", "\u22122"]

    # The export names the dealers the page shows.
    exported = json.loads(seen["exported"])
    assert [hand["dealer"] for hand in exported["hands"]] == ["Cris"]

    # Bids left on the sheet after the mode turned to one without them: a sentence, once.
    assert seen["bids_left"] == ["hand 1: there are no bids in Play to win; clear them"]


@pytest.mark.parametrize(("lang", "words"), [
    ("es", {"note": "Jugar para ganar, Jugar para pujar: gana el total más alto. "
                    "Jugar para perder: gana el total más bajo.",
            "bid": "Hacer justo las bazas que pujaste en cada mano; gana el total más alto.",
            "player": "Jugador 1", "deals": "Jugador 2 reparte", "box": "puja",
            "label": "Mano 1, puja de Jugador 1",
            "dealer": "mano 1: las pujas suman 8; Ana, que reparte, no puede pujar 2",
            "bids_left": "mano 1: en Jugar para ganar no se puja; borra las pujas"}),
    ("fr", {"note": "Jouer pour gagner, Jouer aux annonces\u202f: le total le plus haut gagne. "
                    "Jouer pour perdre\u202f: le total le plus bas gagne.",
            "bid": "Remportez exactement le nombre de plis annoncé à chaque manche\u202f; "
                   "le total le plus haut gagne.",
            "player": "Joueur 1", "deals": "Joueur 2 distribue", "box": "annonce",
            "label": "Manche 1, annonce de Joueur 1",
            "dealer": "manche 1\u202f: les annonces totalisent 8\u202f; Ana, le donneur, "
                      "ne peut pas annoncer 2",
            "bids_left": "manche 1\u202f: il n\u2019y a pas d\u2019annonces en mode "
                         "Jouer pour gagner\u202f; effacez-les"}),
])
def test_the_page_in_spanish_and_french(shown: dict[str, dict[str, Any]], lang: str,
                                        words: dict[str, str]) -> None:
    """The same rules in the page's language, a bid in one word (the glossary's)."""
    seen = shown[lang]
    assert " ".join(seen["note"]) == words["note"]
    assert seen["dealer_list"][0] == words["player"]
    assert seen["dealers"][1] == words["deals"]
    assert " ".join(seen["bid"]) == words["bid"]
    assert seen["box"] == [words["box"]]
    assert seen["label"] == [words["label"]]
    assert seen["dealer"] == [words["dealer"]]
    # bids left in a mode without them: the mode named as the page shows it, in its language
    assert seen["bids_left"] == [words["bids_left"]]
