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
- **Watch mode** (:mod:`pnp.serve.watch`): each HTML page is sent with a small script (not
  written into the file) that listens to ``/__pnp/events`` and reloads the page when it
  is rebuilt, or shows the lines of a broken edit over it until it is fixed.
- ``/__pnp/qr.svg?path=P`` is the QR code of this server's address of ``P``.
- **Every client is a stranger** (a phone at the table, a web page trying its luck): a
  ``Host`` that is not one of this server's addresses or names is told 421 (so a page
  whose name was made to lead here, "DNS rebinding", reads nothing); a connection has
  :data:`HEAD_SECONDS` to send its request and :data:`SEND_SECONDS` to take each part of
  the answer; at most :data:`CONNECTIONS` are served at once (one thread each): beyond,
  the one that has waited longest for a request is dropped, else the newcomer is told
  503. A client that goes away is no error, and an error is one line, never a traceback.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import hashlib
import html
import ipaddress
import json
import re
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from pnp.books.references import inline_sources
from pnp.errors import QrError, ServeError, one_line
from pnp.outputs.writing import read_own
from pnp.scorer import scripts
from pnp.serve.watch import Live

LOOPBACK = "127.0.0.1"
PORT = 8000
LIMIT = 16 * 1024 * 1024
"""Bytes of the largest file served (the build's largest is under 1 MB): a file is read
whole, so the :data:`CONNECTIONS` hold at most a GiB."""
EVENTS = "/__pnp/events"
QR = "/__pnp/qr.svg"
KEEP_ALIVE = 15.0
"""Seconds between two comments on an idle event stream (keeps proxies and phones from
closing it)."""
CONNECTIONS = 64
"""Connections served at once, a thread each: a table of phones, each page with its event
stream and a browser's few connections, is far fewer."""
HEAD_SECONDS = 5.0
"""Seconds a connection has to send its request line and headers (a browser keeping an
idle connection for a next request included): a phone sends them in milliseconds."""
SEND_SECONDS = 30.0
"""Seconds a client may take to receive each :data:`CHUNK` of an answer."""
CHUNK = 64 * 1024
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Content-Length: 27\r\nRetry-After: 1\r\nConnection: close\r\n\r\n"
        b"busy: too many connections\n")
"""The answer to a connection beyond :data:`CONNECTIONS`, sent without waiting."""

PLAIN = "text/plain; charset=utf-8"
TYPES = {".html": "text/html; charset=utf-8", ".pdf": "application/pdf",
         ".png": "image/png", ".svg": "image/svg+xml", ".js": "text/javascript; charset=utf-8",
         ".webmanifest": "application/manifest+json", ".json": "application/json",
         ".css": "text/css; charset=utf-8", ".txt": PLAIN,
         ".ico": "image/x-icon", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
         ".webp": "image/webp", ".woff2": "font/woff2"}
"""The type of each kind of file the folder may hold; any other is sent as bytes."""

PAGES = ("text/html", "image/svg+xml")
"""Types a browser runs scripts in: they get the Content-Security-Policy."""
def policy(scripts: str = "") -> str:
    """The policy a page is sent with: scripts from this server and the page's own inline
    ones, given by their hashes in ``scripts``; styles, pictures and fonts from this
    server or inline; nothing from elsewhere. A page's own stricter policy (the rulebooks
    forbid every script) still holds."""
    return (f"default-src 'self'; script-src 'self'{' ' + scripts if scripts else ''}; "
            "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
            "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'")


CSP = policy()
"""The policy of what is not an HTML page (a drawing, an error): no inline script runs."""

LIVE_SCRIPT = scripts.source(Path(__file__).parent, "live.js").removesuffix("\n")
"""The script watch mode adds to each page (``live.js`` beside this module): reload when
rebuilt, show a broken edit's errors."""
LIVE_SOURCE = "'sha256-" + base64.b64encode(
    hashlib.sha256(LIVE_SCRIPT.encode()).digest()).decode() + "'"
