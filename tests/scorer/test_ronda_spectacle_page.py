"""Ronda's and Spectacle's scorer pages as a player meets them: a page not yet filled in marks
nothing, and once a deal or a position is being typed only what is wrong is marked, each mark
with its reason in a sentence of the page's language (French with its space before a colon).

The fresh pages are read from the DOM headless Chromium leaves (``browser.dumped_dom``), the
pages reopened on a kept game through ``tests/js/scorer-view.mjs``, and the typed ones are
driven by ``tests/js/scorer.mjs``. Every expected text is written here by hand
from the catalogues' words.
"""

from __future__ import annotations

import html.parser
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import quickjs
from languages import published

import pnp
from browser import dumped_dom, need_chromium
from pnp.scorer import page as scorer
from scorer.test_view_page import browse as browse_pages

JS = Path(__file__).parents[1] / "js"
PHONE = (390, 844)


class Marks(html.parser.HTMLParser):
    """What a page shows as marked: boxes in red, and the "!" of a total that cannot be
    worked out (a tab's, the tally's, the ranking's)."""

    SHOWN = ("data-out", "data-total")

    def __init__(self) -> None:
        super().__init__()
        self.red: list[str] = []
        self.bangs: list[str] = []
        self.problems_hidden = False
        self._open: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = dict(attrs)
        classes = (given.get("class") or "").split()
        if "bad" in classes or given.get("aria-invalid") == "true":
            self.red.append(given.get("data-at") or tag)
        if given.get("id") == "problems":
            self.problems_hidden = "hidden" in given
        watched = next((f"{key}={given[key]}" for key in self.SHOWN if key in given), None)
        if "points" in classes:
            watched = "ranking"
        if tag not in ("input", "br", "img", "link", "meta", "path"):
            self._open.append(watched)

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("input", "br", "img", "link", "meta", "path") and self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if data.strip() == "!" and self._open and self._open[-1]:
            self.bangs.append(self._open[-1])


@pytest.mark.parametrize(("game", "lang"), published(games=("ronda", "spectacle")))
def test_a_fresh_page_marks_nothing(game: str, lang: str, tmp_path: Path) -> None:
    """Nothing typed yet: no "!" on a tab, the tally or the ranking, no box in red, and no
    list of things to fix."""
    page = tmp_path / f"{game}-{lang}.html"
    page.write_bytes(scorer.render(game, lang))
    marks = Marks()
    marks.feed(dumped_dom(page, tmp_path / "profile"))
    assert marks.bangs == [] and marks.red == [], (marks.bangs, marks.red)
    assert marks.problems_hidden


def holdings(name: str, chips: str = "") -> dict[str, Any]:
    return {"name": name, "nobles": [], "claimed": [], "reserved": ["", "", ""],
            "chips": [chips, "", "", "", ""], "turns": ""}


def kept_page(game: str, state: dict[str, Any], folder: Path) -> Marks:
    """The marks of ``game``'s English page opened on ``state``, as kept on the device by an
    earlier visit."""
    page = folder / f"{game}.html"
    page.write_bytes(scorer.render(game, "en"))
    steps = [{"store": f"pnp-scorer:{game}", "value": json.dumps(state)}, {"reload": True},
             {"read": "dom"}]
    seen = browse_pages(need_chromium(), [{"url": page.as_uri(), "viewport": PHONE,
                                           "steps": steps}], folder)
    marks = Marks()
    marks.feed(seen[0]["dom"])
    return marks


