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
    ("kwingto/es/kwingto-coto-2up-a4.pdf", "Coto tally · 2 per sheet", "a4"),
    ("ronda/en/ronda-pad-fillable-a4.pdf", "Score pad for two players · fillable", "a4"),
    ("ronda/en/ronda-pad3-2up-a4.pdf", "Score pad for three players · 2 per sheet", "a4"),
    ("ronda/en/ronda-teams-grayscale-letter.pdf", "Score pad for two teams · black & white",
     "letter"),
    ("xactika/en/xactika-stats-9up-a4.pdf", "Stats card · 9 per sheet", "a4"),
    ("xactika/en/xactika-deck-poker-a4.pdf", "Deck of poker-size cards, two-sided", "a4"),
    ("xactika/fr/xactika-deck-poker-backs-1mm-left-1mm-down-letter.pdf",
     "Deck of poker-size cards, backs moved 1 mm left and 1 mm down", "letter"),
    ("xactika/en/xactika-deck-poker-backs-1mm-up-a4.pdf",
     "Deck of poker-size cards, backs moved 1 mm up", "a4"),
    ("xactika/en/xactika-deck-calibration-long-letter.pdf", "Deck calibration sheet", "letter"),
    ("spectacle/fr/spectacle-aid-a4.pdf", "Player aid", "a4"),
    ("qwinto/es/qwinto-card-a5.pdf", "Reference card (A5)", "a5"),
    ("qwinto/es/qwinto-rulebook-a4.pdf", "Rulebook", "a4"),
    ("qwinto/es/qwinto-rulebook-letter.html", "Rulebook, web page", "letter"),
    ("qwinto/es/qwinto-scorer.html", "Scorer for a phone", ""),
])
def test_every_file_gets_a_players_label(key: str, name: str, paper: str) -> None:
    entry = describe(key)
    assert entry is not None
    plain = label(entry).replace("\u00a0", " ").replace("\u2011", "-")
    assert (plain, entry.paper) == (name, paper)


def test_a_label_breaks_only_between_its_phrases() -> None:
    entry = describe("ronda/en/ronda-teams-grayscale-2up-letter.pdf")
    assert entry is not None
    assert label(entry).split(" ") == [
        "Score", "pad", "for", "two", "teams\u00a0·", "2\u00a0per\u00a0sheet\u00a0·",
        "black\u00a0&\u00a0white"]
    deck = describe("xactika/en/xactika-deck-poker-backs-1mm-right-letter.pdf")
    assert deck is not None
    assert label(deck).split(" ") == ["Deck", "of", "poker\u2011size", "cards,", "backs",
                                      "moved", "1\u00a0mm", "right"]


@pytest.mark.parametrize("key", ["index.html", "thumbs/x.png", "qwinto/en/kwingto-sheet-a4.pdf",
                                 "qwinto/en/qwinto-sheet-a4.exe", "a/b/c/d.pdf",
                                 "qwinto/en/qwinto-sheet-1up-a4.pdf",
                                 "qwinto/en/qwinto-scorer-sw.js",
                                 "xactika/en/xactika-deck-poker-backs-a4.pdf",
                                 "qwinto/en/qwinto-pad-a4.pdf", "chess/en/chess-sheet-a4.pdf"])
def test_names_pnp_does_not_make_are_left_out(key: str) -> None:
    assert describe(key) is None


def test_every_planned_file_name_reads_back_as_its_target() -> None:
    targets = plan()
    assert [target_of(t.relative.as_posix()) for t in targets] == targets


def test_no_label_holds_a_piece_of_a_file_name() -> None:
    """Every file of a full build is named in words: no ``-backs-``, ``1mm``, ``4up``,
    ``grayscale``, ``pad3`` or ``calibration-long`` read off its name."""
    labels = {label(t) for t in plan() if t.fmt in ("pdf", "html")}
    assert len(labels) > 30
    for name in labels:
        assert not re.search(r"-backs|backs-|\d(mm|up)\b|grayscale|pad3|calibration-long"
                             r"|-[a-z0-9]+-", name), name
        assert name[0].isupper(), name


def _whole_build() -> dict[str, dict[str, int]]:
    """The manifest of a build of every planned file."""
    return {t.relative.as_posix(): {"size": 20480, "pages": 1} for t in plan()}


