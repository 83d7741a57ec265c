"""The standalone HTML rulebooks carry the bundled fonts: each face the page sets text in is
embedded, subset, decodes, has every character the page shows in it, and the page loads no
font from anywhere else, within a budget of 150 KB of fonts a page."""

from __future__ import annotations

import base64
import html
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import pytest
from fontTools.ttLib import TTFont
from languages import published

from browser import dumped_dom
from pnp.books.references import CSP
from pnp.definitions import load
from pnp.i18n.languages import language
from pnp.registry import GAMES

if TYPE_CHECKING:
    from conftest import Books

FONTS = Path(__file__).resolve().parents[2] / "fonts"
BUDGET = 150 * 1024
"""Bytes of ``@font-face`` rules a page may carry."""

FACES = {("pnp serif", "400", "normal"): "GentiumBookPlus-Regular.ttf",
         ("pnp serif", "700", "normal"): "GentiumBookPlus-Bold.ttf",
         ("pnp serif", "400", "italic"): "GentiumBookPlus-Italic.ttf",
         ("pnp serif", "700", "italic"): "GentiumBookPlus-Italic.ttf",
         ("pnp sans", "400", "normal"): "PnpSans-Regular.ttf",
         ("pnp sans", "700", "normal"): "PnpSans-Bold.ttf",
         ("pnp sans", "400", "italic"): "PnpSans-Italic.ttf",
         ("pnp sans", "700", "italic"): "PnpSans-Italic.ttf",
         ("pnp display", "900", "normal"): "PnpSans-Black.ttf",
         ("pnp symbols", "400", "normal"): "DejaVuSans.ttf",
         ("pnp symbols", "700", "normal"): "DejaVuSans-Bold.ttf",
         ("pnp symbols", "400", "italic"): "DejaVuSans.ttf",
         ("pnp symbols", "700", "italic"): "DejaVuSans-Bold.ttf",
         ("notonaskharabic", "400", "normal"): "NotoNaskhArabic-Regular.ttf",
         ("notonaskharabic", "700", "normal"): "NotoNaskhArabic-Bold.ttf",
         ("notonaskharabic", "400", "italic"): "NotoNaskhArabic-Regular.ttf",
         ("notonaskharabic", "700", "italic"): "NotoNaskhArabic-Bold.ttf",
         ("notosansarabic", "400", "normal"): "NotoSansArabic-Regular.ttf",
         ("notosansarabic", "700", "normal"): "NotoSansArabic-Bold.ttf",
         ("notosansarabic", "400", "italic"): "NotoSansArabic-Regular.ttf",
         ("notosansarabic", "700", "italic"): "NotoSansArabic-Bold.ttf"}
"""The bundled file a browser sets text in, by the computed family, weight and style the
page's style sheet gives (Gentium Book Plus is 500 and 800: CSS font matching takes them
for 400 and 700; no bold italic is bundled, so a browser emboldens the italic)."""

FAMILIES = {file: family for (family, _weight, _style), file in FACES.items()}

PAGES = [(game, languages[index % len(languages)])
         for index, (game, languages) in enumerate((g, load(g).languages) for g in GAMES)]
"""The pages opened in Chromium: every game, the languages in turn."""

_FACE_RULE = re.compile(r"@font-face\s*\{([^}]*)\}")
_DESCRIPTOR = re.compile(r"([a-z-]+)\s*:\s*(url\([^)]*\)[^;]*|\"[^\"]*\"|[^;]+)")


def _full_cmap(file: str) -> set[int]:
    return set(TTFont(FONTS / file).getBestCmap())


def _name(font: Any) -> str:
    return str(font["name"].getDebugName(4))