@pytest.mark.parametrize(("state", "bangs", "red"), [
    # two sheets named alike, nothing else typed: not a position yet
    ({"players": [holdings("Ana"), holdings("Ana")], "end": "", "current": 0}, [], []),
    # a chip of 4 on Ana's sheet: her tab and her tally say "!", the ranking cannot be worked out
    ({"players": [holdings("Ana", "4"), holdings("Bea")], "end": "", "current": 0},
     ["data-total=0", "data-out=total", "ranking", "ranking"], ["players/0/chips/0"]),
    # the same shown on Bea's sheet: nothing of hers is marked
    ({"players": [holdings("Ana", "4"), holdings("Bea")], "end": "", "current": 1},
     ["data-total=0", "ranking", "ranking"], []),
])
def test_a_mark_is_where_the_fault_is(state: dict[str, Any], bangs: list[str], red: list[str],
                                      tmp_path: Path) -> None:
    """Spectacle's sheets: a "!" on a player's tab and tally only for a fault on that player's
    sheet, and none before a position is typed."""
    marks = kept_page("spectacle", state, tmp_path)
    assert (marks.bangs, marks.red) == (bangs, red)
    assert marks.problems_hidden == (not bangs)


def at(path: str) -> str:
    return f'[data-path="{path}"]'


def act(name: str, arg: object = None) -> str:
    return f'[data-act="{name}"]' + ("" if arg is None else f'[data-arg="{arg}"]')


