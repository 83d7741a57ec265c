"""Hostile editions and the scorer page (``pnp scorer GAME``).

Each case edits an edition made with the real ``pnp init`` and runs ``pnp scorer`` in it,
bounded in time and memory (``tests/refusal.py``): names in the definitions that would end
or derail the page's scripts must reach the page as text, and a template of the page that
leads outside the edition, never ends or weighs megabytes must be refused in one line,
with nothing written and the canary beside the edition nowhere in what pnp printed.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

import pnp
from refusal import Run, assert_refused
from refusal import pnp as run_pnp

CANARY = "canary-5be1c0de the text that never leaves its folder"

HOSTILE = [
    "</SCRIPT><img src=x onerror=\"throw new Error('pwned 1')\">",
    "</script ><img src=x onerror=\"throw new Error('pwned 2')\">",
    "x<!--<script>",
    "<sCrIpT>throw new Error('pwned 3')</ScRiPt>",
]
"""Names that end a ``<script>`` element, or put it in the state where its own end tag no
longer ends it, unless the page escapes their ``<``: upper, lower and mixed case."""

ENDS = re.compile(r"</script|<script|<!--", re.IGNORECASE)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An edition made by the real ``pnp init``, and beside it the canary and a copy of
    the page's templates holding it."""
    root = tmp_path_factory.mktemp("scorer-page")
    run = run_pnp("init", "edition", cwd=root)
    assert run.code == 0, run.stderr
    outside = root / "outside"
    outside.mkdir()
    (outside / "canary.css").write_text(CANARY)
    shutil.copytree(root / "edition" / "templates" / "scorer", outside / "scorer")
    (outside / "scorer" / "scorer.css").write_text(f"/* {CANARY} */\n")
    return root