def embedded(page: str) -> dict[str, set[int]]:
    """The characters of each font the page embeds, by the bundled file it is a subset of
    (matched by its full name); each ``@font-face`` decodes as WOFF2."""
    names = {_name(TTFont(FONTS / file)): file for file in set(FACES.values())}
    found: dict[str, set[int]] = {}
    for rule in _FACE_RULE.findall(page):
        descriptors = {key: value.strip().strip('"') for key, value in _DESCRIPTOR.findall(rule)}
        source = re.fullmatch(r'url\(data:font/woff2;base64,([A-Za-z0-9+/=]+)\) '
                              r'format\("woff2"\)', descriptors["src"])
        assert source, descriptors["src"][:60]
        font = TTFont(io.BytesIO(base64.b64decode(source[1], validate=True)))
        assert font.flavor == "woff2"
        file = names[_name(font)]
        # The rule names the font it carries: its family, and its weight and style as the
        # font itself says (Gentium Book Plus is 500 and 800; CSS matching does the rest).
        assert descriptors["font-family"].lower() == FAMILIES[file], descriptors
        assert descriptors["font-weight"] == str(font["OS/2"].usWeightClass), descriptors
        assert (descriptors["font-style"] == "italic") == bool(font["OS/2"].fsSelection & 1)
        assert file not in found, f"{file} embedded twice"
        found[file] = set(font.getBestCmap())
    return found


class _Text(HTMLParser):
    """The text a page shows: its body's, not its style sheets', scripts' or SVG titles';
    and apart, the text that is directly in a paragraph of running text."""

    SKIPPED: ClassVar[set[str]] = {"style", "script", "title", "desc", "head"}
    NOT_RUNNING: ClassVar[set[str]] = {"figcaption", "th", "h1", "h2", "h3", "h4", "code",
                                       "strong", "em", "b", "i", "svg", "nav", "table"}
    VOID: ClassVar[set[str]] = {"meta", "link", "img", "br", "hr", "wbr", "col"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, str]] = []
        self.shown: set[str] = set()
        self.running: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.open.append((tag, dict(attrs).get("class") or ""))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        if any(name == tag for name, _class in self.open):
            while self.open.pop()[0] != tag:
                pass

    def handle_data(self, data: str) -> None:
        tags = {tag for tag, _class in self.open}
        if tags & self.SKIPPED or not data.strip():
            return
        chars = set(" ".join(data.split()))
        self.shown |= chars
        in_cover = any("cover" in classes.split() for _tag, classes in self.open)
        if self.open and self.open[-1][0] == "p" and not tags & self.NOT_RUNNING and not in_cover:
            self.running |= chars


def _text(page: str) -> _Text:
    reader = _Text()
    reader.feed(page)
    reader.close()
    return reader


@pytest.mark.parametrize(("game", "lang"), published())
def test_the_page_embeds_what_it_shows_within_its_budget(bookshelf: Books, game: str,
                                                        lang: str) -> None:
    page = bookshelf.html("rulebook", game, lang)
    fonts = sum(len(rule) for rule in re.findall(r"@font-face\s*\{[^}]*\}", page))
    assert 0 < fonts <= BUDGET, f"{fonts / 1024:.0f} KB of fonts"
    faces = embedded(page)
    text = _text(page)
    every = set().union(*faces.values())
    assert not {char for char in text.shown if ord(char) not in every}
    # Running text is set in Gentium, but for the marks and suits it lacks, and the letters
    # of a script the language names its own typeface for.
    regular = faces["GentiumBookPlus-Regular.ttf"]
    gentium = _full_cmap("GentiumBookPlus-Regular.ttf")
    own = [f"{stem}-Regular.ttf" for stem in language(lang).fonts.values()]
    for char in text.running:
        if ord(char) in gentium:
            assert ord(char) in regular, char
        else:
            assert any(ord(char) in _full_cmap(face) and ord(char) in faces.get(face, ())
                       for face in ("DejaVuSans.ttf", *own)), char
    # Subsets: no face carries every letter of the alphabet in both cases and all digits
    # when its page shows only some of them.
    for file, chars in faces.items():
        assert len(chars) < len(_full_cmap(file)) / 4, file


