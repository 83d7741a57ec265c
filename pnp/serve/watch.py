"""``pnp serve --watch``: rebuild what an edit changes, the HTML rulebooks first, and tell
the pages open in browsers.

A **builder** process watches the edition's definitions, texts and examples and pnp's
catalogues, and on a change runs :func:`pnp.build.run` twice: on the HTML targets (a
rulebook's text in a few tenths of a second), then, in a process of its own, on all the
others (the PDFs, seconds). The build's fingerprints decide what is rebuilt; its lock,
manifest and atomic writes keep the folder sound. An edit made while the PDFs are still
being built stops that build (which the build is made to survive: see
:mod:`pnp.build`), so the next HTML edition never waits for them.

The builder is forked before the server starts any thread, and the worker pools are
forked from it: it has paid the workers' set-up (fonts, WeasyPrint) once, so each build
starts warm. It reports each round to the server through a pipe; :class:`Live` keeps the
last reports for the pages, whose script (added by :mod:`pnp.serve.http`) reloads a page when
it was rebuilt and shows the errors of a broken edit over it.

The watch polls file status every :data:`POLL` seconds rather than using a file-system
notification library (watchfiles, a compiled wheel): one look at the sixty-odd files of an
edition costs a few milliseconds, the delay is a small part of the time to rebuild, it
needs no compiled dependency, and it sees an edit made in any way (in place, by renaming
over, on a network folder) alike.
"""

from __future__ import annotations

import collections
import dataclasses
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from pnp.assets import Edition, current, use
from pnp.errors import PnpError, error_lines, one_line
from pnp.outputs.targets import Target

POLL = 0.1
"""Seconds between two looks at the watched files."""
HISTORY = 64
"""Reports :class:`Live` keeps for pages that reconnect."""

Report = dict[str, Any]
"""One round of one phase: ``phase`` (``html`` or ``pdf``), ``paths`` rebuilt (relative to
the build folder, with ``index.html``), ``errors`` (the lines the command line prints, one
for each cause) and their ``causes``, ``seconds``, and ``final`` (no PDF phase follows)."""


def watched(edition: Edition) -> list[Path]:
    """The folders whose files the books are made from and a writer edits: the edition's
    definitions, texts and examples, and the catalogues (pnp's and the edition's)."""
    from pnp.i18n.languages import LOCALE
    from pnp.registry import rules_dir

    return [rules_dir(), edition.templates, edition.examples, LOCALE,
            *([edition.locale] if edition.locale else [])]


def snapshot(folders: Sequence[Path], out: Path | None = None) -> dict[str, tuple[int, int, int]]:
    """Each file under ``folders`` (hidden files, editors' backups and the build folder
    ``out`` left out: the watch's own writes are no edit) with its modification time,
    size and inode: any edit changes one of them."""
    state = {}
    built = os.path.realpath(out) if out is not None else None
    for top in folders:
        for folder, names, files in os.walk(os.path.realpath(top)):
            names[:] = [name for name in names if not name.startswith(".")
                        and name != "__pycache__" and os.path.join(folder, name) != built]
            for name in files:
                if name.startswith(".") or name.endswith("~"):
                    continue
                path = os.path.join(folder, name)
                try:
                    status = os.stat(path)
                except OSError:
                    continue
                state[path] = (status.st_mtime_ns, status.st_size, status.st_ino)
    return state


def build(phase: str, targets: Sequence[Target], out: Path, jobs: int | None) -> Report:
    """Build ``targets`` into ``out``; what was rebuilt and what failed, as a report."""
    from pnp.build import run

    start = time.perf_counter()
    report: Report = {"phase": phase, "paths": [], "final": phase != "html"}
    causes: dict[str, str] = {}
    try:
        summary = run(out, targets=targets, jobs=jobs)
    except PnpError as exc:
        causes = {line: line for line in error_lines(exc)}
        report["final"] = True
    except Exception as exc:  # the watch goes on whatever one round meets
        line = f"error: {type(exc).__name__}: {one_line(exc)}"
        causes = {line: line}
        report["final"] = True
    else:
        built = [o.target.relative.as_posix() for o in summary.outcomes if o.status == "built"]
        failed = [o for o in summary.outcomes if o.status == "failed"]
        for outcome in failed:
            causes.setdefault(outcome.error, outcome.line)
        report["paths"] = [*built, "index.html"] if built or failed else []
    report.update(errors=list(causes.values()), causes=list(causes),
                  seconds=round(time.perf_counter() - start, 3))
    return report


def targets_of(out: Path) -> list[Target]:
    """What the watch keeps built: the targets the folder's manifest has (all of them for
    a folder with none), fixed for the session so that one that fails is tried again."""
    from pnp.build.manifest import check_out, read_manifest
    from pnp.build.plan import planned
    from pnp.outputs.writing import locked

    check_out(out)
    with locked(out):
        every = planned(out)
        built = read_manifest(out)[0]
    kept = [target for target in every if target.relative.as_posix() in built]
    return kept or every


