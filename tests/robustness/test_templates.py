"""Hostile rulebook texts, page templates and style sheets, through the real command.

Each case rewrites files of an edition made with ``pnp init`` and runs ``pnp rulebook
qwinto --lang en`` (PDF or HTML) in it, bounded in time and memory (``tests/refusal.py``).
A canary file lies outside the edition and a listener on 127.0.0.1 records every
connection: each case must be refused in one line, with no request made, nothing
written and the canary's text nowhere in what the command printed.
"""

from __future__ import annotations

import re
import shutil
import socketserver
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp import assets
from pnp.books.compose import compose
from pnp.books.references import CSP
from pnp.books.screen import standalone_html
from pnp.errors import DocumentError
from refusal import Run, assert_refused, pnp

CANARY = "canary-d41c7e0b the text that never leaves its folder"


class Listener(socketserver.ThreadingTCPServer):
    """Answers every connection with the canary, and remembers it was asked."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Answer)
        self.requests: list[bytes] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Answer(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        assert isinstance(self.server, Listener)
        self.request.settimeout(2)
        try:
            self.server.requests.append(self.request.recv(2048) or b"(connected)")
            self.request.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/css\r\n\r\n"
                                 + CANARY.encode())
        except OSError:
            self.server.requests.append(b"(connected)")


@pytest.fixture(scope="module")
def listener() -> Iterator[Listener]:
    server = Listener()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An edition made by the real ``pnp init``, and the canary beside it."""
    root = tmp_path_factory.mktemp("templates")
    run = pnp("init", "edition", cwd=root)
    assert run.code == 0, run.stderr
    outside = root / "outside"
    outside.mkdir()
    (outside / "canary.md").write_text(CANARY)
    (outside / "canary.png").write_text(CANARY)
    return root


@dataclass(frozen=True)
class Link:
    """A file made a link to ``target``."""

    target: str


@dataclass(frozen=True)
class Edit:
    """A file whose text ``before`` becomes ``after`` (an empty ``before``: put at the start)."""

    before: str
    after: str


@dataclass(frozen=True)
class Case:
    name: str
    files: dict[str, str | Link | Edit]
    """Path in the edition -> its new text, a link or an edit. In each, ``{outside}`` is
    the canary's folder and ``{listener}`` the listener's address."""
    words: str
    formats: tuple[str, ...] = ("html",)


TEXT = "templates/rulebooks/qwinto/en.md"
PAGE = "templates/rulebook.html.j2"
CANARY_FILE = "{outside}/canary.md"

