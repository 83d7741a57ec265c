"""The landing page, ``output/index.html``: labels a player understands, a first set to print
per game, filters, alt text, and file names that never break inside a word."""

from __future__ import annotations

import html
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pnp.build.incremental import build
from pnp.build.landing import Game, describe, label, page
from pnp.build.plan import plan
from pnp.outputs.targets import Target, target_of
from pnp.registry import rules_dir


@pytest.mark.parametrize(("key", "name", "paper"), [
    ("qwinto/en/qwinto-sheet-a4.pdf", "Score sheet", "a4"),
    ("qwinto/en/qwinto-sheet-grayscale-2up-letter.pdf", "Score sheet · 2 per sheet · black & white",
     "letter"),
    ("kwingto/fr/kwingto-sheet-fillable-a4.pdf", "Score sheet · fillable", "a4"),
    ("kwingto/es/kwingto-coto-2up-a4.pdf", "Series tally · 2 per sheet", "a4"),
    ("ronda/en/ronda-pad3-a4.pdf", "Score pad, 3 players", "a4"),
    ("ronda/en/ronda-teams-grayscale-letter.pdf", "Score pad, two teams · black & white",
     "letter"),
    ("xactika/en/xactika-stats-9up-a4.pdf", "Stats card · 9 per sheet", "a4"),
    ("xactika/en/xactika-deck-poker-a4.pdf", "Deck, poker-size cards, printed on both sides",
     "a4"),
    ("xactika/fr/xactika-deck-poker-backs-1mm-left-1mm-down-letter.pdf",
     "Deck, poker-size cards, printed on both sides, backs moved 1 mm left and 1 mm down",
     "letter"),
    ("xactika/en/xactika-deck-poker-backs-1mm-up-a4.pdf",
     "Deck, poker-size cards, printed on both sides, backs moved 1 mm up", "a4"),
    ("xactika/en/xactika-deck-calibration-long-letter.pdf", "Deck calibration sheet", "letter"),
    ("spectacle/fr/spectacle-aid-a4.pdf", "Player aid and tracker", "a4"),
    ("qwinto/es/qwinto-card-a5.pdf", "Reference card (A5)", "a5"),
    ("qwinto/es/qwinto-rulebook-a4.pdf", "Rulebook", "a4"),
    ("qwinto/es/qwinto-rulebook-letter.html", "Rulebook, web page", "letter"),
    ("qwinto/es/qwinto-scorer.html", "Scorer for a phone", ""),
])
def test_every_file_gets_a_players_label(key: str, name: str, paper: str) -> None:
    entry = describe(key)
    assert entry is not None
    assert (label(entry), entry.paper) == (name, paper)


@pytest.mark.parametrize("key", ["index.html", "thumbs/x.png", "qwinto/en/kwingto-sheet-a4.pdf",
                                 "qwinto/en/qwinto-sheet-a4.exe", "a/b/c/d.pdf",
                                 "qwinto/en/qwinto-sheet-1up-a4.pdf",
                                 "qwinto/en/qwinto-scorer-sw.js",
                                 "xactika/en/xactika-deck-poker-backs-a4.pdf"])
def test_names_pnp_does_not_make_are_left_out(key: str) -> None:
    assert describe(key) is None


def test_every_planned_file_name_reads_back_as_its_target() -> None:
    targets = plan()
    assert [target_of(t.relative.as_posix()) for t in targets] == targets


