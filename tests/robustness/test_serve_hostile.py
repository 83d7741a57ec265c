"""``pnp serve`` among strangers: with ``--lan`` every phone at the table, and every web page
one of them opens, may send anything. Each case runs the real command on a loopback port
in a process of its own and speaks raw HTTP to it: whatever comes, a short answer (never a
dropped connection), nothing on standard error, a bounded number of threads, and nothing
for a page that reached it under another name (DNS rebinding).
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from browser import dumped_dom
from pnp.serve import http as serve_module
from pnp.serve.http import CONNECTIONS, hosts
from pnp.serve.watch import snapshot
from refusal import assert_refused, pnp

ROOT = Path(__file__).resolve().parents[2]
LANDING = b"<!doctype html><title>pnp</title><body>landing</body>"
BIG = 6 * 1024 * 1024
"""Bytes of a file larger than what the system buffers for a connection."""
IDLE = 100
"""Connections that send nothing, or half a request."""
STOP_SECONDS = 60
"""Wall time Ctrl-C may take to stop the server: a few hundredths of a second when idle,
so only a server that will never stop reaches it, even on a busy machine."""


@dataclass
class Serve:
    process: subprocess.Popen[bytes]
    port: int
    stderr: Path

    def threads(self) -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        found = re.search(r"^Threads:\s+(\d+)$", status, re.MULTILINE)
        assert found, status
        return int(found.group(1))


def _child() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a test run in a shell's background ignores it
    resource.setrlimit(resource.RLIMIT_CPU, (120, 120))


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Serve]:
    """``pnp serve --port 0`` of a small build folder; stopped with Ctrl-C at the end."""
    out = tmp_path / "output"
    out.mkdir()
    (out / "index.html").write_bytes(LANDING)
    (out / "big.pdf").write_bytes(b"%PDF-1.7\n" + b"0" * BIG)
    stderr = tmp_path / "stderr.txt"
    with stderr.open("wb") as errors:
        process = subprocess.Popen(
            [sys.executable, "-m", "pnp", "serve", "--port", "0", "--out", "output"],
            cwd=tmp_path, stdout=subprocess.PIPE, stderr=errors, preexec_fn=_child,
            env={**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8",
                 "PYTHONFAULTHANDLER": "1"})
    try:
        said = b""
        assert process.stdout is not None
        while b"Ctrl-C stops" not in said:
            line = process.stdout.readline()
            assert line, said + stderr.read_bytes()
            said += line
        port = re.search(rb"http://127\.0\.0\.1:(\d+)/", said)
        assert port, said
        yield Serve(process, int(port.group(1)), stderr)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()


def stopped(serve: Serve) -> str:
    """Stop the server (Ctrl-C); what it wrote on standard error. A server that does not
    stop is aborted, and the failure shows where each of its threads was."""
    serve.process.send_signal(signal.SIGINT)
    try:
        serve.process.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        serve.process.send_signal(signal.SIGABRT)  # PYTHONFAULTHANDLER: every thread's stack
        serve.process.wait(timeout=30)
        pytest.fail(f"pnp serve did not stop within {STOP_SECONDS} s of Ctrl-C:\n"
                    + serve.stderr.read_text(encoding="utf-8", errors="replace")[-6000:])
    return serve.stderr.read_text(encoding="utf-8", errors="replace")


def ask(port: int, request: bytes, timeout: float = 15) -> tuple[int, bytes]:
    """Send ``request`` as it is; the status and body of the answer (status 0: the
    connection ended with none)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        with contextlib.suppress(OSError):
            connection.sendall(request)
        answer = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := connection.recv(65536):
                answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status = re.match(rb"HTTP/1\.[01] (\d{3}) ", head)
    return (int(status.group(1)) if status else 0), body


def get(port: int, target: str, host: str | None = None) -> tuple[int, bytes]:
    host = f"127.0.0.1:{port}" if host is None else host
    return ask(port, f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
               .encode("latin-1"))


# --- what a stranger may send --------------------------------------------------------------