CASES = [
    Case("include a linked file", {"templates/secret.md": Link(CANARY_FILE),
                                   TEXT: '# Hi\n\n{% include "secret.md" %}\n'},
         "en.md:3: not allowed: 'secret.md' leads outside", ("pdf", "html")),
    Case("include through a linked folder", {"templates/away": Link("{outside}"),
                                             TEXT: '# Hi\n\n{% include "away/canary.md" %}\n'},
         "en.md:3: not allowed: 'away/canary.md' leads outside"),
    Case("import through a linked folder",
         {"templates/away": Link("{outside}"),
          TEXT: '# Hi\n\n{% import "away/canary.md" as c %}{{ c }}\n'},
         "en.md:3: not allowed: 'away/canary.md' leads outside"),
    Case("extend a linked file", {"templates/base.md": Link(CANARY_FILE),
                                  TEXT: '{% extends "base.md" %}\n'},
         "en.md:1: not allowed: 'base.md' leads outside", ("pdf",)),
    Case("the text is a link", {TEXT: Link(CANARY_FILE)}, "leads outside"),
    Case("the page template is a link", {PAGE: Link(CANARY_FILE)},
         "rulebook.html.j2: not allowed: 'rulebook.html.j2' leads outside"),
    Case("the print style sheet is a link", {"templates/print.css": Link(CANARY_FILE)},
         "rulebook.html.j2:10: refers to print.css, outside", ("pdf",)),
    Case("the screen style sheet is a link", {"templates/screen.css": Link(CANARY_FILE)},
         "screen.css: leads outside the edition's templates"),
    Case("the worked example is a link", {"examples/qwinto.yaml": Link(CANARY_FILE)},
         "qwinto.yaml: leads outside the edition's examples"),
    Case("a missing image", {TEXT: "# Hi\n\n![x](missing.png)\n"},
         "en.md:3: refers to missing.png, which is not a file", ("pdf", "html")),
    Case("an image by file URL", {TEXT: "# Hi\n\n![x](file://{outside}/canary.png)\n"},
         "en.md:3: refers to file://", ("pdf", "html")),
    Case("an image from the listener", {TEXT: "# Hi\n\n![x]({listener}/x.png)\n"},
         "en.md:3: refers to http://127.0.0.1", ("pdf", "html")),
    Case("an image by network path", {TEXT: '# Hi\n\n<img src="//127.0.0.1:9/x.png">\n'},
         "en.md:3: refers to //127.0.0.1:9/x.png, outside", ("pdf", "html")),
    Case("a link to the listener", {TEXT: "# Hi\n\n[x]({listener}/)\n"},
         "en.md:3: links to http://127.0.0.1"),
    Case("a data: page", {TEXT: '# Hi\n\n<a href="data:text/html,<b>x</b>">x</a>\n'},
         "en.md:3: links to data:text/html"),
    Case("a script in the page",
         {PAGE: Edit("</head>", "<script src='{listener}/s.js'></script></head>")},
         "rulebook.html.j2:16: the element <script> is not allowed"),
    Case("a style sheet from the listener",
         {PAGE: Edit("</head>", '<link rel="stylesheet" href="{listener}/s.css"></head>')},
         "rulebook.html.j2:16: refers to http://127.0.0.1", ("pdf",)),
    Case("an import from the listener",
         {PAGE: Edit("</style>", "@import url({listener}/i.css);</style>")},
         "rulebook.html.j2:15: refers to http://127.0.0.1", ("pdf",)),
    Case("a refresh",
         {PAGE: Edit("</head>", '<meta http-equiv="refresh" content="0;url={listener}/"></head>')},
         "a <meta http-equiv> is not allowed"),
    Case("the print style sheet loads",
         {"templates/print.css": Edit("", "@import '{listener}/p.css';\n")},
         "print.css:1: refers to http://127.0.0.1", ("pdf",)),
    Case("a font by file URL",
         {"templates/print.css": Edit("", "@font-face { font-family: X; "
                                          "src: url(file://{outside}/canary.md) }\n")},
         "print.css:1: refers to file://", ("pdf",)),
    Case("the screen style sheet loads",
         {"templates/screen.css": Edit("", "body { background: url({listener}/b.png) }\n")},
         "screen.css:1: refers to http://127.0.0.1"),
    Case("a loop of 10^10 steps",
         {TEXT: "# Hi\n\n{% set r = range(100000)|list %}"
                "{% for i in r %}{% for j in r %}{% endfor %}{% endfor %}\n"},
         "en.md:3: takes longer than 4 s to render"),
    Case("a text of 10^11 characters", {TEXT: "# Hi\n\n{{ 'a' * 100000000000 }}\n"},
         "en.md:3: repeats a text or list into more than"),
    Case("a text doubling in a namespace",
         {TEXT: "# Hi\n\n{% set ns = namespace(s='ab') %}{% for i in range(60) %}"
                "{% set ns.s = ns.s ~ ns.s %}{% endfor %}\n"},
         "en.md:3: takes more than 256 MiB of memory to render"),
    Case("a macro calling itself",
         {TEXT: "# Hi\n\n{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}\n"},
         "en.md:3: nested too deeply"),
    Case("a page of 100 MB", {TEXT: "# Hi\n\n{% for i in range(100000) %}{{ 'x' * 1000 }}"
                                    "{% endfor %}\n"}, "en.md:3: too long: more than 128 KiB"),
    Case("Markdown that takes long to read", {TEXT: "# Hi\n\n" + "[" * 30000 + "]" * 30000},
         "en.md: takes longer than 2 s to read as Markdown"),
    Case("a division by zero", {TEXT: "# Hi\n\nOne.\n\n{{ 1 // 0 }}\n"},
         "en.md:5: integer division or modulo by zero"),
]