def start_without_ctrl_c(process: Any) -> None:
    """Start ``process`` (a :mod:`multiprocessing` one) holding Ctrl-C back until it has
    called :func:`ignore_ctrl_c`: Ctrl-C is the command's to handle, and the process is
    ended by it. A Ctrl-C meanwhile reaches this process a moment later."""
    held = hasattr(signal, "pthread_sigmask")
    if held:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        process.start()
    finally:
        if held:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def ignore_ctrl_c() -> None:
    """In a process started by :func:`start_without_ctrl_c`: ignore Ctrl-C, as the
    processes it starts will."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class Later:
    """The PDF phase, in a process of its own that a new edit stops."""

    def __init__(self, targets: Sequence[Target], out: Path, jobs: int | None) -> None:
        import multiprocessing

        from pnp.build.workers import starter

        context = multiprocessing.get_context()
        self.receiver, sender = context.Pipe(duplex=False)
        self.process = context.Process(target=_build_later,
                                       args=(list(targets), out, jobs, sender, current(),
                                             starter(context)))
        self.process.start()
        sender.close()

    def result(self) -> Report | None:
        """The phase's report once it has ended, else None."""
        if not self.receiver.poll():
            return None
        try:
            report: Report = self.receiver.recv()
        except (EOFError, OSError):
            from pnp.build.workers import death

            self.process.join()
            line = f"error: the build of the PDFs stopped ({death(self.process.exitcode)})"
            report = {"phase": "pdf", "paths": [], "final": True, "seconds": 0,
                      "errors": [line], "causes": [line]}
        self.stop()
        return report

    def stop(self) -> None:
        """End the phase now, if it still runs: the build is made to be killed."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.receiver.close()


def _build_later(targets: list[Target], out: Path, jobs: int | None, send: Connection,
                 edition: Edition, parent: int | None) -> None:
    from pnp.build.workers import die_with_parent

    use(edition)
    die_with_parent(parent)
    send.send(build("pdf", targets, out, jobs))


def builder(edition: Edition, out: Path, send: Connection, jobs: int | None = None,
            poll: float = POLL, parent: int | None = None) -> None:
    """The builder process: build what is out of date, then what each edit changes,
    reporting every round through ``send``; until it is killed (with the server)."""
    import pnp.books.render
    import pnp.sheets.layout  # noqa: F401
    from pnp.build.workers import warm_worker
    from pnp.i18n.catalogues import forget

    use(edition)
    ignore_ctrl_c()
    warm_worker(parent)  # also ends this process with the server
    targets = targets_of(out)
    html = [target for target in targets if target.fmt == "html"]
    rest = [target for target in targets if target.fmt != "html"]
    folders = watched(edition)
    seen = snapshot(folders, out)
    later: Later | None = None
    changed = True
    while True:
        if changed:
            if later:
                later.stop()
            forget()  # read again by the workers forked from here
            report = build("html", html, out, jobs)
            later = None if report["final"] or not rest else Later(rest, out, jobs)
            report["final"] = later is None
            send.send(report)
        time.sleep(poll)
        now = snapshot(folders, out)
        changed = now != seen
        seen = now
        if later and not changed and (done := later.result()) is not None:
            send.send(done)
            later = None


class Live:
    """What the builder last reported, for the pages open in browsers (thread-safe)."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.round = 0
        self.errors: dict[str, dict[str, str]] = {}
        """Each phase's error lines of the last edit, by cause."""
        self.reports: collections.deque[tuple[int, Report]] = collections.deque(maxlen=HISTORY)
        self.settled = False
        """Whether the last round is over, PDFs and all (not before the first report)."""
        self.closed = False

    def report(self, report: Report) -> None:
        """Take a builder's report: an HTML phase begins a round (the PDFs' errors are
        those of the last edit no longer)."""
        with self.changed:
            if report["phase"] == "html":
                self.errors = {}
            self.errors[report["phase"]] = dict(zip(report["causes"], report["errors"],
                                                    strict=True))
            self.round += 1
            self.settled = bool(report["final"])
            self.reports.append((self.round, {**report, "errors": self.current()}))
            self.changed.notify_all()

    def current(self) -> list[str]:
        """The errors of the last edit: one line for each cause (an error in a text fails
        its HTML and PDF editions alike)."""
        lines: dict[str, str] = {}
        for causes in self.errors.values():
            for cause, line in causes.items():
                lines.setdefault(cause, line)
        return list(lines.values())

    def since(self, seen: int, timeout: float) -> tuple[int, list[Report]]:
        """The reports after round ``seen``, waiting up to ``timeout`` seconds for one."""
        with self.changed:
            self.changed.wait_for(lambda: self.round > seen or self.closed, timeout)
            return self.round, [report for number, report in self.reports if number > seen]

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self.changed.notify_all()


@dataclasses.dataclass
class Watcher:
    """The server's side of the watch: the builder process and the thread that relays
    its reports to :class:`Live` and to the terminal."""

    process: Any
    live: Live

    @classmethod
    def start(cls, out: Path, say: Callable[[str], None], jobs: int | None = None,
              poll: float = POLL) -> Watcher:
        """Fork the builder (before the server starts any thread) and relay its reports."""
        import multiprocessing

        from pnp.build.workers import starter

        context = multiprocessing.get_context()
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=builder, name="pnp-builder",
                                  args=(current(), out, sender, jobs, poll, starter(context)))
        start_without_ctrl_c(process)
        sender.close()
        watcher = cls(process, Live())
        threading.Thread(target=watcher._relay, args=(receiver, say), daemon=True).start()
        return watcher

    def _relay(self, receiver: Connection, say: Callable[[str], None]) -> None:
        while True:
            try:
                report: Report = receiver.recv()
            except (EOFError, OSError):
                if not self.live.closed:
                    line = "error: the watch stopped; restart 'pnp serve --watch'"
                    say(line)
                    self.live.report({"phase": "html", "paths": [], "final": True,
                                      "errors": [line], "causes": [line]})
                return
            self.live.report(report)
            for line in _log(report):
                say(line)

    def stop(self) -> None:
        """Stop the builder (and its builds, which are made to be killed)."""
        self.live.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


def _log(report: Report) -> list[str]:
    """What the terminal shows of a report: what was rebuilt, and the errors."""
    built = [path for path in report["paths"] if path != "index.html"]
    lines = []
    if built:
        more = f" and {len(built) - 1} more" if len(built) > 1 else ""
        lines.append(f"rebuilt {built[0]}{more} in {report['seconds']:.1f} s")
    return lines + list(report["errors"])
