"""``pnp serve``: the build folder over HTTP, read-only, for a browser or a phone.

- **Only the build folder**: GET and HEAD; a folder is its ``index.html`` or nothing (no
  listing anywhere); hidden names (``.pnp-build.json``, temporary files), ``..`` however
  encoded, and links leading outside the folder are "not found"; only regular files are
  read (never a pipe).
- **Only this computer** unless asked: loopback by default, the machine's address on its
  network with ``--lan`` (:func:`lan_address`, found without sending anything).
- **Headers**: each file's own type, ``nosniff``, no referrer, no caching without asking
  again (``no-cache`` with an ``ETag``), and for pages a Content-Security-Policy that lets
  a page run its own inline script and reach nothing but this server.
- **Watch mode** (:mod:`pnp.watch`): each HTML page is sent with a small script (not
  written into the file) that listens to ``/__pnp/events`` and reloads the page when it
  is rebuilt, or shows the lines of a broken edit over it until it is fixed.
- ``/__pnp/qr.svg?path=P`` is the QR code of this server's address of ``P``.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import html
import ipaddress
import json
import re
import socket
from collections.abc import Callable, Iterable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from pnp.errors import PnpError
from pnp.files import read_own
from pnp.watch import Live

LOOPBACK = "127.0.0.1"
PORT = 8000
LIMIT = 64 * 1024 * 1024
"""Bytes of the largest file served (the build's largest is under 1 MB)."""
EVENTS = "/__pnp/events"
QR = "/__pnp/qr.svg"
KEEP_ALIVE = 15.0
"""Seconds between two comments on an idle event stream (keeps proxies and phones from
closing it)."""

TYPES = {".html": "text/html; charset=utf-8", ".pdf": "application/pdf",
         ".png": "image/png", ".svg": "image/svg+xml", ".js": "text/javascript; charset=utf-8",
         ".webmanifest": "application/manifest+json", ".json": "application/json",
         ".css": "text/css; charset=utf-8", ".txt": "text/plain; charset=utf-8",
         ".ico": "image/x-icon", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
         ".webp": "image/webp", ".woff2": "font/woff2"}
"""The type of each kind of file the folder may hold; any other is sent as bytes."""

PAGES = ("text/html", "image/svg+xml")
"""Types a browser runs scripts in: they get the Content-Security-Policy."""
CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline'; "
       "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")
"""The pages' policy: their own inline scripts and styles and this server, nothing else. A
page's own stricter policy (the rulebooks forbid every script) still holds."""

LIVE_SCRIPT = """(() => {
  const page = document.currentScript.dataset.page;
  let shown = null;
  const show = (errors) => {
    if (shown) { shown.remove(); shown = null; }
    if (!errors.length) return;
    shown = document.createElement("div");
    shown.id = "pnp-live-errors";
    shown.setAttribute("role", "alert");
    Object.assign(shown.style, {position: "fixed", top: "0", left: "0", right: "0",
      bottom: "0", zIndex: "2147483647", overflow: "auto", padding: "1.5rem",
      background: "#fff", color: "#a00", whiteSpace: "pre-wrap", overflowWrap: "anywhere",
      font: "15px/1.5 monospace"});
    const head = document.createElement("strong");
    head.textContent = "The last edit does not build: this page is out of date.";
    shown.append(head);
    for (const line of errors) {
      const p = document.createElement("p");
      p.textContent = line;
      shown.append(p);
    }
    document.body.append(shown);
  };
  const events = new EventSource("/__pnp/events");
  events.addEventListener("state", (e) => show(JSON.parse(e.data).errors));
  events.addEventListener("built", (e) => {
    const built = JSON.parse(e.data);
    if (built.paths.includes(page)) location.reload(); else show(built.errors);
  });
})();"""
"""The script watch mode adds to each page: reload when rebuilt, show a broken edit's errors."""
LIVE_SOURCE = "'sha256-" + base64.b64encode(
    hashlib.sha256(LIVE_SCRIPT.encode()).digest()).decode() + "'"
"""How a page's policy allows that script (by its hash: a nonce would change each time)."""


class ServeError(PnpError):
    """An address the server cannot listen on."""


class Server(ThreadingHTTPServer):
    """Serves ``root`` (resolved); with ``live``, in watch mode."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], root: Path, live: Live | None = None) -> None:
        self.root = root.resolve()
        self.live = live
        self.host = address[0]
        super().__init__(address, Handler)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        """The address of the folder's top, as a browser is to open it."""
        return f"http://{self.host}:{self.port}/"

    def server_close(self) -> None:
        if self.live:
            self.live.close()
        super().server_close()