@pytest.fixture
def edition(made: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "edition"
    shutil.copytree(made / "edition", copy, symlinks=True)
    return copy


def scorer(edition: Path, game: str = "kwingto") -> tuple[Run, Path]:
    out = edition.parent / f"{game}-scorer.html"
    return run_pnp("scorer", game, "--lang", "en", "-o", str(out), cwd=edition), out


def _rename(edition: Path, game: str, change: Callable[[dict[str, Any]], None]) -> None:
    path = edition / "rules" / f"{game}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _hostile_names(edition: Path) -> None:
    """Every suit of Kwingto, mode of Xactika and noble of Spectacle named in English by
    one of :data:`HOSTILE`. Their reference cards, which the page's "How to score" is made
    of, are plain ones that name none of them: a card that printed them would be refused (the
    books' own defences, tested with the books), and the page with it."""
    def named(items: list[dict[str, Any]]) -> None:
        for number, item in enumerate(items):
            item["name"]["en"] = HOSTILE[number % len(HOSTILE)]

    _rename(edition, "kwingto", lambda data: named(data["deck"]["suits"]))
    _rename(edition, "xactika", lambda data: named(data["modes"]))
    _rename(edition, "spectacle", lambda data: named(data["deck"]["nobles"]))
    for game in ("kwingto", "xactika", "spectacle"):
        (edition / "templates" / "cards" / game / "en.md").write_text(
            "# Scoring\n\nAdd up the points.\n", encoding="utf-8")


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def _policy(page: str) -> dict[str, set[str]]:
    found = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
    assert len(found) == 1, found
    directives = [d.split() for d in found[0].replace("&#x27;", "'").split(";") if d.strip()]
    return {words[0]: set(words[1:]) for words in directives}


@pytest.mark.parametrize("game", ["kwingto", "xactika", "spectacle"])
def test_names_that_would_end_a_script_stay_text(game: str, edition: Path) -> None:
    """The page made with those names has its two scripts and nothing else that a parser
    reads as a script's start or end; its policy allows those two scripts and that style
    sheet by their hashes, and nothing inline beside them."""
    _hostile_names(edition)
    run, out = scorer(edition, game)
    assert run.code == 0, run.stderr
    page = out.read_text(encoding="utf-8")
    assert [m.group(0).lower() for m in ENDS.finditer(page)] == ["<script", "</script"] * 2
    scripts = re.findall(r"<script[^>]*>(.*?)</script>", page, re.DOTALL)
    styles = re.findall(r"<style[^>]*>(.*?)</style>", page, re.DOTALL)
    assert len(scripts) == 2 and len(styles) == 1
    assert all("</style" not in text.lower() for text in scripts)
    policy = _policy(page)
    assert policy["default-src"] == {"'none'"}
    assert policy["script-src"] == {_sha256(text) for text in scripts}
    assert policy["style-src"] == {_sha256(text) for text in styles}
    assert not any("unsafe" in word for words in policy.values() for word in words), policy
    assert r"\u003c/SCRIPT\u003e\u003cimg src=x" in page  # the name is there, as JSON text


def test_names_that_would_end_a_script_run_nothing(edition: Path, tmp_path: Path) -> None:
    """In Chromium the page with those names works as the bundled one: the worked example
    typed box by box totals as the engine, with no error, no blocked script or image and
    no handler run (each would throw or be reported)."""
    from browser import need_driver
    from scorer.test_scorer import EXAMPLES, browse, steps_for

    chromium = need_driver()
    _hostile_names(edition)
    run, out = scorer(edition)
    assert run.code == 0, run.stderr
    data = yaml.safe_load((EXAMPLES / "kwingto.yaml").read_text(encoding="utf-8"))
    url = out.as_uri()
    seen = browse(chromium, {"url": url, "viewport": [390, 844], "shots": None,
                             "name": "hostile", "steps": steps_for("kwingto", data), "bad": []},
                  tmp_path)
    assert seen["errors"] == [], seen["errors"]
    assert set(seen["requests"]) == {url}, seen["requests"]
    totals = {name: int(value) for name, value in seen["typed"]["totals"].items()}
    assert totals == pnp.score("kwingto", data).totals


SCORER = "templates/scorer"


def _link(target: str) -> Callable[[Path, Path], None]:
    def make(path: Path, outside: Path) -> None:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
        path.symlink_to(target.format(outside=outside))
    return make


def _fifo(path: Path, outside: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _large(path: Path, outside: Path) -> None:
    with path.open("r+b") as handle:
        handle.truncate(40 * 1024 * 1024)  # sparse: 40 MB that take no room


def _big_file_inside(path: Path, outside: Path) -> None:
    big = path.parents[1] / "big.css"
    with big.open("wb") as handle:
        handle.truncate(40 * 1024 * 1024)
    path.unlink()
    path.symlink_to(big)


def _device(path: Path, outside: Path) -> None:
    path.unlink()
    try:
        os.mknod(path, stat.S_IFCHR | 0o644, os.makedev(1, 5))  # /dev/zero's numbers
    except PermissionError:
        pytest.skip("making a device needs root")


def _text(text: str) -> Callable[[Path, Path], None]:
    def write(path: Path, outside: Path) -> None:
        path.write_text(text, encoding="utf-8")
    return write


def _edit(before: str, after: str) -> Callable[[Path, Path], None]:
    def edit(path: Path, outside: Path) -> None:
        text = path.read_text(encoding="utf-8")
        assert before in text
        path.write_text(text.replace(before, after, 1), encoding="utf-8")
    return edit


CASES = {
    # name: (file, change, the words of the refusal)
    "style sheet linked outside": ("scorer.css", _link("{outside}/canary.css"),
                                   "scorer/scorer.css: leads outside the edition's templates "
                                   "folder"),
    "scorer folder linked outside": ("", _link("{outside}/scorer"),
                                     "scorer/scorer.css: leads outside the edition's templates "
                                     "folder"),
    "page linked outside": ("page.html", _link("{outside}/canary.css"),
                            "scorer/page.html: leads outside the edition's templates folder"),
    "style sheet linked to /dev/zero": ("scorer.css", _link("/dev/zero"),
                                        "scorer/scorer.css: leads outside the edition's "
                                        "templates folder"),
    "page is a named pipe": ("page.html", _fifo,
                             "scorer/page.html: a named pipe (FIFO), not a file"),
    "page is a device": ("page.html", _device, "scorer/page.html: a device, not a file"),
    "page of 40 MB": ("page.html", _large, "scorer/page.html: larger than 65536 bytes"),
    "style sheet linked to 40 MB": ("scorer.css", _big_file_inside,
                                    "scorer/scorer.css: larger than 65536 bytes"),
    "style sheet not UTF-8": ("scorer.css", lambda p, o: p.write_bytes(b"a { content: '\xff'; }"),
                              "scorer/scorer.css: not UTF-8 text at byte 15"),
    "style sheet ends its element": ("scorer.css", _text("a {}\n</STYLE><script>x()</script>"),
                                     "scorer/scorer.css: holds '</style'"),
    "page with an unknown placeholder": ("page.html", _edit("$title", "$title $secret"),
                                         "scorer/page.html: unknown placeholder $secret"),
    "page with a stray dollar": ("page.html", _edit("<title>", "<title>$ "),
                                 "scorer/page.html: Invalid placeholder in string: line 10"),
    "page without its policy (an older edition's)": (
        "page.html", _edit('<meta http-equiv="Content-Security-Policy" content="$csp">\n', ""),
        "scorer/page.html: needs its policy before any script or style"),
    "page with its policy after a script": (
        "page.html", _edit('<meta http-equiv="Content-Security-Policy" content="$csp">\n',
                           '<script>x()</script><meta http-equiv="Content-Security-Policy" '
                           'content="$csp">\n'),
        "scorer/page.html: needs its policy before any script or style"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_hostile_templates_are_refused(case: str, edition: Path, made: Path) -> None:
    name, change, words = CASES[case]
    change(edition / SCORER / name if name else edition / SCORER, made / "outside")
    run, out = scorer(edition)
    assert_refused(run, words)
    assert not out.exists()
    assert "canary-5be1c0de" not in run.stdout + run.stderr


STRAY = {
    "model.js": "throw new Error('stray edition model');\n",
    "view.js": "throw new Error('stray edition view');\n",
    "sheets.model.js": "throw new Error('stray edition grid');\n",
    "kwingto.model.js": "throw new Error('stray edition Kwingto model');\n",
}
"""Scripts an older edition kept beside its page templates, when they were the page's (and
its ``kwingto.view.js`` is a named pipe)."""


def test_an_editions_own_scorer_scripts_are_not_used(edition: Path) -> None:
    """The page's scripts are pnp's: scripts an edition keeps in ``templates/scorer`` (an
    older edition's, or anyone's) are not read, not even one that never ends, and the page
    is the one the edition makes without them."""
    clean, out = scorer(edition)
    assert clean.code == 0, clean.stderr
    expected = out.read_bytes()
    out.unlink()
    for name, text in STRAY.items():
        (edition / SCORER / name).write_text(text, encoding="utf-8")
    os.mkfifo(edition / SCORER / "kwingto.view.js")  # read, it would never end
    run, out = scorer(edition)
    assert run.code == 0, run.stderr
    page = out.read_bytes()
    assert b"stray edition" not in page
    assert page == expected


def test_a_card_of_another_shape_leaves_the_page_whole(edition: Path) -> None:
    """An edition's reference card with fewer sections than the page shows (Xactika's "How
    to score" is the bundled card's fourth), or none, still makes the page: with the card's
    last section, or with no panel."""
    card = edition / "templates" / "cards" / "xactika" / "en.md"
    card.write_text("# Modes\n\nPlay to win.\n\n# Scoring\n\nOne point a trick.\n",
                    encoding="utf-8")
    run, out = scorer(edition, "xactika")
    assert run.code == 0, run.stderr
    page = out.read_text(encoding="utf-8")
    assert "One point a trick." in page and "Play to win." not in page
    card.write_text("Only a line of text.\n", encoding="utf-8")
    run, out = scorer(edition, "xactika")
    assert run.code == 0, run.stderr
    assert re.search(r'var HOWTO\s*=\s*"";', out.read_text(encoding="utf-8"))
