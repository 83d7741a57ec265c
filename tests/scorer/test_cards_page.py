"""Cards written as each language's players write them, on Kwingto's scorer page and its
fillable sheet (one script): the page's hint names the letters, the page reads them and no
other language's, and it exports the calculator's notation, the same in every language.

The letters (hand-checked, not read from the code): Spanish writes ♠ P (picas), ♥ C
(corazones), ♦ D (diamantes), ♣ T (tréboles) and the face cards J Q K A; French ♠ P (pique),
♥ C (cœur), ♦ K (carreau), ♣ T (trèfle) and V D R A (valet, dame, roi, as); English S H D C
and J Q K A. A suit's symbol reads in every language.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import quickjs

import pnp
from browser import need_driver
from pnp.definitions import load
from pnp.games.kwingto.texts import notation
from pnp.i18n.catalogues import translator
from pnp.scorer import page as scorer

JS = Path(__file__).parents[1] / "js"
RULES = load("kwingto")

READ = {
    "es": {"7C": "7H", "7c": "7H", "9P": "9S", "10d": "10D", "AT": "AC", "QP": "QS",
           "Q♦": "QD", " 10 ♥ ": "10H", "KC": "KH", "9H": None, "AS": None, "10K": None,
           "XZ": None, "C": None},
    "fr": {"7C": "7H", "9P": "9S", "10K": "10D", "DK": "QD", "RC": "KH", "VT": "JC",
           "AP": "AS", "D♦": "QD", "QH": None, "10D": None, "JS": None, "KC": None},
    "en": {"7C": "7C", "9S": "9S", "10H": "10H", "q♦": "QD", "AS": "AS", "9P": None,
           "DK": None, "7T": None},
}
"""Cards as a player of each language writes them, and the card each is (None: none)."""


def page_script(lang: str) -> quickjs.Context:
    context = quickjs.Context()
    context.set_time_limit(60)
    context.eval(scorer.script("kwingto", lang))
    return context


def js_card(context: quickjs.Context, text: str, own: bool = False) -> str | None:
    found = context.eval(f"(function (c) {{ return c && c.rank + c.suit; }})"
                         f"(pnp_card({json.dumps(text)}, {json.dumps(own)}))")
    return None if found is None else str(found)


@pytest.mark.parametrize("lang", list(READ))
def test_python_and_the_page_read_the_same_cards(lang: str) -> None:
    """Each written card is the card a player of the language means, in the page's script
    and in Python's notation alike; the deck's own notation (the calculator's) is English."""
    context = page_script(lang)
    written = notation(RULES.deck, translator(lang, "kwingto"))
    for text, card in READ[lang].items():
        python = written.card(text)
        assert (None if python is None else str(python)) == card, (lang, text)
        assert js_card(context, text) == card, (lang, text)
    for text, card in READ["en"].items():
        assert js_card(context, text, own=True) == card, (lang, text)
        assert (None if (c := RULES.deck.card(text)) is None else str(c)) == card, text


def test_a_spanish_board_exports_the_calculators_notation() -> None:
    """Typed in Spanish, exported as the calculator reads it (scored the same by
    ``pnp.score``), and imported back as a Spanish player writes it."""
    context = page_script("es")
    v = {"card_1_1": "7C", "card_1_2": "9c", "card_1_3": "JC", "card_2_1": "2P",
         "card_3_5": "AT"}
    state = {"players": [{"name": "", "v": v}], "current": 0}
    [done] = json.loads(context.eval(f"page_batch({json.dumps(json.dumps([state]))})"))
    exported = done["exported"]
    assert exported["rows"] == [["7H", "9H", "JH", None, None], ["2S", None, None, None, None],
                                [None, None, None, None, "AC"]]
    # Rows of 3, 1 and 1 cards, a point each; no column complete.
    assert done["result"]["players"][0]["total"] == 5 == pnp.score("kwingto", exported).total
    [back] = json.loads(context.eval(
        f"page_import_batch({json.dumps(json.dumps([exported]))})"))
    assert {k: t for k, t in back["state"]["players"][0]["v"].items() if t} == {
        "card_1_1": "7C", "card_1_2": "9C", "card_1_3": "JC", "card_2_1": "2P",
        "card_3_5": "AT"}


def test_each_page_reads_its_own_letters_and_lays_its_sum_out(tmp_path: Path) -> None:
    """In Spanish, French and English: the hint shows the language's letters, ``7C`` is
    read in the page's language (hearts, hearts, clubs), ``9P`` is spades where P is a
    letter, a letter only English writes is refused in words that list the page's own, and
    no two labels of the sum overlap at phone or desktop width."""
    chromium = need_driver()
    pages = {}
    for lang in ("es", "fr", "en"):
        pages[lang] = (tmp_path / f"kwingto-{lang}.html")
        pages[lang].write_bytes(scorer.render("kwingto", lang))
    plan = {"pages": {lang: path.as_uri() for lang, path in pages.items()},
            "typed": [["players/0/v/card_1_1", "7C"], ["players/0/v/card_2_1", "9P"],
                      ["players/0/v/card_3_1", "9H"]],
            "sizes": [[390, 844], [1280, 900]]}
    (tmp_path / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    done = subprocess.run(["node", str(JS / "cards-page.mjs"), chromium,
                           str(tmp_path / "plan.json")], capture_output=True, text=True,
                          check=False, timeout=600, cwd=JS)
    assert done.returncode == 0, done.stdout + done.stderr
    seen: dict[str, Any] = json.loads(done.stdout)
    nbsp = "\u00a0"
    es, fr, en = seen["es"], seen["fr"], seen["en"]
    for lang in seen:
        assert seen[lang]["errors"] == [], seen[lang]
        assert seen[lang]["overlaps"] == {"390x844": [], "1280x900": []}, (lang, seen[lang])
    assert "10C, AP, Q♦" in es["hint"], es["hint"]
    assert f"P{nbsp}♠, C{nbsp}♥, D{nbsp}♦, T{nbsp}♣" in es["hint"] and "J, Q, K, A" in es["hint"]
    assert "10C, AP, D♦" in fr["hint"], fr["hint"]
    assert f"P{nbsp}♠, C{nbsp}♥, K{nbsp}♦, T{nbsp}♣" in fr["hint"] and "V, D, R, A" in fr["hint"]
    assert "10H, AS, Q♦" in en["hint"], en["hint"]
    assert es["suits"] == ["♥", "♠", ""] and fr["suits"] == ["♥", "♠", ""], (es, fr)
    assert en["suits"] == ["♣", "", "♥"], en
    for lang, letters in (("es", f"P{nbsp}♠, C{nbsp}♥, D{nbsp}♦, T{nbsp}♣"),
                          ("fr", f"P{nbsp}♠, C{nbsp}♥, K{nbsp}♦, T{nbsp}♣")):
        assert seen[lang]["invalid"] == ["players/0/v/card_3_1"], seen[lang]
        refusal = [f for f in seen[lang]["faults"] if "9H" in f]
        assert len(refusal) == 1 and letters in refusal[0], seen[lang]["faults"]
    assert en["invalid"] == ["players/0/v/card_2_1"], en
    assert any("'9P' is not a card" in f for f in en["faults"]), en["faults"]