def listen(root: Path, host: str = LOOPBACK, port: int = PORT,
           live: Live | None = None) -> Server:
    """A server of ``root`` on ``host``: on ``port``, else (when it is taken) on any free
    port, which its :attr:`Server.port` tells."""
    for chosen in dict.fromkeys((port, 0)):
        try:
            return Server((host, chosen), root, live)
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE or chosen == 0:
                raise ServeError(f"cannot listen on {host}:{chosen}: "
                                 f"{exc.strerror or exc}") from None
    raise AssertionError("unreachable")


PROBE = ("10.254.254.254", 9)
"""A private address to ask the system for the way out to: connecting a UDP socket only
chooses the route and the address it would leave from, and sends nothing."""


def lan_address(candidates: Callable[[], Iterable[str]] | None = None) -> str:
    """The address other devices on this computer's network reach it at: the one the
    system would send from, else one its name resolves to; never a loopback or
    link-local address. Nothing is sent on the network."""
    for address in (candidates or _candidates)():
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            continue
        if ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified
                                    or ip.is_multicast):
            return address
    raise ServeError("this computer has no address on a network (is it connected?); "
                     "without --lan, pnp serve is reachable from this computer only")


def _candidates() -> Iterable[str]:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            routed = str(probe.getsockname()[0])
    except OSError:
        routed = ""
    if routed:
        yield routed
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return
    for info in infos:
        yield str(info[4][0])


def locate(root: Path, url_path: str) -> Path | None:
    """The file or folder of ``root`` (resolved) that ``url_path`` names, or None.

    The path is decoded once; a part that is empty is skipped; one that starts with a
    dot (``..``, ``.``, a hidden file), or holds a backslash or NUL, names nothing; a
    link is followed only to a place inside ``root``.
    """
    try:
        text = unquote(url_path, errors="strict")
    except UnicodeDecodeError:
        return None
    parts = [part for part in text.split("/") if part]
    if any(part.startswith(".") or "\\" in part or "\0" in part for part in parts):
        return None
    return inside(root, root.joinpath(*parts))


def inside(root: Path, path: Path) -> Path | None:
    """``path`` with its links followed, if it exists inside ``root`` (resolved)."""
    try:
        found = path.resolve(strict=True)
    except (OSError, RuntimeError, ValueError):
        return None
    return found if found == root or found.is_relative_to(root) else None


def allow_live(policy: str) -> str:
    """A page's Content-Security-Policy that also lets the watch script run and reach
    this server's events; the rest of the policy unchanged."""
    directives: dict[str, list[str]] = {}
    for directive in policy.split(";"):
        words = directive.split()
        if words:
            directives.setdefault(words[0].lower(), words[1:])
    fallback = directives.get("default-src")
    for name, source in (("script-src", LIVE_SOURCE), ("connect-src", "'self'")):
        sources = directives.get(name, fallback)
        if sources is None:
            continue  # nothing restricts it
        lowered = [word.lower() for word in sources]
        inline = "'unsafe-inline'" in lowered and not any(
            word.startswith(("'nonce-", "'sha")) for word in lowered)
        if (name == "script-src" and inline) or (
                name == "connect-src" and ("'self'" in lowered or "*" in lowered)):
            continue
        directives[name] = [word for word in sources if word.lower() != "'none'"] + [source]
    return "; ".join(" ".join([name, *sources]) for name, sources in directives.items())


META = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)
ATTRIBUTE = re.compile(r"""([^\s"'>/=]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)""")


def live_page(page: bytes, name: str) -> bytes:
    """``page`` (the file ``name`` of the folder) as sent in watch mode: with the watch
    script before ``</body>``, and its policies allowing it."""
    text = page.decode("utf-8", errors="replace")
    text = META.sub(_allowing_live, text)
    script = f'<script data-page="{html.escape(name)}">{LIVE_SCRIPT}</script>\n'
    end = text.lower().rfind("</body>")
    text = text[:end] + script + text[end:] if end >= 0 else text + script
    return text.encode("utf-8")


