"""Player and team names that look like another's, or like nothing, are refused alike by
``pnp score`` and by the scorer pages.

A name is read composed (Unicode NFC): ``José`` typed as one letter ``é`` or as ``e`` and
an accent is one name, and its 40 characters are counted composed. It must hold a letter
or a digit, and nothing that shows nothing (format characters, Unicode's default-ignorable
code points such as the Hangul fillers, the blank braille pattern). Each hostile name
below goes through the real command and through every game's page model in QuickJS, the
refusal written here by hand (escapes as Python's ``repr`` writes them); then generated
names go through both, which must agree on every one, word for word.
"""

from __future__ import annotations

import html
import json
import random
import unicodedata
from pathlib import Path
from typing import Any

import pytest
import quickjs

import pnp
from browser import dumped_dom
from pnp.errors import PnpError
from pnp.scorer import page as scorer
from refusal import assert_refused
from refusal import pnp as run_pnp

SHEET = {"rows": {c: [None] * 9 for c in ("orange", "yellow", "purple")}}
BOARD = {"rows": [[None] * 5] * 3}
NFC = "Jos\u00e9"
NFD = "Jose\u0301"

# (what, the second player's name beside "Ana", the refusal's words)
HOSTILE: list[tuple[str, str, str]] = [
    ("zero-width joiner", "A\u200dna",
     "players: name 2: 'A\\u200dna' has an invisible character (U+200D)"),
    ("zero-width non-joiner", "Bea\u200c",
     "players: name 2: 'Bea\\u200c' has an invisible character (U+200C)"),
    ("zero-width space", "Be\u200ba",
     "players: name 2: 'Be\\u200ba' has an invisible character (U+200B)"),
    ("soft hyphen", "Be\u00ada",
     "players: name 2: 'Be\\xada' has an invisible character (U+00AD)"),
    ("Hangul filler", "\u3164",
     "players: name 2: '\\u3164' has an invisible character (U+3164)"),
    ("Hangul choseong filler", "\u115f",
     "players: name 2: '\\u115f' has an invisible character (U+115F)"),
    ("Hangul jungseong filler", "Bea\u1160",
     "players: name 2: 'Bea\\u1160' has an invisible character (U+1160)"),
    ("halfwidth Hangul filler", "\uffa0",
     "players: name 2: '\\uffa0' has an invisible character (U+FFA0)"),
    ("combining grapheme joiner", "Be\u034fa",
     "players: name 2: 'Be\\u034fa' has an invisible character (U+034F)"),
    ("variation selector", "Bea\ufe0f",
     "players: name 2: 'Bea\\ufe0f' has an invisible character (U+FE0F)"),
    ("Mongolian free variation selector", "Bea\u180b",
     "players: name 2: 'Bea\\u180b' has an invisible character (U+180B)"),
    ("Mongolian vowel separator", "Bea\u180e",
     "players: name 2: 'Bea\\u180e' has an invisible character (U+180E)"),
    ("blank braille pattern", "\u2800",
     "players: name 2: '\\u2800' has an invisible character (U+2800)"),
    ("tag letter", "Bea\U000e0041",
     "players: name 2: 'Bea\\U000e0041' has an invisible character (U+E0041)"),
    ("word joiner", "Be\u2060a",
     "players: name 2: 'Be\\u2060a' has an invisible character (U+2060)"),
    ("right-to-left override", "Bea\u202e",
     "players: name 2: 'Bea\\u202e' holds a control character (U+202E); a name is plain "
     "text on one line"),
    ("40 combining marks", "\u0301" * 40,
     "players: name 2: '" + "\\u0301" * 6 + "... has no letter or digit"),
    ("an accent on a hyphen", "-\u0301",
     "players: name 2: '-\\u0301' has no letter or digit"),
    ("punctuation only", "!!!", "players: name 2: '!!!' has no letter or digit"),
    ("a dragon only", "\U0001f409", "players: name 2: '\U0001f409' has no letter or digit"),
    ("NFD José twice", NFD, "players: José is given twice (names 1 and 2)"),
    ("41 composed characters, 51 typed", NFD * 10 + "x",
     "players: name 2: '" + NFD * 7 + "J... is longer than 40 characters"),
]
"""The second name, beside a first one that is fine: ``Ana``, or ``José`` composed when the
second is ``José`` too."""