def test_a_qr_code_of_a_long_path_is_refused_in_a_few_words(serve: Serve) -> None:
    # A QR code holds 2,331 bytes at most (level M): a path of 4,000 letters cannot be one.
    for path in ("a" * 4000, "é" * 600, "%zz" * 1000):
        status, body = get(serve.port, f"/__pnp/qr.svg?path={path}")
        assert status == 400, (path[:10], status)
        assert 0 < len(body) < 200 and b"too long" in body
    status, body = get(serve.port, "/__pnp/qr.svg?path=qwinto/en/qwinto-scorer.html")
    assert status == 200 and body.startswith(b"<svg")
    assert "Traceback" not in stopped(serve)


def cases(port: int) -> list[tuple[bytes, int]]:
    """Requests no browser sends, and the answer each deserves (RFC 9110 and 9112): a
    file that is not the folder's is not found; a query the code cannot be made of is
    400; a request line or header past what a server need read is 414 or 431; a request
    without one Host, or for another server, is 400."""
    host = f"Host: 127.0.0.1:{port}\r\n".encode()

    def line(target: bytes, version: bytes = b"HTTP/1.1") -> bytes:
        return b"GET " + target + b" " + version + b"\r\n" + host + b"\r\n"

    return [
        (line(b"/%zz"), 404), (line(b"/%ff%fe.html"), 404), (line(b"/index.html%00"), 404),
        (line(b"/\x00"), 404), (line(b"/../../../../etc/passwd"), 404),
        (line(b"/%2e%2e/%2e%2e/%2e%2e/etc/passwd"), 404), (line(b"/etc/passwd"), 404),
        (line(b"//etc/passwd"), 404), (line(b"/..%5c..%5cetc%5cpasswd"), 404),
        (line(b"/index.html\xff\xfe"), 404),
        (line(f"http://127.0.0.1:{port}/index.html".encode()), 400),
        (line(b"/__pnp/qr.svg?path=%zz%ff%00"), 200), (line(b"/__pnp/qr.svg?path"), 200),
        (line(b"/__pnp/qr.svg?" + b"path=a&" * 5000), 200),
        (line(b"/__pnp/qr.svg?path=" + b"\xff" * 2000), 400),
        (line(b"/__pnp/events"), 404),
        (line(b"/" + b"a" * 70000), 414),
        (line(b"/", b"HTTP/2.0"), 505), (line(b"/", b"HTTP/x"), 400),
        (b"GET\r\n\r\n", 400), (b"BREW / HTTP/1.1\r\n" + host + b"\r\n", 501),
        (b"GET / HTTP/1.1\r\n" + host + b"".join(b"X-%d: y\r\n" % n for n in range(101))
         + b"\r\n", 431),
        (b"GET / HTTP/1.1\r\n" + host + b"X-Big: " + b"y" * 70000 + b"\r\n\r\n", 431),
        (b"GET / HTTP/1.1\r\n\r\n", 400), (b"GET / HTTP/1.1\r\n" + host + host + b"\r\n", 400),
        (b"GET / HTTP/1.1\r\n" + host + b"no colon here\r\n\r\n", 200),
    ]


def test_a_request_no_browser_sends_gets_a_short_answer_and_no_traceback(serve: Serve) -> None:
    for request, expected in cases(serve.port):
        status, body = ask(serve.port, request)
        assert status == expected, (request[:60], status, body[:200])
        assert len(body) < 200 or status == 200, (request[:60], body[:200])
        assert b"root:" not in body
    assert get(serve.port, "/")[0] == 200  # and it goes on serving
    assert stopped(serve) == ""


def test_a_client_that_goes_away_leaves_no_traceback(serve: Serve) -> None:
    reset = b"\x01\x00\x00\x00\x00\x00\x00\x00"  # SO_LINGER on, 0 s: close with a reset
    host = f"Host: 127.0.0.1:{serve.port}\r\n".encode()
    for number in range(20):
        with socket.create_connection(("127.0.0.1", serve.port), timeout=10) as connection:
            target = b"/big.pdf" if number % 2 else b"/__pnp/qr.svg?path=x"
            connection.sendall(b"GET " + target + b" HTTP/1.1\r\n" + host + b"\r\n")
            if number % 4 == 1:
                connection.recv(1024)  # went away in the middle
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, reset)
    time.sleep(1)  # the server's threads meet the resets
    assert get(serve.port, "/") == (200, LANDING)
    assert stopped(serve) == ""