def browse(page: Path, steps: list[dict[str, Any]], bad: list[dict[str, Any]],
           folder: Path) -> dict[str, Any]:
    plan = {"url": page.as_uri(), "viewport": PHONE, "shots": None, "name": page.stem,
            "steps": steps, "bad": bad}
    (folder / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    done = subprocess.run(["node", str(JS / "scorer.mjs"), need_chromium(),
                           str(folder / "plan.json"), str(folder / "seen.json")],
                          capture_output=True, text=True, check=False, timeout=600, cwd=JS)
    assert done.returncode == 0, done.stdout + done.stderr
    seen: dict[str, Any] = json.loads((folder / "seen.json").read_text(encoding="utf-8"))
    assert seen["errors"] == [], seen["errors"]
    return seen


NNBSP = "\u202f"

CASES = {
    # (language, names typed twice the same, then the typing into a deal or a position, the
    #  one reason shown, the one box in red)
    "ronda": ("fr",
              [{"type": at("players/0"), "text": "Ana"}, {"type": at("players/1"), "text": "Ana"}],
              [{"type": at("players/1"), "text": "Bea"},
               {"click": act("call-add", "0/0")}],
              [f"tour 1, ronda annoncée par Ana{NNBSP}: choisissez sa valeur"],
              ["deals/0/rounds/0/calls/0/rank"]),
    "spectacle": ("es",
                  [{"click": act("tab", 0)}, {"type": at("players/0/name"), "text": "Ana"},
                   {"click": act("tab", 1)}, {"type": at("players/1/name"), "text": "Ana"}],
                  [{"type": at("players/1/name"), "text": "Bea"},
                   {"click": act("tab", 0)}, {"click": act("noble-add")},
                   {"click": act("claim-add")},
                   {"type": at("players/0/chips/0"), "text": "4"}],
                  ["Ana: ficha 1: no hay fichas de 4 (las fichas son 1, 2, 5, 10)"],
                  ["players/0/chips/0"]),
}


@pytest.mark.parametrize("game", list(CASES))
def test_only_what_is_wrong_is_marked_with_its_reason(game: str, tmp_path: Path) -> None:
    """Names alone (the same one twice) mark nothing yet; then, typing into a deal or a
    position: a line just added and left empty is no fault, one half filled in asks for what
    it lacks, a wrong value says why, in the page's language; each reason's box is marked."""
    lang, names, typed, reasons, boxes = CASES[game]
    page = tmp_path / f"{game}-{lang}.html"
    page.write_bytes(scorer.render(game, lang))
    seen = browse(page, names, typed, tmp_path)
    named = seen["typed"]
    assert "!" not in named["totals"].values(), named
    assert named["faults"] == [] and named["invalid"] == [], named
    wrong = seen["bad"]
    assert wrong["faults"] == reasons, wrong
    assert set(boxes) <= set(wrong["invalid"]), wrong


def ronda_faults(lang: str, rounds: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The faults Ronda's page finds in a first deal of Ana and Bea holding ``rounds``."""
    context = quickjs.Context()
    context.eval(scorer.script("ronda", lang))
    state = json.loads(context.eval("JSON.stringify(PAGE.blank())"))
    state["players"] = ["Ana", "Bea"]
    state["deals"][0]["rounds"][:len(rounds)] = rounds
    shown = json.loads(context.get("page_batch")(json.dumps([state])))
    faults: list[dict[str, str]] = shown[0]["result"]["faults"]
    return faults


CALL = {"player": 0, "type": "call", "kind": "ronda", "rank": ""}
PLAY = {"player": 1, "caida": "", "mesa": False}


@pytest.mark.parametrize(("lang", "rounds", "fault"), [
    ("en", [{"calls": [CALL], "plays": []}],
     {"at": "deals/0/rounds/0/calls/0/rank", "message": "round 1, Ana’s ronda: choose its rank"}),
    ("fr", [{"calls": [{**CALL, "kind": "tringa"}], "plays": []}],
     {"at": "deals/0/rounds/0/calls/0/rank",
      "message": f"tour 1, tringa annoncée par Ana{NNBSP}: choisissez sa valeur"}),
    ("es", [{"calls": [], "plays": []}, {"calls": [], "plays": [PLAY]}],
     {"at": "deals/0/rounds/1/plays/0/caida",
      "message": "vuelta 2, jugada de Bea: elige su caída o marca mesa"}),
    ("fr", [{"calls": [], "plays": [PLAY]}],
     {"at": "deals/0/rounds/0/plays/0/caida",
      "message": f"tour 1, coup qui marque joué par Bea{NNBSP}: choisissez son cone ou "
                 "cochez missa"}),
])
def test_a_line_left_unfinished_asks_for_what_it_lacks(
        lang: str, rounds: list[dict[str, Any]], fault: dict[str, str]) -> None:
    """A call without its rank, a scoring play with neither a caída nor a mesa: the page asks
    for what is missing, in a sentence, at the box to fill in."""
    assert ronda_faults(lang, rounds) == [fault]


def test_a_call_that_needs_no_rank_is_no_fault() -> None:
    """A false call has no rank, a holding not announced may go without one; a call of no
    combination the game has (from a file) is refused as the engine refuses it."""
    rounds = [{"calls": [{**CALL, "type": "bluff"}, {**CALL, "player": 1, "type": "hidden"}],
               "plays": []}]
    assert ronda_faults("en", rounds) == []
    rounds = [{"calls": [{**CALL, "kind": "pair"}], "plays": []}]
    assert ronda_faults("en", rounds) == [
        {"at": "deals/0/rounds/0/calls/0",
         "message": "round 1, call 1: expected ronda or tringa, got 'pair'"}]


def spectacle_page(state: dict[str, Any]) -> dict[str, Any]:
    """Spectacle's page on ``state`` (English): what it shows and what it exports."""
    context = quickjs.Context()
    context.eval(scorer.script("spectacle", "en"))
    shown: dict[str, Any] = json.loads(context.get("page_batch")(json.dumps([state])))[0]
    return shown


def test_lines_left_blank_are_no_holding() -> None:
    """A noble's and a claim's line added and left blank are left out of the export, which
    ``pnp score`` reads; a fault after a blank line is still placed on its own box."""
    ana = {**holdings("Ana", "5"), "nobles": [{"noble": "", "bonus": ""}], "claimed": [" "]}
    state = {"players": [ana, holdings("Bea")], "end": "", "current": 0}
    shown = spectacle_page(state)
    assert shown["result"]["faults"] == []
    assert shown["exported"] == {"players": {"Ana": {"reserved": [], "chips": [5]},
                                             "Bea": {"reserved": []}}}
    assert pnp.score("spectacle", shown["exported"]).totals == {"Ana": 0, "Bea": 0}
    ana["nobles"].append({"noble": "7S", "bonus": ""})
    shown = spectacle_page(state)
    assert [f["at"] for f in shown["result"]["faults"]] == ["players/0/nobles/1/noble"]
