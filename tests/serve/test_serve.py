"""``pnp serve``: the build folder and nothing else, to this computer unless asked; QR codes
that read back as the address; ``--watch`` rebuilds an edit, HTML first, and the page shows
it, or the broken edit's line until it is fixed."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import http.client
import json
import multiprocessing
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import zxingcpp
from PIL import Image, ImageDraw

from pnp.assets import Edition, init, use
from pnp.build.incremental import build
from pnp.build.workers import die_with_parent
from pnp.errors import ServeError
from pnp.outputs.targets import Target
from pnp.serve import qr
from pnp.serve.http import LIVE_SOURCE, Server, allow_live, lan_address, listen
from pnp.serve.watch import Live, Watcher

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "tests" / "js"
RULEBOOK_CSP = ("default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; "
                "base-uri 'none'; form-action 'none'")
PAGE = (f'<!doctype html>\n<html><head><meta http-equiv="Content-Security-Policy" '
        f'content="{RULEBOOK_CSP}"><meta charset="utf-8"><title>Qwinto</title></head>\n'
        f"<body><h1>Qwinto</h1></body>\n</html>\n")


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A build folder with one file of each type, hidden files, a folder without an index,
    links in and out, a pipe; and a secret beside it."""
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "key.txt").write_text("SECRET")
    root = tmp_path / "output"
    (root / "qwinto" / "en").mkdir(parents=True)
    (root / "thumbs").mkdir()
    (root / "ronda").mkdir()
    (root / "index.html").write_text("<!doctype html><title>index</title><body>landing</body>")
    (root / "qwinto" / "en" / "qwinto-rulebook-a4.html").write_text(PAGE)
    (root / "qwinto" / "en" / "qwinto-rulebook-a4.pdf").write_bytes(b"%PDF-1.7\n%%EOF\n")
    (root / "thumbs" / "t.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (root / "app.webmanifest").write_text('{"name": "pnp"}')
    (root / "app.js").write_text("console.log(1);")
    (root / "logo.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    (root / ".pnp-build.json").write_text("{}")
    (root / "qwinto" / "index.html").write_text("qwinto index")
    (root / "inner").symlink_to(root / "qwinto")
    (root / "out").symlink_to(tmp_path / "secret")
    (root / "key.txt").symlink_to(tmp_path / "secret" / "key.txt")
    os.mkfifo(root / "pipe.html")
    return root


@contextlib.contextmanager
def serving(root: Path, live: Live | None = None) -> Iterator[Server]:
    server = listen(root, port=0, live=live)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def fetch(server: Server, path: str, method: str = "GET",
          headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return (response.status, {k.lower(): v for k, v in response.getheaders()},
                response.read())
    finally:
        connection.close()


# --- serving files ---------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "kind"), [
    ("/qwinto/en/qwinto-rulebook-a4.html", "text/html; charset=utf-8"),
    ("/qwinto/en/qwinto-rulebook-a4.pdf", "application/pdf"),
    ("/thumbs/t.png", "image/png"),
    ("/app.webmanifest", "application/manifest+json"),
    ("/app.js", "text/javascript; charset=utf-8"),
    ("/logo.svg", "image/svg+xml"),
])
def test_each_file_is_sent_as_it_is_with_its_type(site: Path, path: str, kind: str) -> None:
    with serving(site) as server:
        status, headers, body = fetch(server, path)
        head_status, head_headers, head_body = fetch(server, path, "HEAD")
    assert status == 200 and body == (site / path[1:]).read_bytes()
    assert headers["content-type"] == kind
    assert headers["content-length"] == str(len(body))
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["cache-control"] == "no-cache"
    runs_scripts = kind.startswith(("text/html", "image/svg"))
    assert ("content-security-policy" in headers) == runs_scripts
    assert (head_status, head_body) == (200, b"")
    assert head_headers["content-length"] == str(len(body))


def test_the_pages_policy_lets_their_own_inline_script_run_and_nothing_from_elsewhere(
        site: Path) -> None:
    script = "document.body.dataset.ran = 'yes';"
    (site / "index.html").write_text(f"<!doctype html><title>index</title><body>landing"
                                     f"<script>{script}</script></body>")
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    with serving(site) as server:
        policy = fetch(server, "/index.html")[1]["content-security-policy"]
    directives = {d.split()[0]: d.split()[1:] for d in policy.split("; ")}
    assert directives["script-src"] == ["'self'", f"'sha256-{digest}'"]
    assert directives["connect-src"] == ["'self'"]
    assert directives["default-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]


def test_a_folder_is_its_index_or_nothing(site: Path) -> None:
    with serving(site) as server:
        assert fetch(server, "/")[2] == (site / "index.html").read_bytes()
        assert fetch(server, "/qwinto/")[2] == b"qwinto index"
        status, headers, _ = fetch(server, "/qwinto")
        assert (status, headers["location"]) == (301, "/qwinto/")
        assert fetch(server, "//qwinto")[1]["location"] == "/qwinto/"  # never //host/
        for listing in ("/ronda/", "/ronda", "/qwinto/en/", "/thumbs/"):
            status, _, body = fetch(server, listing)
            assert status == 404 and b"t.png" not in body and b"href" not in body


@pytest.mark.parametrize("path", [
    "/../secret/key.txt", "/%2e%2e/secret/key.txt", "/%2E%2E/secret/key.txt",
    "/qwinto/%2e%2e/%2e%2e/secret/key.txt", "/..%2fsecret%2fkey.txt", "/qwinto/en/../../../secret",
    "/out/key.txt", "/out/", "/key.txt", "/.pnp-build.json", "/%2epnp-build.json",
    "/qwinto/./en/qwinto-rulebook-a4.pdf", "/..\\secret\\key.txt", "/index.html%00.png",
    "/%ff.html",
])
def test_nothing_outside_the_folder_nor_hidden_is_served(site: Path, path: str) -> None:
    with serving(site) as server:
        status, _, body = fetch(server, path)
    assert status == 404
    assert b"SECRET" not in body and b"{}" not in body


def test_a_link_inside_the_folder_is_followed(site: Path) -> None:
    with serving(site) as server:
        status, _, body = fetch(server, "/inner/en/qwinto-rulebook-a4.pdf")
    assert (status, body) == (200, b"%PDF-1.7\n%%EOF\n")


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_only_get_and_head_are_answered(site: Path, method: str) -> None:
    before = (site / "index.html").read_bytes()
    with serving(site) as server:
        status, headers, _ = fetch(server, "/index.html", method)
    assert (status, headers["allow"]) == (405, "GET, HEAD")
    assert (site / "index.html").read_bytes() == before


def test_a_pipe_is_not_read(site: Path) -> None:
    start = time.monotonic()
    with serving(site) as server:
        assert fetch(server, "/pipe.html")[0] == 404
    # A server that opened the pipe would wait for a writer for ever, burning no processor
    # time, so only wall time tells; the answer takes milliseconds, and 60 s leaves room for
    # a machine that is also running a full build.
    assert time.monotonic() - start < 60


def test_an_unchanged_file_is_not_sent_again(site: Path) -> None:
    with serving(site) as server:
        tag = fetch(server, "/index.html")[1]["etag"]
        status, _, body = fetch(server, "/index.html", headers={"If-None-Match": tag})
        assert (status, body) == (304, b"")
        (site / "index.html").write_text("changed")
        assert fetch(server, "/index.html", headers={"If-None-Match": tag})[2] == b"changed"


def test_the_server_listens_on_loopback_by_default(site: Path) -> None:
    server = listen(site, port=0)
    try:
        assert server.server_address[0] == "127.0.0.1"
        assert server.url == f"http://127.0.0.1:{server.port}/"
    finally:
        server.server_close()


def test_a_taken_port_gives_way_to_a_free_one(site: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        server = listen(site, port=busy)
        try:
            assert server.port not in (busy, 0)
        finally:
            server.server_close()


# --- the LAN address ---------------------------------------------------------------------------

def test_the_lan_address_is_the_first_one_others_can_reach() -> None:
    assert lan_address(lambda: ["127.0.0.1", "169.254.10.1", "0.0.0.0", "not an address",
                                "::1", "192.168.1.23", "10.0.0.7"]) == "192.168.1.23"
    assert lan_address(lambda: ["10.0.0.7", "192.168.1.23"]) == "10.0.0.7"
    with pytest.raises(ServeError, match="no address on a network"):
        lan_address(lambda: ["127.0.0.1", "127.0.1.1"])


def test_the_lan_address_is_found_without_sending_anything(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    class Probe:
        def __init__(self, family: int, kind: int) -> None:
            calls.append(f"socket {kind == socket.SOCK_DGRAM}")

        def __enter__(self) -> Probe:
            return self

        def __exit__(self, *args: Any) -> None:
            pass

        def connect(self, address: tuple[str, int]) -> None:
            calls.append(f"connect {address[0]}")

        def getsockname(self) -> tuple[str, int]:
            return ("192.168.7.7", 40000)

        def __getattr__(self, name: str) -> Any:
            raise AssertionError(f"the probe must not {name}")

    monkeypatch.setattr(socket, "socket", Probe)
    assert lan_address() == "192.168.7.7"
    assert calls[0] == "socket True" and calls[1].startswith("connect 10.")


def test_without_a_route_the_names_addresses_are_tried(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Unrouted:
        def __init__(self, *args: Any) -> None:
            pass

        def __enter__(self) -> Unrouted:
            return self

        def __exit__(self, *args: Any) -> None:
            pass

        def connect(self, address: tuple[str, int]) -> None:
            raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(socket, "socket", Unrouted)
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args: [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.1.1", 0)),
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("172.16.4.2", 0))])
    assert lan_address() == "172.16.4.2"


# --- QR codes --------------------------------------------------------------------------------

URLS = ["http://192.168.1.23:8000/", "http://10.0.0.7:43817/qwinto/es/qwinto-scorer.html",
        "http://127.0.0.1:8000/spectacle/fr/spectacle-rulebook-letter.html?x=%C3%A9"]


def decoded(image: Image.Image) -> list[str]:
    return [code.text for code in zxingcpp.read_barcodes(image)
            if code.format == zxingcpp.BarcodeFormat.QRCode]


def svg_image(svg: str) -> Image.Image:
    """The SVG drawn by a renderer of its own (WeasyPrint, then PDFium), 50 mm wide."""
    import pypdfium2
    import weasyprint

    page = (f"<html><head><style>@page {{ size: 80mm 80mm; margin: 10mm }} "
            f"svg {{ width: 50mm; height: 50mm }}</style></head><body>{svg}</body></html>")
    pdf = weasyprint.HTML(string=page).write_pdf()
    document = pypdfium2.PdfDocument(pdf)
    try:
        return document[0].render(scale=200 / 72).to_pil().convert("L")
    finally:
        document.close()


def terminal_image(text: str) -> Image.Image:
    """The terminal's text drawn as a terminal shows it: each half block a dark half."""
    lines = re.sub(r"\x1b\[[0-9;]*m", "", text).split("\n")[:-1]
    halves = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}
    scale = 6
    image = Image.new("L", (len(lines[0]) * scale, 2 * len(lines) * scale), 255)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        for column, char in enumerate(line):
            for half, dark in enumerate(halves[char]):
                if dark:
                    top = (2 * row + half) * scale
                    draw.rectangle([column * scale, top, (column + 1) * scale - 1,
                                    top + scale - 1], fill=0)
    return image


@pytest.mark.parametrize("url", URLS)
def test_the_svg_reads_back_as_the_url(url: str) -> None:
    svg = qr.svg(url, title="Open on a phone")
    assert svg.startswith("<svg") and 'class="pnp-qr"' in svg and "<title>" in svg
    assert "width=" not in svg.split(">")[0]  # sized by the page's CSS
    assert decoded(svg_image(svg)) == [url]


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("colour", [True, False])
def test_the_terminals_code_reads_back_as_the_url(url: str, colour: bool) -> None:
    text = qr.terminal(url, colour=colour)
    assert ("\x1b[30;107m" in text) == colour  # black on white whatever the terminal's colours
    assert decoded(terminal_image(text)) == [url]


def test_the_servers_code_is_of_its_own_address(site: Path) -> None:
    with serving(site) as server:
        status, headers, body = fetch(server, "/__pnp/qr.svg?path=qwinto/en/qwinto-scorer.html")
    assert (status, headers["content-type"]) == (200, "image/svg+xml")
    assert decoded(svg_image(body.decode())) == [f"{server.url}qwinto/en/qwinto-scorer.html"]


# --- the command -----------------------------------------------------------------------------

def descendants(pid: int) -> set[int]:
    """The processes ``pid`` started, and theirs (Linux)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            for child in (task / "children").read_text().split():
                found |= {int(child)} | descendants(int(child))
    return found


def running(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (a zombie waiting for its reaping has ended)."""
    alive = set()
    for pid in pids:
        with contextlib.suppress(OSError):
            if "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text():
                alive.add(pid)
    return alive


def hear_ctrl_c() -> None:
    """Ctrl-C as a terminal's foreground command has it: a test run started in the
    background of a shell (``pytest &``) has it ignored, and its children would inherit
    that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Serving:
    """``pnp serve --port 0 ARGS`` in ``folder``, in a session of its own; its output read
    in a thread."""

    def __init__(self, folder: Path, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pnp", "serve", "--port", "0", *args], cwd=folder,
            env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONFAULTHANDLER": "1"},
            preexec_fn=hear_ctrl_c, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, start_new_session=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.process.stdout.close()
        self.lines.put(None)

    def until(self, text: str, timeout: float = 60) -> str:
        """The output up to the line holding ``text``."""
        said = ""
        while text not in said:
            line = self.lines.get(timeout=timeout)
            assert line is not None, said
            said += line
        return said

    def ctrl_c(self) -> str:
        """Press Ctrl-C, as a terminal does (to every process of the session); the rest of
        the output."""
        os.killpg(self.process.pid, signal.SIGINT)
        hung = False
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            hung = True  # SIGABRT makes Python's fault handler print where each thread is
            os.kill(self.process.pid, signal.SIGABRT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        rest = ""
        with contextlib.suppress(queue.Empty):  # the builds' processes share the output
            while (line := self.lines.get(timeout=5)) is not None:  # and end a moment later
                rest += line
        assert not hung, f"pnp serve did not stop on Ctrl-C within 30 s:\n{rest}"
        return rest


def test_pnp_serve_says_where_and_stops_cleanly_on_ctrl_c(site: Path) -> None:
    serving = Serving(site.parent, "--out", "output")
    try:
        said = serving.until("Ctrl-C stops")
        url = re.search(r"serving output/ at (http://127\.0\.0\.1:(\d+)/)\n", said)
        assert url and "--lan" in said
        connection = http.client.HTTPConnection("127.0.0.1", int(url.group(2)), timeout=10)
        connection.request("GET", "/")
        assert b"landing" in connection.getresponse().read()
        connection.close()
    finally:
        rest = serving.ctrl_c()
    assert serving.process.returncode == 0
    assert rest == "stopped\n"


# --- watch mode ------------------------------------------------------------------------------

def test_the_watch_script_is_allowed_by_each_policy_and_nothing_else_is() -> None:
    assert allow_live(RULEBOOK_CSP) == (
        f"{RULEBOOK_CSP}; script-src {LIVE_SOURCE}; connect-src 'self'")
    inline = "script-src 'unsafe-inline'; connect-src 'self'"
    assert allow_live(inline) == inline  # a hash would turn its inline scripts off
    assert allow_live("script-src 'sha256-abc'; connect-src 'none'") == (
        f"script-src 'sha256-abc' {LIVE_SOURCE}; connect-src 'self'")
    assert allow_live("default-src 'self' data:") == (
        f"default-src 'self' data:; script-src 'self' data: {LIVE_SOURCE}")
    assert allow_live("img-src data:") == "img-src data:"  # scripts are not restricted


def test_pages_carry_the_watch_script_only_in_watch_mode_and_never_on_disk(site: Path) -> None:
    path = "/qwinto/en/qwinto-rulebook-a4.html"
    with serving(site) as server:
        plain = fetch(server, path)[2]
    with serving(site, Live()) as server:
        _status, headers, live = fetch(server, path)
        pdf = fetch(server, "/qwinto/en/qwinto-rulebook-a4.pdf")[2]
    assert plain == PAGE.encode() == (site / path[1:]).read_bytes()
    assert b"EventSource" not in plain and b"EventSource" in live
    assert live.index(b"EventSource") < live.index(b"</body>")
    assert b'data-page="qwinto/en/qwinto-rulebook-a4.html"' in live
    policy = re.search(rb'content="([^"]*)"', live)
    assert policy and policy.group(1).decode() == allow_live(RULEBOOK_CSP)
    assert headers["cache-control"] == "no-store"
    assert pdf == b"%PDF-1.7\n%%EOF\n"


BOOK = "qwinto/en/qwinto-rulebook-a4.html"
TEXT = Path("templates/rulebooks/qwinto/en.md")


@pytest.fixture(scope="module")
def edition(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """An edition with the English Qwinto rulebook built as HTML (A4, Letter) and PDF (A4)."""
    folder = tmp_path_factory.mktemp("serve") / "edition"
    init(folder)
    use(Edition.from_folder(folder))
    try:
        book = [Target("qwinto", "en", "rulebook", paper, fmt)
                for paper, fmt in (("a4", "html"), ("letter", "html"), ("a4", "pdf"))]
        assert build(book, folder / "output", jobs=2).count("failed") == 0
        yield folder
    finally:
        use(None)


class Events:
    """The server's event stream, read in a thread; ``state`` is its first event's data."""

    def __init__(self, server: Server) -> None:
        self.queue: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue()
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        self.connection.request("GET", "/__pnp/events")
        response = self.connection.getresponse()
        assert response.getheader("Content-Type", "").startswith("text/event-stream")
        threading.Thread(target=self._read, args=(response,), daemon=True).start()
        name, self.state = self.queue.get(timeout=30)
        assert name == "state"

    def _read(self, response: http.client.HTTPResponse) -> None:
        with contextlib.suppress(OSError, ValueError):
            for block in iter(lambda: _block(response), None):
                self.queue.put(block)

    def next(self, wanted: Any = lambda data: True, timeout: float = 90) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            name, data = self.queue.get(timeout=max(0.1, deadline - time.monotonic()))
            if name == "built" and wanted(data):
                return data


def _block(response: http.client.HTTPResponse) -> tuple[str, dict[str, Any]] | None:
    name, data = "", ""
    while line := response.readline().decode():
        if line == "\n" and name:
            return name, json.loads(data)
        if line.startswith("event: "):
            name = line[7:].strip()
        elif line.startswith("data: "):
            data = line[6:]
    return None


@contextlib.contextmanager
def watching(edition: Path) -> Iterator[tuple[Server, Events]]:
    said: list[str] = []
    watcher = Watcher.start(edition / "output", said.append, jobs=1, poll=0.05)
    try:
        with serving(edition / "output", watcher.live) as server:
            events = Events(server)
            try:
                if not events.state["settled"]:
                    events.next(lambda data: data["final"])  # caught up
                yield server, events
            finally:
                events.connection.close()
    finally:
        watcher.stop()
    assert not watcher.process.is_alive()


@contextlib.contextmanager
def edited(path: Path, added: str) -> Iterator[str]:
    """``path`` with ``added`` at its end, for a while; yields the text before."""
    before = path.read_text(encoding="utf-8")
    path.write_text(before + added, encoding="utf-8")
    try:
        yield before
    finally:
        path.write_text(before, encoding="utf-8")


def test_an_edit_is_rebuilt_html_first_then_the_pdf(edition: Path) -> None:
    with watching(edition) as (server, events):
        with edited(edition / TEXT, "\nA paragraph written while watching.\n"):
            first = events.next(lambda data: data["paths"])
            assert first["phase"] == "html" and not first["final"] and not first["errors"]
            assert sorted(first["paths"]) == sorted(
                [BOOK, "qwinto/en/qwinto-rulebook-letter.html", "index.html"])
            page = fetch(server, "/" + BOOK)[2]
            assert b"A paragraph written while watching." in page
            later = events.next()
            assert later["phase"] == "pdf" and later["final"]
            assert "qwinto/en/qwinto-rulebook-a4.pdf" in later["paths"]
        events.next(lambda data: BOOK in data["paths"])  # and back


def test_a_broken_text_shows_its_line_until_it_is_fixed(edition: Path) -> None:
    text = edition / TEXT
    lines = text.read_text(encoding="utf-8").count("\n") + 2
    with watching(edition) as (_server, events), edited(text, "\n{{ broken\n"):
        broken = events.next(lambda data: data["errors"])
        assert broken["phase"] == "html" and BOOK not in broken["paths"]
        [line] = broken["errors"]  # one line for the cause, however many files it fails
        assert line.startswith(f"failed: {BOOK}: ")
        assert line.endswith(f"en.md:{lines}: unexpected end of template, expected "
                             f"'end of print statement'.")
        pdf = events.next()
        assert pdf["phase"] == "pdf" and pdf["errors"] == [line]
        text.write_text(text.read_text(encoding="utf-8").replace("{{ broken", "Fixed."),
                        encoding="utf-8")
        fixed = events.next(lambda data: BOOK in data["paths"])
        assert fixed["errors"] == []


def test_a_broken_definition_shows_its_line_until_it_is_fixed(edition: Path) -> None:
    rules = edition / "rules" / "qwinto.yaml"
    lines = rules.read_text(encoding="utf-8").count("\n") + 1
    with watching(edition) as (_server, events):
        with edited(rules, "name: again\n"):
            broken = events.next(lambda data: data["errors"])
            assert broken["final"] and broken["paths"] == []
            assert broken["errors"] == [f"error: {rules}:{lines}: duplicate key 'name' "
                                        f"(first at line 4)"]
        assert events.next()["errors"] == []


def test_chromium_shows_a_broken_edit_over_the_page_and_reloads_when_fixed(
        edition: Path, tmp_path: Path) -> None:
    chromium = shutil.which("chromium")
    if chromium is None or not (JS / "node_modules" / "playwright-core").is_dir():
        if os.environ.get("CI"):
            pytest.fail("chromium and tests/js/node_modules are needed (make setup)")
        pytest.skip("chromium or tests/js/node_modules missing (make js)")
    text = edition / TEXT
    said: list[dict[str, Any]] = []
    with (watching(edition) as (server, _events), edited(text, "") as good,
          subprocess.Popen(["node", str(JS / "live.mjs"), chromium, server.url + BOOK,
                            "The fix is in.", str(tmp_path / "overlay.png")],
                           cwd=JS, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True) as browser):
        try:
            for step, then in (("ready", "\n{{ broken\n"), ("overlay", "\nThe fix is in.\n"),
                               ("fixed", None)):
                while not said or step not in said[-1]:
                    line = browser.stdout.readline() if browser.stdout else ""
                    assert line, browser.stderr.read() if browser.stderr else ""
                    said.append(json.loads(line))
                if then:
                    text.write_text(good + then, encoding="utf-8")
            browser.wait(timeout=60)
        finally:
            if browser.poll() is None:
                browser.kill()
    overlay = next(step["overlay"] for step in said if "overlay" in step)
    assert "does not build" in overlay
    assert f"failed: {BOOK}: " in overlay and "unexpected end of template" in overlay
    assert browser.returncode == 0
    refusals = [step["console"] for step in said if "console" in step]
    assert refusals == []  # the page's own policy let the watch script run and connect


def need_children() -> None:
    if not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists():
        pytest.skip("needs Linux's /proc/PID/task/TID/children")


def assert_stopped(serving: Serving, rest: str, started: set[int]) -> None:
    """Ctrl-C has stopped the command as a person expects: "stopped" and exit status 0,
    no traceback, and the processes it had ``started`` ended with it."""
    assert serving.process.returncode == 0 and rest.splitlines()[-1] == "stopped"
    assert "Traceback" not in rest and "Process" not in rest
    deadline = time.monotonic() + 20
    while running(started) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not running(started)


def test_ctrl_c_stops_the_watch_and_its_builds(edition: Path) -> None:
    need_children()
    serving = Serving(edition, "--watch")
    try:
        assert "watching" in serving.until("Ctrl-C stops")
        deadline = time.monotonic() + 30
        while not descendants(serving.process.pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        started = descendants(serving.process.pid)  # the builder, as soon as it is there
        assert started
    finally:
        rest = serving.ctrl_c()
    assert_stopped(serving, rest, started)


LATE_TO_IGNORE = """
import multiprocessing, os, signal, sys, time
from pnp.serve.watch import ignore_ctrl_c, start_without_ctrl_c

def late(running):
    running.set()
    time.sleep(0.5)
    ignore_ctrl_c()
    time.sleep(0.1)

if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    context = multiprocessing.get_context()
    running = context.Event()
    process = context.Process(target=late, args=(running,))
    start_without_ctrl_c(process)
    running.wait(10)
    os.kill(process.pid, signal.SIGINT)
    process.join(10)
    print(process.exitcode)
"""


def test_a_ctrl_c_before_a_process_ignores_it_does_not_reach_it(tmp_path: Path) -> None:
    script = tmp_path / "late.py"
    script.write_text(LATE_TO_IGNORE)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert done.stdout == "0\n", done.stderr


def test_a_worker_whose_build_has_already_ended_ends_at_once() -> None:
    # The watch kills a build as soon as the next edit comes, maybe while its workers
    # start: one that took the parent it was handed to for its build would wait for work
    # for ever, holding the folder's lock.
    not_its_parent = os.getpid() + 1
    process = multiprocessing.get_context().Process(target=die_with_parent,
                                                    args=(not_its_parent,))
    process.start()
    process.join(30)
    assert process.exitcode == 1


def test_ctrl_c_stops_the_first_build_at_once(tmp_path: Path) -> None:
    need_children()
    serving = Serving(tmp_path)
    try:
        assert "has no build yet: building it first" in serving.until("building it first")
        deadline = time.monotonic() + 30
        while len(descendants(serving.process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)  # the build's process and its workers
        started = descendants(serving.process.pid)
        assert len(started) >= 2
    finally:
        rest = serving.ctrl_c()
    assert_stopped(serving, rest, started)
    assert not (tmp_path / "output" / "index.html").exists()


def test_a_folder_that_cannot_be_built_is_not_served(tmp_path: Path) -> None:
    init(tmp_path / "edition")
    rules = tmp_path / "edition" / "rules" / "qwinto.yaml"
    rules.write_text(rules.read_text(encoding="utf-8") + "name: again\n", encoding="utf-8")
    lines = rules.read_text(encoding="utf-8").count("\n")
    done = subprocess.run([sys.executable, "-m", "pnp", "serve", "--port", "0"],
                          cwd=tmp_path / "edition", env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "serving" not in done.stdout
    assert done.stderr.splitlines()[-1] == (f"error: rules/qwinto.yaml:{lines}: duplicate key "
                                            f"'name' (first at line 4)")