def test_the_first_deck_on_each_paper_is_the_one_with_centred_backs() -> None:
    """Beside the eight decks whose backs are moved 1 mm (whose names sort before the
    centred deck's on Letter), the first set offers the centred deck, in every language."""
    games = [Game("xactika", "Xactika", "2–4", 30, "<svg></svg>")]
    text = page(_whole_build(), games, lambda key: None)
    first = _first_set(text)
    for lang in ("es", "en", "fr"):
        decks = [key for key in first if key.startswith(f"xactika/{lang}/xactika-deck-poker")]
        assert decks == [f"xactika/{lang}/xactika-deck-poker-a4.pdf",
                         f"xactika/{lang}/xactika-deck-poker-letter.pdf"], first
    assert not any("-backs-" in key for key in first)


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
    "qwinto/en/qwinto-sheet-grayscale-letter.pdf", "qwinto/en/qwinto-card-a5.pdf",
    "qwinto/fr/qwinto-sheet-a4.pdf", "qwinto/fr/qwinto-sheet-2up-letter.pdf",
    "qwinto/fr/qwinto-rulebook-letter.html")}
"""Qwinto in English on both papers, and three French files: after the first set, two more
files on A4 (both English) and three on Letter (one English, two French)."""
MORE = {("a4", "all"): 2, ("a4", "en"): 2, ("a4", "fr"): 0,
        ("letter", "all"): 3, ("letter", "en"): 1, ("letter", "fr"): 2}
"""How many more files "Every file" shows of :data:`MANIFEST` for each paper and language
the page offers, counted by hand."""


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
        re.fullmatch(r"First page of the Qwinto [a-z\s·&,()0-9]+ \([A-Za-zñç]+(, [A-Za-z0-9]+)?\)",
                     html.unescape(image["alt"] or "")) for image in parsed.images)
    assert {(i["name"], i["value"]) for i in parsed.inputs} == {
        ("paper", "a4"), ("paper", "letter"), ("lang", "all"), ("lang", "en"), ("lang", "fr")}
    assert all(re.search(r"<label><input[^>]*>[^<]*(<span[^>]*>)?[A-Za-zñç4 ]+", text)
               for _ in parsed.inputs)
    assert "qwinto-|sheet-|4up-|a4.|pdf" in parsed.file_names
    for name in parsed.file_names:
        assert all(piece.endswith(("-", ".")) for piece in name.split("|")[:-1]), name


def test_the_filters_offer_only_the_papers_and_languages_built() -> None:
    """A build in French on Letter offers no A4, English or Spanish button to choose (which
    would show nothing), and chooses its one paper and language before any script runs."""
    manifest = {key.replace("/en/", "/fr/").replace("-a4.", "-letter."): info
                for key, info in MANIFEST.items() if "/en/" in key}
    parsed = _Page()
    parsed.feed(page(manifest, GAMES, lambda key: None))
    assert [(i["name"], i["value"], "checked" in i) for i in parsed.inputs] == [
        ("paper", "letter", True), ("lang", "fr", True)]


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
    assert "Reference card\u00a0(A5)" in text and "Score sheet\u00a0· 4\u00a0per\u00a0sheet" in text


