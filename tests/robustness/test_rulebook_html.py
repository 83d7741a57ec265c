"""Markup tricks in an edition's rulebook, read by a browser.

pnp's own policy reads a page with Python's html.parser; a browser reads it by the HTML
standard, which differs where markup sits inside ``<svg>``, ``<math>``, ``<noscript>``,
``<template>``, comments, or before ``<head>``. Each payload below goes into a real edition
(made with ``pnp init``) and through ``pnp rulebook --format html``: the page is refused in
one line, or headless Chromium loads it and no handler runs, the title is the rulebook's
and the Content-Security-Policy leads the head. The same payloads go through the cleaning
of a finished page alone (``Policy.finished``), with the Content-Security-Policy taken out
afterwards, so that each of the two guards is seen to hold by itself.
"""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from browser import dumped_dom
from pnp.books.references import CSP, Policy
from refusal import assert_refused, pnp

TEXT = "templates/rulebooks/qwinto/en.md"
PAGE = "templates/rulebook.html.j2"
TITLE = "Qwinto — Rules of play"
RUN = "document.title='pwned'"
"""What every handler of the payloads does: the title read back says whether one ran."""
CSP_META = f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'

PAYLOADS = {
    "svg style": f'<svg><style><img src=x onerror="{RUN}"></style></svg>',
    "math style": f'<math><style><img src=x onerror="{RUN}"></style></math>',
    "math mtext": f'<math><mtext><table><mglyph><style><img src=x onerror="{RUN}">'
                  f"</style></mglyph></table></mtext></math>",
    "noscript": f'<noscript><p title="</noscript><img src=x onerror={RUN}>"></p></noscript>',
    "template": f'<template><img src=x onerror="{RUN}"></template>',
    "title end": f'<svg><title></title><img src=x onerror="{RUN}"></title></svg>',
    "comment": f'<!-- --!><img src=x onerror="{RUN}"> -->',
    "short comment": f'<!--><img src=x onerror="{RUN}">-->',
    "refresh": '<meta http-equiv="refresh" content="0;url=https://pnp.example/">',
    "base": '<base href="https://pnp.example/">',
    "javascript link": f'<a href="java&#x09;script:{RUN}">x</a>',
    "svg link": f'<svg><a href="javascript:{RUN}"><text>x</text></a></svg>',
}
"""Markup a browser runs or loads where a reader by other rules sees none."""