def test_a_page_on_each_paper_carries_the_same_fonts(bookshelf: Books) -> None:
    a4 = bookshelf.html("rulebook", "ronda", "fr", "a4")
    letter = bookshelf.html("rulebook", "ronda", "fr", "letter")
    assert _FACE_RULE.findall(a4) == _FACE_RULE.findall(letter)
    assert "size: 210.0mm 297.0mm" in a4 and "size: 215.9mm 279.4mm" in letter


def test_no_font_is_loaded_from_outside_the_page(bookshelf: Books) -> None:
    page = bookshelf.html("rulebook", "xactika", "en")
    assert f'content="{CSP}"' in page and "font-src data:;" in CSP
    for url in re.findall(r"url\(\s*['\"]?([^'\")]{0,40})", page):
        assert url.startswith(("data:font/woff2;base64,", "#")), url
    assert "@import" not in page and "local(" not in page


REPORT = """<script>
(function () {
  var violations = [];
  document.addEventListener("securitypolicyviolation", function (event) {
    violations.push(event.violatedDirective + " " + event.blockedURI);
  });
  function key(style) { return [style.fontFamily, style.fontWeight, style.fontStyle].join("|"); }
  function ordinal(element) {
    var at = 1;
    for (var other = element.previousElementSibling; other; other = other.previousElementSibling) {
      if (other.tagName === element.tagName) { at += 1; }
    }
    return String(at);
  }
  document.body.getBoundingClientRect();
  document.fonts.ready.then(function () {
    var texts = {};
    function add(style, text) {
      var shown = {uppercase: text.toUpperCase(), lowercase: text.toLowerCase(),
                   capitalize: text + text.toUpperCase()}[style.textTransform] || text;
      texts[key(style)] = (texts[key(style)] || "") + shown;
    }
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var element = node.parentElement;
      if (element.closest("style, script, title, desc") || !node.data.trim()) { continue; }
      add(getComputedStyle(element), node.data.replace(/\\s+/g, " "));
    }
    document.querySelectorAll("body *").forEach(function (element) {
      ["::before", "::after"].forEach(function (pseudo) {
        var style = getComputedStyle(element, pseudo);
        var content = style.content;
        if (content.indexOf("counter(") >= 0) { add(style, ordinal(element)); }
        else if (content.charAt(0) === '"') { add(style, JSON.parse(content)); }
      });
      var style = getComputedStyle(element);
      if (style.display === "list-item" && style.listStyleType !== "none") {
        add(style, style.listStyleType === "decimal" ? ordinal(element) + "." : "\\u2022");
      }
    });
    var faces = [];
    document.fonts.forEach(function (face) {
      faces.push([face.family, face.weight, face.style, face.status]);
    });
    var out = document.createElement("pre");
    out.id = "fonts-report";
    out.textContent = JSON.stringify({texts: texts, faces: faces, violations: violations});
    document.body.appendChild(out);
  });
})();
</script>
"""
"""Reports, once the page is laid out and its fonts loaded, the text it shows in each
computed family, weight and style, the state of each font it declares, and what the
Content-Security-Policy refused."""


def _families(computed: str) -> list[str]:
    return [name.strip().strip('"').lower() for name in computed.split(",")]