FINE = ["Íñigo", NFD * 10, "Zoë", "김민준", "محمد", "Nguyễn", "李", "Ana 2", "O'Brien",
        "\U0001f409 Dragons", "__proto__", "हिन्दी"]
"""Names a person may well write: accents typed either way (``NFD * 10`` is 50 code points
typed, 40 composed), other scripts, a digit, an apostrophe, an emoji beside a word."""


def first(second: str) -> str:
    return NFC if second.startswith("Jose") else "Ana"


def qwinto(second: str) -> dict[str, Any]:
    return {"players": {first(second): SHEET, second: SHEET}}


# --- pnp score ------------------------------------------------------------------------------

@pytest.mark.parametrize(("second", "words"), [(n, w) for _, n, w in HOSTILE],
                         ids=[what for what, _, _ in HOSTILE])
def test_the_command_refuses_the_name(second: str, words: str) -> None:
    """As JSON (every character escaped) and as YAML written in UTF-8."""
    as_json = json.dumps(qwinto(second)).encode()
    assert_refused(run_pnp("score", "qwinto", "-", stdin=as_json), words)
    as_yaml = (f"players:\n  {json.dumps(first(second), ensure_ascii=False)}: "
               f"{json.dumps(SHEET)}\n  {json.dumps(second, ensure_ascii=False)}: "
               f"{json.dumps(SHEET)}\n").encode()
    run = run_pnp("score", "qwinto", "-", stdin=as_yaml)
    assert_refused(run)
    assert words in run.stderr or "invalid Unicode character" in run.stderr, run.stderr


def test_the_command_takes_names_of_any_script() -> None:
    data = {"players": {name: SHEET for name in FINE[:6]}}
    run = run_pnp("score", "qwinto", "-", "--json", stdin=json.dumps(data).encode())
    assert run.code == 0, run.stderr
    assert set(json.loads(run.stdout)["totals"]) == set(FINE[:6])


# Each engine reads names with the same function: one hostile name per game, as the
# game's own input holds it.
EACH_GAME: list[tuple[str, Any, str]] = [
    ("kwingto", {"players": {"!!!": BOARD, "Ana": BOARD}},
     "players: name 1: '!!!' has no letter or digit"),
    ("kwingto", {"players": {NFC: BOARD, " " + NFD: BOARD}},
     "players: José is given twice (names 1 and 2)"),
    ("xactika", {"mode": "win", "players": ["Ana", "A\u200dna"], "hands": []},
     "players: name 2: 'A\\u200dna' has an invisible character (U+200D)"),
    ("xactika", {"mode": "win", "players": [NFC, NFD], "hands": []},
     "players: José is given twice (names 1 and 2)"),
    ("ronda", {"players": ["Ana", "\u3164"]},
     "players: name 2: '\\u3164' has an invisible character (U+3164)"),
    ("ronda", {"players": [NFD, "Bea", NFC]}, "players: José is given twice (names 1 and 3)"),
    ("ronda", {"players": ["Ana", "Bea", "Carla", "Dani"],
               "teams": {"Norte": ["Ana", "Carla"], "\u2800": ["Bea", "Dani"]}},
     "teams: name 2: '\\u2800' has an invisible character (U+2800)"),
    ("ronda", {"players": ["Ana", "Bea", "Carla", "Dani"],
               "teams": {NFC: ["Ana", "Carla"], NFD: ["Bea", "Dani"]}},
     "teams: José is given twice (names 1 and 2)"),
    ("ronda", {"players": [NFD, "Bea", "Carla", "Dani"],
               "teams": {NFC: [NFD, "Carla"], "Sur": ["Bea", "Dani"]}},
     "teams: José is both a team and a player"),
    ("spectacle", {"players": {"Ana": {}, "\uffa0": {}}},
     "players: name 2: '\\uffa0' has an invisible character (U+FFA0)"),
    ("spectacle", {"players": {"Ana": {}, "\u0301\u0301": {}}},
     "players: name 2: '\\u0301\\u0301' has no letter or digit"),
]


@pytest.mark.parametrize(("game", "data", "words"), EACH_GAME,
                         ids=[f"{g}-{i}" for i, (g, _, _) in enumerate(EACH_GAME)])