"""How a page's policy allows that script (by its hash: a nonce would change each time)."""


class Server(ThreadingHTTPServer):
    """Serves ``root`` (resolved); with ``live``, in watch mode."""

    daemon_threads = True
    request_queue_size = CONNECTIONS

    def __init__(self, address: tuple[str, int], root: Path, live: Live | None = None) -> None:
        self.root = root.resolve()
        self.live = live
        self.host = address[0]
        self.slots = threading.BoundedSemaphore(CONNECTIONS)
        self.waiting: dict[socket.socket, float] = {}
        """The connections waiting for a request, and since when (:func:`time.monotonic`)."""
        self.waiting_lock = threading.Lock()
        super().__init__(address, Handler)
        self.hosts = hosts(self.host, self.port)

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

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve ``request`` in a thread of its own if one of the :data:`CONNECTIONS` is
        free (or is made free by dropping the longest idle one), else answer 503."""
        if not self.slots.acquire(blocking=False):
            self._drop(oldest=True)
            if not self.slots.acquire(timeout=1.0):
                with contextlib.suppress(OSError):
                    request.setblocking(False)
                    request.send(BUSY)
                self.shutdown_request(request)
                return
        try:
            super().process_request(request, client_address)
        except Exception:  # no thread started (Ctrl-C may land once it has: not released)
            self.slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def service_actions(self) -> None:
        """Between two connections (and at least twice a second): drop those that have
        not sent their request in time, even one slow byte at a time."""
        super().service_actions()
        self._drop(oldest=False)

    def wait_for_request(self, connection: socket.socket) -> None:
        with self.waiting_lock:
            self.waiting[connection] = time.monotonic()

    def heard(self, connection: socket.socket) -> bool:
        """Whether ``connection`` was still waiting for its request (not dropped); it waits
        no longer."""
        with self.waiting_lock:
            return self.waiting.pop(connection, None) is not None

    def _drop(self, oldest: bool) -> None:
        """End the connections whose time to send a request is over, or the one that has
        waited longest: the thread reading it sees it end. Under the lock, so that none is
        closed (and its number given to another) meanwhile."""
        with self.waiting_lock:
            if oldest:
                late = [min(self.waiting, key=self.waiting.__getitem__)] if self.waiting else []
            else:
                since = time.monotonic() - HEAD_SECONDS
                late = [connection for connection, start in self.waiting.items()
                        if start < since]
            for connection in late:
                del self.waiting[connection]
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away or was too slow is no error; anything else is one
        line, not a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        print(f"error: answering {client_address[0]}: {type(error).__name__}: "
              f"{one_line(error)}", file=sys.stderr, flush=True)


def hosts(host: str, port: int) -> frozenset[str]:
    """The ``Host`` a browser sends to this server: this computer's loopback address or
    name, or (when it listens on the network) its address there or its name, with the
    port (none needed for port 80)."""
    names = {"127.0.0.1", "localhost", "[::1]"}
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        names.add(host.lower())
    else:
        names.add(f"[{host}]" if address.version == 6 else host)
        if not address.is_loopback:
            name = socket.gethostname().lower()
            names |= {name, f"{name}.local"}
    return frozenset({f"{name}:{port}" for name in names} | (names if port == 80 else set()))


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
    timeout = HEAD_SECONDS
    default_request_version = "HTTP/1.0"
    """No client speaks HTTP/0.9, whose answers have no status line to tell an error by."""
    answered = False
    """Whether this request's status line has been sent."""

    def handle_one_request(self) -> None:
        self.answered = False
        self.connection.settimeout(HEAD_SECONDS)
        self.server.wait_for_request(self.connection)
        try:
            super().handle_one_request()
        finally:
            self.server.heard(self.connection)

    def parse_request(self) -> bool:
        read = super().parse_request()
        if not self.server.heard(self.connection):
            self.close_connection = True  # dropped while it was still sending its request
            return False
        self.connection.settimeout(SEND_SECONDS)
        return read

    def send_response(self, code: int, message: str | None = None) -> None:
        self.answered = True
        super().send_response(code, message)

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """A request that cannot be read: a short plain answer, and the connection closed."""
        status = HTTPStatus(code)
        self.close_connection = True
        self._send(status, f"{status.phrase.lower()}\n".encode(), PLAIN,
                   headers={"Connection": "close"}, with_body=self.command != "HEAD")

    def do_GET(self) -> None:
        self._guarded(with_body=True)

    def do_HEAD(self) -> None:
        self._guarded(with_body=False)

    def _refuse(self) -> None:
        self._send(HTTPStatus.METHOD_NOT_ALLOWED, b"only GET and HEAD\n",
                   PLAIN, headers={"Allow": "GET, HEAD"})

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the terminal shows what the server and the watch have to say."""

    def end_headers(self) -> None:
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        super().end_headers()

    def _guarded(self, with_body: bool) -> None:
        """:meth:`_answer`, or 500 for what it did not expect (which
        :meth:`Server.handle_error` tells in one line)."""
        try:
            self._answer(with_body)
        except (ConnectionError, TimeoutError):
            raise
        except Exception:
            self.close_connection = True
            if not self.answered:
                self._send(HTTPStatus.INTERNAL_SERVER_ERROR, b"internal error\n", PLAIN,
                           with_body=with_body)
            raise

    def _misdirected(self) -> HTTPStatus | None:
        """Why this request is not for this server, if it is not: a ``Host`` that is not
        one of its own (421), none or two, or a target that is not a path (400)."""
        given = self.headers.get_all("Host") or []
        if len(given) != 1 or not self.path.startswith("/"):
            return HTTPStatus.BAD_REQUEST
        if given[0].strip().lower() not in self.server.hosts:
            return HTTPStatus.MISDIRECTED_REQUEST
        return None

    def _answer(self, with_body: bool) -> None:
        wrong = self._misdirected()
        if wrong is not None:
            self.close_connection = True
            self._send(wrong, f"{wrong.phrase.lower()}\n".encode(), PLAIN,
                       with_body=with_body)
            return
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
                self._send(HTTPStatus.MOVED_PERMANENTLY, b"", PLAIN,
                           headers={"Location": "/" + "".join(f"{p}/" for p in parts)},
                           with_body=with_body)
                return
        data = read_own(found, LIMIT) if found is not None else None
        if found is None or data is None:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", PLAIN,
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
        headers = {"ETag": tag}
        if kind.startswith("text/html"):
            scripts = inline_sources(data.decode("utf-8", "replace"))["script"]
            headers["Content-Security-Policy"] = policy("" if scripts == "'none'" else scripts)
        self._send(HTTPStatus.OK, data, kind, headers=headers, with_body=with_body)

    def _send(self, status: HTTPStatus, data: bytes, kind: str | None,
              headers: dict[str, str] | None = None, with_body: bool = True) -> None:
        self.send_response(status)
        if kind:
            self.send_header("Content-Type", kind)
            if (kind.split(";")[0] in PAGES or status >= 400) and \
                    "Content-Security-Policy" not in (headers or {}):
                self.send_header("Content-Security-Policy", CSP)
        if status != HTTPStatus.NOT_MODIFIED:
            self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store" if self.server.live else "no-cache")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if with_body and data:
            whole = memoryview(data)
            for start in range(0, len(whole), CHUNK):
                self.wfile.write(whole[start:start + CHUNK])

    def _qr(self, query: str, with_body: bool) -> None:
        from pnp.serve.qr import svg

        path = (parse_qs(query).get("path") or [""])[0].lstrip("/")
        url = self.server.url + quote(path)
        try:
            code = svg(url, title=url)
        except QrError as exc:
            self._send(HTTPStatus.BAD_REQUEST, f"{exc}\n".encode(), PLAIN, with_body=with_body)
            return
        self._send(HTTPStatus.OK, code.encode("utf-8"), TYPES[".svg"], with_body=with_body)

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