def test_what_the_server_did_not_expect_is_a_500_and_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def broken(root: Path, url_path: str) -> Path | None:
        raise RuntimeError("a bug\nover two lines")

    monkeypatch.setattr(serve_module, "locate", broken)
    (tmp_path / "index.html").write_bytes(LANDING)
    server = serve_module.listen(tmp_path, port=0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        status, body = get(server.port, "/index.html")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
    assert (status, body) == (500, b"internal error\n")
    assert capsys.readouterr().err == (
        "error: answering 127.0.0.1: RuntimeError: a bug over two lines\n")


# --- many strangers at once ----------------------------------------------------------------

def test_a_hundred_idle_connections_leave_the_server_answering_with_few_threads(
        serve: Serve) -> None:
    before = serve.threads()
    idle: list[socket.socket] = []
    try:
        for number in range(IDLE):
            connection = socket.create_connection(("127.0.0.1", serve.port), timeout=10)
            if number % 2:
                connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1")  # and no more
            idle.append(connection)
        most = 0
        for _ in range(5):
            most = max(most, serve.threads())
            time.sleep(0.1)
        status, body = get(serve.port, "/")  # its own timeout (15 s) is only a hang guard
        assert (status, body) == (200, LANDING)
        kept = [connection for connection in idle
                if not select.select([connection], [], [], 0)[0]]
        # answered at once, not after the idle ones' time was over (HEAD_SECONDS)
        assert len(kept) >= CONNECTIONS - 8, f"{len(kept)} idle connections left"
        print(f"threads: {before} idle, at most {most} with {IDLE} idle connections")
        assert most <= CONNECTIONS + 2 < IDLE  # the handlers and the main thread
    finally:
        for connection in idle:
            connection.close()
    assert stopped(serve) == ""


def test_a_connection_that_sends_nothing_or_one_byte_at_a_time_is_closed(serve: Serve) -> None:
    with (socket.create_connection(("127.0.0.1", serve.port), timeout=5) as silent,
          socket.create_connection(("127.0.0.1", serve.port), timeout=5) as slow):
        trickle = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{serve.port}\r\n".encode() + b"X" * 60
        open_ = {silent, slow}
        for byte in trickle:  # a byte every half second: 40 s in all, if it is let
            with contextlib.suppress(OSError):
                slow.sendall(bytes([byte]))
            readable, _, _ = select.select(list(open_), [], [], 0.5)
            for connection in readable:
                with contextlib.suppress(ConnectionResetError):
                    if connection.recv(1024) == b"":
                        open_.discard(connection)
            if not open_:
                break
        assert not open_, "still open after 40 s"
    assert stopped(serve) == ""


def test_beyond_the_cap_a_newcomer_is_told_the_server_is_busy(serve: Serve) -> None:
    host = f"Host: 127.0.0.1:{serve.port}\r\n".encode()
    readers: list[socket.socket] = []
    try:
        for _ in range(CONNECTIONS):  # each takes a thread: a file it never reads
            reader = socket.socket()
            reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            reader.settimeout(15)
            reader.connect(("127.0.0.1", serve.port))
            reader.sendall(b"GET /big.pdf HTTP/1.1\r\n" + host + b"\r\n")
            readers.append(reader)
        for reader in readers:
            assert reader.recv(1, socket.MSG_PEEK) == b"H"  # being answered
        status, body = get(serve.port, "/")
        assert (status, body) == (503, b"busy: too many connections\n")
        assert serve.threads() <= CONNECTIONS + 2
    finally:
        for reader in readers:
            reader.close()
    for _ in range(20):  # the readers' threads see them go, and end
        if serve.threads() == 1:
            break
        time.sleep(0.5)
    assert get(serve.port, "/") == (200, LANDING)
    assert stopped(serve) == ""


# --- another name for this server ----------------------------------------------------------

def test_a_page_that_reached_the_server_under_another_name_reads_nothing(serve: Serve) -> None:
    port = serve.port
    for host in (f"evil.example:{port}", f"127.0.0.1.nip.io:{port}", "evil.example",
                 f"localhost.evil.example:{port}", f"127.0.0.1:{port + 1}", "127.0.0.1", ""):
        for target in ("/", "/index.html", "/__pnp/qr.svg?path=x"):
            status, body = get(port, target, host)
            assert status == 421, (host, target, status)
            assert b"landing" not in body and b"<svg" not in body
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}",
                 f"[::1]:{port}"):
        assert get(port, "/", host) == (200, LANDING), host
    assert stopped(serve) == ""