def test_every_engine_refuses_the_name(game: str, data: Any, words: str) -> None:
    assert_refused(run_pnp("score", game, "-", stdin=json.dumps(data).encode()), words)


# --- the pages ------------------------------------------------------------------------------

class Model:
    """A game's page model (its scoring script, model.js and its own model) in QuickJS."""

    def __init__(self, game: str) -> None:
        self.context = quickjs.Context()
        self.context.set_time_limit(600)
        self.context.eval(scorer.script(game))
        self._imported = self.context.get("page_import_batch")
        self._scored = self.context.get("page_batch")

    def imported(self, inputs: list[Any]) -> list[dict[str, Any]]:
        """Each calculator input imported into the page and scored: its result."""
        return [done["result"] for done in json.loads(self._imported(json.dumps(inputs)))]

    def scored(self, states: list[Any]) -> list[dict[str, Any]]:
        return [done["result"] for done in json.loads(self._scored(json.dumps(states)))]


MODELS: dict[str, Model] = {}


def model(game: str) -> Model:
    if game not in MODELS:
        MODELS[game] = Model(game)
    return MODELS[game]


def messages(result: dict[str, Any]) -> list[str]:
    return [fault["message"] for fault in result["faults"]]


def sheets(names: list[str]) -> dict[str, Any]:
    """A page of Qwinto sheets as a person fills it: blank sheets, these names typed."""
    return {"players": [{"name": name, "v": {}} for name in names], "current": 0}


@pytest.mark.parametrize(("second", "words"), [(n, w) for _, n, w in HOSTILE],
                         ids=[what for what, _, _ in HOSTILE])
def test_the_page_refuses_the_name_on_its_box(second: str, words: str) -> None:
    result = model("qwinto").scored([sheets([first(second), second])])[0]
    assert not result["ok"] and result["ranking"] == []
    assert {"at": "players/1/name", "message": words} in result["faults"], result["faults"]


def test_the_page_takes_names_of_any_script() -> None:
    result = model("qwinto").scored([sheets(FINE[:6])])[0]
    assert result["ok"], result["faults"]


@pytest.mark.parametrize(("game", "data", "words"), EACH_GAME,
                         ids=[f"{g}-{i}" for i, (g, _, _) in enumerate(EACH_GAME)])
def test_every_page_refuses_the_name(game: str, data: Any, words: str) -> None:
    """The engine's input imported into the game's page: the same refusal, on a box."""
    result = model(game).imported([data])[0]
    assert not result["ok"], (data, result)
    assert words in messages(result), result["faults"]


# --- the engine and the page, name for name -------------------------------------------------

LETTERS = ["Ana", "Bea", "J", "o", "s", "\u00e9", "e\u0301", "\u0308", " ", "\u00a0", "'",
           "-", "7", "\u0663", "\u00b2", "\u2163", "\U0001f409", "\u0915\u094d\u0937", "\uac00",
           "\u1100\u1161\u11a8", "\u212b", "\u1e9b\u0323", "\ufb01", "__proto__", "x" * 12,
           NFD * 3]
"""What names are made of: letters composed and not (``e`` and an accent, Hangul jamo that
compose to a syllable, ``Å`` as the angstrom sign), spaces, marks, digits of other scripts,
an apostrophe, an emoji; ``NFD * 3``, typed 15 code points, is 12 composed."""
HOSTILE_PIECES = ["\u0301", "  ", "\u3000", "\t", "\u200d", "\u200c", "\u200b", "\ufeff",
                  "\u00ad", "\u034f", "\u3164", "\u115f", "\u1160", "\uffa0", "\ufe0f",
                  "\U000e0020", "\u180b", "\u180e", "\u2800", "\u202e", "\u2066", "\u061c",
                  "\x1b", "\x85", "\x1c", "\u2028", "!", '"', "\\", "\U0001f3fd"]
"""What makes a name refused, or only seem to differ from another: spaces of several
kinds, invisible and control characters, marks and punctuation on no letter."""


def piece(rng: random.Random) -> str:
    return rng.choice(HOSTILE_PIECES if rng.random() < 0.1 else LETTERS)