def _install(edition: Path, files: dict[str, str | Link | Edit], outside: Path,
             listener: Listener) -> None:
    def filled(text: str) -> str:
        return text.replace("{outside}", str(outside)).replace("{listener}", listener.url)

    for name, change in files.items():
        path = edition / name
        if isinstance(change, Link):
            path.unlink(missing_ok=True)
            path.symlink_to(filled(change.target))
        elif isinstance(change, Edit):
            text = path.read_text()
            assert change.before in text
            path.write_text(text.replace(change.before, filled(change.after), 1)
                            if change.before else filled(change.after) + text)
        else:
            path.write_text(filled(change))


@pytest.mark.parametrize(("case", "fmt"), [pytest.param(case, fmt, id=f"{case.name}-{fmt}")
                                           for case in CASES for fmt in case.formats])
def test_hostile_content_is_refused(case: Case, fmt: str, made: Path, listener: Listener,
                                    tmp_path: Path) -> None:
    edition = tmp_path / "edition"
    shutil.copytree(made / "edition", edition, symlinks=True)
    _install(edition, case.files, made / "outside", listener)
    out = tmp_path / f"book.{fmt}"
    run = pnp("rulebook", "qwinto", "--lang", "en", "--format", fmt, "-o", str(out),
              cwd=edition)
    assert_refused(run, case.words)
    assert not out.exists()
    assert_untouched(run, listener)


def assert_untouched(run: Run, listener: Listener, *outputs: Path) -> None:
    """No request reached the listener, and the canary is in nothing pnp wrote."""
    assert listener.requests == [], listener.requests
    for text in (run.stdout, run.stderr, *(p.read_bytes().decode("latin-1") for p in outputs)):
        assert CANARY not in text and "canary-d41c7e0b" not in text


def test_a_sound_document_with_images_and_links_is_made(made: Path, listener: Listener,
                                                        tmp_path: Path) -> None:
    edition = tmp_path / "edition"
    shutil.copytree(made / "edition", edition, symlinks=True)
    (edition / "templates" / "dot.png").write_bytes(_PNG)
    (edition / TEXT).write_text("# Hi\n\n![a dot](dot.png) [up](#hi) "
                                "[pnp](https://pnp.example/) [mail](mailto:a@pnp.example)\n")
    for fmt in ("html", "pdf"):
        out = tmp_path / f"book.{fmt}"
        run = pnp("rulebook", "qwinto", "--lang", "en", "--format", fmt, "-o", str(out),
                  cwd=edition)
        assert run.code == 0 and run.stderr == "", run.stderr
        assert_untouched(run, listener, out)
    page = (tmp_path / "book.html").read_text()
    assert_self_contained(page)
    assert page.count("data:image/png;base64,") == 1


def assert_self_contained(page: str) -> None:
    """Every reference of an HTML page is to itself, inline, or an https/mailto hyperlink;
    and its first element in <head> is the Content-Security-Policy."""
    assert re.search(r"<head>\s*<meta http-equiv=\"Content-Security-Policy\" content=\"" +
                     re.escape(CSP) + '">', page)
    scan = _References()
    scan.feed(page)
    scan.close()
    for tag, name, value in scan.found:
        value = value.strip().lower()
        if (tag, name) == ("a", "href"):
            assert value.startswith(("#", "https://", "mailto:")) or value == "", value
        elif (tag, name) == ("img", "src"):
            assert re.match(r"data:image/(png|jpeg)[;,]", value), value
        elif (tag, name) == ("meta", "http-equiv"):
            assert value == "content-security-policy"
        else:
            raise AssertionError(f"<{tag} {name}={value[:80]!r}>")
    for css in scan.styles:
        for url in re.findall(r"url\(\s*['\"]?([^'\")]*)", css.lower()):
            assert url.startswith("data:"), url
        assert "@import" not in css.lower()