def in_chromium(page: str, tmp_path: Path) -> None:
    """In Chromium, every font ``page`` declares loads (so it is used and decodes), none
    is refused, and each character is in the embedded subset of the face it is set in, or
    of the symbols face after it."""
    faces = embedded(page)
    opened = tmp_path / "page.html"
    opened.write_text(page.replace(f'content="{CSP}"', f"content=\"{CSP}; script-src "
                                                       f"'unsafe-inline'\"", 1)
                      .replace("</body>", REPORT + "</body>", 1), encoding="utf-8")
    dom = dumped_dom(opened, tmp_path / "profile")
    found = re.search(r'<pre id="fonts-report">(.*?)</pre>', dom, re.DOTALL)
    assert found, dom[-500:]
    report = json.loads(html.unescape(found[1]))
    assert report["violations"] == []
    assert report["faces"] and all(status == "loaded" for *_face, status in report["faces"]), \
        report["faces"]
    assert len(report["faces"]) == len(faces)
    missing: dict[str, set[str]] = {}
    for computed, text in report["texts"].items():
        family_list, weight, style = computed.split("|")
        families = _families(family_list)
        assert (families[0], weight, style) in FACES, computed
        # the stack's faces the page declares, in order: a family it does not declare is
        # passed over (a Latin page carries no Arabic face)
        stack = [FACES[family, weight, style] for family in families
                 if (family, weight, style) in FACES and FACES[family, weight, style] in faces]
        for char in set(text):
            wanted = next((file for file in stack if ord(char) in _full_cmap(file)), None)
            if wanted is None or ord(char) not in faces.get(wanted, set()):
                missing.setdefault(f"{computed} -> {wanted}", set()).add(char)
    assert not missing


@pytest.mark.parametrize(("game", "lang"), PAGES)
def test_chromium_sets_the_page_in_the_embedded_fonts(bookshelf: Books, tmp_path: Path,
                                                       game: str, lang: str) -> None:
    in_chromium(bookshelf.html("rulebook", game, lang), tmp_path)


CASES = """<h1>Titre ♥</h1>
<p>Texte ♠ <strong>gras ♦</strong> <em>italique <strong>grasse ♣</strong></em>
<code>x = 1</code></p>
<ol><li>un</li><li>deux</li></ol><ul><li>puce</li></ul>
<p style="text-transform: uppercase">crié</p><p class="said">dit</p>
<table><tr><th>Qué</th><td class="num">42</td></tr></table>
<figure><figcaption><span class="figure-number">Fig. 1</span> légende <em>jolie</em>
<ol class="legend"><li>a</li><li>b</li></ol></figcaption></figure>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 90 20" width="90" height="20">
<text x="0" y="10" font-family="Pnp Sans, Lato, sans-serif" font-weight="bold">Ønde</text>
<text x="40" y="10" font-family="Pnp Display, Lato, sans-serif" font-weight="900">ZUT</text>
<text x="70" y="10" font-family="Pnp Symbols, DejaVu Sans, sans-serif">■</text></svg>
"""
"""Text in every way a page may set it: the suits in each text face (which lacks them),
bold in italic, a transform, generated content, list markers, a drawing's own faces."""


def test_every_way_of_setting_text_gets_its_face(tmp_path: Path) -> None:
    from pnp.books.webfonts import font_faces

    css = (Path(__file__).resolve().parents[2] / "templates" / "screen.css").read_text()
    css += '.said::before { content: "« "; }\n'
    body = f"<body>{CASES}</body>"
    faces = font_faces(f"<!doctype html><html><head></head>{body}</html>", css)
    page = (f'<!doctype html>\n<html lang="fr">\n<head>\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            f'<meta charset="utf-8">\n<style>\n{faces}{css}</style>\n</head>\n{body}\n</html>\n')
    found = {file: {chr(code) for code in chars} for file, chars in embedded(page).items()}
    assert found["DejaVuSans.ttf"] >= {"♠", "■"} and "♦" not in found["DejaVuSans.ttf"]
    assert found["DejaVuSans-Bold.ttf"] >= {"♥", "♦"}
    assert found["GentiumBookPlus-Regular.ttf"] >= set("CRIÉ«1.")
    assert found["GentiumBookPlus-Italic.ttf"] >= set("grasse")
    assert found["PnpSans-Bold.ttf"] >= set("QuéFig.Ønde12")
    assert found["PnpSans-Regular.ttf"] >= set("x = 1")
    assert found["PnpSans-Black.ttf"] == set("ZUT")
    in_chromium(page, tmp_path)