def test_on_the_network_the_machines_address_and_name_are_its_own() -> None:
    allowed = hosts("192.168.1.23", 8000)
    name = socket.gethostname().lower()
    for host in ("192.168.1.23:8000", "127.0.0.1:8000", "localhost:8000", f"{name}:8000",
                 f"{name}.local:8000"):
        assert host in allowed
    for host in ("192.168.1.24:8000", "192.168.1.23:8001", "192.168.1.23", "evil:8000"):
        assert host not in allowed
    assert "127.0.0.1" in hosts("127.0.0.1", 80)  # a browser leaves port 80 out
    assert name + ":8000" not in hosts("127.0.0.1", 8000)


# --- the watch and its own output ----------------------------------------------------------

def test_the_watch_does_not_see_its_own_builds_inside_a_watched_folder(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    built = templates / "built"
    (built / "qwinto").mkdir(parents=True)
    (templates / "page.j2").write_text("page")
    before = snapshot([templates], built)
    (built / "qwinto" / "rulebook.html").write_text("written by the build")
    (built / "index.html").write_text("written by the build")
    assert snapshot([templates], built) == before
    assert list(before) == [os.path.realpath(templates / "page.j2")]
    (templates / "page.j2").write_text("an edit")
    assert snapshot([templates], built) != before


def test_a_watch_that_would_build_into_what_it_watches_is_refused(tmp_path: Path) -> None:
    # It would see each of its own builds as an edit, and build again for ever.
    assert pnp("init", str(tmp_path / "edition")).code == 0
    for out in ("templates/built", "rules/built", "examples"):
        done = pnp("serve", "--watch", "--port", "0", "--out", out, cwd=tmp_path / "edition")
        assert_refused(done, "which pnp reads")
        assert "serving" not in done.stdout
    assert not (tmp_path / "edition" / "templates" / "built").exists()


# --- what a page may run -------------------------------------------------------------------

MARKUP_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>calm</title></head>
<body><div id="slot"></div>
<script>
document.getElementById("slot").innerHTML =
  '<p id="ran">ran</p><img src="/missing.png" onerror="document.title = \\'pwned\\'">';
</script></body></html>
"""


def test_a_served_page_runs_its_own_scripts_and_no_handler_in_markup(
        serve: Serve, tmp_path: Path) -> None:
    """The policy a page is sent with allows its inline scripts by their hashes, not all
    inline code: markup that data slipped into a page (an ``onerror`` in it) runs nothing."""
    (serve.stderr.parent / "output" / "index.html").write_text(MARKUP_PAGE, encoding="utf-8")
    status, _body = get(serve.port, "/")
    assert status == 200
    with socket.create_connection(("127.0.0.1", serve.port), timeout=15) as connection:
        connection.sendall(f"HEAD / HTTP/1.1\r\nHost: 127.0.0.1:{serve.port}\r\n"
                           f"Connection: close\r\n\r\n".encode())
        head = connection.recv(65536).decode("latin-1")
    policy = re.search(r"^Content-Security-Policy: (.*)\r$", head, re.MULTILINE)
    assert policy, head
    scripts = re.search(r"script-src ([^;]*)", policy.group(1))
    assert scripts and "'unsafe-inline'" not in scripts.group(1)
    assert "'sha256-" in scripts.group(1)
    dom = dumped_dom(f"http://127.0.0.1:{serve.port}/", tmp_path / "profile")
    assert '<p id="ran">ran</p>' in dom  # the page's own script ran
    assert "<title>calm</title>" in dom, dom