class _Page(HTMLParser):
    """The parts of the page the tests read."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict[str, str | None]] = []
        self.inputs: list[dict[str, str | None]] = []
        self.lang = ""
        self.file_names: list[str] = []
        self._in_file = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "html":
            self.lang = found.get("lang") or ""
        if tag == "img":
            self.images.append(found)
        if tag == "input":
            self.inputs.append(found)
        if tag == "span" and found.get("class") == "file":
            self._in_file = 1
            self.file_names.append("")
        elif tag == "wbr" and self._in_file:
            self.file_names[-1] += "|"

    def handle_endtag(self, tag: str) -> None:
        if tag == "span":
            self._in_file = 0

    def handle_data(self, data: str) -> None:
        if self._in_file:
            self.file_names[-1] += data


GAMES = [Game("qwinto", "Qwinto", "2–6", 15, "<svg><title>Qwinto</title></svg>")]
MANIFEST = {key: {"size": 20480, "pages": 1} for key in (
    "qwinto/en/qwinto-rulebook-a4.pdf", "qwinto/en/qwinto-rulebook-letter.pdf",
    "qwinto/en/qwinto-rulebook-a4.html", "qwinto/en/qwinto-sheet-a4.pdf",
    "qwinto/en/qwinto-sheet-letter.pdf", "qwinto/en/qwinto-sheet-4up-a4.pdf",
    "qwinto/en/qwinto-card-a5.pdf", "qwinto/fr/qwinto-sheet-a4.pdf")}


def _first_set(text: str) -> list[str]:
    block = text.split("<h3>Print these first</h3>", 1)[1].split("</ul>", 1)[0]
    return re.findall(r'<a href="([^"]+)"', block)


def test_the_first_set_is_rulebook_sheet_and_card_for_each_paper_and_language() -> None:
    text = page(MANIFEST, GAMES, lambda key: "thumbs/x.png" if key.endswith(".pdf") else None)
    assert _first_set(text) == [
        "qwinto/en/qwinto-rulebook-a4.pdf", "qwinto/en/qwinto-rulebook-letter.pdf",
        "qwinto/en/qwinto-sheet-a4.pdf", "qwinto/en/qwinto-sheet-letter.pdf",
        "qwinto/en/qwinto-card-a5.pdf", "qwinto/fr/qwinto-sheet-a4.pdf"]
    others = text.split("<details>", 1)[1]
    assert "qwinto-sheet-4up-a4.pdf" in others and "qwinto-rulebook-a4.html" in others
    assert "2–6 players · about 15 minutes" in text


def test_images_have_alt_text_inputs_have_labels_and_names_break_only_at_hyphens() -> None:
    text = page(MANIFEST, GAMES, lambda key: "thumbs/x.png" if key.endswith(".pdf") else None)
    parsed = _Page()
    parsed.feed(text)
    assert parsed.lang == "en"
    assert parsed.images and all(
        re.fullmatch(r"First page of the Qwinto [a-z ·&,()0-9]+ \([A-Za-zñç]+(, [A-Za-z0-9]+)?\)",
                     html.unescape(image["alt"] or "")) for image in parsed.images)
    assert {(i["name"], i["value"]) for i in parsed.inputs} == {
        ("paper", "a4"), ("paper", "letter"), ("lang", "all"), ("lang", "es"), ("lang", "en"),
        ("lang", "fr")}
    assert all(re.search(r"<label><input[^>]*>[^<]*(<span[^>]*>)?[A-Za-zñç4 ]+", text)
               for _ in parsed.inputs)
    assert "qwinto-|sheet-|4up-|a4.|pdf" in parsed.file_names
    for name in parsed.file_names:
        assert all(piece.endswith(("-", ".")) for piece in name.split("|")[:-1]), name


def test_command_lines_stay_off_the_files_and_the_page_says_how_to_print() -> None:
    text = page(MANIFEST, GAMES, lambda key: None)
    assert "100 %" in text and "long edge" in text and "calibration sheet" in text
    files = text.split('<ul class="files first">', 1)[1]
    assert "--" not in re.sub(r"<[^>]+>", "", files.split('<section class="how"', 1)[0])


def test_a_build_writes_the_landing_page_with_lockups_and_thumbnails(tmp_path: Path) -> None:
    out = tmp_path / "out"
    build([t for t in plan(["qwinto"], ["en"], ["a4"]) if t.document != "rulebook"], out)
    text = (out / "index.html").read_text()
    assert 'class="lockup"' in text and "<title>Qwinto</title>" in text
    thumb = "thumbs/qwinto_en_qwinto-card-a5.png"
    assert f'<img src="{thumb}"' in text
    assert (out / thumb).read_bytes()[:4] == b"\x89PNG"
    assert "Reference card (A5)" in text and "Score sheet · 4 per sheet" in text


def test_the_landing_page_tells_the_games_as_the_edition_defines_them(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(rules_dir(), rules)
    definition = rules / "qwinto.yaml"
    definition.write_text(definition.read_text().replace(
        "name: {es: Qwinto, en: Qwinto, fr: Qwinto}", "name: {es: Quinta, en: Fifths, fr: Quinte}"
    ).replace("players: {min: 2, max: 6}", "players: {min: 2, max: 5}"))
    out = tmp_path / "out"
    build([Target("qwinto", "en", "card", "a5")], out, rules_dir=rules)
    text = (out / "index.html").read_text()
    assert "Every file for Fifths" in text and "2–5 players" in text
    assert "Qwinto" not in text


def test_each_scorer_is_offered_for_the_phone_with_a_qr_code_where_served() -> None:
    manifest = {**MANIFEST, "qwinto/en/qwinto-scorer.html": {"size": 90000, "pages": 0},
                "qwinto/en/qwinto-scorer-sw.js": {"size": 900, "pages": 0}}
    text = page(manifest, GAMES, lambda key: None)
    phone = text.split("<h3>Score on a phone</h3>", 1)[1].split("</ul>", 1)[0]
    assert re.findall(r'<a href="([^"]+)"', phone) == ["qwinto/en/qwinto-scorer.html"]
    assert 'data-qr="qwinto/en/qwinto-scorer.html"' in phone
    assert "sw.js" not in text
    assert "/__pnp/qr.svg?path=" in text and "location.protocol" in text


def test_the_page_runs_its_own_script_and_style_only(tmp_path: Path) -> None:
    """Its policy allows its one script and style sheet by their hashes (computed here
    from the page's text): in Chromium the filters' script runs and hides the files of the
    other paper, and a handler slipped into the markup does not."""
    import base64
    import hashlib

    from browser import dumped_dom

    text = page(MANIFEST, GAMES, lambda key: "thumbs/x.png" if key.endswith(".pdf") else None)
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', text)
    assert policy and text.index(policy.group(0)) < text.index("<style>")
    for kind in ("script", "style"):
        inline = re.findall(rf"<{kind}>(.*?)</{kind}>", text, re.DOTALL)
        digests = [base64.b64encode(hashlib.sha256(part.encode()).digest()).decode()
                   for part in inline]
        assert len(inline) == 1
        assert f"{kind}-src 'sha256-{digests[0]}';" in html.unescape(policy.group(1))
    assert "unsafe" not in policy.group(1)
    slipped = text.replace("</main>", '<img src="missing.png" onerror="document.title=1"></main>')
    (tmp_path / "index.html").write_text(slipped, encoding="utf-8")
    dom = dumped_dom(tmp_path / "index.html", tmp_path / "profile")
    assert "<title>Print-and-play files</title>" in dom
    assert re.search(r'<li data-paper="(a4|letter)"[^>]* hidden', dom), dom[:3000]