class _Dom(HTMLParser):
    """What matters in the DOM Chromium wrote out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title: str | None = None
        self.first_in_head: tuple[str, dict[str, str | None]] | None = None
        self.faults: list[str] = []
        self._in: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if self._in[-1:] == ["head"] and self.first_in_head is None:
            self.first_in_head = (tag, values)
        if tag in ("base", "script", "iframe", "object", "embed"):
            self.faults.append(f"<{tag}>")
        if tag == "meta" and "http-equiv" in values and values.get("content") != CSP:
            self.faults.append(f"<meta http-equiv={values['http-equiv']}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.faults.append(f"<{tag} {name}>")
            if name in ("href", "src", "xlink:href") and "script:" in "".join(
                    (value or "").lower().split()):
                self.faults.append(f"<{tag} {name}={value}>")
        if tag not in ("meta", "img", "br", "hr", "wbr", "col", "link", "base"):
            self._in.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self._in:
            del self._in[len(self._in) - 1 - self._in[::-1].index(tag):]

    def handle_data(self, data: str) -> None:
        if self._in[-1:] == ["title"] and "svg" not in self._in and self.title is None:
            self.title = data


def assert_harmless(page: Path, profile: Path, *, csp: bool = True) -> None:
    dom = _Dom()
    dom.feed(dumped_dom(page, profile))
    dom.close()
    assert "pwned" not in (dom.title or ""), "a handler ran"
    assert dom.title == TITLE
    assert dom.faults == []
    if csp:
        assert dom.first_in_head == ("meta", {"http-equiv": "Content-Security-Policy",
                                              "content": CSP}), dom.first_in_head


PLACES = {
    "in the page": (PAGE, "<main>", "<main>{payload}"),
    "before the head": (PAGE, "<head>", "{payload}<p>before</p><head>"),
    "in the text": (TEXT, "", "# Hi\n\n{payload}\n\n"),
}


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("name", list(PAYLOADS))
def test_a_trick_is_refused_or_harmless_in_a_browser(made: Path, tmp_path: Path, name: str,
                                                     place: str) -> None:
    edition = tmp_path / "edition"
    shutil.copytree(made, edition, symlinks=True)
    file, before, after = PLACES[place]
    path = edition / file
    text = path.read_text()
    assert before in text
    path.write_text(after.format(payload=PAYLOADS[name]) if not before else
                    text.replace(before, after.format(payload=PAYLOADS[name]), 1))
    out = tmp_path / "book.html"
    run = pnp("rulebook", "qwinto", "--lang", "en", "--format", "html", "-o", str(out),
              cwd=edition)
    if run.code != 0:
        assert_refused(run)
        assert not out.exists()
        return
    assert run.stderr == "", run.stderr
    assert_harmless(out, tmp_path / "profile")


def test_an_image_without_quotes_in_markdown_is_refused_or_harmless(made: Path,
                                                                    tmp_path: Path) -> None:
    edition = tmp_path / "edition"
    shutil.copytree(made, edition, symlinks=True)
    (edition / TEXT).write_text(f"# Hi\n\nText <img src=x onerror={RUN}> more.\n")
    out = tmp_path / "book.html"
    run = pnp("rulebook", "qwinto", "--lang", "en", "--format", "html", "-o", str(out),
              cwd=edition)
    if run.code != 0:
        assert_refused(run, "refers to x")
        return
    assert_harmless(out, tmp_path / "profile")


PAGE_AROUND = ('<!doctype html>\n<html lang="en">{before}<head>\n<meta charset="utf-8">\n'
               f"<title>{TITLE}</title>\n<style>p {{ color: #123456 }}</style>\n</head>\n"
               '<body class="book"><main><p>Hi</p>{payload}</main></body></html>\n')


@pytest.mark.parametrize("before", [False, True], ids=["", "before the head"])
@pytest.mark.parametrize("name", list(PAYLOADS))
def test_the_finished_page_alone_keeps_no_trick(made: Path, tmp_path: Path, name: str,
                                                before: bool) -> None:
    """The cleaning by itself: with the Content-Security-Policy taken out of what it
    gives, still no handler runs and nothing loads."""
    payload = PAYLOADS[name]
    page = (PAGE_AROUND.replace("{before}", payload if before else "")
            .replace("{payload}", "" if before else payload))
    finished = Policy(made / "templates", standalone=True).finished(page, "en")
    assert finished.startswith(f'<!doctype html>\n<html lang="en">\n<head>\n{CSP_META}\n')
    assert "<style>p { color: #123456 }</style>" in finished
    assert '<body class="book">' in finished
    out = tmp_path / "page.html"
    out.write_text(finished.replace(CSP_META, "", 1))
    assert_harmless(out, tmp_path / "profile", csp=False)


def test_the_drawings_and_style_sheet_of_the_bundled_rulebook_survive(tmp_path: Path) -> None:
    """The cleaning keeps what pnp writes: the page's inline style sheet and its figures
    (the counts are those of the page before cleaning, read with html.parser)."""
    from pnp.books.compose import compose
    from pnp.books.screen import standalone_html

    page = standalone_html(compose("rulebook", "qwinto", "en"), "a4")
    css = (Path(__file__).parents[2] / "templates" / "screen.css").read_text()
    assert css.strip().splitlines()[-1] in page
    assert page.count("<svg") == 5 and page.count("<path") == 281 and page.count("<text") == 156
    assert 'viewBox="' in page and 'textLength="' in page


def _tree(page: str) -> list[tuple[int, str, tuple[tuple[str, str], ...], str]]:
    """A page as a browser's parser (tinyhtml5, WeasyPrint's) reads it: each element's
    depth, name, attributes and text, its metadata left out."""
    import tinyhtml5

    out: list[tuple[int, str, tuple[tuple[str, str], ...], str]] = []

    def walk(element: Any, depth: int) -> None:
        name = str(element.tag).rsplit("}", 1)[-1]
        if name != "meta":
            out.append((depth, name, tuple(sorted((key.rsplit("}", 1)[-1], value)
                                                  for key, value in element.attrib.items())),
                        " ".join((element.text or "").split())))
        for child in element:
            walk(child, depth + 1)
            if (child.tail or "").strip():
                out.append((depth + 1, "#text", (), " ".join(child.tail.split())))

    walk(tinyhtml5.parse(page), 0)
    return out


def test_the_cleaning_drops_nothing_pnp_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every bundled page reads the same in a browser before and after its cleaning
    (but for its metadata): no drawing, style sheet or attribute pnp writes is lost."""
    from pnp.books.compose import compose
    from pnp.books.screen import standalone_html
    from pnp.registry import GAMES

    given: list[str] = []
    clean = Policy.finished

    def finished(policy: Policy, page: str, lang: str) -> str:
        given.append(page)
        return clean(policy, page, lang)

    monkeypatch.setattr(Policy, "finished", finished)
    for game in GAMES:
        for kind in ("rulebook", "card"):
            page = standalone_html(compose(kind, game, "en"), "a4")
            assert _tree(page) == _tree(given[-1]), (game, kind)


@pytest.mark.parametrize("payload", [
    '<svg><style><img src="http://127.0.0.1:9/x.png"></style></svg>',
    '<svg><style><img src="file:///etc/hostname"></style></svg>',
])
def test_the_pdf_fetches_nothing_a_trick_hides(made: Path, tmp_path: Path,
                                               payload: str) -> None:
    """WeasyPrint reads the page as browsers do: what the policy took for text in a
    ``<style>`` is an image to it, and its fetcher refuses it."""
    edition = tmp_path / "edition"
    shutil.copytree(made, edition, symlinks=True)
    page = edition / PAGE
    page.write_text(page.read_text().replace("<main>", f"<main>{payload}", 1))
    out = tmp_path / "book.pdf"
    run = pnp("rulebook", "qwinto", "--lang", "en", "-o", str(out), cwd=edition)
    assert_refused(run, "en.md: refers to ")
    assert not out.exists()
