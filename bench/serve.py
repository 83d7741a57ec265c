"""Measure ``pnp serve --watch``: from saving a rulebook's Markdown to its refreshed HTML
edition in the browser's hands.

An edition made by ``pnp init`` in a temporary folder is built, then served with
``--watch`` on a free loopback port. Each edit appends a paragraph to
``templates/rulebooks/qwinto/en.md``; the time runs from the file's closing to the moment
the event naming ``qwinto/en/qwinto-rulebook-a4.html`` has arrived and the page fetched
holds the new paragraph (what a browser does on that event). Three cases:

- **quiet**: each edit after the previous one's PDFs are done;
- **during PDFs**: each edit while the previous one's PDFs are still being built;
- **broken, fixed**: a template error, until the event carries its line; then the fix,
  until the page is back.

Run: ``make bench`` (or ``python bench/serve.py [EDITS]``). Target on a 2-core machine:
at most 1.5 s, median and worst.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAGE = "qwinto/en/qwinto-rulebook-a4.html"
TEXT = Path("templates/rulebooks/qwinto/en.md")
TARGET = 1.5
WAIT = 120.0
"""Seconds to wait for any one event before giving up."""

Event = tuple[float, str, dict[str, Any]]


def pnp(*args: str, cwd: Path, **options: Any) -> Any:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "pnp", *args], cwd=cwd, env=env,
                            **options)


def listen(host: str, port: int, events: queue.Queue[Event]) -> None:
    """Read the server's event stream into ``events``, each with its arrival time."""
    connection = http.client.HTTPConnection(host, port, timeout=WAIT)
    connection.request("GET", "/__pnp/events")
    response = connection.getresponse()
    name, data = "", ""
    while line := response.readline():
        text = line.decode().rstrip("\n")
        if text.startswith("event: "):
            name = text[7:]
        elif text.startswith("data: "):
            data = text[6:]
        elif not text and name:
            events.put((time.perf_counter(), name, json.loads(data)))
            name, data = "", ""


def fetch(host: str, port: int, path: str) -> str:
    connection = http.client.HTTPConnection(host, port, timeout=10)
    connection.request("GET", "/" + path)
    return connection.getresponse().read().decode()


class Session:
    def __init__(self, edition: Path, host: str, port: int, events: queue.Queue[Event]):
        self.edition, self.host, self.port, self.events = edition, host, port, events
        self.count = 0

    def next_event(self, wanted: Any) -> Event:
        deadline = time.perf_counter() + WAIT
        while True:
            event = self.events.get(timeout=max(0.1, deadline - time.perf_counter()))
            if event[1] == "built" and wanted(event[2]):
                return event

    def save(self, text: str) -> float:
        with (self.edition / TEXT).open("a", encoding="utf-8") as handle:
            handle.write(text)
        return time.perf_counter()

    def edit(self) -> float:
        """Seconds from saving a new paragraph to holding the page that shows it."""
        self.count += 1
        marker = f"Bench paragraph {self.count} {time.time_ns()}."
        saved = self.save(f"\n{marker}\n")
        while True:
            self.next_event(lambda data: PAGE in data["paths"])
            if marker in fetch(self.host, self.port, PAGE):
                return time.perf_counter() - saved

    def settle(self) -> None:
        """Wait for the PDFs of the last edit."""
        self.next_event(lambda data: data["final"])

    def broken(self) -> tuple[float, float]:
        """Seconds to the error's line in an event, and from the fix to the page back."""
        path = self.edition / TEXT
        good = path.read_text(encoding="utf-8")
        saved = self.save("\n{{ broken\n")
        _arrived, _name, data = self.next_event(lambda data: data["errors"])
        assert any(str(TEXT) in line for line in data["errors"]), data
        shown = time.perf_counter() - saved
        self.settle()
        path.write_text(good, encoding="utf-8")
        fixed = time.perf_counter()
        self.next_event(lambda data: PAGE in data["paths"] and not data["errors"])
        fetch(self.host, self.port, PAGE)
        return shown, time.perf_counter() - fixed


def row(name: str, values: list[float]) -> str:
    worst = max(values)
    verdict = "ok" if worst <= TARGET else f"over {TARGET} s"
    return (f"{name:<30}{len(values):>6}{statistics.median(values):>10.2f}{worst:>9.2f}"
            f"   {verdict}")


def main() -> None:
    edits = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    work = Path(tempfile.mkdtemp(prefix="pnp-bench-serve-"))
    edition = work / "edition"
    server = None
    try:
        subprocess.run([sys.executable, "-m", "pnp", "init", str(edition)], cwd=work,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True,
                       capture_output=True)
        start = time.perf_counter()
        pnp("build", cwd=edition, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).wait()
        print(f"edition built in {time.perf_counter() - start:.1f} s")
        server = pnp("serve", "--watch", "--port", "0", cwd=edition, stdout=subprocess.PIPE,
                     stderr=subprocess.STDOUT, text=True)
        assert server.stdout is not None
        for line in server.stdout:
            if found := re.search(r"at http://([\d.]+):(\d+)/", line):
                host, port = found.group(1), int(found.group(2))
                break
        else:
            raise SystemExit("pnp serve did not start")
        threading.Thread(target=server.stdout.read, daemon=True).start()
        events: queue.Queue[Event] = queue.Queue()
        threading.Thread(target=listen, args=(host, port, events), daemon=True).start()
        session = Session(edition, host, port, events)
        session.edit()  # the builder's catch-up, and a first round
        session.settle()
        quiet = []
        for _ in range(edits):
            quiet.append(session.edit())
            session.settle()
        session.edit()
        busy = [session.edit() for _ in range(max(3, edits // 2))]  # each stops the last PDFs
        session.settle()
        shown, back = zip(*(session.broken() for _ in range(3)), strict=True)
        load = os.getloadavg()[0]
        print(f"\n{'edit of qwinto/en.md':<30}{'edits':>6}{'median s':>10}{'worst s':>9}")
        print(row("to the new HTML page, quiet", quiet))
        print(row("  while PDFs are building", busy))
        print(row("to the error's line", list(shown)))
        print(row("from the fix to the page", list(back)))
        print(f"\nload average at the end: {load:.1f} on {os.cpu_count()} cores")
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
