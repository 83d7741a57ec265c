"""Bounds on the processor time and memory one step of making a book may take.

A publisher's templates, Markdown and style sheets can ask for any amount of work; each
step that reads them (rendering a template, reading Markdown, laying a page out) runs
inside :func:`time_limit`, and a template's rendering inside :func:`memory_allowance` too.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any


class TooSlow(BaseException):
    """Raised by :func:`time_limit`'s timer: a BaseException, so that no library's
    ``except Exception`` takes it for one of its own failures."""


RETRY_SECONDS = 0.05


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`TooSlow` once the process has spent ``seconds`` more of processor
    time in the block, and again every 50 ms after, since a signal that arrives inside a
    callback the interpreter runs for a library (a garbage-collection hook, a C
    callback) is swallowed there. It takes the process's profiling timer, so only in the
    main thread and when nothing else uses that timer; elsewhere the block runs
    unbounded."""
    import signal
    import threading

    if (threading.current_thread() is not threading.main_thread()
            or signal.getitimer(signal.ITIMER_PROF) != (0.0, 0.0)):
        yield
        return

    def expire(_signal: int, _frame: Any) -> None:
        raise TooSlow

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds, RETRY_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


@contextlib.contextmanager
def memory_allowance(extra: int) -> Iterator[None]:
    """For a while, let the process take only ``extra`` more bytes of memory (address
    space): a template that would take more fails with a MemoryError then, instead of
    taking the machine's memory. Where the limit cannot be read, nothing changes."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        with open("/proc/self/statm", encoding="ascii") as statm:
            used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (ImportError, OSError, ValueError):
        used = -1
    if used < 0:
        yield
        return
    limit = min(value for value in (used + extra, soft, hard)
                if value != resource.RLIM_INFINITY)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))