class _References(HTMLParser):
    LOADS: ClassVar[set[str]] = {"href", "src", "srcset", "action", "formaction", "data",
                                 "poster",
                                 "background", "cite", "xlink:href", "ping", "http-equiv",
                                 "manifest", "codebase", "archive"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str, str]] = []
        self.styles: list[str] = []
        self._style = False

    SVG: ClassVar[set[str]] = {"svg", "title", "path", "text", "clippath", "g"}
    """The SVG pnp draws its figures in (pnp/draw/svg.py): shapes and text, nothing that
    loads (no <image>, <use>, <foreignObject>, no links)."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # inline drawings may hold shapes and text, never what loads or runs (references.py)
        assert tag not in ("link", "script", "iframe", "object", "embed", "base", "image",
                           "use", "foreignobject", "animate", "set", "feimage"), tag
        self._style = tag == "style"
        for name, value in attrs:
            if name in self.LOADS:
                self.found.append((tag, name, value or ""))
            if tag in self.SVG:
                for url in re.findall(r"url\(\s*['\"]?([^'\")]*)", (value or "").lower()):
                    assert url.startswith("#"), (tag, name, url)
            if name == "style" or name.startswith("on"):
                self.styles.append(value or "")
                assert not name.startswith("on"), name

    def handle_endtag(self, tag: str) -> None:
        self._style = False

    def handle_data(self, data: str) -> None:
        if self._style:
            self.styles.append(data)


_PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de"
                     "0000000c4944415478da63f8cfc0000003010100c9fe92ef0000000049454e44ae426082")

URLS = st.sampled_from([
    "http://127.0.0.1:9/a.png", "HTTP://127.0.0.1:9/", "https://pnp.example/x", "https:x",
    "//198.51.100.7/x.png", "\\\\198.51.100.7\\x", "/\\198.51.100.7/x", "file:///etc/passwd",
    "fIlE:/etc/hostname", "data:text/html,<b>x</b>", "data:image/svg+xml,<svg/>",
    "data:image/png;base64,iVBORw0KGgo=", "javascript:alert(1)", "java\tscript:alert(1)",
    "mailto:a@pnp.example", "#scoring", "", "dot.png", "../../../etc/hostname", "print.css",
    "rulebook.html.j2", "%2e%2e/%2e%2e/etc/hostname", "dot.png?x=1#y",
])
FORMS = st.sampled_from([
    "![x]({u})", "[x]({u})", '<img src="{u}">', "<img src={u}>", '<a href="{u}">x</a>',
    '<p style="background: url({u})">x</p>', "<style>@import '{u}';</style>",
    '<link rel="stylesheet" href="{u}">', '<svg><image href="{u}"/></svg>',
    '<iframe src="{u}"></iframe>', '<object data="{u}"></object>', "<{u}>",
    '<img srcset="{u} 1x">', '<meta http-equiv="refresh" content="0;url={u}">',
])


@pytest.fixture(scope="module")
def playground(made: Path) -> assets.Edition:
    """A copy of the edition for the property below to rewrite, with an image."""
    shutil.copytree(made / "edition", made / "playground", symlinks=True)
    (made / "playground" / "templates" / "dot.png").write_bytes(_PNG)
    return assets.Edition.from_folder(made / "playground")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(FORMS, URLS, st.sampled_from(["", " ", "\n", "\t"])), min_size=1,
                max_size=4))
def test_the_html_edition_refuses_or_refers_to_nothing(playground: assets.Edition,
                                                       pieces: list[tuple[str, str, str]]
                                                       ) -> None:
    """Whatever references a text makes, the composition refuses it in one line naming
    the text, or the HTML page refers to nothing outside itself."""
    edition = playground
    templates = edition.templates
    text = "# Hi\n\n" + "\n\n".join(form.replace("{u}", space + url + space)
                                    for form, url, space in pieces) + "\n"
    (templates / "rulebooks" / "qwinto" / "en.md").write_text(text)
    assets.use(edition)
    try:
        composed = compose("rulebook", "qwinto", "en")
        page = standalone_html(composed, "a4")
    except DocumentError as exc:
        message = str(exc)
        assert "rulebooks/qwinto/en.md" in message and "\n" not in message
        assert len(message) < 500
        return
    finally:
        assets.use(None)
    assert_self_contained(page)


ATOMS = st.sampled_from([
    "0", "7", "-3", "100000", "10 ** 10", "2 ** 64", "1.5", "'ab'", "'a' * 60000", "[1, 'b']",
    "range(100000)", "range(10)", "rules", "example.players", "none", "''.__class__", "lipsum",
    "ns.s", "dict(a=1)", "cycler(1, 2)", "'{:>99999999}'",
])
FILTERS = st.sampled_from([
    "center(10 ** 9)", "indent(99999999)", "join", "list", "first", "sum", "length", "string",
    "int", "batch(100000)|list", "slice(100000)|list", "replace('a', 'a' * 100000)",
    "wordwrap(1)", "truncate(10 ** 9)", "format(1)", "reverse|list", "unique|list", "sort",
    "map('string')|join", "tojson", "pprint", "urlize", "xmlattr", "attr('__class__')",
])
EXPRESSIONS = st.recursive(ATOMS, lambda inner: st.one_of(
    st.tuples(inner, st.sampled_from(["*", "**", "+", "~", "/", "//", "%", "-"]), inner)
    .map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
    st.tuples(inner, FILTERS).map(lambda t: f"({t[0]})|{t[1]}"),
    st.tuples(inner, inner).map(lambda t: f"({t[0]}).format({t[1]})"),
    st.tuples(inner, inner).map(lambda t: f"({t[0]}).join({t[1]})"),
    inner.map(lambda e: f"range({e})"),
), max_leaves=5)
STATEMENTS = st.one_of(
    EXPRESSIONS.map(lambda e: f"{{{{ {e} }}}}"),
    st.tuples(EXPRESSIONS, EXPRESSIONS).map(
        lambda t: f"{{% for i in {t[0]} %}}{{% set ns.s = {t[1]} %}}{{{{ i }}}}{{% endfor %}}"),
    st.tuples(EXPRESSIONS, EXPRESSIONS).map(
        lambda t: f"{{% for i in {t[0]} %}}{{% for j in {t[0]} %}}{{{{ {t[1]} }}}}"
                  f"{{% endfor %}}{{% endfor %}}"),
)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(STATEMENTS, min_size=1, max_size=3))
def test_template_work_is_refused_in_one_line_or_done(playground: assets.Edition,
                                                      statements: list[str]) -> None:
    """Whatever a text computes, it renders, or is refused with one line naming the text,
    within the deadline (plus the time of one step)."""
    from unittest import mock

    from pnp.books import sandbox

    text = "# Hi\n\n{% set ns = namespace(s='') %}" + "\n\n".join(statements) + "\n"
    (playground.templates / "rulebooks" / "qwinto" / "en.md").write_text(text)
    assets.use(playground)
    started = time.process_time()
    try:
        with mock.patch.object(sandbox, "TEMPLATE_SECONDS", 0.5):
            compose("rulebook", "qwinto", "en")
    except DocumentError as exc:
        message = str(exc)
        assert "rulebooks/qwinto/en.md" in message, message
        assert "\n" not in message and len(message) < 500, message
    finally:
        assets.use(None)
    assert time.process_time() - started < 5


def test_every_bundled_page_is_self_contained() -> None:
    from pnp.registry import GAMES

    for game in GAMES:
        for kind in ("rulebook", "card"):
            assert_self_contained(standalone_html(compose(kind, game, "en"), "a4"))


def test_one_call_that_runs_past_the_deadline_is_stopped(tmp_path: Path) -> None:
    """The deadline is checked between a template's steps; a single call that runs on (a
    figure drawn from absurd inputs, say) is stopped by the processor-time limit."""
    from pnp.books import sandbox

    (tmp_path / "page.md").write_text("Before\n{{ spin() }}\nAfter\n", encoding="utf-8")
    env = sandbox.Sandbox(tmp_path)

    def spin() -> str:
        start = time.process_time()
        while time.process_time() - start < 3 * sandbox.TEMPLATE_SECONDS:
            pass
        return "done"

    env.globals["spin"] = spin
    started = time.process_time()
    with pytest.raises(DocumentError, match=r"page\.md: takes longer than 4 s to render"):
        sandbox.render_template(env, "page.md", {})
    assert time.process_time() - started < 2 * sandbox.TEMPLATE_SECONDS


def test_a_template_edited_between_two_books_is_read_as_it_now_is(made: Path) -> None:
    """Templates compiled once in a process (:mod:`pnp.books.sandbox`) are compiled again
    when their text changes, as ``pnp serve --watch`` edits them under a running build."""
    shutil.copytree(made / "edition", made / "edited", symlinks=True)
    edition = assets.Edition.from_folder(made / "edited")
    text = edition.templates / "rulebooks" / "qwinto" / "en.md"
    assets.use(edition)
    try:
        for word in ("Before", "After"):
            text.write_text(f"# {word}\n\nThe {{{{ rules.name('en') }}}} rules.\n")
            assert f">{word}</h1>" in compose("rulebook", "qwinto", "en").html
    finally:
        assets.use(None)