def _allowing_live(meta: re.Match[str]) -> str:
    tag = meta.group(0)
    attributes = {match.group(1).lower(): match for match in ATTRIBUTE.finditer(tag)}
    equiv = attributes.get("http-equiv")
    content = attributes.get("content")
    if equiv is None or content is None or \
            _value(equiv.group(2)).lower() != "content-security-policy":
        return tag
    policy = allow_live(_value(content.group(2)))
    start, end = content.span(2)
    return f'{tag[:start]}"{html.escape(policy, quote=False).replace(chr(34), "&quot;")}"' \
           f"{tag[end:]}"


def _value(written: str) -> str:
    """An attribute's value as written in a tag (quoted or not), decoded."""
    if len(written) >= 2 and written[0] in "\"'" and written[-1] == written[0]:
        written = written[1:-1]
    return html.unescape(written)


class Handler(BaseHTTPRequestHandler):
    """One request: a file of the folder, the event stream or a QR code."""

    server: Server
    server_version = "pnp"
    sys_version = ""

    def do_GET(self) -> None:
        self._answer(with_body=True)

    def do_HEAD(self) -> None:
        self._answer(with_body=False)

    def _refuse(self) -> None:
        self._send(HTTPStatus.METHOD_NOT_ALLOWED, b"only GET and HEAD\n",
                   "text/plain; charset=utf-8", headers={"Allow": "GET, HEAD"})

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the terminal shows what the server and the watch have to say."""

    def end_headers(self) -> None:
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        super().end_headers()

    def _answer(self, with_body: bool) -> None:
        split = urlsplit(self.path)
        if split.path == EVENTS and self.server.live and with_body:
            self._events(self.server.live)
            return
        if split.path == QR:
            self._qr(split.query, with_body)
            return
        root = self.server.root
        found = locate(root, split.path)
        if found is not None and found.is_dir():
            folder, found = found, inside(root, found / "index.html")
            if found is not None and not split.path.endswith("/"):
                parts = [quote(part) for part in folder.relative_to(root).parts]
                self._send(HTTPStatus.MOVED_PERMANENTLY, b"", "text/plain; charset=utf-8",
                           headers={"Location": "/" + "".join(f"{p}/" for p in parts)},
                           with_body=with_body)
                return
        data = read_own(found, LIMIT) if found is not None else None
        if found is None or data is None:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8",
                       with_body=with_body)
            return
        kind = TYPES.get(found.suffix.lower(), "application/octet-stream")
        if self.server.live and kind.startswith("text/html"):
            data = live_page(data, found.relative_to(root).as_posix())
        tag = '"' + hashlib.sha256(data).hexdigest()[:32] + '"'
        if tag in (self.headers.get("If-None-Match") or ""):
            self._send(HTTPStatus.NOT_MODIFIED, b"", None, headers={"ETag": tag},
                       with_body=False)
            return
        self._send(HTTPStatus.OK, data, kind, headers={"ETag": tag}, with_body=with_body)

    def _send(self, status: HTTPStatus, data: bytes, kind: str | None,
              headers: dict[str, str] | None = None, with_body: bool = True) -> None:
        self.send_response(status)
        if kind:
            self.send_header("Content-Type", kind)
            if kind.split(";")[0] in PAGES or status >= 400:
                self.send_header("Content-Security-Policy", CSP)
        if status != HTTPStatus.NOT_MODIFIED:
            self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store" if self.server.live else "no-cache")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if with_body and data:
            self.wfile.write(data)

    def _qr(self, query: str, with_body: bool) -> None:
        from pnp.qr import svg

        path = (parse_qs(query).get("path") or [""])[0].lstrip("/")
        url = self.server.url + quote(path)
        self._send(HTTPStatus.OK, svg(url, title=url).encode("utf-8"), TYPES[".svg"],
                   with_body=with_body)

    def _events(self, live: Live) -> None:
        """Server-Sent Events: ``state`` (the errors now, and whether the builds are over)
        at once, then ``built`` for each report, until the page goes or the server stops."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        with live.changed:
            seen = live.round
            state = {"errors": live.current(), "settled": live.settled}
        try:
            self._event("state", state)
            while not live.closed:
                seen, reports = live.since(seen, KEEP_ALIVE)
                for report in reports:
                    self._event("built", {"paths": report["paths"], "errors": report["errors"],
                                          "phase": report["phase"], "final": report["final"]})
                if not reports:
                    self.wfile.write(b": still here\n\n")
                    self.wfile.flush()
        except OSError:
            pass  # the page went away
        self.close_connection = True

    def _event(self, name: str, data: dict[str, Any]) -> None:
        self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
        self.wfile.flush()