def generated(rng: random.Random) -> list[str]:
    """Two to four names, the later ones often a variant of the first."""
    names = ["".join(piece(rng) for _ in range(rng.randint(0, 4)))]
    for _ in range(rng.randint(1, 3)):
        roll = rng.random()
        if roll < 0.2:
            at = rng.randint(0, len(names[0]))
            names.append(names[0][:at] + piece(rng) + names[0][at:])
        elif roll < 0.3:
            names.append(" " + unicodedata.normalize(rng.choice(["NFC", "NFD"]), names[0]))
        elif roll < 0.4:
            names.append(unicodedata.normalize(rng.choice(["NFC", "NFD"]), names[0])
                         * rng.randint(2, 5))
        else:
            names.append("".join(piece(rng) for _ in range(rng.randint(1, 4))))
    return names


def engine(game: str, data: Any) -> str:
    try:
        pnp.score(game, data)
    except PnpError as exc:
        return str(exc)
    return ""


def seated(names: list[str]) -> list[str]:
    """The names as the page scores them: a blank seat is "Player N" (N from 1), written by
    hand here from the rule the page follows, as a person would read it."""
    return [name if unicodedata.normalize("NFC", name).strip() else f"Player {seat}"
            for seat, name in enumerate(names, start=1)]


def tables(count: int) -> list[list[str]]:
    rng = random.Random("names")
    out: list[list[str]] = []
    while len(out) < count:
        names = generated(rng)
        if len(set(seated(names))) == len(names):  # a mapping cannot hold a name twice
            out.append(names)
    return out


REASONS = ["invisible character", "control character", "no letter or digit", "given twice",
           "longer than 40"]


def test_the_page_and_the_engine_refuse_the_same_names() -> None:
    """Two thousand generated tables of names through ``pnp.score`` and the Qwinto page:
    the same names refused, with the same words (the first fault the engine finds is a
    fault the page shows)."""
    given = tables(2000)
    counts = agree(given, model("qwinto").scored([sheets(names) for names in given]))
    assert counts["scored"] > 400 and min(counts.values()) > 20, counts


def agree(given: list[list[str]], shown: list[dict[str, Any]]) -> dict[str, int]:
    """How many of ``given`` the engine scored, and refused for each reason, after checking
    that the page's result says the same of each."""
    counts = {"scored": 0, "a seat named": 0, **{reason: 0 for reason in REASONS}}
    for names, result in zip(given, shown, strict=True):
        refusal = engine("qwinto", {"players": {name: SHEET for name in seated(names)}})
        if not refusal:
            assert result["ok"], (names, result["faults"])
            assert [p["name"] for p in result["players"]] == seated(names), result["players"]
            counts["scored"] += 1
            counts["a seat named"] += seated(names) != names
            continue
        assert not result["ok"] and refusal in messages(result), (names, refusal, result)
        counts[next(reason for reason in REASONS if reason in refusal)] += 1
    return counts


def chromium_scored(states: list[Any], folder: Path) -> list[dict[str, Any]]:
    """``states`` scored by the Qwinto page's model in headless Chromium (its own Unicode
    tables and normalize(), not QuickJS's)."""
    quoted = json.dumps(json.dumps(states)).replace("</", "<\\/")
    page = folder / "names.html"
    page.write_text("<!doctype html><meta charset=utf-8><body><script>"
                    + scorer.script("qwinto").replace("</", "<\\/") + "</script><script>"
                    + f"document.body.textContent = page_batch({quoted});</script>",
                    encoding="utf-8")
    dom = dumped_dom(page, folder / "profile")
    body = dom.split("<body>", 1)[1].rsplit("</body>", 1)[0]
    return [done["result"] for done in json.loads(html.unescape(body))]


def test_chromium_refuses_the_same_names(tmp_path: Path) -> None:
    """The table of hostile names and the generated ones, in a real browser."""
    given = [[first(second), second] for _, second, _ in HOSTILE] + [FINE[:6]] + tables(2000)
    shown = chromium_scored([sheets(names) for names in given], tmp_path)
    for (*_, words), result in zip(HOSTILE, shown[:len(HOSTILE)], strict=True):
        assert {"at": "players/1/name", "message": words} in result["faults"], result
    assert agree(given, shown)["scored"] > 400