def test_the_landing_page_tells_the_games_as_the_edition_defines_them(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(rules_dir(), rules)
    definition = rules / "qwinto.yaml"
    definition.write_text(definition.read_text().replace(
        "name: {es: Qwinto, en: Qwinto, fr: Qwinto, de: Qwinto}",
        "name: {es: Quinta, en: Fifths, fr: Quinte, de: Fünftel}"
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
    # its picture is a phone whose screen shows the page's bar, the lockup and boxes
    screen = re.search(r'<span class="phone-screen"><span class="phone-bar">Qwinto</span>'
                       r'<span class="phone-lockup">(.*?)</span><span class="phone-boxes">'
                       r'(<svg .*?</svg>)</span>', phone)
    assert screen and screen.group(1) == GAMES[0].lockup
    assert screen.group(2).count("<rect ") == 16
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


def _more(text: str) -> list[tuple[str, str, bool]]:
    """The paper, language and hidden state of each file under "Every file" in ``text``."""
    every = text.split("<details>", 1)[1].split("</details>", 1)[0]
    return [(paper, lang, bool(hidden)) for paper, lang, hidden in re.findall(
        r'<li data-paper="([a-z0-9]+)" data-lang="([a-z]+)"( hidden(?:="")?)?>', every)]


@pytest.mark.parametrize(("paper", "lang"), sorted(MORE))
def test_every_file_counts_what_the_filters_select(paper: str, lang: str) -> None:
    """Each file under "Every file" carries the paper and language the filters select it
    by; before the script runs, the count is every file there."""
    text = page(MANIFEST, GAMES, lambda key: None)
    more = _more(text)
    assert re.search(r'\(<span class="count">5</span> more\)', text)
    assert len(more) == 5
    assert sum(1 for p, la, _ in more if p in (paper, "any") and lang in (la, "all")) \
        == MORE[paper, lang]


def test_in_chromium_the_counts_and_lists_follow_the_filters(tmp_path: Path) -> None:
    """The script hides what the chosen paper and language leave out (a fresh browser
    chooses them from its own language), says how many files are left under "Every file"
    and hides that list when none is."""
    from browser import dumped_dom

    (tmp_path / "index.html").write_text(page(MANIFEST, GAMES, lambda key: None),
                                         encoding="utf-8")
    dom = dumped_dom(tmp_path / "index.html", tmp_path / "profile")
    visible = re.findall(r'<li data-paper="([a-z0-9]+)" data-lang="([a-z]+)">', dom)
    papers = {p for p, _ in visible} - {"any"}
    langs = {la for _, la in visible}
    assert len(papers) == 1, visible
    paper, lang = papers.pop(), langs.pop() if len(langs) == 1 else "all"
    assert '<p class="empty" hidden' in dom
    shown = [(p, la) for p, la, hidden in _more(dom) if not hidden]
    count = re.search(r'\(<span class="count">(\d+)</span> more\)', dom)
    assert count and int(count.group(1)) == MORE[paper, lang] == len(shown), (paper, lang)
    assert ("<details hidden" in dom) == (MORE[paper, lang] == 0)


def test_in_chromium_a_game_with_nothing_to_show_leaves_the_page_and_its_menu(
        tmp_path: Path) -> None:
    """Qwinto has one English Letter sheet (and a file on A4), Kwingto French files only:
    with Letter and English chosen (as a fresh American English browser chooses), Qwinto
    shows its sheet without "Every file", and Kwingto and its menu link are gone."""
    from browser import dumped_dom

    games = [*GAMES, Game("kwingto", "Kwingto", "2–4", 15, "<svg><title>Kwingto</title></svg>")]
    manifest = {key: {"size": 20480, "pages": 1} for key in (
        "qwinto/en/qwinto-sheet-letter.pdf", "qwinto/en/qwinto-sheet-4up-a4.pdf",
        "kwingto/fr/kwingto-sheet-letter.pdf")}
    (tmp_path / "index.html").write_text(page(manifest, games, lambda key: None),
                                         encoding="utf-8")
    dom = dumped_dom(tmp_path / "index.html", tmp_path / "profile")
    if '<li data-paper="letter" data-lang="en">' not in dom:
        pytest.skip("this browser chose another paper or language than Letter in English")
    qwinto, kwingto = dom.split("<article")[1:3]
    assert qwinto.startswith(' class="game" id="qwinto" aria-labelledby="qwinto-title">')
    assert "<details hidden" in qwinto and '(<span class="count">0</span> more)' in qwinto
    assert kwingto.startswith(' class="game" id="kwingto" aria-labelledby="kwingto-title" hidden')
    assert '<a href="#kwingto" hidden' in dom and '<a href="#qwinto">' in dom
    assert '<p class="empty" hidden' in dom


def test_a_web_rulebook_shows_the_first_page_of_its_printed_book() -> None:
    pictures = {"qwinto/en/qwinto-rulebook-a4.pdf": "thumbs/book-a4.png",
                "qwinto/en/qwinto-rulebook-letter.pdf": "thumbs/book-letter.png"}
    keys = ("qwinto/en/qwinto-rulebook-a4.html", "qwinto/en/qwinto-rulebook-letter.html",
            *pictures)
    text = page({key: {"size": 20480, "pages": 8} for key in keys}, GAMES, pictures.get)
    for paper in ("a4", "letter"):
        web = re.search(rf'<a href="qwinto/en/qwinto-rulebook-{paper}.html">(<[^>]+>)', text)
        assert web is not None
        assert web.group(1).startswith(f'<img src="thumbs/book-{paper}.png"')
