"""The build's worker processes: one pool fed with pieces of work, the slowest first.

Each worker pays the expensive set-up (fonts, the WeasyPrint import) once
(:func:`warm_worker`) and dies with the build that started it, even one killed by
``kill -9`` (:func:`die_with_parent`). A worker that dies fails only the piece it was
making: the pieces that may have killed it are made again, each in a process of its own,
whose exit says why (:func:`death`).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from pnp.assets import Edition
from pnp.build.make import make
from pnp.build.outcomes import Outcome
from pnp.outputs.targets import Target

PR_SET_PDEATHSIG = 1
"""Linux ``prctl`` option: the signal a process gets when the thread that forked it ends."""


def make_all(work: list[list[Target]], out: Path, edition: Edition, jobs: int | None,
             record: Callable[[list[Outcome]], None]) -> None:
    """Make the pieces of ``work`` into ``out`` with ``jobs`` workers (default: one per
    core), handing each piece's outcomes to ``record`` as it is done."""
    workers = max(1, min(jobs or os.cpu_count() or 1, len(work)))
    pending = work
    while pending:
        pending, suspects = _pool_round(pending, out, edition, workers, record)
        for piece in suspects:
            record(_make_alone(piece, out, edition))


def _pool_round(pending: list[list[Target]], out: Path, edition: Edition, workers: int,
                record: Callable[[list[Outcome]], None],
                ) -> tuple[list[list[Target]], list[list[Target]]]:
    """Build ``pending`` in one process pool until it is done or a worker dies.

    Returns the pieces still to build in a fresh pool, and the suspects: the pieces that
    may have killed the worker, to build each in a process of its own. The pool hands
    pieces out in order, at most one more than its workers at a time, so the pieces being
    built when a worker died are among the first ``workers + 1`` unfinished ones.
    """
    import multiprocessing
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    unfinished = dict(enumerate(pending))
    futures: dict[Future[list[Outcome]], int] = {}
    try:
        context = multiprocessing.get_context()
        with ProcessPoolExecutor(max_workers=min(workers, len(pending)), initializer=warm_worker,
                                 initargs=(starter(context),), mp_context=context) as pool:
            for index, piece in enumerate(pending):
                futures[pool.submit(make, piece, out, edition)] = index
            for future in as_completed(futures):
                record(future.result())
                del unfinished[futures[future]]
        return [], []
    except BrokenProcessPool:
        pass
    for future, index in futures.items():
        if (index in unfinished and future.done() and not future.cancelled()
                and future.exception() is None):
            record(future.result())
            del unfinished[index]
    left = list(unfinished.values())
    return left[workers + 1:], left[:workers + 1]


def _make_alone(piece: list[Target], out: Path, edition: Edition) -> list[Outcome]:
    """:func:`make` in a process of its own: if the process dies, its exit tells why."""
    import multiprocessing

    context = multiprocessing.get_context()
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_make_and_send,
                              args=(piece, out, edition, sender.send, starter(context)))
    process.start()
    sender.close()
    outcomes: list[Outcome] | None
    try:
        outcomes = receiver.recv()
    except EOFError:
        outcomes = None
    finally:
        receiver.close()
    process.join()
    if outcomes is not None:
        return outcomes
    error = f"the process building it died ({death(process.exitcode)})"
    return [Outcome(target, "failed", error=error) for target in piece]


def _make_and_send(piece: list[Target], out: Path, edition: Edition,
                   send: Callable[[list[Outcome]], None], parent: int | None) -> None:
    warm_worker(parent)  # which also ends this process with its parent
    send(make(piece, out, edition))


def warm_worker(parent: int | None = None) -> None:
    """Pay each worker's set-up once: fonts, the WeasyPrint import, the PDF rasteriser;
    and end with ``parent``, the process that started this one (see :func:`die_with_parent`).

    Never raises: a worker whose set-up fails would break the whole pool. Whatever is
    missing fails the pieces that need it, each with its own message.
    """
    die_with_parent(parent)
    for step in (_import_rasteriser, _import_weasyprint, _register_fonts):
        try:
            step()
        except Exception:
            continue


def _import_rasteriser() -> None:
    import pypdfium2  # noqa: F401


def _import_weasyprint() -> None:
    import weasyprint  # noqa: F401


def _register_fonts() -> None:
    from pnp.draw import fonts

    fonts.register()


def die_with_parent(parent: int | None = None) -> None:
    """End this worker when the build that started it ends, even by ``kill -9``.

    On Linux the kernel sends SIGKILL; elsewhere a thread notices the parent is gone
    (the worker is handed to another parent) within half a second. ``parent`` is the
    process id of that build, passed down when the worker is made: a build killed before
    the worker gets here has already handed it to another parent, which it must not take
    for its own (it would wait for work for ever, holding the build folder's lock).
    """
    import threading

    parent = parent or os.getppid()
    if sys.platform == "linux":
        import ctypes
        import signal

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
        if armed:
            if os.getppid() != parent:
                os._exit(1)
            return
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def starter(context: Any) -> int | None:
    """The parent a process started through the multiprocessing ``context`` has: this
    process, unless a fork server starts it (then it cannot know)."""
    return None if context.get_start_method() == "forkserver" else os.getpid()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def death(exitcode: int | None) -> str:
    """Why a process ended, from its exit code: ``killed by signal SIGKILL``, ``exit status 3``."""
    import signal

    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by signal {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"
